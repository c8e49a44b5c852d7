"""Running groundplan in a working directory with an encryption configuration (tests)."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


@dataclass
class Result:
    code: int
    stdout: str
    stderr: str

    @property
    def text(self) -> str:
        return self.stdout + self.stderr


def gp(workdir: Path, *args: str, env: dict[str, str] | None = None,
       timeout: float = 300) -> Result:
    full = {k: v for k, v in os.environ.items() if not k.startswith(("TF_", "AWS_"))}
    full.update({"PYTHONPATH": str(ROOT), "TF_IN_AUTOMATION": "1"})
    full.update(env or {})
    proc = subprocess.run([sys.executable, "-m", "engine.cli.main", *args], cwd=workdir,
                          env=full, capture_output=True, text=True, timeout=timeout)
    return Result(proc.returncode, proc.stdout, proc.stderr)


def ok(r: Result, what: str) -> Result:
    assert r.code == 0, f"{what} exited {r.code}:\n{r.stdout}\n{r.stderr}"
    return r


def checksum(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def envelope(path: Path) -> dict[str, Any] | None:
    """The stored file as an encrypted envelope (None when it is plaintext)."""
    doc = json.loads(path.read_bytes())
    return doc if "encryption_version" in doc else None


def pbkdf2_block(name: str, passphrase: str) -> str:
    return (f'    key_provider "pbkdf2" "{name}" {{\n      passphrase = "{passphrase}"\n'
            f"      iterations = 200000\n    }}\n"
            f'    method "aes_gcm" "{name}" {{\n      keys = key_provider.pbkdf2.{name}\n    }}\n')


def write_config(workdir: Path, encryption: str, body: str) -> None:
    workdir.mkdir(parents=True, exist_ok=True)
    enc = f"  encryption {{\n{encryption}  }}\n" if encryption else ""
    (workdir / "main.tf").write_text(f"terraform {{\n{enc}}}\n{body}")
