"""A persistent cache of the code `dataclasses` compiles for the engine's generated methods.

`@dataclass` writes each generated method (`__init__`, `__repr__`, `__eq__`, `__hash__`, a
frozen class's `__setattr__`/`__delattr__`) as source text and `exec`s it. On CPython 3.11
that compiling is most of the ~0.5 ms a class costs; a `plan` imports about 150 of the
engine's dataclasses, which made it half of the command's import time. The text is a pure
function of the class's fields and options, and the same text always compiles to the same
code, so this module keeps each module's `{text: code object}` in a `marshal` file beside that
module's bytecode (`x.cpython-311.pyc` → `x.cpython-311.dataclasses`, so `sys.pycache_prefix`
applies) and lets `dataclasses` exec the code object instead of compiling the text again.

The contract:
- Only classes defined in the project's own packages (`engine`, `providers`, `functions`) are
  cached, and only when the module has a bytecode path (`__cached__`); any other dataclass
  is compiled exactly as without this module.
- A cache entry is keyed by the whole source text, so a changed class compiles anew; the
  file's name carries the interpreter's cache tag (as the `.pyc` does) and its first entry
  the bytecode magic number, so a file from another Python is ignored.
- A module's file is written at interpreter exit, atomically, with the texts this process
  used for it, only when it compiled something new for that module and bytecode writing is
  allowed (`sys.dont_write_bytecode`, i.e.
  `PYTHONDONTWRITEBYTECODE`, turns writing off as it does for `.pyc` files). An unreadable,
  corrupt or unwritable file is ignored: the cost is only the compiling it would have saved.
- `GROUNDPLAN_DATACLASS_CODES=0` turns the cache off.

Installed by `engine/__init__.py`, before any of the engine's dataclasses is defined.
"""

from __future__ import annotations

import atexit
import builtins
import dataclasses
import importlib.util
import marshal
import os
import sys
from types import CodeType
from typing import Any

_PROJECT_PACKAGES = ("engine.", "providers.", "functions.")
_SUFFIX = ".dataclasses"  # beside the module's .pyc: `x.cpython-311.pyc` -> `x.cpython-311.dataclasses`


class _ModuleCodes:
    """One module's code objects by source text: read on first use, rewritten at exit (with
    exactly the texts this process used) when the module compiled anything new."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.codes = self._load()
        self.used: dict[str, CodeType] = {}
        self.grew = False

    def _load(self) -> dict[str, CodeType]:
        try:
            with open(self.path, "rb") as f:
                loaded = marshal.load(f)
        except (OSError, EOFError, ValueError, TypeError):
            return {}
        if not isinstance(loaded, dict) or loaded.pop("", None) != importlib.util.MAGIC_NUMBER:
            return {}
        return loaded

    def code_for(self, source: str) -> CodeType:
        """The compiled code of `source`, from the file or compiled (and remembered) now."""
        code = self.codes.get(source)
        if code is None:
            code = compile(source, "<string>", "exec")
            self.codes[source] = code
            self.grew = True
        self.used[source] = code
        return code

    def save(self) -> None:
        """Write the used texts atomically if anything was compiled; failures are ignored."""
        if not self.grew:
            return
        table: dict[str, Any] = {"": importlib.util.MAGIC_NUMBER, **self.used}
        directory = os.path.dirname(self.path)
        try:
            os.makedirs(directory, exist_ok=True)
            tmp = f"{self.path}.{os.getpid()}.tmp"
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
            try:
                with os.fdopen(fd, "wb") as f:
                    marshal.dump(table, f)
                os.replace(tmp, self.path)
            except BaseException:
                os.unlink(tmp)
                raise
        except (OSError, ValueError):
            return
        self.grew = False


def cache_path(cached: str) -> str:
    """The cache file of the module whose bytecode file is `cached` (its `__cached__`)."""
    base = cached[:-4] if cached.endswith(".pyc") else cached
    return base + _SUFFIX


_modules: dict[str, _ModuleCodes] | None = None


def _exec(source: Any, globals: dict[str, Any] | None = None,
          locals: dict[str, Any] | None = None) -> None:
    """`exec` as `dataclasses` sees it: project classes' method texts come from the cache."""
    if _modules is not None and isinstance(source, str) and globals is not None:
        name = globals.get("__name__")
        cached = globals.get("__cached__")
        if (isinstance(name, str) and name.startswith(_PROJECT_PACKAGES)
                and isinstance(cached, str)):
            codes = _modules.get(name)
            if codes is None:
                codes = _modules[name] = _ModuleCodes(cache_path(cached))
            source = codes.code_for(source)
    builtins.exec(source, globals, locals)


def install() -> None:
    """Route `dataclasses`' compiling through the cache. Idempotent; does nothing when
    `GROUNDPLAN_DATACLASS_CODES=0`."""
    global _modules
    if os.environ.get("GROUNDPLAN_DATACLASS_CODES", "1") == "0" or _modules is not None:
        return
    _modules = {}
    atexit.register(save)
    dataclasses.exec = _exec  # type: ignore[attr-defined]  # a module global shadows the builtin


def uninstall() -> None:
    """Save what was compiled and give `dataclasses` the builtin `exec` back."""
    global _modules
    save()
    _modules = None
    if getattr(dataclasses, "exec", None) is _exec:
        del dataclasses.exec  # type: ignore[attr-defined]


def save() -> None:
    """Write every module's cache that grew (unless bytecode writing is off)."""
    if _modules is None or sys.dont_write_bytecode:
        return
    for codes in list(_modules.values()):
        codes.save()
