"""engine.core.diag_paths: where a provider's diagnostic lands in the configuration (terraform's
tfdiags.InConfigBody / attributeDiagnostic.ElaborateFromConfigBody)."""

from __future__ import annotations

import pytest

from engine.core.diag_paths import elaborate, in_config_body, path_range
from engine.diags import Diagnostic, Severity, error, render_diagnostic, to_json
from engine.hcl.ast import Body
from engine.hcl.parser import parse_file
from engine.plugin.paths import AttributePath, AttrStep, IndexStep
from engine.plugin.protocol import attribute_error
from engine.source import Range
from engine.values import number, string

CONFIG = """\
resource "x_thing" "a" {
  name   = "n"
  length = count.index == 0 ? 0 : 5
  list   = ["a", "b", var.c]
  tags = {
    one         = "1"
    "two"       = "${var.two}x"
    (local.key) = 3
  }
  computed = var.tags
  obj      = { inner = 1 }

  rule {
    action = "first"
  }
  rule {
    action = "second"
    filter {
      prefix = "p/"
    }
  }
  single {
    value = 7
  }
  named "k1" {
    v = 1
  }
  dynamic "rule" {
    for_each = [1]
    content {
      action = "dyn"
    }
  }
}
"""


@pytest.fixture(scope="module")
def body() -> Body:
    f, diags = parse_file(CONFIG, "main.tf")
    assert not diags.has_errors
    return f.body.blocks[0].body


def text(rng: Range) -> str:
    return CONFIG[rng.start_offset : rng.end_offset]


def at(body: Body, *steps: str | int | tuple[str]) -> str:
    """The source text the path built from `steps` points at: names are attribute steps,
    ints number indexes, 1-tuples string indexes."""
    out: list[AttrStep | IndexStep] = []
    for s in steps:
        if isinstance(s, tuple):
            out.append(IndexStep(string(s[0])))
        elif isinstance(s, int):
            out.append(IndexStep(number(s)))
        else:
            out.append(AttrStep(s))
    rng = path_range(body, AttributePath(tuple(out)))
    return f"{rng.start.line}:{text(rng)}"


def test_attribute_points_at_its_expression(body: Body) -> None:
    assert at(body, "name") == '2:"n"'
    assert at(body, "length") == "3:count.index == 0 ? 0 : 5"


def test_list_element_of_a_literal_list(body: Body) -> None:
    assert at(body, "list", 1) == '4:"b"'
    assert at(body, "list", 2) == "4:var.c"
    # an element that is not there: the argument's name
    assert at(body, "list", 9) == "4:list"


def test_map_key_of_a_literal_object_is_the_start_of_its_value(body: Body) -> None:
    assert at(body, "tags", ("one",)) == "6:1"  # inside the quotes, as HCL's StartRange
    assert at(body, "tags", ("two",)) == "7:var.two"  # a template starting with "${"


def test_object_key_needing_evaluation_gives_the_whole_expression(body: Body) -> None:
    whole = at(body, "tags", ("nope",))
    assert whole.startswith("5:{") and whole.endswith("}")


def test_index_into_a_non_literal_gives_the_whole_expression(body: Body) -> None:
    assert at(body, "computed", ("k",)) == "10:var.tags"
    assert at(body, "name", 0) == '2:"n"'


def test_nested_blocks_by_position(body: Body) -> None:
    assert at(body, "rule", 0, "action") == '14:"first"'
    assert at(body, "rule", 1, "action") == '17:"second"'
    assert at(body, "rule", 1, "filter", 0, "prefix") == '19:"p/"'


def test_single_block_without_index(body: Body) -> None:
    assert at(body, "single", "value") == "23:7"


def test_map_block_by_label(body: Body) -> None:
    assert at(body, "named", ("k1",), "v") == "26:1"


def test_unresolvable_paths_fall_back_to_the_deepest_body_opening_brace(body: Body) -> None:
    # more blocks than the configuration has (dynamic blocks are not looked into)
    assert at(body, "rule", 2, "action") == "1:{"
    # several blocks of the type but no index
    assert at(body, "rule", "action") == "1:{"
    # an argument that is not set
    assert at(body, "missing") == "1:{"
    # a path that starts with an index
    assert at(body, 0) == "1:{"
    # nested attributes inside an object value: terraform does not look into expressions
    assert at(body, "obj", "inner") == "1:{"
    # reached the block, but it has no such argument: that block's brace
    assert at(body, "single", "nope") == "22:{"
    # ends with two indexes: the last attribute step is not the final one
    assert at(body, "list", 0, 1) == "1:{"


def test_set_element_index_stops_at_the_current_body(body: Body) -> None:
    from engine.values import object_

    path = AttributePath((AttrStep("rule"), IndexStep(object_({"action": string("first")})),
                          AttrStep("action")))
    assert text(path_range(body, path)) == "{"


def test_elaborate_sets_subject_and_address(body: Body) -> None:
    d = elaborate(attribute_error("Bad", "detail", AttributePath.of("name")), body, "x_thing.a")
    assert d.address == "x_thing.a" and d.subject is not None and text(d.subject) == '"n"'
    assert type(d) is Diagnostic
    whole = elaborate(error("Whole"), body, "x_thing.a[0]")
    assert whole.subject is not None and text(whole.subject) == "{"
    assert whole.address == "x_thing.a[0]"


def test_elaborate_keeps_an_existing_subject_and_address(body: Body) -> None:
    rng = Range(body.range.file, 0, 8)
    d = Diagnostic(Severity.WARNING, "w", subject=rng, address="other.addr")
    out = elaborate(d, body, "x_thing.a")
    assert out.subject is rng and out.address == "other.addr"


def test_without_a_body_only_the_address_is_added() -> None:
    [d] = in_config_body([error("e")], None, 'provider["registry.terraform.io/hashicorp/x"]')
    assert d.subject is None and d.address == 'provider["registry.terraform.io/hashicorp/x"]'


def test_rendered_with_line_above_the_location(body: Body) -> None:
    d = elaborate(attribute_error("Invalid Attribute Value", "Too short.",
                                  AttributePath.of("length")), body, "x_thing.a[0]")
    assert render_diagnostic(d, box=False) == (
        "\nError: Invalid Attribute Value\n\n"
        "  with x_thing.a[0],\n"
        '  on main.tf line 3, in resource "x_thing" "a":\n'
        "   3:   length = count.index == 0 ? 0 : 5\n\n"
        "Too short.\n"
    )
    colored = render_diagnostic(d, color=True)
    # as terraform: the summary's trailing reset opens the line after the blank one
    assert "\x1b[31m│\x1b[0m \x1b[0m\x1b[0m  with x_thing.a[0],\n" in colored


def test_rendered_with_line_without_a_location() -> None:
    d = Diagnostic(Severity.ERROR, "Oops", "Detail.", address="x_thing.a")
    assert render_diagnostic(d, box=False) == "\nError: Oops\n\n  with x_thing.a,\nDetail.\n"


def test_json_carries_the_address_before_the_range(body: Body) -> None:
    d = elaborate(error("Whole"), body, "x_thing.a")
    j = to_json(d)
    assert list(j) == ["severity", "summary", "detail", "address", "range", "snippet"]
    assert j["address"] == "x_thing.a"
    assert j["range"]["start"] == {"line": 1, "column": 24, "byte": 23}
    assert j["range"]["end"] == {"line": 1, "column": 25, "byte": 24}
    assert j["snippet"]["highlight_start_offset"] == 23
    assert j["snippet"]["highlight_end_offset"] == 24
    assert "address" not in to_json(error("plain"))


def test_json_widens_an_empty_range(body: Body) -> None:
    start = body.range.start_offset
    d = error("Empty", subject=Range(body.range.file, start, start))
    j = to_json(d)
    assert j["range"]["end"]["byte"] == j["range"]["start"]["byte"] + 1
    assert j["snippet"]["highlight_end_offset"] == j["snippet"]["highlight_start_offset"] + 1


def test_json_body_points_at_the_closing_brace() -> None:
    from engine.hcl.json_syntax import parse_json_file

    src = '{"name": "n", "length": 0}'
    f, diags = parse_json_file(src, "main.tf.json")
    assert not diags.has_errors
    rng = path_range(f.body, AttributePath.of("missing"))
    assert src[rng.start_offset : rng.end_offset] == "}"
    rng = path_range(f.body, AttributePath.of("length"))
    assert src[rng.start_offset : rng.end_offset] == "0"


def test_builtin_provider_plain_diagnostics_stay_sourceless(body: Body) -> None:
    plain, attr = in_config_body(
        [error('"id" attribute is read-only'),
         attribute_error("Invalid backend", "d", AttributePath.of("name"))],
        body, "terraform_data.c", whole_body=False)
    assert plain.subject is None and plain.address is None
    assert attr.subject is not None and text(attr.subject) == '"n"'
    assert attr.address == "terraform_data.c"
