"""Building an encryption from configuration text, for the encryption tests."""

from __future__ import annotations

import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from engine.configs import load_config
from engine.diags import Diagnostics
from engine.encryption.static import module_encryption
from engine.values import Value

EXTERNAL = Path(__file__).resolve().parents[2] / "external_keyprovider.py"
PASSPHRASE = "correct-horse-battery-staple"


def external_command(*args: str) -> str:
    """The HCL list for `command = [...]` running the test key program."""
    parts = [sys.executable, str(EXTERNAL), *args]
    return "[" + ", ".join(f'"{p}"' for p in parts) + "]"


def build(tmp: Path, encryption: str, extra: str = "", env: Mapping[str, str] | None = None,
          values: Mapping[str, Value] | None = None, allow_unknown: bool = False,
          ) -> tuple[Any, Diagnostics]:
    """The encryption of a root module whose `terraform { encryption { ... } }` body is
    `encryption` (plus `extra` top-level text), and the diagnostics of loading and building."""
    tmp.mkdir(parents=True, exist_ok=True)
    (tmp / "main.tf").write_text(
        "terraform {\n  encryption {\n" + encryption + "\n  }\n}\n" + extra)
    config, diags = load_config(str(tmp))
    if diags.has_errors:
        return None, diags
    enc, more = module_encryption(config.module, dict(values or {}), dict(env or {}), str(tmp),
                                  allow_unknown)
    diags.extend(more)
    return enc, diags


def pbkdf2(name: str = "k", passphrase: str = PASSPHRASE, extra: str = "") -> str:
    return (f'key_provider "pbkdf2" "{name}" {{\n  passphrase = "{passphrase}"\n'
            f"  iterations = 200000\n{extra}}}\n")


def aes(name: str, keys: str) -> str:
    return f'method "aes_gcm" "{name}" {{\n  keys = {keys}\n}}\n'


STATE = b'{\n  "version": 4,\n  "terraform_version": "1.11.0",\n  "serial": 7,\n  "lineage": ' \
        b'"3f2a6c1e-0000-4000-8000-000000000001",\n  "outputs": {"password": {"value": ' \
        b'"hunter2-hunter2", "type": "string", "sensitive": true}},\n  "resources": [],\n  ' \
        b'"check_results": null\n}\n'
