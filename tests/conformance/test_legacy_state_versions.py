"""State files of format versions 1 to 3 (Terraform before v0.12), read side by side with
terraform, which upgrades them to version 4 as it reads them.

Each case puts the same legacy state file in two directories and runs the same commands
through terraform and groundplan: `state pull` (the upgraded document, equal but for the
writer's version), `state list`, `output -json`; malformed ones must fail with the same
message. Then the path a user takes with a real provider: `init` refuses the legacy
(unqualified) provider address, `plan` asks for the provider, `state replace-provider`
qualifies it, and `plan` reads the flat attributes through the provider.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from engine.plugin.sdk.package import package
from tests.conformance.harness import Run, require_terraform, run_groundplan, run_terraform
from tests.product_name import as_groundplan

V3: dict[str, Any] = {
    "version": 3,
    "terraform_version": "0.11.14",
    "serial": 9,
    "lineage": "3f6b4b1a-1111-2222-3333-444455556666",
    "modules": [
        {
            "path": ["root"],
            "outputs": {
                "s": {"sensitive": False, "type": "string", "value": "hello"},
                "l": {"sensitive": True, "type": "list", "value": ["a", "b"]},
                "m": {"sensitive": False, "type": "map", "value": {"k": "v", "n": "w"}},
                "mixed": {"sensitive": False, "type": "list", "value": ["a", 1, True]},
                "nested": {"sensitive": False, "type": "map",
                           "value": {"a": ["x"], "b": ["y", "z"]}},
                "empty": {"sensitive": False, "type": "list", "value": []},
            },
            "resources": {
                "null_resource.a": {
                    "type": "null_resource", "depends_on": [],
                    "primary": {"id": "123",
                                "attributes": {"id": "123", "triggers.%": "1",
                                               "triggers.k": "v"},
                                "meta": {}, "tainted": False},
                    "deposed": [], "provider": "provider.null",
                },
                "null_resource.c.1": {
                    "type": "null_resource", "depends_on": ["null_resource.a"],
                    "primary": {"id": "456", "attributes": {},
                                "meta": {"schema_version": "1", "e2bfb730-ecaa": {"x": 1}},
                                "tainted": True},
                    "deposed": [{"id": "old", "attributes": {"id": "old"}, "meta": {},
                                 "tainted": False}],
                    "provider": "provider.null.foo",
                },
                "null_resource.c.0": {
                    "type": "null_resource", "depends_on": [],
                    "primary": {"id": "455", "attributes": {"id": "455"}, "meta": {},
                                "tainted": False},
                    "deposed": [], "provider": "provider.null.foo",
                },
                "data.null_data_source.d": {
                    "type": "null_data_source", "depends_on": [],
                    "primary": {"id": "static", "attributes": {"id": "static"}, "meta": {},
                                "tainted": False},
                    "deposed": [], "provider": "",
                },
                "aws_instance.old_style": {
                    "type": "aws_instance", "depends_on": [],
                    "primary": {"id": "i-1", "attributes": {"id": "i-1"}, "meta": {},
                                "tainted": False},
                    "deposed": [], "provider": "aws.west",
                },
            },
            "depends_on": [],
        },
        {
            "path": ["root", "child"],
            "outputs": {"x": {"sensitive": False, "type": "string", "value": "dropped"}},
            "resources": {
                "null_resource.m": {
                    "type": "null_resource", "depends_on": [],
                    "primary": {"id": "789", "attributes": {"id": "789"}, "meta": {},
                                "tainted": False},
                    "deposed": [], "provider": "module.child.provider.null",
                },
            },
            "depends_on": [],
        },
    ],
}

V2: dict[str, Any] = {
    "version": 2,
    "serial": 3,
    "lineage": "l2",
    "modules": [{
        "path": ["root"],
        "outputs": {"o": {"sensitive": False, "type": "string", "value": "v2"}},
        "resources": {
            "null_resource.a": {
                "type": "null_resource",
                "primary": {"id": "1", "attributes": {
                    "id": "1", "triggers.#": "2", "triggers.k": "v", "triggers.j": "w",
                    "list.#": "1", "list.0": "x", "empty.#": "0"}},
            },
        },
    }],
}

V1: dict[str, Any] = {
    "version": 1,
    "serial": 7,
    "modules": [{
        "outputs": {"o": "hello"},
        "resources": {
            "null_resource.a": {
                "type": "null_resource",
                "primary": {"id": "123", "attributes": {"triggers.#": "1", "triggers.k": "v"},
                            "meta": {"schema_version": "2"}},
            },
        },
    }],
}


def _with(doc: dict[str, Any], *path: Any, value: Any) -> dict[str, Any]:
    """A copy of `doc` with the item at `path` replaced by `value`."""
    out = json.loads(json.dumps(doc))
    node = out
    for step in path[:-1]:
        node = node[step]
    node[path[-1]] = value
    return out


CASES: dict[str, dict[str, Any]] = {
    "v3": V3,
    "v2": V2,
    "v1": V1,
    "v3-no-version": _with(V3, "terraform_version", value=""),
    "v3-path-type": _with(V3, "modules", 0, "path", value="root"),
    "v3-attribute-type": _with(V3, "modules", 1, "resources", "null_resource.m", "primary",
                               "attributes", value={"id": 7}),
    "v3-not-root": _with(V3, "modules", 1, "path", value=["child"]),
    "v3-bad-module-name": _with(V3, "modules", 1, "path", value=["root", "a b"]),
    "v3-bad-address": _with(V3, "modules", 1, "resources", value={"a.b.c.d.e": {}}),
    "v3-bad-index": _with(V3, "modules", 1, "resources", value={"null_resource.m.x": {}}),
    "v3-negative-serial": _with(V3, "serial", value=-1),
    "v1-outputs-objects": _with(V1, "modules", 0, "outputs", value={"o": {"value": 1}}),
}


def _pulled(run: Run) -> Any:
    if run.code != 0:
        return None
    doc = json.loads(run.stdout)
    doc.pop("terraform_version", None)
    return doc


@pytest.mark.parametrize("case", sorted(CASES))
def test_legacy_state_reads_as_terraform_reads_it(tmp_path: Path, case: str) -> None:
    require_terraform()
    dirs = [tmp_path / "tf", tmp_path / "gp"]
    for d in dirs:
        d.mkdir()
        (d / "main.tf").write_text('output "from_config" {\n  value = 1\n}\n')
        (d / "terraform.tfstate").write_text(json.dumps(CASES[case], indent=2))
    for args in (["state", "pull"], ["state", "list"], ["output", "-json"],
                 ["output", "-no-color", "s"]):
        tf = run_terraform(dirs[0], *args)
        gp = run_groundplan(dirs[1], *args)
        assert gp.code == tf.code, (args, tf.stderr, gp.stderr)
        if args[1] == "pull":
            assert _pulled(gp) == _pulled(tf)
        else:
            assert gp.stdout == tf.stdout, args
        assert gp.stderr == tf.stderr, args
    # reading never rewrites the file
    assert (dirs[1] / "terraform.tfstate").read_text() == json.dumps(CASES[case], indent=2)


CONFIG = """\
terraform {
  required_providers {
    null = { source = "hashicorp/null", version = "3.2.3" }
  }
}

resource "null_resource" "a" {
  triggers = { k = "v" }
}
"""


def test_legacy_provider_must_be_replaced(tmp_path: Path) -> None:
    """init refuses the unqualified provider; with init done beforehand plan asks for it;
    replace-provider qualifies it and plan then reads the flat attributes."""
    require_terraform()
    mirror = tmp_path / "mirror"
    package("null", "3.2.3", mirror)
    cli = tmp_path / "terraformrc"
    cli.write_text(
        "provider_installation {\n"
        f'  filesystem_mirror {{\n    path = "{mirror}"\n'
        '    include = ["registry.terraform.io/hashicorp/null"]\n  }\n'
        '  direct {\n    exclude = ["registry.terraform.io/hashicorp/null"]\n  }\n}\n')
    legacy = json.dumps(_with(V3, "modules", value=[V3["modules"][0] | {"resources": {
        "null_resource.a": V3["modules"][0]["resources"]["null_resource.a"]}}]), indent=2)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TF_", "PLUGIN_"))}
    env.update(TF_CLI_CONFIG_FILE=str(cli), TF_IN_AUTOMATION="1", CHECKPOINT_DISABLE="1")
    root = Path(__file__).resolve().parents[2]
    tools = {"tf": ["terraform"], "gp": [sys.executable, "-m", "engine.cli.main"]}
    outputs: dict[str, list[tuple[int, str, str]]] = {}
    for name, cmd in tools.items():
        work = tmp_path / name
        work.mkdir()
        (work / "main.tf").write_text(CONFIG)
        (work / "terraform.tfstate").write_text(legacy)
        run_env = {**env, "PYTHONPATH": str(root)} if name == "gp" else env
        seen = outputs.setdefault(name, [])

        def run(*args: str, work: Path = work, cmd: list[str] = cmd,
                run_env: dict[str, str] = run_env, seen: list[Any] = seen) -> None:
            proc = subprocess.run([*cmd, *args], cwd=work, env=run_env, text=True,
                                  capture_output=True, timeout=300)
            if cmd[0] == "terraform":  # the one product-name substitution
                seen.append((proc.returncode, as_groundplan(proc.stdout),
                             as_groundplan(proc.stderr)))
            else:
                seen.append((proc.returncode, proc.stdout, proc.stderr))

        run("init", "-no-color")
        (work / "terraform.tfstate").rename(work / "held.tfstate")
        run("init", "-no-color")
        (work / "held.tfstate").rename(work / "terraform.tfstate")
        run("plan", "-no-color")
        run("state", "replace-provider", "-auto-approve", "-no-color",
            "registry.terraform.io/-/null", "registry.terraform.io/hashicorp/null")
        run("plan", "-no-color")
    assert outputs["gp"] == outputs["tf"]
