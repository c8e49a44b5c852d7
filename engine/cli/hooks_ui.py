"""The human progress view: terraform's hook_ui lines while plan and apply walk.

`UiHooks` prints, as terraform 1.11 does:

    terraform_data.a: Refreshing state... [id=x]
    terraform_data.a: Creating...            (Modifying... [id=x] / Destroying... [id=x])
    terraform_data.a: Still creating... [id=x, 10s elapsed]     (every 10 s)
    terraform_data.a: Creation complete after 0s [id=x]
    terraform_data.a: Provisioning with 'local-exec'...
    terraform_data.a (local-exec): <output line>
    data.x.y: Reading... / Read complete after 0s [id=x]

The "Still ..." lines come from one ticker thread this view runs while operations are in
flight (terraform's UI owns that timer too): every operation gets its line each `period`
seconds after it began, as a timer of its own would give it; elapsed times are rounded to whole seconds and spelled as Go's
`time.Duration` (`10s`, `1m30s`). Nothing is printed for a failed operation: its error is
reported with the other diagnostics. Every method is thread-safe.
"""

from __future__ import annotations

import heapq
import itertools
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from engine.addrs import AbsResourceInstance
from engine.cli.ui import Ui
from engine.diags import Diagnostic
from engine.gocompat.duration import SECOND, format_duration
from engine.plans.hooks import Hooks
from engine.plans.model import Action

PERIOD = 10.0
LINGER = 0.05  # the idle ticker thread waits min(period / 5, LINGER) s for a next operation
MAX_ID_LEN = 80

_START = {
    Action.CREATE: ("Creating...", "Still creating...", "Creation complete"),
    Action.UPDATE: ("Modifying...", "Still modifying...", "Modifications complete"),
    Action.DELETE: ("Destroying...", "Still destroying...", "Destruction complete"),
    Action.READ: ("Reading...", "Still reading...", "Read complete"),
}


_NOT_GO_SPACE = frozenset("\x1c\x1d\x1e\x1f")  # Python's isspace says yes, Go's IsSpace no


def provision_lines(msg: str) -> list[str]:
    """The lines terraform's ProvisionOutput shows for one message: split at each newline
    (or, with none left, at a carriage return), a trailing carriage return dropped, trailing
    white space trimmed, empty lines left out."""
    lines: list[str] = []
    rest = msg
    while rest:
        cut = rest.find("\n")
        if cut < 0:
            cut = rest.find("\r")
        token, rest = (rest, "") if cut < 0 else (rest[:cut], rest[cut + 1 :])
        if token.endswith("\r"):
            token = token[:-1]
        end = len(token)
        while end and token[end - 1].isspace() and token[end - 1] not in _NOT_GO_SPACE:
            end -= 1
        if end:
            lines.append(token[:end])
    return lines


def _shown(addr: AbsResourceInstance, deposed: str) -> str:
    """The address as terraform's UI names the object: `a.b (deposed object 1a2b3c4d)`."""
    return f"{addr} (deposed object {deposed})" if deposed else str(addr)


def truncate_id(value: str, limit: int = MAX_ID_LEN) -> str:
    """terraform's truncateId: long IDs keep their start and end around `...`."""
    if len(value) <= limit:
        return value
    half = (limit - 3) // 2
    return value[:half] + "..." + value[len(value) - half - (limit - 3) % 2:]


@dataclass(slots=True)
class _Op:
    """An operation the progress view has announced: its action, object id, start time, completion.
    """

    action: Action
    id: str | None
    start: float
    done: bool = False


class UiHooks(Hooks):
    """Progress lines for people (see the module docstring)."""

    def __init__(self, ui: Ui, period: float = PERIOD,
                 clock: Callable[[], float] = time.monotonic) -> None:
        """`clock` gives the seconds that "Creation complete after Ns" counts (whole seconds
        as terraform rounds them); the "Still ..." ticker waits in real time."""
        self.ui = ui
        self.period = period
        self.clock = clock
        self._out = threading.Lock()
        self._mu = threading.Lock()
        self._ops: dict[str, _Op] = {}
        # The ticker's schedule: (when, order, address, operation), earliest first; `_live`
        # counts the operations in it not yet done. The ticker thread runs while any is live
        # and lingers min(period / 5, LINGER) seconds after, unless `close` stops it.
        self._wake = threading.Condition(self._mu)
        self._due: list[tuple[float, int, str, _Op]] = []
        self._order = itertools.count()
        self._live = 0
        self._ticker: threading.Thread | None = None
        self._closed = False
        self._begun = 0  # operations begun so far (the idle ticker lingers while this moves)

    def println(self, text: str) -> None:
        with self._out:
            self.ui.out(text)

    # -- refresh -----------------------------------------------------------------------------
    def pre_refresh(self, addr: AbsResourceInstance, id: str | None) -> None:
        suffix = f" [id={id}]" if id else ""
        self.println(f"[reset][bold]{addr}: Refreshing state...{suffix}")

    # -- import blocks -----------------------------------------------------------------------
    def pre_plan_import(self, addr: AbsResourceInstance, id: str) -> None:
        self.println(f"[reset][bold]{addr}: Preparing import... [id={id}]")

    def pre_apply_import(self, addr: AbsResourceInstance, id: str) -> None:
        self.println(f"[reset][bold]{addr}: Importing... [id={id}]")

    def post_apply_import(self, addr: AbsResourceInstance, id: str) -> None:
        self.println(f"[reset][bold]{addr}: Import complete [id={id}]")

    # -- apply -------------------------------------------------------------------------------
    def _begin(self, addr: AbsResourceInstance | str, action: Action, id: str | None) -> None:
        texts = _START.get(action)
        if texts is None:
            return
        suffix = f" [id={id}]" if id else ""
        self.println(f"[reset][bold]{addr}: {texts[0]}{suffix}[reset]")
        now = time.monotonic()
        op = _Op(action, id, round(self.clock()))
        key = str(addr)
        with self._mu:
            self._closed = False
            self._begun += 1
            self._ops[key] = op
            heapq.heappush(self._due, (now + self.period, next(self._order), key, op))
            self._live += 1
            if self._ticker is None:
                self._ticker = threading.Thread(
                    target=self._tick, name="ui-still-running", daemon=True
                )
                self._ticker.start()
            elif self._due[0][3] is op:
                self._wake.notify()

    def _tick(self) -> None:
        """The ticker thread: print each live operation's "Still ..." line when it is due;
        return once no operation has been live for a while (see `__init__`) or on `close`."""
        stop = False
        while not stop:
            lines: list[str] = []
            with self._mu:
                while True:
                    if self._live == 0:
                        self._due.clear()
                        if lines:
                            break
                        if not self._closed:
                            begun = self._begun
                            self._wake.wait(min(self.period / 5, LINGER))
                            if self._live or self._begun != begun:
                                continue
                        self._ticker = None
                        stop = True
                        break
                    when, order, addr, op = self._due[0]
                    if op.done:
                        heapq.heappop(self._due)
                        continue
                    now = time.monotonic()
                    if when > now:
                        if lines:
                            break
                        self._wake.wait(when - now)
                        continue
                    heapq.heapreplace(self._due, (now + self.period, order, addr, op))
                    still = _START[op.action][1]
                    elapsed = round(self.clock()) - op.start
                    ident = f"id={truncate_id(op.id)}, " if op.id else ""
                    lines.append(
                        f"[reset][bold]{addr}: {still} "
                        f"[{ident}{format_duration(round(elapsed) * SECOND)} elapsed][reset]"
                    )
            for line in lines:
                self.println(line)

    def _finish(self, op: _Op) -> None:
        """Mark `op` done (the caller holds `_mu`); wake the ticker when none is live."""
        if not op.done:
            op.done = True
            self._live -= 1
            if self._live == 0:
                self._wake.notify()

    def _end(self, addr: AbsResourceInstance | str) -> _Op | None:
        with self._mu:
            op = self._ops.pop(str(addr), None)
            if op is not None:
                self._finish(op)
        return op

    def pre_apply(self, addr: AbsResourceInstance, action: Action, id: str | None,
                  deposed: str = "") -> None:
        if action.is_replace:
            action = Action.CREATE  # the delete half is reported as its own DELETE operation
        self._begin(_shown(addr, deposed), action, id if action is not Action.CREATE else None)

    def post_apply(
        self,
        addr: AbsResourceInstance,
        action: Action,
        id: str | None,
        elapsed: float,
        error: Diagnostic | None,
        deposed: str = "",
    ) -> None:
        shown = _shown(addr, deposed)
        op = self._end(shown)
        if op is None or error is not None:
            return
        texts = _START[op.action]
        took = format_duration(round(round(self.clock()) - op.start) * SECOND)
        suffix = f" [id={id}]" if id and op.action is not Action.DELETE else ""
        # as terraform: "Still destroying..." names the deposed object, the end line does not
        self.println(f"[reset][bold]{addr}: {texts[2]} after {took}{suffix}")

    # -- provisioners ----------------------------------------------------------------------
    def pre_provision(self, addr: AbsResourceInstance, type_name: str) -> None:
        self.println(f"[reset][bold]{addr}: Provisioning with '{type_name}'...[reset]")

    def provision_output(self, addr: AbsResourceInstance, type_name: str, line: str) -> None:
        # as terraform: a message without any visible line is still a (blank) line
        self.println("\n".join(f"[reset][bold]{addr} ({type_name}):[reset] {ln}"
                                for ln in provision_lines(line)))

    # -- data sources ------------------------------------------------------------------------
    def pre_read_data(self, addr: AbsResourceInstance) -> None:
        self._begin(addr, Action.READ, None)

    def post_read_data(self, addr: AbsResourceInstance, id: str | None, elapsed: float) -> None:
        self.post_apply(addr, Action.READ, id, elapsed, None)

    def close(self) -> None:
        """Stop every ticker still running (an interrupted or failed walk)."""
        with self._mu:
            for op in self._ops.values():
                self._finish(op)
            self._ops.clear()
            self._closed = True
            self._wake.notify()
