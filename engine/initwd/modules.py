"""Installing the module tree for `init`, and `.terraform/modules/modules.json`.

`install_modules(root_dir, say)` walks the module calls from the root module depth-first in
name order, as Terraform's module installer does. A local source (`./x`, `../x`) is used in
place: its record's `Dir` is the module directory relative to the root (`mod/sub`). Registry
and remote sources cannot be fetched here (no network): they get Terraform's
"Error accessing remote module registry" / "Failed to download module" errors. The manifest
`{"Modules":[{"Key":"","Source":"","Dir":"."}, {"Key":"a","Source":"./mod","Dir":"mod"},
...]}` is written compactly, as Terraform writes it, when the walk found no errors.

`say(line)` receives the progress lines (`- a.b in mod/sub`, `Downloading SRC for KEY...`).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field

from engine.configs.loader import load_module, recursive_call
from engine.configs.module import Module
from engine.configs.module_calls import ModuleCall, is_local_source
from engine.diags import Diagnostics, error
from engine.gocompat.json_syntax import go_syntax_error

MANIFEST = os.path.join(".terraform", "modules", "modules.json")
_REGISTRY = re.compile(r"^([a-zA-Z0-9.-]+\.[a-zA-Z]+(:\d+)?/)?[0-9A-Za-z_-]+/[0-9A-Za-z_-]+/[0-9a-z]+(//.*)?$")
_MAX_DEPTH = 64


@dataclass(slots=True)
class ModuleRecord:
    """One entry of modules.json."""

    key: str
    source: str
    dir: str

    def as_json(self) -> dict[str, str]:
        return {"Key": self.key, "Source": self.source, "Dir": self.dir}


@dataclass(slots=True)
class ModuleInstall:
    """The outcome of installing: the root module, the manifest records, diagnostics."""

    root: Module
    records: list[ModuleRecord] = field(default_factory=list)
    diags: Diagnostics = field(default_factory=Diagnostics)


def _where(mc: ModuleCall) -> str:
    start = mc.decl_range.start
    return f"{os.path.basename(mc.decl_range.filename)}:{start.line}"


def _remote_error(name: str, mc: ModuleCall, say: Callable[[str], None], key: str) -> Diagnostics:
    if _REGISTRY.match(mc.source) and "::" not in mc.source:
        host = mc.source.split("/")[0] if mc.source.count("/") >= 3 else "registry.terraform.io"
        return Diagnostics(
            [
                error(
                    "Error accessing remote module registry",
                    f'Failed to retrieve available versions for module "{name}" ({_where(mc)}) from '
                    f"{host}: failed to request discovery document: groundplan installs only local "
                    "modules (sources starting with ./ or ../).",
                    mc.decl_range,
                )
            ]
        )
    say(f"Downloading {mc.source} for {key}...")
    return Diagnostics(
        [
            error(
                "Failed to download module",
                f'Could not download module "{name}" ({_where(mc)}) source code from "{mc.source}": '
                "groundplan installs only local modules (sources starting with ./ or ../).",
                mc.decl_range,
            )
        ]
    )


def _walk(
    module: Module, rel_dir: str, path: tuple[str, ...], root_dir: str, out: ModuleInstall,
    say: Callable[[str], None], ancestors: tuple[str, ...] = (),
) -> None:
    if len(path) >= _MAX_DEPTH:
        return
    ancestors = (*ancestors, os.path.realpath(os.path.join(root_dir, rel_dir)))
    for name in sorted(module.module_calls):
        mc = module.module_calls[name]
        if not getattr(mc, "source_ok", True):
            continue
        child_path = (*path, name)
        key = ".".join(child_path)
        if not is_local_source(mc.source):
            out.diags.extend(_remote_error(name, mc, say, key))
            continue
        child_rel = os.path.normpath(os.path.join(rel_dir, mc.source)).replace(os.sep, "/")
        say(f"- {key} in {child_rel}")
        directory = os.path.join(root_dir, child_rel)
        if not os.path.isdir(directory):
            out.diags.append(
                error(
                    "Unreadable module directory",
                    f'The directory {child_rel} could not be read for module "{name}" at {_where(mc)}.',
                    mc.decl_range,
                )
            )
            continue
        if os.path.realpath(directory) in ancestors:
            out.diags.append(recursive_call(name, mc, _where(mc)))
            continue
        child, diags = load_module(directory)
        out.diags.extend(diags)
        out.records.append(ModuleRecord(key, mc.source, child_rel))
        _walk(child, child_rel, child_path, root_dir, out, say, ancestors)


def install_modules(root_dir: str, say: Callable[[str], None]) -> ModuleInstall:
    """Walk and record the module tree under `root_dir` (see the module docstring).
    Diagnostics name files relative to the current directory when `root_dir` is it, as
    terraform's do."""
    if os.path.abspath(root_dir) == os.getcwd():
        root_dir = "."
    root, diags = load_module(root_dir)
    out = ModuleInstall(root, [ModuleRecord("", "", ".")], diags)
    if diags.has_errors:
        return out
    _walk(root, ".", (), root_dir, out, say)
    return out


def manifest_json(records: list[ModuleRecord]) -> str:
    """modules.json text for `records`, as Terraform writes it."""
    return json.dumps({"Modules": [r.as_json() for r in records]}, separators=(",", ":"))


def write_manifest(root_dir: str, records: list[ModuleRecord]) -> Diagnostics:
    """Write `.terraform/modules/modules.json` atomically (temporary file, fsync, rename)."""
    path = os.path.join(root_dir, MANIFEST)
    tmp = ""
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".modules.json.", dir=os.path.dirname(path))
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(manifest_json(records))
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except OSError as exc:
        if tmp:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
        return Diagnostics([error("Failed to update module manifest", f"Unable to write the module manifest file: {exc}")])
    return Diagnostics()


_RECORD_FIELDS = ("Key", "Source", "Version", "Dir")


def _snapshot_error(data: bytes) -> str | None:
    """Go's error decoding modules.json into Terraform's manifestSnapshotFile, or None."""
    syntax = go_syntax_error(data)
    if syntax is not None:
        return syntax.msg
    doc = json.loads(data.decode("utf-8", "replace"))
    if doc is None:
        return None
    if not isinstance(doc, dict):
        return (f"json: cannot unmarshal {_kind(doc)} into Go value of type "
                "modsdir.manifestSnapshotFile")
    records = doc.get("Modules")
    if records is None:
        return None
    if not isinstance(records, list):
        return (f"json: cannot unmarshal {_kind(records)} into Go struct field "
                "manifestSnapshotFile.Modules of type []modsdir.Record")
    for rec in records:
        if rec is None:
            continue
        if not isinstance(rec, dict):
            return (f"json: cannot unmarshal {_kind(rec)} into Go struct field "
                    "manifestSnapshotFile.Modules of type modsdir.Record")
        for name in _RECORD_FIELDS:
            v = rec.get(name)
            if v is not None and not isinstance(v, str):
                return (f"json: cannot unmarshal {_kind(v)} into Go struct field "
                        f"Record.Modules.{name} of type string")
    return None


def _kind(v: object) -> str:
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, (int, float)):
        return "number"
    if isinstance(v, str):
        return "string"
    return "array" if isinstance(v, list) else "object"


def check_manifest(root_dir: str) -> Diagnostics:
    """Terraform's refusal of a modules.json it cannot decode ("failed to read module
    manifest: error unmarshalling snapshot: ..."); empty diagnostics when it is absent,
    empty or well-formed."""
    try:
        with open(os.path.join(root_dir, MANIFEST), "rb") as fh:
            data = fh.read()
    except FileNotFoundError:
        return Diagnostics()
    except OSError as exc:
        return Diagnostics([error(f"failed to read module manifest: {exc.strerror or exc}")])
    problem = _snapshot_error(data) if data else None
    if problem is None:
        return Diagnostics()
    return Diagnostics([error(f"failed to read module manifest: error unmarshalling snapshot: {problem}")])


def read_manifest(root_dir: str) -> list[ModuleRecord]:
    """The records of an existing modules.json ([] when absent or unreadable)."""
    try:
        with open(os.path.join(root_dir, MANIFEST), "rb") as fh:
            data = fh.read()
    except OSError:
        return []
    if not data or _snapshot_error(data) is not None:
        return []
    doc = json.loads(data.decode("utf-8", "replace")) or {}
    return [
        ModuleRecord(str(r.get("Key") or ""), str(r.get("Source") or ""), str(r.get("Dir") or ""))
        for r in doc.get("Modules") or [] if isinstance(r, dict)
    ]
