"""Serving a provider as a plugin process: go-plugin's server side of the handshake.

`serve(spec)` is what a provider's `__main__` calls:

1. Without `TF_PLUGIN_MAGIC_COOKIE` set to terraform's cookie it prints go-plugin's "This
   binary is a plugin" message to stderr and exits 1.
2. It serves tfplugin6 (the only version offered; `PLUGIN_PROTOCOL_VERSIONS` must allow 6) plus
   `plugin.GRPCController` on a unix socket `pluginNNNN` in a fresh 0700 directory under
   `$TMPDIR`.
3. With `PLUGIN_CLIENT_CERT` set (terraform's AutoMTLS) it generates a P-521 certificate and
   the public socket is a TLS relay requiring that client certificate (see tls and relay);
   grpcio listens in plaintext on another socket in the private directory. Without it, grpcio
   listens on the public socket directly.
4. It prints exactly one line, `1|6|unix|<socket>|grpc|<cert>`, to stdout (the certificate
   field empty without mutual TLS).
5. It runs until `GRPCController.Shutdown`, SIGTERM, or its parent process going away, then
   stops the server, removes the directory and returns 0. SIGINT is ignored, as go-plugin
   servers do, so a Ctrl-C at terraform lets in-flight calls finish.
"""

from __future__ import annotations

import os
import shutil
import signal
import sys
import tempfile
import threading
from concurrent import futures
from dataclasses import dataclass
from typing import Any, TextIO

import grpc

from engine.plugin.proto import grpc_controller_pb2_grpc, tfplugin6_pb2_grpc
from engine.plugin.sdk.adapter import SDKProvider
from engine.plugin.sdk.grpc_provider import ControllerService, ProviderService
from engine.plugin.sdk.relay import TLSRelay
from engine.plugin.sdk.resource import Provider
from engine.plugin.sdk.tls import generate_server_cert, handshake_encoding, server_context

__all__ = [
    "MAGIC_COOKIE_KEY", "MAGIC_COOKIE_VALUE", "PluginServer", "handshake_line", "run", "serve",
]

MAGIC_COOKIE_KEY = "TF_PLUGIN_MAGIC_COOKIE"
MAGIC_COOKIE_VALUE = "d602bf8f470bc67ca7faa0386276bbdd4330efaf76d1a219cb4d6991ca9872b2"
PROTOCOL_VERSION = 6
NOT_A_PLUGIN = (
    "This binary is a plugin. These are not meant to be executed directly.\n"
    "Please execute the program that consumes these plugins, which will\n"
    "load any plugins automatically\n"
)


def handshake_line(socket_path: str, cert_der: bytes | None, version: int = PROTOCOL_VERSION
                   ) -> str:
    """The go-plugin handshake line (core protocol 1, app protocol `version`, unix, grpc)."""
    cert = handshake_encoding(cert_der) if cert_der else ""
    return f"1|{version}|unix|{socket_path}|grpc|{cert}"


@dataclass
class PluginServer:
    """A running plugin server (see `start`); `wait()` blocks until shutdown is requested."""

    directory: str
    socket_path: str
    cert_der: bytes | None
    server: Any
    relay: TLSRelay | None
    done: threading.Event

    @classmethod
    def start(cls, spec: Provider, client_cert_pem: str | None, workers: int = 256
              ) -> PluginServer:
        """Bind the sockets and start serving `spec` (mutual TLS when a client cert is given).
        Up to `workers` calls are served at once (threads start as calls need them): a Go
        provider serves every call concurrently, and a client that runs many operations side
        by side (the control plane's node tasks share one provider process per run) must not
        find a cap here that it did not set."""
        directory = tempfile.mkdtemp(prefix="plugin-")
        os.chmod(directory, 0o700)
        public = os.path.join(directory, f"plugin{os.getpid()}")
        done = threading.Event()
        server = grpc.server(futures.ThreadPoolExecutor(max_workers=workers))
        tfplugin6_pb2_grpc.add_ProviderServicer_to_server(
            ProviderService(SDKProvider(spec)), server)
        grpc_controller_pb2_grpc.add_GRPCControllerServicer_to_server(
            ControllerService(done.set), server)
        relay: TLSRelay | None = None
        cert_der: bytes | None = None
        if client_cert_pem:
            cert = generate_server_cert()
            cert_der = cert.der
            inner = os.path.join(directory, "grpc.sock")
            server.add_insecure_port(f"unix:{inner}")
            server.start()
            relay = TLSRelay(public, inner, server_context(cert, client_cert_pem))
            relay.start()
        else:
            server.add_insecure_port(f"unix:{public}")
            server.start()
        return cls(directory, public, cert_der, server, relay, done)

    def line(self) -> str:
        return handshake_line(self.socket_path, self.cert_der)

    def wait(self) -> None:
        self.done.wait()

    def stop(self) -> None:
        """Stop serving (letting the Shutdown answer go out) and remove the directory."""
        self.done.set()
        if self.relay is not None:
            self.relay.close()
        self.server.stop(grace=0.2).wait()
        shutil.rmtree(self.directory, ignore_errors=True)


def _watch_parent(done: threading.Event) -> None:
    parent = os.getppid()
    while not done.wait(1.0):
        if os.getppid() != parent:
            done.set()


def serve(spec: Provider, stdout: TextIO | None = None) -> int:
    """Run `spec` as a plugin process (see the module docstring); returns the exit status."""
    out = stdout or sys.stdout
    if os.environ.get(MAGIC_COOKIE_KEY) != MAGIC_COOKIE_VALUE:
        sys.stderr.write(NOT_A_PLUGIN)
        return 1
    versions = os.environ.get("PLUGIN_PROTOCOL_VERSIONS", str(PROTOCOL_VERSION))
    if str(PROTOCOL_VERSION) not in {v.strip() for v in versions.split(",")}:
        sys.stderr.write(f"this provider speaks protocol {PROTOCOL_VERSION} only; "
                         f"the client asked for {versions}\n")
        return 1
    plugin = PluginServer.start(spec, os.environ.get("PLUGIN_CLIENT_CERT") or None)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, lambda *_: plugin.done.set())
    threading.Thread(target=_watch_parent, args=(plugin.done,), daemon=True).start()
    out.write(plugin.line() + "\n")
    out.flush()
    try:
        plugin.wait()
    finally:
        plugin.stop()
    return 0


def run(spec: Provider) -> None:
    """`serve(spec)`, then end the process with its status at once: the server is stopped by
    then, and skipping interpreter teardown (grpc's is slow) lets terraform move on sooner."""
    code = serve(spec)
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)
