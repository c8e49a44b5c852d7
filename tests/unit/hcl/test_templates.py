"""Templates: quoted strings, heredocs, directives, strip markers, escapes, bare templates.

Expected shapes were checked against terraform 1.11 output values for the same sources."""

from __future__ import annotations

import pytest

from engine.hcl import parse_expression, parse_file, parse_template
from engine.hcl.ast import TemplateWrapExpr
from tests.unit.hcl.dump import dump


def attr(src: str) -> str:
    f, diags = parse_file(src, "main.tf")
    assert not diags.has_errors, [(d.summary, str(d.subject)) for d in diags]
    return dump(f.body.attributes["v"].expr)


@pytest.mark.parametrize(
    ("src", "want"),
    [
        ('v = "${x}"\n', "(wrap x)"),
        ('v = "a${x}"\n', "(tpl 'a' x)"),
        ('v = ""\n', "(tpl '')"),
        ('v = "  spaced  "\n', "(tpl '  spaced  ')"),
        ('v = "a\\n\\t\\"\\\\b"\n', "(tpl 'a\\n\\t\"\\\\b')"),
        ('v = "\\u00e9\\U0001F600"\n', "(tpl 'é😀')"),
        ('v = "$${x} %%{y} $ %"\n', "(tpl '${x} %{y} $ %')"),
        ('v = "a %{ if c ~} b %{~ endif } c"\n', "(tpl 'a ' (%if c (tpl 'b') (tpl '')) ' c')"),
        ('v = "%{ if c }y%{ else }n%{ endif }"\n', "(tpl (%if c (tpl 'y') (tpl 'n')))"),
        ('v = "%{for i, x in xs}${i}=${x};%{endfor}"\n', "(tpl (%for i x xs (tpl i '=' x ';')))"),
        ('v = "a ${~ x ~} b"\n', "(tpl 'a' x 'b')"),
        ("v = <<EOT\n${1~}\n  foo\nEOT\n", "(tpl 1 '  foo\\n')"),
        ("v = <<EOT\nfoo\n  \n${~1}\nEOT\n", "(tpl 'foo\\n' 1 '\\n')"),
        ("v = <<-EOT\n    a\n      b\n    ${\"x\"}\n  EOT\n", "(tpl 'a\\n  b\\n' (tpl 'x') '\\n')"),
        ("v = <<EOT\nno \\n escapes $${x}\nEOT\n", "(tpl 'no \\\\n escapes ${x}\\n')"),
        ("v = <<EOT\nEOT\n", "(tpl '')"),
        ("v = <<EOT\n  EOT  \n", "(tpl '')"),
        ("v = <<EOT\n${x}\nEOT\n", "(tpl x '\\n')"),
    ],
)
def test_template_shapes(src: str, want: str) -> None:
    assert attr(src) == want


def test_single_interpolation_is_wrap() -> None:
    expr, _ = parse_expression('"${a.b}"')
    assert isinstance(expr, TemplateWrapExpr)


def test_bare_template() -> None:
    expr, diags = parse_template("Hello ${name}!\n%{ for x in xs ~}\n- ${x}\n%{ endfor ~}\n", "t.tpl")
    assert not diags.has_errors
    assert dump(expr) == "(tpl 'Hello ' name '!\\n' (%for None x xs (tpl '- ' x '\\n')) '')"


def test_bare_template_trailing_dollar() -> None:
    expr, diags = parse_template("cost: 5$", "t.tpl")
    assert not diags.has_errors
    assert dump(expr) == "(tpl 'cost: 5$')"


@pytest.mark.parametrize(
    ("src", "summary", "line", "col"),
    [
        ("v = <<EOT\nfoo\nEOT", "Unterminated template string", 3, 4),
        ('v = "abc\nb = 2\n', "Invalid multi-line string", 1, 9),
        ('v = "${a"\n', "Invalid multi-line string", 1, 10),
        ('v = "${a', "Unclosed template interpolation sequence", 1, 6),
    ],
)
def test_template_errors(src: str, summary: str, line: int, col: int) -> None:
    _, diags = parse_file(src, "main.tf")
    first = diags.errors[0]
    assert first.summary == summary
    assert first.subject is not None
    assert (first.subject.start.line, first.subject.start.column) == (line, col)
