"""The apply half of a run: checks before the fan-out, one node, and the final state.

- `prepare_fanout`: the approved digest must be the plan's, and the workspace's state must
  still be the one the plan was made from (serial and lineage), else the apply is refused;
  then the plan's graph (engine.operations.apply_graph) becomes the run's nodes.
- `apply_one`: engine.operations.apply_node for one node, with the results of the nodes it
  waits for; the result (small: the node's state delta) is stored, sealed, with the node's
  outcome (functions.common.fanout).
- `final_state`: engine.operations.finalize_apply over every applied node's result, written
  to the workspace's state over the version read (If-Match).

Provider processes are kept per run in module scope while the function is warm."""

from __future__ import annotations

import threading
from typing import Any

from functions.common import credentials, fanout, state_store, workdir
from functions.common.errors import Conflict
from functions.common.models import Node, Run, Workspace

_registries: dict[str, Any] = {}
_encryptions: dict[str, Any] = {}
_mu = threading.Lock()


class NodeFailed(Exception):
    """A node's apply reported errors (the message is its diagnostics, redacted)."""


def registry(run: Run, ws: Workspace) -> Any:
    """The provider registry of `run` in this warm function (started on first use)."""
    with _mu:
        found = _registries.get(run.id)
        if found is None:
            from engine.plugin.loader import PluginRegistry

            found = PluginRegistry(workdir.configuration(run),
                                   provider_env=credentials.provider_environment(ws, run.id))
            _registries[run.id] = found
        return found


def encryption(run: Run) -> Any:
    """The run's state encryption (functions.common.state_crypto), built once per warm
    function."""
    with _mu:
        found = _encryptions.get(run.id)
    if found is None:
        from functions.common.planning import var_args
        from functions.common.state_crypto import state_encryption

        found = state_encryption(workdir.configuration(run), var_args(workdir.variables(run)))
        with _mu:
            _encryptions[run.id] = found
    return found


def close_registry(run_id: str) -> None:
    with _mu:
        _encryptions.pop(run_id, None)
        found = _registries.pop(run_id, None)
    if found is not None:
        found.close()


def approved_digest(run: Run) -> str:
    digest = run.approved_digest if not run.auto_apply else run.plan_digest
    if not digest or digest != run.plan_digest:
        raise Conflict(f"run {run.id} has no approval for plan {run.plan_digest}",
                       code="plan_not_approved")
    return digest


def _current_state(run: Run, ws: Workspace) -> tuple[Any, str | None]:
    from engine.states.statefile import read_state

    loc = state_store.of_run(run, ws)
    data, etag = state_store.read(loc)
    if data is None:
        return None, None
    from engine.encryption import EncryptionError

    try:
        plain = encryption(run).decrypt(data)
    except EncryptionError as exc:
        raise Conflict(f"the state of workspace {ws.name} cannot be decrypted: {exc}",
                       code="state_unreadable") from None
    sf, diags = read_state(plain)
    if sf is None or diags.has_errors:
        raise Conflict(f"the state of workspace {ws.name} cannot be read", code="invalid_state")
    return sf, etag


def check_fresh(run: Run, ws: Workspace) -> str | None:
    """Refuse a plan whose prior state is no longer current; the ETag of the current state."""
    sf, etag = _current_state(run, ws)
    serial = sf.serial if sf is not None else None
    lineage = sf.lineage if sf is not None else None
    if serial != run.prior_serial or lineage != run.prior_lineage:
        raise Conflict(
            f"the plan of run {run.id} is stale: the state changed since it was made "
            f"(serial {run.prior_serial} → {serial})", code="stale_plan")
    return etag


def prepare_fanout(run: Run, ws: Workspace) -> int:
    from engine.operations import apply_graph

    digest = approved_digest(run)
    check_fresh(run, ws)
    plan = workdir.prepared_plan(run, digest)
    graph, diags = apply_graph(plan.planfile, working_dir=workdir.configuration(run),
                               registry=registry(run, ws))
    if diags.has_errors:
        raise NodeFailed(_text(diags))
    from functions.common.settings import settings

    return fanout.prepare(run.id, graph, settings().apply_parallelism)


def _text(diags: Any) -> str:
    from engine.diags.render import render_diagnostics

    return render_diagnostics([d for d in diags if d.severity.name == "ERROR"], box=False)


def apply_one(run: Run, ws: Workspace, node: Node) -> tuple[dict[str, Any], str | None]:
    """Apply `node`: (its result document, None) or, when its apply reported errors, (the
    result, the errors as text). A failed node's result holds what its provider did record
    (a tainted object, a partial update): it belongs in the state as much as a success."""
    from engine.operations import apply_node

    plan = workdir.prepared_plan(run, approved_digest(run))
    result = apply_node(plan.planfile, node.node_id, fanout.dependency_results(node),
                        working_dir=workdir.configuration(run), registry=registry(run, ws))
    doc = result.to_json()
    if not result.success:
        return doc, _text(result.diagnostics)
    fanout.remember(run.id, node.address, doc)
    return doc, None


def final_state(run: Run, ws: Workspace, nodes: list[Node]) -> tuple[bool, str]:
    """Merge the applied nodes' results into the state and store it; (written, problems)."""
    from engine.operations import finalize_apply
    from engine.states.state import StateFile, new_lineage
    from engine.states.statefile import states_equal, write_state

    plan = workdir.prepared_plan(run, approved_digest(run))
    # A failed node's result holds what its provider did record (a tainted object, a
    # partial update): it belongs in the state as much as a success does.
    found = [fanout.result_of(n) for n in nodes if n.status in ("applied", "failed")]
    results = [doc for doc in found if doc is not None]
    state, diags = finalize_apply(plan.planfile, results, working_dir=workdir.configuration(run),
                                  registry=registry(run, ws))
    if state is None:
        return False, _text(diags)
    current, etag = _current_state(run, ws)
    if current is not None and (current.serial != run.prior_serial
                                or current.lineage != run.prior_lineage):
        raise Conflict(f"the state of workspace {ws.name} changed during the apply",
                       code="stale_state")
    if current is not None and states_equal(current.state, state):
        return False, _text(diags)
    lineage = current.lineage if current is not None else new_lineage()
    serial = current.serial + 1 if current is not None else 1
    text = write_state(StateFile(state=state, lineage=lineage, serial=serial))
    loc = state_store.of_run(run, ws)
    state_store.write(loc, encryption(run).encrypt(text.encode()), etag, run_id=run.id,
                      actor=run.approved_by or run.created_by)
    if ws.lineage != lineage:
        ws.update(actions=[Workspace.lineage.set(lineage)])
    return True, _text(diags)
