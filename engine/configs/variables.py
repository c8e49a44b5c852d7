"""`variable` blocks: the input variable declarations of a module."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.configs.checks import CheckRule, decode_check_rule
from engine.configs.exprs import (
    decode_bool,
    decode_string,
    expr_as_keyword,
    is_native_quoted_string,
    json_string_as_expr,
    literal_string,
    static_value,
    valid_identifier,
    variables,
)
from engine.configs.syntax import AttrSchema, BlockSchema, BodySchema, content
from engine.diags import Diagnostics, error
from engine.hcl.ast import Block, Expr
from engine.source import Range
from engine.values import DYNAMIC, NULL_DYNAMIC, UNKNOWN_DYNAMIC, ListType, MapType, Type, Value

BAD_IDENTIFIER_DETAIL = (
    "A name must start with a letter or underscore and may contain only letters, digits, "
    "underscores, and dashes."
)

VARIABLE_SCHEMA = BodySchema(
    attributes=(
        AttrSchema("description"),
        AttrSchema("default"),
        AttrSchema("type"),
        AttrSchema("sensitive"),
        AttrSchema("nullable"),
        AttrSchema("ephemeral"),
    ),
    blocks=(BlockSchema("validation"),),
)

# Names that mean something inside a `module` block and so cannot name a variable.
RESERVED_VARIABLE_NAMES = (
    "source", "version", "count", "for_each", "depends_on", "providers",
    "_", "lifecycle", "locals", "provider",
)

PARSE_LITERAL = "literal"
PARSE_HCL = "hcl"


@dataclass(slots=True)
class Variable:
    """An input variable. `type` is the constraint (with optional attributes); `default` is
    None when the variable is required, else the default converted to the constraint.
    `parsing_mode` says how a -var / TF_VAR_ string is read (raw string, or HCL)."""

    name: str
    decl_range: Range
    name_range: Range
    type: Type = DYNAMIC
    type_set: bool = False
    type_range: Range | None = None
    parsing_mode: str = PARSE_LITERAL
    default: Value | None = None
    default_range: Range | None = None
    description: str = ""
    description_set: bool = False
    sensitive: bool = False
    sensitive_set: bool = False
    nullable: bool = True
    nullable_set: bool = False
    ephemeral: bool = False
    ephemeral_set: bool = False
    validations: list[CheckRule] = field(default_factory=list)

    @property
    def required(self) -> bool:
        return self.default is None


_QUOTED_TYPE_DETAIL = (
    "Terraform 0.11 and earlier required type constraints to be given in quotes, but that form "
    "is now deprecated and will be removed in a future version of Terraform. Remove the quotes "
    'around "{0}"{1}.'
)


def decode_variable_type(expr: Expr) -> tuple[Type, str, Diagnostics]:
    """The type constraint an expression spells, and the parsing mode it implies."""
    diags = Diagnostics()
    if is_native_quoted_string(expr):
        s = literal_string(expr) or ""
        extra = {
            "string": "",
            "list": " and write list(string) instead to explicitly indicate that the list elements are strings",
            "map": " and write map(string) instead to explicitly indicate that the map elements are strings",
        }
        if s in extra:
            diags.append(
                error("Invalid quoted type constraints", _QUOTED_TYPE_DETAIL.format(s, extra[s]), expr.range)
            )
            return DYNAMIC, PARSE_LITERAL if s == "string" else PARSE_HCL, diags
        diags.append(
            error(
                "Invalid legacy variable type hint",
                "To provide a full type expression, remove the surrounding quotes and give the "
                "type expression directly.",
                expr.range,
            )
        )
        return DYNAMIC, PARSE_HCL, diags
    if expr.range.filename.endswith(".json"):
        expr = json_string_as_expr(expr, diags)
    kw = expr_as_keyword(expr)
    if kw == "list":
        return ListType(DYNAMIC), PARSE_HCL, diags
    if kw == "map":
        return MapType(DYNAMIC), PARSE_HCL, diags
    ty, tdiags = _type_constraint(expr)
    diags.extend(tdiags)
    if tdiags.has_errors:
        return DYNAMIC, PARSE_HCL, diags
    return ty, (PARSE_LITERAL if ty.is_primitive else PARSE_HCL), diags


def _type_constraint(expr: Expr) -> tuple[Type, Diagnostics]:
    """The values package's type-constraint reader, optional-attribute defaults evaluated
    statically (no variables, no functions)."""
    from engine.configs.typeexpr import type_constraint_from_expr

    def eval_default(e: Expr) -> tuple[Value, Diagnostics]:
        val, d = static_value(e)
        return (val if val is not None else NULL_DYNAMIC), d

    return type_constraint_from_expr(expr, eval_default)


def convert_to_constraint(val: Value, ty: Type) -> tuple[Value | None, str]:
    """`val` converted to a type constraint (optional attributes defaulted), or the error."""
    from engine.values.convert import ConversionError, convert

    try:
        return convert(val, ty), ""
    except ConversionError as exc:
        return None, str(exc)


def decode_variable_block(block: Block, override: bool) -> tuple[Variable, Diagnostics]:
    """Decode one `variable "name" { ... }` block with Terraform's checks and messages."""
    name = block.labels[0]
    v = Variable(name=name, decl_range=block.def_range, name_range=block.label_ranges[0])
    schema = VARIABLE_SCHEMA
    got, diags = content(block.body, schema, block)
    if not valid_identifier(name):
        diags.append(error("Invalid variable name", BAD_IDENTIFIER_DETAIL, block.label_ranges[0]))
    if name in RESERVED_VARIABLE_NAMES:
        diags.append(
            error(
                "Invalid variable name",
                f'The variable name "{name}" is reserved due to its special meaning inside '
                "module blocks.",
                block.label_ranges[0],
            )
        )
    a = got.attributes
    if "description" in a:
        desc, d = decode_string(a["description"])
        diags.extend(d)
        v.description, v.description_set = desc or "", True
    if "type" in a:
        ty, mode, d = decode_variable_type(a["type"].expr)
        diags.extend(d)
        v.type, v.parsing_mode, v.type_set, v.type_range = ty, mode, True, a["type"].expr.range
    if "sensitive" in a:
        b, d = decode_bool(a["sensitive"])
        diags.extend(d)
        v.sensitive, v.sensitive_set = bool(b), True
    if "nullable" in a:
        b, d = decode_bool(a["nullable"])
        diags.extend(d)
        v.nullable, v.nullable_set = bool(b), True
    if "ephemeral" in a:
        b, d = decode_bool(a["ephemeral"])
        diags.extend(d)
        v.ephemeral, v.ephemeral_set = bool(b), True
    if "default" in a:
        expr = a["default"].expr
        val, d = static_value(expr)
        diags.extend(d)
        if val is None:
            val = UNKNOWN_DYNAMIC
        elif not override or v.type_set:
            conv, msg = convert_to_constraint(val, v.type)
            if conv is None:
                diags.append(
                    error(
                        "Invalid default value for variable",
                        "This default value is not compatible with the variable's type "
                        f"constraint: {msg}.",
                        expr.range,
                    )
                )
                val = UNKNOWN_DYNAMIC
            else:
                val = conv
        if not v.nullable and val.is_null:
            diags.append(
                error(
                    "Invalid default value for variable",
                    "A null default value is not valid when nullable=false.",
                    expr.range,
                )
            )
        v.default, v.default_range = val, expr.range
    for blk in got.blocks:
        rule, d = decode_check_rule(blk, override)
        diags.extend(d)
        if rule.condition is not None and not any(
            len(t) > 1 and t[0].name == "var" and getattr(t[1], "name", None) == name  # type: ignore[union-attr]
            for t in variables(rule.condition)
        ):
            diags.append(
                error(
                    "Invalid variable validation condition",
                    f'The condition for variable "{name}" must refer to var.{name} in order to test '
                    "incoming values.",
                    rule.condition.range,
                )
            )
        v.validations.append(rule)
    return v, diags
