"""WinRM connections, as far as groundplan goes: terraform's retry loop up to the transport.

`connect_winrm(info, output, stop)` shows the "Connecting to remote host via WinRM..." block
(when `output` is given) on each attempt and dials the host's port with terraform's retry
(`engine.provisioners.retry`), returning terraform's error text: `timeout - last error: unknown
error Post "http://H:P/wsman": dial tcp H:P: connect: connection refused`, or
`interrupted - last error: ...` when `stop` is set. groundplan has no WinRM client: when the
port does answer, the result is an error saying so, never a pretend success.
"""

from __future__ import annotations

import threading

from engine.provisioners.base import OutputFn
from engine.provisioners.connection import ConnInfo
from engine.provisioners.dial import DialError, dial
from engine.provisioners.retry import Fatal, Retryable, retry


def connect_winrm(info: ConnInfo, output: OutputFn | None, stop: threading.Event) -> str:
    """The error text of connecting to a WinRM host (see the module docstring)."""

    def attempt() -> None:
        if output is not None:
            output(info.banner())
        try:
            dial(info.host_port).close()
        except DialError as exc:
            scheme = "https" if info.https else "http"
            raise Retryable(f'unknown error Post "{scheme}://{info.host_port}/wsman": {exc}'
                            ) from None
        raise Fatal(f"{info.host_port} accepted the connection, but groundplan has no WinRM "
                    "client, so it cannot run WinRM provisioners")

    return retry(attempt, info.timeout, stop, lambda: None) or ""
