"""The state commands side by side with terraform on local state.

One state is made by terraform applying a configuration with `terraform_data` resources
(single, `count`, `for_each`, a dependency), modules (nested, with `count`) and a resource of
our Python `random` provider (installed for terraform from a filesystem mirror). Each case
copies that state into two directories and runs the same command through terraform and
through groundplan, then compares the exit code, stdout and stderr (colour codes included
where the case runs with colour), the resulting state file byte for byte, and the other files
left (backups: terraform's `terraform.tfstate.<unix seconds>.backup` names, the seconds taken
during the run, the contents compared).

Normalised only: the order of lines terraform prints from Go map iteration (the modules of a
module move, the resources of replace-provider), lock IDs and times, and directory names.

groundplan runs in this process (`engine.cli.main.run` with captured streams, in the case's
directory), as `main` runs it, to spare a Python start per case; the help texts, the cases
without state and the locked-state cases start it as a process, as a user does.
"""

from __future__ import annotations

import dataclasses
import io
import os
import re
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from engine.cli.main import run as run_cli
from engine.cli.ui import Ui
from engine.plugin.sdk.package import package
from tests.conformance.harness import Run, require_terraform, run_groundplan, run_terraform

CONFIG = """\
terraform {
  required_providers {
    random = { source = "hashicorp/random", version = "3.6.3" }
  }
}

resource "terraform_data" "a" {
  input = "a"
}

resource "terraform_data" "c" {
  count = 2
  input = count.index
}

resource "terraform_data" "f" {
  for_each = toset(["x", "y"])
  input    = each.key
}

resource "terraform_data" "dep" {
  input = terraform_data.a.id
}

resource "terraform_data" "onr" {
  input = module.m.r
}

resource "random_pet" "p" {}

module "m" {
  source = "./mod"
}

module "n" {
  source = "./mod"
  count  = 2
}

output "o" {
  value = terraform_data.a.id
}
"""
MODULE = """\
resource "terraform_data" "r" {
  input = "r"
}

module "inner" {
  source = "./inner"
}

output "r" {
  value = terraform_data.r.id
}
"""
INNER = 'resource "terraform_data" "i" {}\n'

_BACKUP = re.compile(r"^(.+\.tfstate)\.(\d+)\.backup$")


@pytest.fixture(scope="module")
def base_state(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The state terraform wrote applying CONFIG (with our random provider)."""
    require_terraform()
    root = tmp_path_factory.mktemp("state-base")
    mirror = root / "mirror"
    package("random", "3.6.3", mirror)
    cli = root / "terraformrc"
    cli.write_text(
        "provider_installation {\n"
        f'  filesystem_mirror {{\n    path = "{mirror}"\n'
        '    include = ["registry.terraform.io/hashicorp/random"]\n  }\n'
        '  direct {\n    exclude = ["registry.terraform.io/hashicorp/random"]\n  }\n}\n')
    work = root / "cfg"
    (work / "mod" / "inner").mkdir(parents=True)
    (work / "main.tf").write_text(CONFIG)
    (work / "mod" / "main.tf").write_text(MODULE)
    (work / "mod" / "inner" / "main.tf").write_text(INNER)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TF_", "PLUGIN_"))}
    env.update(TF_CLI_CONFIG_FILE=str(cli), TF_IN_AUTOMATION="1", CHECKPOINT_DISABLE="1")
    for args in (["init", "-no-color"], ["apply", "-auto-approve", "-no-color"]):
        proc = subprocess.run(["terraform", *args], cwd=work, env=env, text=True,
                              capture_output=True, timeout=300)
        assert proc.returncode == 0, f"terraform {args}:\n{proc.stdout}\n{proc.stderr}"
    return (work / "terraform.tfstate").read_text()


@dataclass
class Side:
    run: Run
    files: dict[str, bytes]
    started: float
    finished: float


def _files(d: Path) -> dict[str, bytes]:
    return {str(p.relative_to(d)): p.read_bytes() for p in sorted(d.rglob("*")) if p.is_file()}


def run_groundplan_here(workdir: Path, args: list[str], stdin: str | None) -> Run:
    """groundplan's CLI in this process, as `engine.cli.main.main` runs it."""
    out, err = io.StringIO(), io.StringIO()
    inp = io.TextIOWrapper(io.BytesIO((stdin or "").encode("utf-8")), encoding="utf-8")
    color = not any(a in ("-no-color", "--no-color") for a in args)
    argv = list(args) if color else [a for a in args if a not in ("-no-color", "--no-color")]
    old = os.getcwd()
    os.chdir(workdir)
    try:
        code = run_cli(argv, Ui(stdout=out, stderr=err, stdin=inp, color=color))
    finally:
        os.chdir(old)
    return Run(code, out.getvalue(), err.getvalue())


def _one(tool: str, d: Path, args: list[str], stdin: str | None, process: bool = False) -> Side:
    started = time.time()
    if tool == "tf":
        run = run_terraform(d, *args, stdin=stdin)
    elif process:
        run = run_groundplan(d, *args, stdin=stdin)
    else:
        run = run_groundplan_here(d, args, stdin)
    return Side(run, _files(d), started, time.time())


def side_by_side(
    tmp_path: Path, base: str | None, args: list[str], stdin: str | None = None,
    extra: dict[str, str] | None = None, process: bool = False,
) -> tuple[Side, Side]:
    """Run `args` in two copies of a directory holding `base` (None: no state) and `extra`
    (groundplan as a process when `process`)."""
    out = []
    for tool in ("tf", "gp"):
        d = tmp_path / tool
        d.mkdir(parents=True)
        if base is not None:
            (d / "terraform.tfstate").write_text(base)
        for name, text in (extra or {}).items():
            (d / name).write_text(text)
        out.append(_one(tool, d, args, stdin, process))
    return out[0], out[1]


def _unordered_blocks(text: str) -> str:
    """Sort the runs of lines terraform prints in Go map order: `Move "module...` lines and
    the resources listed by replace-provider (two-space indented addresses)."""
    lines = text.split("\n")
    out: list[str] = []
    i = 0
    while i < len(lines):
        j = i
        kind = _random_order_kind(lines[i])
        while kind and j < len(lines) and _random_order_kind(lines[j]) == kind:
            j += 1
        if j > i:
            out.extend(sorted(lines[i:j]))
            i = j
        else:
            out.append(lines[i])
            i += 1
    return "\n".join(out)


def _random_order_kind(line: str) -> str:
    if line.startswith(('Move "module.', 'Would move "module.')):
        return "move"
    if re.fullmatch(r"  (module\.\S+\.)?[a-z_]+\.[A-Za-z0-9_-]+", line):
        return "resource"
    return ""


def _backups_normalised(side: Side) -> dict[str, bytes]:
    """The files with timestamped backup names normalised, after checking that each
    timestamp was taken during the run."""
    out: dict[str, bytes] = {}
    for name, data in side.files.items():
        m = _BACKUP.match(name)
        if m:
            assert int(side.started) <= int(m.group(2)) <= int(side.finished) + 1, name
            name = f"{m.group(1)}.<unix>.backup"
        out[name] = data
    return out


_LINEAGE = re.compile(rb'"lineage": "[0-9a-f-]{36}"')


def _fresh_lineages(side: Side, *names: str) -> Side:
    """`side` with the lineage of the named files (states created by the run, whose lineage
    is new and random) replaced by a placeholder."""
    files = {n: _LINEAGE.sub(b'"lineage": "<new>"', d) if n.startswith(names) else d
             for n, d in side.files.items()}
    return Side(side.run, files, side.started, side.finished)


def assert_same(tf: Side, gp: Side, what: str) -> None:
    assert gp.run.code == tf.run.code, (what, gp.run, tf.run)
    assert _unordered_blocks(gp.run.stdout) == _unordered_blocks(tf.run.stdout), what
    assert gp.run.stderr == tf.run.stderr, what
    assert _backups_normalised(gp) == _backups_normalised(tf), what


# (id, arguments) run on the terraform-made state; "-no-color" is added unless the id ends
# with "+color", so some cases compare the coloured output too.
MV_CASES: list[tuple[str, list[str]]] = [
    ("rename", ["terraform_data.a", "terraform_data.b"]),
    ("rename+color", ["terraform_data.a", "terraform_data.b"]),
    ("dry-run", ["-dry-run", "terraform_data.a", "terraform_data.b"]),
    ("count-instance", ["terraform_data.c[0]", "terraform_data.c[5]"]),
    ("for-each-instance", ['terraform_data.f["x"]', 'terraform_data.f["z"]']),
    ("count-instance-to-new-for-each", ["terraform_data.c[1]", 'terraform_data.g["one"]']),
    ("whole-resource", ["terraform_data.c", "terraform_data.d"]),
    ("whole-to-instance", ["terraform_data.c", "terraform_data.d[0]"]),
    ("to-existing-instance", ["terraform_data.a", "terraform_data.c[0]"]),
    ("to-existing-resource", ["terraform_data.c", "terraform_data.f"]),
    ("single-into-count-resource", ["terraform_data.a", "terraform_data.c"]),
    ("single-to-instance", ["terraform_data.a", "terraform_data.z[3]"]),
    ("module", ["module.m", "module.z"]),
    ("module+color", ["module.m", "module.z"]),
    ("module-dry-run", ["-dry-run", "module.m", "module.z"]),
    ("module-to-call-with-count", ["module.m", "module.n"]),
    ("module-to-existing", ["module.m", "module.n[0]"]),
    ("module-instance", ["module.n[1]", "module.k"]),
    ("module-instance-to-key", ["module.n[0]", 'module.n["zero"]']),
    ("nested-module-out", ["module.n[1].module.inner", "module.inner"]),
    ("module-into-module", ["module.m", "module.n[0].module.m"]),
    ("unknown-module", ["module.n", "module.q"]),
    ("into-module", ["terraform_data.a", "module.z.terraform_data.a"]),
    ("into-existing-module", ["terraform_data.f", "module.m.terraform_data.f"]),
    ("out-of-module", ["module.m.terraform_data.r", "terraform_data.r"]),
    ("between-module-instances", ["module.n[0].terraform_data.r", "module.n[1].terraform_data.s"]),
    ("dependency-forgotten", ["terraform_data.a", "terraform_data.a2"]),
    ("module-dependency-forgotten", ["module.m", "module.mm"]),
    ("unknown-source", ["terraform_data.nope", "terraform_data.b"]),
    ("unknown-instance", ["terraform_data.c[7]", "terraform_data.c[8]"]),
    ("bad-target", ["terraform_data.a", "foo"]),
    ("bad-both+color", ["module.x[", "a.b$"]),
    ("one-argument", ["terraform_data.a"]),
    ("three-arguments", ["a.b", "a.c", "a.d"]),
    ("mode-change", ["terraform_data.a", "data.terraform_data.a"]),
    ("type-change", ["terraform_data.a", "null_resource.a"]),
    ("mode-and-type-change", ["terraform_data.c", "data.null_resource.c"]),
    ("module-to-resource", ["module.m", "terraform_data.x"]),
    ("resource-to-module", ["terraform_data.c", "module.x"]),
    ("instance-to-module", ["terraform_data.c[0]", "module.x"]),
    ("no-lock", ["-lock=false", "terraform_data.a", "terraform_data.b"]),
    ("backup-path", ["-backup=mine.backup", "terraform_data.a", "terraform_data.b"]),
    ("bad-flag", ["-bogus", "a.b", "a.c"]),
    ("bad-lock-timeout", ["-lock-timeout=soon", "a.b", "a.c"]),
]


@pytest.mark.parametrize("args", [c[1] for c in MV_CASES], ids=[c[0] for c in MV_CASES])
def test_state_mv_matches_terraform(tmp_path: Path, base_state: str, args: list[str],
                                    request: pytest.FixtureRequest) -> None:
    color = request.node.callspec.id.endswith("+color")
    full = ["state", "mv", *([] if color else ["-no-color"]), *args]
    tf, gp = side_by_side(tmp_path, base_state, full)
    if request.node.callspec.id == "module-to-resource":
        # terraform takes the module instances under module.m from a Go map, so its error
        # names module.m or module.m.module.inner, either; groundplan names module.m
        tf.run.stderr = re.sub(
            r"Cannot move module\.m\.module\.inner to terraform_data\.x: the target must "
            r"also\s+be a module\.",
            "Cannot move module.m to terraform_data.x: the target must also be a module.",
            tf.run.stderr)
    assert_same(tf, gp, " ".join(full))


def test_state_mv_to_another_state_file_matches_terraform(tmp_path: Path, base_state: str) -> None:
    """-state-out: moved out of the working state into a new file, then into that file
    while it exists (backups of both, the moved resource keeps its provider)."""
    for step, args in enumerate([
        ["state", "mv", "-no-color", "-state-out=other.tfstate", "module.m", "module.m"],
        ["state", "mv", "-no-color", "-state-out=other.tfstate", "terraform_data.c",
         "terraform_data.c"],
        ["state", "mv", "-no-color", "-state=other.tfstate", "-state-out=third.tfstate",
         "-backup=b1", "-backup-out=b2", "module.m", "module.q"],
    ]):
        sub = tmp_path / f"step{step}"
        sub.mkdir()
        if step == 0:
            tf, gp = side_by_side(sub, base_state, args)
        else:
            for tool, prev in (("tf", tf), ("gp", gp)):
                (sub / tool).mkdir()
                for name, data in prev.files.items():
                    if not _BACKUP.match(name):
                        (sub / tool / name).write_bytes(data)
            tf = _one("tf", sub / "tf", args, None)
            gp = _one("gp", sub / "gp", args, None)
        new = ("other.tfstate", "third.tfstate", "b1", "b2")
        assert_same(_fresh_lineages(tf, *new), _fresh_lineages(gp, *new), " ".join(args))


RM_CASES: list[tuple[str, list[str]]] = [
    ("one", ["terraform_data.a"]),
    ("one+color", ["terraform_data.a"]),
    ("several", ["terraform_data.c", 'terraform_data.f["x"]', "module.n"]),
    ("dry-run", ["-dry-run", "terraform_data.c", "module.m"]),
    ("nothing-matches", ["terraform_data.nope"]),
    ("nothing-matches+color", ["terraform_data.nope", "module.nope", "terraform_data.a[3]"]),
    ("some-match", ["terraform_data.a", "terraform_data.nope"]),
    ("dry-run-nothing", ["-dry-run", "terraform_data.nope"]),
    ("nested-module", ["module.m.module.inner"]),
    ("module-instance", ["module.n[0]"]),
    ("module-and-descendants", ["module.n"]),
    ("twice", ["terraform_data.a", "terraform_data.a"]),
    ("everything", ["terraform_data.a", "terraform_data.c", "terraform_data.f",
                    "terraform_data.dep", "terraform_data.onr", "random_pet.p", "module.m",
                    "module.n"]),
    ("bad-addresses", ["terraform_data.a", "foo", "module.x["]),
    ("bad-addresses+color", ["var.x", "a.b[1.5]", "a.b[*]", "1abc"]),
    ("no-arguments", []),
    ("backup-path", ["-backup=mine.backup", "terraform_data.a"]),
    ("other-state-file", ["-state=other.tfstate", "terraform_data.a"]),
    ("no-lock", ["-lock=false", "module.m"]),
    ("bad-flag", ["-bogus", "a.b"]),
]


@pytest.mark.parametrize("args", [c[1] for c in RM_CASES], ids=[c[0] for c in RM_CASES])
def test_state_rm_matches_terraform(tmp_path: Path, base_state: str, args: list[str],
                                    request: pytest.FixtureRequest) -> None:
    color = request.node.callspec.id.endswith("+color")
    full = ["state", "rm", *([] if color else ["-no-color"]), *args]
    extra = {"other.tfstate": base_state} if any("other.tfstate" in a for a in args) else None
    tf, gp = side_by_side(tmp_path, base_state, full, extra=extra)
    assert_same(tf, gp, " ".join(full))


def test_state_pull_matches_terraform(tmp_path: Path, base_state: str) -> None:
    for i, args in enumerate([["state", "pull"], ["state", "pull", "extra"],
                              ["state", "pull", "-bogus"]]):
        tf, gp = side_by_side(tmp_path / str(i), base_state, args)
        assert_same(tf, gp, " ".join(args))
    assert gp.run.code == 1 and tf.run.code == 1


def _variant(base: str, **changes: object) -> str:
    """`base` with top-level fields replaced (and `resources` cut to the first two when
    `cut`), written as terraform writes state files."""
    import json

    doc = json.loads(base)
    if changes.pop("cut", False):
        doc["resources"] = doc["resources"][:2]
    doc.update(changes)
    return json.dumps(doc, indent=2) + "\n"


def _push_files(base: str) -> dict[str, str]:
    import json

    serial = json.loads(base)["serial"]
    return {
        "other.json": _variant(base, lineage="11111111-2222-3333-4444-555555555555"),
        "other-cut.json": _variant(base, lineage="11111111-2222-3333-4444-555555555555",
                                   cut=True),
        "older.json": _variant(base, serial=serial - 1, cut=True),
        "newer.json": _variant(base, serial=serial + 5, cut=True),
        "same-serial.json": _variant(base, cut=True),
        "identical.json": base,
        "empty.json": "",
        "broken.json": '{"version": 4, "serial": 9, "lineage": "x", "resources": [',
        "v9.json": '{"version": 9, "serial": 1, "lineage": "x"}',
    }


PUSH_CASES: list[tuple[str, list[str]]] = [
    ("other-lineage", ["other.json"]),
    ("other-lineage+color", ["other.json"]),
    ("other-lineage-forced", ["-force", "other.json"]),
    ("other-lineage-other-content-forced", ["-force", "other-cut.json"]),
    ("older-serial", ["older.json"]),
    ("older-serial-forced", ["-force", "older.json"]),
    ("newer-serial", ["newer.json"]),
    ("same-serial-different-content", ["same-serial.json"]),
    ("identical", ["identical.json"]),
    ("missing-file", ["missing.json"]),
    ("empty-file", ["empty.json"]),
    ("not-json", ["broken.json"]),
    ("newer-format", ["v9.json"]),
    ("no-arguments", []),
    ("two-arguments", ["a.json", "b.json"]),
    ("no-lock", ["-lock=false", "newer.json"]),
    ("bad-flag", ["-bogus", "x"]),
]


@pytest.mark.parametrize("args", [c[1] for c in PUSH_CASES], ids=[c[0] for c in PUSH_CASES])
def test_state_push_matches_terraform(tmp_path: Path, base_state: str, args: list[str],
                                      request: pytest.FixtureRequest) -> None:
    color = request.node.callspec.id.endswith("+color")
    full = ["state", "push", *([] if color else ["-no-color"]), *args]
    tf, gp = side_by_side(tmp_path, base_state, full, extra=_push_files(base_state))
    assert_same(tf, gp, " ".join(full))


@pytest.mark.parametrize("name", ["newer.json", "other-cut.json"])
@pytest.mark.parametrize("force", [False, True])
def test_state_push_from_stdin_matches_terraform(tmp_path: Path, base_state: str, name: str,
                                                 force: bool) -> None:
    args = ["state", "push", "-no-color", *(["-force"] if force else []), "-"]
    tf, gp = side_by_side(tmp_path, base_state, args, stdin=_push_files(base_state)[name])
    assert_same(tf, gp, f"{' '.join(args)} < {name}")


def test_state_push_into_no_state_matches_terraform(tmp_path: Path, base_state: str) -> None:
    args = ["state", "push", "-no-color", "newer.json"]
    tf, gp = side_by_side(tmp_path, None, args, extra=_push_files(base_state))
    assert_same(tf, gp, " ".join(args))
    assert tf.files["terraform.tfstate"] == gp.files["terraform.tfstate"]


RP_CASES: list[tuple[str, list[str], str | None]] = [
    ("builtin-auto-approve", ["-auto-approve", "terraform.io/builtin/terraform",
                              "example.com/acme/terraform"], None),
    ("builtin-auto-approve+color", ["-auto-approve", "terraform.io/builtin/terraform",
                                    "example.com/acme/terraform"], None),
    ("python-provider", ["-auto-approve", "hashicorp/random", "acme/random"], None),
    ("bare-type", ["-auto-approve", "random", "registry.terraform.io/acme/random"], None),
    ("prompt-yes", ["hashicorp/random", "acme/random"], "yes\n"),
    ("prompt-yes+color", ["hashicorp/random", "acme/random"], "yes\n"),
    ("prompt-no", ["hashicorp/random", "acme/random"], "no\n"),
    ("prompt-eof", ["terraform.io/builtin/terraform", "acme/terraform"], ""),
    ("no-match", ["-auto-approve", "hashicorp/aws", "hashicorp/foo"], None),
    ("invalid-both+color", ["-auto-approve", "a/b/c/d", "x y"], None),
    ("invalid-prefixes", ["-auto-approve", "acme/terraform-provider-x", "acme/terraform-x"],
     None),
    ("invalid-parts", ["-auto-approve", "a.b/c", "a--b/c"], None),
    ("one-argument", ["-auto-approve", "aws"], None),
    ("no-lock", ["-auto-approve", "-lock=false", "random", "acme/random"], None),
    ("backup-path", ["-auto-approve", "-backup=b", "random", "acme/random"], None),
    ("bad-flag", ["-bogus", "a", "b"], None),
]


@pytest.mark.parametrize(("args", "stdin"), [(c[1], c[2]) for c in RP_CASES],
                         ids=[c[0] for c in RP_CASES])
def test_state_replace_provider_matches_terraform(
    tmp_path: Path, base_state: str, args: list[str], stdin: str | None,
    request: pytest.FixtureRequest,
) -> None:
    color = request.node.callspec.id.endswith("+color")
    full = ["state", "replace-provider", *([] if color else ["-no-color"]), *args]
    tf, gp = side_by_side(tmp_path, base_state, full, stdin=stdin)
    assert_same(tf, gp, " ".join(full))


NO_STATE_CASES = [
    ["state", "mv", "a.b", "a.c"], ["state", "rm", "a.b"], ["state", "pull"],
    ["state", "replace-provider", "-auto-approve", "a", "b"], ["state", "list"],
    ["state", "list", "-no-color"], ["state", "mv", "-no-color", "-dry-run", "a.b", "a.c"],
    ["state", "show", "a.b"],
]


@pytest.mark.parametrize("args", NO_STATE_CASES, ids=[" ".join(a) for a in NO_STATE_CASES])
def test_without_state_matches_terraform(tmp_path: Path, args: list[str]) -> None:
    tf, gp = side_by_side(tmp_path, None, args, process=True)
    assert_same(tf, gp, " ".join(args))


HELP_CASES = [
    ["state"], ["state", "-help"], ["state", "bogus"], ["state", "mv", "-help"],
    ["state", "rm", "-h"], ["state", "pull", "-help"], ["state", "push", "-help"],
    ["state", "replace-provider", "-help"], ["state", "list", "-help"],
    ["state", "show", "-help"], ["state", "mv", "a", "-help"],
]


#: The one line groundplan's `state` usage has beyond terraform's: its own subcommand.
OWN_SUBCOMMAND_LINE = re.compile(r"^    re-encrypt +\S.*\n", re.M)


@pytest.mark.parametrize("args", HELP_CASES, ids=[" ".join(a) for a in HELP_CASES])
def test_help_matches_terraform(tmp_path: Path, args: list[str]) -> None:
    """terraform's texts, once groundplan's own `re-encrypt` line is taken out of the list of
    subcommands (it must be there exactly once where the list is shown)."""
    tf, gp = side_by_side(tmp_path, None, args, process=True)
    run = gp.run
    if "Subcommands:" in tf.run.stdout + tf.run.stderr:
        stdout, n_out = OWN_SUBCOMMAND_LINE.subn("", run.stdout)
        stderr, n_err = OWN_SUBCOMMAND_LINE.subn("", run.stderr)
        assert n_out + n_err == 1, run
        gp = dataclasses.replace(gp, run=dataclasses.replace(run, stdout=stdout, stderr=stderr))
    assert_same(tf, gp, " ".join(args))


LIST_CASES = [
    [], ["module.n"], ["module.m"], ["terraform_data.c"], ["terraform_data.nope", "module.zz"],
    ["-id=nope"], ["module.n[0].module.inner"], ["foo"], ["-bogus"],
]


@pytest.mark.parametrize("args", LIST_CASES, ids=[" ".join(a) or "all" for a in LIST_CASES])
def test_state_list_matches_terraform(tmp_path: Path, base_state: str, args: list[str]) -> None:
    full = ["state", "list", *args]
    tf, gp = side_by_side(tmp_path, base_state, full)
    assert_same(tf, gp, " ".join(full))


@pytest.mark.parametrize("command", [
    ["state", "mv", "-no-color", "terraform_data.a", "terraform_data.b"],
    ["state", "rm", "-no-color", "terraform_data.a"],
    ["state", "push", "-no-color", "-force", "other.json"],
    ["state", "replace-provider", "-no-color", "-auto-approve", "random", "acme/random"],
], ids=["mv", "rm", "push", "replace-provider"])
def test_locked_state_matches_terraform(tmp_path: Path, base_state: str,
                                        command: list[str]) -> None:
    """A lock held on the state (here by this process) makes every state-changing command
    fail with terraform's "Error acquiring the state lock" naming the holder; nothing is
    written."""
    from engine.states.lock import FilesystemLocker, new_lock_info, release

    sides = []
    for tool in ("tf", "gp"):
        d = tmp_path / tool
        d.mkdir()
        (d / "terraform.tfstate").write_text(base_state)
        (d / "other.json").write_text(_push_files(base_state)["other.json"])
        locker = FilesystemLocker(str(d / "terraform.tfstate"))
        lock_id, err = locker.lock(new_lock_info("OperationTypeApply"))
        assert err is None
        try:
            side = _one(tool, d, command, None, process=True)
        finally:
            release(locker, lock_id)
        text = re.sub(r"(ID|Created|Path):\s+.*", r"\1: <x>", side.run.stderr)
        files = {n: b for n, b in side.files.items() if n != ".terraform.tfstate.lock.info"}
        sides.append(Side(Run(side.run.code, side.run.stdout, text), files,
                          side.started, side.finished))
    tf, gp = sides
    assert "Error acquiring the state lock" in gp.run.stderr
    assert_same(tf, gp, " ".join(command))
    assert gp.files["terraform.tfstate"] == base_state.encode()


CORRUPT = '{"version": 4, "serial": 1, "lineage": "x", "resources": [\n'
CORRUPT_CASES = [
    ["state", "rm", "-no-color", "a.b"], ["state", "rm", "a.b"],
    ["state", "rm", "-no-color", "-lock=false", "a.b"],
    ["state", "mv", "-no-color", "a.b", "a.c"],
    ["state", "push", "-no-color", "newer.json"],
    ["state", "replace-provider", "-no-color", "-auto-approve", "a", "b"],
    ["state", "pull", "-no-color"], ["state", "list", "-no-color"],
]


@pytest.mark.parametrize("args", CORRUPT_CASES, ids=[" ".join(a) for a in CORRUPT_CASES])
def test_unreadable_state_matches_terraform(tmp_path: Path, base_state: str,
                                            args: list[str]) -> None:
    """A state file that is not JSON: the local lock fails with the read errors (or, without
    locking, the read does); the file is left as it is."""
    tf, gp = side_by_side(tmp_path, CORRUPT, args, extra=_push_files(base_state))
    assert_same(tf, gp, " ".join(args))
    assert gp.files["terraform.tfstate"] == CORRUPT.encode()
