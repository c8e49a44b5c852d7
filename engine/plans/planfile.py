"""The saved plan file: a zip archive laid out as Terraform's.

Members:

- `tfplan.json`: the plan in our lossless encoding (`engine.plans.codec`);
- `tfstate`: the prior state (v4 JSON), `tfstate-prev`: the previous run's state;
- `tfconfig/m-<module key>/<file>`: every `.tf`, `.tf.json`, `.tfvars` and `.tfvars.json`
  file of every module directory, with `tfconfig/modules.json` as the manifest
  (`[{"Key": "", "Dir": "."}, {"Key": "child", "Source": "./mod", "Dir": "mod"}]`);
- `.terraform.lock.hcl`: the dependency lock file, when there is one;
- `tfplan-meta.json`: `{"config_hash": "sha256:<hex>"}`, the hash of the snapshot.

`write_planfile` writes atomically (a temporary file in the same directory, then a rename):
a failure never leaves a partial plan behind. An optional `encrypt(bytes) -> bytes` is applied
to the whole archive, and `read_planfile`'s `decrypt` undoes it. `read_planfile` returns
diagnostics (Terraform's `Failed to load "x" as a plan file`) instead of raising.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import tempfile
import zipfile
import zlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from engine.diags import Diagnostics, error
from engine.gocompat.json_syntax import go_syntax_error
from engine.hcl.gcpause import paused_cyclic_gc
from engine.plans.codec import CodecError, decode_plan, encode_plan
from engine.plans.model import Plan
from engine.states import StateFile, read_state, write_state
from engine.states.encryption import EncryptionError
from engine.values.json import dumps, loads

PLAN_MEMBER = "tfplan.json"
TERRAFORM_PLAN_MEMBER = "tfplan"  # terraform's own (protobuf) plan: not readable here
STATE_MEMBER = "tfstate"
PREV_STATE_MEMBER = "tfstate-prev"
CONFIG_PREFIX = "tfconfig/"
MANIFEST_MEMBER = "tfconfig/modules.json"
LOCK_MEMBER = ".terraform.lock.hcl"
META_MEMBER = "tfplan-meta.json"

# the files terraform's configuration snapshot holds: configuration only, never variable
# files (their values are recorded in the plan, ephemeral ones nowhere)
CONFIG_SUFFIXES = (".tf", ".tf.json")

Transform = Callable[[bytes], bytes]


@dataclass(slots=True)
class SnapshotModule:
    """One module's files: its directory (relative to the root), its source address as the
    calling module wrote it ("" for the root) and its configuration files by base name."""

    dir: str
    source_addr: str = ""
    files: dict[str, bytes] = field(default_factory=dict)


@dataclass(slots=True)
class ConfigSnapshot:
    """The configuration a plan was made from, by module key (`""`, `"a"`, `"a.b"`)."""

    modules: dict[str, SnapshotModule] = field(default_factory=dict)

    def hash(self) -> str:
        """`sha256:<hex>` over every module key, file name and file content, in order."""
        h = hashlib.sha256()
        for key in sorted(self.modules):
            mod = self.modules[key]
            h.update(f"module\0{key}\0{mod.source_addr}\0".encode())
            for name in sorted(mod.files):
                data = mod.files[name]
                h.update(f"file\0{name}\0{len(data)}\0".encode())
                h.update(data)
        return "sha256:" + h.hexdigest()


def snapshot_config(
    root_dir: str, module_dirs: Mapping[str, tuple[str, str]] | None = None
) -> ConfigSnapshot:
    """Read the configuration files of the root module (`root_dir`) and of each module in
    `module_dirs` (module key -> (directory relative to `root_dir`, source address))."""
    snap = ConfigSnapshot()
    entries: dict[str, tuple[str, str]] = {"": (".", "")}
    entries.update(module_dirs or {})
    for key, (rel_dir, source) in entries.items():
        mod = SnapshotModule(dir=rel_dir, source_addr=source)
        full = os.path.join(root_dir, rel_dir)
        for name in sorted(os.listdir(full)):
            path = os.path.join(full, name)
            if name.endswith(CONFIG_SUFFIXES) and os.path.isfile(path):
                with open(path, "rb") as f:
                    mod.files[name] = f.read()
        snap.modules[key] = mod
    return snap


@dataclass(slots=True)
class PlanFile:
    """Everything a saved plan file holds."""

    plan: Plan
    prior_state: StateFile | None
    prev_run_state: StateFile | None
    config: ConfigSnapshot
    lock_file: str | None
    config_hash: str


# ------------------------------------------------------------------------------ writing
def _archive(
    plan: Plan,
    prior_state: StateFile | None,
    prev_state: StateFile | None,
    config: ConfigSnapshot,
    lock_file_text: str | None,
) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        zf.writestr(PLAN_MEMBER, dumps(encode_plan(plan), indent=2) + "\n")
        if prior_state is not None:
            zf.writestr(STATE_MEMBER, write_state(prior_state))
        if prev_state is not None:
            zf.writestr(PREV_STATE_MEMBER, write_state(prev_state))
        manifest = []
        for key in sorted(config.modules):
            mod = config.modules[key]
            entry = {"Key": key, "Dir": mod.dir}
            if mod.source_addr:
                entry["Source"] = mod.source_addr
            manifest.append(entry)
            for name in sorted(mod.files):
                zf.writestr(f"{CONFIG_PREFIX}m-{key}/{name}", mod.files[name])
        zf.writestr(MANIFEST_MEMBER, json.dumps(manifest, indent=2))
        if lock_file_text is not None:
            zf.writestr(LOCK_MEMBER, lock_file_text)
        zf.writestr(META_MEMBER, json.dumps({"config_hash": config.hash()}))
    return buf.getvalue()


def write_planfile(
    path: str,
    plan: Plan,
    prior_state: StateFile | None,
    prev_state: StateFile | None,
    config_snapshot: ConfigSnapshot,
    lock_file_text: str | None = None,
    encrypt: Transform | None = None,
) -> Diagnostics:
    """Write the plan file at `path` atomically; problems come back as diagnostics and leave
    any existing file at `path` untouched."""
    diags = Diagnostics()
    try:
        # The encoded plan is a large acyclic tree freed by reference counting: pausing the
        # cyclic collector saves its repeated passes over it (up to half the time).
        with paused_cyclic_gc():
            payload = _archive(plan, prior_state, prev_state, config_snapshot, lock_file_text)
        if encrypt is not None:
            payload = encrypt(payload)
    except EncryptionError as exc:  # nothing is written: no plaintext instead
        diags.append(error("Failed to write plan file", _encryption_text(exc)))
        return diags
    except Exception as exc:  # encoding or the encryption hook failed: report, write nothing
        diags.append(error("Failed to write plan file", f"Failed to encode the plan: {exc}"))
        return diags
    directory = os.path.dirname(os.path.abspath(path))
    tmp_name = ""
    try:
        fd, tmp_name = tempfile.mkstemp(prefix=".tfplan-", dir=directory)
        with os.fdopen(fd, "wb") as f:
            f.write(payload)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp_name, path)
    except OSError as exc:
        if tmp_name and os.path.exists(tmp_name):
            os.unlink(tmp_name)
        diags.append(error("Failed to write plan file", f"Failed to write plan file: {exc}"))
    return diags


# ------------------------------------------------------------------------------ reading
_BOOKMARK_FIELDS = {"remote_plan_format": "int", "run_id": "string", "hostname": "string"}


def _encryption_text(exc: EncryptionError) -> str:
    """The encryption's diagnostics as one text ("Failed to decrypt plan: ...")."""
    return "\n".join(f"{d.summary}: {d.detail}" if d.detail else d.summary for d in exc.diags)


def _go_json_error(data: bytes) -> str:
    """Why Terraform's cloud-plan probe (LoadSavedPlanBookmark) refuses `data`: Go's JSON
    error, or the bookmark's own checks ("invalid remote plan format, must be 1", ...)."""
    syntax = go_syntax_error(data)
    if syntax is not None:
        return syntax.msg
    doc = json.loads(data.decode("utf-8", "replace"))
    if doc is None:
        doc = {}
    if not isinstance(doc, dict):
        kind = _go_kind(doc)
        return f"json: cannot unmarshal {kind} into Go value of type cloudplan.SavedPlanBookmark"
    for key, go_type in _BOOKMARK_FIELDS.items():
        v = doc.get(key)
        ok = (v is None or (go_type == "string" and isinstance(v, str))
              or (go_type == "int" and isinstance(v, int) and not isinstance(v, bool)))
        if not ok:
            return (f"json: cannot unmarshal {_go_kind(v)} into Go struct field "
                    f"SavedPlanBookmark.{key} of type {go_type}")
    if doc.get("remote_plan_format") != 1:
        return "invalid remote plan format, must be 1"
    if not doc.get("hostname"):
        return "invalid hostname"
    return "invalid run ID"


def _go_kind(v: object) -> str:
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, (int, float)):
        return f"number {v}" if isinstance(v, float) else "number"
    if isinstance(v, str):
        return "string"
    return "array" if isinstance(v, list) else "object"


def _neither(path: str, local_error: str, raw: bytes) -> Diagnostics:
    """Terraform's error when a file is neither a local plan nor a cloud plan bookmark."""
    return _not_a_plan(path, (
        f"couldn't load the provided path as either a local plan file ({local_error}) or a "
        f"saved cloud plan ({_go_json_error(raw)})"))


def _not_a_plan(path: str, detail: str) -> Diagnostics:
    return Diagnostics([error(f'Failed to load "{path}" as a plan file', f"Error: {detail}")])


def read_planfile(
    path: str, decrypt: Transform | None = None
) -> tuple[PlanFile | None, Diagnostics]:
    """Read the plan file at `path`; None and error diagnostics when it is not one."""
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except OSError as exc:
        return None, _not_a_plan(path, f"couldn't load the provided path: {exc.strerror}")
    if decrypt is not None:
        try:
            raw = decrypt(raw)
        except EncryptionError as exc:
            return None, _not_a_plan(path, _encryption_text(exc))
    try:
        zf = zipfile.ZipFile(io.BytesIO(raw))
    except (zipfile.BadZipFile, EOFError, OSError, ValueError):
        return None, _neither(path, "zip: not a valid zip file", raw)
    names = set(zf.namelist())
    if PLAN_MEMBER not in names and TERRAFORM_PLAN_MEMBER not in names:
        return None, _neither(path, "the given file is not a valid plan file", raw)
    with zf:
        try:
            return _read_members(path, zf)
        except (zipfile.BadZipFile, zlib.error, EOFError, OSError, RuntimeError,
                NotImplementedError) as exc:
            # A damaged archive: a member whose data is truncated or fails its CRC.
            return None, _not_a_plan(path, f"failed to read plan from plan file: {exc}")


def _read_members(path: str, zf: zipfile.ZipFile) -> tuple[PlanFile | None, Diagnostics]:
    diags = Diagnostics()
    names = set(zf.namelist())
    if PLAN_MEMBER not in names:  # a plan terraform wrote (its protobuf `tfplan`)
        return None, _not_a_plan(path, (
            "the given plan file was created by Terraform, not by groundplan; plan files "
            "cannot be transferred between different programs or versions"))
    document = zf.read(PLAN_MEMBER)  # a damaged member raises here: see read_planfile
    try:
        plan = decode_plan(loads(document.decode("utf-8")))
    except CodecError as exc:
        return None, _not_a_plan(path, f"failed to read plan from plan file: {exc}")
    except Exception as exc:  # any malformed document: JSON, UTF-8, or an unexpected shape
        return None, _not_a_plan(path, f"failed to read plan from plan file: {exc!r}")
    states: list[StateFile | None] = []
    for member in (STATE_MEMBER, PREV_STATE_MEMBER):
        if member not in names:
            states.append(None)
            continue
        sf, sdiags = read_state(zf.read(member))
        if sdiags.has_errors:
            what = "prior" if member == STATE_MEMBER else "previous run"
            diags.append(error(
                f'Failed to load "{path}" as a plan file',
                f"Error: failed to read {what} state from plan file: "
                + "; ".join(d.detail or d.summary for d in sdiags.errors),
            ))
            return None, diags
        states.append(sf)
    config = ConfigSnapshot()
    if MANIFEST_MEMBER in names:
        try:
            manifest = json.loads(zf.read(MANIFEST_MEMBER))
            for entry in manifest:
                key = str(entry["Key"])
                config.modules[key] = SnapshotModule(
                    dir=str(entry.get("Dir", "")), source_addr=str(entry.get("Source", ""))
                )
        except (ValueError, KeyError, TypeError) as exc:
            return None, _not_a_plan(path, f"invalid configuration manifest: {exc}")
    for name in sorted(names):
        if not name.startswith(CONFIG_PREFIX + "m-") or name.endswith("/"):
            continue
        key, _, base = name[len(CONFIG_PREFIX) + 2:].partition("/")
        mod = config.modules.setdefault(key, SnapshotModule(dir=""))
        mod.files[base] = zf.read(name)
    lock = (zf.read(LOCK_MEMBER).decode("utf-8", "replace") if LOCK_MEMBER in names
            else None)
    config_hash = config.hash()
    if META_MEMBER in names:
        try:
            recorded = str(json.loads(zf.read(META_MEMBER))["config_hash"])
        except (ValueError, KeyError, TypeError) as exc:
            return None, _not_a_plan(path, f"invalid plan metadata: {exc}")
        if recorded != config_hash:
            return None, _not_a_plan(
                path, "the configuration snapshot in the plan file does not match its hash"
            )
    return PlanFile(plan, states[0], states[1], config, lock, config_hash), diags
