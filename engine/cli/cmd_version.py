"""`version`: the Terraform language version groundplan implements, and its own version."""

from __future__ import annotations

import platform

from engine.cli.args import FlagSet
from engine.cli.meta import Meta
from engine.gocompat import json as gojson
from engine.version import GROUNDPLAN_VERSION, TERRAFORM_VERSION


def platform_name() -> str:
    machine = platform.machine().lower()
    arch = {"x86_64": "amd64", "aarch64": "arm64", "arm64": "arm64"}.get(machine, machine)
    return f"{platform.system().lower()}_{arch}"


def run_version(meta: Meta, args: list[str]) -> int:
    fs = FlagSet().boolean("json")
    rest = meta.parse_flags("version", fs, args)
    if rest is None:
        return 1
    if fs.get("json"):
        doc = {
            "terraform_version": TERRAFORM_VERSION,
            "platform": platform_name(),
            "provider_selections": {},
            "terraform_outdated": False,
        }
        meta.ui.raw(gojson.dumps(doc) + "\n")
        return 0
    meta.ui.raw(
        f"Terraform v{TERRAFORM_VERSION}\non {platform_name()}\n\n"
        f"(groundplan v{GROUNDPLAN_VERSION})\n"
    )
    return 0
