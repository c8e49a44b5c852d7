"""The human-readable plan, as `terraform show PLANFILE` prints it without colour.

`render_plan(plan, schemas)` lays out, as terraform's jsonformat does: the drift section
("Note: Objects have changed outside of Terraform") when there is drift to report, the legend
of the action symbols present, one block per resource change (comment lines naming the action
and its reason, then `<symbol> resource "type" "name" {` with the attribute diff), the
`Plan: X to add, Y to change, Z to destroy.` summary (with imports and forgets when any),
"Changes to Outputs:", or the "No changes." texts. Diffs are computed from the JSON plan
representation of each change (engine.plans.render_json), so both views always agree.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from typing import Any

from engine.addrs import ResourceMode
from engine.hcl.gcpause import paused_cyclic_gc
from engine.plans.diff import CREATE, NOOP, Diff, diff_block, diff_output
from engine.plans.diff_change import Change
from engine.plans.diff_schemas import Schemas, resource_schema
from engine.plans.model import Action, Plan, PlanMode, ResourceInstanceChange
from engine.plans.render_human_values import SYMBOLS, Opts, attribute_name, render
from engine.plans.render_json import change_json, output_change_json
from engine.plans.render_json_values import path_json
from engine.plugin.schema import Block
from engine.values.json import dumps, json_copy

WIDTH = 77

_DESCRIPTIONS = [
    (Action.CREATE, "  + create"),
    (Action.UPDATE, "  ~ update in-place"),
    (Action.DELETE, "  - destroy"),
    (Action.DELETE_THEN_CREATE, "-/+ destroy and then create replacement"),
    (Action.CREATE_THEN_DELETE, "+/- create replacement and then destroy"),
    (Action.READ, " <= read (data resources)"),
]

_TOP_SYMBOLS = {
    Action.NOOP: "   ",
    Action.CREATE: "  +",
    Action.READ: " <=",
    Action.UPDATE: "  ~",
    Action.DELETE: "  -",
    Action.DELETE_THEN_CREATE: "-/+",
    Action.CREATE_THEN_DELETE: "+/-",
    Action.FORGET: " .",
}


def word_wrap(text: str, width: int = WIDTH) -> str:
    """terraform's format.WordWrap: wrap each line at spaces, keeping leading indentation."""
    out = []
    for line in text.split("\n"):
        if len(line) <= width:
            out.append(line)
            continue
        words = line.split(" ")
        cur = ""
        for w in words:
            if cur and len(cur) + 1 + len(w) > width:
                out.append(cur)
                cur = w
            else:
                cur = f"{cur} {w}" if cur else w
        out.append(cur)
    return "\n".join(out)


def _round_trip(data: Any) -> Any:
    """The JSON plan data as read back from its text (`loads(dumps(data))`)."""
    return json_copy(data)


def _block_of(schemas: Schemas, c: ResourceInstanceChange) -> Block:
    schema = resource_schema(schemas, c.provider.provider, c.addr.resource.mode,
                             c.addr.resource.type)
    return schema.block if schema is not None else Block()


def resource_diff(
    c: ResourceInstanceChange, schemas: Schemas, relevant: list[tuple[Any, ...]] | None = None
) -> Diff:
    """The attribute diff of one resource change (`relevant`: limit to these paths)."""
    block = _block_of(schemas, c)
    cj = _round_trip(change_json(c, block))
    change = Change(
        before=cj.get("before"),
        after=cj.get("after"),
        unknown=cj.get("after_unknown", False),
        before_sensitive=cj.get("before_sensitive", False),
        after_sensitive=cj.get("after_sensitive", False),
        replace_paths=tuple(tuple(p) for p in cj.get("replace_paths", [])),
        relevant=None if relevant is None else tuple(relevant),
        before_explicit="before" in cj,
        after_explicit="after" in cj,
    )
    return diff_block(change, block)


def _comment(c: ResourceInstanceChange, cause: str) -> str:
    addr = str(c.addr)
    disp = f"{addr} (deposed object {c.deposed_key})" if c.deposed_key else addr
    a = c.action
    lines: list[str] = []
    moved_printed = imported_printed = False
    reason = c.action_reason.value if c.action_reason else ""
    if a is Action.CREATE:
        lines.append(f"  # {disp} will be created")
    elif a is Action.READ:
        lines.append(f"  # {disp} will be read during apply")
        extra = {
            "read_because_config_unknown": "  # (config refers to values not yet known)",
            "read_because_dependency_pending":
                "  # (depends on a resource or a module with changes pending)",
            "read_because_check_nested": "  # (config will be reloaded to verify a check block)",
        }.get(reason)
        if extra:
            lines.append(extra)
    elif a is Action.UPDATE:
        lines.append(f"  # {disp} will be updated in-place" if cause == "change"
                     else f"  # {disp} has changed")
    elif a.is_replace:
        lines.append({
            "replace_because_tainted": f"  # {disp} is tainted, so must be replaced",
            "replace_by_request": f"  # {disp} will be replaced, as requested",
            "replace_by_triggers":
                f"  # {disp} will be replaced due to changes in replace_triggered_by",
        }.get(reason, f"  # {disp} must be replaced"))
    elif a is Action.FORGET:
        if c.deposed_key:
            lines.append(f" # {disp} will be removed from groundplan state, but will not be destroyed")
            lines.append(" # (left over from a partially-failed replacement of this instance)")
        else:
            lines.append(f" # {disp} will no longer be managed by groundplan, but will not be destroyed")
        lines.append(" # (destroy = false is set in the configuration)")
    elif a is Action.DELETE:
        lines.append(f"  # {disp} will be destroyed" if cause == "change"
                     else f"  # {disp} has been deleted")
        r = c.addr.resource
        key = c.addr.key
        if reason == "delete_because_no_resource_config":
            lines.append(f"  # (because {r.type}.{r.name} is not in configuration)")
        elif reason == "delete_because_no_move_target":
            lines.append(f"  # (because {c.prev_run_addr} was moved to {addr}, which is not in "
                         "configuration)")
        elif reason == "delete_because_no_module":
            lines.append(f"  # (because {c.addr.module} is not in configuration)")
        elif reason == "delete_because_wrong_repetition":
            lines.append("  # (because resource uses count or for_each)" if key is None else
                         "  # (because resource does not use count)" if isinstance(key, int) else
                         "  # (because resource does not use for_each)")
        elif reason == "delete_because_count_index":
            lines.append(f"  # (because index [{key}] is out of range for count)")
        elif reason == "delete_because_each_key":
            lines.append(f"  # (because key [{dumps(key)}] is not in for_each map)")
        if c.deposed_key:
            lines.append("  # (left over from a partially-failed replacement of this instance)")
    elif a is Action.NOOP:
        if c.moved:
            lines.append(f"  # {c.prev_run_addr} has moved to {disp}")
            moved_printed = True
        elif c.importing is not None:
            lines.append(f"  # {disp} will be imported")
            if c.generated_config:
                lines.append("  # (config will be generated)")
            imported_printed = True
    if c.moved and not moved_printed:
        lines.append(f"  # (moved from {c.prev_run_addr})")
    if c.importing is not None and not imported_printed:
        lines.append(f'  # (imported from "{c.importing.id}")' if c.importing.id
                     else "  # (will be imported first)")
    if c.importing is not None and a.is_replace:
        lines.append("  # Warning: this will destroy the imported resource")
    return "\n".join(lines) + "\n"


def _render_resource(c: ResourceInstanceChange, d: Diff, cause: str) -> str:
    mode = "resource" if c.addr.resource.mode is ResourceMode.MANAGED else "data"
    r = c.addr.resource
    opts = Opts(show_unchanged_children=c.importing is not None)
    return (f"{_comment(c, cause)}{_TOP_SYMBOLS[c.action]} {mode} \"{r.type}\" \"{r.name}\" "
            f"{render(d, 0, opts)}")


def _outputs(plan: Plan) -> str:
    diffs: dict[str, Diff] = {}
    for o in plan.output_changes:
        oj = _round_trip(output_change_json(o))
        diffs[o.name] = diff_output(Change(
            before=oj.get("before"), after=oj.get("after"), unknown=oj.get("after_unknown"),
            before_sensitive=oj.get("before_sensitive"), after_sensitive=oj.get("after_sensitive"),
            before_explicit="before" in oj and o.action is not Action.CREATE,
            after_explicit="after" in oj and o.action is not Action.DELETE,
        ))
    if not diffs:
        return ""
    width = max(len(attribute_name(k)) for k in diffs)
    lines = []
    for k in sorted(diffs):
        d = diffs[k]
        if d.action != NOOP:
            lines.append(f"{SYMBOLS[d.action]} {attribute_name(k):<{width}} = {render(d, 0, Opts())}")
    return "\n".join(lines)


def _sorted(changes: Iterable[ResourceInstanceChange]) -> list[ResourceInstanceChange]:
    return sorted(changes, key=lambda c: (c.addr.sort_key(), c.deposed_key or ""))


def _drift_section(
    plan: Plan, schemas: Schemas, relevant: dict[str, list[tuple[Any, ...]]], empty: bool
) -> str:
    refresh_only = plan.mode is PlanMode.REFRESH_ONLY
    shown: list[tuple[ResourceInstanceChange, Diff]] = []
    for c in _sorted(plan.drift):
        rel = None if refresh_only else relevant.get(str(c.addr), [])
        d = resource_diff(c, schemas, rel)
        if refresh_only or d.action != NOOP:
            shown.append((c, d))
    if not shown or (empty and not refresh_only):
        return ""
    out = ["\nNote: Objects have changed outside of groundplan\n\n"]
    out.append(word_wrap("groundplan detected the following changes made outside of groundplan "
                         'since the last "groundplan apply" which may have affected this plan:\n'))
    for c, d in shown:
        if c.action is Action.NOOP and not c.moved:
            continue
        out.append("\n" + _render_resource(c, d, "drift") + "\n")
    if refresh_only:
        out.append(word_wrap(
            "\n\nThis is a refresh-only plan, so groundplan will not take any actions to undo "
            "these. If you were expecting these changes then you can apply this plan to record "
            "the updated values in the groundplan state without changing any remote objects.") + "\n")
    else:
        out.append(word_wrap(
            "\n\nUnless you have made equivalent changes to your configuration, or ignored the "
            "relevant attributes using ignore_changes, the following plan may include actions "
            "to undo or respond to these changes.") + "\n")
    return "".join(out)


def render_plan(
    plan: Plan,
    schemas: Schemas,
    relevant_attributes: Iterable[tuple[Any, Any]] = (),
) -> str:
    """The plan as `terraform show PLANFILE -no-color` prints it. The cyclic garbage collector
    is paused meanwhile (engine.hcl.gcpause): the diff trees are acyclic and freed by
    reference counting, and its passes over the whole plan cost ~30% of the rendering."""
    with paused_cyclic_gc():
        return _render_plan(plan, schemas, relevant_attributes)


def _render_plan(
    plan: Plan,
    schemas: Schemas,
    relevant_attributes: Iterable[tuple[Any, Any]],
) -> str:
    relevant: dict[str, list[tuple[Any, ...]]] = {}
    for res, path in relevant_attributes:
        relevant.setdefault(str(res), []).append(tuple(path_json(path)))
    changes: list[tuple[ResourceInstanceChange, Diff]] = []
    counts: dict[Action, int] = {}
    importing = 0
    for c in _sorted(plan.changes):
        if c.action is Action.NOOP and not c.moved and c.importing is None:
            continue
        if c.action is Action.DELETE and c.addr.resource.mode is not ResourceMode.MANAGED:
            continue
        # a forgotten object's body is shown unchanged, as terraform 1.11 does
        shown = dataclasses.replace(c, after=c.before) if c.action is Action.FORGET else c
        changes.append((c, resource_diff(shown, schemas)))
        if c.importing is not None:
            importing += 1
        if c.action is not Action.NOOP:
            counts[c.action] = counts.get(c.action, 0) + 1
    outputs = _outputs(plan)
    empty = not changes and not outputs
    out: list[str] = []
    drift = _drift_section(plan, schemas, relevant, empty)
    out.append(drift)
    if empty:
        if plan.errored:
            if drift:
                out.append("─" * (WIDTH + 1) + "\n")
            out.append("\nPlanning failed. groundplan encountered an error while generating "
                       "this plan.\n\n")
        elif plan.mode is PlanMode.REFRESH_ONLY:
            if drift:
                return "".join(out)
            out.append("\nNo changes. Your infrastructure still matches the configuration.\n\n")
            out.append(word_wrap(
                "groundplan has checked that the real remote objects still match the result of "
                "your most recent changes, and found no differences.") + "\n")
        elif plan.mode is PlanMode.DESTROY:
            if drift:
                out.append("─" * (WIDTH + 1) + "\n")
            out.append("\nNo changes. No objects need to be destroyed.\n\n")
            out.append(word_wrap(
                "Either you have not created any objects yet or the existing objects were "
                "already deleted outside of groundplan.") + "\n")
        else:
            if drift:
                out.append("─" * (WIDTH + 1) + "\n\n")
            out.append("\nNo changes. Your infrastructure matches the configuration.\n\n")
            if drift:
                out.append(word_wrap(
                    "Your configuration already matches the changes detected above. If you'd "
                    "like to update the groundplan state to match, create and apply a "
                    "refresh-only plan:\n  groundplan apply -refresh-only") + "\n")
                return "".join(out)
            out.append(word_wrap(
                "groundplan has compared your real infrastructure against your configuration "
                "and found no differences, so no changes are needed.") + "\n")
    if drift:
        out.append("─" * (WIDTH + 1) + "\n\n")
    if counts:
        out.append(word_wrap(
            "\ngroundplan used the selected providers to generate the following execution plan. "
            "Resource actions are indicated with the following symbols:") + "\n")
        for action, text in _DESCRIPTIONS:
            if counts.get(action):
                out.append(text + "\n")
    if changes:
        out.append("\ngroundplan planned the following actions, but then encountered a problem:\n"
                   if plan.errored else "\ngroundplan will perform the following actions:\n")
        for c, d in changes:
            out.append("\n" + _render_resource(c, d, "change") + "\n")
        add = sum(counts.get(a, 0) for a in (Action.CREATE, Action.DELETE_THEN_CREATE,
                                             Action.CREATE_THEN_DELETE))
        destroy = sum(counts.get(a, 0) for a in (Action.DELETE, Action.DELETE_THEN_CREATE,
                                                 Action.CREATE_THEN_DELETE))
        summary = "\nPlan: "
        if importing:
            summary += f"{importing} to import, "
        # terraform 1.11 does not count forgotten objects in this line
        summary += f"{add} to add, {counts.get(Action.UPDATE, 0)} to change, {destroy} to destroy.\n"
        out.append(summary)
    if outputs:
        out.append("\nChanges to Outputs:\n" + outputs + "\n")
        if not counts:
            out.append(word_wrap(
                "\nYou can apply this plan to save these new output values to the groundplan "
                "state, without changing any real infrastructure.") + "\n")
    return "".join(out)


__all__ = ["CREATE", "render_plan", "resource_diff", "word_wrap"]
