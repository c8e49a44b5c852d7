"""`references()` (HCL's Expression.Variables) and the evaluation context."""

from __future__ import annotations

from engine.hcl.ast import AnonSymbolExpr, LiteralValueExpr, traversal_str
from engine.lang import EvalContext, evaluate, references
from engine.source import synthetic_range
from engine.values import DYNAMIC, UNKNOWN, Value, number, object_

from .helpers import parse


def refs(src: str) -> list[str]:
    return [traversal_str(t) for t, _ in references(parse(src))]


def test_references_in_source_order() -> None:
    assert refs('var.a + local.b["k"][0]') == ['var.a', 'local.b["k"][0]']
    assert refs("aws_instance.web[0].id") == ["aws_instance.web[0].id"]
    assert refs('"${var.a}-%{if count.index > 0}x%{endif}"') == ["var.a", "count.index"]
    assert refs("f(var.a, [var.b], {k = var.c})") == ["var.a", "var.b", "var.c"]
    assert refs("var.c ? var.t : var.f") == ["var.c", "var.t", "var.f"]
    assert refs("var.m[var.k]") == ["var.m", "var.k"]
    assert refs("!var.x") == ["var.x"]
    assert refs("(var.x)") == ["var.x"]


def test_references_exclude_for_and_splat_locals() -> None:
    assert refs("[for k, v in var.m : v.id if k != var.skip]") == ["var.m", "var.skip"]
    assert refs("{for x in var.l : x.name => x...}") == ["var.l"]
    assert refs("[for x in var.l : [for y in x : y + var.z]]") == ["var.l", "var.z"]
    assert refs('"%{for x in var.l}${x}${var.sep}%{endfor}"') == ["var.l", "var.sep"]
    assert refs("var.l[*].id") == ["var.l"]
    assert refs("var.l.*.id") == ["var.l"]
    # a for variable shadows only inside the for
    assert refs("[for x in [1] : x] == x.y") == ["x.y"]


def test_literal_object_keys_are_not_references() -> None:
    assert refs("{a = 1, (b) = 2, c.d = 3}") == ["b", "c.d"]


def test_reference_ranges() -> None:
    ((trav, rng),) = references(parse("1 + var.abc.d"))
    assert rng.text() == "var.abc.d"
    assert traversal_str(trav) == "var.abc.d"


def test_context_child_scopes() -> None:
    root = EvalContext({"var": object_({"a": number(1)})}, {}, plan_phase=True)
    child = root.child(x=number(2))
    assert child.plan_phase is True
    assert child.lookup("x") == number(2)
    assert child.lookup("var") == root.lookup("var")
    assert root.lookup("x") is None
    assert child.has_functions() and child.function_names() == []
    assert child.variable_names() == ["var", "x"]
    assert not EvalContext().has_functions()


def test_child_scope_shadows_parent() -> None:
    root = EvalContext({"x": number(1)})
    assert root.child(x=number(5)).lookup("x") == number(5)
    val, _ = evaluate(parse("[for x in [7] : x][0] + x"), root)
    assert val == number(8)


def test_anon_symbol_outside_a_splat_is_dynamic() -> None:
    rng = synthetic_range("t.tf", "x")
    val, diags = evaluate(AnonSymbolExpr(rng), EvalContext())
    assert val == Value(DYNAMIC, UNKNOWN) and not diags


def test_hand_built_literal() -> None:
    rng = synthetic_range("t.tf", "1")
    val, diags = evaluate(LiteralValueExpr(number(1), rng), EvalContext())
    assert val == number(1) and not diags


def test_variables_not_allowed_without_a_context_chain() -> None:
    from engine.lang.eval_traversal import traverse_abs

    expr = parse("var.a")
    _, d = traverse_abs(expr.traversal, None)  # type: ignore[attr-defined]
    assert d is not None and d.summary == "Variables not allowed"
