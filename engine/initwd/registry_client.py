"""A client of the module registry protocol, as terraform's `internal/registry` speaks it.

`RegistryClient(environ)` discovers a host's `modules.v1` service
(`https://HOST/.well-known/terraform.json`), lists a module's versions
(`GET <modules.v1>NS/NAME/SYSTEM/versions`) and finds a version's package address
(`GET <modules.v1>NS/NAME/SYSTEM/VERSION/download` -> the `X-Terraform-Get` header, a relative
location resolved against the download URL). Every request to a host carries
`Authorization: Bearer TOKEN` when the host has credentials (`TF_TOKEN_<host>` in `environ`
first, then the CLI configuration's `credentials "host" { token = ... }` blocks, then
`~/.terraform.d/credentials.tfrc.json`) and `X-Terraform-Version`. HTTPS trusts the system's
roots plus `SSL_CERT_FILE` / `SSL_CERT_DIR` from `environ` (as Go's crypto/x509 does).

Failures raise `RegistryError` whose text is terraform's error text; `ModuleNotFound` for a
404 on the versions list. Tokens never appear in errors or logs.
"""

from __future__ import annotations

import json
import os
import ssl
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from email.message import Message
from typing import Any

from engine.configs.registry_addrs import RegistryModule, host_for_comparison
from engine.version import TERRAFORM_VERSION

_TIMEOUT = 10.0
_MAX_BODY = 16 * 1024 * 1024


class RegistryError(Exception):
    """A registry request that failed; str() is terraform's error text."""


class ModuleNotFound(RegistryError):
    """The registry answered 404 for a module's versions."""


def ssl_context(environ: dict[str, str]) -> ssl.SSLContext:
    """A verifying TLS context: the default roots plus `SSL_CERT_FILE` and `SSL_CERT_DIR`."""
    ctx = ssl.create_default_context()
    cafile = environ.get("SSL_CERT_FILE") or None
    capath = environ.get("SSL_CERT_DIR") or None
    for path in (capath or "").split(os.pathsep) if capath else []:
        if os.path.isdir(path):
            ctx.load_verify_locations(capath=path)
    if cafile and os.path.isfile(cafile):
        ctx.load_verify_locations(cafile=cafile)
    return ctx


def _env_tokens(environ: dict[str, str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for name, value in environ.items():
        if not name.startswith("TF_TOKEN_"):
            continue
        raw = name[len("TF_TOKEN_"):].replace("__", "-").replace("_", ".")
        try:
            out[host_for_comparison(raw)] = value
        except ValueError:
            continue
    return out


def _config_tokens(environ: dict[str, str]) -> dict[str, str]:
    """Tokens of the CLI configuration's `credentials` blocks and the credentials file."""
    from engine.configs.exprs import literal_string
    from engine.hcl import parse_file

    out: dict[str, str] = {}
    home = environ.get("HOME") or os.path.expanduser("~")
    try:
        with open(os.path.join(home, ".terraform.d", "credentials.tfrc.json"), encoding="utf-8") as fh:
            doc = json.load(fh)
        for host, creds in (doc.get("credentials") or {}).items():
            if isinstance(creds, dict) and isinstance(creds.get("token"), str):
                out[host_for_comparison(host)] = creds["token"]
    except (OSError, ValueError, AttributeError):
        pass
    path = environ.get("TF_CLI_CONFIG_FILE") or os.path.join(home, ".terraformrc")
    try:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
    except OSError:
        return out
    f, diags = parse_file(text, path)
    if diags.has_errors:
        return out
    for block in f.body.blocks:
        if block.type != "credentials" or len(block.labels) != 1:
            continue
        attr = block.body.attributes.get("token")
        if attr is None:
            continue
        value = literal_string(attr.expr)
        if value is not None:
            try:
                out[host_for_comparison(block.labels[0])] = value
            except ValueError:
                continue
    return out


def credentials(environ: dict[str, str]) -> dict[str, str]:
    """host (normalised) -> token; `TF_TOKEN_*` variables win over configured credentials."""
    return {**_config_tokens(environ), **_env_tokens(environ)}


@dataclass
class Response:
    status: int
    reason: str
    headers: Message
    body: bytes
    url: str


def _env_int(environ: dict[str, str], name: str, default: int) -> int:
    try:
        got = int(environ.get(name, ""))
    except ValueError:
        return default
    return got if got > 0 else default


def http_get(url: str, ctx: ssl.SSLContext, headers: dict[str, str] | None = None,
             limit: int = _MAX_BODY, timeout: float = _TIMEOUT) -> Response:
    """GET `url` (redirects followed); any status is returned; a transport failure raises
    OSError (urllib.error.URLError)."""
    req = urllib.request.Request(url, headers={"User-Agent": f"groundplan/{TERRAFORM_VERSION}", **(headers or {})})
    try:
        resp = urllib.request.urlopen(req, timeout=timeout, context=ctx)
    except urllib.error.HTTPError as exc:
        with exc:
            return Response(exc.code, str(exc.reason), exc.headers, exc.read(limit), url)
    with resp:
        body = resp.read(limit + 1)
        if len(body) > limit:
            raise OSError(f"response from {url} is larger than {limit} bytes")
        return Response(resp.status, resp.reason, resp.headers, body, resp.geturl())


def http_download(url: str, ctx: ssl.SSLContext, path: str, limit: int) -> int:
    """GET `url` into the file `path`, streamed, refusing more than `limit` bytes; the HTTP
    status (the body of a status other than 2xx is not kept). Transport failures raise
    OSError."""
    req = urllib.request.Request(url, headers={"User-Agent": f"groundplan/{TERRAFORM_VERSION}"})
    try:
        resp = urllib.request.urlopen(req, timeout=_TIMEOUT, context=ctx)
    except urllib.error.HTTPError as exc:
        exc.close()
        return exc.code
    with resp, open(path, "wb") as out:
        total = 0
        while chunk := resp.read(1 << 16):
            total += len(chunk)
            if total > limit:
                raise OSError(f"download from {url} is larger than {limit} bytes")
            out.write(chunk)
        return int(resp.status)


def _go_error(exc: BaseException, url: str) -> str:
    reason = getattr(exc, "reason", exc)
    if isinstance(reason, ConnectionRefusedError):
        u = urllib.parse.urlsplit(url)
        return f"dial tcp {u.hostname}:{u.port or 443}: connect: connection refused"
    if isinstance(reason, ssl.SSLCertVerificationError):
        return "tls: failed to verify certificate: x509: certificate signed by unknown authority"
    return str(reason)


@dataclass
class RegistryClient:
    """Talks to module registries for one `init` (discovery results are cached per host)."""

    environ: dict[str, str]
    _services: dict[str, str] = field(default_factory=dict)
    _tokens: dict[str, str] | None = None
    _ctx: ssl.SSLContext | None = None

    @property
    def ctx(self) -> ssl.SSLContext:
        if self._ctx is None:
            self._ctx = ssl_context(self.environ)
        return self._ctx

    def _headers(self, host: str) -> dict[str, str]:
        if self._tokens is None:
            self._tokens = credentials(self.environ)
        headers = {"X-Terraform-Version": TERRAFORM_VERSION}
        token = self._tokens.get(host)
        if token:
            headers["Authorization"] = f"Bearer {token}"
        return headers

    def discover(self, host: str) -> str:
        """The `modules.v1` base URL of `host`, ending in "/"."""
        if host in self._services:
            return self._services[host]
        url = f"https://{host}/.well-known/terraform.json"
        try:
            resp = http_get(url, self.ctx, self._headers(host))
        except OSError as exc:
            raise RegistryError(f"failed to request discovery document: Get \"{url}\": {_go_error(exc, url)}") from None
        if resp.status != 200:
            raise RegistryError(f"failed to request discovery document: {resp.status} {resp.reason}")
        try:
            doc: Any = json.loads(resp.body)
        except ValueError as exc:
            raise RegistryError(f"failed to decode discovery document: {exc}") from None
        base = doc.get("modules.v1") if isinstance(doc, dict) else None
        if not isinstance(base, str):
            raise RegistryError(f'host {host} does not provide a module registry')
        service = urllib.parse.urljoin(resp.url, base)
        if not service.endswith("/"):
            service += "/"
        self._services[host] = service
        return service

    def _get(self, host: str, url: str) -> Response:
        """GET with go-retryablehttp's policy as terraform configures it: a transport error,
        429 or a 5xx other than 501 is tried again (`TF_REGISTRY_DISCOVERY_RETRY` more times,
        default 1), waiting 1s, 2s, ... between tries."""
        attempts = 1 + _env_int(self.environ, "TF_REGISTRY_DISCOVERY_RETRY", 1)
        problem = ""
        for attempt in range(attempts):
            if attempt:
                time.sleep(min(2 ** (attempt - 1), 30))
            try:
                resp = http_get(url, self.ctx, self._headers(host),
                                timeout=_env_int(self.environ, "TF_REGISTRY_CLIENT_TIMEOUT", 10))
            except OSError as exc:
                problem = f'Get "{url}": {_go_error(exc, url)}'
                continue
            if resp.status == 429 or (resp.status >= 500 and resp.status != 501):
                problem = f"{resp.status} {resp.reason} returned from {url}"
                continue
            return resp
        if attempts > 1:
            raise RegistryError(f"the request failed after {attempts} attempts, please try again later: {problem}")
        raise RegistryError(f"the request failed, please try again later: {problem}")

    def module_versions(self, mod: RegistryModule) -> list[str]:
        """The version strings the registry lists for `mod` (first module entry)."""
        base = self.discover(mod.host)
        url = urllib.parse.urljoin(base, f"{mod.namespace}/{mod.name}/{mod.target_system}/versions")
        resp = self._get(mod.host, url)
        if resp.status == 404:
            raise ModuleNotFound(f"module {display(mod)} not found")
        if resp.status != 200:
            raise RegistryError(f"error looking up module versions: {resp.status} {resp.reason}")
        try:
            doc = json.loads(resp.body)
        except ValueError as exc:
            raise RegistryError(str(exc)) from None
        modules = doc.get("modules") if isinstance(doc, dict) else None
        if not isinstance(modules, list) or not modules or not isinstance(modules[0], dict):
            return []
        versions = modules[0].get("versions") or []
        return [str(v.get("version", "")) for v in versions if isinstance(v, dict)]

    def module_location(self, mod: RegistryModule, version: str) -> str:
        """The package address the registry gives for `mod` at `version`."""
        base = self.discover(mod.host)
        url = urllib.parse.urljoin(base, f"{mod.namespace}/{mod.name}/{mod.target_system}/{version}/download")
        resp = self._get(mod.host, url)
        shown = display(mod)
        if resp.status == 404:
            raise RegistryError(f'module "{shown}" version "{version}" not found')
        if resp.status not in (200, 204):
            raise RegistryError(
                f'error getting download location for "{shown}": {resp.status} {resp.reason} '
                f"resp:{resp.body.decode('utf-8', 'replace')}")
        location = resp.headers.get("X-Terraform-Get") or ""
        if not location:
            raise RegistryError(
                f'failed to get download URL for "{shown}": {resp.status} {resp.reason} '
                f"resp:{resp.body.decode('utf-8', 'replace')}")
        if location.startswith(("/", "./", "../")):
            location = urllib.parse.urljoin(url, location)
        return location


def display(mod: RegistryModule) -> str:
    """The module's address as terraform's regsrc prints it (host omitted for the public one)."""
    prefix = "" if mod.host == "registry.terraform.io" else mod.host + "/"
    return f"{prefix}{mod.namespace}/{mod.name}/{mod.target_system}"
