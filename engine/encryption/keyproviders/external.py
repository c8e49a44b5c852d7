"""`key_provider "external"`: keys from a program, over OpenTofu's external key-provider
protocol (keyprovider/external):

1. the program writes a header line, `{"magic":"OpenTofu-External-Key-Provider","version":1}`;
2. it reads `null` (keys for writing) or the stored metadata `{"external_data":{...}}`
   (keys for reading) on standard input;
3. it writes `{"keys":{"encryption_key":"<base64>","decryption_key":"<base64>"},
   "meta":{"external_data":{...}}}` on standard output and exits 0 (stderr is shown on
   failure). No other fields are accepted; `meta` is stored beside the data.

The program runs once per process for writing and once per distinct metadata for reading,
each run limited to a minute.
"""

from __future__ import annotations

import base64
import binascii
import json
import subprocess
import threading
from dataclasses import dataclass, field
from typing import Any

from engine.encryption.keyproviders import KeyProviderError, go_json, put_meta

HEADER_MAGIC = "OpenTofu-External-Key-Provider"
TIMEOUT_SECONDS = 60.0


def _b64(value: Any, what: str) -> bytes:
    if not isinstance(value, str):
        raise KeyProviderError(f"the external command returned an invalid JSON response "
                               f"({what} is not a base64 string)")
    try:
        return base64.b64decode(value, validate=True)
    except binascii.Error as exc:
        raise KeyProviderError(f"the external command returned an invalid JSON response "
                               f"(illegal base64 data in {what}: {exc})") from None


def run_protocol(command: list[str], stdin: bytes) -> tuple[bytes, bytes | None, dict[str, Any]]:
    """Run the program with `stdin`; its (encryption key, decryption key, meta object)."""
    try:
        proc = subprocess.run(command, input=stdin, capture_output=True,
                              timeout=TIMEOUT_SECONDS, check=False)
    except FileNotFoundError as exc:
        raise KeyProviderError(f"the external command could not be started ({exc})") from None
    except OSError as exc:
        raise KeyProviderError(f"the external command could not be started ({exc})") from None
    except subprocess.TimeoutExpired:
        raise KeyProviderError(f"the external command did not finish within "
                               f"{TIMEOUT_SECONDS:.0f} seconds") from None
    stderr = proc.stderr.decode("utf-8", "replace")
    header, sep, body = proc.stdout.partition(b"\n")
    if sep:
        try:
            h = json.loads(header)
        except ValueError as exc:
            raise KeyProviderError(
                "external key provider protocol failure: failed to unmarshal header from "
                f"external binary ({exc})") from None
        magic = h.get("magic") if isinstance(h, dict) else None
        if magic != HEADER_MAGIC:
            raise KeyProviderError("external key provider protocol failure: invalid magic "
                                   f"received from external key provider: {magic or ''}")
        if h.get("version") != 1:
            raise KeyProviderError("external key provider protocol failure: invalid version "
                                   f"number received from external key provider: "
                                   f"{h.get('version')}")
    if proc.returncode != 0:
        raise KeyProviderError(
            f"the external command exited with a non-zero exit code (exit status "
            f"{proc.returncode})\n\nStderr:\n-------\n{stderr}")
    if not sep:
        raise KeyProviderError("external key provider protocol failure: the external command "
                               "wrote no header line")
    try:
        out = json.loads(body)
        if not isinstance(out, dict) or set(out) - {"keys", "meta"}:
            raise ValueError("unknown field in the response")
        keys = out.get("keys")
        if not isinstance(keys, dict) or set(keys) - {"encryption_key", "decryption_key"}:
            raise ValueError('"keys" must be an object with encryption_key/decryption_key')
        meta = out.get("meta") or {}
        if not isinstance(meta, dict) or set(meta) - {"external_data"}:
            raise ValueError('"meta" must be an object with only external_data')
    except ValueError as exc:
        raise KeyProviderError(f"the external command returned an invalid JSON response "
                               f"({exc})\n\nStderr:\n-------\n{stderr}") from None
    enc = _b64(keys.get("encryption_key"), "encryption_key")
    dec = _b64(keys["decryption_key"], "decryption_key") if keys.get("decryption_key") else None
    return enc, dec, meta


@dataclass
class ExternalKeyProvider:
    """A configured external key provider (`command`: the program and its arguments)."""

    addr: str
    meta_key: str
    command: list[str]
    _enc: tuple[bytes, bytes] | None = field(default=None, repr=False)
    _dec: dict[bytes, bytes | None] = field(default_factory=dict, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def encryption_key(self, out_meta: dict[str, bytes]) -> bytes:
        with self._lock:
            if self._enc is None:
                enc, _, meta = run_protocol(self.command, b"null")
                if not enc:
                    raise KeyProviderError("the external command returned no encryption_key")
                stored = go_json({"external_data": meta.get("external_data")}, sort_keys=True)
                self._enc = (enc, stored)
            key, stored = self._enc
        put_meta(out_meta, self.meta_key, stored)
        return key

    def decryption_key(self, in_meta: dict[str, bytes]) -> bytes | None:
        raw = in_meta.get(self.meta_key)
        if raw is None:
            return None
        try:
            doc = json.loads(raw)
        except ValueError as exc:
            raise KeyProviderError(
                f"Unable to decode encrypted metadata (did you change your encryption config?): "
                f"metadata decoder for {self.meta_key} failed with error: {exc}") from None
        data = doc.get("external_data") if isinstance(doc, dict) else None
        stdin = b"null" if data is None else go_json({"external_data": data}, sort_keys=True)
        with self._lock:
            if stdin in self._dec:
                return self._dec[stdin]
        _, dec, _ = run_protocol(self.command, stdin)
        with self._lock:
            self._dec[stdin] = dec
        return dec
