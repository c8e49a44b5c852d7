"""`modules`: the modules the configuration declares and the versions `init` installed.

    Modules declared by configuration:
    .
    ├── "network"[registry.terraform.io/acme/network/aws] 1.2.0 (~> 1.0)
    │   └── "subnets"[./modules/subnets]
    └── "tags"[./tags]

As terraform's `modules` command (its moduleref resolver): each module call of the loaded
configuration whose key is in the module manifest (`.terraform/modules/modules.json`) is
listed under its caller by call name, with its source address (a local path cleaned as
terraform cleans it, a registry address with its host) and, for registry modules, the
version installed and the constraint when it is not that exact version. `-json` prints the
same records flattened depth-first: `{"format_version":"1.0","modules":[{"key","source",
"version"}]}`. A configuration that cannot be loaded (modules not installed, an unsupported
`required_version`) gets the loader's diagnostics and exit status 1. terraform orders child
modules by Go map iteration (at random below the top level, and in JSON at every level);
groundplan orders them by call name everywhere.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.cli.args import FlagSet
from engine.cli.meta import Meta
from engine.diags import error
from engine.gocompat import json as gojson

FORMAT_VERSION = "1.0"


@dataclass
class ModuleEntry:
    """One declared module as the command lists it (terraform's moduleref.Record)."""

    key: str
    source: str
    version: str = ""
    constraint: str = ""
    children: list[ModuleEntry] = field(default_factory=list)

    def label(self) -> str:
        """The tree line: `"key"[source]`, then the version and a differing constraint."""
        text = f'"{self.key}"[{self.source}]'
        if self.version:
            text += f" {self.version}"
            if self.constraint and self.constraint != self.version:
                text += f" ({self.constraint})"
        return text


def source_address(call: Any) -> str:
    """The call's source as terraform's ModuleSource.String() gives it: a local path
    cleaned, a registry address with its host (and `//subdir`), a remote address as given."""
    from engine.configs.module_calls import clean_local_source
    from engine.configs.registry_addrs import parse_module_registry_source

    src: str = call.source
    if call.is_local:
        return clean_local_source(src)
    try:
        reg = parse_module_registry_source(src)
    except ValueError:
        return src
    text = f"{reg.host}/{reg.namespace}/{reg.name}/{reg.target_system}"
    return f"{text}//{reg.subdir}" if reg.subdir else text


def declared_modules(config: Any, installed: dict[str, str]) -> list[ModuleEntry]:
    """The module calls of `config` (a loaded engine.configs Config) that the manifest
    records (`installed`: module key -> version, "" for non-registry modules), as a tree.
    As terraform's resolver, a call missing from the manifest is left out together with
    everything below it."""

    def children(node: Any) -> list[ModuleEntry]:
        out: list[ModuleEntry] = []
        for name in sorted(node.children):
            child = node.children[name]
            key = ".".join(child.path)
            if key not in installed:
                continue
            vc = child.call.version if child.call is not None else None
            # go-version's Constraints.String(): each clause trimmed, joined by ","
            constraint = ",".join(p.strip() for p in vc.text.split(",")) if vc else ""
            entry = ModuleEntry(name, source_address(child.call), installed[key], constraint)
            entry.children = children(child)
            out.append(entry)
        return out

    return children(config)


def render_tree(entries: list[ModuleEntry]) -> str:
    """The human listing (terraform's treeprint under "Modules declared by configuration:")."""
    if not entries:
        return "No modules found in configuration.\n"
    lines = ["", "Modules declared by configuration:", "."]

    def branch(items: list[ModuleEntry], prefix: str) -> None:
        for i, item in enumerate(items):
            last = i == len(items) - 1
            lines.append(prefix + ("└── " if last else "├── ") + item.label())
            # treeprint's continuation is a bar, two no-break spaces and a space
            branch(item.children, prefix + ("    " if last else "│\u00a0\u00a0 "))

    branch(entries, "")
    return "\n".join(lines) + "\n\n"


def render_json(entries: list[ModuleEntry]) -> str:
    """The `-json` document (records flattened depth-first; Go's map key order)."""
    records: list[dict[str, str]] = []

    def flatten(items: list[ModuleEntry]) -> None:
        for item in items:
            records.append({"key": item.key, "source": item.source, "version": item.version})
            flatten(item.children)

    flatten(entries)
    # an empty list is Go's nil slice: null
    doc = {"format_version": FORMAT_VERSION, "modules": records or None}
    return gojson.dumps(doc, indent=None) + "\n"


def run_modules(meta: Meta, args: list[str]) -> int:
    fs = FlagSet().boolean("json")
    rest = meta.parse_flags("modules", fs, args)
    if rest is None:
        return 1
    ui = meta.ui
    if rest:
        ui.diagnostics([error("Too many command line arguments",
                              "Expected no positional arguments")])
        ui.err("\nFor more help on using this command, run:\n  groundplan modules -help")
        return 1
    config, diags = meta.load_config(version_first=True)
    if config is None or diags.has_errors:
        ui.diagnostics(diags)
        return 1
    from engine.initwd import read_manifest

    installed = {r.key: r.version for r in read_manifest(meta.cwd) if r.key}
    entries = declared_modules(config, installed)
    ui.raw(render_json(entries) if fs.get("json") else render_tree(entries))
    return 0
