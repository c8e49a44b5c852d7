"""Terraform 1.11's built-in function library.

`function_table(base_dir)` gives the functions by name for a module whose directory is
`base_dir` (filesystem functions resolve paths relative to it). Each topic module exports
`FUNCTIONS`, a list of `Function`; modules whose functions depend on the module directory or
on the evaluator export a factory instead.

The table is a `FunctionTable`: a mapping that knows every name from `_INDEX` and imports a
topic module the first time one of its functions is looked up, so a command that calls no
`yamldecode` never imports YAML (nor the crypto, network or time modules it does not use).
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engine.lang.functions.base import Function

# Which topic module defines each function (tests/unit/lang/functions/test_table.py checks
# this against the modules themselves). `filesystem` exports a factory of the base directory.
_INDEX: dict[str, tuple[str, ...]] = {
    "strings": (
        "chomp", "endswith", "startswith", "strcontains", "lower", "upper", "title", "trim",
        "trimprefix", "trimsuffix", "trimspace", "indent", "join", "split", "strrev", "substr",
        "replace", "regex", "regexall", "format", "formatlist",
    ),
    "collections": (
        "length", "alltrue", "anytrue", "chunklist", "coalescelist", "compact", "concat",
        "contains", "index", "distinct", "element", "flatten", "one", "range", "reverse",
        "slice", "sort", "sum", "coalesce", "keys", "values", "lookup", "matchkeys", "merge",
        "transpose", "zipmap", "setunion", "setintersection", "setsubtract", "setproduct",
        "list", "map",
    ),
    "numeric": (
        "abs", "ceil", "floor", "signum", "log", "pow", "max", "min", "parseint",
    ),
    "encoding": (
        "base64decode", "base64encode", "base64gzip", "csvdecode", "jsondecode", "jsonencode",
        "textdecodebase64", "textencodebase64", "urlencode", "yamldecode", "yamlencode",
    ),
    "crypto": (
        "base64sha256", "base64sha512", "bcrypt", "md5", "rsadecrypt", "sha1", "sha256",
        "sha512", "uuid", "uuidv5",
    ),
    "ipnet": (
        "cidrhost", "cidrnetmask", "cidrsubnet", "cidrsubnets",
    ),
    "conversion": (
        "tobool", "tolist", "tomap", "tonumber", "toset", "tostring", "sensitive",
        "nonsensitive", "issensitive", "ephemeralasnull",
    ),
    "datetime": (
        "formatdate", "plantimestamp", "timeadd", "timecmp", "timestamp",
    ),
    "special": (
        "try", "can",
    ),
    "templatestring": (
        "templatestring",
    ),
    "filesystem": (
        "abspath", "basename", "dirname", "pathexpand", "file", "filebase64",
        "filebase64sha256", "filebase64sha512", "fileexists", "fileset", "filemd5", "filesha1",
        "filesha256", "filesha512", "templatefile",
    ),
}
_MODULE_OF = {name: module for module, names in _INDEX.items() for name in names}

# Functions Terraform removed: still known, so that calling them gives its explanation.
_REMOVED = frozenset({"list", "map"})
_CORE = "core::"


def _load(module: str, base_dir: str) -> list[Function]:
    mod = importlib.import_module(f"engine.lang.functions.{module}")
    factory = getattr(mod, "filesystem_functions", None)
    return list(factory(base_dir) if factory is not None else mod.FUNCTIONS)


class FunctionTable(Mapping[str, "Function"]):
    """Every built-in function by name (and, since Terraform 1.8, by `core::name`) for a
    module rooted at `base_dir`, with `overrides` taking precedence; topic modules are
    imported on first lookup."""

    __slots__ = ("_base_dir", "_loaded", "_overrides")

    def __init__(self, base_dir: str = ".", overrides: Mapping[str, Function] | None = None) -> None:
        self._base_dir = base_dir
        self._loaded: dict[str, Function] = {}
        self._overrides: dict[str, Function] = dict(overrides or {})

    def with_function(self, name: str, fn: Function) -> FunctionTable:
        """A table like this one in which `name` is `fn`."""
        return self.with_functions({name: fn})

    def with_functions(self, overrides: Mapping[str, Function]) -> FunctionTable:
        """A table like this one with `overrides` taking precedence."""
        return FunctionTable(self._base_dir, {**self._overrides, **overrides})

    def __getitem__(self, name: str) -> Function:
        fn = self._overrides.get(name) or self._loaded.get(name)
        if fn is not None:
            return fn
        plain = name[len(_CORE):] if name.startswith(_CORE) else name
        module = _MODULE_OF.get(plain)
        if module is None or (plain is not name and plain in _REMOVED):
            raise KeyError(name)
        for f in _load(module, self._base_dir):
            self._loaded[f.name] = f
            if f.name not in _REMOVED:
                self._loaded[_CORE + f.name] = f
        return self._loaded[name]

    def __contains__(self, name: object) -> bool:
        if not isinstance(name, str):
            return False
        if name in self._overrides:
            return True
        plain = name[len(_CORE):] if name.startswith(_CORE) else name
        return plain in _MODULE_OF and not (plain is not name and plain in _REMOVED)

    def __iter__(self) -> Iterator[str]:
        names = dict.fromkeys(_MODULE_OF)
        names.update(dict.fromkeys(_CORE + n for n in _MODULE_OF if n not in _REMOVED))
        names.update(dict.fromkeys(self._overrides))
        return iter(names)

    def __len__(self) -> int:
        return sum(1 for _ in self)


def function_table(base_dir: str = ".") -> FunctionTable:
    """Every built-in function, by name, for a module rooted at `base_dir`."""
    return FunctionTable(base_dir)


__all__ = ["FunctionTable", "function_table"]
