"""What x/crypto/ssh reads off the wire and paramiko drops, kept for terraform's messages.

paramiko ignores a channel's `exit-signal` request (Go reports `Process exited with status 137
from signal KILL`) and keeps only the reason code of a refused channel open (Go reports the
server's own text: `ssh: rejected: connect failed (Connection refused)`). `keep_details(t)`
wraps the two handlers in transport `t`'s dispatch tables so that, before paramiko handles the
message as usual, `exit_signal(chan)` gives (signal name, error message) and
`open_failure(t)` the server's reason text. A message that does not parse is left to
paramiko alone. These are paramiko's internal tables: without them (another paramiko) both
functions simply return None.
"""

from __future__ import annotations

import contextlib
from typing import Any

import paramiko
from paramiko.common import MSG_CHANNEL_OPEN_FAILURE, MSG_CHANNEL_REQUEST

_SIGNAL = "groundplan_exit_signal"
_OPEN_FAILURE = "groundplan_open_failure"


def _peek(m: Any, read: Any) -> None:
    start = m.packet.tell()
    with contextlib.suppress(Exception):
        read(m)
    m.packet.seek(start)


def keep_details(t: paramiko.Transport) -> None:
    """Install the wrappers on `t` (see the module docstring)."""
    channel_table: dict[Any, Any] = dict(getattr(t, "_channel_handler_table", {}))
    on_request = channel_table.get(MSG_CHANNEL_REQUEST)
    if on_request is not None:
        def request(chan: Any, m: Any) -> None:
            def read(msg: Any) -> None:
                if msg.get_text() == "exit-signal":
                    msg.get_boolean()  # want reply
                    name, _core, text = msg.get_text(), msg.get_boolean(), msg.get_text()
                    setattr(chan, _SIGNAL, (name, text))

            _peek(m, read)
            on_request(chan, m)

        channel_table[MSG_CHANNEL_REQUEST] = request
        t._channel_handler_table = channel_table  # type: ignore[attr-defined]
    table: dict[Any, Any] | None = getattr(t, "_handler_table", None)
    on_failure = table.get(MSG_CHANNEL_OPEN_FAILURE) if table is not None else None
    if table is not None and on_failure is not None:
        def failure(m: Any) -> None:
            def read(msg: Any) -> None:
                msg.get_int()  # channel
                msg.get_int()  # reason code
                setattr(t, _OPEN_FAILURE, msg.get_text())

            _peek(m, read)
            on_failure(m)

        table[MSG_CHANNEL_OPEN_FAILURE] = failure


def exit_signal(chan: paramiko.Channel) -> tuple[str, str] | None:
    """(signal name, message) of the `exit-signal` the channel received, if any."""
    value = getattr(chan, _SIGNAL, None)
    return value if isinstance(value, tuple) else None


def open_failure(t: paramiko.Transport) -> str | None:
    """The server's text for the last refused channel open on `t`, if any."""
    value = getattr(t, _OPEN_FAILURE, None)
    return value if isinstance(value, str) else None
