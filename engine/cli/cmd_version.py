"""`version`: groundplan's own version first, then the Terraform language version it
implements, the platform, and the provider versions the working directory's lock file selects.

Human form (terraform's, named as groundplan, as OpenTofu prints "OpenTofu v…"):

    groundplan v0.1.0
    implementing the Terraform v1.11.4 language
    on linux_amd64
    + provider registry.terraform.io/hashicorp/aws v3.39.0

`-json` keeps terraform's keys (`terraform_version` is the implemented Terraform version, so
tools that read it keep working) and adds `groundplan_version`.
"""

from __future__ import annotations

import os

from engine.cli.args import FlagSet
from engine.cli.meta import Meta
from engine.depsfile.names import LOCK_FILE
from engine.gocompat import json as gojson
from engine.version import GROUNDPLAN_VERSION, TERRAFORM_VERSION


def platform_name() -> str:
    uname = os.uname()  # platform.system()/machine() without importing platform
    machine = uname.machine.lower()
    arch = {"x86_64": "amd64", "aarch64": "arm64", "arm64": "arm64"}.get(machine, machine)
    return f"{uname.sysname.lower()}_{arch}"


def provider_selections() -> dict[str, str]:
    """Provider address -> selected version, from the lock file of the working directory
    (none when it is absent or unreadable: `version` reports, it does not fail). The lock-file
    parser is imported only when there is a lock file."""
    if not os.path.exists(LOCK_FILE):
        return {}
    from engine.depsfile import load_locks

    locks, diags = load_locks(LOCK_FILE)
    if diags.has_errors:
        return {}
    return {str(addr): lock.version for addr, lock in sorted(
        locks.providers.items(), key=lambda item: str(item[0]))}


def run_version(meta: Meta, args: list[str]) -> int:
    fs = FlagSet().boolean("json")
    rest = meta.parse_flags("version", fs, args)
    if rest is None:
        return 1
    selections = provider_selections()
    if fs.get("json"):
        doc = {
            "terraform_version": TERRAFORM_VERSION,
            "platform": platform_name(),
            "provider_selections": selections,
            "terraform_outdated": False,
            "groundplan_version": GROUNDPLAN_VERSION,
        }
        meta.ui.raw(gojson.dumps(doc) + "\n")
        return 0
    lines = [
        f"groundplan v{GROUNDPLAN_VERSION}",
        f"implementing the Terraform v{TERRAFORM_VERSION} language",
        f"on {platform_name()}",
        *(f"+ provider {addr} v{version}" for addr, version in selections.items()),
    ]
    meta.ui.raw("\n".join(lines) + "\n")
    return 0
