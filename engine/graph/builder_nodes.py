"""The nodes of plan graphs: one per configuration object (before instance expansion).

A `Node` names a resource (`terraform_data.a`, `data.x.y`), a local, an input variable, an
output, a module call's expansion, a `check` block or a provider configuration
(`provider["registry.terraform.io/hashicorp/aws"].west`) in a static module path. `str(node)` is
the name terraform's graph messages use (`local.x (expand)`, `module.m (expand)`, a resource
by its address), so cycle errors read as terraform's.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.addrs import AbsResourceInstance, Module
from engine.graph.digraph import DiGraph, ancestors

RESOURCE, LOCAL, VAR, OUTPUT, CALL, CHECK = "resource", "local", "var", "output", "call", "check"
PROVIDER = "provider"


@dataclass(frozen=True, slots=True, order=True)
class Node:
    """A configuration object in module `module`; `name` is the resource key
    (`type.name` / `data.type.name`) or the local/variable/output/call/check name."""

    kind: str
    module: Module
    name: str

    def __str__(self) -> str:
        prefix = f"{self.module}." if self.module.names else ""
        if self.kind in (RESOURCE, PROVIDER):
            return prefix + self.name
        if self.kind == CALL:
            return f"{prefix}module.{self.name} (expand)"
        if self.kind == CHECK:
            return f"{prefix}check.{self.name}"
        return f"{prefix}{self.kind}.{self.name} (expand)"

    @property
    def is_data(self) -> bool:
        return self.kind == RESOURCE and self.name.startswith("data.")


def static_node(addr: AbsResourceInstance) -> Node:
    """The resource node of the static graph that instance `addr` expands from."""
    return Node(RESOURCE, addr.module.module(), str(addr.resource))


def resource_dependencies(static: DiGraph) -> dict[Node, set[Node]]:
    """For each resource node, the resource nodes it depends on, directly or through
    locals, variables, outputs and module calls."""
    out: dict[Node, set[Node]] = {}
    for n in static.nodes:
        if isinstance(n, Node) and n.kind == RESOURCE:
            out[n] = {a for a in ancestors(static, n) if a.kind == RESOURCE}
    return out
