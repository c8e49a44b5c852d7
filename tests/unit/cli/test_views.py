"""Unit tests of the CLI's progress and JSON views, the graph and providers renderers."""

from __future__ import annotations

import io
import json
import re
import threading
import time

from engine.addrs import Module, parse_abs_resource_instance
from engine.cli.cmd_graph import render_dot
from engine.cli.cmd_providers import normalise_constraint
from engine.cli.hooks_ui import UiHooks, truncate_id
from engine.cli.json_view import JsonHooks, JsonView, change_message, resource_addr
from engine.cli.ui import Ui
from engine.diags import error
from engine.graph.builder_nodes import RESOURCE, Node
from engine.operations.hooks import CountHooks, FanOutHooks
from engine.plans.model import Action, ActionReason, ResourceInstanceChange
from engine.values import NULL_DYNAMIC

A = parse_abs_resource_instance("terraform_data.a")
B1 = parse_abs_resource_instance('module.m.terraform_data.b["k"]')


def ui() -> tuple[Ui, io.StringIO]:
    out = io.StringIO()
    return Ui(stdout=out, stderr=io.StringIO(), color=False), out


def test_truncate_id_keeps_both_ends() -> None:
    assert truncate_id("abc", 80) == "abc"
    long = "x" * 50 + "y" * 50
    cut = truncate_id(long, 20)
    assert len(cut) == 20
    assert cut.startswith("x") and cut.endswith("y") and "..." in cut


def test_ui_hooks_lines_for_create_update_delete_and_provisioners() -> None:
    u, out = ui()
    h = UiHooks(u, clock=lambda: 100.4)  # a fixed clock: every operation took 0 s
    h.pre_refresh(A, "id-1")
    h.pre_apply(A, Action.CREATE, None)
    h.post_apply(A, Action.CREATE, "id-2", 0.1, None)
    h.pre_apply(A, Action.UPDATE, "id-2")
    h.post_apply(A, Action.UPDATE, "id-2", 0.1, None)
    h.pre_apply(A, Action.DELETE, "id-2")
    h.post_apply(A, Action.DELETE, "id-2", 0.1, None)
    h.pre_provision(A, "local-exec")
    h.provision_output(A, "local-exec", "hello  \n\nworld")
    h.pre_apply(B1, Action.CREATE, None)
    h.post_apply(B1, Action.CREATE, None, 0.1, error("boom"))
    assert out.getvalue().splitlines() == [
        "terraform_data.a: Refreshing state... [id=id-1]",
        "terraform_data.a: Creating...",
        "terraform_data.a: Creation complete after 0s [id=id-2]",
        "terraform_data.a: Modifying... [id=id-2]",
        "terraform_data.a: Modifications complete after 0s [id=id-2]",
        "terraform_data.a: Destroying... [id=id-2]",
        "terraform_data.a: Destruction complete after 0s",
        "terraform_data.a: Provisioning with 'local-exec'...",
        "terraform_data.a (local-exec): hello",
        "terraform_data.a (local-exec): world",
        'module.m.terraform_data.b["k"]: Creating...',
    ]


def test_ui_hooks_still_running_lines_until_done() -> None:
    u, out = ui()
    h = UiHooks(u, period=0.05)
    h.pre_apply(A, Action.DELETE, "id-9")
    deadline = time.monotonic() + 5
    while out.getvalue().count("Still destroying") < 2 and time.monotonic() < deadline:
        time.sleep(0.02)
    h.post_apply(A, Action.DELETE, "id-9", 0.2, None)
    time.sleep(0.2)
    lines = out.getvalue().splitlines()
    still = [ln for ln in lines if "Still destroying..." in ln]
    assert len(still) >= 2
    # Start and now are both rounded to whole seconds, as terraform does.
    assert re.fullmatch(r"terraform_data\.a: Still destroying\.\.\. \[id=id-9, [01]s elapsed\]",
                        still[0])
    assert re.fullmatch(r"terraform_data\.a: Destruction complete after [01]s", lines[-1])
    assert not any(t.name == "ui-still-running" and t.is_alive() for t in threading.enumerate())


def test_resource_addr_and_change_message_shapes() -> None:
    assert resource_addr(B1) == {
        "addr": 'module.m.terraform_data.b["k"]', "module": "module.m",
        "resource": 'terraform_data.b["k"]', "implied_provider": "terraform",
        "resource_type": "terraform_data", "resource_name": "b", "resource_key": "k"}
    c = ResourceInstanceChange(addr=A, provider=None, action=Action.DELETE_THEN_CREATE,  # type: ignore[arg-type]
                               before=NULL_DYNAMIC, after=NULL_DYNAMIC,
                               action_reason=ActionReason.REPLACE_BECAUSE_TAINTED)
    msg = change_message(c)
    assert msg["action"] == "replace" and msg["reason"] == "tainted"
    moved = ResourceInstanceChange(addr=A, provider=None, action=Action.NOOP,  # type: ignore[arg-type]
                                   before=NULL_DYNAMIC, after=NULL_DYNAMIC, prev_run_addr=B1)
    assert change_message(moved)["action"] == "move"
    assert change_message(moved)["previous_resource"]["addr"] == str(B1)


def test_json_view_messages_have_hclog_keys_and_order() -> None:
    u, out = ui()
    view = JsonView(u)
    view.version()
    view.change_summary("apply", 1, 2, 3)
    view.change_summary("apply", 0, 0, 4, destroy_mode=True)
    view.diagnostics([error("Bad thing", "detail")])
    hooks = JsonHooks(view)
    hooks.pre_apply(A, Action.CREATE, None)
    hooks.post_apply(A, Action.CREATE, "x1", 0.0, None)
    hooks.provision_output(A, "local-exec", "hi")
    msgs = [json.loads(line) for line in out.getvalue().splitlines()]
    for m in msgs:
        assert list(m)[:4] == ["@level", "@message", "@module", "@timestamp"]
        assert list(m) == sorted(m)
        assert m["@timestamp"].endswith("Z") or m["@timestamp"][-6] in "+-"
    assert msgs[0]["type"] == "version" and msgs[0]["ui"] == "1.2"
    assert msgs[1]["@message"] == "Apply complete! Resources: 1 added, 2 changed, 3 destroyed."
    assert msgs[2]["@message"] == "Destroy complete! Resources: 4 destroyed."
    assert msgs[3]["@level"] == "error" and msgs[3]["@message"] == "Error: Bad thing"
    assert msgs[4]["type"] == "apply_start" and msgs[4]["hook"]["action"] == "create"
    assert msgs[5]["hook"]["id_value"] == "x1" and msgs[5]["hook"]["elapsed_seconds"] == 0
    assert msgs[5]["@message"] == "terraform_data.a: Creation complete after 0s [id=x1]"
    assert msgs[6]["@message"] == "terraform_data.a: (local-exec): hi"


def test_count_hooks_through_fan_out() -> None:
    count = CountHooks()
    fan = FanOutHooks(count)
    fan.post_apply(A, Action.CREATE, "1", 0, None)
    fan.post_apply(A, Action.DELETE_THEN_CREATE, "1", 0, None)
    fan.post_apply(A, Action.UPDATE, "1", 0, None)
    fan.post_apply(A, Action.DELETE, None, 0, None)
    fan.post_apply(A, Action.CREATE, None, 0, error("failed"))
    assert (count.counts.added, count.counts.changed, count.counts.removed) == (2, 1, 1)


def test_render_dot_reduces_transitive_edges_and_clusters_modules() -> None:
    a = Node(RESOURCE, Module(), "terraform_data.a")
    b = Node(RESOURCE, Module(), "terraform_data.b")
    d = Node(RESOURCE, Module(), "data.terraform_remote_state.r")
    m = Node(RESOURCE, Module(("m",)), "terraform_data.x")
    text = render_dot({a: set(), b: {a}, m: {a, b}, d: set()})
    assert text.splitlines() == [
        "digraph G {",
        '  rankdir = "RL";',
        '  node [shape = rect, fontname = "sans-serif"];',
        '  "data.terraform_remote_state.r" [label="data.terraform_remote_state.r"];',
        '  "terraform_data.a" [label="terraform_data.a"];',
        '  "terraform_data.b" [label="terraform_data.b"];',
        '  subgraph "cluster_module.m" {',
        '    label = "module.m"',
        '    fontname = "sans-serif"',
        '    "module.m.terraform_data.x" [label="terraform_data.x"];',
        "  }",
        '  "terraform_data.b" -> "terraform_data.a";',
        '  "module.m.terraform_data.x" -> "terraform_data.b";',
        "}",
    ]


def test_normalise_constraint_like_terraform() -> None:
    assert normalise_constraint(">= 3.0, < 4.0") == ">= 3.0.0, < 4.0.0"
    assert normalise_constraint("~> 3.0") == "~> 3.0"
    assert normalise_constraint("2") == "2.0.0"
    assert normalise_constraint("1.2.3-beta") == "1.2.3-beta"
