"""Terraform 1.11's built-in function library.

`function_table(base_dir)` gives the functions by name for a module whose directory is
`base_dir` (filesystem functions resolve paths relative to it). Each topic module exports
`FUNCTIONS`, a list of `Function`; modules whose functions depend on the module directory or
on the evaluator export a factory instead.
"""

from __future__ import annotations

from engine.lang.functions import (
    collections,
    conversion,
    crypto,
    datetime,
    encoding,
    filesystem,
    ipnet,
    numeric,
    special,
    strings,
    templatestring,
)
from engine.lang.functions.base import Function, FunctionError, Param, call, static_return

_STATIC_MODULES = (
    strings,
    collections,
    numeric,
    encoding,
    crypto,
    ipnet,
    conversion,
    datetime,
    special,
    templatestring,
)


# Functions Terraform removed: still known, so that calling them gives its explanation.
_REMOVED = frozenset({"list", "map"})


def function_table(base_dir: str = ".") -> dict[str, Function]:
    """Every built-in function, by name, for a module rooted at `base_dir`."""
    table: dict[str, Function] = {}
    for mod in _STATIC_MODULES:
        for fn in mod.FUNCTIONS:
            table[fn.name] = fn
    factory = getattr(filesystem, "filesystem_functions", None)
    if factory is not None:
        for fn in factory(base_dir):
            table[fn.name] = fn
    else:
        for fn in filesystem.FUNCTIONS:
            table[fn.name] = fn
    # Terraform 1.8+ also names every built-in function in the `core::` namespace.
    for name, fn in list(table.items()):
        if name not in _REMOVED:
            table["core::" + name] = fn
    return table


__all__ = ["Function", "FunctionError", "Param", "call", "function_table", "static_return"]
