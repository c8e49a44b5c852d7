"""The drift schedule's tick (an EventBridge rule; `groundplan cloud local` plays ticks).

For every workspace with drift detection on and an applied configuration, start a drift run
(a refresh-only plan through the same state machine, no apply step) once its
`interval_minutes` have passed since its last check. A workspace with an active run is
skipped and tried again at the next tick, never queued behind it."""

from __future__ import annotations

import datetime as dt
from typing import Any

from functions.common import run_service, workspaces
from functions.common.errors import Conflict
from functions.common.powertools import observability

logger, tracer, metrics = observability("groundplan-drift")


def _due(ws: Any, now: dt.datetime) -> bool:
    if not ws.drift_checked_at:
        return True
    last = dt.datetime.strptime(ws.drift_checked_at, "%Y-%m-%dT%H:%M:%S.%fZ")
    return (now - last).total_seconds() >= 60 * int(ws.drift_interval or 60)


def tick(now: dt.datetime | None = None) -> dict[str, Any]:
    """Start the drift runs that are due (each workspace's `interval_minutes` since its last
    check); `now` is the tick's time (UTC, naive)."""
    now = now or dt.datetime.now(dt.UTC).replace(tzinfo=None)
    started, skipped = [], []
    for ws in workspaces.list_all():
        if not ws.drift_detection or not ws.applied_configuration_version or not _due(ws, now):
            continue
        try:
            run = run_service.detect_drift(ws.name, "schedule", "schedule")
        except Conflict as exc:
            skipped.append({"workspace": ws.name, "reason": exc.code,
                            "active_run": exc.details.get("active_run")})
            continue
        started.append({"workspace": ws.name, "run": run.id})
    logger.info("drift tick", extra={"started": len(started), "skipped": len(skipped)})
    return {"started": started, "skipped": skipped}


@logger.inject_lambda_context(log_event=False)
@metrics.log_metrics
def handler(event: dict[str, Any], context: Any) -> dict[str, Any]:
    when = event.get("time")  # EventBridge's scheduled event carries its time
    now = dt.datetime.strptime(when, "%Y-%m-%dT%H:%M:%SZ") if isinstance(when, str) else None
    return tick(now)
