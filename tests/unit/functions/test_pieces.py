"""The control plane's pieces on their own: Slack signatures, configuration tarballs, plan
redaction, the fan-out's order and release rule, run transitions and workspace locks (moto's
DynamoDB through pynamodb)."""

from __future__ import annotations

import io
import tarfile
from collections.abc import Iterator
from typing import Any

import pytest
from moto import mock_aws

from functions.common import archive, fanout, locks, redact, slack
from functions.common.errors import Conflict, Unauthorized, Unprocessable


def test_signature_verification_refuses_what_slack_would_not_send() -> None:
    body = b"payload=%7B%22a%22%3A1%7D"
    good = slack.sign("secret", "1000", body)
    slack.verify("secret", "1000", good, body, now=1000)
    slack.verify("secret", "1000", good, body, now=1300)  # 300 s is still fine
    cases = [
        (("secret", "1000", good, body), {"now": 1301}, "signature_expired"),
        (("secret", "1000", good, body + b"x"), {"now": 1000}, "signature_invalid"),
        (("other", "1000", good, body), {"now": 1000}, "signature_invalid"),
        (("secret", None, good, body), {"now": 1000}, "signature_missing"),
        (("secret", "abc", good, body), {"now": 1000}, "signature_invalid"),
        (("secret", "1000", good, body), {"now": 1000, "seen": lambda s: True},
         "signature_replayed"),
    ]
    for args, kw, code in cases:
        with pytest.raises(Unauthorized) as exc:
            slack.verify(*args, **kw)  # type: ignore[arg-type]
        assert exc.value.code == code


def _tar(members: dict[str, bytes], link: tuple[str, str] | None = None) -> bytes:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tar:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
        if link:
            info = tarfile.TarInfo(link[0])
            info.type = tarfile.SYMTYPE
            info.linkname = link[1]
            tar.addfile(info)
    return buf.getvalue()


def test_configuration_versions_unpack_only_inside_and_within_limits(tmp_path) -> None:  # type: ignore[no-untyped-def]
    names = archive.unpack(_tar({"main.tf": b"x", "modules/a/main.tf": b"y"}),
                           str(tmp_path / "ok"), 1000)
    assert sorted(names) == ["main.tf", "modules/a/main.tf"]
    assert (tmp_path / "ok" / "modules" / "a" / "main.tf").read_bytes() == b"y"
    bad = {
        "escape": _tar({"../evil.tf": b"x"}),
        "absolute": _tar({"/etc/evil.tf": b"x"}),
        "link": _tar({"main.tf": b"x"}, ("pw", "/etc/passwd")),
        "size": _tar({"main.tf": b"x" * 2000}),
        "garbage": b"not a tarball",
    }
    for label, data in bad.items():
        target = tmp_path / label
        with pytest.raises(Unprocessable) as exc:
            archive.unpack(data, str(target), 1000)
        assert exc.value.code == "invalid_configuration_version"
        assert not target.exists(), f"{label}: nothing may be written"
    assert not (tmp_path / "evil.tf").exists()


def test_plan_redaction_follows_terraforms_masks() -> None:
    doc = {
        "variables": {"password": {"value": "hunter2"}, "region": {"value": "eu"}},
        "configuration": {"root_module": {"variables": {"password": {"sensitive": True},
                                                        "region": {}}}},
        "planned_values": {"outputs": {"pw": {"sensitive": True, "value": "hunter2"}},
                           "root_module": {"resources": [{
                               "values": {"a": "hunter2", "b": "ok", "l": ["x", "hunter2"]},
                               "sensitive_values": {"a": True, "l": [False, True]}}]}},
        "resource_changes": [{"change": {
            "before": None, "after": {"a": "hunter2", "n": {"k": "hunter2"}},
            "after_sensitive": {"a": True, "n": {"k": True}}, "before_sensitive": False}}],
        "output_changes": {"pw": {"after": "hunter2", "after_sensitive": True}},
    }
    out = redact.redact_plan(doc)
    assert "hunter2" not in str(out)
    assert out["variables"]["region"]["value"] == "eu"
    res = out["planned_values"]["root_module"]["resources"][0]["values"]
    assert res == {"a": "(sensitive value)", "b": "ok", "l": ["x", "(sensitive value)"]}
    assert "hunter2" in str(doc), "the input is not modified"
    assert redact.scrub("token=abcd1234 and abcd1234", ["abcd1234", "ab"]) == (
        "token=(redacted) and (redacted)")


def test_fanout_order_puts_every_node_after_its_dependencies() -> None:
    graph = {"c": ["a", "b"], "b": ["a"], "a": [], "d": [], "e": ["d", "c"]}
    order = fanout.topological(graph)
    assert order == ["a", "b", "c", "d", "e"]
    with pytest.raises(ValueError, match="cycle"):
        fanout.topological({"x": ["y"], "y": ["x"]})


def test_fanout_order_takes_roots_first_and_the_longest_chain_after_a_node_first() -> None:
    graph = {"c": ["a", "b"], "b": ["a"], "a": [], "d": [], "e": ["d", "c"], "f": ["d"]}
    # the roots a (a-b-c-e after it) and d (d-e); then b (b-c-e), c (c-e), then f (level 1)
    # before e (level 3), both with nothing after them
    order = fanout.schedule(graph)
    assert order == ["a", "d", "b", "c", "f", "e"]
    for node, deps in graph.items():
        assert all(order.index(d) < order.index(node) for d in deps)


def test_fanout_releases_a_node_on_its_direct_dependencies_only() -> None:
    # the engine lists every node waited for, directly or not
    graph = {"a": [], "b": ["a"], "c": ["a", "b"], "d": [], "e": ["a", "b", "c", "d"],
             "f": ["a", "d"]}
    assert fanout.direct(graph) == {"a": [], "b": ["a"], "c": ["b"], "d": [],
                                    "e": ["c", "d"], "f": ["a", "d"]}


@pytest.fixture()
def tables(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    from functions.common.models import MODELS, bind_models

    monkeypatch.delenv("AWS_ENDPOINT_URL", raising=False)  # (a local cloud's, see moto_speedups)
    with mock_aws():
        bind_models()
        for model in MODELS:
            model.create_table(billing_mode="PAY_PER_REQUEST", wait=True)
        yield


def test_locks_allow_one_run_per_workspace_and_lineage(tables: None) -> None:
    from functions.common.clock import now_iso
    from functions.common.models import Run

    Run("run-1", workspace="w", operation="apply", status="planning", configuration_version="cv",
        created_by="ci", created_at=now_iso(), updated_at=now_iso()).save()
    locks.acquire("w", "lin-1", "run-1", "ci")
    with pytest.raises(Conflict) as exc:
        locks.acquire("w", None, "run-2", "someone")
    assert exc.value.details["active_run"] == "run-1"
    assert "run-1 (planning), started by ci" in exc.value.message
    with pytest.raises(Conflict):  # another workspace on the same state lineage
        locks.acquire("w2", "lin-1", "run-3", "someone")
    assert locks.holder("w2") is None, "a refused acquire keeps nothing"
    locks.release("w", "lin-1", "run-2")  # not the holder: nothing happens
    assert locks.holder("w") == "run-1"
    locks.release("w", "lin-1", "run-1")
    locks.acquire("w2", "lin-1", "run-3", "someone")


def test_run_transitions_follow_the_state_diagram(tables: None) -> None:
    from functions.common import runs
    from functions.common.clock import now_iso
    from functions.common.models import Run

    run = Run("run-9", workspace="w", operation="apply", status="pending",
              configuration_version="cv", created_by="ci", created_at=now_iso(),
              updated_at=now_iso())
    run.save()
    runs.transition(run, "planning", "groundplan")
    with pytest.raises(Conflict) as exc:
        runs.transition(run, "applied", "groundplan")
    assert exc.value.code == "illegal_transition"
    stale = runs.get_run("run-9")
    runs.transition(run, "planned", "groundplan", plan_digest="abc")
    with pytest.raises(Conflict):  # lost the race: the item moved on meanwhile
        runs.transition(stale, "errored", "groundplan")
    fresh = runs.get_run("run-9")
    assert fresh.status == "planned" and fresh.plan_digest == "abc"
    assert [t.status for t in fresh.history] == ["planning", "planned"]


def test_asynchronous_invocations_retry_then_reach_the_failure_destination() -> None:
    from functions.local.lambdas import Dispatcher

    d = Dispatcher("t")
    calls: list[tuple[str, dict[str, Any]]] = []

    def invoke(function_name: str, payload: dict[str, Any]) -> tuple[Any, str | None]:
        calls.append((function_name, payload))
        if payload.get("fail"):
            return {"errorType": "Boom", "errorMessage": "it broke"}, "Boom"
        return {"ok": True}, None

    d.invoke = invoke  # type: ignore[method-assign]
    d.configure("apply_node", 2, on_failure="finalize")
    d.invoke_async("arn:aws:lambda:us-east-1:1:function:t-apply-node", {"n": 1})
    d.invoke_async("t-apply-node", {"fail": True})
    d.close(drop_queued=False)
    assert calls.count(("t-apply-node", {"n": 1})) == 1
    assert calls.count(("t-apply-node", {"fail": True})) == 3  # the first try and two retries
    record = next(p for name, p in calls if name == "t-finalize")
    assert record["requestPayload"] == {"fail": True}
    assert record["requestContext"]["condition"] == "RetriesExhausted"
    assert record["responsePayload"] == {"errorType": "Boom", "errorMessage": "it broke"}


def test_a_lock_left_by_a_run_that_ended_is_taken_over(tables: None) -> None:
    from functions.common.clock import now_iso
    from functions.common.models import Run

    run = Run("run-1", workspace="w", operation="apply", status="applying",
              configuration_version="cv", created_by="ci", created_at=now_iso(),
              updated_at=now_iso())
    run.save()
    locks.acquire("w", "lin-1", "run-1", "ci")
    with pytest.raises(Conflict):  # still applying
        locks.acquire("w", "lin-1", "run-2", "someone")
    run.update(actions=[Run.status.set("discarded")])  # its final status, lock not yet released
    locks.acquire("w", "lin-1", "run-2", "someone")
    assert locks.holder("w") == "run-2"
    with pytest.raises(Conflict) as exc:  # run-2 has no run item yet: not ended
        locks.acquire("w", None, "run-3", "someone")
    assert exc.value.details["active_run"] == "run-2"
