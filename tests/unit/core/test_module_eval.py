"""Module evaluation without resources: locals, outputs, conditions, child modules."""

from __future__ import annotations

from pathlib import Path

from engine.configs import load_config
from engine.core import evaluate_root, root_instance
from engine.diags import Diagnostics
from engine.values import SENSITIVE, number, string
from tests.modules_init import init_modules


def load(tmp_path: Path, files: dict[str, str]):  # type: ignore[no-untyped-def]
    for rel, text in files.items():
        p = tmp_path / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text, encoding="utf-8")
    init_modules(tmp_path)
    config, diags = load_config(str(tmp_path))
    assert not diags.has_errors, [d.summary for d in diags]
    return config


def summaries(diags: Diagnostics) -> list[str]:
    return [d.summary for d in diags]


def test_locals_outputs_and_paths(tmp_path: Path) -> None:
    config = load(
        tmp_path,
        {
            "main.tf": 'variable "n" { default = 2 }\n'
            "locals {\n  a = var.n * 10\n  b = local.a + 1\n  unused = upper(var.n)\n}\n"
            'output "b" { value = local.b }\n'
            'output "where" { value = [path.module, path.root, terraform.workspace] }\n'
        },
    )
    outputs, diags = evaluate_root(config, {}, str(tmp_path))
    assert not diags.has_errors, summaries(diags)
    assert outputs["b"].value == number(21)
    assert [e.v for e in outputs["where"].value.v] == [".", ".", "default"]


def test_unused_local_errors_are_reported(tmp_path: Path) -> None:
    config = load(
        tmp_path,
        {"main.tf": 'locals {\n  used = 1\n  unused = 1 + "a"\n}\noutput "o" { value = local.used }\n'},
    )
    outputs, diags = evaluate_root(config, {}, str(tmp_path))
    assert outputs["o"].value == number(1)
    assert summaries(diags) == ["Invalid operand"]


def test_local_cycle_names_members(tmp_path: Path) -> None:
    config = load(
        tmp_path,
        {
            "main.tf": "locals {\n  a = local.b\n  b = local.c\n  c = local.a\n}\n"
            'output "x" { value = local.a }\n'
        },
    )
    _, diags = evaluate_root(config, {}, str(tmp_path))
    cycles = [d.summary for d in diags if d.summary.startswith("Cycle:")]
    assert cycles == ["Cycle: local.a (expand), local.b (expand), local.c (expand)"]


def test_self_referencing_local(tmp_path: Path) -> None:
    config = load(tmp_path, {"main.tf": 'locals { a = local.a }\noutput "x" { value = local.a }\n'})
    _, diags = evaluate_root(config, {}, str(tmp_path))
    assert summaries(diags) == ["Self-referencing local value"]
    assert diags.items[0].subject is not None and diags.items[0].subject.text() == "local.a"


def test_undeclared_references(tmp_path: Path) -> None:
    config = load(
        tmp_path,
        {"main.tf": 'output "a" { value = var.x }\noutput "b" { value = module.m.o }\n'},
    )
    _, diags = evaluate_root(config, {}, str(tmp_path))
    assert sorted(summaries(diags)) == [
        "Reference to undeclared input variable",
        "Reference to undeclared module",
    ]
    var_diag = next(d for d in diags if "input variable" in d.summary)
    assert var_diag.subject is not None and var_diag.subject.text() == "var.x"


def test_sensitive_outputs(tmp_path: Path) -> None:
    config = load(
        tmp_path,
        {
            "main.tf": 'variable "s" {\n  default   = "pw"\n  sensitive = true\n}\n'
            'output "ok" {\n  value     = "${var.s}!"\n  sensitive = true\n}\n'
            'output "bad" { value = [var.s] }\n'
        },
    )
    outputs, diags = evaluate_root(config, {}, str(tmp_path))
    assert summaries(diags) == ["Output refers to sensitive values"]
    assert "bad" not in outputs
    assert outputs["ok"].sensitive and SENSITIVE in outputs["ok"].value.deep_marks()


def test_validation_and_precondition(tmp_path: Path) -> None:
    config = load(
        tmp_path,
        {
            "main.tf": 'variable "n" {\n  default = 5\n  validation {\n'
            '    condition     = var.n < 3\n    error_message = "Too big."\n  }\n}\n'
            'variable "m" { default = 1 }\n'
            'output "x" {\n  value = var.m\n  precondition {\n'
            '    condition     = var.m > 1\n    error_message = "m is ${var.m}."\n  }\n}\n'
            'output "y" {\n  value = 1\n  precondition {\n'
            '    condition     = var.n == 1\n    error_message = "never shown"\n  }\n}\n'
        },
    )
    outputs, diags = evaluate_root(config, {}, str(tmp_path))
    assert summaries(diags) == [
        "Invalid value for variable",
        "Module output value precondition failed",
    ]
    validation, precondition = diags.items
    assert validation.detail.startswith("Too big.\n\nThis was checked by the validation rule at")
    assert [(v.traversal, v.statement) for v in validation.values] == [("var.n", "is 5")]
    assert precondition.detail == "m is 1."
    # var.n failed validation, so it is unknown and y's precondition cannot be decided.
    assert outputs == {}


def test_validation_mode_uses_unknown_inputs(tmp_path: Path) -> None:
    config = load(
        tmp_path,
        {"main.tf": 'variable "n" { type = number }\noutput "x" { value = var.n + 1 }\n'},
    )
    outputs, diags = evaluate_root(config, {}, str(tmp_path), for_validation=True)
    assert not diags.has_errors
    assert not outputs["x"].value.is_known
    _, diags = evaluate_root(config, {}, str(tmp_path))
    assert summaries(diags) == ["No value for required variable"]


def test_child_module(tmp_path: Path) -> None:
    config = load(
        tmp_path,
        {
            "main.tf": 'module "c" {\n  source = "./child"\n  x      = 4\n}\n'
            'output "doubled" { value = module.c.doubled }\n'
            'output "where" { value = module.c.where }\n'
            'output "secret" {\n  value     = module.c.secret\n  sensitive = true\n}\n',
            "child/main.tf": 'variable "x" { type = number }\n'
            'variable "y" { default = "dflt" }\n'
            'output "doubled" { value = var.x * 2 }\n'
            'output "where" { value = "${path.module}:${var.y}" }\n'
            'output "secret" {\n  value     = "s"\n  sensitive = true\n}\n',
        },
    )
    outputs, diags = evaluate_root(config, {}, str(tmp_path))
    assert not diags.has_errors, summaries(diags)
    assert outputs["doubled"].value == number(8)
    assert outputs["where"].value == string("child:dflt")
    assert outputs["secret"].sensitive


def test_child_module_missing_and_unexpected_arguments(tmp_path: Path) -> None:
    config = load(
        tmp_path,
        {
            "main.tf": 'module "c" {\n  source = "./child"\n  z      = 1\n}\n'
            'output "o" { value = module.c.o }\n',
            "child/main.tf": 'variable "x" {}\noutput "o" { value = var.x }\n',
        },
    )
    _, diags = evaluate_root(config, {}, str(tmp_path))
    assert sorted(summaries(diags)) == ["Missing required argument", "Unsupported argument"]


def test_console_scope_evaluates_expressions(tmp_path: Path) -> None:
    from engine.cli.cmd_console import evaluate_line

    config = load(tmp_path, {"main.tf": 'locals { m = { a = 1 } }\nvariable "v" { default = "x" }\n'})
    inst, diags = root_instance(config, {}, str(tmp_path))
    assert not diags.has_errors
    text, diags = evaluate_line(inst, 'merge(local.m, { b = var.v })')
    assert not diags.has_errors
    assert text == '{\n  "a" = 1\n  "b" = "x"\n}'
    text, diags = evaluate_line(inst, "local.nope")
    assert text is None and summaries(diags) == ["Reference to undeclared local value"]


def test_module_count_and_for_each(tmp_path: Path) -> None:
    config = load(
        tmp_path,
        {
            "main.tf": 'module "c" {\n  source = "./child"\n  count  = 2\n  x = count.index + 1\n}\n'
            'module "e" {\n  source   = "./child"\n  for_each = toset(["ab", "c"])\n'
            "  x        = length(each.value)\n}\n"
            'module "z" {\n  source = "./child"\n  count  = 0\n  x = 1\n}\n'
            'output "c" { value = module.c[*].doubled }\n'
            'output "e" { value = { for k, m in module.e : k => m.doubled } }\n'
            'output "z" { value = module.z }\n',
            "child/main.tf": 'variable "x" { type = number }\noutput "doubled" { value = var.x * 2 }\n',
        },
    )
    outputs, diags = evaluate_root(config, {}, str(tmp_path))
    assert not diags.has_errors, summaries(diags)
    assert [e.v for e in outputs["c"].value.v] == [2, 4]
    assert {k: e.v for k, e in outputs["e"].value.v.items()} == {"ab": 4, "c": 2}
    assert outputs["z"].value.v == []


def test_module_bad_count(tmp_path: Path) -> None:
    config = load(
        tmp_path,
        {
            "main.tf": 'module "c" {\n  source = "./child"\n  count  = -1\n}\n'
            'output "c" { value = module.c }\n',
            "child/main.tf": 'output "o" { value = 1 }\n',
        },
    )
    _, diags = evaluate_root(config, {}, str(tmp_path))
    assert summaries(diags) == ["Invalid count argument"]
