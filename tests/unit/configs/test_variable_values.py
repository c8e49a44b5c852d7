"""Root input variable values: precedence, parsing, conversion, undeclared names, validation.

Messages and precedence were observed with terraform 1.11.4 (`terraform plan` with the same
files, environment and flags); the conformance test re-checks the precedence chain live.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from engine.configs import load_module
from engine.configs.variable_values import collect_variable_values
from engine.diags import Diagnostics
from engine.values import NUMBER, SENSITIVE, STRING, ListType, Value
from tests.unit.configs.helpers import summarize, write

DECLS = """
variable "s" {
  type    = string
  default = "default"
}

variable "n" {
  type = number
}

variable "l" {
  type    = list(string)
  default = []
}

variable "v" {
  type    = number
  default = 1
  validation {
    condition     = var.v < 10
    error_message = "v must be < 10, got ${var.v}."
  }
}

variable "nn" {
  type     = string
  nullable = false
  default  = "z"
}

variable "secret" {
  default   = "x"
  sensitive = true
}
"""


def _collect(
    root: Path, args: list[tuple[str, str]] | None = None, env: dict[str, str] | None = None
) -> tuple[dict[str, Value], Diagnostics]:
    old = os.getcwd()
    os.chdir(root)
    try:
        mod, diags = load_module(".")
        assert not diags.has_errors
        return collect_variable_values(mod, args or [], env or {}, ".")
    finally:
        os.chdir(old)


def _s(text: str) -> Value:
    return Value(STRING, text)


PRECEDENCE_FILES = {
    "main.tf": 'variable "a" {\n  default = "default"\n}\n'
    + "".join(f'variable "{c}" {{\n  default = "default"\n}}\n' for c in "bcdefgh"),
    "terraform.tfvars": 'b = "tfvars"\nc = "tfvars"\nd = "tfvars"\ne = "tfvars"\nf = "tfvars"\ng = "tfvars"\nh = "tfvars"\n',
    "terraform.tfvars.json": '{"c": "tfvars.json", "d": "tfvars.json", "e": "tfvars.json", "f": "tfvars.json", "g": "tfvars.json", "h": "tfvars.json"}',
    "a.auto.tfvars": 'd = "a.auto"\ne = "a.auto"\nf = "a.auto"\ng = "a.auto"\nh = "a.auto"\n',
    "b.auto.tfvars.json": '{"e": "b.auto.json", "f": "b.auto.json", "g": "b.auto.json", "h": "b.auto.json"}',
    "extra.tfvars": 'f = "var-file"\ng = "var-file"\nh = "var-file"\n',
}
PRECEDENCE_ARGS = [("var", "g=cli"), ("var-file", "extra.tfvars"), ("var", "h=cli-last")]
PRECEDENCE_ENV = {"TF_VAR_a": "env", "TF_VAR_b": "env", "TF_VAR_undeclared": "ignored"}
PRECEDENCE_WANT = {
    "a": "env",
    "b": "tfvars",
    "c": "tfvars.json",
    "d": "a.auto",
    "e": "b.auto.json",
    "f": "var-file",
    "g": "var-file",
    "h": "cli-last",
}


def test_precedence(tmp_path: Path) -> None:
    write(tmp_path, PRECEDENCE_FILES)
    values, diags = _collect(tmp_path, PRECEDENCE_ARGS, PRECEDENCE_ENV)
    assert not diags
    assert {k: v.v for k, v in values.items()} == PRECEDENCE_WANT


def test_defaults_and_parsing_modes(tmp_path: Path) -> None:
    write(tmp_path, {"main.tf": DECLS})
    values, diags = _collect(
        tmp_path,
        [("var", "n=5"), ("var", 'l=["a", "b"]'), ("var", "nn=null"), ("var", "s=[1]")],
    )
    assert not diags
    assert values["n"] == Value(NUMBER, 5)
    assert values["l"] == Value(ListType(STRING), [_s("a"), _s("b")])
    # primitive-typed variables take the raw text, even "null" and "[1]"
    assert values["nn"] == _s("null")
    assert values["s"] == _s("[1]")
    assert values["v"] == Value(NUMBER, 1)
    assert values["secret"] == _s("x").mark(SENSITIVE)


def test_non_nullable_null_from_file_uses_default(tmp_path: Path) -> None:
    write(tmp_path, {"main.tf": DECLS, "terraform.tfvars": "n = 1\nnn = null\nl = null\n"})
    values, diags = _collect(tmp_path)
    assert not diags
    assert values["nn"] == _s("z")
    assert values["l"].is_null


def test_required_variable_missing(tmp_path: Path) -> None:
    write(tmp_path, {"main.tf": DECLS})
    values, diags = _collect(tmp_path)
    assert "n" not in values
    assert summarize(diags) == [
        (
            "error",
            "No value for required variable",
            'The root module input variable "n" is not set, and has no default value. Use a -var '
            "or -var-file command line argument to provide a value for this variable.",
            7,
            1,
        )
    ]


def test_invalid_values_by_source(tmp_path: Path) -> None:
    write(tmp_path, {"main.tf": DECLS, "b.auto.tfvars": 'l = "abc"\n'})
    _, diags = _collect(tmp_path, [("var", 'v=["x"]')], {"TF_VAR_n": "abc"})
    assert summarize(diags) == [
        (
            "error",
            "Invalid value for input variable",
            'The given value is not suitable for var.l declared at main.tf:11,1-13: list of '
            "string required.",
            1,
            5,
        ),
        (
            "error",
            "Invalid value for input variable",
            "Unsuitable value for var.n set using the TF_VAR_n environment variable: a number is "
            "required.",
            7,
            1,
        ),
        (
            "error",
            "Invalid value for input variable",
            'Unsuitable value for var.v set using -var="v=...": a number is required.',
            16,
            1,
        ),
    ]


def test_validation_failure_points_at_value(tmp_path: Path) -> None:
    write(tmp_path, {"main.tf": DECLS, "b.auto.tfvars": "v = 30\n"})
    _, diags = _collect(tmp_path, [("var", "n=1")])
    assert summarize(diags) == [
        (
            "error",
            "Invalid value for variable",
            "v must be < 10, got 30.\n\nThis was checked by the validation rule at "
            "main.tf:19,3-13.",
            1,
            5,
        )
    ]
    _, diags = _collect(tmp_path, [("var", "n=1"), ("var", "v=40")])
    assert summarize(diags) == [
        (
            "error",
            "Invalid value for variable",
            "v must be < 10, got 40.\n\nThis was checked by the validation rule at "
            "main.tf:19,3-13.",
            16,
            1,
        )
    ]


def test_undeclared_variables(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "main.tf": DECLS,
            "terraform.tfvars": "n = 1\nu1 = 1\nu2 = 2\nu3 = 3\nu4 = 4\n",
        },
    )
    _, diags = _collect(tmp_path, [], {"TF_VAR_from_env": "1"})
    got = [(d.severity.value, d.summary) for d in diags]
    assert got == [
        ("warning", "Value for undeclared variable"),
        ("warning", "Value for undeclared variable"),
        ("warning", "Values for undeclared variables"),
    ]
    assert diags.items[0].detail.startswith(
        'The root module does not declare a variable named "u1" but a value was found in file '
        '"terraform.tfvars".'
    )
    assert diags.items[2].detail == (
        "In addition to the other similar warnings shown, 2 other variable(s) defined without "
        "being declared."
    )
    _, diags = _collect(tmp_path, [("var", "zz=1")])
    errors = [(d.summary, d.detail) for d in diags.errors]
    assert errors == [
        (
            "Value for undeclared variable",
            'A variable named "zz" was assigned on the command line, but the root module does '
            'not declare a variable of that name. To use this value, add a "variable" block to '
            "the configuration.",
        )
    ]


def test_bad_options_and_files(tmp_path: Path) -> None:
    write(tmp_path, {"main.tf": DECLS, "decl.tfvars": 'variable "n" {}\n', "bad.tfvars": "n = var.x\n"})
    _, diags = _collect(tmp_path, [("var", "novalue"), ("var", "n =1")])
    assert [(d.summary, d.detail) for d in diags.errors][:2] == [
        (
            "Invalid -var option",
            'The given -var option "novalue" is not correctly specified. Must be a variable name '
            'and value separated by an equals sign, like -var="key=value".',
        ),
        (
            "Invalid -var option",
            'Variable name "n " is invalid due to trailing space. Did you mean -var="n=1"?',
        ),
    ]
    _, diags = _collect(tmp_path, [("var-file", "missing.tfvars")])
    assert (diags.errors[0].summary, diags.errors[0].detail) == (
        "Failed to read variables file",
        "Given variables file missing.tfvars does not exist.",
    )
    _, diags = _collect(tmp_path, [("var-file", "decl.tfvars")])
    assert diags.errors[0].summary == "Variable declaration in .tfvars file"
    assert str(diags.errors[0].subject) == "decl.tfvars:1,1-9"
    _, diags = _collect(tmp_path, [("var-file", "bad.tfvars")])
    assert [(d.summary, str(d.subject)) for d in diags.errors] == [
        ("Variables not allowed", "bad.tfvars:1,5-8")
    ]


def test_hcl_parse_error_in_cli_value(tmp_path: Path) -> None:
    write(tmp_path, {"main.tf": DECLS})
    _, diags = _collect(tmp_path, [("var", "n=1"), ("var", "l=[1")])
    assert diags.has_errors
    assert diags.errors[0].subject is not None
    assert diags.errors[0].subject.filename == "<value for var.l>"


@pytest.mark.conformance
def test_precedence_matches_terraform(tmp_path: Path) -> None:
    from tests.conformance.harness import run_terraform

    write(tmp_path, PRECEDENCE_FILES)
    init = run_terraform(tmp_path, "init", "-input=false")
    assert init.code == 0, init.stderr
    env_args = [f"-var={v}" if k == "var" else f"-var-file={v}" for k, v in PRECEDENCE_ARGS]
    old = dict(os.environ)
    os.environ.update(PRECEDENCE_ENV)
    try:
        plan = run_terraform(tmp_path, "plan", "-input=false", "-out=p.tfplan", *env_args)
        assert plan.code == 0, plan.stderr
        show = run_terraform(tmp_path, "show", "-json", "p.tfplan")
    finally:
        os.environ.clear()
        os.environ.update(old)
    got = {k: v["value"] for k, v in json.loads(show.stdout)["variables"].items()}
    assert got == PRECEDENCE_WANT


def test_complex_values_from_env_and_json_files(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "main.tf": 'variable "l" {\n  type = list(number)\n}\nvariable "o" {\n  type = object({a = string, b = optional(number, 7)})\n}\n',
            "terraform.tfvars.json": '{"o": {"a": "x"}}',
        },
    )
    values, diags = _collect(tmp_path, [], {"TF_VAR_l": '[1, "2"]'})
    assert not diags
    assert values["l"] == Value(ListType(NUMBER), [Value(NUMBER, 1), Value(NUMBER, 2)])
    assert values["o"].v == {"a": _s("x"), "b": Value(NUMBER, 7)}


def test_validation_scope_and_opt_out(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "main.tf": DECLS
            + 'variable "w" {\n  default = 5\n  validation {\n    condition     = var.w < local.limit\n'
            '    error_message = "too big"\n  }\n}\nlocals {\n  limit = 1\n}\n',
        },
    )
    # a rule that needs locals is left to the core (it cannot be evaluated from inputs alone)
    _, diags = _collect(tmp_path, [("var", "n=1")])
    assert not diags
    import os as _os

    old = _os.getcwd()
    _os.chdir(tmp_path)
    try:
        mod, _ = load_module(".")
        _, diags = collect_variable_values(mod, [("var", "n=1"), ("var", "v=99")], {}, ".", validate=False)
        assert not diags
        _, diags = collect_variable_values(mod, [("var", "n=1"), ("var", "v=99")], {}, ".")
        assert [d.summary for d in diags] == ["Invalid value for variable"]
    finally:
        _os.chdir(old)


def test_sensitive_variable_in_its_own_error_message(tmp_path: Path) -> None:
    """terraform 1.11 shows the value: `bad ab` (its validation sees the unmarked value)."""
    write(
        tmp_path,
        {
            "main.tf": 'variable "p" {\n  sensitive = true\n  validation {\n    condition     = length(var.p) > 3\n'
            '    error_message = "bad ${var.p}"\n  }\n}\n',
        },
    )
    _, diags = _collect(tmp_path, [("var", "p=ab")])
    assert [(d.summary, d.detail, str(d.subject)) for d in diags] == [
        (
            "Invalid value for variable",
            "bad ab\n\nThis was checked by the validation rule at main.tf:3,3-13.",
            "main.tf:1,1-13",
        )
    ]
