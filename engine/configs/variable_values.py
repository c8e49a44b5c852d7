"""Root module input variable values, gathered and checked as Terraform's CLI does.

`collect_variable_values(module, cli_args, environ, cwd)` takes values from (later wins):
variable defaults, `TF_VAR_<name>` environment variables, `terraform.tfvars`,
`terraform.tfvars.json`, `*.auto.tfvars` / `*.auto.tfvars.json` (lexical order), then `-var` and
`-var-file` in command-line order. Strings from `-var` and `TF_VAR_` are taken raw for
variables of primitive type and parsed as HCL expressions otherwise. Each value is converted
to the declared type ("Invalid value for input variable"), non-nullable nulls are replaced by
the default, sensitive variables get the sensitive mark, and validation rules are evaluated.
Undeclared names: a warning for values from files, an error for `-var`, ignored for TF_VAR_.

`collect_root_inputs` returns, besides those final values, each declared variable's value *as
given*: parsed but neither converted, defaulted nor marked (a `-var=n=4` for a number stays
the string "4", a list given for a set keeps its order and duplicates, an object given for an
object type with optional attributes lacks them, a null given for a non-nullable variable
stays null). Those are what terraform records in a plan (plans.Plan.VariableValues; variables
not given are not recorded). `finalize_given` turns such recorded values back into the final
values exactly as at plan time, for applying a saved plan.
"""

from __future__ import annotations

import os
from collections.abc import Container, Mapping
from dataclasses import dataclass

from engine.configs.exprs import static_value
from engine.configs.module import Module
from engine.configs.syntax import BlockSchema, BodySchema, just_attributes, partial_content
from engine.configs.variable_checks import evaluate_validations
from engine.configs.variables import PARSE_LITERAL, Variable, convert_to_constraint
from engine.diags import Diagnostics, error, warning
from engine.hcl.ast import Expr
from engine.source import Range
from engine.values import SENSITIVE, Value, string, unknown

FROM_ENV = "env"
FROM_CLI = "cli"
FROM_AUTO_FILE = "auto_file"
FROM_NAMED_FILE = "named_file"
FROM_PLAN = "plan"


@dataclass(slots=True)
class RootInputs:
    """The root module's input values: `values` final (converted to the declared type,
    defaulted, non-nullable nulls replaced, sensitive ones marked) for every variable that has
    one; `given` as given (parsed, unconverted, unmarked) for every declared variable a value
    was given for, which is what a plan records."""

    values: dict[str, Value]
    given: dict[str, Value]


@dataclass(slots=True)
class _Unparsed:
    """A value not yet parsed: raw text (CLI, environment), an expression (files) or a value
    already parsed (recorded in a plan)."""

    source: str
    text: str | None = None
    expr: Expr | None = None
    filename: str = ""
    value: Value | None = None

    def parse(self, name: str, mode: str) -> tuple[Value | None, Diagnostics]:
        if self.value is not None:
            return self.value, Diagnostics()
        if self.expr is not None:
            return static_value(self.expr)
        assert self.text is not None
        if mode == PARSE_LITERAL:
            return string(self.text), Diagnostics()
        from engine.hcl import parse_expression

        expr, diags = parse_expression(self.text, f"<value for var.{name}>")
        if diags.has_errors:
            return None, diags
        val, vdiags = static_value(expr)
        diags.extend(vdiags)
        return val, diags


def _read_var_file(path: str, display: str, source: str, into: dict[str, _Unparsed]) -> Diagnostics:
    """Terraform's addVarsFromFile."""
    diags = Diagnostics()
    try:
        with open(path, "rb") as fh:
            # Bytes that are not UTF-8 become U+FFFD: the parser reports them as terraform does
            # ("Invalid character encoding", at the file and line). In JSON they are kept (as
            # lone surrogates, one a byte) so that positions count bytes as terraform's do;
            # strings decode them as U+FFFD.
            raw = fh.read()
            text = raw.decode("utf-8", "surrogateescape" if display.endswith(".json") else "replace")
    except FileNotFoundError:
        diags.append(error("Failed to read variables file", f"Given variables file {display} does not exist."))
        return diags
    except OSError as exc:
        # Go's os.ReadFile wording: "read d: is a directory", "open f: permission denied".
        op = "read" if isinstance(exc, IsADirectoryError) else "open"
        why = exc.strerror or str(exc)
        diags.append(error("Failed to read variables file",
                           f"Error while reading {display}: {op} {display}: {why[:1].lower()}{why[1:]}."))
        return diags
    from engine import hcl

    if display.endswith(".json"):
        parsed, pdiags = hcl.parse_json_file(text, display)
    else:
        parsed, pdiags = hcl.parse_file(text, display)
    diags.extend(pdiags)
    if parsed is None or (pdiags.has_errors and not display.endswith(".json")):
        return diags
    # (a JSON file with syntax errors is still probed for variable blocks, as terraform's
    # addVarsFromFile does, before it stops)
    got, _, _ = partial_content(parsed.body, BodySchema((), (BlockSchema("variable", ("name",)),)))
    for blk in got.blocks:
        name = blk.labels[0]
        diags.append(
            error(
                "Variable declaration in .tfvars file",
                "A .tfvars file is used to assign values to variables that have already been "
                f'declared in .tf files, not to declare new variables. To declare variable "{name}", '
                "place this block in one of your .tf files, such as variables.tf.\n\nTo set a "
                f"value for this variable in {display}, use the definition syntax instead:\n"
                f"    {name} = <value>",
                blk.type_range,
            )
        )
    if diags.has_errors:
        return diags
    attrs, adiags = just_attributes(parsed.body)
    diags.extend(adiags)
    for name, attr in attrs.items():
        into[name] = _Unparsed(source, expr=attr.expr, filename=display)
    return diags


def _gather(
    cli_args: list[tuple[str, str]], environ: Mapping[str, str], cwd: str
) -> tuple[dict[str, _Unparsed], Diagnostics]:
    diags = Diagnostics()
    raw: dict[str, _Unparsed] = {}
    for key in sorted(environ):
        if key.startswith("TF_VAR_") and len(key) > len("TF_VAR_"):
            raw[key[len("TF_VAR_"):]] = _Unparsed(FROM_ENV, text=environ[key])
    for name in ("terraform.tfvars", "terraform.tfvars.json"):
        path = os.path.join(cwd, name)
        if os.path.isfile(path):
            diags.extend(_read_var_file(path, name, FROM_AUTO_FILE, raw))
    try:
        names = sorted(os.listdir(cwd))
    except OSError:
        names = []
    for name in names:
        if name.endswith((".auto.tfvars", ".auto.tfvars.json")) and os.path.isfile(os.path.join(cwd, name)):
            diags.extend(_read_var_file(os.path.join(cwd, name), name, FROM_AUTO_FILE, raw))
    for kind, arg in cli_args:
        if kind == "var-file":
            diags.extend(_read_var_file(os.path.join(cwd, arg), arg, FROM_NAMED_FILE, raw))
            continue
        eq = arg.find("=")
        if eq < 0:
            diags.append(
                error(
                    "Invalid -var option",
                    f'The given -var option "{arg}" is not correctly specified. Must be a variable '
                    'name and value separated by an equals sign, like -var="key=value".',
                )
            )
            continue
        name, value = arg[:eq], arg[eq + 1 :]
        if name.endswith(" "):
            diags.append(
                error(
                    "Invalid -var option",
                    f'Variable name "{name}" is invalid due to trailing space. Did you mean '
                    f'-var="{name.rstrip(" ")}={value.lstrip(" ")}"?',
                )
            )
            continue
        raw[name] = _Unparsed(FROM_CLI, text=value)
    return raw, diags


def _undeclared(raw: dict[str, _Unparsed], declared: Container[str], diags: Diagnostics) -> None:
    seen_in_file = 0
    for name in sorted(raw):
        if name in declared:
            continue
        u = raw[name]
        _, pdiags = u.parse(name, PARSE_LITERAL)
        if pdiags.has_errors:
            diags.extend(pdiags)
            continue
        if u.source in (FROM_AUTO_FILE, FROM_NAMED_FILE):
            if seen_in_file < 2:
                diags.append(
                    warning(
                        "Value for undeclared variable",
                        f'The root module does not declare a variable named "{name}" but a value '
                        f'was found in file "{u.filename}". If you meant to use this value, add a '
                        '"variable" block to the configuration.\n\nTo silence these warnings, use '
                        'TF_VAR_... environment variables to provide certain "global" settings to '
                        "all configurations in your organization. To reduce the verbosity of these "
                        "warnings, use the -compact-warnings option.",
                    )
                )
            seen_in_file += 1
        elif u.source == FROM_CLI:
            diags.append(
                error(
                    "Value for undeclared variable",
                    f'A variable named "{name}" was assigned on the command line, but the root '
                    "module does not declare a variable of that name. To use this value, add a "
                    '"variable" block to the configuration.',
                )
            )
    if seen_in_file > 2:
        diags.append(
            warning(
                "Values for undeclared variables",
                f"In addition to the other similar warnings shown, {seen_in_file - 2} other "
                "variable(s) defined without being declared.",
            )
        )


def _non_file_source(u: _Unparsed, name: str) -> str:
    if u.source == FROM_CLI:
        return f'set using -var="{name}=..."'
    if u.source == FROM_ENV:
        return f"set using the TF_VAR_{name} environment variable"
    return ""


def _final_value(
    v: Variable, u: _Unparsed | None, diags: Diagnostics
) -> tuple[Value | None, Value | None]:
    """Terraform's prepareFinalInputVariableValue for one root variable: (the final value,
    None when there is none; the value as given, None when none was given or it could not be
    parsed)."""
    addr = f"var.{v.name}"
    if u is None:
        if v.required:
            diags.append(
                error(
                    "No value for required variable",
                    f'The root module input variable "{v.name}" is not set, and has no default '
                    "value. Use a -var or -var-file command line argument to provide a value for "
                    "this variable.",
                    v.decl_range,
                )
            )
            return None, None
        assert v.default is not None
        return v.default, None
    given, pdiags = u.parse(v.name, v.parsing_mode)
    diags.extend(pdiags)
    if given is None:
        return unknown(v.type), None
    other = _non_file_source(u, v.name)
    src_range: Range | None = u.expr.range if u.expr is not None else None
    val, msg = convert_to_constraint(given, v.type)
    if val is None:
        if other or src_range is None:
            detail = f"Unsuitable value for {addr} {other or 'set from outside of the configuration'}: {msg}."
            subject = v.decl_range
        else:
            detail = f"The given value is not suitable for {addr} declared at {v.decl_range}: {msg}."
            subject = src_range
        diags.append(error("Invalid value for input variable", detail, subject))
        return unknown(v.type), given
    if val.is_null and not v.nullable:
        if v.default is not None:
            return v.default, given
        if other or src_range is None:
            detail = (
                f"Unsuitable value for {addr} {other or 'set from outside of the configuration'}: "
                "required variable may not be set to null."
            )
            subject = v.decl_range
        else:
            detail = (
                f"The given value is not suitable for {addr} defined at {v.decl_range}: required "
                "variable may not be set to null."
            )
            subject = src_range
        diags.append(error("Required variable not set", detail, subject))
        return unknown(v.type), given
    return val, given


def _finalize(
    module: Module, raw: dict[str, _Unparsed], diags: Diagnostics, validate: bool
) -> RootInputs:
    inputs = RootInputs({}, {})
    subjects: dict[str, Range] = {}
    for name, v in module.variables.items():
        u = raw.get(name)
        val, given = _final_value(v, u, diags)
        if given is not None:
            inputs.given[name] = given
        if val is None:
            continue
        if v.sensitive:
            val = val.mark(SENSITIVE)
        inputs.values[name] = val
        subjects[name] = u.expr.range if u is not None and u.expr is not None else v.decl_range
    if validate:
        diags.extend(evaluate_validations(module, inputs.values, subjects))
    return inputs


def collect_root_inputs(
    module: Module,
    cli_args: list[tuple[str, str]],
    environ: Mapping[str, str],
    cwd: str,
    validate: bool = True,
) -> tuple[RootInputs, Diagnostics]:
    """The root variables' final and as-given values (see `RootInputs`), and the diagnostics.

    `cli_args` holds ("var", "name=value") and ("var-file", "path") in command-line order;
    `cwd` is where terraform.tfvars / *.auto.tfvars are looked for and -var-file paths are
    relative to. With `validate=False` the variables' validation rules are left to the
    caller (values are still converted, defaulted and marked)."""
    raw, diags = _gather(cli_args, environ, cwd)
    _undeclared(raw, module.variables, diags)
    return _finalize(module, raw, diags, validate), diags


def collect_variable_values(
    module: Module,
    cli_args: list[tuple[str, str]],
    environ: Mapping[str, str],
    cwd: str,
    validate: bool = True,
) -> tuple[dict[str, Value], Diagnostics]:
    """The final value of every root variable that has one, and the diagnostics (the
    `values` of `collect_root_inputs`)."""
    inputs, diags = collect_root_inputs(module, cli_args, environ, cwd, validate)
    return inputs.values, diags


def finalize_given(
    module: Module, given: Mapping[str, Value], validate: bool = False
) -> tuple[RootInputs, Diagnostics]:
    """The inputs that values recorded as given (a saved plan's variables) stand for: each
    converted, defaulted and marked exactly as `collect_root_inputs` did when they were given;
    variables without a recorded value take their defaults. Recorded names the module no
    longer declares are ignored."""
    raw = {name: _Unparsed(FROM_PLAN, value=val) for name, val in given.items()}
    diags = Diagnostics()
    return _finalize(module, raw, diags, validate), diags


# ------------------------------------------------------------------ saved plans
def recorded_variables(module: Module, given: Mapping[str, Value]) -> tuple[dict[str, Value],
                                                                            list[str]]:
    """What a saved plan records of the values `given`: (the values of the variables that are
    not ephemeral, the names of the ephemeral ones given a non-null value, sorted). The
    values of ephemeral variables are never stored; they must be given again to apply."""
    values: dict[str, Value] = {}
    apply_time: list[str] = []
    for name, val in given.items():
        decl = module.variables.get(name)
        if decl is not None and decl.ephemeral:
            if not val.is_null:
                apply_time.append(name)
            continue
        values[name] = val
    return values, sorted(apply_time)


_SOURCE_LABELS = {
    FROM_CLI: "set by a CLI argument",
    FROM_NAMED_FILE: "set by a .tfvars file passed through -var-file argument",
    FROM_AUTO_FILE: "set by an automatically loaded .tfvars file",
    FROM_ENV: "set by an environment variable",
}
_CHANGED_VARIABLE = (
    "The variable {name} cannot be {how} when applying a saved plan file, because a saved "
    "plan includes the variable values that were set when it was created. The saved plan "
    "specifies {planned} as the value whereas during apply the value {given} was {label}. "
    "To declare an ephemeral variable which is not saved in the plan file, use ephemeral = "
    "true."
)


def apply_time_given(
    module: Module,
    planned: Mapping[str, Value],
    apply_time: list[str],
    cli_args: list[tuple[str, str]],
    environ: Mapping[str, str],
    cwd: str,
) -> tuple[dict[str, Value], Diagnostics]:
    """The values as given for a saved plan's apply-time (ephemeral) variables, from the same
    places a plan takes values from, checked as terraform 1.11 checks them when applying a
    saved plan (`planned`: the values it recorded, `apply_time`: its apply-time variables):

    - an ephemeral variable not set when planning must stay unset ("Ephemeral variable was
      not set during planning"); one that was must be set again, non-null ("Ephemeral
      variable must be set for apply", "No value for required variable");
    - a value for a recorded variable that differs from the recorded one is an error from
      -var or -var-file ("Can't change variable when applying a saved plan"), a warning from
      the environment, ignored from an automatically loaded file;
    - a value for any other variable is undeclared (an error from -var, a warning from a
      variables file, ignored from the environment)."""
    from engine.lang.eval_diag import compact_value
    from engine.values.compare import equals

    raw, diags = _gather(cli_args, environ, cwd)
    needed = set(apply_time)
    values: dict[str, Value] = {}
    undeclared: dict[str, _Unparsed] = {}
    for name in sorted(raw):
        u = raw[name]
        decl = module.variables.get(name)
        val, pdiags = (None, Diagnostics()) if decl is None else u.parse(name, decl.parsing_mode)
        if decl is None or val is None or pdiags.has_errors:
            undeclared[name] = u
            continue
        subject = u.expr.range if u.expr is not None else None
        if decl.ephemeral:
            if name not in needed:
                diags.append(error(
                    "Ephemeral variable was not set during planning",
                    f'The ephemeral input variable "{name}" was not set during the planning '
                    "phase, and so must remain unset during the apply phase.", subject))
            elif val.is_null:
                diags.append(error(
                    "Ephemeral variable must be set for apply",
                    f'The ephemeral input variable "{name}" was set during the planning '
                    "phase, and so must be set again during the apply phase."))
            else:
                values[name] = val
            continue
        before = planned.get(name)
        if before is None:
            undeclared[name] = u
            continue
        if equals(val, before).v is not False or u.source == FROM_AUTO_FILE:
            continue
        shown = [x.mark(SENSITIVE) if decl.sensitive else x for x in (before, val)]
        text = _CHANGED_VARIABLE.format(
            name=name, planned=compact_value(shown[0]), given=compact_value(shown[1]),
            label=_SOURCE_LABELS.get(u.source, "unknown"),
            how="overriden" if u.source == FROM_ENV else
            "set using the -var and -var-file options")
        if u.source == FROM_ENV:
            diags.append(warning("Ignoring variable when applying a saved plan", text, subject))
        else:
            diags.append(error("Can't change variable when applying a saved plan", text,
                               subject))
    _undeclared(undeclared, (), diags)
    if diags.has_errors:
        return values, diags
    for name in apply_time:
        if name not in values:
            diags.append(error(
                "No value for required variable",
                f'The ephemeral input variable "{name}" was set during the plan phase, and so '
                "must also be set during the apply phase."))
    return values, diags
