"""`plan -generate-config-out=FILE` side by side with terraform, with `terraform_data`.

Import blocks whose target has no configuration: with the option, the objects are imported
and configuration is generated for them, written to FILE (which must not exist) and noted in
the plan; the saved plan applies as an import. Each step runs through both tools in two
copies of one directory, comparing exit codes, stdout and stderr (ids and times normalised),
the generated file (its blocks in any order, as terraform's concurrent imports write
them), and, at the end, the resources in the state.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from tests.conformance.harness import Run, require_terraform, run_groundplan, run_terraform

CONFIG = """\
import {
  to = terraform_data.single
  id = "id-one"
}

import {
  to = terraform_data.other
  id = "id-\\"quoted\\" $${not} %%{a} template"
}

resource "terraform_data" "configured" {
  input = "kept"
}
"""

_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
_ELAPSED = re.compile(r"after \d+s")


def _norm(text: str) -> str:
    """Ids and times replaced; the import progress lines (importing, and reading what was
    imported) sorted among themselves: terraform imports the targets concurrently and lists
    them in no fixed order."""
    lines = _ELAPSED.sub("after Ns", _UUID.sub("<id>", text)).split("\n")
    marks = ("Preparing import...", ": Importing...", ": Import complete", "Refreshing state")
    at = [i for i, line in enumerate(lines) if any(m in line for m in marks)]
    for i, line in zip(at, sorted(lines[i] for i in at), strict=True):
        lines[i] = line
    return "\n".join(lines).replace(EXPERIMENTAL, "")


# terraform 1.11 itself leaves this warning out now and then (about one run in six here), so
# it is compared apart: groundplan gives it once whenever it generated configuration
EXPERIMENTAL = (
    "\nWarning: Config generation is experimental\n\nGenerating configuration during import "
    "is currently experimental, and the\ngenerated configuration format may change in future "
    "versions.\n")


def _files(root: Path) -> dict[str, object]:
    """The configuration files; a generated one as its header and its blocks (terraform
    writes the blocks in the order its concurrent imports finish)."""
    out: dict[str, object] = {}
    for p in sorted(root.rglob("*.tf")):
        text = p.read_text()
        head, *blocks = text.split("\n# __generated__ by Terraform from ")
        out[str(p.relative_to(root))] = (head, sorted(blocks)) if blocks else text
    return out


def _resources(root: Path) -> object:
    path = root / "terraform.tfstate"
    if not path.exists():
        return None
    doc = json.loads(path.read_text())
    return [(r["type"], r["name"], sorted(str(i.get("index_key")) for i in r["instances"]),
             sorted(str(i["attributes"]["id"]) for i in r["instances"]
                    if r["name"] != "configured")) for r in doc["resources"]]


def _steps(tmp_path: Path, steps: list[list[str]]) -> None:
    tf_dir, gp_dir = tmp_path / "tf", tmp_path / "gp"
    for d in (tf_dir, gp_dir):
        d.mkdir()
        (d / "main.tf").write_text(CONFIG)
    for args in steps:
        tf: Run = run_terraform(tf_dir, *args)
        gp: Run = run_groundplan(gp_dir, *args)
        if args[:2] == ["show", "-json"]:
            assert gp.code == tf.code == 0
            got = [(c["address"], c["change"]["actions"], c["change"].get("importing"),
                    c["change"].get("generated_config")) for c in gp.json()["resource_changes"]]
            want = [(c["address"], c["change"]["actions"], c["change"].get("importing"),
                     c["change"].get("generated_config"))
                    for c in tf.json()["resource_changes"]]
            assert got == want
            continue
        assert (gp.code, _norm(gp.stdout), _norm(gp.stderr)) == (
            tf.code, _norm(tf.stdout), _norm(tf.stderr)), " ".join(args)
        assert _files(gp_dir) == _files(tf_dir), " ".join(args)
        generated = args[0] == "plan" and gp.code == 0 and "(config will be generated)" in \
            gp.stdout
        assert gp.stdout.count(EXPERIMENTAL) == (1 if generated else 0), " ".join(args)
    assert _resources(gp_dir) == _resources(tf_dir)


def test_generated_config_is_written_and_noted(tmp_path: Path) -> None:
    require_terraform()
    _steps(tmp_path, [
        ["plan", "-no-color"],                                        # no config: an error
        ["plan", "-no-color", "-destroy", "-generate-config-out=gen.tf"],
        ["plan", "-no-color", "-generate-config-out=gen.tf"],
        ["plan", "-no-color", "-generate-config-out=gen.tf"],        # the file exists now
        ["plan", "-no-color", "-generate-config-out=other.tf"],      # configured: nothing new
    ])


def test_saved_plan_with_generated_config_applies(tmp_path: Path) -> None:
    require_terraform()
    _steps(tmp_path, [
        ["plan", "-no-color", "-generate-config-out=generated.tf", "-out=p.tfplan"],
        ["show", "-json", "p.tfplan"],
        ["show", "-no-color", "p.tfplan"],
        ["apply", "-no-color", "p.tfplan"],
        ["plan", "-no-color", "-detailed-exitcode"],
    ])
