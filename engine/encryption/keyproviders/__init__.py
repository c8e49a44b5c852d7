"""Key providers: where the keys of an encryption method come from.

A key provider yields an encryption key for writing (with metadata stored beside the data,
under its `meta_key` in the payload's `meta` object) and, given the metadata a payload was
written with, the decryption key for reading it. `chain` lets one provider's key be another's
input (OpenTofu's `chain = key_provider.T.N`). Failures raise `KeyProviderError`; the target
that asked turns it into a diagnostic naming itself and the provider.

boto3 is imported only in `aws_kms` here (and in engine.backend.s3).
"""

from __future__ import annotations

import json
from typing import Protocol


class KeyProviderError(Exception):
    """A key could not be produced (bad metadata, a failing service, a failing program)."""


class KeyProvider(Protocol):
    """One configured key provider."""

    addr: str
    meta_key: str

    def encryption_key(self, out_meta: dict[str, bytes]) -> bytes:
        """The key to encrypt with now; its metadata (and its chain's) go into `out_meta`."""
        ...

    def decryption_key(self, in_meta: dict[str, bytes]) -> bytes | None:
        """The key for a payload written with `in_meta`; None when the metadata this provider
        needs is absent (the payload was not written with it)."""
        ...


def go_json(doc: object, sort_keys: bool = False) -> bytes:
    """`doc` as Go's json.Marshal writes it: compact, `<>&` escaped; keys in the given order
    (a struct) or sorted (`sort_keys`: a Go map)."""
    text = json.dumps(doc, separators=(",", ":"), ensure_ascii=False, sort_keys=sort_keys)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026").encode()


def put_meta(out_meta: dict[str, bytes], key: str, data: bytes) -> None:
    """Record one provider's metadata; two providers of one method may not share a key."""
    if key in out_meta:
        raise KeyProviderError(
            f"The metadata key {key} is duplicated across multiple key providers for the same "
            "method; use the encrypted_metadata_alias option to specify unique metadata keys "
            "for each key provider in an encryption method")
    out_meta[key] = data
