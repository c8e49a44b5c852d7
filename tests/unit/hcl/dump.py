"""A compact, readable rendering of expression trees for assertions in tests."""

from __future__ import annotations

from typing import Any

from engine.hcl import ast


def _val(v: Any) -> str:
    raw = v.v
    if raw is None:
        return "null"
    if isinstance(raw, bool):
        return "true" if raw else "false"
    if isinstance(raw, str):
        return repr(raw)
    return str(raw)


def _trav(steps: tuple[Any, ...]) -> str:
    out = []
    for s in steps:
        if isinstance(s, ast.TraverseRoot):
            out.append(s.name)
        elif isinstance(s, ast.TraverseAttr):
            out.append("." + s.name)
        else:
            out.append(f"[{_val(s.key)}]")
    return "".join(out)


def dump(e: Any) -> str:
    """One expression as an S-expression-like string."""
    if isinstance(e, ast.LiteralValueExpr):
        return _val(e.value)
    if isinstance(e, ast.ScopeTraversalExpr):
        return _trav(e.traversal)
    if isinstance(e, ast.RelativeTraversalExpr):
        return f"(rel {dump(e.source)} {_trav(e.traversal)})"
    if isinstance(e, ast.BinaryOpExpr):
        return f"({e.op} {dump(e.lhs)} {dump(e.rhs)})"
    if isinstance(e, ast.UnaryOpExpr):
        return f"({e.op}u {dump(e.operand)})"
    if isinstance(e, ast.ConditionalExpr):
        return f"(? {dump(e.condition)} {dump(e.true_result)} {dump(e.false_result)})"
    if isinstance(e, ast.ParenthesesExpr):
        return f"(paren {dump(e.wrapped)})"
    if isinstance(e, ast.TemplateWrapExpr):
        return f"(wrap {dump(e.wrapped)})"
    if isinstance(e, ast.TemplateExpr):
        return "(tpl " + " ".join(dump(p) for p in e.parts) + ")"
    if isinstance(e, ast.TemplateIfExpr):
        f = dump(e.false_parts) if e.false_parts is not None else "-"
        return f"(%if {dump(e.cond)} {dump(e.true_parts)} {f})"
    if isinstance(e, ast.TemplateForExpr):
        return f"(%for {e.key_var} {e.value_var} {dump(e.collection)} {dump(e.body)})"
    if isinstance(e, ast.FunctionCallExpr):
        args = " ".join(dump(a) for a in e.args)
        return f"(call {e.name}{' ...' if e.expand_final else ''} {args})".replace(" )", ")")
    if isinstance(e, ast.TupleConsExpr):
        return "[" + " ".join(dump(x) for x in e.exprs) + "]"
    if isinstance(e, ast.ObjectConsExpr):
        items = ", ".join(f"{dump(i.key)}={dump(i.value)}" for i in e.items)
        return "{" + items + "}"
    if isinstance(e, ast.ObjectConsKeyExpr):
        return ("(key " if e.force_non_literal else "") + dump(e.wrapped) + (
            ")" if e.force_non_literal else ""
        )
    if isinstance(e, ast.ForExpr):
        k = dump(e.key_expr) + " => " if e.key_expr is not None else ""
        c = f" if {dump(e.cond)}" if e.cond is not None else ""
        g = "..." if e.group else ""
        return f"(for {e.key_var} {e.value_var} in {dump(e.collection)} : {k}{dump(e.value_expr)}{g}{c})"
    if isinstance(e, ast.IndexExpr):
        return f"(index {dump(e.collection)} {dump(e.key)})"
    if isinstance(e, ast.SplatExpr):
        return f"({'.*' if e.legacy else '[*]'} {dump(e.source)} {dump(e.each)})"
    if isinstance(e, ast.AnonSymbolExpr):
        return "@"
    return type(e).__name__
