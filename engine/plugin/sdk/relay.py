"""A TLS-terminating relay: accepts mutual-TLS connections on a unix socket and pipes each
one, decrypted, to a plaintext unix socket (where grpcio serves).

grpcio cannot complete terraform's P-521 mutual TLS handshake (see the reference notes), while
Python's ssl can; so the public socket is this relay's and grpcio listens on a socket in the
same private (0700) directory. The relay runs an asyncio loop in a daemon thread; `close()`
stops accepting and ends the loop. A connection whose handshake fails is dropped.
"""

from __future__ import annotations

import asyncio
import contextlib
import ssl
import threading

__all__ = ["TLSRelay"]

_CHUNK = 65536


async def _pump(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    try:
        while data := await reader.read(_CHUNK):
            writer.write(data)
            await writer.drain()
    except (ConnectionError, ssl.SSLError, OSError):
        pass
    finally:
        with contextlib.suppress(Exception):
            writer.close()


class TLSRelay:
    """Relay from `public_path` (TLS with `context`) to `target_path` (plaintext)."""

    def __init__(self, public_path: str, target_path: str, context: ssl.SSLContext) -> None:
        self.public_path = public_path
        self.target_path = target_path
        self.context = context
        self._loop = asyncio.new_event_loop()
        self._ready = threading.Event()
        self._error: BaseException | None = None
        self._server: asyncio.AbstractServer | None = None
        self._thread = threading.Thread(target=self._run, name="tls-relay", daemon=True)

    def start(self) -> None:
        """Listen on the public socket; returns once it is bound (raises if it cannot be)."""
        self._thread.start()
        self._ready.wait()
        if self._error is not None:
            raise self._error

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)
        try:
            self._server = self._loop.run_until_complete(
                asyncio.start_unix_server(self._handle, self.public_path, ssl=self.context)
            )
        except BaseException as e:
            self._error = e
            self._ready.set()
            return
        self._ready.set()
        self._loop.run_forever()
        self._loop.close()

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            up_reader, up_writer = await asyncio.open_unix_connection(self.target_path)
        except OSError:
            writer.close()
            return
        await asyncio.gather(_pump(reader, up_writer), _pump(up_reader, writer))

    def close(self) -> None:
        """Stop accepting connections and end the relay's loop."""
        def stop() -> None:
            if self._server is not None:
                self._server.close()
            self._loop.stop()

        if self._thread.is_alive():
            self._loop.call_soon_threadsafe(stop)
            self._thread.join(timeout=2)
