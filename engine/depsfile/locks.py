"""The dependency lock file `.terraform.lock.hcl`, read and written as Terraform does.

`Locks` maps provider addresses to `ProviderLock(addr, version, constraints, hashes)`:
`version` is the canonical version string, `constraints` the normalised constraint string
("" when none), `hashes` a sorted, de-duplicated list of `scheme:value` strings.

- `load_locks(path)` -> (Locks, Diagnostics): a missing file is an empty set of locks; a file
  that is not a valid lock file gives Terraform's diagnostics (non-canonical addresses,
  versions or constraints, empty hash lists, duplicates; `module` blocks only warn).
- `render_locks(locks)` -> the exact bytes Terraform's hclwrite produces.
- `save_locks(locks, path)` -> Diagnostics: an atomic replace of the file.
"""

from __future__ import annotations

import contextlib
import os
import re
import tempfile
from dataclasses import dataclass, field

from engine.addrs import AddressSyntaxError, parse_provider_source
from engine.addrs import Provider as ProviderAddr
from engine.configs.exprs import decode_string, expr_list, literal_string
from engine.configs.syntax import AttrSchema, BlockSchema, BodySchema, content
from engine.diags import Diagnostics, error, warning
from engine.getproviders.versions import (
    ConstraintError,
    constraints_string,
    parse_constraints,
    parse_version,
)
from engine.gocompat.json import quote as go_quote
from engine.hcl.ast import Block
from engine.version import TERRAFORM_VERSION

HEADER = (
    '# This file is maintained automatically by "terraform init".\n'
    "# Manual edits may be lost in future updates.\n"
)


@dataclass(slots=True)
class ProviderLock:
    """The recorded selection for one provider."""

    addr: ProviderAddr
    version: str
    constraints: str = ""
    hashes: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.hashes = sorted(set(self.hashes))

    def contains_all(self, other: ProviderLock) -> bool:
        """Same version and every hash of `other` recorded here."""
        return self.version == other.version and set(other.hashes) <= set(self.hashes)


@dataclass(slots=True)
class Locks:
    """All provider locks of a working directory."""

    providers: dict[ProviderAddr, ProviderLock] = field(default_factory=dict)

    def provider(self, addr: ProviderAddr) -> ProviderLock | None:
        return self.providers.get(addr)

    def set(self, lock: ProviderLock) -> None:
        self.providers[lock.addr] = lock

    def equal(self, other: Locks) -> bool:
        """Same providers, versions, constraints and hashes (Terraform's Locks.Equal)."""
        if set(self.providers) != set(other.providers):
            return False
        for addr, lock in self.providers.items():
            o = other.providers[addr]
            if (lock.version, lock.constraints, lock.hashes) != (o.version, o.constraints, o.hashes):
                return False
        return True

    def equal_provider_selections(self, other: Locks) -> bool:
        """Same providers at the same versions (hashes and constraints may differ)."""
        if set(self.providers) != set(other.providers):
            return False
        return all(lock.version == other.providers[a].version for a, lock in self.providers.items())


_ROOT = BodySchema((), (BlockSchema("provider", ("source_addr",)), BlockSchema("module", ("path",))))
_PROVIDER = BodySchema((AttrSchema("version", required=True), AttrSchema("constraints"), AttrSchema("hashes")))


def _sort_key(addr: ProviderAddr) -> tuple[str, str, str]:
    return (addr.hostname, addr.namespace, addr.type)


_LENIENT_VERSION = re.compile(
    r"^(\d+)(?:\.(\d+))?(?:\.(\d+))?(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$")


def _lock_version(text: str) -> tuple[str, str]:
    """(normalized form, parse error) of a recorded version as go-versions' ParseVersion
    reads it: missing minor/patch parts are zero ("3.2" -> "3.2.0"); an unparseable
    version normalises to "0.0.0"."""
    if text.startswith("v"):
        return "0.0.0", 'a "v" prefix should not be used'
    m = _LENIENT_VERSION.match(text)
    if m is None:
        return "0.0.0", ("invalid specification; required format is three positive integers "
                         "separated by periods")
    major, minor, patch, pre, meta = m.groups()
    canon = f"{int(major)}.{int(minor or 0)}.{int(patch or 0)}{pre or ''}{meta or ''}"
    return canon, ""


def _decode_provider(block: Block, diags: Diagnostics) -> ProviderLock | None:
    raw = block.labels[0]
    label_rng = block.label_ranges[0]
    try:
        addr = parse_provider_source(raw)
    except AddressSyntaxError:
        diags.append(
            error(
                "Invalid provider source address",
                'The provider source address for a provider lock must be a valid, fully-qualified '
                'address of the form "hostname/namespace/type".',
                label_rng,
            )
        )
        return None
    if addr.is_builtin:
        diags.append(
            error(
                "Invalid provider source address",
                f"Cannot lock a version for built-in provider {addr}. Built-in providers are bundled "
                "inside groundplan itself, so you can't select a version for them independently of "
                "the groundplan release you are currently running.",
                label_rng,
            )
        )
        return None
    if str(addr) != raw:
        diags.append(
            error(
                "Non-normalized provider source address",
                f'The provider source address for this provider lock must be written as "{addr}", '
                "the fully-qualified and normalized form.",
                label_rng,
            )
        )
        return None
    got, d = content(block.body, _PROVIDER, block)
    diags.extend(d)
    a = got.attributes
    version = ""
    if "version" in a:
        text, d = decode_string(a["version"])
        diags.extend(d)
        if text is not None:
            canon, why = _lock_version(text)
            if why:
                diags.append(
                    error(
                        "Invalid provider version number",
                        f"The selected version number for provider {addr} is invalid: {why}.",
                        a["version"].expr.range,
                    )
                )
            if canon != text:
                diags.append(
                    error(
                        "Invalid provider version number",
                        f"The selected version number for provider {addr} must be written in "
                        f'normalized form: "{canon}".',
                        a["version"].expr.range,
                    )
                )
            if not why and canon == text and parse_version(text) is not None:
                version = text
    constraints = ""
    if "constraints" in a:
        text, d = decode_string(a["constraints"])
        diags.extend(d)
        if text is not None:
            try:
                canon = constraints_string(parse_constraints(text))
            except ConstraintError as exc:
                diags.append(
                    error(
                        "Invalid provider version constraints",
                        f"The recorded version constraints for provider {addr} are invalid: {exc}.",
                        a["constraints"].expr.range,
                    )
                )
                canon = ""
            if canon != text:
                diags.append(
                    error(
                        "Invalid provider version constraints",
                        f"The recorded version constraints for provider {addr} must be written in "
                        f'normalized form: "{canon}".',
                        a["constraints"].expr.range,
                    )
                )
            constraints = text
    hashes: list[str] = []
    if "hashes" in a:
        exprs, d = expr_list(a["hashes"].expr)
        diags.extend(d)
        if not exprs and not d.has_errors:
            diags.append(
                error(
                    "Invalid provider hash set",
                    'The "hashes" argument must either be omitted or contain at least one hash value.',
                    a["hashes"].expr.range,
                )
            )
        for e in exprs:
            h = literal_string(e)
            if h is None or h.find(":") < 1:
                diags.append(
                    error(
                        "Invalid provider hash string",
                        f"Cannot interpret {go_quote(h or '')} as a provider hash: hash string must start with a "
                        "scheme keyword followed by a colon.",
                        a["hashes"].expr.range,
                    )
                )
                continue
            hashes.append(h)
    return ProviderLock(addr, version, constraints, hashes)


def parse_locks(text: str, filename: str) -> tuple[Locks, Diagnostics]:
    """Locks from the text of a lock file."""
    from engine.hcl import parse_file

    locks = Locks()
    f, diags = parse_file(text, filename)
    if diags.has_errors:
        return locks, diags
    got, d = content(f.body, _ROOT)
    diags.extend(d)
    seen_module = False
    seen: dict[ProviderAddr, Block] = {}
    for blk in got.blocks:
        if blk.type == "module":
            if not seen_module:
                diags.append(
                    warning(
                        "Dependency locks for modules are not yet supported",
                        f"Terraform v{TERRAFORM_VERSION} only supports dependency locks for "
                        "providers, not for modules. This configuration may be intended for a later "
                        "version of Terraform that also supports dependency locks for modules.",
                        blk.type_range,
                    )
                )
                seen_module = True
            continue
        lock = _decode_provider(blk, diags)
        if lock is None:
            continue
        if lock.addr in seen:
            diags.append(
                error(
                    "Duplicate provider lock",
                    f"This lockfile already declared a lock for provider {lock.addr} at "
                    f"{seen[lock.addr].def_range}.",
                    blk.type_range,
                )
            )
            continue
        seen[lock.addr] = blk
        locks.set(lock)
    return locks, diags


def load_locks(path: str) -> tuple[Locks, Diagnostics]:
    """The locks recorded in `path`; an absent file means no locks. Source ranges name the
    file as Terraform does: relative to the working directory when it is inside it."""
    try:
        with open(path, "rb") as fh:
            data = fh.read()
    except FileNotFoundError:
        return Locks(), Diagnostics()
    except OSError as exc:
        return Locks(), Diagnostics(
            [error("Failed to read dependency lock file", f"Error reading {path}: {exc.strerror}.")]
        )
    rel = os.path.relpath(path)
    return parse_locks(data.decode("utf-8", "replace"), path if rel.startswith("..") else rel)


def _quote(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def render_locks(locks: Locks) -> str:
    """The lock file text, exactly as Terraform writes it."""
    out = [HEADER]
    for addr in sorted(locks.providers, key=_sort_key):
        lock = locks.providers[addr]
        out.append(f"\nprovider {_quote(str(addr))} {{\n")
        if lock.constraints:
            out.append(f"  version     = {_quote(lock.version)}\n")
            out.append(f"  constraints = {_quote(lock.constraints)}\n")
        else:
            out.append(f"  version = {_quote(lock.version)}\n")
        if lock.hashes:
            out.append("  hashes = [\n")
            out.extend(f"    {_quote(h)},\n" for h in lock.hashes)
            out.append("  ]\n")
        out.append("}\n")
    return "".join(out)


def save_locks(locks: Locks, path: str) -> Diagnostics:
    """Replace `path` atomically with the rendered locks (a temporary file in the same
    directory, fsync, rename); on failure the old file stays and no temporary file is left."""
    directory = os.path.dirname(os.path.abspath(path))
    tmp = ""
    try:
        fd, tmp = tempfile.mkstemp(prefix=".terraform.lock.", dir=directory)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(render_locks(locks))
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except OSError as exc:
        if tmp:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
        return Diagnostics(
            [
                error(
                    "Failed to update dependency lock file",
                    f"Error while writing new dependency lock information to {path}: {exc}.",
                )
            ]
        )
    return Diagnostics()
