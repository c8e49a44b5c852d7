"""What a destroy-time provisioner (and its connection) may refer to: terraform's
onlySelfRefs, checked when the configuration is loaded."""

from __future__ import annotations

from pathlib import Path

from engine.configs.loader import load_module
from engine.diags import Diagnostics

_SUMMARY = "Invalid reference from destroy provisioner"


def _load(tmp_path: Path, body: str) -> Diagnostics:
    (tmp_path / "main.tf").write_text(
        'locals {\n  x = 1\n}\n\nresource "terraform_data" "a" {\n  count = 1\n'
        f'  provisioner "local-exec" {{\n    when = destroy\n{body}  }}\n}}\n'
    )
    _, diags = load_module(str(tmp_path))
    return diags


def test_self_path_terraform_count_index_are_allowed(tmp_path: Path) -> None:
    diags = _load(tmp_path, '    command = "${self.input} ${path.module} ${path.root} '
                            '${path.cwd} ${terraform.workspace} ${count.index}"\n')
    assert not diags.has_errors, [d.detail for d in diags]


def test_each_key_is_allowed_but_not_each_value(tmp_path: Path) -> None:
    diags = _load(tmp_path, '    command = "${each.key}"\n')
    assert not [d for d in diags if d.summary == _SUMMARY]
    diags = _load(tmp_path, '    command = "${each.value}"\n')
    assert [d.summary for d in diags.errors] == [_SUMMARY]


def test_one_error_per_bad_reference_ranged_over_the_whole_argument(tmp_path: Path) -> None:
    diags = _load(tmp_path, '    command = "${local.x} ${count.value} ${self.id}"\n'
                            '    environment = { A = count.index }\n')
    errs = [d for d in diags.errors if d.summary == _SUMMARY]
    assert len(errs) == 2
    text = (tmp_path / "main.tf").read_text()
    for d in errs:
        assert d.subject is not None
        assert text[d.subject.start_offset:d.subject.end_offset] == (
            '"${local.x} ${count.value} ${self.id}"')
    assert errs[0].detail.startswith(
        "Destroy-time provisioners and their connection configurations may only reference "
        "attributes of the related resource, via 'self', 'count.index', or 'each.key'.")


def test_connection_of_a_destroy_provisioner_is_checked(tmp_path: Path) -> None:
    diags = _load(tmp_path, '    command = "x"\n    connection {\n      host = local.x\n'
                            '      user = self.input\n    }\n')
    assert [d.summary for d in diags.errors] == [_SUMMARY]
