"""The still-applying ticker."""

from __future__ import annotations

import time

from engine.addrs import parse_abs_resource_instance
from engine.apply.progress import Ticker
from engine.plans.hooks import Hooks
from engine.plans.model import Action


class Recorder(Hooks):
    def __init__(self) -> None:
        self.calls: list[tuple[str, Action, float]] = []

    def still_applying(self, addr, action, elapsed):  # type: ignore[no-untyped-def]
        self.calls.append((str(addr), action, elapsed))


def test_ticker_reports_long_calls_once_per_interval() -> None:
    rec = Recorder()
    t = Ticker(rec, interval=0.2)
    t.start()
    addr = parse_abs_resource_instance("terraform_data.a")
    with t.running(addr, Action.CREATE):
        deadline = time.monotonic() + 30  # a loaded machine may delay ticks, never skip time
        while len(rec.calls) < 3 and time.monotonic() < deadline:
            time.sleep(0.05)
    with t.running(addr, Action.UPDATE):
        pass
    t.close()
    reported = [round(c[2], 6) for c in rec.calls]
    assert len(reported) >= 3
    # Whole intervals, each reported once, in order (a late tick may skip one, as terraform's).
    assert all(round(r / 0.2, 6).is_integer() for r in reported)
    assert reported == sorted(set(reported))
    assert {c[0] for c in rec.calls} == {"terraform_data.a"}
    assert {c[1] for c in rec.calls} == {Action.CREATE}
