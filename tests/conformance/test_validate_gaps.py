"""What terraform's `validate` catches, groundplan's catches too (side by side, `-json`).

Each case is a small configuration (files by name) run through `init -plugin-dir=MIRROR`
and `validate -json` by both tools; both must give the same verdict and the same
diagnostics: severity, summary, detail and where each starts (terraform's validate walk is
concurrent, so the order is not compared). Cases: required_version in the root and in a
child module, count / for_each values known at validate time (negative, fractional, of the
wrong type, null, a set with null, a list, sensitive), errors in locals and in resource
arguments (`each.value + "x"`), module calls whose count fails (nothing below them is
validated), resource types and data sources the provider does not have, a provider that is
not installed, a cycle between two modules, an import block whose target may be generated.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from engine.plugin.sdk.package import package
from tests.conformance.harness import Run, run_groundplan, run_terraform
from tests.product_name import as_groundplan

pytestmark = pytest.mark.slow

R = 'resource "terraform_data" "a" {\n  %s\n}\n'

CASES: dict[str, dict[str, str]] = {
    "required_version_root": {"main.tf": 'terraform {\n  required_version = "< 1.0"\n}\n'},
    "required_version_ok": {"main.tf": 'terraform {\n  required_version = "~> 1.11.0"\n}\n'},
    "required_version_child": {
        "main.tf": 'module "m" {\n  source = "./m"\n}\n',
        "m/main.tf": 'terraform {\n  required_version = ">= 2.0"\n}\n',
    },
    "count_negative": {"main.tf": R % "count = -1"},
    "count_fraction": {"main.tf": R % "count = 1.5"},
    "count_huge": {"main.tf": R % "count = 1e30"},
    "count_string": {"main.tf": R % 'count = "abc"'},
    "count_list": {"main.tf": R % "count = [1]"},
    "count_null": {"main.tf": R % "count = null"},
    "count_from_local": {"main.tf": "locals { n = -2 }\n" + R % "count = local.n"},
    "count_unknown_ok": {"main.tf": 'variable "v" { type = number }\n' + R % "count = var.v"},
    "count_sensitive_ok": {
        "main.tf": 'variable "s" {\n  type = number\n  sensitive = true\n  default = 2\n}\n'
        + R % "count = var.s",
    },
    "for_each_list": {"main.tf": R % 'for_each = ["a"]'},
    "for_each_number": {"main.tf": R % "for_each = 3"},
    "for_each_null": {"main.tf": R % "for_each = null"},
    "for_each_set_with_null": {"main.tf": R % 'for_each = toset(["a", null])'},
    "for_each_set_of_numbers": {"main.tf": R % "for_each = toset([1, 2])"},
    "for_each_unknown_list": {
        "main.tf": 'variable "v" { type = list(string) }\n' + R % "for_each = var.v"},
    "for_each_sensitive": {
        "main.tf": 'variable "s" {\n  sensitive = true\n  default = 2\n}\n'
        + R % 'for_each = var.s > 1 ? toset(["a"]) : toset([])',
    },
    "each_value_operand": {"main.tf": R % 'for_each = { a = 1 }\n  input = each.value + "x"'},
    "local_error_with_resources": {
        "main.tf": 'locals {\n  x = 1 + "a"\n}\nresource "terraform_data" "a" {}\n'},
    "module_call_counts": {
        "main.tf": 'module "a" {\n  source = "./m"\n  count = -1\n}\n'
        'module "b" {\n  source = "./m"\n  for_each = ["x"]\n}\n'
        'module "c" {\n  source = "./m"\n  count = "x"\n}\n'
        'module "d" {\n  source = "./m"\n  for_each = toset([null])\n}\n',
        "m/main.tf": 'resource "terraform_data" "x" {\n  count = 1.5\n}\n',
    },
    "invalid_resource_types": {
        "main.tf": 'resource "random_strin" "a" {}\ndata "random_string" "b" {}\n'
        'resource "terraform_nope" "c" {}\nresource "terraform_remote_state" "d" {}\n'
        'resource "random_nope" "e" {}\n',
    },
    "provider_not_installed": {
        "main.tf": 'terraform {\n  required_providers {\n    foo = { source = "example.com/x/foo" }\n'
        '  }\n}\nresource "foo_thing" "a" {}\n',
    },
    "module_cycle": {
        "main.tf": 'module "a" {\n  source = "./a"\n  x = module.b.o\n}\n'
        'module "b" {\n  source = "./b"\n  x = module.a.o\n}\n',
        "a/main.tf": 'variable "x" {}\noutput "o" { value = var.x }\nresource "terraform_data" "r" {}\n',
        "b/main.tf": 'variable "x" {}\noutput "o" { value = var.x }\nresource "terraform_data" "r" {}\n',
    },
    "import_into_root_for_generation": {
        "main.tf": 'import {\n  to = terraform_data.nope\n  id = "x"\n}\n'},
}


@pytest.fixture(scope="module")
def mirror(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("validate-gaps-mirror")
    package("random", "3.6.3", root)
    return root


def _normalize(summary: str) -> str:
    """terraform lists a cycle's members in a random order from run to run: sort them."""
    if summary.startswith("Cycle: "):
        return "Cycle: " + ", ".join(sorted(summary[len("Cycle: "):].split(", ")))
    return summary


def _verdict(run: Run, terraform: bool = False) -> tuple[bool, list[tuple[Any, ...]]]:
    """(valid, diagnostics); terraform's summaries and details (human fields of its JSON)
    pass through the product-name substitution."""
    def text(field: str) -> str:
        return as_groundplan(field, message=True) if terraform else field

    try:
        doc = json.loads(run.stdout)
    except json.JSONDecodeError:
        raise AssertionError(f"not JSON (exit {run.code}): {run.stdout[:500]} {run.stderr[:500]}"
                             ) from None
    out = []
    for d in doc["diagnostics"]:
        start = d.get("range", {}).get("start", {})
        out.append((d["severity"], _normalize(text(d["summary"])), text(d.get("detail", "")),
                    d.get("range", {}).get("filename"), start.get("line"), start.get("column")))
    return doc["valid"], sorted(out, key=repr)


def _validate(tool: str, work: Path, files: dict[str, str], mirror: Path) -> Run:
    for rel, text in files.items():
        (work / rel).parent.mkdir(parents=True, exist_ok=True)
        (work / rel).write_text(text, encoding="utf-8")
    run = run_terraform if tool == "terraform" else run_groundplan
    run(work, "init", "-no-color", "-backend=false", f"-plugin-dir={mirror}")
    return run(work, "validate", "-json")


@pytest.mark.parametrize("name", sorted(CASES))
def test_validate_matches_terraform(name: str, tmp_path: Path, mirror: Path) -> None:
    files = CASES[name]
    want = _verdict(_validate("terraform", tmp_path / "tf", files, mirror), terraform=True)
    got = _verdict(_validate("groundplan", tmp_path / "gp", files, mirror))
    assert got == want


def test_cases_cover_both_verdicts(tmp_path: Path, mirror: Path) -> None:
    """The oracle's verdicts of a few cases, so the comparison above cannot pass vacuously."""
    valid = {}
    for name in ("required_version_ok", "count_negative", "provider_not_installed"):
        valid[name] = _verdict(_validate("terraform", tmp_path / name, CASES[name], mirror))[0]
    assert valid == {"required_version_ok": True, "count_negative": False,
                     "provider_not_installed": False}


@pytest.mark.parametrize("args", [("sub",), ("sub", "extra"), ("missing",)])
def test_validate_dir_argument(args: tuple[str, ...], tmp_path: Path) -> None:
    """`validate DIR` validates DIR (a count error there is found), more arguments are
    refused, a directory that does not exist is terraform's error."""
    outs = []
    for tool, run in (("tf", run_terraform), ("gp", run_groundplan)):
        work = tmp_path / tool
        (work / "sub").mkdir(parents=True)
        (work / "main.tf").write_text('output "a" {\n  value = 1\n}\n')
        (work / "sub" / "main.tf").write_text(R % "count = -1")
        res = run(work, "validate", "-no-color", *args)
        outs.append((res.code, res.stdout, res.stderr.replace(
            "There are some problems with the CLI configuration", "")))
    assert outs[1] == outs[0]
    assert outs[0][0] == 1
