"""Package re-exports imported on first use (PEP 562), so that importing one module of a
package does not import the others (start-up cost: a command, and a Lambda cold start, pay
only for what they use).

    _LAZY = {"plan": "engine.operations.plan_op", "Run": ("engine.x.y", "RunImpl")}
    __getattr__ = lazy_exports(globals(), _LAZY)

A table value is the module holding the name, or (module, attribute). The first access
imports it and stores it in the package's namespace, so later accesses are plain lookups.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any


def lazy_exports(namespace: dict[str, Any],
                 table: Mapping[str, str | tuple[str, str]]) -> Callable[[str], Any]:
    """The module `__getattr__` serving `table`'s names into `namespace` (the package's
    globals()); any other name is an AttributeError, as for a plain module."""
    package = namespace["__name__"]

    def __getattr__(name: str) -> Any:
        entry = table.get(name)
        if entry is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        module, attribute = (entry, name) if isinstance(entry, str) else entry
        value = getattr(importlib.import_module(module), attribute)
        namespace[name] = value
        return value

    return __getattr__
