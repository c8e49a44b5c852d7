"""Bodies, blocks, attributes, comments, JSON syntax and the block context finder."""

from __future__ import annotations

import pytest

from engine.hcl import attribute_as_blocks, block_context, parse_file, parse_json_file

SRC = '''# leading comment
resource "terraform_data" "x" { // trailing
  input = 1
  /* inner */
  lifecycle {
    ignore_changes = [input]
  }
}
variable v {}
'''


def test_blocks_labels_and_attributes() -> None:
    f, diags = parse_file(SRC, "main.tf")
    assert not diags
    res, var = f.body.blocks
    assert (res.type, res.labels) == ("resource", ["terraform_data", "x"])
    assert list(res.body.attributes) == ["input"]
    assert res.body.blocks[0].type == "lifecycle"
    assert (var.type, var.labels) == ("variable", ["v"])
    assert str(res.def_range) == "main.tf:2,1-30"
    assert [c.text for c in f.comments] == [
        "# leading comment\n", "// trailing\n", "/* inner */"
    ]
    assert str(f.comments[2].range) == "main.tf:4,3-14"


def test_block_context_is_top_level_block() -> None:
    f, _ = parse_file(SRC, "main.tf")
    inner = f.body.blocks[0].body.blocks[0].body.attributes["ignore_changes"]
    assert block_context(inner.range) == 'resource "terraform_data" "x"'
    assert block_context(f.body.blocks[1].type_range) == 'variable "v"'


def test_attribute_redefined_points_at_second() -> None:
    f, diags = parse_file("a = 1\na = 2\n", "main.tf")
    (d,) = diags.errors
    assert d.summary == "Attribute redefined"
    assert d.detail == (
        'The argument "a" was already set at main.tf:1,1-2. Each argument may be set only once.'
    )
    assert d.subject is not None and d.subject.start.line == 2
    assert f.body.attributes["a"].range.start.line == 1


def test_errors_return_partial_tree() -> None:
    f, diags = parse_file('a = 1\nb = \nresource "x" "y" {\n  c = 2\n}\n', "main.tf")
    assert diags.has_errors
    assert "a" in f.body.attributes


def test_json_file_attributes_and_blocks() -> None:
    src = '{"resource": {"terraform_data": {"x": {"input": "${var.a}", "n": [1, 2.5]}}},' \
        ' "locals": [{"a": "plain"}, {"b": true}]}'
    f, diags = parse_json_file(src, "main.tf.json")
    assert not diags and f.is_json
    blocks, d2 = attribute_as_blocks(f.body.attributes["resource"], "resource", 2)
    assert not d2
    (b,) = blocks
    assert b.labels == ["terraform_data", "x"]
    assert set(b.body.attributes) == {"input", "n"}
    locs, _ = attribute_as_blocks(f.body.attributes["locals"], "locals", 0)
    assert [list(x.body.attributes) for x in locs] == [["a"], ["b"]]
    expr = b.body.attributes["input"].expr
    assert str(expr.range) == "main.tf.json:1,49-59"


def test_json_syntax_error_is_diagnostic() -> None:
    _, diags = parse_json_file('{"a": }', "x.tf.json")
    assert diags.has_errors
    assert diags.errors[0].subject is not None


_ROOT = ("Root value must be object", "The root value in a JSON-based configuration must be "
         "either a JSON object or a JSON array of objects.")
_START = "A JSON value must start with a brace, a bracket, a number, a string, or a keyword."


@pytest.mark.parametrize(
    ("src", "want"),
    [  # what terraform 1.11 reports (summary, detail, start and end column)
        ("tru", [("Invalid JSON keyword", '"tru" is not a valid JSON keyword. Did you mean '
                  '"true"?', 1, 4), (*_ROOT, 1, 4)]),
        ("terraform {\n}", [("Invalid JSON keyword", '"terraform" is not a valid JSON keyword.',
                            1, 10), (*_ROOT, 1, 10)]),
        ("NaN", [("Invalid JSON keyword", 'The JavaScript identifier "NaN" cannot be used in '
                  "JSON.", 1, 4), (*_ROOT, 1, 4)]),
        ("@", [("Invalid start of value", _START, 1, 2), (*_ROOT, 1, 2)]),
        # at the end of the file the range is empty (the JSON view widens it to one column)
        ("   ", [("Missing value", "The JSON data ends prematurely.", 4, 4), (*_ROOT, 4, 4)]),
        ('{"a": }', [("Missing JSON value", _START, 7, 8)]),
        ('{"a": trueish}', [("Invalid JSON keyword", '"trueish" is not a valid JSON keyword.',
                             7, 14)]),
    ],
)
def test_json_value_errors_as_terraform(src: str, want: list[tuple[str, str, int, int]]) -> None:
    _, diags = parse_json_file(src, "x.tf.json")
    got = []
    for d in diags:
        assert d.subject is not None
        got.append((d.summary, d.detail, d.subject.start.column, d.subject.end.column))
    assert got == want
