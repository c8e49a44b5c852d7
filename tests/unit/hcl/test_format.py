"""Unit tests for the formatter: hclwrite's spacing, indentation and alignment rules,
terraform fmt's rewrites, and (property) that formatting is idempotent on valid input."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.hcl import parse_file
from engine.hcl.format import FTok, format_source, space_after, tokens_for_format
from engine.hcl.format_rewrite import format_terraform
from engine.hcl.lexer import COMMA, IDENT, MINUS, NIL, NUMBER_LIT, OBRACK, OPAREN

CASES = Path(__file__).resolve().parents[2] / "conformance" / "fmt_cases"
NIL_TOK = FTok(NIL, "")


@pytest.mark.parametrize(
    "src, want",
    [
        ("a = f (1)\n", "a = f(1)\n"),  # no space between a function name and its paren
        ("a = x [0]\n", "a = x[0]\n"),  # nor before an index
        ("a = x . y\n", "a = x.y\n"),  # nor around dots
        ("a = f(x ,y)\n", "a = f(x, y)\n"),  # none before a comma, one after
        ("a = f(x ...)\n", "a = f(x...)\n"),  # none before an ellipsis
        ("a = [ 1 ]\n", "a = [1]\n"),  # none inside brackets
        ("a = {b=1}\n", "a = { b = 1 }\n"),  # but inside braces
        ("a = { }\n", "a = {}\n"),  # except an empty pair
        ("a = 1+2*3\n", "a = 1 + 2 * 3\n"),  # binary operators are spaced
        ("a = x*-1\n", "a = x * -1\n"),  # a minus after an operator is a negation
        ("a = [- 1, 2 - 1]\n", "a = [-1, 2 - 1]\n"),  # after `[`/`,` too; else subtraction
        ("a = ! b\n", "a = !b\n"),  # no space after `!`
        ("a = c?1:2\n", "a = c ? 1 : 2\n"),
        ("a = [for x in[1]: x]\n", "a = [for x in [1] : x]\n"),  # `in` keyword keeps its space
        ('a = "${ x }"\n', "a = x\n"),
        ('a = "p${ x }s"\n', 'a = "p${x}s"\n'),  # no spaces inside interpolations
        ('a = "%{ if x }y%{ endif }"\n', 'a = "%{if x}y%{endif}"\n'),
        ('a = "${ {b=1} }x"\n', 'a = "${ { b = 1 } }x"\n'),  # an object in `${ }` is spaced
    ],
)
def test_spacing_rules(src: str, want: str) -> None:
    assert format_terraform(src) == want


def test_space_after_minus_depends_on_the_token_before() -> None:
    minus, one = FTok(MINUS, "-"), FTok(NUMBER_LIT, "1")
    assert space_after(minus, FTok(IDENT, "x"), one)  # x - 1
    assert not space_after(minus, NIL_TOK, one)  # -1 at the start of a cell
    assert not space_after(minus, FTok(COMMA, ","), one)
    assert not space_after(FTok(IDENT, "f"), NIL_TOK, FTok(OPAREN, "("))
    assert not space_after(FTok(IDENT, "x"), NIL_TOK, FTok(OBRACK, "["))


def test_indentation_counts_brackets_per_line() -> None:
    src = "a {\nb = [[\n1\n]]\nc {\nd = 1\n}\n}\n"
    assert format_source(src) == "a {\n  b = [[\n    1\n  ]]\n  c {\n    d = 1\n  }\n}\n"


def test_alignment_of_equals_and_trailing_comments() -> None:
    src = "x {\na = 1 # one\nlong = 22 # two\n\nb = 3\nblk {}\ncc = 4\n}\n"
    want = (
        "x {\n  a    = 1  # one\n  long = 22 # two\n\n  b = 3\n  blk {}\n  cc = 4\n}\n"
    )
    assert format_source(src) == want


def test_heredoc_text_is_kept_and_aligned_as_one_line() -> None:
    src = "a = <<EOT\n   keep   me\nEOT\nbb = 1\n"
    assert format_source(src) == "a  = <<EOT\n   keep   me\nEOT\nbb = 1\n"


def test_blank_lines_and_final_newline() -> None:
    assert format_source("\n\na=1\n\n\n") == "\n\na = 1\n\n\n"
    assert format_source("a=1") == "a = 1\n"
    assert format_source("") == "\n"


def test_tokens_keep_source_spacing() -> None:
    toks = tokens_for_format("a   = 1")
    assert [(t.text, t.spaces) for t in toks] == [("a", 0), ("=", 3), ("1", 1)]


@pytest.mark.parametrize(
    "src, want",
    [
        ('a = "${var.x}"\n', "a = var.x\n"),
        ('a = "${var.x}-y"\n', 'a = "${var.x}-y"\n'),
        ('a = "${a}${b}"\n', 'a = "${a}${b}"\n'),
        ('a = "${f("${b}")}"\n', 'a = f("${b}")\n'),
        ('a = "${\nx ? 1 : 2\n}"\n', "a = x ? 1 : 2\n"),
        ('a = "${x ? 1\n: 2}"\n', "a = (x ? 1\n: 2)\n"),
        ('a = ["${x}"]\n', 'a = ["${x}"]\n'),  # only whole attribute values
        ('variable "v" {\n  type = "string"\n}\n', 'variable "v" {\n  type = string\n}\n'),
        ('variable "v" {\n  type = "list"\n}\n', 'variable "v" {\n  type = list(string)\n}\n'),
        ('variable "v" {\n  type = map\n}\n', 'variable "v" {\n  type = map(any)\n}\n'),
        ('output "o" {\n  type = map\n}\n', 'output "o" {\n  type = map\n}\n'),
        ("resource a b {}\n", 'resource "a" "b" {}\n'),
        ('resource /* c */ "a\\u0041" b {}\n', 'resource "aA" "b" {}\n'),
    ],
)
def test_terraform_rewrites(src: str, want: str) -> None:
    assert format_terraform(src) == want


# ------------------------------------------------------------------ idempotency (property)

_idents = st.sampled_from(["a", "bb", "name", "count", "x_1", "in", "list", "type"])
_spaces = st.sampled_from(["", " ", "  ", "\t"])


def _expr() -> st.SearchStrategy[str]:
    leaves = st.one_of(
        _idents,
        st.integers(-5, 500).map(str),
        st.sampled_from(['"s"', '"${var.x}"', '"a${b}c"', "true", "null", "var.x.y", "x[0]"]),
    )

    def grow(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
        pair = st.tuples(inner, _spaces, inner)
        return st.one_of(
            st.lists(inner, max_size=3).map(lambda xs: "[" + ",".join(xs) + "]"),
            st.lists(inner, max_size=3).map(lambda xs: "[\n" + ",\n".join(xs) + "\n]"),
            st.lists(st.tuples(_idents, inner), max_size=3).map(
                lambda kv: "{" + ", ".join(f"{k}={v}" for k, v in kv) + "}"
            ),
            st.lists(st.tuples(_idents, inner), max_size=3).map(
                lambda kv: "{\n" + "\n".join(f"{k} = {v}" for k, v in kv) + "\n}"
            ),
            st.tuples(st.sampled_from(["+", "-", "*", "==", "&&", "/"]), pair).map(
                lambda t: f"{t[1][0]}{t[1][1]}{t[0]}{t[1][1]}{t[1][2]}"
            ),
            pair.map(lambda p: f"f({p[0]},{p[1]}{p[2]})"),
            pair.map(lambda p: f"{p[0]} ?{p[1]}{p[2]} : {p[0]}"),
            inner.map(lambda e: f"-{e}"),
            inner.map(lambda e: f"[for v in {e}: v]"),
            # (not interpolation-only: terraform unwraps one level of those per run)
            inner.map(lambda e: f'"x${{{e}}}"'),
        )

    return st.recursive(leaves, grow, max_leaves=4)


_comment = st.sampled_from(["", " # c", " // c", " /* c */"])


def _body(depth: int) -> st.SearchStrategy[str]:
    attr = st.tuples(_spaces, _idents, _spaces, _expr(), _comment).map(
        lambda t: f"{t[0]}{t[1]}{t[2]}={t[2]}{t[3]}{t[4]}\n"
    )
    items: list[st.SearchStrategy[str]] = [
        attr,
        st.just("\n"),
        st.sampled_from(["# own line\n", "/* block */\n", "  // slashes\n"]),
        st.sampled_from(["x = <<EOT\n  text ${a}\nEOT\n", "y = <<-EOT\n    in\n    EOT\n"]),
    ]
    if depth > 0:
        items.append(
            st.tuples(_idents, st.sampled_from(["", ' "l"', " l", ' "a" "b"']), _body(depth - 1)).map(
                lambda t: f"{t[0]}{t[1]} {{\n{t[2]}}}\n"
            )
        )
    return st.lists(st.one_of(*items), max_size=4).map("".join)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.large_base_example])
@given(_body(2))
def test_formatting_is_idempotent(src: str) -> None:
    _, diags = parse_file(src, "gen.tf")
    if diags.has_errors:
        return  # only valid input is formatted
    once = format_terraform(src)
    assert not parse_file(once, "once.tf")[1].has_errors
    assert format_terraform(once) == once


@pytest.mark.parametrize("case", sorted(CASES.iterdir()), ids=lambda p: p.name)
def test_cases_are_idempotent(case: Path) -> None:
    once = format_terraform(case.read_text(encoding="utf-8"))
    assert format_terraform(once) == once
