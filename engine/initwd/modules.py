"""Installing the module tree for `init`, and `.terraform/modules/modules.json`.

`install_modules(root_dir, say, upgrade, environ)` walks the module calls from the root module
depth-first in name order, as Terraform's module installer does. A local source (`./x`,
`../x`) is used in place, relative to its caller's directory: its record's `Dir` is the module
directory relative to the root (`mod/sub`, or inside a remote package
`.terraform/modules/a/sub`). Registry and remote sources are installed into
`.terraform/modules/<key>` by `engine.initwd.remote` (the record names the selected `Version`
of a registry module and the package's `//subdir`). A module the existing manifest records is
reused, silently, unless `upgrade`, its source changed or its version no longer meets the
constraint. The manifest `{"Modules":[{"Key":"","Source":"","Dir":"."}, {"Key":"a",
"Source":"./mod","Dir":"mod"}, ...]}` is written compactly, as Terraform writes it, also
after errors (the modules that were installed).

`say(line)` receives the progress lines (`- a.b in mod/sub`, `Downloading SRC for KEY...`).
"""

from __future__ import annotations

import contextlib
import json
import os
import posixpath
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field

from engine.configs.loader import load_module, recursive_call
from engine.configs.module import Module
from engine.configs.module_calls import ModuleCall, is_local_source
from engine.diags import Diagnostics, error
from engine.gocompat import json as go_json
from engine.gocompat.json_syntax import go_syntax_error
from engine.initwd.remote import RemoteInstaller, package_of, source_string

MODULES_DIR = os.path.join(".terraform", "modules")
MANIFEST = os.path.join(MODULES_DIR, "modules.json")
_MAX_DEPTH = 64


@dataclass(slots=True)
class ModuleRecord:
    """One entry of modules.json."""

    key: str
    source: str
    dir: str
    version: str = ""

    def as_json(self) -> dict[str, str]:
        doc = {"Key": self.key, "Source": self.source}
        if self.version:
            doc["Version"] = self.version
        doc["Dir"] = self.dir
        return doc


@dataclass(slots=True)
class ModuleInstall:
    """The outcome of installing: the root module, the manifest records, diagnostics."""

    root: Module
    records: list[ModuleRecord] = field(default_factory=list)
    diags: Diagnostics = field(default_factory=Diagnostics)
    #: a module could not be installed (not only a configuration problem): terraform's `get`
    #: then writes no manifest
    install_failed: bool = False


def _where(mc: ModuleCall) -> str:
    start = mc.decl_range.start
    return f"{os.path.basename(mc.decl_range.filename)}:{start.line}"


@dataclass
class _Walk:
    """What one install walk shares: the root, the prior manifest, the remote installer."""

    root_dir: str
    out: ModuleInstall
    say: Callable[[str], None]
    prior: dict[str, ModuleRecord]
    upgrade: bool
    remote: RemoteInstaller

    def reusable(self, key: str, mc: ModuleCall, source: str) -> ModuleRecord | None:
        """terraform's check of the recorded install: the same source, a version that still
        meets the constraint, a directory that exists; otherwise the record and its
        descendants' are dropped."""
        record = self.prior.get(key)
        replace = self.upgrade or record is None or record.source != source or bool(
            record.version and mc.version is not None and not mc.version.allows(record.version))
        if replace:
            for k in [k for k in self.prior if k == key or k.startswith(key + ".")]:
                del self.prior[k]
            return None
        assert record is not None
        return record if record.dir and os.path.isdir(os.path.join(self.root_dir, record.dir)) else None


def _local_source(source: str) -> str:
    """terraform's normalised local source (`./a/../b/` -> `./b`)."""
    clean = os.path.normpath(source.replace("\\", "/")).replace(os.sep, "/")
    return clean if clean.startswith("../") or clean == ".." else "./" + clean


# (package address, the path inside it as terraform tracks it from "*", the first module
# whose local source left it or "") for modules that belong to a remote package
_Package = tuple[str, str, str]


def _package_step(pkg: _Package | None, mc: ModuleCall, path: tuple[str, ...]) -> _Package | None:
    if not is_local_source(mc.source):
        addr, subdir = package_of(mc.source)
        return addr, posixpath.normpath(posixpath.join("*", subdir)), ""
    if pkg is None:
        return None
    nxt = posixpath.normpath(posixpath.join(pkg[1], mc.source.replace("\\", "/")))
    escapee = pkg[2] or ("" if nxt.startswith("*/") else ".".join(f"module.{p}" for p in path))
    return pkg[0], nxt, escapee


def _errno_text(path: str) -> str:
    """Go's text of the error lstat gives for a path that does not resolve."""
    try:
        os.lstat(path)
    except FileNotFoundError:
        return "no such file or directory"
    except NotADirectoryError:
        return "not a directory"
    except OSError as exc:
        return (exc.strerror or str(exc)).lower()
    return "no such file or directory"


def _escape_error(pkg: _Package) -> Diagnostics:
    return Diagnostics([error(
        "Local module path escapes module package",
        f"The given source directory for {pkg[2]} would be outside of its containing package "
        f'"{pkg[0]}". Local source addresses starting with "../" must stay within the same '
        "package that the calling module belongs to.")])


def _walk(
    module: Module, rel_dir: str, path: tuple[str, ...], w: _Walk, ancestors: tuple[str, ...] = (),
    pkg: _Package | None = None,
) -> None:
    if len(path) >= _MAX_DEPTH:
        return
    root_dir, out, say = w.root_dir, w.out, w.say
    ancestors = (*ancestors, os.path.realpath(os.path.join(root_dir, rel_dir)))
    for name in sorted(module.module_calls):
        mc = module.module_calls[name]
        if not getattr(mc, "source_ok", True):
            continue
        child_path = (*path, name)
        key = ".".join(child_path)
        local = is_local_source(mc.source)
        source = _local_source(mc.source) if local else source_string(mc.source)
        record = w.reusable(key, mc, source)
        child_pkg = _package_step(pkg, mc, child_path)
        version = ""
        if record is not None:
            child_rel, version = record.dir, record.version
        elif local:
            child_rel = os.path.normpath(os.path.join(rel_dir, mc.source)).replace(os.sep, "/")
            escaped = child_pkg is not None and child_pkg[2]
            if not os.path.exists(os.path.join(root_dir, child_rel)) and not escaped:
                say(f"- {key} in ")  # terraform names the directory it could not resolve: none
            elif not escaped or os.path.isdir(os.path.join(root_dir, child_rel)):
                say(f"- {key} in {child_rel}")
        else:
            inst = os.path.join(MODULES_DIR, key)
            got, version, diags = w.remote.install(name, mc, key, os.path.normpath(os.path.join(root_dir, inst)), say)
            out.diags.extend(diags)
            out.install_failed = out.install_failed or diags.has_errors
            if got is None:
                continue
            child_rel = os.path.relpath(got, root_dir).replace(os.sep, "/")
        directory = os.path.join(root_dir, child_rel)
        if not os.path.isdir(directory) and local and child_pkg is not None and child_pkg[2]:
            # as terraform: the call is recorded without a directory, and only the escape named
            say(f"- {key} in")
            out.records.append(ModuleRecord(key, source, ""))
            out.diags.extend(_escape_error(child_pkg))
            continue
        if not os.path.isdir(directory):
            out.install_failed = True
            shown = child_rel
            if local and record is None and not os.path.exists(directory):
                # terraform's EvalSymlinks fails first; the call is recorded without a directory
                out.diags.append(error(
                    "Unreadable module directory",
                    f"Unable to evaluate directory symlink: lstat {child_rel}: "
                    f"{_errno_text(directory)}"))
                shown = ""
                out.records.append(ModuleRecord(key, source, ""))
            out.diags.append(
                error(
                    "Unreadable module directory",
                    f'The directory {shown} could not be read for module "{name}" at {_where(mc)}.',
                )
            )
            continue
        if os.path.realpath(directory) in ancestors:
            out.diags.append(recursive_call(name, mc, _where(mc)))
            continue
        child, diags = load_module(directory)
        out.diags.extend(diags)
        out.records.append(ModuleRecord(key, source, child_rel, version))
        _walk(child, child_rel, child_path, w, ancestors, child_pkg)


def install_modules(root_dir: str, say: Callable[[str], None], upgrade: bool = False,
                    environ: dict[str, str] | None = None) -> ModuleInstall:
    """Walk, install and record the module tree under `root_dir` (see the module docstring).
    Modules the existing modules.json records are reused unless `upgrade`, or their source or
    version constraint changed. `environ` supplies credentials and CA settings for remote
    sources (os.environ when None). Diagnostics name files relative to the current directory
    when `root_dir` is it, as terraform's do."""
    if os.path.abspath(root_dir) == os.getcwd():
        root_dir = "."
    root, diags = load_module(root_dir)
    out = ModuleInstall(root, [ModuleRecord("", "", ".")], diags)
    if diags.has_errors:
        return out
    prior = {r.key: r for r in read_manifest(root_dir) if r.key}
    env = dict(os.environ) if environ is None else environ
    _walk(root, ".", (), _Walk(root_dir, out, say, prior, upgrade, RemoteInstaller(env)))
    return out


def manifest_json(records: list[ModuleRecord]) -> str:
    """modules.json text for `records`, as Terraform writes it."""
    return go_json.dumps({"Modules": [r.as_json() for r in records]}, indent=None)


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
        ModuleRecord(str(r.get("Key") or ""), str(r.get("Source") or ""), str(r.get("Dir") or ""),
                     str(r.get("Version") or ""))
        for r in doc.get("Modules") or [] if isinstance(r, dict)
    ]
