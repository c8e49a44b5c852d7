"""Property tests: random and mutated expressions through the parser and the evaluator.

Whatever the source, parsing and evaluation end with a value and/or diagnostics: never an
exception, never a hang. Sources are drawn from a token grammar (so many of them parse) and
from mutations of the conformance cases (so they exercise real functions).
"""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.diags import Diagnostics
from engine.hcl import parse_expression
from engine.lang import evaluate
from engine.lang.context import EvalContext
from engine.lang.functions import function_table
from engine.values import Value, number, object_, string, tuple_

CASES = Path(__file__).resolve().parents[2] / "conformance" / "cases"
SEEDS = [
    line.strip()
    for name in ("expressions.txt", "functions_a.txt")
    for line in (CASES / name).read_text(encoding="utf-8").splitlines()
    if line.strip() and not line.startswith("#")
]

TOKENS = [
    "1", "0", "-1", "1.5", "1e3", '"a"', '"${x}"', '"%{if true}y%{endif}"', "true", "false", "null",
    "var.s", "var.n", "var.l", "var.o", "var.o.a", "var.l[0]", "local.x", "[", "]", "{", "}",
    "(", ")", ",", ":", "=", "=>", "?", "+", "-", "*", "/", "%", "==", "!=", "<", ">", "&&",
    "||", "!", ".", "[*]", ".*", "...", "for", "in", "if", "x", "upper(", "length(", "join(",
    "merge(", "try(", "can(", "tolist(", "concat(", "lookup(", "format(", "sensitive(",
]

CTX = EvalContext(
    variables={
        "var": object_(
            {
                "s": string("abc"),
                "n": number(3),
                "l": tuple_([string("a"), number(1)]),
                "o": object_({"a": string("x")}),
            }
        ),
    },
    functions=function_table("."),
)


def _check(source: str) -> None:
    expr, diags = parse_expression(source, "fuzz.tf")
    assert isinstance(diags, Diagnostics)
    if diags.has_errors:
        return
    value, eval_diags = evaluate(expr, CTX)
    assert isinstance(value, Value)
    assert isinstance(eval_diags, Diagnostics)
    for d in eval_diags:
        assert d.summary


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(TOKENS), min_size=1, max_size=14).map(" ".join))
def test_token_soup_never_crashes(source: str) -> None:
    _check(source)


@st.composite
def _mutated(draw: st.DrawFn) -> str:
    text = draw(st.sampled_from(SEEDS))
    for _ in range(draw(st.integers(1, 3))):
        if not text:
            break
        pos = draw(st.integers(0, len(text) - 1))
        op = draw(st.sampled_from(["delete", "insert", "swap"]))
        if op == "delete":
            text = text[:pos] + text[pos + 1 :]
        elif op == "insert":
            text = text[:pos] + draw(st.sampled_from(TOKENS)) + text[pos:]
        else:
            text = text[:pos] + draw(st.characters(min_codepoint=32, max_codepoint=126)) + text[pos + 1 :]
    return text


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_mutated())
def test_mutated_cases_never_crash(source: str) -> None:
    _check(source)
