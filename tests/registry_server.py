"""A module registry on 127.0.0.1 over HTTPS, for tests that install registry and remote modules.

`ModuleRegistry(tmp)` generates a certificate authority and a server certificate for
127.0.0.1 (with `cryptography`), writes the CA to `ca_pem` (point both tools at it with
`SSL_CERT_FILE`), and serves on a free port, in a thread:

- `/.well-known/terraform.json` -> `{"modules.v1": "/v1/modules/"}`;
- `/v1/modules/NS/NAME/SYSTEM/versions` for every module added with `add_version`, 500 for
  those in `broken`, else 404;
- `/v1/modules/NS/NAME/SYSTEM/VERSION/download` -> 204 with `X-Terraform-Get` naming the
  version's archive (relative, `/archives/...`, or what `location` says);
- `/archives/FILE` -> the bytes added with `add_file` (GET and HEAD).

`host` is `127.0.0.1:PORT`, usable in module source addresses. Every request's path and
`Authorization` header is kept in `requests`. Use as a context manager; `close()` stops it.
"""

from __future__ import annotations

import datetime
import io
import ipaddress
import json
import ssl
import tarfile
import threading
from collections.abc import Mapping
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID


def _name(cn: str) -> x509.Name:
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, cn)])


def make_certs(directory: Path) -> tuple[Path, Path, Path]:
    """(ca.pem, server.pem, server-key.pem) for 127.0.0.1 and localhost."""
    now = datetime.datetime.now(datetime.UTC)
    ca_key = ec.generate_private_key(ec.SECP256R1())
    ca = (
        x509.CertificateBuilder().subject_name(_name("groundplan test CA")).issuer_name(_name("groundplan test CA"))
        .public_key(ca_key.public_key()).serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=1)).not_valid_after(now + datetime.timedelta(days=2))
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .add_extension(x509.KeyUsage(digital_signature=True, key_cert_sign=True, crl_sign=True,
                                     content_commitment=False, key_encipherment=False, data_encipherment=False,
                                     key_agreement=False, encipher_only=False, decipher_only=False), critical=True)
        .sign(ca_key, hashes.SHA256())
    )
    key = ec.generate_private_key(ec.SECP256R1())
    cert = (
        x509.CertificateBuilder().subject_name(_name("127.0.0.1")).issuer_name(ca.subject)
        .public_key(key.public_key()).serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=1)).not_valid_after(now + datetime.timedelta(days=2))
        .add_extension(x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1")),
                                                    x509.DNSName("localhost")]), critical=False)
        .add_extension(x509.ExtendedKeyUsage([x509.oid.ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .sign(ca_key, hashes.SHA256())
    )
    paths = (directory / "ca.pem", directory / "server.pem", directory / "server-key.pem")
    paths[0].write_bytes(ca.public_bytes(serialization.Encoding.PEM))
    paths[1].write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    paths[2].write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    return paths


def tar_gz(files: Mapping[str, str | bytes], extra: list[tarfile.TarInfo] | None = None) -> bytes:
    """A .tar.gz of `files` (name -> content), plus raw `extra` members (links, escapes)."""
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tf:
        for name, content in sorted(files.items()):
            data = content.encode() if isinstance(content, str) else content
            info = tarfile.TarInfo(name)
            info.size = len(data)
            info.mode = 0o644
            tf.addfile(info, io.BytesIO(data))
        for info in extra or []:
            tf.addfile(info)
    return buf.getvalue()


class ModuleRegistry:
    """See the module docstring."""

    def __init__(self, directory: Path) -> None:
        self.ca_pem, cert, key = make_certs(directory)
        self.versions: dict[str, list[str]] = {}
        self.locations: dict[tuple[str, str], str] = {}
        self.files: dict[str, bytes] = {}
        self.requests: list[tuple[str, str]] = []
        self.broken: set[str] = set()
        registry = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:
                return

            def _reply(self, status: int, body: bytes = b"", headers: dict[str, str] | None = None) -> None:
                self.send_response(status)
                for k, v in (headers or {}).items():
                    self.send_header(k, v)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                if self.command != "HEAD":
                    self.wfile.write(body)

            def do_HEAD(self) -> None:
                self.do_GET()

            def do_GET(self) -> None:
                path = self.path.split("?")[0]
                registry.requests.append((path, self.headers.get("Authorization", "")))
                if path == "/.well-known/terraform.json":
                    return self._reply(200, json.dumps({"modules.v1": "/v1/modules/"}).encode(),
                                       {"Content-Type": "application/json"})
                parts = path.split("/")
                if path.startswith("/v1/modules/") and len(parts) == 7 and parts[6] == "versions":
                    mod = "/".join(parts[3:6])
                    if mod in registry.broken:
                        return self._reply(500, b"oops")
                    if mod not in registry.versions:
                        return self._reply(404, b'{"errors":["Not Found"]}')
                    doc = {"modules": [{"versions": [{"version": v} for v in registry.versions[mod]]}]}
                    return self._reply(200, json.dumps(doc).encode(), {"Content-Type": "application/json"})
                if path.startswith("/v1/modules/") and len(parts) == 8 and parts[7] == "download":
                    loc = registry.locations.get(("/".join(parts[3:6]), parts[6]))
                    if loc is None:
                        return self._reply(404)
                    return self._reply(204, b"", {"X-Terraform-Get": loc})
                if path.startswith("/archives/") and path[len("/archives/"):] in registry.files:
                    return self._reply(200, registry.files[path[len("/archives/"):]])
                return self._reply(404)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ctx.load_cert_chain(str(cert), str(key))
        self.server.socket = ctx.wrap_socket(self.server.socket, server_side=True)
        self.host = f"127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def add_file(self, name: str, data: bytes) -> str:
        """Serve `data` at /archives/NAME; its full URL."""
        self.files[name] = data
        return f"https://{self.host}/archives/{name}"

    def add_version(self, module: str, version: str, files: dict[str, str], location: str | None = None) -> None:
        """List `version` of `module` (NS/NAME/SYSTEM), its package a .tar.gz of `files`."""
        self.versions.setdefault(module, []).append(version)
        name = f"{module.replace('/', '-')}-{version}.tar.gz"
        self.files[name] = tar_gz(files)
        self.locations[(module, version)] = location or f"/archives/{name}"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    def __enter__(self) -> ModuleRegistry:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
