"""`validate` against provider schemas (engine.plans.validate via engine.operations.validate), with
the built-in `terraform` provider; expected texts and places are terraform 1.11.4's."""

from __future__ import annotations

from pathlib import Path

from engine.configs.loader import load_config
from engine.diags import Diagnostics
from engine.operations.validate import check_config
from engine.plugin.registry import ProviderRegistry


def _validate(tmp_path: Path, text: str) -> list[tuple[str, str, int | None, int | None]]:
    (tmp_path / "main.tf").write_text(text)
    config, diags = load_config(str(tmp_path))
    assert not diags.has_errors
    registry = ProviderRegistry(str(tmp_path))
    try:
        found: Diagnostics = check_config(config, str(tmp_path), registry)
    finally:
        registry.close()
    return [(d.summary, d.detail, d.subject.start_offset if d.subject else None,
             d.subject.end_offset if d.subject else None) for d in found]


def test_references_checked_against_the_schema(tmp_path: Path) -> None:
    got = _validate(tmp_path, """resource "terraform_data" "a" {
  input = "x"
}
resource "terraform_data" "b" {
  input = terraform_data.a.nonexistent
  triggers_replace = terraform_data.a.outpt
}
output "p" { value = terraform_data.a.id.x }
output "r" { value = terraform_data.a[0] }
""")
    assert got == [
        ("Unsupported attribute", 'This object has no argument, nested block, or exported '
         'attribute named "nonexistent".', 106, 118),
        ("Unsupported attribute", 'This object has no argument, nested block, or exported '
         'attribute named "outpt". Did you mean "output"?', 156, 162),
        ("Unsupported attribute",
         "Can't access attributes on a primitive-typed value (string).", 205, 207),
        ("Unexpected resource instance key", 'Because terraform_data.a does not have "count" '
         'or "for_each" set, references to it must not include an index key. Remove the '
         "bracketed index to refer to the single instance of this resource.", 231, 250),
    ]


def test_instance_keys_and_count_attribute(tmp_path: Path) -> None:
    got = _validate(tmp_path, """resource "terraform_data" "a" {
  count = 2
}
output "o" { value = terraform_data.a.output }
output "p" { value = terraform_data.a.count }
output "q" { value = terraform_data.a[0].output }
""")
    missing = ('Because terraform_data.a has "count" set, its attributes must be accessed on '
               "specific instances.\n\nFor example, to correlate with indices of a referring "
               "resource, use:\n    terraform_data.a[count.index]")
    assert got == [
        ("Missing resource instance key", missing, 67, 83),
        ("Missing resource instance key", missing, 114, 130),
        ("Invalid resource count attribute", 'The special "count" attribute is no longer '
         "supported after Terraform v0.12. Instead, use length(terraform_data.a) to inspect "
         "the number of instances.", 114, 130),
    ]


def test_resource_bodies_checked_against_the_schema(tmp_path: Path) -> None:
    got = _validate(tmp_path, """resource "terraform_data" "b" {
  input = "x"
  bogus = 1
  lifecycle {
    ignore_changes = [input]
  }
  foo {}
}
resource "terraform_data" "c" {
  id = "x"
}
""")
    assert [g[0] for g in got] == ["Unsupported argument", "Unsupported block type",
                                   '"id" attribute is read-only']
    assert got[0][1:] == ('An argument named "bogus" is not expected here.', 48, 53)
    assert got[1][1:] == ('Blocks of type "foo" are not expected here.', 107, 110)
    assert got[2][2:] == (None, None)  # the provider's diagnostic names no place


def test_valid_configuration(tmp_path: Path) -> None:
    assert _validate(tmp_path, """resource "terraform_data" "a" {
  count = 2
  input = { n = 1 }
}
output "o" { value = terraform_data.a[0].output.n }
output "all" { value = terraform_data.a[*].id }
""") == []
