"""The plan records root variables as given and applying it re-converts them.

As terraform 1.11.4: `plan -out=p -var=n=4 -var='s=["b","a","b"]'` then `show -json p` has
`"n": {"value": "4"}` and the list as given; `apply p` evaluates with the converted values
(4 and toset(["a","b"])), the same ones `plan` used.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from engine.cli import main as cli_main
from engine.cli.ui import Ui

CONFIG = """
variable "n" { type = number }
variable "s" { type = set(string) }
variable "d" {
  type    = number
  default = 3
}
variable "secret" {
  type      = string
  sensitive = true
}
output "o" { value = [var.n + 1, var.s, var.d] }
output "secret_length" { value = nonsensitive(length(var.secret)) }
output "secret" {
  value     = var.secret
  sensitive = true
}
"""


def _run(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = cli_main.run(argv, Ui(out, err, io.StringIO(""), color=False))
    return code, out.getvalue(), err.getvalue()


@pytest.fixture()
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "main.tf").write_text(CONFIG, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_saved_plan_records_values_as_given(workdir: Path) -> None:
    args = ["plan", "-out=p", "-var=n=4", '-var=s=["b","a","b"]', "-var=secret=hush"]
    code, _out, err = _run(args)
    assert code == 0, err
    code, out, err = _run(["show", "-json", "p"])
    assert code == 0, err
    doc = json.loads(out)
    assert doc["variables"] == {
        "d": {"value": 3},
        "n": {"value": "4"},
        "s": {"value": ["b", "a", "b"]},
        "secret": {"value": "hush"},
    }
    assert doc["output_changes"]["o"]["after"] == [5, ["a", "b"], 3]


def test_applying_the_saved_plan_uses_the_converted_values(workdir: Path) -> None:
    code, _out, err = _run(["plan", "-out=p", "-var=n=4", '-var=s=["b","a","b"]',
                            "-var=secret=hush"])
    assert code == 0, err
    code, out, err = _run(["apply", "p"])
    assert code == 0, err
    assert 'o = [\n  5,\n  toset([\n    "a",\n    "b",\n  ]),\n  3,\n]' in out
    assert "secret_length = 4" in out and "secret = <sensitive>" in out
