"""The `templatefile` function: render a file of the module as a template with given variables.

The file is read as `file` reads it, parsed with `engine.hcl.parse_template` (named by the path
as given) and evaluated with `engine.lang.evaluate` in a scope holding only the `vars` map and
the module's functions; `templatefile` itself is replaced by a function that refuses to run, so
a template cannot include itself. Errors read as Terraform's: reference checks name the missing
key and where it is used, template diagnostics are flattened as HCL's `Diagnostics.Error()`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from engine.diags import hcl_error_text
from engine.gocompat.strconv import quote as go_quote
from engine.lang.functions import FunctionTable
from engine.lang.functions.base import Function, FunctionError, Param
from engine.values import DYNAMIC, STRING, MapType, ObjectType, Type, Value

_IDENT = re.compile(r"[^\W\d-][\w-]*")


def valid_identifier(name: str) -> bool:
    """Whether `name` is an HCL identifier (letter or `_`, then letters, digits, `_`, `-`)."""
    return bool(_IDENT.fullmatch(name))


def diagnostics_error(diags: Any) -> str:
    """HCL's `Diagnostics.Error()` of the errors in `diags` (of all of them when none is an
    error)."""
    errors = [d for d in diags if d.is_error] or list(diags)
    return hcl_error_text(errors)


_PARAMS = (Param("path", STRING, allow_marked=True), Param("vars", DYNAMIC, allow_marked=True))

FILESYSTEM_FUNCTIONS = frozenset(
    {
        "file", "fileexists", "fileset", "filebase64", "filebase64sha256", "filebase64sha512",
        "filemd5", "filesha1", "filesha256", "filesha512",
    }
)
TEMPLATE_FUNCTIONS = frozenset({"templatefile", "templatestring"})


def _refusing(name: str, message: str) -> Function:
    def _ret(args: Sequence[Value]) -> Type:
        raise FunctionError(message)

    def _impl(args: Sequence[Value], ret: Type) -> Value:
        raise FunctionError(message)

    return Function(name, (), _impl, _ret, var_param=Param("args", DYNAMIC, allow_null=True))


def render_template(
    expr: Any, vars_val: Value, functions: Mapping[str, Function], allow_fs: bool = True
) -> Value:
    """Evaluate a parsed template with only `vars_val`'s attributes in scope.

    Inside the template the template functions refuse to run (no recursion) and, unless
    `allow_fs`, so do the filesystem functions (templatestring's rule). Raises FunctionError
    pointing at the vars argument for bad variable names or missing keys.
    """
    from engine.hcl.ast import TraverseRoot
    from engine.lang import EvalContext, evaluate, references

    if not isinstance(vars_val.type, (MapType, ObjectType)):
        raise FunctionError("invalid vars value: must be a map", 1)
    variables: dict[str, Value] = dict(vars_val.v) if isinstance(vars_val.v, dict) else {}
    for name in variables:
        if not valid_identifier(name):
            raise FunctionError(
                f"invalid template variable name {go_quote(name)}: must start with a "
                "letter, followed by zero or more letters, digits, and underscores",
                1,
            )
    for traversal, _rng in references(expr):
        root = traversal[0]
        if isinstance(root, TraverseRoot) and root.name not in variables:
            raise FunctionError(
                f"vars map does not contain key {go_quote(root.name)}, "
                f"referenced at {root.range}",
                1,
            )
    refused: dict[str, Function] = {}
    for name in functions_named(functions, TEMPLATE_FUNCTIONS):
        plain = name.removeprefix("core::")
        refused[name] = _refusing(
            plain, f"cannot recursively call {plain} from inside another template function"
        )
    if not allow_fs:
        for name in functions_named(functions, FILESYSTEM_FUNCTIONS):
            plain = name.removeprefix("core::")
            refused[name] = _refusing(
                plain,
                f"cannot use filesystem access functions like {plain} in templatestring "
                "templates; consider passing the function result as a template variable instead",
            )
    scoped: Mapping[str, Function] = (
        functions.with_functions(refused) if isinstance(functions, FunctionTable)
        else {**functions, **refused}
    )
    val, diags = evaluate(expr, EvalContext(variables, scoped))
    if diags.has_errors:
        raise FunctionError(diagnostics_error(diags))
    return val


def make_templatefile(base_dir: str, file_fn: Function) -> Function:
    """`templatefile` for a module at `base_dir`; `file_fn` is that module's `file` function."""

    def load(path: Value) -> Any:
        from engine.hcl.parser import parse_template

        text = file_fn.impl([path], STRING)
        expr, diags = parse_template(str(text.v), str(path.unmark()[0].v))
        if diags.has_errors:
            raise FunctionError(diagnostics_error(diags))
        return expr


    def render(expr: Any, vars_val: Value) -> Value:
        from engine.lang.functions import function_table

        return render_template(expr, vars_val, function_table(base_dir))

    def _ret(args: Sequence[Value]) -> Type:
        if not (args[0].is_known and args[1].is_known):
            return DYNAMIC
        return render(load(args[0]), args[1].unmark_deep()[0]).type

    def _impl(args: Sequence[Value], ret: Type) -> Value:
        # as cty does for a parameter without AllowMarked, every mark anywhere in vars moves
        # to the result
        _, marks = args[0].unmark()
        vars_val, var_marks = args[1].unmark_deep()
        return render(load(args[0]), vars_val).with_marks(marks | var_marks)

    return Function("templatefile", _PARAMS, _impl, _ret)


def functions_named(functions: Mapping[str, Function], plain_names: Iterable[str]) -> list[str]:
    """The names in `functions` that are one of `plain_names`, bare or `core::`-prefixed."""
    return [n for plain in plain_names for n in (plain, "core::" + plain) if n in functions]
