"""One encryption target (the state, saved plans, a remote state source): the payload format
and the primary-then-fallbacks rule.

The stored form of an encrypted payload is OpenTofu's (internal/encryption/base.go): a JSON
object `{"meta": {"<key provider meta key>": "<base64 of its metadata JSON>", ...},
"encrypted_data": "<base64 of the method's output>", "encryption_version": "v0"}`; a state
payload also carries the plaintext's `serial` and `lineage` first (state.go), and reading
checks that they match the decrypted state.

Writing always uses the primary method (`unencrypted` as primary writes plaintext). Reading
tries the primary, then each fallback in order; a plaintext payload is accepted only when an
`unencrypted` method is among them (never under `enforced`, which forbids configuring one).
Every failure is an `EncryptionError` whose diagnostic names the target, the methods and
their key providers; nothing is written instead.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
import threading
from dataclasses import dataclass, field
from typing import Any

from engine.diags import Diagnostics, error
from engine.encryption import EncryptionError
from engine.encryption.keyproviders import KeyProviderError
from engine.encryption.methods import MethodError, Unencrypted

VERSION = "v0"
_SERIAL = re.compile(rb'"serial"\s*:\s*(-?\d+|null)')
_LINEAGE = re.compile(rb'"lineage"\s*:\s*"((?:[^"\\]|\\.)*)"')
_TF_VERSION = re.compile(rb'"terraform_version"\s*:\s*"[^"]')
_HEAD = 512  # terraform writes version, terraform_version, serial and lineage first


@dataclass(frozen=True)
class ReadInfo:
    """How the last payload was read: plaintext or which method (and key providers);
    `primary` is whether that was the primary method (else a migration is pending)."""

    encrypted: bool
    method: str
    key_providers: tuple[str, ...]
    primary: bool


def method_label(m: Any) -> str:
    kps = ", ".join(m.key_provider_addrs)
    return f"{m.addr} with {kps}" if kps else m.addr


def _state_fields(data: bytes) -> tuple[int | None, str]:
    """The top-level serial and lineage of a v4 state (JSON-parsed when the head lacks them)."""
    head = data[:_HEAD]
    s, li = _SERIAL.search(head), _LINEAGE.search(head)
    if s is not None and li is not None and b"{" not in head[: s.start()][1:]:
        serial = None if s.group(1) == b"null" else int(s.group(1))
        return serial, json.loads(b'"' + li.group(1) + b'"')
    try:
        doc = json.loads(data)
    except ValueError:
        return None, ""
    if not isinstance(doc, dict):
        return None, ""
    serial = doc.get("serial")
    return (serial if isinstance(serial, int) else None), str(doc.get("lineage") or "")


def is_plaintext_state(data: bytes) -> str | None:
    """None when `data` is a state document (JSON with a terraform_version), else why not."""
    if _TF_VERSION.search(data[:_HEAD]) and data.lstrip().startswith(b"{"):
        return None
    try:
        doc = json.loads(data)
    except ValueError as exc:
        return str(exc)
    if not isinstance(doc, dict) or not doc.get("terraform_version"):
        return "Given payload is not a state file"
    return None


def is_plaintext_plan(data: bytes) -> str | None:
    return None if data[:2] == b"PK" else f"Invalid plan file {data[:2]!r}"


def is_plaintext_record(data: bytes) -> str | None:
    """None for a plaintext journal record (a JSON object with a `kind`)."""
    return None if data.startswith(b'{"kind":') else "Given payload is not a journal record"


PLAINTEXT_CHECKS = {"state": is_plaintext_state, "plan": is_plaintext_plan,
                    "record": is_plaintext_record}


def _envelope(data: bytes) -> dict[str, Any] | None:
    """The payload as an encrypted envelope, or None when it is not one."""
    if b'"encryption_version"' not in data:
        return None
    try:
        doc = json.loads(data)
    except ValueError:
        return None
    if not isinstance(doc, dict) or not doc.get("encryption_version"):
        return None
    return doc


@dataclass
class TargetEncryption:
    """The encryption of one target: `methods[0]` writes, all of them read, in order."""

    name: str  # "state", "plan", "remote_state_data_source.NAME"
    methods: list[Any]
    kind: str = "state"  # "plan", or "record" (a state journal line): the plaintext's form
    enforced: bool = False
    last_read: ReadInfo | None = field(default=None, repr=False)
    _records: TargetEncryption | None = field(default=None, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def records(self) -> TargetEncryption:
        """This target for the state journal's records: the same methods and keys (the key
        providers' cached keys are shared), payloads without the state's serial/lineage."""
        with self._lock:
            if self._records is None:
                self._records = TargetEncryption(f"{self.name} journal", self.methods,
                                                 "record", self.enforced)
            return self._records

    @property
    def primary(self) -> Any:
        return self.methods[0]

    def _fail(self, summary: str, detail: str) -> EncryptionError:
        return EncryptionError(Diagnostics([error(summary, detail)]))

    def describe(self) -> str:
        return "; ".join(method_label(m) for m in self.methods)

    # -- writing -----------------------------------------------------------------------------
    def encrypt(self, data: bytes) -> bytes:
        """The stored form of `data` under the primary method."""
        m = self.primary
        if isinstance(m, Unencrypted):
            return data
        out_meta: dict[str, bytes] = {}
        try:
            sealed = m.encrypt(data, out_meta)
        except (KeyProviderError, MethodError) as exc:
            raise self._fail(f"Failed to encrypt {self.name}",
                             f"encryption failed for {self.name} ({method_label(m)}): "
                             f"{exc}") from None
        doc: dict[str, Any] = {}
        if self.kind == "state":
            serial, lineage = _state_fields(data)
            doc["serial"] = serial
            doc["lineage"] = lineage
        doc["meta"] = {k: base64.b64encode(v).decode() for k, v in sorted(out_meta.items())}
        doc["encrypted_data"] = base64.b64encode(sealed).decode()
        doc["encryption_version"] = VERSION
        return json.dumps(doc, separators=(",", ":")).encode()

    # -- reading -----------------------------------------------------------------------------
    def decrypt(self, data: bytes) -> bytes:
        """The plaintext of a stored payload; `last_read` says how it was read."""
        doc = _envelope(data)
        summary = f"Failed to decrypt {self.name}"
        if doc is None:
            return self._plaintext(data, summary)
        if doc.get("encryption_version") != VERSION:
            raise self._fail(summary, f"invalid encrypted payload version: "
                             f"{doc.get('encryption_version')} != {VERSION}")
        try:
            sealed = base64.b64decode(doc.get("encrypted_data") or "", validate=True)
            raw_meta = doc.get("meta") or {}
            if not isinstance(raw_meta, dict):
                raise ValueError("meta is not an object")
            in_meta = {str(k): base64.b64decode(v, validate=True) for k, v in raw_meta.items()}
        except (ValueError, TypeError, binascii.Error) as exc:
            raise self._fail(summary, f"invalid data format for decryption: {exc} (the "
                             f"{self.name} payload is damaged)") from None
        errors: list[str] = []
        for i, m in enumerate(self.methods):
            if isinstance(m, Unencrypted):
                continue
            try:
                plain = m.decrypt(sealed, in_meta)
            except (KeyProviderError, MethodError) as exc:
                errors.append(f"attempted decryption failed for {self.name} "
                              f"({method_label(m)}): {exc}")
                continue
            if self.kind == "state":
                self._check_fields(doc, plain, summary)
            self.last_read = ReadInfo(True, m.addr, tuple(m.key_provider_addrs), i == 0)
            return plain
        if not errors:
            errors.append(f"no encrypting method is configured for {self.name} (only "
                          f"{self.describe()})")
        raise self._fail(summary, "decryption failed for all provided methods:\n"
                         + "\n".join(errors))

    def _plaintext(self, data: bytes, summary: str) -> bytes:
        check = PLAINTEXT_CHECKS[self.kind]
        problem = check(data)
        if problem is not None:
            raise self._fail(summary, f"invalid data format for decryption: {problem} (the "
                             f"{self.name} payload is neither encrypted nor a plain "
                             f"{self.kind}; configured: {self.describe()})")
        for i, m in enumerate(self.methods):
            if isinstance(m, Unencrypted):
                self.last_read = ReadInfo(False, m.addr, (), i == 0)
                return data
        hint = " (enforced = true)" if self.enforced else ""
        raise self._fail(summary, (
            f"encountered unencrypted payload without unencrypted method configured: the "
            f"{self.name} is stored as plaintext, and {self.name} encryption{hint} reads "
            f"only {self.describe()}. To migrate, add a fallback with an unencrypted method."))

    def _check_fields(self, doc: dict[str, Any], plain: bytes, summary: str) -> None:
        serial, lineage = _state_fields(plain)
        outer = doc.get("serial")
        if isinstance(outer, int) and serial is not None and outer != serial:
            raise self._fail(summary, f"invalid state metadata, serial field mismatch {outer} "
                             f"vs {serial}")
        outer_lineage = doc.get("lineage")
        if outer_lineage and outer_lineage != lineage:
            raise self._fail(summary, f"invalid state metadata, lineage field mismatch "
                             f"{outer_lineage} vs {lineage}")
