"""A failed gRPC call as the diagnostic terraform reports for it, naming the provider.

- The plugin process died (or the transport is gone): "Plugin did not respond", with
  terraform's detail ("The plugin encountered an error, and failed to respond to the
  plugin.(*GRPCProvider).<RPC> call. The plugin logs may contain more details."), followed by
  the provider's name and binary, its exit status and its last output (a Go panic, typically).
- The plugin does not implement the RPC: "Unsupported plugin method".
- Anything else: "Plugin error" with the gRPC status code and text.
"""

from __future__ import annotations

import grpc

from engine.diags import Diagnostic, error
from engine.plugin.grpc_client.process import PluginProcess

__all__ = ["rpc_error"]

_MAYBE_DEAD = (
    grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.CANCELLED, grpc.StatusCode.UNKNOWN,
    grpc.StatusCode.INTERNAL,
)


def rpc_error(
    rpc: str, e: grpc.RpcError, name: str, binary_name: str, process: PluginProcess
) -> Diagnostic:
    """The diagnostic for `e` raised by RPC `rpc` of provider `name` (see module doc)."""
    code = e.code() if isinstance(e, grpc.Call) else None
    text = e.details() if isinstance(e, grpc.Call) else str(e)
    # a dying process may still be exiting when the stream breaks: give it a moment
    status = process.wait(2.0) if code in _MAYBE_DEAD else process.exited()
    if status is not None:
        process.wait_output_end()  # the panic text is still being read
    if status is not None or code == grpc.StatusCode.UNAVAILABLE:
        detail = (
            "The plugin encountered an error, and failed to respond to the "
            f"plugin.(*GRPCProvider).{rpc} call. The plugin logs may contain more details."
        )
        who = f"\n\nProvider: {name} ({binary_name})"
        if status is not None:
            who += f", exited with status {status}"
        tail = process.output_tail().strip()
        if tail:
            who += f"\n\nPlugin output:\n{tail[-4000:]}"
        return error("Plugin did not respond", detail + who)
    if code == grpc.StatusCode.UNIMPLEMENTED:
        return error(
            "Unsupported plugin method",
            f"The {rpc} method is not supported by provider {name}.",
        )
    return error(
        "Plugin error",
        f"The plugin returned an unexpected error from plugin.(*GRPCProvider).{rpc}: "
        f"rpc error: code = {code.name if code else 'Unknown'} desc = {text} "
        f"(provider {name})",
    )
