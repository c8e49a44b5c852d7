"""Type constraints from syntax (HCL's ext/typeexpr), and types printed as Terraform writes them.

`type_constraint_from_expr(expr, eval_default)` reads `string`, `list(string)`,
`object({a = optional(number, 1)})`, `tuple([...])`, `any`, ... from the expression tree and
returns the type with Terraform's "Invalid type specification" diagnostics. Optional attribute
defaults are evaluated through the `eval_default(expr)` callback (so this module does not import
the evaluator), converted to the attribute type and stored on `ObjectType.defaults`. Without a
callback, `optional(t, default)` is refused as in HCL's TypeConstraint (no defaults).
`type_string(t)` prints a type as `terraform` shows it in messages (`list(string)`,
`object({a=number})`, `any`).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from engine.diags.diagnostic import Diagnostic, Diagnostics, error
from engine.gocompat.strconv import quote as go_quote
from engine.hcl.ast import (
    Expr,
    FunctionCallExpr,
    ObjectConsExpr,
    ObjectConsKeyExpr,
    ScopeTraversalExpr,
    TraverseRoot,
    TupleConsExpr,
)
from engine.source import Range
from engine.values.types import (
    BOOL,
    DYNAMIC,
    NUMBER,
    STRING,
    ListType,
    MapType,
    ObjectType,
    SetType,
    TupleType,
    Type,
)
from engine.values.value import Value

SUMMARY = "Invalid type specification"
DefaultEval = Callable[[Expr], "Value | tuple[Value, Diagnostics]"]


def _keyword(expr: Expr) -> str:
    if isinstance(expr, ObjectConsKeyExpr):
        return expr.as_literal_name() or ""
    if isinstance(expr, ScopeTraversalExpr) and len(expr.traversal) == 1:
        root = expr.traversal[0]
        return root.name if isinstance(root, TraverseRoot) else ""
    return ""


def _args_range(call: FunctionCallExpr) -> Range:
    return call.open_paren_range.to(call.close_paren_range)


def _err(detail: str, subject: Range | None, context: Range | None = None) -> Diagnostic:
    return error(SUMMARY, detail, subject, context)


def type_constraint_from_expr(
    expr: Expr, eval_default: DefaultEval | None = None
) -> tuple[Type, Diagnostics]:
    """The type constraint `expr` denotes (`any` allowed), with diagnostics."""
    diags = Diagnostics()
    t = _get_type(expr, True, eval_default, diags)
    return t, diags


def type_from_expr(expr: Expr) -> tuple[Type, Diagnostics]:
    """An exact type (HCL typeexpr.Type): `any` and `optional` are refused."""
    diags = Diagnostics()
    t = _get_type(expr, False, None, diags)
    return t, diags


def _get_type(
    expr: Expr, constraint: bool, eval_default: DefaultEval | None, diags: Diagnostics
) -> Type:
    kw = _keyword(expr)
    if kw == "bool":
        return BOOL
    if kw == "string":
        return STRING
    if kw == "number":
        return NUMBER
    if kw == "any":
        if not constraint:
            diags.append(_err(
                f'The keyword "{kw}" cannot be used in this type specification: '
                "an exact type is required.", expr.range))
        return DYNAMIC
    if kw in ("list", "map", "set"):
        diags.append(_err(
            f"The {kw} type constructor requires one argument specifying the element type.",
            expr.range))
        return DYNAMIC
    if kw == "object":
        diags.append(_err(_OBJECT_ARGS, expr.range))
        return DYNAMIC
    if kw == "tuple":
        diags.append(_err(_TUPLE_ARGS, expr.range))
        return DYNAMIC
    if kw:
        diags.append(_err(f'The keyword "{kw}" is not a valid type specification.', expr.range))
        return DYNAMIC
    if not isinstance(expr, FunctionCallExpr):
        diags.append(_err(
            "A type specification is either a primitive type keyword (bool, number, string) or "
            "a complex type constructor call, like list(string).", expr.range))
        return DYNAMIC
    call = expr
    name = call.name
    args_range = _args_range(call)
    if name in ("bool", "string", "number"):
        diags.append(_err(f'Primitive type keyword "{name}" does not expect arguments.',
                          args_range))
        return DYNAMIC
    if name == "any":
        diags.append(_err(f'Type constraint keyword "{name}" does not expect arguments.',
                          args_range))
        return DYNAMIC
    if len(call.args) != 1 and name in ("list", "set", "map", "object", "tuple"):
        subject = args_range
        if len(call.args) > 1:
            subject = call.args[1].range.to(call.args[-1].range)
        if name in ("list", "set", "map"):
            detail = (f"The {name} type constructor requires one argument specifying the "
                      "element type.")
        else:
            detail = _OBJECT_ARGS if name == "object" else _TUPLE_ARGS
        diags.append(_err(detail, subject, args_range))
        return DYNAMIC
    if name in ("list", "set", "map"):
        ety = _get_type(call.args[0], constraint, eval_default, diags)
        cls = {"list": ListType, "set": SetType, "map": MapType}[name]
        return cls(ety)
    if name == "object":
        return _object(call, expr, constraint, eval_default, diags)
    if name == "tuple":
        arg = call.args[0]
        if not isinstance(arg, TupleConsExpr):
            diags.append(_err("Tuple type constructor requires a list of element types.",
                              arg.range, expr.range))
            return DYNAMIC
        return TupleType(_get_type(e, constraint, eval_default, diags) for e in arg.exprs)
    if name == "optional":
        diags.append(_err(
            f'Keyword "{name}" is valid only as a modifier for object type attributes.',
            call.name_range))
        return DYNAMIC
    diags.append(_err(f'Keyword "{name}" is not a valid type constructor.', expr.range))
    return DYNAMIC


_OBJECT_ARGS = ("The object type constructor requires one argument specifying the attribute "
                "types and values as a map.")
_TUPLE_ARGS = ("The tuple type constructor requires one argument specifying the element types "
               "as a list.")


def _object(
    call: FunctionCallExpr,
    expr: Expr,
    constraint: bool,
    eval_default: DefaultEval | None,
    diags: Diagnostics,
) -> Type:
    from engine.values.convert import ConversionError, convert

    arg = call.args[0]
    if not isinstance(arg, ObjectConsExpr):
        diags.append(_err(
            "Object type constructor requires a map whose keys are attribute names and whose "
            "values are the corresponding attribute types.", arg.range, expr.range))
        return DYNAMIC
    attrs: dict[str, Type] = {}
    optional: list[str] = []
    defaults: dict[str, Value] = {}
    for item in arg.items:
        attr = _keyword(item.key)
        if not attr:
            diags.append(_err("Object constructor map keys must be attribute names.",
                              item.key.range, expr.range))
            continue
        aty_expr = item.value
        default_expr: Expr | None = None
        default_val: Value | None = None
        if isinstance(aty_expr, FunctionCallExpr) and aty_expr.name == "optional":
            opt = aty_expr
            if not opt.args:
                diags.append(_err(
                    "Optional attribute modifier requires the attribute type as its argument.",
                    _args_range(opt), opt.range))
                continue
            if not constraint:
                diags.append(_err(
                    "Optional attribute modifier is only for type constraints, not for exact "
                    "types.", opt.name_range, opt.range))
            elif eval_default is not None:
                if len(opt.args) == 2:
                    default_expr = opt.args[1]
                    got = eval_default(default_expr)
                    dv, ddiags = got if isinstance(got, tuple) else (got, Diagnostics())
                    diags.extend(ddiags)
                    if not ddiags.has_errors:
                        optional.append(attr)
                        default_val = dv
                elif len(opt.args) == 1:
                    optional.append(attr)
                else:
                    diags.append(_err(
                        "Optional attribute modifier expects at most two arguments: the "
                        "attribute type, and a default value.", _args_range(opt), opt.range))
            elif len(opt.args) == 1:
                optional.append(attr)
            else:
                diags.append(_err(
                    "Optional attribute modifier expects only one argument: the attribute "
                    "type.", _args_range(opt), opt.range))
            aty_expr = opt.args[0]
        aty = _get_type(aty_expr, constraint, eval_default, diags)
        if default_val is not None and default_expr is not None:
            try:
                defaults[attr] = convert(default_val, aty, defaults=False)
            except ConversionError as exc:
                diags.append(error(
                    "Invalid default value for optional attribute",
                    "This default value is not compatible with the attribute's type "
                    f"constraint: {exc}.", default_expr.range))
        attrs[attr] = aty
    return ObjectType(attrs, optional, defaults)


def type_string(t: Type) -> str:
    """The type as HCL's typeexpr.TypeString writes it: `list(string)`, `any`,
    `object({a=number,b=optional(string)})`, `tuple([string,number])` (no spaces)."""
    if t == DYNAMIC:
        return "any"
    if isinstance(t, (ListType, SetType, MapType)):
        return f"{t.kind}({type_string(t.element)})"
    if isinstance(t, TupleType):
        return "tuple([" + ",".join(type_string(e) for e in t.elements) + "])"
    if isinstance(t, ObjectType):
        parts = []
        for name in sorted(t.attrs):
            label = name if _IDENT.match(name) else go_quote(name)
            inner = type_string(t.attrs[name])
            if name in t.optional:
                inner = f"optional({inner})"
            parts.append(f"{label}={inner}")
        return "object({" + ",".join(parts) + "})"
    return t.friendly_name()


_IDENT = re.compile(r"[^\W\d][\w-]*\Z")
