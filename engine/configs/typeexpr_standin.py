"""A stand-in for `engine.values.typeexpr.type_constraint_from_expr`, used only while that
module is not available: type constraint expressions (`string`, `list(number)`,
`object({a = optional(string, "x")})`) with HCL typeexpr's messages."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.diags import Diagnostics, error
from engine.hcl import ast
from engine.values import (
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

_PRIMS: dict[str, Type] = {"string": STRING, "number": NUMBER, "bool": BOOL, "any": DYNAMIC}
_GENERIC = (
    "A type specification is either a primitive type keyword (bool, number, string) or a "
    "complex type constructor call, like list(string)."
)
_INVALID = "Invalid type specification"


def _keyword(expr: ast.Expr) -> str | None:
    if isinstance(expr, ast.ScopeTraversalExpr) and len(expr.traversal) == 1:
        return expr.traversal[0].name  # type: ignore[union-attr]
    return None


def type_constraint_from_expr(
    expr: ast.Expr, eval_default: Callable[[ast.Expr], Any] | None = None
) -> tuple[Type, Diagnostics]:
    diags = Diagnostics()
    return _ty(expr, diags, False, eval_default), diags


def _ty(expr: ast.Expr, diags: Diagnostics, in_object: bool, ev: Callable[[ast.Expr], Any] | None) -> Type:
    while isinstance(expr, ast.ParenthesesExpr):
        expr = expr.wrapped
    kw = _keyword(expr)
    if kw is not None:
        if kw in _PRIMS:
            return _PRIMS[kw]
        if kw in ("list", "map", "set"):
            diags.append(
                error(_INVALID, f"The {kw} type constructor requires one argument specifying the element type.", expr.range)
            )
        elif kw == "object":
            diags.append(
                error(_INVALID, "The object type constructor requires one argument specifying the attribute types as a map.", expr.range)
            )
        elif kw == "tuple":
            diags.append(
                error(_INVALID, "The tuple type constructor requires one argument specifying the element types as a list.", expr.range)
            )
        else:
            diags.append(error(_INVALID, f'The keyword "{kw}" is not a valid type specification.', expr.range))
        return DYNAMIC
    if not isinstance(expr, ast.FunctionCallExpr):
        diags.append(error(_INVALID, _GENERIC, expr.range))
        return DYNAMIC
    name = expr.name
    if name in _PRIMS:
        diags.append(error(_INVALID, f'Primitive type keyword "{name}" does not expect arguments.', expr.range))
        return DYNAMIC
    if name in ("list", "map", "set"):
        if len(expr.args) != 1:
            diags.append(
                error(_INVALID, f"The {name} type constructor requires one argument specifying the element type.", expr.range)
            )
            return DYNAMIC
        et = _ty(expr.args[0], diags, False, ev)
        return {"list": ListType, "map": MapType, "set": SetType}[name](et)
    if name == "tuple":
        arg = expr.args[0] if len(expr.args) == 1 else None
        if not isinstance(arg, ast.TupleConsExpr):
            diags.append(
                error(_INVALID, "The tuple type constructor requires one argument specifying the element types as a list.", expr.range)
            )
            return DYNAMIC
        return TupleType(_ty(e, diags, False, ev) for e in arg.exprs)
    if name == "object":
        arg = expr.args[0] if len(expr.args) == 1 else None
        if not isinstance(arg, ast.ObjectConsExpr):
            diags.append(
                error(_INVALID, "The object type constructor requires one argument specifying the attribute types as a map.", expr.range)
            )
            return DYNAMIC
        attrs: dict[str, Type] = {}
        optional: list[str] = []
        defaults: dict[str, Any] = {}
        for item in arg.items:
            key = item.key.as_literal_name()
            if key is None:
                from engine.configs.exprs import literal_string

                key = literal_string(item.key.wrapped)
            if key is None:
                diags.append(error("Invalid type specification", "Object constructor map keys must be attribute names.", item.key.range))
                continue
            val = item.value
            if isinstance(val, ast.FunctionCallExpr) and val.name == "optional":
                if not val.args or len(val.args) > 2:
                    diags.append(
                        error(
                            _INVALID,
                            "Optional attribute modifier requires the attribute type as its first "
                            "argument and an optional default value as its second.",
                            val.range,
                        )
                    )
                    continue
                attrs[key] = _ty(val.args[0], diags, True, ev)
                optional.append(key)
                if len(val.args) == 2 and ev is not None:
                    defaults[key] = ev(val.args[1])
                continue
            attrs[key] = _ty(val, diags, True, ev)
        return ObjectType(attrs, optional, defaults or None)
    if name == "optional":
        diags.append(error(_INVALID, 'Keyword "optional" is valid only as a modifier for object type attributes.', expr.range))
        return DYNAMIC
    diags.append(error(_INVALID, f'Keyword "{name}" is not a valid type constructor.', expr.range))
    return DYNAMIC
