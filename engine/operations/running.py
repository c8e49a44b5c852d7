"""What every operation does around its walks: a provider registry it may own, stop
requests routed from signals while walking, and the walks' width (`-parallelism`)."""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Iterator
from typing import TypeVar

from engine.diags import Diagnostics, error
from engine.graph.signals import install_signal_handlers
from engine.operations.requests import OperationRequest
from engine.plugin.registry import ProviderRegistry


@contextlib.contextmanager
def registry_for(request: OperationRequest) -> Iterator[ProviderRegistry]:
    """The request's registry, or one made for its working directory and closed (provider
    processes stopped) when the block ends."""
    if request.registry is not None:
        yield request.registry
        return
    from engine.plugin.loader import PluginRegistry

    registry = PluginRegistry(request.working_dir)
    try:
        yield registry
    finally:
        registry.close()


@contextlib.contextmanager
def walking(request: OperationRequest) -> Iterator[None]:
    """SIGINT/SIGTERM go to `request.stop` inside the block when the request asks for it."""
    if not request.handle_signals or request.stop is None:
        yield
        return
    with install_signal_handlers(request.stop):
        yield


def stop_requested(request: OperationRequest) -> bool:
    return request.stop is not None and request.stop.stop_requested


R = TypeVar("R", bound=OperationRequest)

#: The walks' width when a request gives 0, as terraform's core defaults it.
DEFAULT_PARALLELISM = 10


def with_parallelism(request: R) -> tuple[R, Diagnostics]:
    """`request` with its parallelism as terraform's core takes it: 0 is the default (10), a
    negative value is an error ("Invalid parallelism value")."""
    if request.parallelism < 0:
        return request, Diagnostics([error(
            "Invalid parallelism value",
            f"The parallelism must be a positive value. Not {request.parallelism}.")])
    if request.parallelism == 0:
        request = dataclasses.replace(request, parallelism=DEFAULT_PARALLELISM)
    return request, Diagnostics()


__all__ = ["registry_for", "stop_requested", "walking", "with_parallelism"]
