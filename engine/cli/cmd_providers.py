"""`providers`: the providers the configuration (as a module tree) and the state require.

    Providers required by configuration:
    .
    ├── provider[registry.terraform.io/hashicorp/null] >= 3.0.0, < 4.0.0
    └── module.m
        └── provider[terraform.io/builtin/terraform]

    Providers required by state:

        provider[terraform.io/builtin/terraform]

A module's providers are its `required_providers` entries (with their version constraints,
versions written with three parts as terraform normalises them) and the providers its
resources and `provider` blocks imply, sorted; its child modules follow, by call name.
"""

from __future__ import annotations

import re
from typing import Any

from engine.cli.args import FlagSet
from engine.cli.meta import Meta
from engine.cli.state_view import state_providers

_CLAUSE = re.compile(r"^\s*(!=|>=|<=|~>|=|>|<)?\s*v?([0-9][0-9A-Za-z.\-+]*)\s*$")


def normalise_constraint(text: str) -> str:
    """A constraint as terraform prints it: `>= 3.0` becomes `>= 3.0.0` (`~>` kept)."""
    out = []
    for part in text.split(","):
        m = _CLAUSE.match(part)
        if m is None:
            out.append(part.strip())
            continue
        op, version = m.group(1) or "", m.group(2)
        if op != "~>":
            cut = min((i for i in (version.find("-"), version.find("+")) if i >= 0),
                      default=len(version))
            nums = version[:cut].split(".")
            nums += ["0"] * (3 - len(nums))
            version = ".".join(nums) + version[cut:]
        out.append(f"{op} {version}" if op else version)
    return ", ".join(out)


def module_requirements(node: Any) -> dict[str, str]:
    """Provider address -> constraint text ("" for none) that one module requires."""
    mod = node.module
    reqs: dict[str, str] = {}
    for req in mod.required_providers.values():
        reqs[str(req.addr)] = normalise_constraint(req.requirement.text) if req.requirement \
            else ""
    for res in mod.all_resources():
        reqs.setdefault(str(mod.resource_provider(res)), "")
    for pc in getattr(mod, "provider_configs", {}).values():
        reqs.setdefault(str(mod.provider_for_local_name(pc.name)), "")
    return reqs


def _tree(node: Any, prefix: str, lines: list[str]) -> None:
    reqs = module_requirements(node)
    items = [f"provider[{a}]" + (f" {reqs[a]}" if reqs[a] else "") for a in sorted(reqs)]
    children = [(f"module.{name}", node.children[name]) for name in sorted(node.children)]
    entries: list[tuple[str, Any]] = [(i, None) for i in items] + children
    for i, (label, child) in enumerate(entries):
        last = i == len(entries) - 1
        lines.append(prefix + ("└── " if last else "├── ") + label)
        if child is not None:
            _tree(child, prefix + ("    " if last else "│   "), lines)


def run_providers(meta: Meta, args: list[str]) -> int:
    fs = FlagSet()
    rest = meta.parse_flags("providers", fs, args)
    if rest is None:
        return 1
    ui = meta.ui
    config, diags = meta.load_config()
    if diags.has_errors or config is None:
        ui.diagnostics(diags)
        return 1
    lines = ["", "Providers required by configuration:", "."]
    _tree(config, "", lines)
    lines.append("")
    storage, sdiags = meta.state_storage()
    sf = None
    if storage is not None:
        sf, sdiags = storage.read()
    if sdiags.has_errors:
        ui.diagnostics(sdiags)
        return 1
    if sf is not None and sf.state.resources:
        lines += ["Providers required by state:", ""]
        lines += [f"    provider[{p}]" for p in state_providers(sf.state)]
        lines.append("")
    ui.raw("\n".join(lines) + "\n")
    return 0
