"""The out-of-process provider client: Terraform provider binaries over tfplugin5/6 gRPC.

Public API:
- `GrpcProvider.start(name, binary, *, versions=(5, 6), start_timeout=60, schema_cache=None)`
  launches a provider binary and returns an `engine.plugin.protocol.Provider`;
  `grpc_provider_factory(name, binary, ...)` makes the zero-argument factory that
  `ProviderRegistry.register` takes; `stop_all()` sends StopProvider to every open provider.
- `PluginStartError`: the binary is missing, is not a plugin, or answered a bad handshake.
- `SchemaCache(directory)`: schemas on disk by binary content, so a later run skips
  GetProviderSchema.

Transport decision: **plaintext gRPC over a private unix socket, no mutual TLS.** Terraform
sends a client certificate (`PLUGIN_CLIENT_CERT`) and the provider answers with a self-signed
EC P-521 server certificate. grpcio's TLS stack (BoringSSL) does not offer the
`ecdsa_secp521r1_sha512` signature algorithm that certificate needs, so grpcio cannot complete
that handshake, and no grpcio setting changes it (measured, see
/work/shared/reference/plugin-protocol.md). The alternatives (grpclib over Python's `ssl`, or
a TLS relay thread) add a second gRPC stack or a copy of every byte. What mutual TLS protects
here is the socket from other local users; we get the same by starting each provider with its
own `TMPDIR` (and `PLUGIN_UNIX_SOCKET_DIR`), a fresh directory of mode 0700 owned by us, where
go-plugin creates its socket: no other user can reach the socket through that directory. We do
not set `PLUGIN_CLIENT_CERT`, so go-plugin serves plaintext; a plugin that still announces a
certificate is refused with a clear error.

The names load lazily: gRPC and protobuf are imported only when a command first needs an
out-of-process provider (a plan of built-in resources never pays for them).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from engine.plugin.grpc_client.handshake import Handshake, HandshakeError, parse_handshake
    from engine.plugin.grpc_client.process import PluginProcess, PluginStartError
    from engine.plugin.grpc_client.provider import (
        SUPPORTED_VERSIONS,
        GrpcProvider,
        grpc_provider_factory,
        stop_all,
    )
    from engine.plugin.grpc_client.schema_cache import SchemaCache

_LAZY = {
    "Handshake": "handshake", "HandshakeError": "handshake", "parse_handshake": "handshake",
    "PluginProcess": "process", "PluginStartError": "process",
    "SUPPORTED_VERSIONS": "provider", "GrpcProvider": "provider",
    "grpc_provider_factory": "provider", "stop_all": "provider",
    "SchemaCache": "schema_cache",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'engine.plugin.grpc_client' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"engine.plugin.grpc_client.{module}"), name)
    globals()[name] = value
    return value


__all__ = [
    "SUPPORTED_VERSIONS",
    "GrpcProvider",
    "Handshake",
    "HandshakeError",
    "PluginProcess",
    "PluginStartError",
    "SchemaCache",
    "grpc_provider_factory",
    "parse_handshake",
    "stop_all",
]
