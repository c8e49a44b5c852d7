#!/usr/bin/env python3
"""A key program for OpenTofu's external key-provider protocol (tests only).

Writes the header line, reads `null` or `{"external_data": {...}}` on stdin, and answers
`{"keys": {...}, "meta": {"external_data": {"salt": "<hex>"}}}`: the key is
HMAC-SHA256(secret, salt) with the secret from argv[1] (or the environment variable
EXTERNAL_KEY_SECRET); a fresh salt for every encryption key, the stored one for the
decryption key. `--fail` exits 1 with a message on stderr; `--bad-header` writes a wrong
magic; `--short` answers an 8-byte key.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import os
import sys


def main(argv: list[str]) -> int:
    flags = {a for a in argv if a.startswith("--")}
    args = [a for a in argv if not a.startswith("--")]
    secret = (args[0] if args else os.environ.get("EXTERNAL_KEY_SECRET", "")).encode()
    magic = "Not-The-Magic" if "--bad-header" in flags else "OpenTofu-External-Key-Provider"
    sys.stdout.write(json.dumps({"magic": magic, "version": 1}) + "\n")
    sys.stdout.flush()
    data = json.loads(sys.stdin.read())
    if "--fail" in flags:
        sys.stderr.write("the key service refused the request\n")
        return 1
    length = 8 if "--short" in flags else 32

    def key(salt: bytes) -> str:
        return base64.b64encode(hmac.new(secret, salt, hashlib.sha256).digest()[:length]).decode()

    salt = os.urandom(16)
    keys = {"encryption_key": key(salt)}
    if data is not None:
        stored = bytes.fromhex(data["external_data"]["salt"])
        keys["decryption_key"] = key(stored)
    sys.stdout.write(json.dumps({"keys": keys, "meta": {"external_data": {"salt": salt.hex()}}}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
