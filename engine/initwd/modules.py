"""Installing the module tree for `init` and `get`, and `.terraform/modules/modules.json`.

`install_modules(root_dir, say, upgrade, environ, requests, early)` loads the root module
(its problems are the install's `early` diagnostics, which do not stop it, as terraform's
LoadConfigDirWithTests' do not) and walks the module calls as terraform's module installer
does: depth-first in name order, then the modules of `requests`, the test files' run blocks
(engine.testing.loading.install_modules_with_tests loads them: keys
`test.<dirs>.<file>.<run>`; their local sources are relative to the root), each with its own
calls below it.

A local source (`./x`, `../x`) is used in place, relative to its caller's directory: its
record's `Dir` is the module directory relative to the root (`mod/sub`, or inside a remote
package `.terraform/modules/a/sub`), and `say` gets `- a.b in mod/sub`. A local directory
that does not exist gets terraform's two "Unreadable module directory" errors and a record
with an empty `Dir`. Registry and remote sources are installed into `.terraform/modules/<key>`
by `engine.initwd.remote` (the record names the selected `Version` of a registry module and
the package's `//subdir`).

The walk starts from the manifest already on disk: a module recorded with the same source, a
version that still meets the constraint and a directory that exists is kept as it is,
silently (with `upgrade`, every one is installed again); one whose source changed is
installed again, and its descendants' records dropped; records of calls that are gone stay,
as terraform leaves them. The manifest `{"Modules":[{"Key":"","Source":"","Dir":"."},
{"Key":"a","Source":"./mod","Dir":"mod"}, ...]}` is written compactly with its records
sorted by key, as terraform writes it, also after errors (the modules that were installed).

`say(line)` receives the progress lines (`- a.b in mod/sub`, `Downloading SRC for KEY...`).
"""

from __future__ import annotations

import contextlib
import json
import os
import posixpath
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from engine.configs.loader import ModuleRequest, load_module, recursive_call
from engine.configs.module import Module
from engine.configs.module_calls import SourcedCall, clean_local_source, is_local_source
from engine.diags import Diagnostics, error
from engine.gocompat import json as go_json
from engine.gocompat.json_syntax import go_syntax_error
from engine.initwd.remote import RemoteInstaller, package_of, source_string

MODULES_DIR = os.path.join(".terraform", "modules")
MANIFEST = os.path.join(MODULES_DIR, "modules.json")
_MAX_DEPTH = 64


@dataclass(slots=True)
class ModuleRecord:
    """One entry of modules.json (`Version` only for registry modules)."""

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
    """The outcome of installing: the root module, the run blocks' module requests, the
    manifest records (sorted by key), the install's diagnostics and those of loading the root
    module and its test files (`early`)."""

    root: Module
    requests: list[ModuleRequest] = field(default_factory=list)
    records: list[ModuleRecord] = field(default_factory=list)
    diags: Diagnostics = field(default_factory=Diagnostics)
    early: Diagnostics = field(default_factory=Diagnostics)
    #: a module could not be installed (not only a configuration problem): terraform's `get`
    #: then writes no manifest
    install_failed: bool = False

    @property
    def has_modules(self) -> bool:
        """Whether there is anything to install: module calls, or run blocks' modules (when
        terraform's init says "Initializing modules...")."""
        return bool(self.root.module_calls or self.requests)


def _where(call: SourcedCall) -> str:
    start = call.decl_range.start
    return f"{os.path.normpath(call.decl_range.filename)}:{start.line}"


@dataclass
class _Walk:
    """What one install walk shares: the root, the manifest as it is being rewritten (the
    prior one's records first), the remote installer."""

    root_dir: str
    out: ModuleInstall
    say: Callable[[str], None]
    manifest: dict[str, ModuleRecord]
    upgrade: bool
    remote: RemoteInstaller

    def reusable(self, key: str, call: SourcedCall, source: str) -> ModuleRecord | None:
        """terraform's check of the recorded install: the same source, a version that still
        meets the constraint, a directory that exists; otherwise the record and its
        descendants' are dropped."""
        record = self.manifest.get(key)
        replace = self.upgrade or record is None or record.source != source or bool(
            record.version and call.version is not None
            and not call.version.allows(record.version))
        if replace:
            for k in [k for k in self.manifest if k == key or k.startswith(key + ".")]:
                del self.manifest[k]
            return None
        assert record is not None
        return record if record.dir and os.path.isdir(os.path.join(self.root_dir, record.dir)) else None


# (package address, the path inside it as terraform tracks it from "*", the first module
# whose local source left it or "") for modules that belong to a remote package
_Package = tuple[str, str, str]


def _package_step(pkg: _Package | None, call: SourcedCall, path: tuple[str, ...]) -> _Package | None:
    if not is_local_source(call.source):
        addr, subdir = package_of(call.source)
        return addr, posixpath.normpath(posixpath.join("*", subdir)), ""
    if pkg is None:
        return None
    nxt = posixpath.normpath(posixpath.join(pkg[1], call.source.replace("\\", "/")))
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
    """Install the module calls of `module` (at `rel_dir`, key path `path`) and below."""
    if len(path) >= _MAX_DEPTH:
        return
    ancestors = (*ancestors, os.path.realpath(os.path.join(w.root_dir, rel_dir)))
    for name in sorted(module.module_calls):
        mc = module.module_calls[name]
        if mc.source_ok:
            _install(name, mc, (*path, name), rel_dir, w, ancestors, pkg)


def _install(
    name: str, call: SourcedCall, child_path: tuple[str, ...], rel_dir: str, w: _Walk,
    ancestors: tuple[str, ...], pkg: _Package | None,
) -> None:
    """Install (or keep) the module `call` names from the module at `rel_dir`, recorded as
    `child_path`, then its own calls."""
    root_dir, out, say = w.root_dir, w.out, w.say
    key = ".".join(child_path)
    local = is_local_source(call.source)
    source = clean_local_source(call.source) if local else source_string(call.source)
    record = w.reusable(key, call, source)
    child_pkg = _package_step(pkg, call, child_path)
    version = ""
    if record is not None:
        child_rel, version = record.dir, record.version
    elif local:
        child_rel = os.path.normpath(os.path.join(rel_dir, call.source)).replace(os.sep, "/")
        escaped = child_pkg is not None and child_pkg[2]
        if not os.path.exists(os.path.join(root_dir, child_rel)) and not escaped:
            say(f"- {key} in ")  # terraform names no directory (it could not resolve one)
        elif not escaped or os.path.isdir(os.path.join(root_dir, child_rel)):
            say(f"- {key} in {child_rel}")
    else:
        inst = os.path.join(MODULES_DIR, key)
        got, version, diags = w.remote.install(
            name, call, key, os.path.normpath(os.path.join(root_dir, inst)), say)
        out.diags.extend(diags)
        out.install_failed = out.install_failed or diags.has_errors
        if got is None:
            return
        child_rel = os.path.relpath(got, root_dir).replace(os.sep, "/")
    directory = os.path.join(root_dir, child_rel)
    if not os.path.isdir(directory) and local and child_pkg is not None and child_pkg[2]:
        # as terraform: the call is recorded without a directory, and only the escape named
        say(f"- {key} in")
        w.manifest[key] = ModuleRecord(key, source, "")
        out.diags.extend(_escape_error(child_pkg))
        return
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
            w.manifest[key] = ModuleRecord(key, source, "")
        out.diags.append(error(
            "Unreadable module directory",
            f'The directory {shown} could not be read for module "{name}" at {_where(call)}.'))
        return
    if os.path.realpath(directory) in ancestors:
        out.diags.append(recursive_call(name, call, _where(call)))
        return
    child, diags = load_module(directory)
    out.diags.extend(diags)
    w.manifest[key] = ModuleRecord(key, source, child_rel, version)
    _walk(child, child_rel, child_path, w, ancestors, child_pkg)


def install_modules(
    root_dir: str, say: Callable[[str], None], upgrade: bool = False,
    environ: dict[str, str] | None = None, requests: Sequence[ModuleRequest] = (),
    early: Diagnostics | None = None,
) -> ModuleInstall:
    """Walk, install and record the module tree under `root_dir`, then the modules of
    `requests` (see the module docstring); `early` holds the test files' problems, shown
    with the root module's. `environ` supplies credentials and CA settings for remote
    sources (os.environ when None). Diagnostics name files relative to the current directory
    when `root_dir` is it, as terraform's do: a caller that loads test files first names them
    as `display_dir(root_dir)` does."""
    root_dir = display_dir(root_dir)
    root, diags = load_module(root_dir)
    if early is not None:
        diags.extend(early)
    out = ModuleInstall(root, list(requests), [ModuleRecord("", "", ".")], early=diags)
    if not root.files:
        return out  # terraform's IsEmptyDir: init stops there
    manifest = {r.key: r for r in read_manifest(root_dir) if r.key}
    manifest[""] = ModuleRecord("", "", ".")
    env = dict(os.environ) if environ is None else environ
    w = _Walk(root_dir, out, say, manifest, upgrade, RemoteInstaller(env))
    _walk(root, ".", (), w)
    for req in requests:
        # relative to the root; a run block may name the root module's own directory: it is
        # loaded as a root would be
        _install(req.name, req, req.path, ".", w, (), None)
    out.records = [manifest[k] for k in sorted(manifest)]
    return out


def display_dir(root_dir: str) -> str:
    """`root_dir` as the installer names its files: "." when it is the current directory."""
    return "." if os.path.abspath(root_dir) == os.getcwd() else root_dir


def manifest_json(records: list[ModuleRecord]) -> str:
    """modules.json text for `records`, as Terraform writes it (sorted by key)."""
    ordered = sorted(records, key=lambda r: r.key)
    return go_json.dumps({"Modules": [r.as_json() for r in ordered]}, indent=None)


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
