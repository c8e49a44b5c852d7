"""Reading a `backend "TYPE" { ... }` block and `init -backend-config=...` as terraform 1.11 does.

- `decode_block(backend)` decodes the block against the type's schema: every argument must be
  one the schema names ("Unsupported argument ... Did you mean ...?", "Unsupported block type"),
  each value a constant of its type ("Incorrect attribute value type"); a type without a schema
  here is an error at the type label, never ignored.
- `apply_overrides(config, items)` merges `-backend-config` items in order: `KEY=VALUE` (a
  string converted to the argument's type, any other type parsed as an expression) or a file
  of arguments (HCL); an argument the schema does not name is terraform's error.
- `cty_hash` of the block alone (before overrides) is what terraform records and compares.

The decoded configuration is `{name: Value}` over every schema argument (null when unset),
with `ranges` remembering where each came from so later checks (the S3 backend's
PrepareConfig) point at the file and line.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from engine.backend.schema import KNOWN_TYPES, SCHEMAS, BackendSchema, cty_hash
from engine.configs.exprs import static_value
from engine.configs.syntax import AttrSchema, BodySchema, content
from engine.configs.terraform_block import Backend as BackendBlock
from engine.diags import Diagnostics, error
from engine.hcl.ast import Attribute, Body
from engine.source import Range
from engine.values import STRING, PrimitiveType, Type, Value


@dataclass
class BackendConfig:
    """A decoded backend configuration (see the module docstring)."""

    type: str
    values: dict[str, Value]
    schema: BackendSchema
    decl_range: Range | None = None
    ranges: dict[str, Range] = field(default_factory=dict)

    @property
    def hash(self) -> int:
        return cty_hash(self.type, self.values, self.schema)

    def python(self) -> dict[str, object]:
        """The configuration as plain JSON-able values (sets as sorted lists)."""
        from engine.values import value_to_json

        return {k: value_to_json(v) for k, v in sorted(self.values.items())}

    def get(self, name: str) -> object:
        v = self.values.get(name)
        if v is None or v.v is None:
            return None
        from engine.values import value_to_json

        return value_to_json(v)


def unsupported_type(block: BackendBlock) -> Diagnostics:
    """The error for a backend type this build cannot use (at the type label)."""
    diags = Diagnostics()
    if block.type not in KNOWN_TYPES:
        diags.append(error(
            "Unsupported backend type",
            f'There is no backend type named "{block.type}".',
            block.type_range,
        ))
    else:
        supported = ", ".join(f'"{t}"' for t in sorted(SCHEMAS))
        diags.append(error(
            "Unsupported backend type",
            f'groundplan does not implement the "{block.type}" backend; the state would not '
            f"be stored where this configuration says. Supported backend types: {supported}.",
            block.type_range,
        ))
    return diags


def _convert(attr_name: str, val: Value, want: Type) -> tuple[Value | None, str]:
    from engine.values.convert import ConversionError, convert

    try:
        out = convert(val.unmark()[0], want)
    except ConversionError as exc:
        return None, f'Inappropriate value for attribute "{attr_name}": {exc.message}.'
    return out, ""


def _decode_attr(attr: Attribute, want: Type) -> tuple[Value | None, Diagnostics]:
    val, diags = static_value(attr.expr)
    if val is None:
        return None, diags
    if not val.is_wholly_known():
        diags.append(error("Unsuitable value type", "Unsuitable value: value must be known",
                           attr.expr.range))
        return None, diags
    out, problem = _convert(attr.name, val, want)
    if out is None:
        diags.append(error("Incorrect attribute value type", problem, attr.expr.range))
    return out, diags


def _decode_body(body: Body, schema: BackendSchema, into: BackendConfig) -> Diagnostics:
    body_schema = BodySchema(tuple(AttrSchema(n) for n in schema.attributes), ())
    got, diags = content(body, body_schema)
    for name, attr in got.attributes.items():
        val, more = _decode_attr(attr, schema.attributes[name])
        diags.extend(more)
        if val is not None:
            into.values[name] = val
            into.ranges[name] = attr.expr.range
    return diags


def decode_block(block: BackendBlock) -> tuple[BackendConfig | None, Diagnostics]:
    """The block's configuration (before `-backend-config`); None when it cannot be used."""
    schema = SCHEMAS.get(block.type)
    if schema is None:
        return None, unsupported_type(block)
    cfg = BackendConfig(block.type, schema.null_config(), schema, block.decl_range)
    diags = _decode_body(block.config, schema, cfg)
    return (None if diags.has_errors else cfg), diags


def _cli_value(raw: str, want: Type) -> tuple[Value | None, str]:
    """terraform's configValueFromCLI: a string for primitive types, else an expression."""
    if isinstance(want, PrimitiveType):
        return _convert("", Value(STRING, raw), want)
    from engine import hcl

    expr, pdiags = hcl.parse_expression(raw, "<value for backend config>")
    if pdiags.has_errors:
        return None, pdiags.errors[0].detail or pdiags.errors[0].summary
    val, vdiags = static_value(expr)
    if val is None:
        return None, vdiags.errors[0].detail if vdiags.errors else "invalid value"
    return _convert("", val, want)


def apply_overrides(cfg: BackendConfig, items: list[str], cwd: str) -> Diagnostics:
    """Merge `-backend-config` items into `cfg` in order (see the module docstring)."""
    diags = Diagnostics()
    for item in items:
        eq = item.find("=")
        if eq < 0:
            diags.extend(_override_file(cfg, item, cwd))
            continue
        name, raw = item[:eq], item[eq + 1:]
        want = cfg.schema.attributes.get(name)
        if want is None:
            diags.append(error(
                "Invalid backend configuration argument",
                f'The backend configuration argument "{name}" given on the command line is '
                "not expected for the selected backend type.",
            ))
            continue
        val, problem = _cli_value(raw, want)
        if val is None:
            diags.append(error(
                "Invalid backend configuration argument",
                f'The backend configuration argument "{name}" given on the command line '
                f"has an invalid value: {problem.replace('Inappropriate value for attribute ', '')}",
            ))
            continue
        cfg.values[name] = val
        cfg.ranges.pop(name, None)
    return diags


def _override_file(cfg: BackendConfig, path: str, cwd: str) -> Diagnostics:
    diags = Diagnostics()
    full = path if os.path.isabs(path) else os.path.join(cwd, path)
    try:
        with open(full, "rb") as fh:
            text = fh.read().decode("utf-8", "replace")
    except OSError:
        diags.append(error("Failed to read file", f'The file "{path}" could not be read.'))
        return diags
    from engine import hcl

    if path.endswith(".json"):
        parsed, pdiags = hcl.parse_json_file(text, path)
    else:
        parsed, pdiags = hcl.parse_file(text, path)
    diags.extend(pdiags)
    if parsed is None or pdiags.has_errors:
        return diags
    diags.extend(_decode_body(parsed.body, cfg.schema, cfg))
    return diags


def from_record(backend_type: str, recorded: dict[str, object]) -> tuple[BackendConfig | None, str]:
    """A configuration rebuilt from `.terraform/terraform.tfstate`'s `config` object."""
    schema = SCHEMAS.get(backend_type)
    if schema is None:
        return None, f'backend type "{backend_type}" is not supported'
    from engine.values import value_from_json

    cfg = BackendConfig(backend_type, schema.null_config(), schema)
    for name, raw in recorded.items():
        want = schema.attributes.get(name)
        if want is None:
            return None, f'unexpected attribute "{name}" for backend "{backend_type}"'
        try:
            cfg.values[name] = value_from_json(raw, want)
        except (ValueError, TypeError) as exc:
            return None, f'attribute "{name}": {exc}'
    return cfg, ""
