"""terraform's legacy local-backend flags side by side: `-state`, `-state-out` and `-backup`
on plan, apply, destroy, refresh, import, taint, and `-parallelism=0`/negative.

The same command sequence runs through terraform and groundplan in two copies of one
configuration; after every step the exit code, stdout and stderr (ids and times normalised)
must be equal, and the same files must exist, each state file holding the same outputs and
resource inputs (which snapshot went to a backup is what the flags decide); at the end the
files that share a lineage are the same. Serials are not compared: terraform persists
intermediate snapshots during an apply, so its serials climb by more than one per apply.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from tests.conformance.harness import Run, require_terraform, run_groundplan, run_terraform

CONFIG = """\
variable "v" {
  type    = string
  default = "a"
}

resource "terraform_data" "a" {
  input = var.v
}

output "o" {
  value = terraform_data.a.output
}
"""

_APPLY = ["apply", "-auto-approve", "-no-color"]

STEPS: list[list[str]] = [
    [*_APPLY, "-state=s1.tfstate"],                       # created: no backup
    [*_APPLY, "-state=s1.tfstate", "-var=v=b"],           # s1.tfstate.backup: the "a" state
    [*_APPLY, "-state=s1.tfstate", "-var=v=b"],           # no change: the backup stays
    # read s1, write a new file in a new directory: nothing to back up, s1 untouched
    [*_APPLY, "-state=s1.tfstate", "-state-out=out/s2.tfstate", "-var=v=c"],
    # the output file exists: its previous content ("c") is the backup, not s1's
    [*_APPLY, "-state=s1.tfstate", "-state-out=out/s2.tfstate", "-var=v=d"],
    # read s1 and write s2 with no change: s2 takes s1's snapshot
    [*_APPLY, "-state=s1.tfstate", "-state-out=out/s3.tfstate", "-var=v=b"],
    [*_APPLY, "-state=out/s2.tfstate", "-backup=-", "-var=v=e"],
    [*_APPLY, "-backup=custom.bak", "-var=v=f"],
    [*_APPLY, "-backup=custom.bak", "-var=v=g"],
    ["plan", "-no-color", "-state=s1.tfstate", "-var=v=x"],
    ["plan", "-no-color", "-state=missing.tfstate"],
    ["plan", "-no-color", "-state=s1.tfstate", "-state-out=never.tfstate", "-var=v=b"],
    ["output", "-no-color", "-state=out/s2.tfstate"],
    ["state", "list", "-state=out/s2.tfstate"],
    ["refresh", "-no-color", "-state=s1.tfstate", "-state-out=r.tfstate", "-var=v=b"],
    ["taint", "-no-color", "-state=out/s2.tfstate", "-state-out=t.tfstate",
     "-backup=t.bak", "terraform_data.a"],
    ["import", "-no-color", "-state=imp.tfstate", "terraform_data.a", "some-id"],
    ["destroy", "-auto-approve", "-no-color", "-state=s1.tfstate", "-var=v=b"],
    ["plan", "-no-color", "-parallelism=0"],
    [*_APPLY, "-parallelism=0", "-var=v=h"],
    ["plan", "-no-color", "-parallelism=-1"],
    [*_APPLY, "-parallelism=-3", "-state=s1.tfstate"],
    ["plan", "-no-color", "-parallelism=many"],
]

_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
_ELAPSED = re.compile(r"after \d+s")


def _norm(text: str) -> str:
    return _ELAPSED.sub("after Ns", _UUID.sub("<id>", text))


def _files(root: Path) -> dict[str, object]:
    """Every file left but the configuration, with what a state file holds."""
    found: dict[str, object] = {}
    for p in sorted(root.rglob("*")):
        if not p.is_file() or p.name == "main.tf" or ".terraform" in p.parts:
            continue
        rel = str(p.relative_to(root))
        doc = json.loads(p.read_text() or "null")
        found[rel] = None if doc is None else {
            "outputs": doc["outputs"],
            "resources": [(r["type"], r["name"], [i["attributes"]["input"] for i in
                                                  r["instances"]]) for r in doc["resources"]],
        }
    return found


def _lineages(root: Path) -> list[set[str]]:
    """Which state files share a lineage (the classes, in file order)."""
    by: dict[str, set[str]] = {}
    for p in sorted(root.rglob("*")):
        if p.is_file() and p.name != "main.tf" and ".terraform" not in p.parts and p.stat().st_size:
            by.setdefault(json.loads(p.read_text())["lineage"], set()).add(
                str(p.relative_to(root)))
    return sorted(by.values(), key=sorted)


def test_legacy_state_flags_match_terraform(tmp_path: Path) -> None:
    require_terraform()
    tf_dir, gp_dir = tmp_path / "tf", tmp_path / "gp"
    for d in (tf_dir, gp_dir):
        d.mkdir()
        (d / "main.tf").write_text(CONFIG)
    for args in STEPS:
        tf: Run = run_terraform(tf_dir, *args)
        gp: Run = run_groundplan(gp_dir, *args)
        assert (gp.code, _norm(gp.stdout), _norm(gp.stderr)) == (
            tf.code, _norm(tf.stdout), _norm(tf.stderr)), " ".join(args)
        assert _files(gp_dir) == _files(tf_dir), " ".join(args)
    assert _lineages(gp_dir) == _lineages(tf_dir)
