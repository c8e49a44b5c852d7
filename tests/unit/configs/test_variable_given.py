"""Root variable values as given (recorded in a plan) against their final values.

Observed with terraform 1.11.4 (`plan -out=p` then `show -json p`, `variables`): a value is
recorded as parsed from its source, before conversion: `-var=n=4` for a number shows "4",
a list given for a set keeps its order and duplicates, `TF_VAR_b=true` for a bool shows
"true", a tfvars tuple for list(string) keeps its element types, an object given for an
object type lacks its optional attributes, a null given to a non-nullable variable stays
null, a sensitive value shows in the clear. Variables not given are not recorded (the JSON
shows their defaults, see tests/unit/plans/test_plan_variables_json.py).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from engine.configs import load_module
from engine.configs.module import Module
from engine.configs.variable_values import RootInputs, collect_root_inputs, finalize_given
from engine.diags import Diagnostics
from engine.values import SENSITIVE, STRING, SetType, TupleType, Value, value_to_json
from tests.unit.configs.helpers import write

DECLS = """
variable "n" {
  type = number
}
variable "s" {
  type = set(string)
}
variable "b" {
  type = bool
}
variable "m" {
  type = map(number)
}
variable "l" {
  type = list(string)
}
variable "d" {
  type    = number
  default = 3
}
variable "nn" {
  type     = string
  default  = "dflt"
  nullable = false
}
variable "secret" {
  type      = string
  sensitive = true
}
variable "obj" {
  type = object({ a = string, b = optional(number, 7) })
}
variable "untyped" {}
"""

TFVARS = """
l = [1, true, "x"]
obj = { a = "q" }
nn = null
elsewhere = 1
"""

ARGS = [("var", "n=4"), ("var", 's=["b", "a", "b"]'), ("var", "secret=hush"),
        ("var", "untyped={x=1}")]
ENV = {"TF_VAR_b": "true", "TF_VAR_m": '{a = 1, b = "2"}', "TF_VAR_not_declared": "1"}


def _module(root: Path) -> Module:
    write(root, {"main.tf": DECLS, "terraform.tfvars": TFVARS})
    old = os.getcwd()
    os.chdir(root)
    try:
        mod, diags = load_module(".")
    finally:
        os.chdir(old)
    assert not diags.has_errors
    return mod


def _collect(root: Path) -> tuple[Module, RootInputs, Diagnostics]:
    mod = _module(root)
    old = os.getcwd()
    os.chdir(root)
    try:
        inputs, diags = collect_root_inputs(mod, ARGS, ENV, ".")
    finally:
        os.chdir(old)
    assert not diags.has_errors, [d.summary for d in diags]
    return mod, inputs, diags


def _json(values: dict[str, Value]) -> dict[str, Any]:
    return {k: value_to_json(v) for k, v in sorted(values.items())}


def test_given_values_are_unconverted(tmp_path: Path) -> None:
    _, inputs, _ = _collect(tmp_path)
    assert _json(inputs.given) == {
        "b": "true",
        "l": [1, True, "x"],
        "m": {"a": 1, "b": "2"},
        "n": "4",
        "nn": None,
        "obj": {"a": "q"},
        "s": ["b", "a", "b"],
        "secret": "hush",
        "untyped": "{x=1}",
    }
    assert isinstance(inputs.given["s"].type, TupleType)
    assert isinstance(inputs.given["l"].type, TupleType)
    assert not inputs.given["secret"].marks


def test_final_values_are_converted_defaulted_and_marked(tmp_path: Path) -> None:
    _, inputs, _ = _collect(tmp_path)
    assert _json(inputs.values) == {
        "b": True,
        "d": 3,
        "l": ["1", "true", "x"],
        "m": {"a": 1, "b": 2},
        "n": 4,
        "nn": "dflt",
        "obj": {"a": "q", "b": 7},
        "s": ["a", "b"],
        "secret": "hush",
        "untyped": "{x=1}",
    }
    assert isinstance(inputs.values["s"].type, SetType)
    assert SENSITIVE in inputs.values["secret"].marks


def test_not_given_and_undeclared_are_not_recorded(tmp_path: Path) -> None:
    _, inputs, _ = _collect(tmp_path)
    assert "d" not in inputs.given  # defaulted
    assert "elsewhere" not in inputs.given and "not_declared" not in inputs.given


def test_finalize_given_reproduces_the_final_values(tmp_path: Path) -> None:
    mod, inputs, _ = _collect(tmp_path)
    again, diags = finalize_given(mod, inputs.given)
    assert not diags.has_errors
    assert again.values == inputs.values
    assert again.given == inputs.given


def test_finalize_given_reports_an_unsuitable_recorded_value(tmp_path: Path) -> None:
    mod = _module(tmp_path)
    given = dict(_collect(tmp_path)[1].given)
    given["n"] = Value(STRING, "four")
    _, diags = finalize_given(mod, given)
    assert [d.summary for d in diags.errors] == ["Invalid value for input variable"]
    assert "var.n set from outside of the configuration" in diags.errors[0].detail


def test_finalize_given_ignores_names_no_longer_declared(tmp_path: Path) -> None:
    mod = _module(tmp_path)
    given = dict(_collect(tmp_path)[1].given)
    given["gone"] = Value(STRING, "x")
    again, diags = finalize_given(mod, given)
    assert not diags.has_errors and "gone" not in again.values
