"""The groundplan CLI on the S3 backend, against a moto server started by the tests:
init (errors with file and line, the record, -backend-config), apply and the state commands
on S3, "Backend initialization required", migration local <-> S3 in both directions,
workspaces, lock errors naming the holder, force-unlock."""

from __future__ import annotations

import json
from pathlib import Path

from engine.backend.config import from_record
from engine.backend.s3 import S3Backend
from engine.states.lock import new_lock_info
from tests.functional.s3_support import BUCKET, S3Env, backend_block, gp, ok
from tests.functional.s3_support import moto_s3 as moto_s3
from tests.functional.s3_support import s3env as s3env

KEY = "app/terraform.tfstate"
RESOURCES = """
variable "n" {
  default = "1"
}
resource "terraform_data" "a" {
  input = var.n
}
output "n" {
  value = terraform_data.a.output
}
"""


def workdir(tmp_path: Path, env: S3Env, **kw: object) -> Path:
    d = tmp_path / "w"
    d.mkdir(exist_ok=True)
    (d / "backend.tf").write_text(backend_block(env.url, **kw))  # type: ignore[arg-type]
    (d / "main.tf").write_text(RESOURCES)
    return d


def state_doc(env: S3Env, key: str = KEY) -> dict[str, object]:
    doc: dict[str, object] = json.loads(env.body(key))
    return doc


def test_init_errors_point_at_file_and_line(tmp_path: Path, s3env: S3Env) -> None:
    d = tmp_path / "bad"
    d.mkdir()
    (d / "main.tf").write_text('terraform {\n  backend "s3" {\n    bucket = "b"\n'
                               '    key    = "k"\n    regin  = "us-east-1"\n  }\n}\n')
    r = gp(d, "init", "-no-color")
    assert r.returncode == 1
    assert "Error: Unsupported argument" in r.stderr and "on main.tf line 5" in r.stderr
    assert 'Did you mean "region"?' in r.stderr
    (d / "main.tf").write_text('terraform {\n  backend "s3" {\n    key = "/k"\n'
                               '    region = "us-east-1"\n    use_lockfile = "maybe"\n  }\n}\n')
    r = gp(d, "init", "-no-color")
    assert r.returncode == 1 and "Incorrect attribute value type" in r.stderr
    assert 'Inappropriate value for attribute "use_lockfile": a bool is required.' in r.stderr
    (d / "main.tf").write_text('terraform {\n  backend "s3" {\n    key = "/k"\n'
                               '    region = "us-east-1"\n  }\n}\n')
    r = gp(d, "init", "-no-color")
    assert 'The attribute "bucket" is required by the backend.' in r.stderr
    assert "on main.tf line 2" in r.stderr
    assert 'The value must not start or end with "/"' in r.stderr and "line 3" in r.stderr
    assert not (d / ".terraform" / "terraform.tfstate").exists()
    r = gp(d, "init", "-no-color", "-backend-config=bucket=x", "-backend-config=nope=1")
    assert 'The backend configuration argument "nope" given on the command line' in r.stderr


def test_other_backend_types_are_errors_at_init_and_plan(tmp_path: Path, s3env: S3Env) -> None:
    d = tmp_path / "gcs"
    d.mkdir()
    (d / "main.tf").write_text('terraform {\n  backend "gcs" {\n    bucket = "x"\n  }\n}\n')
    for args in (["init"], ["plan"], ["apply", "-auto-approve"]):
        r = gp(d, *args, "-no-color")
        assert r.returncode == 1, args
        assert "Unsupported backend type" in r.stderr and "on main.tf line 2" in r.stderr
    assert not (d / "terraform.tfstate").exists()


def test_apply_on_s3_and_the_record(tmp_path: Path, s3env: S3Env) -> None:
    d = workdir(tmp_path, s3env)
    r = ok(gp(d, "init", "-no-color"))
    assert 'Successfully configured the backend "s3"!' in r.stdout
    record = json.loads((d / ".terraform" / "terraform.tfstate").read_text())
    assert record["backend"]["type"] == "s3" and record["version"] == 3
    assert record["backend"]["config"]["bucket"] == BUCKET
    assert record["backend"]["config"]["encrypt"] is None
    ok(gp(d, "apply", "-auto-approve", "-no-color"))
    assert not (d / "terraform.tfstate").exists()
    doc = state_doc(s3env)
    assert doc["serial"] == 1 and doc["outputs"] == {"n": {"value": "1", "type": "string"}}
    assert KEY + ".tflock" not in s3env.object_keys()
    ok(gp(d, "apply", "-auto-approve", "-no-color", "-var", "n=2"))
    assert state_doc(s3env)["serial"] == 2
    assert ok(gp(d, "state", "list")).stdout.split() == ["terraform_data.a"]
    assert '"2"' in ok(gp(d, "output", "n")).stdout
    assert ok(gp(d, "plan", "-detailed-exitcode", "-var", "n=2", "-no-color")).returncode == 0
    # the block changes: every command but init refuses until init runs again
    (d / "backend.tf").write_text(backend_block(s3env.url, key="other/terraform.tfstate"))
    r = gp(d, "plan", "-no-color")
    assert r.returncode == 1
    assert 'Backend initialization required: please run "groundplan init"' in r.stderr
    assert "Reason: Backend configuration block has changed" in r.stderr
    r = gp(d, "init", "-no-color")
    assert r.returncode == 1 and "Error: Backend configuration changed" in r.stderr
    r = ok(gp(d, "init", "-reconfigure", "-no-color"))
    r = gp(d, "state", "list")  # the new key holds no state yet
    assert r.returncode == 1 and "No state file was found!" in r.stderr


def test_backend_config_file_and_values(tmp_path: Path, s3env: S3Env) -> None:
    d = tmp_path / "partial"
    d.mkdir()
    (d / "main.tf").write_text('terraform {\n  backend "s3" {}\n}\n' + RESOURCES)
    block = backend_block(s3env.url).splitlines()[2:-2]
    (d / "be.hcl").write_text("\n".join(line for line in block if "key" not in line) + "\n")
    ok(gp(d, "init", "-no-color", "-backend-config=be.hcl", f"-backend-config=key={KEY}"))
    record = json.loads((d / ".terraform" / "terraform.tfstate").read_text())
    assert record["backend"]["config"]["key"] == KEY
    assert record["backend"]["config"]["use_path_style"] is True
    ok(gp(d, "apply", "-auto-approve", "-no-color"))
    assert state_doc(s3env)["serial"] == 1
    (d / "bad.hcl").write_text("bucket = 1\nbogus = 2\n")
    r = gp(d, "init", "-no-color", "-backend-config=bad.hcl")
    assert 'An argument named "bogus" is not expected here.' in r.stderr
    assert "on bad.hcl line 2" in r.stderr


def test_migrate_local_to_s3_and_back(tmp_path: Path, s3env: S3Env) -> None:
    d = tmp_path / "m"
    d.mkdir()
    (d / "main.tf").write_text(RESOURCES)
    ok(gp(d, "init", "-no-color"))
    ok(gp(d, "apply", "-auto-approve", "-no-color"))
    ok(gp(d, "workspace", "new", "dev", "-no-color"))
    ok(gp(d, "apply", "-auto-approve", "-no-color", "-var", "n=dev"))
    ok(gp(d, "workspace", "select", "default", "-no-color"))
    local = json.loads((d / "terraform.tfstate").read_text())
    (d / "backend.tf").write_text(backend_block(s3env.url))
    r = gp(d, "init", "-no-color", "-input=false")
    assert r.returncode == 1 and "Can't ask approval for state migration" in r.stderr
    r = gp(d, "init", "-no-color", stdin="no\n")
    assert r.returncode == 1 and "Migration aborted by user." in r.stderr
    assert 'Do you want to migrate all workspaces to "s3"?' in r.stdout
    r = ok(gp(d, "init", "-no-color", stdin="yes\n"))
    assert 'Successfully configured the backend "s3"!' in r.stdout
    assert s3env.object_keys() == [KEY, "env:/dev/" + KEY]
    doc = state_doc(s3env)
    assert (doc["lineage"], doc["serial"]) == (local["lineage"], local["serial"])
    assert (d / "terraform.tfstate").read_text() == ""  # emptied, as terraform leaves it
    assert ok(gp(d, "workspace", "list")).stdout == "* default\n  dev\n\n"
    assert "dev" in state_doc(s3env, "env:/dev/" + KEY)["outputs"]["n"]["value"]  # type: ignore[index]
    # and back: unsetting the backend needs -migrate-state (or -reconfigure)
    (d / "backend.tf").unlink()
    r = gp(d, "init", "-no-color")
    assert r.returncode == 1 and "Backend configuration changed" in r.stderr
    r = ok(gp(d, "init", "-migrate-state", "-force-copy", "-no-color"))
    assert 'groundplan has detected you\'re unconfiguring your previously set "s3" backend.' in r.stdout
    assert 'Successfully unset the backend "s3". groundplan will now operate locally.' in r.stdout
    back = json.loads((d / "terraform.tfstate").read_text())
    assert (back["lineage"], back["serial"]) == (local["lineage"], local["serial"])
    dev = json.loads((d / "terraform.tfstate.d" / "dev" / "terraform.tfstate").read_text())
    assert dev["outputs"]["n"]["value"] == "dev"
    assert ok(gp(d, "plan", "-detailed-exitcode", "-no-color")).returncode == 0


def test_single_state_migration_prompt(tmp_path: Path, s3env: S3Env) -> None:
    d = tmp_path / "one"
    d.mkdir()
    (d / "main.tf").write_text(RESOURCES)
    ok(gp(d, "init", "-no-color"))
    ok(gp(d, "apply", "-auto-approve", "-no-color"))
    (d / "backend.tf").write_text(backend_block(s3env.url))
    r = ok(gp(d, "init", "-no-color", stdin="yes\n"))
    assert "Do you want to copy existing state to the new backend?" in r.stdout
    assert "No existing state was found in the newly" in r.stdout
    assert state_doc(s3env)["serial"] == 1


def test_workspaces_on_s3(tmp_path: Path, s3env: S3Env) -> None:
    d = workdir(tmp_path, s3env)
    ok(gp(d, "init", "-no-color"))
    r = ok(gp(d, "workspace", "new", "staging", "-no-color"))
    assert 'Created and switched to workspace "staging"!' in r.stdout
    assert "env:/staging/" + KEY in s3env.object_keys()
    ok(gp(d, "apply", "-auto-approve", "-no-color"))
    assert state_doc(s3env, "env:/staging/" + KEY)["serial"] == 2
    ok(gp(d, "workspace", "select", "-or-create", "qa", "-no-color"))
    assert ok(gp(d, "workspace", "list")).stdout == "  default\n* qa\n  staging\n\n"
    assert ok(gp(d, "workspace", "show")).stdout == "qa\n"
    ok(gp(d, "workspace", "select", "default", "-no-color"))
    r = gp(d, "workspace", "delete", "staging", "-no-color")
    assert r.returncode == 1 and "Workspace is not empty" in r.stderr
    ok(gp(d, "workspace", "delete", "-force", "staging", "-no-color"))
    assert "env:/staging/" + KEY not in s3env.object_keys()
    assert ok(gp(d, "workspace", "list")).stdout == "* default\n  qa\n\n"


def _backend(env: S3Env, tmp_path: Path, table: bool = False) -> S3Backend:
    cfg, _ = from_record("s3", {"bucket": BUCKET, "key": KEY, "region": "us-east-1",
                                "use_lockfile": True, "use_path_style": True,
                                "skip_credentials_validation": True,
                                **({"dynamodb_table": "tf-locks"} if table else {}),
                                "endpoints": {"s3": env.url, "dynamodb": env.url}})
    assert cfg is not None
    be, diags = S3Backend.configure(cfg, {"AWS_ACCESS_KEY_ID": "testing",
                                          "AWS_SECRET_ACCESS_KEY": "testing"},
                                    str(tmp_path / "x"))
    assert be is not None, list(diags)
    be.lock_options = {"heartbeat": 0}
    return be


def test_lock_held_fails_naming_holder_then_force_unlock(tmp_path: Path, s3env: S3Env) -> None:
    d = workdir(tmp_path, s3env, table=True)
    ok(gp(d, "init", "-no-color"))
    holder = _backend(s3env, tmp_path, table=True).locker("default")
    assert holder is not None
    info = new_lock_info("OperationTypeApply")
    lock_id, err = holder.lock(info)
    assert err is None
    r = gp(d, "apply", "-auto-approve", "-no-color", "-lock-timeout=1s")
    assert r.returncode == 1 and "Error acquiring the state lock" in r.stderr
    assert f"ID:        {lock_id}" in r.stderr and "OperationTypeApply" in r.stderr
    assert f"Path:      {BUCKET}/{KEY}" in r.stderr and info.who in r.stderr
    assert KEY not in s3env.object_keys()  # nothing written
    r = gp(d, "force-unlock", "-force", "-no-color", "wrong")
    assert r.returncode == 1 and "Failed to unlock state" in r.stderr
    r = ok(gp(d, "force-unlock", "-force", "-no-color", lock_id))
    assert "groundplan state has been successfully unlocked!" in r.stdout
    assert KEY + ".tflock" not in s3env.object_keys() and f"{BUCKET}/{KEY}" not in s3env.lock_items()
    ok(gp(d, "apply", "-auto-approve", "-no-color"))
    items = s3env.lock_items()
    assert items[f"{BUCKET}/{KEY}-md5"]["Digest"] == __import__("hashlib").md5(
        s3env.body(KEY)).hexdigest()



def test_terraform_remote_state_reads_s3(tmp_path: Path, s3env: S3Env) -> None:
    d = workdir(tmp_path, s3env, table=True)
    ok(gp(d, "init", "-no-color"))
    ok(gp(d, "apply", "-auto-approve", "-no-color", "-var", "n=shared"))
    reader = tmp_path / "reader"
    reader.mkdir()
    (reader / "main.tf").write_text(f"""
data "terraform_remote_state" "app" {{
  backend = "s3"
  config = {{
    bucket = "{BUCKET}"
    key = "{KEY}"
    region = "us-east-1"
    dynamodb_table = "tf-locks"
    use_path_style = true
    skip_credentials_validation = true
    endpoints = {{ s3 = "{s3env.url}", dynamodb = "{s3env.url}" }}
  }}
}}
output "from_s3" {{
  value = data.terraform_remote_state.app.outputs.n
}}
""")
    ok(gp(reader, "init", "-no-color"))
    r = ok(gp(reader, "plan", "-no-color"))
    assert "data.terraform_remote_state.app: Read complete" in r.stdout
    assert '+ from_s3 = "shared"' in r.stdout
    (reader / "main.tf").write_text((reader / "main.tf").read_text().replace(
        f'bucket = "{BUCKET}"', 'bucket = "missing-bucket"'))
    r = gp(reader, "plan", "-no-color")
    assert r.returncode == 1 and 'S3 bucket "missing-bucket" does not exist.' in r.stderr
