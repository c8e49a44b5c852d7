"""Provider configurations across modules, terraform as the oracle.

Each scenario is written twice (one working directory per tool), initialised from a
filesystem mirror holding our Python `random` provider, and run through both `terraform` and
groundplan: the state's `"provider"` fields, `show -json` of the saved plan (resource
`provider_name`, configuration `provider_config_key`s and `provider_config`), and the
diagnostics (severity, summary, detail and `on FILE line N`) must be the same.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from engine.plugin.sdk.package import PROVIDERS, package
from tests.conformance.harness import Run, run_groundplan, run_terraform

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("terraform_required")]

Runner = Callable[..., Run]
TOOLS: dict[str, Runner] = {"tf": run_terraform, "gp": run_groundplan}


@pytest.fixture(scope="module")
def mirror(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("mirror")
    package("random", PROVIDERS["random"], root)
    return root


def _write(base: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = base / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def _setup(tmp_path: Path, mirror: Path, files: dict[str, str]) -> dict[str, tuple[Path, Run]]:
    """Both tools' working directories, each after its `init`."""
    out: dict[str, tuple[Path, Run]] = {}
    for tool, run in TOOLS.items():
        work = tmp_path / tool
        _write(work, files)
        out[tool] = (work, run(work, "init", f"-plugin-dir={mirror}", "-no-color"))
    return out


_DIAG = re.compile(r"^(?:│ )?(Error|Warning): (.+)$")
_RULE = re.compile(r"^[│╷╵]\s?")


_OTHER = ("groundplan used", "groundplan will", "groundplan has", "No changes", "Plan:",
          "Changes to Outputs", "Initializing", "Success!", "Apply complete")


def diagnostics(run: Run) -> list[tuple[str, str, str, str]]:
    """(severity, summary, `FILE:LINE` or "", detail with whitespace folded) of every
    diagnostic in a run's output, sorted. A diagnostic's text ends where the command's other
    output starts (the tools print warnings before or after a plan)."""
    lines = (run.stdout + "\n" + run.stderr).splitlines()
    found: list[tuple[str, str, str, list[str]]] = []
    closed = True
    for raw in lines:
        line = _RULE.sub("", raw)
        m = _DIAG.match(line)
        if m:
            found.append((m.group(1), m.group(2), "", []))
            closed = False
            continue
        if closed or line.startswith(_OTHER):
            closed = True
            continue
        sev, summary, where, text = found[-1]
        loc = re.match(r"^\s*on (\S+) line (\d+)", line)
        if loc and not where and not text:
            found[-1] = (sev, summary, f"{loc.group(1)}:{loc.group(2)}", text)
        elif re.match(r"^\s*\d+:", line) or not line.strip() or "Refreshing state" in line:
            continue
        else:
            text.append(line.strip())
    return sorted((sev, summary, where, " ".join(t for t in text if not t.startswith("(and ")))
                  for sev, summary, where, text in found)


def state_providers(work: Path) -> dict[str, str]:
    state = json.loads((work / "terraform.tfstate").read_text())
    return {
        ".".join(p for p in (r.get("module", ""), f"{r['type']}.{r['name']}") if p):
            r["provider"]
        for r in state["resources"]
    }


def _keys(module: dict[str, Any], prefix: str = "") -> dict[str, str]:
    out = {f"{prefix}{r['address']}": r["provider_config_key"] for r in module.get("resources", [])}
    for name, call in module.get("module_calls", {}).items():
        out.update(_keys(call.get("module", {}), f"{prefix}module.{name}."))
    return out


def plan_json(work: Path, run: Runner, *args: str) -> dict[str, Any]:
    got = run(work, "plan", "-out=tfplan", "-no-color", *args)
    assert got.code == 0, got.stdout + got.stderr
    shown = run(work, "show", "-json", "tfplan")
    assert shown.code == 0, shown.stderr
    doc: dict[str, Any] = json.loads(shown.stdout)
    return doc


def summary(doc: dict[str, Any]) -> dict[str, Any]:
    """What of a JSON plan this test compares."""
    cfg = doc.get("configuration", {})
    return {
        "changes": sorted((c["address"], c["change"]["actions"], c["provider_name"])
                          for c in doc.get("resource_changes", [])),
        "provider_config": cfg.get("provider_config"),
        "keys": _keys(cfg.get("root_module", {})),
    }


# ---------------------------------------------------------------------------- scenarios
NESTED = {
    "main.tf": """
terraform {
  required_providers {
    random = { source = "hashicorp/random" }
  }
}

provider "random" {
  alias = "west"
}

provider "random" {
  alias = "east"
}

resource "random_id" "root" {
  byte_length = 2
}

resource "random_id" "root_west" {
  provider    = random.west
  byte_length = 2
}

# no providers: a and its child b inherit the root's default configuration
module "a" {
  source = "./a"
}

# the child's default configuration is the root's random.west, also for its own child b
module "p" {
  source    = "./a"
  providers = { random = random.west }
}

# configuration_aliases: the child's random.second is the root's random.east
module "q" {
  source = "./q"
  providers = {
    random        = random
    random.second = random.east
  }
}

# count with passed providers (the child has no provider block of its own)
module "c" {
  source    = "./b"
  count     = 2
  providers = { random = random.east }
}

# a module with its own (empty) provider block and nothing passed: its own configuration
module "own" {
  source = "./own"
}
""",
    "a/main.tf": """
terraform {
  required_providers {
    random = { source = "hashicorp/random" }
  }
}

resource "random_id" "a" {
  byte_length = 2
}

module "b" {
  source = "../b"
}
""",
    "b/main.tf": """
terraform {
  required_providers {
    random = { source = "hashicorp/random" }
  }
}

resource "random_id" "b" {
  byte_length = 2
}
""",
    "q/main.tf": """
terraform {
  required_providers {
    random = {
      source                = "hashicorp/random"
      configuration_aliases = [random.second]
    }
  }
}

resource "random_id" "first" {
  byte_length = 2
}

resource "random_id" "second" {
  provider    = random.second
  byte_length = 2
}

module "deeper" {
  source    = "../b"
  providers = { random = random.second }
}
""",
    "own/main.tf": """
provider "random" {
  alias = "mine"
}

resource "random_id" "o" {
  provider    = random.mine
  byte_length = 2
}
""",
}


def test_nested_modules_resolve_providers_as_terraform(tmp_path: Path, mirror: Path) -> None:
    dirs = _setup(tmp_path, mirror, NESTED)
    for tool, (_work, init) in dirs.items():
        assert init.code == 0, f"{tool}: {init.stdout}{init.stderr}"
    plans = {tool: plan_json(work, TOOLS[tool]) for tool, (work, _) in dirs.items()}
    assert summary(plans["gp"]) == summary(plans["tf"])
    west = 'provider["registry.terraform.io/hashicorp/random"].west'
    assert summary(plans["tf"])["keys"]["module.p.module.b.random_id.b"] == "random.west"
    applied = {}
    for tool, (work, _) in dirs.items():
        got = TOOLS[tool](work, "apply", "-auto-approve", "-no-color", "tfplan")
        assert got.code == 0, got.stdout + got.stderr
        applied[tool] = state_providers(work)
    assert applied["gp"] == applied["tf"]
    assert applied["tf"]["module.p.module.b.random_id.b"] == west
    assert applied["tf"]["module.own.random_id.o"] == \
        'module.own.provider["registry.terraform.io/hashicorp/random"].mine'
    # the warnings the configuration gets (the legacy empty block in ./own)
    warn = {t: diagnostics(TOOLS[t](w, "validate", "-no-color")) for t, (w, _) in dirs.items()}
    assert warn["gp"] == warn["tf"]
    assert [d[1] for d in warn["tf"]] == ["Redundant empty provider block"]


INVALID: dict[str, dict[str, str]] = {
    "missing_configuration_alias": {
        "main.tf": 'module "a" {\n  source = "./a"\n}\n',
        "a/main.tf": NESTED["q/main.tf"].replace('\nmodule "deeper" {\n  source    = "../b"\n'
                                                 '  providers = { random = random.second }\n}\n',
                                                 ""),
    },
    "own_provider_with_count": {
        "main.tf": 'module "a" {\n  source = "./a"\n  count  = 1\n}\n',
        "a/main.tf": 'provider "random" {\n  version = ">= 3.0"\n}\n\n'
                     'resource "random_id" "a" {\n  byte_length = 2\n}\n',
    },
    "own_provider_with_depends_on": {
        "main.tf": 'resource "random_id" "x" {\n  byte_length = 2\n}\n\n'
                   'module "a" {\n  source     = "./a"\n  depends_on = [random_id.x]\n}\n',
        "a/main.tf": 'provider "random" {\n  version = ">= 3.0"\n}\n',
    },
    "undefined_parent_alias": {
        "main.tf": 'module "a" {\n  source    = "./a"\n  providers = { random = random.nope }\n}\n',
        "a/main.tf": 'resource "random_id" "a" {\n  byte_length = 2\n}\n',
    },
    "alias_not_passed": {
        "main.tf": 'module "a" {\n  source = "./a"\n}\n',
        "a/main.tf": 'resource "random_id" "a" {\n  provider    = random.west\n'
                     '  byte_length = 2\n}\n',
    },
    "cannot_override": {
        "main.tf": 'provider "random" {\n  alias = "x"\n}\n\n'
                   'module "a" {\n  source    = "./a"\n  providers = { random = random.x }\n}\n',
        "a/main.tf": 'terraform {\n  required_providers {\n    random = { source = '
                     '"hashicorp/random" }\n  }\n}\n\nprovider "random" {\n  version = ">= 3.0"\n}\n',
    },
    "type_mismatch": {
        "main.tf": 'terraform {\n  required_providers {\n    random = { source = '
                   '"hashicorp/random" }\n  }\n}\n\n'
                   'module "a" {\n  source    = "./a"\n  providers = { other = random }\n}\n',
        "a/main.tf": 'terraform {\n  required_providers {\n    other = { source = '
                     '"example.com/acme/other" }\n  }\n}\n',
    },
    "inherited_default_not_passed_on": {
        "main.tf": 'module "a" {\n  source    = "./a"\n  providers = {}\n}\n',
        "a/main.tf": 'terraform {\n  required_providers {\n    random = { source = '
                     '"hashicorp/random" }\n  }\n}\n\n'
                     'module "b" {\n  source    = "../b"\n  providers = { random = random }\n}\n',
        "b/main.tf": NESTED["b/main.tf"],
    },
    "duplicate_required_provider": {
        "main.tf": 'terraform {\n  required_providers {\n    random = { source = '
                   '"hashicorp/random" }\n  }\n}\n\n'
                   'resource "random_id" "a" {\n  byte_length = 2\n}\n\n'
                   'module "a" {\n  source = "./a"\n}\n',
        "a/main.tf": 'terraform {\n  required_providers {\n    rnd = { source = '
                     '"hashicorp/random" }\n  }\n}\n\nresource "random_id" "a" {\n'
                     '  byte_length = 2\n}\n',
    },
}


@pytest.mark.parametrize("name", sorted(INVALID))
def test_provider_mapping_diagnostics_match_terraform(tmp_path: Path, mirror: Path,
                                                      name: str) -> None:
    dirs = _setup(tmp_path, mirror, INVALID[name])
    init = {tool: run for tool, (_w, run) in dirs.items()}
    assert (init["gp"].code == 0) == (init["tf"].code == 0), init
    assert diagnostics(init["gp"]) == diagnostics(init["tf"])
    plans = {tool: TOOLS[tool](w, "plan", "-no-color") for tool, (w, _) in dirs.items()}
    assert (plans["gp"].code == 0) == (plans["tf"].code == 0), plans
    tf_diags = diagnostics(plans["tf"])
    assert tf_diags, plans["tf"]
    assert diagnostics(plans["gp"]) == tf_diags


ORPHAN_ROOT = """
provider "random" {
  alias = "west"
}

module "kept" {
  source = "./m"
}

module "passed" {
  source    = "./plain"
  providers = { random = random.west }
}
"""
ORPHAN_CHILD = """
provider "random" {
  alias = "own"
}

resource "random_id" "a" {
  provider    = random.own
  byte_length = 2
}

resource "random_id" "b" {
  count       = 2
  byte_length = 2
}
"""


def test_orphans_are_destroyed_with_the_provider_state_records(tmp_path: Path,
                                                               mirror: Path) -> None:
    files = {"main.tf": ORPHAN_ROOT, "m/main.tf": ORPHAN_CHILD,
             "plain/main.tf": 'resource "random_id" "p" {\n  byte_length = 2\n}\n'}
    dirs = _setup(tmp_path, mirror, files)
    for tool, (work, init) in dirs.items():
        assert init.code == 0, init.stdout + init.stderr
        got = TOOLS[tool](work, "apply", "-auto-approve", "-no-color")
        assert got.code == 0, got.stdout + got.stderr
    assert state_providers(dirs["gp"][0]) == state_providers(dirs["tf"][0])

    # the module's resources go, its provider block stays: destroyed with that configuration;
    # the passed module goes altogether: destroyed with the root's random.west
    for _tool, (work, _) in dirs.items():
        (work / "m" / "main.tf").write_text('provider "random" {\n  alias = "own"\n}\n')
        (work / "main.tf").write_text(ORPHAN_ROOT.split('module "passed"')[0])
    plans = {tool: plan_json(work, TOOLS[tool]) for tool, (work, _) in dirs.items()}
    assert summary(plans["gp"])["changes"] == summary(plans["tf"])["changes"]
    assert len(summary(plans["tf"])["changes"]) == 4

    # with the provider block gone too, terraform refuses: the configuration is not present
    for _tool, (work, _) in dirs.items():
        (work / "m" / "main.tf").write_text("")
    refused = {tool: TOOLS[tool](w, "plan", "-no-color") for tool, (w, _) in dirs.items()}
    assert refused["tf"].code == refused["gp"].code == 1
    assert diagnostics(refused["gp"]) == diagnostics(refused["tf"])
    assert [d[1] for d in diagnostics(refused["tf"])] == ["Provider configuration not present"]
