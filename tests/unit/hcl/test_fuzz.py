"""Property tests: random and mutated sources never raise and never hang."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.hcl import parse_expression, parse_file, parse_json_file, parse_template

SEEDS = [
    'resource "terraform_data" "x" {\n  input = { a = [for s in ["a"] : upper(s)] }\n}\n',
    'locals {\n  a = "${var.x}-%{ if true ~} y %{~ endif }"\n  b = <<-EOT\n    z ${1}\n  EOT\n}\n',
    "a = x[*].y.*.z[0] + f(1, 2...)\nb = true ? 1 : false ? 2 : 3\n",
    "c = {(k) = 1, \"s\": 2}\n# c\n/* d */\n",
]
PIECES = st.sampled_from(
    [*list('{}[]()"$%~<>-=!?:.,*/+&|\n #\\\'`;aEx01'), "${", "%{", "<<EOT\n", "EOT\n", "for ", " in "]
)
SOUP = st.lists(PIECES, max_size=40).map("".join)


@st.composite
def mutated(draw: st.DrawFn) -> str:
    src = draw(st.sampled_from(SEEDS))
    for _ in range(draw(st.integers(0, 4))):
        i = draw(st.integers(0, len(src)))
        j = min(len(src), i + draw(st.integers(0, 3)))
        src = src[:i] + "".join(draw(st.lists(PIECES, max_size=3))) + src[j:]
    return src


@settings(max_examples=300, deadline=None)
@given(mutated())
def test_mutated_files_never_raise(src: str) -> None:
    parse_file(src, "main.tf")
    parse_expression(src)
    parse_template(src, "t.tpl")


@settings(max_examples=300, deadline=None)
@given(SOUP)
def test_random_token_soup_never_raises(src: str) -> None:
    _, diags = parse_file(src, "main.tf")
    for d in diags:
        assert d.subject is not None
    parse_expression(src)
    parse_template(src, "t.tpl")


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=40))
def test_arbitrary_unicode_never_raises(src: str) -> None:
    parse_file(src, "main.tf")
    parse_expression(src)
    parse_json_file(src, "x.tf.json")
