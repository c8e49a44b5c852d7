"""`variables` of the JSON plan, as terraform 1.11.4's jsonplan marshalPlanVariables.

Observed with terraform (`plan -out=p`, `show -json p`): the values the plan recorded, as
given; then every declared variable that was not given and has a default (an explicit
`default = null` included, optional attributes of the default filled in); the values of
ephemeral variables are never recorded, so only their defaults show; nothing at all when
no variable has a value to show.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from engine.configs.loader import load_config
from engine.plans.render_json import variables_json
from engine.values import NULL_DYNAMIC, Value, string, tuple_

DECLS = """
variable "n" { type = number }
variable "d" {
  type    = number
  default = 3
}
variable "dnull" {
  type    = string
  default = null
}
variable "objd" {
  type    = object({ a = string, b = optional(number, 7) })
  default = { a = "x" }
}
variable "eph" {
  type      = string
  ephemeral = true
  default   = "e"
}
variable "eph2" {
  type      = string
  ephemeral = true
}
variable "required" { type = string }
"""


def _config(root: Path, text: str) -> Any:
    (root / "main.tf").write_text(text, encoding="utf-8")
    old = os.getcwd()
    os.chdir(root)
    try:
        config, diags = load_config(".")
    finally:
        os.chdir(old)
    assert not diags.has_errors
    return config


def test_recorded_values_then_defaults(tmp_path: Path) -> None:
    config = _config(tmp_path, DECLS)
    recorded: dict[str, Value] = {
        "n": string("4"),
        "eph": string("given"),
        "eph2": string("x"),
        "d": tuple_([string("a")]),
    }
    assert variables_json(recorded, config) == {
        "d": {"value": ["a"]},
        "dnull": {"value": None},
        "eph": {"value": "e"},
        "n": {"value": "4"},
        "objd": {"value": {"a": "x", "b": 7}},
    }


def test_without_configuration_only_recorded_values(tmp_path: Path) -> None:
    assert variables_json({"z": string("1"), "a": NULL_DYNAMIC}, None) == {
        "a": {"value": None}, "z": {"value": "1"}}


def test_nothing_to_show(tmp_path: Path) -> None:
    config = _config(tmp_path, 'variable "r" { type = string }\n')
    assert variables_json({}, config) == {}
