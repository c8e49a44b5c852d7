"""`output`: root output values from the state (all, one by NAME, `-json`, `-raw`)."""

from __future__ import annotations

from engine.cli.args import FlagSet
from engine.cli.meta import Meta
from engine.diags import error, warning
from engine.gocompat import json as gojson
from engine.states.codec import encode_value
from engine.values.types import BOOL, NUMBER, STRING

NO_OUTPUTS_DETAIL = (
    "The state file either has no outputs defined, or all the defined outputs are empty. "
    "Please define an output in your configuration with the `output` keyword and run "
    "`groundplan refresh` for it to become available. If you are using interpolation, please "
    "verify the interpolated value is not empty. You can use the `groundplan console` command "
    "to assist."
)
NOT_FOUND_DETAIL = (
    "The output variable requested could not be found in the state file. If you recently "
    "added this to your configuration, be sure to run `groundplan apply`, since the state "
    "won't be updated with new output variables until that command is run."
)


def run_output(meta: Meta, args: list[str]) -> int:
    fs = FlagSet().boolean("json").boolean("raw").text("state")
    rest = meta.parse_flags("output", fs, args)
    if rest is None:
        return 1
    ui = meta.ui
    if len(rest) > 1:
        ui.diagnostics(
            [
                error(
                    "Unexpected argument",
                    "The output command expects exactly one argument with the name of an "
                    "output variable or no arguments to show all outputs.",
                )
            ]
        )
        ui.err("\nFor more help on using this command, run:\n  groundplan output -help")
        return 1
    as_json, raw = bool(fs.get("json")), bool(fs.get("raw"))
    if as_json and raw:
        ui.diagnostics(
            [error("Invalid output format", "The -raw and -json options are mutually exclusive.")]
        )
        return 1
    if raw and not rest:
        ui.diagnostics(
            [error("Output name required", "You must give the name of a single output value when using the -raw option.")]
        )
        return 1
    state, diags = meta.state_storage(str(fs.get("state") or ""))
    sf = None
    if state is not None:
        sf, diags = state.read()
    if diags.has_errors:
        ui.diagnostics(diags)
        return 1
    outputs = sf.state.outputs if sf is not None else {}
    if not rest:
        if as_json:
            doc = {
                name: {
                    "sensitive": outputs[name].sensitive,
                    "type": outputs[name].value.type.to_json(),
                    "value": encode_value(outputs[name].value),
                }
                for name in sorted(outputs)
            }
            ui.raw(gojson.dumps(doc) + "\n")
            return 0
        if not outputs:
            ui.diagnostics([warning("No outputs found", NO_OUTPUTS_DETAIL)])
            return 0
        from engine.values.format import format_value

        lines = []
        for name in sorted(outputs):
            ov = outputs[name]
            lines.append(f"{name} = " + ("<sensitive>" if ov.sensitive else format_value(ov.value)))
        ui.raw("\n".join(lines) + "\n")
        return 0
    name = rest[0]
    if not outputs and not as_json:
        ui.diagnostics([warning("No outputs found", NO_OUTPUTS_DETAIL)])
        return 0
    if name not in outputs:
        ui.diagnostics([error(f'Output "{name}" not found', NOT_FOUND_DETAIL)])
        return 1
    value = outputs[name].value
    if as_json:
        ui.raw(gojson.dumps(encode_value(value), indent=None) + "\n")
        return 0
    if raw:
        if value.type not in (STRING, NUMBER, BOOL) or value.is_null:
            kind = "null" if value.is_null else value.type.friendly_name()
            ui.diagnostics(
                [
                    error(
                        "Unsupported value for raw output",
                        "The -raw option only supports strings, numbers, and boolean values, "
                        f'but output value "{name}" is {kind}.\n\n'
                        "Use the -json option for machine-readable representations of output "
                        "values that have complex types.",
                    )
                ]
            )
            return 1
        if value.type == STRING:
            ui.raw(str(value.v))
        elif value.type == BOOL:
            ui.raw("true" if value.v else "false")
        else:
            ui.raw(str(encode_value(value)))
        return 0
    from engine.values.format import format_value

    ui.raw(format_value(value) + "\n")
    return 0
