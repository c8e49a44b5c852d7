"""groundplan beside the real terraform on configurations without resources.

Each case is applied by both tools in separate copies of the same directory; exit codes,
`output -json`, `show -json` and plan exit codes must agree. The state each tool writes must
be readable by the other. Terraform must be on PATH: without it these tests FAIL loudly.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from tests.product_name import as_groundplan

pytestmark = pytest.mark.conformance

ROOT = Path(__file__).resolve().parents[2]


def _terraform() -> str:
    path = shutil.which("terraform")
    if path is None:
        pytest.fail(
            "CONFORMANCE TESTS NEED TERRAFORM: the `terraform` binary (v1.11) is not on PATH, "
            "so groundplan cannot be compared with its oracle.",
            pytrace=False,
        )
    return path


def _env(extra: dict[str, str] | None = None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("TF_VAR_")}
    env.update(
        TF_CLI_CONFIG_FILE=os.devnull,
        TF_IN_AUTOMATION="1",
        CHECKPOINT_DISABLE="1",
        PYTHONPATH=str(ROOT),
    )
    env.update(extra or {})
    return env


def run(tool: str, cwd: Path, *args: str, env: dict[str, str] | None = None,
        stdin: str = "") -> subprocess.CompletedProcess[str]:
    cmd = [_terraform()] if tool == "terraform" else [sys.executable, "-m", "engine.cli.main"]
    proc = subprocess.run(
        [*cmd, *args], cwd=cwd, env=_env(env), input=stdin, capture_output=True, text=True,
        timeout=120, check=False,
    )
    if tool == "terraform":  # terraform's words as groundplan prints them (tests.product_name)
        proc.stdout, proc.stderr = as_groundplan(proc.stdout), as_groundplan(proc.stderr)
    return proc


def parse(text: str) -> Any:
    return json.loads(text, parse_float=Decimal, parse_int=Decimal)


def pair(tmp_path: Path, files: dict[str, str]) -> tuple[Path, Path]:
    dirs = []
    for name in ("tf", "gp"):
        d = tmp_path / name
        d.mkdir()
        for rel, text in files.items():
            (d / rel).parent.mkdir(parents=True, exist_ok=True)
            (d / rel).write_text(text, encoding="utf-8")
        dirs.append(d)
    return dirs[0], dirs[1]


def both(tf: Path, gp: Path, *args: str, env: dict[str, str] | None = None) -> tuple[
    subprocess.CompletedProcess[str], subprocess.CompletedProcess[str]
]:
    return run("terraform", tf, *args, env=env), run("groundplan", gp, *args, env=env)


def assert_same_apply(tmp_path: Path, files: dict[str, str], *args: str,
                      env: dict[str, str] | None = None) -> tuple[Path, Path]:
    tf, gp = pair(tmp_path, files)
    a, b = both(tf, gp, "apply", "-auto-approve", "-input=false", "-no-color", *args, env=env)
    assert b.returncode == a.returncode, (a.stdout + a.stderr, b.stdout + b.stderr)
    oa, ob = both(tf, gp, "output", "-json")
    assert ob.returncode == oa.returncode
    assert parse(ob.stdout) == parse(oa.stdout)
    assert ob.stdout == oa.stdout  # byte for byte: escaping, key order, number text
    sa, sb = both(tf, gp, "show", "-json")
    assert parse(sb.stdout) == parse(sa.stdout)
    return tf, gp


NUMBERS = """
output "int" { value = 42 }
output "neg" { value = -0.5 }
output "third" { value = 1 / 3 }
output "big" { value = 1e30 }
output "precise" { value = 9007199254740993 }
output "sum" { value = 0.1 + 0.2 }
output "max" { value = max(3, 7.25, -1) }
output "parsed" { value = parseint("ff", 16) }
"""

STRINGS = """
variable "who" { default = "wörld" }
output "greeting" { value = "héllo, ${var.who}!" }
output "escapes" { value = "a<b>&c \\"q\\" \\\\ \\t end" }
output "multi" {
  value = <<-EOT
    line one
      indented
    last
  EOT
}
output "joined" { value = join("-", [for s in ["x", "y", "z"] : upper(s)]) }
output "fmt" { value = format("%05.1f|%-4s|%q", 3.14159, "ab", "x") }
output "empty" { value = "" }
"""

COLLECTIONS = """
locals {
  m = { b = 2, a = 1, "with space" = 3 }
}
output "tuple" { value = [1, "two", true, null] }
output "list" { value = tolist(["b", "a"]) }
output "set" { value = toset(["b", "a", "b"]) }
output "map" { value = tomap(local.m) }
output "object" { value = { z = { y = [1, 2] }, a = [] } }
output "for_map" { value = { for k, v in local.m : upper(k) => v * 10 if v > 1 } }
output "nested" { value = [for i in range(3) : { index = i, even = i % 2 == 0 }] }
output "empty_map" { value = {} }
output "null" { value = null }
output "keys" { value = keys(local.m) }
"""

SENSITIVE = """
variable "password" {
  type      = string
  default   = "s3cret"
  sensitive = true
}
output "password" {
  value     = var.password
  sensitive = true
}
output "derived" {
  value     = { length = length(var.password), user = "admin" }
  sensitive = true
}
output "plain" { value = "visible" }
"""

VARIABLES = """
variable "name" { type = string }
variable "count_n" {
  type    = number
  default = 1
}
variable "ids" {
  type    = list(number)
  default = []
}
variable "opts" {
  type = object({ enabled = bool, size = optional(number, 10) })
  default = { enabled = false }
}
variable "from_env" { default = "unset" }
variable "from_file" { default = "unset" }
output "name" { value = var.name }
output "count_n" { value = var.count_n * 2 }
output "ids" { value = var.ids }
output "opts" { value = var.opts }
output "from_env" { value = var.from_env }
output "from_file" { value = var.from_file }
"""


def test_numbers(tmp_path: Path) -> None:
    assert_same_apply(tmp_path, {"main.tf": NUMBERS})


def test_strings(tmp_path: Path) -> None:
    assert_same_apply(tmp_path, {"main.tf": STRINGS})


def test_collections(tmp_path: Path) -> None:
    assert_same_apply(tmp_path, {"main.tf": COLLECTIONS})


def test_sensitive_outputs(tmp_path: Path) -> None:
    tf, gp = assert_same_apply(tmp_path, {"main.tf": SENSITIVE})
    a, b = both(tf, gp, "output", "-no-color")
    assert b.stdout == a.stdout
    a, b = both(tf, gp, "output", "-raw", "password")
    assert (b.returncode, b.stdout) == (a.returncode, a.stdout)


def test_sensitive_output_not_declared_is_an_error(tmp_path: Path) -> None:
    config = SENSITIVE.replace("  value     = var.password\n  sensitive = true", "  value = var.password")
    tf, gp = pair(tmp_path, {"main.tf": config})
    a, b = both(tf, gp, "plan", "-input=false", "-no-color")
    assert a.returncode == b.returncode == 1
    assert "Output refers to sensitive values" in a.stderr
    assert "Output refers to sensitive values" in b.stderr


def test_variables_from_cli_files_and_environment(tmp_path: Path) -> None:
    files = {
        "main.tf": VARIABLES,
        "terraform.tfvars": 'from_file = "tfvars"\ncount_n = 5\n',
        "extra.tfvars": "ids = [3, 1, 2]\n",
    }
    assert_same_apply(
        tmp_path,
        files,
        "-var", "name=alice",
        "-var-file=extra.tfvars",
        "-var", 'opts={ enabled = true }',
        env={"TF_VAR_from_env": "environment", "TF_VAR_count_n": "9"},
    )


def test_missing_required_variable(tmp_path: Path) -> None:
    tf, gp = pair(tmp_path, {"main.tf": VARIABLES})
    a, b = both(tf, gp, "plan", "-input=false", "-no-color")
    assert a.returncode == b.returncode == 1


@pytest.mark.parametrize(
    "config",
    [
        'output "x" { value = var.nope }',
        'output "x" { value = local.nope }',
        'locals {\n  a = local.b\n  b = local.a\n}\noutput "x" { value = local.a }',
        'output "x" { value = 1 + "a" }',
        'variable "n" {\n  default = 5\n  validation {\n    condition     = var.n < 3\n'
        '    error_message = "Too big."\n  }\n}\noutput "x" { value = var.n }',
        'variable "n" { default = 5 }\noutput "x" {\n  value = var.n\n  precondition {\n'
        '    condition     = var.n < 3\n    error_message = "Too big."\n  }\n}',
    ],
    ids=["undeclared-var", "undeclared-local", "local-cycle", "bad-operand", "validation",
         "precondition"],
)
def test_errors_exit_codes(tmp_path: Path, config: str) -> None:
    tf, gp = pair(tmp_path, {"main.tf": config})
    for args in (["validate", "-no-color"], ["plan", "-input=false", "-no-color"],
                 ["apply", "-auto-approve", "-input=false", "-no-color"]):
        a, b = both(tf, gp, *args)
        assert b.returncode == a.returncode, (args, a.stderr, b.stdout + b.stderr)
    assert not (gp / "terraform.tfstate").exists() or (tf / "terraform.tfstate").exists()


def test_plan_exit_codes_and_no_changes(tmp_path: Path) -> None:
    tf, gp = assert_same_apply(tmp_path, {"main.tf": COLLECTIONS})
    a, b = both(tf, gp, "plan", "-detailed-exitcode", "-no-color")
    assert a.returncode == b.returncode == 0
    assert b.stdout == a.stdout
    for d in (tf, gp):
        (d / "main.tf").write_text(COLLECTIONS.replace('"two"', '"deux"'), encoding="utf-8")
    a, b = both(tf, gp, "plan", "-detailed-exitcode", "-no-color")
    assert a.returncode == b.returncode == 2
    assert b.stdout == a.stdout


def test_each_tool_reads_the_others_state(tmp_path: Path) -> None:
    tf, gp = assert_same_apply(tmp_path, {"main.tf": NUMBERS + COLLECTIONS})
    # terraform reads the state groundplan wrote, and groundplan the one terraform wrote.
    a = run("terraform", gp, "output", "-json")
    b = run("groundplan", tf, "output", "-json")
    assert a.returncode == b.returncode == 0
    assert a.stdout == b.stdout
    a = run("terraform", gp, "show", "-json")
    assert a.returncode == 0 and parse(a.stdout)["values"]["outputs"]["int"]["value"] == 42
    # A second apply by the other tool finds nothing to change and keeps the serial.
    a = run("terraform", gp, "apply", "-auto-approve", "-no-color")
    assert a.returncode == 0 and "No changes." in a.stdout
    assert json.loads((gp / "terraform.tfstate").read_text())["serial"] == 1


MODULES = {
    "main.tf": """
module "one" {
  source = "./child"
  x      = 3
}
module "many" {
  source = "./child"
  count  = 2
  x      = count.index
}
module "keyed" {
  source   = "./child"
  for_each = { a = 1, b = 2 }
  x        = each.value
}
output "one" { value = module.one }
output "many" { value = module.many[*].doubled }
output "keyed" { value = { for k, m in module.keyed : k => m.where } }
output "secret" {
  value     = module.one.secret
  sensitive = true
}
""",
    "child/main.tf": """
variable "x" { type = number }
variable "label" { default = "dflt" }
output "doubled" { value = var.x * 2 }
output "where" { value = "${path.module}/${var.label}" }
output "secret" {
  value     = "s-${var.x}"
  sensitive = true
}
""",
}


def test_local_child_modules(tmp_path: Path) -> None:
    tf, gp = pair(tmp_path, MODULES)
    a, b = both(tf, gp, "init", "-no-color")
    assert a.returncode == b.returncode == 0
    assert b.stdout == a.stdout
    assert (gp / ".terraform/modules/modules.json").read_text() == (
        tf / ".terraform/modules/modules.json"
    ).read_text()
    a, b = both(tf, gp, "apply", "-auto-approve", "-no-color")
    assert (b.returncode, b.stdout) == (a.returncode, a.stdout)
    a, b = both(tf, gp, "output", "-json")
    assert b.stdout == a.stdout


def test_console_piped(tmp_path: Path) -> None:
    tf, gp = pair(tmp_path, {"main.tf": COLLECTIONS})
    a = run("terraform", tf, "console", stdin="local.m\ntomap(local.m)\n")
    b = run("groundplan", gp, "console", stdin="local.m\ntomap(local.m)\n")
    assert (b.returncode, b.stdout) == (a.returncode, a.stdout)
