"""Expression parsing: precedence, terms, traversals, collections, for, splats."""

from __future__ import annotations

import pytest

from engine.hcl import parse_expression
from tests.unit.hcl.dump import dump


def p(src: str) -> str:
    expr, diags = parse_expression(src)
    assert not diags.has_errors, [(d.summary, d.detail, str(d.subject)) for d in diags]
    return dump(expr)


@pytest.mark.parametrize(
    ("src", "want"),
    [
        ("1 + 2 * 3", "(+ 1 (* 2 3))"),
        ("1 - 2 - 3", "(- (- 1 2) 3)"),
        ("a || b && c", "(|| a (&& b c))"),
        ("a == b != c", "(!= (== a b) c)"),
        ("1 < 2 == true", "(== (< 1 2) true)"),
        ("a + b < c * d", "(< (+ a b) (* c d))"),
        ("8 % 3 / 2", "(/ (% 8 3) 2)"),
        ("-46 + 5", "(+ (-u 46) 5)"),
        ("!!true", "(!u (!u true))"),
        ("- -1", "(-u (-u 1))"),
        ("!a.b", "(!u a.b)"),
        ("true ? 1 : false ? 2 : 3", "(? true 1 (? false 2 3))"),
        ("a ? b ? 1 : 2 : 3", "(? a (? b 1 2) 3)"),
        ("(1 + 2) * 3", "(* (paren (+ 1 2)) 3)"),
        ("null", "null"),
        ("1e3", "1000"),
        ("1.5e+3", "1500"),
        ("var.a.b[0][\"k\"]", "var.a.b[0]['k']"),
        ("a.0.b", "a[0].b"),
        ("a[var.i]", "(index a var.i)"),
        ('a["${x}"]', "(index a (wrap x))"),
        ("a[*].b", "([*] a (rel @ .b))"),
        ("a[*]", "([*] a @)"),
        ("a.*.b.0", "(.* a (rel @ .b[0]))"),
        ("f(1)[0]", "(rel (call f 1) [0])"),
        ("upper(\"x\")", "(call upper (tpl 'x'))"),
        ("max(xs...)", "(call max ... xs)"),
        ("provider::aws::arn_parse(x)", "(call provider::aws::arn_parse x)"),
        ("f(\n1,\n2,\n)", "(call f 1 2)"),
        ("[1, 2,]", "[1 2]"),
        ("[\n1,\n2\n]", "[1 2]"),
        ("{a = 1, b = 2}", "{a=1, b=2}"),
        ("{\na = 1\nb = 2\n}", "{a=1, b=2}"),
        ("{(a) = 1}", "{(key (paren a))=1}"),
        ('{"k": 1}', "{(tpl 'k')=1}"),
        ("[for s in xs : upper(s)]", "(for None s in xs : (call upper s))"),
        ("[for i, s in xs : s if i > 0]", "(for i s in xs : s if (> i 0))"),
        ("{for k, v in m : k => v...}", "(for k v in m : k => v...)"),
        ("{for k, v in m : v => k if v != null}", "(for k v in m : v => k if (!= v null))"),
        ("[for x in xs:\n  x]", "(for None x in xs : x)"),
        ("café", "café"),
        ("a-b", "a-b"),
        ("a - b", "(- a b)"),
        ("x.y-z", "x.y-z"),
    ],
)
def test_expression_shapes(src: str, want: str) -> None:
    assert p(src) == want


def test_numbers_are_values() -> None:
    expr, _ = parse_expression("2E-5")
    assert dump(expr) not in ("", "LiteralValueExpr")


@pytest.mark.parametrize(
    ("src", "summary"),
    [
        ("0x1F", "Extra characters after expression"),
        ("1 +", "Missing expression"),
        ("[1 2]", "Missing item separator"),
        ("{a = 1 b = 2}", "Missing attribute separator"),
        ("{a 1}", "Missing key/value separator"),
        ("f(1 2)", "Missing argument separator"),
        ("f(1", "Unterminated function call"),
        ("(1", "Unbalanced parentheses"),
        ("a ? b", "Missing false expression in conditional"),
        ("[for x xs : x]", "Invalid 'for' expression"),
        ("[for k, v in m : k => v]", "Invalid 'for' expression"),
        ("{for v in m : v}", "Invalid 'for' expression"),
        ("a.", "Invalid attribute name"),
        ("a.0.1", "Invalid legacy index syntax"),
        ("a & b", "Unsupported operator"),
        ("'x'", "Invalid character"),
        ("1.2.3", "Invalid number literal"),
        ("1e312345678901234567890123 * 10", "Invalid number literal"),  # terraform: too big
        ("provider::(1)", "Missing function name"),
        ("\"\\q\"", "Invalid escape sequence"),
        ("\"\\u12\"", "Invalid escape sequence"),
        ("\"${a b}\"", "Extra characters after interpolation expression"),
        ("\"${a\"", "Unclosed template interpolation sequence"),
        ("\"%{ iff a }x%{ endif }\"", "Invalid template control keyword"),
        ("\"%{ if a }x\"", "Unexpected end of template"),
        ("\"%{ endif }\"", "Unexpected endif directive"),
        ("\"%{ for x in y }a%{ else }b%{ endfor }\"", "Unexpected else directive"),
        ("a[*", "Missing close bracket on splat index"),
        ("a[1", "Missing close bracket on index"),
    ],
)
def test_expression_errors(src: str, summary: str) -> None:
    _, diags = parse_expression(src)
    assert diags.has_errors
    assert summary in [d.summary for d in diags], [(d.summary, d.detail) for d in diags]


def test_ranges_are_character_offsets() -> None:
    expr, _ = parse_expression("foo + bar.baz")
    assert str(expr.range) == "<expr>:1,1-14"
    rhs = expr.rhs  # type: ignore[attr-defined]
    assert str(rhs.range) == "<expr>:1,7-14"
    assert str(rhs.traversal[1].range) == "<expr>:1,10-14"


def test_conditional_placeholder_never_raises() -> None:
    for src in ["", "(", "[", "{", "\"", "${", "a ? : 1", "%{", "~", "<<EOT"]:
        parse_expression(src)
