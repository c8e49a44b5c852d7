"""The single-purpose steps that build a plan graph, as terraform's graph transformers.

Each step is a callable `step(build) -> Diagnostics` that adds or removes nodes and edges of
`build.graph` (edge `u -> v`: `v` depends on `u`). `engine.graph.builder` runs them in order:

1. `ConfigStep`: a node per resource, data source, local, variable, output, module call,
   check block and provider configuration of every module in the configuration;
2. `StateStep`: a node per resource recorded in state that the configuration no longer has
   (orphans, also those of removed modules);
3. `ReferencesStep`: an edge from every object an expression refers to (and `depends_on`);
4. `ModuleExpansionStep`: an edge from a module call's expansion to everything in the module;
   `ProviderStep`: an edge from a provider configuration to the resources that use it;
5. `TargetsStep`: keep only the targets, what they depend on and the outputs that depend on
   nothing else (`-target`); in destroy mode the targets and what depends on them;
6. `CycleStep`: terraform's "Cycle: ..." errors naming the members of each cycle.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from engine.addrs import (
    AbsProviderConfig,
    AbsResource,
    AbsResourceInstance,
    Module,
    ModuleInstance,
    parse_module_instance,
)
from engine.addrs import Provider as ProviderAddr
from engine.configs.exprs import expr_as_keyword
from engine.configs.exprs import variables as expr_traversals
from engine.configs.refs import (
    DATA,
    LOCAL,
    MANAGED,
    MODULE_CALL,
    MODULE_OUTPUT,
    VAR,
    parse_ref,
)
from engine.diags import Diagnostics
from engine.graph.builder_nodes import CALL, CHECK, OUTPUT, PROVIDER, RESOURCE, Node
from engine.graph.builder_nodes import LOCAL as LOCAL_NODE
from engine.graph.builder_nodes import VAR as VAR_NODE
from engine.graph.dag import check_acyclic
from engine.graph.digraph import DiGraph, ancestors, descendants
from engine.graph.provider_resolution import (
    not_present,
    provider_map,
    requested_addr,
    resolve_resource,
)
from engine.hcl.ast import Block, Body, Expr, Traversal


@dataclass(slots=True)
class GraphBuild:
    """The graph under construction and what its nodes stand for. A targeted destroy
    (`TargetsStep` with `destroy`) also records which kept resources are only refreshed
    (`refresh_only`: dependencies of a target, which terraform's pre-destroy refresh reads)
    and which are destroyed without that refresh (`destroy_unrefreshed`: dependents of a
    target)."""

    config: Any
    graph: DiGraph = field(default_factory=DiGraph)
    objects: dict[Node, Any] = field(default_factory=dict)
    configs: dict[Module, Any] = field(default_factory=dict)
    refresh_only: set[Node] = field(default_factory=set)
    destroy_unrefreshed: set[Node] = field(default_factory=set)
    state: Any = None


# ------------------------------------------------------------------ provider configurations
def provider_config_addr(cfg: Any, local: str, alias: str) -> AbsProviderConfig:
    """The address of provider configuration `local`(.`alias`) declared in module `cfg`."""
    pa = cfg.module.provider_for_local_name(local)
    return AbsProviderConfig(Module(tuple(cfg.path)),
                             ProviderAddr(pa.hostname, pa.namespace, pa.type), alias or None)


def provider_addr_for(cfg: Any, res: Any) -> AbsProviderConfig:
    """The provider configuration a resource in module config `cfg` uses, resolved as
    terraform resolves it (engine.graph.provider_resolution): through the module calls'
    `providers` maps and inheritance of default configurations. When nothing matches, the
    address the resource asks for (`ProviderStep` reports it as not present)."""
    got = resolve_resource(cfg, res)
    return got if got is not None else requested_addr(cfg, res)


def provider_node(addr: AbsProviderConfig) -> Node:
    """The graph node of a provider configuration (named as terraform names it)."""
    alias = f".{addr.alias}" if addr.alias else ""
    return Node(PROVIDER, addr.module, f'provider["{addr.provider}"]{alias}')


# ------------------------------------------------------------------ expressions of objects
def body_traversals(body: Body, bound: frozenset[str] = frozenset()) -> Iterator[Traversal]:
    """Every reference in a body, nested blocks included, as terraform's reference analysis
    sees it: inside a `dynamic` block's `content` (and `labels`), its iterator (the block's
    label or its `iterator` argument) is a local name, not a reference."""
    for attr in body.attributes.values():
        yield from expr_traversals(attr.expr, bound)
    for blk in body.blocks:
        yield from block_traversals(blk, bound)


def block_traversals(blk: Block, bound: frozenset[str] = frozenset()) -> Iterator[Traversal]:
    """The references of one nested block (see body_traversals)."""
    if blk.type != "dynamic" or not blk.labels:
        yield from body_traversals(blk.body, bound)
        return
    name = blk.labels[0]
    it = blk.body.attributes.get("iterator")
    if it is not None:
        name = expr_as_keyword(it.expr) or name
    inner = bound | {name}
    for aname, attr in blk.body.attributes.items():
        if aname != "iterator":
            yield from expr_traversals(attr.expr, bound if aname == "for_each" else inner)
    for nested in blk.body.blocks:
        yield from block_traversals(nested, inner)


def resource_traversals(res: Any, skip: Iterable[Expr] = ()) -> Iterator[Traversal]:
    """The references of a resource block that order it: `count`/`for_each`, its
    configuration (less Terraform's own blocks), `replace_triggered_by` and its conditions,
    less the expressions in `skip`; `dynamic` block iterators are left out (see
    body_traversals)."""
    skipped = {id(e) for e in skip}
    for e in _resource_meta_exprs(res):
        if id(e) not in skipped:
            yield from expr_traversals(e)
    for attr_name, attr in res.config.attributes.items():
        if attr_name not in ("count", "for_each", "provider", "depends_on"):
            yield from expr_traversals(attr.expr)
    for blk in res.config.blocks:
        if blk.type not in ("lifecycle", "provisioner", "connection"):
            yield from block_traversals(blk)
    for e in _resource_rule_exprs(res):
        if id(e) not in skipped:
            yield from expr_traversals(e)


def _resource_meta_exprs(res: Any) -> Iterator[Expr]:
    if res.count is not None:
        yield res.count
    if res.for_each is not None:
        yield res.for_each


def _resource_rule_exprs(res: Any) -> Iterator[Expr]:
    yield from res.lifecycle.replace_triggered_by
    yield from _rule_exprs(res.preconditions)
    yield from _rule_exprs(res.postconditions)


def _rule_exprs(rules: Iterable[Any]) -> Iterator[Expr]:
    for r in rules:
        if r.condition is not None:
            yield r.condition
        if r.error_message is not None:
            yield r.error_message


def _object_refs(node: Node, obj: Any, cfg: Any) -> tuple[Module, list[Traversal]]:
    """(module the references resolve in, traversals) of one node's object."""
    travs: list[Traversal] = []
    module = node.module
    if node.kind == RESOURCE:
        travs.extend(resource_traversals(obj))
        travs.extend(obj.depends_on)
    elif node.kind == LOCAL_NODE:
        travs.extend(expr_traversals(obj.expr))
    elif node.kind == OUTPUT:
        if obj.expr is not None:
            travs.extend(expr_traversals(obj.expr))
        for e in _rule_exprs(obj.preconditions):
            travs.extend(expr_traversals(e))
        travs.extend(obj.depends_on)
    elif node.kind == VAR_NODE and module.names:
        call = cfg.parent.module.module_calls[module.names[-1]]
        attr = call.config.attributes.get(node.name)
        if attr is not None:
            travs.extend(expr_traversals(attr.expr))
        module = Module(module.names[:-1])
    elif node.kind == VAR_NODE:
        for rule in obj.validations:
            for e in _rule_exprs([rule]):
                travs.extend(t for t in expr_traversals(e) if getattr(t[0], "name", "") != "var")
    elif node.kind == CALL:
        for e in (obj.count, obj.for_each):
            if e is not None:
                travs.extend(expr_traversals(e))
        travs.extend(obj.depends_on)
    elif node.kind == CHECK:
        for e in _rule_exprs(obj.asserts):
            travs.extend(expr_traversals(e))
    elif node.kind == PROVIDER:
        travs.extend(body_traversals(obj.config))
    return module, travs


def _targets_of(module: Module, trav: Traversal, build: GraphBuild) -> list[Node]:
    ref, _ = parse_ref(trav)
    if ref is None:
        return []
    kind = ref.kind
    if kind == MANAGED:
        return [Node(RESOURCE, module, f"{ref.type}.{ref.name}")]
    if kind == DATA:
        return [Node(RESOURCE, module, f"data.{ref.type}.{ref.name}")]
    if kind == LOCAL:
        return [Node(LOCAL_NODE, module, ref.name)]
    if kind == VAR:
        return [Node(VAR_NODE, module, ref.name)]
    if kind == MODULE_OUTPUT:
        return [Node(OUTPUT, module.child(ref.name), ref.output), Node(CALL, module, ref.name)]
    if kind == MODULE_CALL:
        child = module.child(ref.name)
        cfg = build.configs.get(child)
        outs = [Node(OUTPUT, child, o) for o in (cfg.module.outputs if cfg is not None else {})]
        return [*outs, Node(CALL, module, ref.name)]
    return []


# ------------------------------------------------------------------------------ steps
class ConfigStep:
    """A node for every object of every module in the configuration."""

    def __call__(self, build: GraphBuild) -> Diagnostics:
        for cfg in build.config.walk():
            module = Module(tuple(cfg.path))
            build.configs[module] = cfg
            mod = cfg.module
            groups: list[tuple[str, dict[str, Any]]] = [
                (RESOURCE, dict(mod.managed_resources)),
                (RESOURCE, dict(mod.data_resources)),
                (LOCAL_NODE, dict(mod.locals)),
                (VAR_NODE, dict(mod.variables)),
                (OUTPUT, dict(mod.outputs)),
                (CALL, dict(mod.module_calls)),
                (CHECK, dict(mod.checks)),
            ]
            for kind, objs in groups:
                for name, obj in objs.items():
                    node = Node(kind, module, name)
                    build.graph.add_node(node)
                    build.objects[node] = obj
            proxied = provider_map(cfg).proxied_blocks
            for pc in mod.provider_configs.values():
                addr = provider_config_addr(cfg, pc.name, pc.alias)
                if addr in proxied:
                    continue
                node = provider_node(addr)
                build.graph.add_node(node)
                build.objects[node] = pc
            for chk in mod.checks.values():
                if chk.data_resource is not None:
                    node = Node(RESOURCE, module, chk.data_resource.key)
                    build.graph.add_node(node)
                    build.objects[node] = chk.data_resource
                    build.graph.add_edge(node, Node(CHECK, module, chk.name))
        return Diagnostics()


class StateStep:
    """Nodes for resources in state that the configuration does not declare (orphans)."""

    def __init__(self, state: Any) -> None:
        self.state = state

    def __call__(self, build: GraphBuild) -> Diagnostics:
        build.state = self.state
        if self.state is None:
            return Diagnostics()
        for rs in self.state.resources:
            mi = parse_module_instance(rs.module) if rs.module else ModuleInstance()
            name = f"{rs.type}.{rs.name}" if rs.mode == "managed" else f"data.{rs.type}.{rs.name}"
            node = Node(RESOURCE, mi.module(), name)
            if node not in build.graph:
                build.graph.add_node(node)
        return Diagnostics()


class ReferencesStep:
    """An edge from each referenced object to the object whose expressions refer to it."""

    def __call__(self, build: GraphBuild) -> Diagnostics:
        g = build.graph
        for node in list(g.nodes):
            obj = build.objects.get(node)
            if obj is None:
                continue
            module, travs = _object_refs(node, obj, build.configs[node.module])
            for trav in travs:
                for target in _targets_of(module, trav, build):
                    if target in g and target != node:
                        g.add_edge(target, node)
                    elif target == node and node.kind == RESOURCE and getattr(trav[0], "name", "") != "self":
                        g.add_edge(node, node)
        return Diagnostics()


class ModuleExpansionStep:
    """Everything in a module waits for the expansion of the call that brings it in."""

    def __call__(self, build: GraphBuild) -> Diagnostics:
        g = build.graph
        for node in list(g.nodes):
            if node.module.names:
                call = Node(CALL, Module(node.module.names[:-1]), node.module.names[-1])
                if call in g:
                    g.add_edge(call, node)
        return Diagnostics()


class TargetsStep:
    """Keep the targeted resources, their dependencies, and outputs that need nothing else;
    with no targets, keep everything.

    With `destroy` (a `-destroy` plan, and the apply of one) the destroy graph's edges run the
    other way, as in terraform: the targets and everything that depends on them, directly or
    not, are destroyed. Terraform's pre-destroy refresh is a normal targeted plan, so the
    targets and what they depend on are refreshed: both sets are kept, with the
    non-resource objects (variables, locals, module calls, provider configurations) they need,
    and `build.refresh_only` / `build.destroy_unrefreshed` tell the planner which resources are
    only refreshed and which are destroyed without a refresh."""

    def __init__(self, targets: list[AbsResource | AbsResourceInstance | ModuleInstance],
                 destroy: bool = False) -> None:
        self.targets = targets
        self.destroy = destroy

    def matches(self, node: Node) -> bool:
        if node.kind != RESOURCE:
            return False
        for t in self.targets:
            if isinstance(t, ModuleInstance):
                names = t.module().names
                if node.module.names[: len(names)] == names:
                    return True
            elif t.module.module() == node.module and str(t.resource) == node.name:
                return True
        return False

    def __call__(self, build: GraphBuild) -> Diagnostics:
        if not self.targets:
            return Diagnostics()
        g = build.graph
        keep: set[Node] = set()
        if self.destroy:
            targeted = {n for n in g.nodes if self.matches(n)}
            doomed: set[Node] = set(targeted)
            refreshed: set[Node] = set(targeted)
            for n in targeted:
                doomed |= descendants(g, n)
                refreshed |= ancestors(g, n)
            keep = doomed | refreshed
            for n in doomed:
                keep |= {a for a in ancestors(g, n) if a.kind != RESOURCE}
            build.refresh_only = {n for n in refreshed - doomed if n.kind == RESOURCE}
            build.destroy_unrefreshed = {n for n in doomed - refreshed if n.kind == RESOURCE}
            build.graph = g.subgraph(keep).copy()
            return Diagnostics()
        for n in g.nodes:
            if self.matches(n) and n not in keep:
                keep.add(n)
                keep |= ancestors(g, n)
        for n in g.nodes:
            if n.kind == OUTPUT and not n.module.names and n not in keep:
                anc = ancestors(g, n)
                if any(a.kind == RESOURCE for a in anc) and all(
                    a in keep or a.kind != RESOURCE for a in anc
                ):
                    keep.add(n)
                    keep |= anc
        build.graph = g.subgraph(keep).copy()
        return Diagnostics()


class ProviderStep:
    """A resource waits for the configuration of the provider it uses (when that
    configuration is a `provider` block); an orphan (a resource only in state) waits for the
    configuration its state records. Reports terraform's errors for a configuration that does
    not exist: "missing provider" for a `providers` entry naming none, and "Provider
    configuration not present" for a resource or orphaned instance whose configuration is
    gone."""

    def __call__(self, build: GraphBuild) -> Diagnostics:
        g = build.graph
        pmap = provider_map(build.config)
        diags = Diagnostics()
        diags.extend(pmap.diagnostics)
        orphans = _orphans_by_node(build)
        for node in sorted(g.nodes, key=str):
            if node.kind != RESOURCE:
                continue
            res = build.objects.get(node)
            if res is None:
                for what, recorded in orphans.get(node, []):
                    got = pmap.resolve_exact(recorded)
                    if got is None:
                        diags.append(not_present(what, recorded))
                    elif provider_node(got) in g:
                        g.add_edge(provider_node(got), node)
                continue
            cfg = build.configs[node.module]
            got = resolve_resource(cfg, res)
            if got is None:
                diags.append(not_present(_display(node), requested_addr(cfg, res)))
                continue
            pnode = provider_node(got)
            if pnode in g:
                g.add_edge(pnode, node)
        return diags


def _display(node: Node) -> str:
    return f"{node.module}.{node.name}" if node.module.names else node.name


def _orphans_by_node(build: GraphBuild) -> dict[Node, list[tuple[str, AbsProviderConfig]]]:
    """For each resource node known only from state: (`<instance> (orphan)`, the provider
    configuration its state records) per managed instance with a current object."""
    from engine.addrs import parse_abs_provider_config

    out: dict[Node, list[tuple[str, AbsProviderConfig]]] = {}
    if build.state is None:
        return out
    for rs in build.state.resources:
        if rs.mode != "managed":
            continue
        mi = parse_module_instance(rs.module) if rs.module else ModuleInstance()
        node = Node(RESOURCE, mi.module(), f"{rs.type}.{rs.name}")
        if node in build.objects:
            continue
        try:
            recorded = parse_abs_provider_config(rs.provider)
        except ValueError:
            continue
        prefix = f"{rs.module}." if rs.module else ""
        for inst in rs.instances:
            if inst.current is None:
                continue
            key = inst.index_key
            suffix = "" if key is None else (f'["{key}"]' if isinstance(key, str) else f"[{key}]")
            out.setdefault(node, []).append(
                (f"{prefix}{rs.type}.{rs.name}{suffix} (orphan)", recorded))
    return out


class CycleStep:
    """Terraform's "Cycle: a, b" error for each group of objects that depend on each other."""

    def __call__(self, build: GraphBuild) -> Diagnostics:
        return check_acyclic(build.graph)
