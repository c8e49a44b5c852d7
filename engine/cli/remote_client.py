"""The control plane's HTTP API as a CI client uses it (`groundplan remote ...`).

Plain HTTP(S) with a bearer token: `RemoteClient(url, token)`; every call returns the decoded
JSON document or raises `RemoteError` with the API's status and stable error `code`. `pack`
makes the configuration-version tarball the API expects."""

from __future__ import annotations

import io
import json
import os
import tarfile
import urllib.error
import urllib.request
from dataclasses import dataclass
from typing import Any

SKIP_DIRS = (".terraform", ".git")
SKIP_SUFFIXES = (".tfstate", ".tfstate.backup", ".tfplan")


class RemoteError(Exception):
    """The API refused a call: HTTP `status`, the error `code` and message, and the error's
    `details` (e.g. `diagnostics`: terraform's diagnostics of a refused state edit)."""

    def __init__(self, status: int, code: str, message: str,
                 details: dict[str, Any] | None = None) -> None:
        super().__init__(f"{message} ({code}, HTTP {status})")
        self.status = status
        self.code = code
        self.message = message
        self.details = details or {}


def pack(directory: str) -> bytes:
    """`directory` as a gzipped tarball, without `.terraform/`, `.git/`, state or plan files
    (the dependency lock file is kept: the control plane installs exactly what it selects)."""
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tar:
        for root, dirs, files in os.walk(directory):
            dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS)
            for name in sorted(files):
                if name.endswith(SKIP_SUFFIXES):
                    continue
                full = os.path.join(root, name)
                tar.add(full, arcname=os.path.relpath(full, directory), recursive=False)
    return buf.getvalue()


@dataclass
class RemoteClient:
    """A client of one control plane API (`url` without a trailing slash)."""

    url: str
    token: str
    timeout: float = 60.0

    def request(self, method: str, path: str, body: Any = None, *,
                raw: bool = False) -> Any:
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(self.url.rstrip("/") + path, method=method, data=data,
                                     headers={"Authorization": f"Bearer {self.token}",
                                              "Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=self.timeout) as resp:
                payload = resp.read()
        except urllib.error.HTTPError as exc:
            payload = exc.read()
            try:
                doc = json.loads(payload)
                err = doc.get("error") or {}
                details = err.get("details")
                raise RemoteError(exc.code, str(err.get("code") or "error"),
                                  str(err.get("message") or doc.get("message") or payload),
                                  details if isinstance(details, dict) else None)
            except ValueError:
                raise RemoteError(exc.code, "error", payload.decode(errors="replace")) from None
        if raw:
            return payload.decode()
        return json.loads(payload) if payload else None

    def upload(self, upload_url: str, data: bytes) -> None:
        """PUT the tarball to the presigned URL the API gave."""
        req = urllib.request.Request(upload_url, method="PUT", data=data,
                                     headers={"Content-Type": "application/gzip"})
        with urllib.request.urlopen(req, timeout=self.timeout) as resp:
            resp.read()

    # -- the API ---------------------------------------------------------------------------
    def create_workspace(self, name: str, approvers: list[str],
                         notification_url: str | None = None,
                         credentials: dict[str, str] | None = None) -> Any:
        body: dict[str, Any] = {"name": name, "approvers": approvers}
        if notification_url:
            body["notification_url"] = notification_url
        if credentials:
            body["credentials"] = credentials
        return self.request("POST", "/workspaces", body)

    def workspace(self, name: str) -> Any:
        return self.request("GET", f"/workspaces/{name}")

    def upload_configuration(self, workspace: str, directory: str) -> str:
        cv = self.request("POST", f"/workspaces/{workspace}/configuration-versions", {})
        self.upload(cv["upload_url"], pack(directory))
        return str(cv["id"])

    def start_run(self, workspace: str, configuration_version: str, operation: str = "apply",
                  auto_apply: bool = False, variables: dict[str, Any] | None = None,
                  targets: list[str] | None = None) -> Any:
        return self.request("POST", f"/workspaces/{workspace}/runs", {
            "configuration_version": configuration_version, "operation": operation,
            "auto_apply": auto_apply, "variables": variables or {}, "targets": targets or []})

    def run(self, run_id: str) -> Any:
        return self.request("GET", f"/runs/{run_id}")

    def plan(self, run_id: str, fmt: str = "text") -> Any:
        if fmt == "json":
            return self.request("GET", f"/runs/{run_id}/plan?format=json")
        return self.request("GET", f"/runs/{run_id}/plan", raw=True)

    def action(self, run_id: str, action: str) -> Any:
        return self.request("POST", f"/runs/{run_id}/actions/{action}", {})
