"""Bad files on disk, through both CLIs: terraform 1.11.4 is the oracle.

Every file groundplan reads besides the .tf sources — the state, a saved plan, the dependency
lock file, the module manifest, variable files and -var options — is damaged in the ways
people damage them; each case runs in two copies of one directory, one per tool. The exit
codes and the diagnostics (every "Error: ..."/"Warning: ..." summary, and the whole output
where groundplan matches it word for word) must agree. Terraform must be on PATH: without it
these tests FAIL loudly.
"""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path

import pytest

from tests.conformance.harness import Run, run_groundplan, run_terraform

pytestmark = [pytest.mark.conformance, pytest.mark.usefixtures("terraform_required")]

MAIN = 'output "o" {\n  value = "x"\n}\n'
VAR_MAIN = 'variable "a" {\n  type    = string\n  default = "d"\n}\n\noutput "o" {\n  value = var.a\n}\n'
NULL = 'provider[\\"registry.terraform.io/hashicorp/null\\"]'


def pair(tmp_path: Path, files: dict[str, str | bytes]) -> tuple[Path, Path]:
    dirs = []
    for name in ("tf", "gp"):
        d = tmp_path / name
        d.mkdir()
        for rel, content in files.items():
            target = d / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            if isinstance(content, bytes):
                target.write_bytes(content)
            else:
                target.write_text(content, encoding="utf-8")
        dirs.append(d)
    return dirs[0], dirs[1]


def both(tmp_path: Path, files: dict[str, str | bytes], *args: str) -> tuple[Run, Run]:
    tf, gp = pair(tmp_path, files)
    return run_terraform(tf, *args, "-no-color"), run_groundplan(gp, *args, "-no-color")


def lines(run: Run) -> list[str]:
    """The output as terraform's diagnostics read: blank lines and box edges dropped."""
    out = []
    for line in (run.stdout + run.stderr).splitlines():
        line = line.strip().lstrip("│╷╵").strip()
        if line:
            out.append(line)
    return out


def summaries(run: Run) -> list[str]:
    return [line for line in lines(run) if line.startswith(("Error: ", "Warning: "))]


def assert_same(tf: Run, gp: Run, whole: bool = True) -> None:
    assert gp.code == tf.code, (tf.stdout + tf.stderr, gp.stdout + gp.stderr)
    assert summaries(gp) == summaries(tf)
    if whole:
        assert lines(gp) == lines(tf)
    assert "Traceback" not in gp.stderr and "crashed" not in gp.stderr


# ------------------------------------------------------------------------------ state
def v4(**top: object) -> str:
    doc: dict[str, object] = {"version": 4, "terraform_version": "1.11.4", "serial": 1,
                              "lineage": "l", "outputs": {}, "resources": []}
    doc.update(top)
    return json.dumps(doc)


def with_resource(**fields: object) -> str:
    rs = ('{"mode": "managed", "type": "null_resource", "name": "a", "provider": "' + NULL
          + '", "instances": [{"schema_version": 0, "attributes": {"id": "1"}}]}')
    doc = json.loads(v4())
    resource = json.loads(rs)
    instance_fields = {k: v for k, v in fields.items() if k in ("index_key", "status", "deposed")}
    resource.update({k: v for k, v in fields.items() if k not in instance_fields})
    resource["instances"][0].update(instance_fields)
    doc["resources"] = [resource]
    return json.dumps(doc)


STATES: dict[str, str | bytes] = {
    "empty": "",
    "whitespace": "\n  \n",
    "truncated": '{"version": 4, "terraform_version": "1.11.4", "ser',
    "syntax-error": '{"version": 4,, }',
    "array": "[1, 2]",
    "null": "null",
    "not-utf8": b"\xff\xfe\x00garbage",
    "version-string": '{"version": "4"}',
    "version-negative": '{"version": -1}',
    "version-0": '{"version": 0}',
    "version-5": '{"version": 5, "terraform_version": "2.0.0", "serial": 1, "lineage": "x"}',
    "version-5-no-creator": '{"version": 5, "serial": 1, "lineage": "x"}',
    "missing-lineage": '{"version": 4, "terraform_version": "1.11.4", "serial": 1}',
    "newer-terraform": v4(terraform_version="9.9.9"),
    "bad-terraform-version": v4(terraform_version="banana"),
    "lineage-number": '{"version": 4, "lineage": 5, "serial": 1}',
    "serial-string": '{"version": 4, "lineage": "x", "serial": "1"}',
    "instance-field-type": ('{"version": 4, "lineage": "x", "serial": 1, "resources": [{"mode": '
                            '"managed", "type": "a", "name": "b", "provider": "p", "instances": '
                            '[{"schema_version": "x"}]}]}'),
    "unknown-mode": with_resource(mode="weird"),
    "bad-index-key": with_resource(index_key=True),
    "bad-status": with_resource(status="zzz"),
    "bad-deposed-key": with_resource(index_key=0, deposed="abc"),
    "bad-output-type": v4(outputs={"o": {"value": 1, "type": "banana"}}),
    "legacy-binary": b"tfstate\x00\x01\x02",
}


@pytest.mark.parametrize("case", sorted(STATES))
@pytest.mark.parametrize("command", [("plan",), ("plan", "-lock=false"), ("show",)], ids=" ".join)
def test_bad_state_file(tmp_path: Path, case: str, command: tuple[str, ...]) -> None:
    tf, gp = both(tmp_path, {"main.tf": MAIN, "terraform.tfstate": STATES[case]}, *command)
    assert_same(tf, gp)


@pytest.mark.parametrize("case", ["empty", "truncated", "version-5", "unknown-mode", "lineage-number"])
@pytest.mark.parametrize("command", [("apply", "-auto-approve"), ("output",)], ids=" ".join)
def test_bad_state_file_other_commands(tmp_path: Path, case: str, command: tuple[str, ...]) -> None:
    tf, gp = both(tmp_path, {"main.tf": MAIN, "terraform.tfstate": STATES[case]}, *command)
    assert_same(tf, gp)


@pytest.mark.parametrize(
    "command", [("plan",), ("plan", "-lock=false"), ("show",), ("output",)], ids=" ".join)
def test_state_file_is_a_directory(tmp_path: Path, command: tuple[str, ...]) -> None:
    tf_dir, gp_dir = pair(tmp_path, {"main.tf": MAIN})
    for d in (tf_dir, gp_dir):
        (d / "terraform.tfstate").mkdir()
    tf = run_terraform(tf_dir, *command, "-no-color")
    gp = run_groundplan(gp_dir, *command, "-no-color")
    # With the lock, groundplan's locker words the I/O error its own way (the absolute path).
    assert_same(tf, gp, whole=command[-1] != "plan")


def test_failed_plan_leaves_the_state_alone(tmp_path: Path) -> None:
    text = STATES["truncated"]
    tf, gp = both(tmp_path, {"main.tf": MAIN, "terraform.tfstate": text}, "apply", "-auto-approve")
    assert_same(tf, gp)
    for d in (tmp_path / "tf", tmp_path / "gp"):
        assert (d / "terraform.tfstate").read_text() == text
        assert sorted(p.name for p in d.iterdir()) == ["main.tf", "terraform.tfstate"]


# ------------------------------------------------------------------------------ saved plans
def _zip(members: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for name, data in members.items():
            zf.writestr(name, data)
    return buf.getvalue()


PLANS: dict[str, bytes] = {
    "not-a-zip": b"not a zip\n",
    "empty": b"",
    "json-object": b'{"a": 1}',
    "json-array": b"[1]",
    "bookmark-without-host": b'{"remote_plan_format": 1}',
    "zip-without-plan": _zip({"other": b"x"}),
    "truncated-zip": _zip({"tfplan": b"x" * 400, "tfstate": b"{}"})[:200],
}


@pytest.mark.parametrize("case", sorted(PLANS))
def test_bad_plan_file_apply(tmp_path: Path, case: str) -> None:
    tf, gp = both(tmp_path, {"main.tf": MAIN, "p.plan": PLANS[case]}, "apply", "p.plan")
    assert_same(tf, gp)


# An empty file: terraform's `show` reads it as a state with a problem, cmd_show as no state.
@pytest.mark.parametrize("case", sorted(set(PLANS) - {"empty"}))
def test_bad_plan_file_show(tmp_path: Path, case: str) -> None:
    tf, gp = both(tmp_path, {"main.tf": MAIN, "p.plan": PLANS[case]}, "show", "p.plan")
    # The plan half of `show`'s message matches; its state half is worded by cmd_show.
    assert gp.code == tf.code == 1
    assert summaries(gp) == summaries(tf)
    tf_plan = [line for line in lines(tf) if line.startswith("Plan read error")]
    gp_plan = [line for line in lines(gp) if line.startswith("Plan read error")]
    assert gp_plan == tf_plan


def test_plan_written_by_terraform_is_refused_clearly(tmp_path: Path) -> None:
    tf_dir, gp_dir = pair(tmp_path, {"main.tf": MAIN})
    made = run_terraform(tf_dir, "plan", "-out=p.plan", "-no-color")
    assert made.code == 0, made.stdout + made.stderr
    (gp_dir / "p.plan").write_bytes((tf_dir / "p.plan").read_bytes())
    gp = run_groundplan(gp_dir, "apply", "p.plan", "-no-color")
    assert gp.code == 1
    assert lines(gp)[0] == 'Error: Failed to load "p.plan" as a plan file'
    assert "created by Terraform, not by groundplan" in " ".join(lines(gp))
    assert not (gp_dir / "terraform.tfstate").exists()


def test_stale_plan(tmp_path: Path) -> None:
    results = []
    for tool, run in (("tf", run_terraform), ("gp", run_groundplan)):
        d = tmp_path / tool
        d.mkdir()
        (d / "main.tf").write_text(MAIN)
        assert run(d, "plan", "-out=p.plan", "-no-color").code == 0
        assert run(d, "apply", "-auto-approve", "-no-color").code == 0
        results.append(run(d, "apply", "p.plan", "-no-color"))
    tf, gp = results
    assert_same(tf, gp)


# ------------------------------------------------------------------------------ lock file
PROVIDER = "registry.terraform.io/hashicorp/null"
LOCKS = {
    "bad-address": 'provider "not a/valid/addr/x" {\n  version = "3.2.1"\n}\n',
    "bad-hash": f'provider "{PROVIDER}" {{\n  version = "3.2.1"\n  hashes = ["nope", "h1:abc"]\n}}\n',
    "short-address": 'provider "null" {\n  version = "3.2.1"\n}\n',
    "short-version": f'provider "{PROVIDER}" {{\n  version = "3.2"\n}}\n',
    "v-version": f'provider "{PROVIDER}" {{\n  version = "v3.2.1"\n}}\n',
    "unknown-argument-and-module": f'provider "{PROVIDER}" {{\n  version = "3.2.1"\n  foo = 1\n}}\nmodule "x" {{}}\n',
    "duplicate": (f'provider "{PROVIDER}" {{\n  hashes = ["h1:abc"]\n}}\n'
                  f'provider "{PROVIDER}" {{\n  version = "3.2.1"\n}}\n'),
}


@pytest.mark.parametrize("case", sorted(LOCKS))
@pytest.mark.parametrize("command", [("plan",), ("validate",), ("apply", "-auto-approve")],
                         ids=" ".join)
def test_bad_lock_file(tmp_path: Path, case: str, command: tuple[str, ...]) -> None:
    tf, gp = both(tmp_path, {"main.tf": MAIN, ".terraform.lock.hcl": LOCKS[case]}, *command)
    assert_same(tf, gp)


def test_lock_file_syntax_error(tmp_path: Path) -> None:
    text = f'provider "{PROVIDER}" {{\n  version = "3.2.1"\n  hashes = [\n'
    tf, gp = both(tmp_path, {"main.tf": MAIN, ".terraform.lock.hcl": text}, "plan")
    # terraform's HCL adds a second, derived problem ("Unsuitable value type") to the first.
    assert gp.code == tf.code == 1
    [tf_summary], [gp_summary] = summaries(tf), summaries(gp)
    assert gp_summary == ("Error: failed to read dependency lock file: Missing expression: "
                          "Expected the start of an expression, but found the end of the file.")
    assert tf_summary.startswith("Error: failed to read dependency lock file: 2 problems:")


# ------------------------------------------------------------------------------ module manifest
MODULE_FILES = {
    "main.tf": 'module "m" {\n  source = "./mod"\n}\n\noutput "o" {\n  value = module.m.v\n}\n',
    "mod/main.tf": 'output "v" {\n  value = "x"\n}\n',
}
MANIFESTS = {
    "garbage": "garbage{",
    "array": "[1]",
    "modules-number": '{"Modules": 5}',
    "record-number": '{"Modules": [1]}',
    "key-number": '{"Modules": [{"Key": 1}]}',
    "empty": "",
    "stale-source": '{"Modules":[{"Key":"","Source":"","Dir":"."},{"Key":"m","Source":"./old","Dir":"mod"}]}',
    "stale-source-and-dir": '{"Modules":[{"Key":"","Source":"","Dir":"."},{"Key":"m","Source":"./old","Dir":"old"}]}',
    "missing-module": '{"Modules":[{"Key":"","Source":"","Dir":"."}]}',
}


@pytest.mark.parametrize("case", sorted(MANIFESTS))
@pytest.mark.parametrize("command", [("plan",), ("validate",)], ids=" ".join)
def test_bad_module_manifest(tmp_path: Path, case: str, command: tuple[str, ...]) -> None:
    files: dict[str, str | bytes] = {**MODULE_FILES, ".terraform/modules/modules.json": MANIFESTS[case]}
    tf, gp = both(tmp_path, files, *command)
    assert_same(tf, gp)


# ------------------------------------------------------------------------------ variables
VARFILES: dict[str, dict[str, str | bytes]] = {
    "tfvars-syntax": {"terraform.tfvars": 'a = "x"\nb = \n'},
    "tfvars-undeclared": {"terraform.tfvars": 'a = "x"\nzz = 1\n'},
    "auto-tfvars-undeclared": {"x.auto.tfvars": "zz = 1\n"},
    "tfvars-wrong-type": {"terraform.tfvars": "a = [1]\n"},
    "tfvars-reference": {"terraform.tfvars": "a = var.x\n"},
}


@pytest.mark.parametrize("case", sorted(VARFILES))
def test_bad_variable_files(tmp_path: Path, case: str) -> None:
    tf, gp = both(tmp_path, {"main.tf": VAR_MAIN, **VARFILES[case]}, "plan")
    # A value of the wrong type: terraform also prints "Planning failed. ..." first.
    assert_same(tf, gp, whole=case != "tfvars-wrong-type")


@pytest.mark.parametrize(
    "args",
    [
        ("-var-file=nope.tfvars",),
        ("-var-file=somedir",),
        ("-var-file=u.tfvars",),
        ("-var=foo",),
        ("-var=zz=1",),
        ("-var=a",),
    ],
    ids=" ".join,
)
def test_bad_variable_options(tmp_path: Path, args: tuple[str, ...]) -> None:
    files: dict[str, str | bytes] = {"main.tf": VAR_MAIN, "u.tfvars": 'a = "x"\nzz = 1\n',
                                     "somedir/keep": ""}
    tf, gp = both(tmp_path, files, "plan", *args)
    assert_same(tf, gp)


# ------------------------------------------------------------------------------ lock info
def test_garbage_lock_info_file(tmp_path: Path) -> None:
    files: dict[str, str | bytes] = {"main.tf": MAIN, ".terraform.tfstate.lock.info": "garbage{{"}
    tf, gp = both(tmp_path, files, "apply", "-auto-approve")
    assert_same(tf, gp)
    tf_dir, gp_dir = tmp_path / "tf", tmp_path / "gp"
    tf = run_terraform(tf_dir, "force-unlock", "-force", "abc", "-no-color")
    gp = run_groundplan(gp_dir, "force-unlock", "-force", "abc", "-no-color")
    assert_same(tf, gp)
