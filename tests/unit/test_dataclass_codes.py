"""The dataclass code cache: cached classes behave as compiled ones, and bad files are ignored."""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from engine import dataclass_codes

ROOT = Path(__file__).resolve().parents[2]

_CLASS_SOURCE = '''
from dataclasses import dataclass, field

@dataclass(frozen=True)
class Point:
    """A point."""
    x: int
    y: int = 0
    tags: tuple[str, ...] = field(default=())
'''


def _define(module_name: str, cached: Path) -> Any:
    namespace: dict[str, Any] = {"__name__": module_name, "__cached__": str(cached)}
    sys.modules[module_name] = type(sys)(module_name)
    sys.modules[module_name].__dict__.update(namespace)
    try:
        exec(_CLASS_SOURCE, sys.modules[module_name].__dict__)
        return sys.modules[module_name].__dict__["Point"]
    finally:
        del sys.modules[module_name]


def _codes(module_name: str) -> Any:
    assert dataclass_codes._modules is not None
    return dataclass_codes._modules[module_name]


def _check_point(point_cls: Any) -> None:
    p = point_cls(1, tags=("a",))
    assert p == point_cls(1, 0, ("a",))
    assert hash(p) == hash(point_cls(1, 0, ("a",)))
    assert repr(p) == "Point(x=1, y=0, tags=('a',))"
    with pytest.raises(dataclasses.FrozenInstanceError):
        p.x = 2


@pytest.fixture
def fresh_modules(monkeypatch: pytest.MonkeyPatch) -> None:
    """A new process's view: no module read yet (the installed hook stays in place)."""
    assert getattr(dataclasses, "exec", None) is dataclass_codes._exec, "engine installs it"
    monkeypatch.setattr(dataclass_codes, "_modules", {})
    monkeypatch.setattr(sys, "dont_write_bytecode", False)


def test_a_saved_module_is_read_back_and_behaves_the_same(
        tmp_path: Path, fresh_modules: None) -> None:
    cached = tmp_path / "probe.cpython-311.pyc"
    _check_point(_define("engine.probe_codes", cached))
    dataclass_codes.save()
    stored = tmp_path / "probe.cpython-311.dataclasses"
    assert stored.is_file()

    dataclass_codes._modules = {}  # as the next process would start
    point_cls = _define("engine.probe_codes", cached)
    codes = _codes("engine.probe_codes")
    assert codes.used and not codes.grew, "every method came from the file"
    _check_point(point_cls)


def test_a_corrupt_or_foreign_file_is_ignored(tmp_path: Path, fresh_modules: None) -> None:
    cached = tmp_path / "probe.cpython-311.pyc"
    stored = tmp_path / "probe.cpython-311.dataclasses"
    stored.write_bytes(b"\x00not marshal")
    _check_point(_define("engine.probe_codes", cached))
    assert _codes("engine.probe_codes").grew
    dataclass_codes.save()
    assert stored.read_bytes() != b"\x00not marshal", "rewritten with good entries"

    import marshal
    stored.write_bytes(marshal.dumps({"": b"other magic", "x": compile("1", "", "eval")}))
    dataclass_codes._modules = {}
    _check_point(_define("engine.probe_codes", cached))
    assert _codes("engine.probe_codes").grew, "another Python's file"


def test_other_packages_and_no_bytecode_writing_are_left_alone(
        tmp_path: Path, fresh_modules: None, monkeypatch: pytest.MonkeyPatch) -> None:
    _check_point(_define("someone_else.module", tmp_path / "other.cpython-311.pyc"))
    assert "someone_else.module" not in (dataclass_codes._modules or {})

    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    _check_point(_define("engine.probe_codes", tmp_path / "probe.cpython-311.pyc"))
    dataclass_codes.save()
    assert not list(tmp_path.iterdir())


def test_a_real_import_writes_beside_the_bytecode_only_when_allowed(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.update(PYTHONPYCACHEPREFIX=str(tmp_path / "pyc"), PYTHONPATH=str(ROOT))
    probe = "import engine.source as s; print(s.SourceFile('a.tf', 'x').filename)"
    for _ in range(2):  # the second run reads what the first wrote
        out = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True,
                             text=True, check=True)
        assert out.stdout.strip() == "a.tf"
    written = sorted(p.name for p in (tmp_path / "pyc").rglob("*.dataclasses"))
    assert any(name.startswith("__init__.") for name in written), written

    env.update(PYTHONDONTWRITEBYTECODE="1", PYTHONPYCACHEPREFIX=str(tmp_path / "none"))
    subprocess.run([sys.executable, "-c", probe], env=env, check=True, capture_output=True)
    assert not list((tmp_path / "none").rglob("*.dataclasses"))

    env.update(GROUNDPLAN_DATACLASS_CODES="0", PYTHONPYCACHEPREFIX=str(tmp_path / "off"))
    env.pop("PYTHONDONTWRITEBYTECODE")
    subprocess.run([sys.executable, "-c", probe], env=env, check=True, capture_output=True)
    assert not list((tmp_path / "off").rglob("*.dataclasses"))
