"""`configuration.provider_config` of the JSON plan and each resource's `provider_config_key`.

As terraform's jsonconfig: every module contributes an entry for each `provider` block, for each
provider it requires (declared in `required_providers` or implied by its resources) and, in a
child module, for each provider it inherits from its parent and each one its call passes in.
Keys are `name[.alias]` in the root and `module.a.module.b:name[.alias]` below it. A child's
entry that stands for a configuration of an ancestor (same provider, reached through the parent
chain) links to that source entry: resources using it get the source's key, and the linked
entry is left out of `provider_config`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

Entry = dict[str, Any]


def opaque_key(provider: str, module_addr: str) -> str:
    """terraform's opaqueProviderKey: `provider`, prefixed by `module_addr:` below the root."""
    return f"{module_addr}:{provider}" if module_addr else provider


def _requirements(module: Any) -> dict[str, str]:
    """Local name -> provider FQN the module requires: declared, then implied by resources."""
    reqs = {name: str(rp.addr) for name, rp in module.required_providers.items()}
    for r in module.all_resources():
        local = r.provider_local_name
        reqs.setdefault(local, str(module.provider_for_local_name(local)))
    return reqs


def _version(module: Any, local: str) -> str | None:
    rp = module.required_providers.get(local)
    if rp is None or rp.requirement is None:
        return None
    # terraform: the constraint as written (go-version's Constraints.String())
    return rp.requirement.text


@dataclass
class ProviderConfigs:
    """The entries by key, with the source key each linked entry points at."""

    entries: dict[str, Entry] = field(default_factory=dict)
    parents: dict[str, str] = field(default_factory=dict)

    def _source(self, start: str, full_name: str) -> str:
        """terraform's findSourceProviderKey: the last entry up the parent links that
        configures the same provider ("" when the first does not)."""
        found = ""
        key = start
        seen: set[str] = set()
        while key and key not in seen:
            seen.add(key)
            entry = self.entries.get(key)
            if entry is None or entry["full_name"] != full_name:
                break
            found = key
            key = self.parents.get(key, "")
        return found

    def _add(self, key: str, entry: Entry, parent_start: str | None) -> None:
        self.entries[key] = entry
        if parent_start is not None:
            src = self._source(parent_start, entry["full_name"])
            if src:
                self.parents[key] = src

    def collect(self, node: Any, expressions: Any) -> None:
        """Entries for `node` and its descendants (parents before children).
        `expressions(body, full_name)` renders a provider block's arguments."""
        mod = node.module
        addr = node.path_str
        parent_addr = node.parent.path_str if node.parent is not None else None
        for pc in mod.provider_configs.values():
            local = f"{pc.name}.{pc.alias}" if pc.alias else pc.name
            entry: Entry = {"name": pc.name,
                            "full_name": str(mod.provider_for_local_name(pc.name))}
            if pc.alias:
                entry["alias"] = pc.alias
            if addr:
                entry["module_address"] = addr
            exprs = expressions(pc.config, entry["full_name"])
            if exprs:
                entry["expressions"] = exprs
            version = _version(mod, pc.name)
            if version:
                entry["version_constraint"] = version
            self.entries[opaque_key(local, addr)] = entry
        reqs = _requirements(mod)
        for local, fqn in reqs.items():
            key = opaque_key(local, addr)
            if key in self.entries:
                continue
            entry = {"name": local, "full_name": fqn}
            if addr:
                entry["module_address"] = addr
            version = _version(mod, local)
            if version:
                entry["version_constraint"] = version
            self._add(key, entry, None if parent_addr is None else opaque_key(local, parent_addr))
        if parent_addr is not None:
            for fqn in sorted(set(reqs.values())):
                ptype = fqn.rsplit("/", 1)[-1]
                key = opaque_key(ptype, addr)
                if key in self.entries:
                    continue
                entry = {"name": ptype, "full_name": fqn, "module_address": addr}
                self._add(key, entry, opaque_key(ptype, parent_addr))
        for name in sorted(mod.module_calls):
            child = node.children.get(name)
            if child is None:
                continue
            for passed in mod.module_calls[name].providers:
                in_child = str(passed.in_child)
                entry = {"name": in_child,
                         "full_name": str(child.module.provider_for_local_name(
                             passed.in_child.name)),
                         "module_address": child.path_str}
                self._add(opaque_key(in_child, child.path_str), entry,
                          opaque_key(str(passed.in_parent), addr))
            self.collect(child, expressions)

    def resource_key(self, local: str, module_addr: str) -> str:
        """The provider_config_key of a resource using `local` (`name[.alias]`) in a module:
        the source entry's key when its own entry links to one."""
        key = opaque_key(local, module_addr)
        parent = self.parents.get(key)
        if parent is not None and parent in self.entries:
            return parent
        return key

    def provider_config(self) -> dict[str, Entry]:
        """The `provider_config` object: every entry that links to no source, by key."""
        return {k: e for k, e in sorted(self.entries.items()) if k not in self.parents}
