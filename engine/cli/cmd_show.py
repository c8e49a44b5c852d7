"""`show`: the latest state, for people or as Terraform's JSON state representation.

`show -json` prints `{"format_version":"1.0","terraform_version":...,"values":{"outputs":
{...},"root_module":{}}}` on one line (just the format version when the state is empty or
missing); sensitive output values are included, flagged `"sensitive": true`.
"""

from __future__ import annotations

from typing import Any

from engine.cli.args import FlagSet
from engine.cli.meta import Meta
from engine.cli.show_view import render_state_outputs
from engine.diags import error
from engine.states import StateFile, gojson
from engine.states.codec import encode_value


def state_json(sf: StateFile | None) -> dict[str, Any]:
    """Terraform's JSON representation of a state (`show -json`)."""
    doc: dict[str, Any] = {"format_version": "1.0"}
    if sf is None or sf.state.is_empty:
        return doc
    doc["terraform_version"] = sf.terraform_version
    values: dict[str, Any] = {}
    outputs = sf.state.outputs
    if outputs:
        values["outputs"] = {
            name: {
                "sensitive": outputs[name].sensitive,
                "value": encode_value(outputs[name].value),
                "type": outputs[name].value.type.to_json(),
            }
            for name in sorted(outputs)
        }
    values["root_module"] = {}
    doc["values"] = values
    return doc


def run_show(meta: Meta, args: list[str]) -> int:
    fs = FlagSet().boolean("json")
    rest = meta.parse_flags("show", fs, args)
    if rest is None:
        return 1
    ui = meta.ui
    if rest:
        ui.diagnostics(
            [
                error(
                    "Saved plan and state file arguments are not supported yet",
                    "This version of groundplan shows the current state only.",
                )
            ]
        )
        return 1
    sf, diags = meta.local_state().read()
    if diags.has_errors:
        ui.diagnostics(diags)
        return 1
    if sf is not None and sf.state.resources:
        ui.diagnostics(
            [
                error(
                    "Resources in state cannot be shown yet",
                    "This version of groundplan shows states that hold only output values; "
                    "showing resources needs their provider schemas.",
                )
            ]
        )
        return 1
    if fs.get("json"):
        ui.raw(gojson.dumps(state_json(sf), indent=None) + "\n")
        return 0
    if sf is None:
        ui.out("No state.")
        return 0
    if sf.state.is_empty:
        ui.out("The state file is empty. No resources are represented.")
        return 0
    ui.raw(render_state_outputs(sf.state.outputs))
    return 0
