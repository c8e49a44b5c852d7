"""The plan/apply core for configurations without resources.

`prepare` loads the configuration, collects the root input values, reads the local state
and evaluates the root outputs; the result knows which outputs change. Rendering the plan
and the apply summary lives here too, since `plan` and `apply` print the same texts.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.cli.diffrender import UNKNOWN
from engine.cli.meta import Meta
from engine.cli.plan_view import OutputDiff, has_changes, render_output_changes
from engine.core import OutputResult, evaluate_root
from engine.diags import Diagnostics, error
from engine.operations.validate import check_config, unique
from engine.states import LocalState, OutputValue, State, StateFile
from engine.states.codec import encode_value
from engine.values import Value

SEPARATOR = "─" * 77

APPLY_HINT = (
    "You can apply this plan to save these new output values to the Terraform\n"
    "state, without changing any real infrastructure."
)
NO_CHANGES_HEAD = (
    "\n[reset][bold][green]No changes.[reset][bold] Your infrastructure matches the "
    "configuration.[reset]\n\n"
)
NO_CHANGES = (
    "Terraform has compared your real infrastructure against your configuration\n"
    "and found no differences, so no changes are needed."
)
NO_OUT_NOTE = (
    "\nNote: You didn't use the -out option to save this plan, so Terraform can't\n"
    'guarantee to take exactly these actions if you run "terraform apply" now.'
)

VALIDATION_FAILED = "Invalid value for variable"

# Errors found while evaluating (not while loading): Terraform still shows the partial plan.
_PLAN_TIME_ERRORS = frozenset(
    {
        VALIDATION_FAILED,
        "Invalid value for input variable",
        "Module output value precondition failed",
    }
)


@dataclass(slots=True)
class Prepared:
    """A planned run: what the outputs were, what they will be, and what went wrong."""

    state: LocalState
    prior: StateFile | None
    config: Any = None
    values: dict[str, Value] = field(default_factory=dict)
    cwd: str = "."
    results: dict[str, OutputResult] = field(default_factory=dict)
    diffs: list[OutputDiff] = field(default_factory=list)
    diags: Diagnostics = field(default_factory=Diagnostics)

    @property
    def changed(self) -> bool:
        return has_changes(self.diffs)

    def show_partial_plan(self) -> bool:
        """Whether, despite errors, the plan so far is worth printing."""
        return all(d.summary in _PLAN_TIME_ERRORS for d in self.diags.errors)


def _json_of(value: Value) -> Any:
    """JSON data for the plan renderer; parts known only after apply become UNKNOWN."""
    plain, _ = value.unmark_deep()
    if not plain.is_known:
        return UNKNOWN
    if plain.is_null:
        return None
    if plain.is_wholly_known():
        return encode_value(plain)
    if isinstance(plain.v, dict):
        return {k: _json_of(e) for k, e in plain.v.items()}
    return [_json_of(e) for e in plain.v]


NO_CONFIG_DETAIL = {
    "plan": (
        "Plan requires configuration to be present. Planning without a configuration would "
        "mark everything for destruction, which is normally not what is desired. If you would "
        "like to destroy everything, run plan with the -destroy option. Otherwise, create a "
        "Terraform configuration file (.tf file) and try again."
    ),
    "apply": (
        "Apply requires configuration to be present. Applying without a configuration would "
        "mark everything for destruction, which is normally not what is desired. If you would "
        "like to destroy everything, run 'terraform destroy' instead."
    ),
}


def _resources_anywhere(config: Any) -> str:
    """The first resource declared anywhere in the module tree ("" when there is none)."""
    mod = config.module
    for kind in ("managed_resources", "data_resources", "ephemeral_resources"):
        found = getattr(mod, kind, {}) or {}
        if found:
            first = next(iter(found))
            where = f"{config.path_str}." if getattr(config, "path_str", "") else ""
            return f"{where}{first}"
    for child in (getattr(config, "children", {}) or {}).values():
        found_child = _resources_anywhere(child)
        if found_child:
            return found_child
    return ""


def prepare(
    meta: Meta,
    ordered_vars: list[tuple[str, str]],
    command: str = "plan",
    prompt: bool = False,
    state: LocalState | None = None,
) -> Prepared | None:
    """Load, collect variables, read state, evaluate; None (errors printed) if loading fails."""
    config, diags = meta.load_config()
    if diags.has_errors or config is None:
        meta.ui.diagnostics(diags)
        return None
    if not config.module.files:
        meta.ui.diagnostics([error("No configuration files", NO_CONFIG_DETAIL[command])])
        return None
    unsupported = _resources_anywhere(config)
    if unsupported:
        meta.ui.diagnostics(
            [
                error(
                    "Resources are not supported yet",
                    f"This configuration declares {unsupported}. This version of groundplan "
                    "plans and applies configurations without resources only.",
                )
            ]
        )
        return None
    values, more = meta.collect_variables(config, ordered_vars, prompt)
    # Validation rules are checked (and reported, with the values involved) by the module
    # evaluation below; a failure there still shows the partial plan, as in Terraform.
    diags.extend(d for d in more if d.summary != VALIDATION_FAILED)
    if any(d.summary not in _PLAN_TIME_ERRORS for d in diags.errors):
        # Values that cannot even be read stop here, before any value is checked.
        meta.ui.diagnostics(
            d for d in diags if not d.is_error or d.summary not in _PLAN_TIME_ERRORS
        )
        return None
    # As Terraform, validate first (inputs unknown): static problems stop here.
    more = check_config(config, meta.cwd)
    diags.extend(more)
    if more.has_errors:
        meta.ui.diagnostics(diags)
        return None
    if state is None:
        state = meta.local_state()
    prior, more = state.read()
    diags.extend(more)
    if prior is not None and prior.state.resources:
        diags.append(
            error(
                "Resources are not supported yet",
                "The state records resources ("
                + ", ".join(r.address for r in prior.state.resources)
                + "); this version of groundplan plans and applies states without resources "
                "only.",
            )
        )
    if any(d.summary not in _PLAN_TIME_ERRORS for d in diags.errors):
        meta.ui.diagnostics(diags)
        return None
    results, more = evaluate_root(config, values, meta.cwd, plan_phase=True)
    diags.extend(more)
    if diags.has_errors:
        # Outputs that depend on a failed input are left out of the errored plan, not shown
        # as "(known after apply)".
        results = {k: r for k, r in results.items() if r.value.is_wholly_known()}
    prep = Prepared(state, prior, config, values, meta.cwd, results, diags=unique(diags))
    before = prior.state.outputs if prior is not None else {}
    names = set(before) | set(results) | set(config.module.outputs)
    for name in sorted(names):
        in_config = name in config.module.outputs
        if in_config and name not in results:
            continue  # failed to evaluate: reported as an error, not as a change
        d = OutputDiff(name)
        if name in before:
            d.before = _json_of(before[name].value)
            d.before_sensitive = before[name].sensitive
        if name in results:
            d.after = _json_of(results[name].value)
            d.after_sensitive = results[name].sensitive
        d.__post_init__()
        prep.diffs.append(d)
    return prep


def _show_changes(meta: Meta, prep: Prepared) -> None:
    meta.ui.raw("\n" + render_output_changes(prep.diffs, meta.ui.color) + "\n" + APPLY_HINT + "\n")


def render_plan(meta: Meta, prep: Prepared, closing_note: bool) -> None:
    """The plan as Terraform prints it: changes (or "No changes."), then the hint texts."""
    ui = meta.ui
    if prep.diags.has_errors:
        if prep.show_partial_plan() and prep.changed:
            _show_changes(meta, prep)
        ui.diagnostics(prep.diags)
        return
    if not prep.changed:
        ui.out(NO_CHANGES_HEAD, newline=False)
        ui.out(NO_CHANGES)
        ui.diagnostics(prep.diags)
        return
    _show_changes(meta, prep)
    ui.diagnostics(prep.diags)
    if closing_note and not meta.in_automation:
        ui.out("[dark_gray]\n" + SEPARATOR)
        ui.out(NO_OUT_NOTE)


def final_outputs(prep: Prepared) -> tuple[dict[str, OutputResult], Diagnostics]:
    """The outputs' values at apply time: what the plan knew, evaluated again when some of
    it was known only after apply (impure functions such as `timestamp()`)."""
    if all(r.value.is_wholly_known() for r in prep.results.values()):
        return prep.results, Diagnostics()
    return evaluate_root(prep.config, prep.values, prep.cwd)


def new_state(prep: Prepared, results: dict[str, OutputResult]) -> State:
    """The state after applying: the evaluated root outputs (null ones are not stored)."""
    prior = prep.prior.state if prep.prior is not None else State()
    outputs: dict[str, OutputValue] = {}
    for name, res in sorted(results.items()):
        plain, _ = res.value.unmark_deep()
        if plain.is_null:
            continue
        outputs[name] = OutputValue(plain, res.sensitive)
    return State(outputs=outputs, resources=prior.resources, check_results=prior.check_results)


def render_apply_summary(meta: Meta, outputs: dict[str, OutputValue]) -> None:
    """"Apply complete!" and the "Outputs:" list."""
    from engine.values.format import format_value

    ui = meta.ui
    ui.out(
        "[reset][bold][green]\nApply complete! Resources: 0 added, 0 changed, 0 destroyed.\n",
        newline=False,
    )
    if not outputs:
        return
    ui.out("[reset][bold][green]\nOutputs:\n\n", newline=False)
    lines = []
    for name in sorted(outputs):
        ov = outputs[name]
        text = "<sensitive>" if ov.sensitive else format_value(ov.value)
        lines.append(f"{name} = {text}")
    ui.raw("\n".join(lines) + "\n")
