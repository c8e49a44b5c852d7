"""The lazy function table: its index matches the topic modules, lookups import on demand."""

from __future__ import annotations

import importlib
import subprocess
import sys

from engine.lang.functions import _INDEX, FunctionTable, function_table
from engine.lang.functions.base import Function
from engine.values import STRING


def test_index_names_exactly_the_functions_each_module_defines() -> None:
    for module, names in _INDEX.items():
        mod = importlib.import_module(f"engine.lang.functions.{module}")
        factory = getattr(mod, "filesystem_functions", None)
        defined = [f.name for f in (factory(".") if factory else mod.FUNCTIONS)]
        assert sorted(defined) == sorted(names), module


def test_lookup_core_names_removed_functions_and_overrides() -> None:
    table = function_table(".")
    assert table["upper"].name == "upper" and table["core::upper"] is table["upper"]
    assert "list" in table and "core::list" not in table and table.get("core::list") is None
    assert "nope" not in table and table.get("nope") is None
    names = list(table)
    assert "upper" in names and "core::upper" in names and len(names) == len(table)
    fake = Function("timestamp", (), lambda args, ret: args[0], lambda args: STRING)
    other = table.with_function("timestamp", fake)
    assert other["timestamp"] is fake and table["timestamp"] is not fake
    assert isinstance(other, FunctionTable)


def test_a_table_imports_only_the_modules_it_is_asked_for() -> None:
    code = (
        "import sys\n"
        "from engine.lang.functions import function_table\n"
        "t = function_table('.')\n"
        "assert 'yamldecode' in t and 'bcrypt' in t\n"
        "t['upper']\n"
        "print(sorted(m for m in sys.modules if m.startswith('engine.lang.functions.')))\n"
        "print('yaml' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.splitlines()
    assert "engine.lang.functions.crypto" not in out[0]
    assert "engine.lang.functions.strings" in out[0]
    assert out[1] == "False"
