"""Write a Terraform provider in Python and serve it over the plugin protocol.

Providers import from here (and engine.values) only. A provider subclasses `Provider`, lists
its `Resource` and `DataSource` classes, declares bodies with `Attr`/`Blocks`, and calls
`serve(MyProvider())` from its `__main__`. See resource for the hooks' contracts, planner for
the default planning, server for the process side (handshake, mutual TLS, shutdown).
"""

from __future__ import annotations

from engine.plugin.sdk.adapter import SDKProvider
from engine.plugin.sdk.errors import AttributePath, ProviderError, error, path_of, warning
from engine.plugin.sdk.fields import Attr, Blocks, Nesting
from engine.plugin.sdk.native import UNKNOWN, to_native, to_value
from engine.plugin.sdk.obj import Obj
from engine.plugin.sdk.resource import DataSource, Plan, Provider, Resource

__all__ = [
    "UNKNOWN", "Attr", "AttributePath", "Blocks", "DataSource", "Nesting", "Obj", "Plan",
    "Provider", "ProviderError", "Resource", "SDKProvider", "error", "path_of", "to_native",
    "to_value", "warning",
]
