"""`import` blocks during plan (terraform's expandResourceImports and importState).

An `ImportPlanner` belongs to one plan walk (normal mode only: a destroy or refresh-only plan
ignores import blocks, as terraform does). Import blocks live in the root module and are
evaluated there, each against the resource it targets:

- `before_resource(node, res)`, called by the planner just before it plans a resource node:
  the import blocks whose `to` names this resource are expanded (`for_each`, with
  `each.key`/`each.value` in the `to` index and the `id`), their IDs evaluated ("Invalid import
  id argument": null, unknown, empty), the instance keys checked against the resource's
  repetition ("Invalid import 'to' expression") and its expansion ("Configuration for import
  target does not exist"). A target already in state is skipped silently (whatever its id).
  Every other target is imported (engine.plans.importing: "Preparing import... [id=...]",
  ImportResourceState, ReadResource) and the object becomes the instance's prior object, in
  the plan's prior state too; the planner then plans it as any existing instance, without a
  second refresh. Any error leaves the resource unplanned.
- `missing_targets()`: after the walk, the import blocks whose resource has no configuration
  ("Configuration for import target does not exist", pointing at `to`, with terraform's
  advice about `-generate-config-out`).
- `mark(changes)`: the changes of imported instances get `importing = Importing(id)`.

`ImportReferencesStep` is the graph step that makes a target resource wait for what its import
blocks refer to (terraform's GraphNodeImportReferencer).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, replace
from types import SimpleNamespace
from typing import Any

from engine.addrs import (
    AbsResourceInstance,
    AddressSyntaxError,
    Module,
    ModuleInstance,
    parse_abs_resource_instance,
)
from engine.addrs.keys import key_str
from engine.configs.exprs import unwrap
from engine.configs.exprs import variables as expr_traversals
from engine.configs.import_checks import instance_key_problems
from engine.configs.refactoring import Import
from engine.configs.refs import DATA, LOCAL, MANAGED, VAR, parse_ref
from engine.diags import Diagnostics, error, warning
from engine.graph.builder_nodes import LOCAL as LOCAL_NODE
from engine.graph.builder_nodes import RESOURCE, Node
from engine.graph.builder_nodes import VAR as VAR_NODE
from engine.hcl import ast
from engine.hcl.ast import Expr, TraverseAttr, TraverseRoot
from engine.plans.importing import import_object
from engine.plans.model import Action, Importing, PlanMode, ResourceInstanceChange
from engine.plans.planner_context import PlanContext, provider_addr_for
from engine.plans.planner_expand import expand_resource
from engine.plans.planner_state import StateEntry, encode_object
from engine.values import NUMBER, STRING, Value, number, object_
from engine.values.convert import ConversionError, convert
from engine.values.types import ListType, TupleType

NO_CONFIG_DETAIL = (
    "The configuration for the given import target {addr} does not exist. If you wish to "
    "automatically generate config for this resource, use the -generate-config-out option "
    "within groundplan plan. Otherwise, make sure the target resource exists within your "
    "configuration. For example:\n\n  groundplan plan -generate-config-out=generated.tf"
)
NOT_EXPANDED_DETAIL = (
    "The configuration for the given import {addr} does not exist. All target instances must "
    "have an associated configuration to be imported."
)
UNKNOWN_ID = (
    'The import block "id" argument depends on resource attributes that cannot be determined '
    "until apply, so groundplan cannot plan to import this resource."
)


@dataclass(frozen=True, slots=True)
class ImportTarget:
    """One expanded import: the instance, the ID, and the block it came from."""

    addr: AbsResourceInstance
    id: str
    block: Import


# ------------------------------------------------------------------ static shape of `to`
def target_names(expr: Expr | None) -> list[str]:
    """The names of an import `to` expression without its index steps:
    `module.m["a"].aws_s3_bucket.b[each.key]` -> [module, m, aws_s3_bucket, b]."""
    if expr is None:
        return []
    expr = unwrap(expr)
    if isinstance(expr, ast.ScopeTraversalExpr):
        return [s.name for s in expr.traversal if isinstance(s, (TraverseRoot, TraverseAttr))]
    if isinstance(expr, ast.IndexExpr):
        return target_names(expr.collection)
    if isinstance(expr, ast.RelativeTraversalExpr):
        return target_names(expr.source) + [
            s.name for s in expr.traversal if isinstance(s, TraverseAttr)]
    return []


def target_node(imp: Import) -> Node | None:
    """The plan graph node of the resource an import block targets (None: not an address)."""
    names = target_names(imp.to)
    if names and names[0] == "resource":
        names = names[1:]
    mods: list[str] = []
    while len(names) >= 2 and names[0] == "module":
        mods.append(names[1])
        names = names[2:]
    if len(names) != 2:
        return None
    return Node(RESOURCE, Module(tuple(mods)), f"{names[0]}.{names[1]}")


def address_text(expr: Expr, each: dict[str, Value], evaluate: Any,
                  diags: Diagnostics) -> str | None:
    """The address `to` names, its index keys evaluated with `each` only."""
    expr = unwrap(expr)
    if isinstance(expr, ast.ScopeTraversalExpr):
        return ast.traversal_str(expr.traversal)
    if isinstance(expr, ast.RelativeTraversalExpr):
        inner = address_text(expr.source, each, evaluate, diags)
        return None if inner is None else inner + ast.traversal_str(
            (TraverseRoot("", expr.range), *expr.traversal))
    if isinstance(expr, ast.IndexExpr):
        inner = address_text(expr.collection, each, evaluate, diags)
        if inner is None:
            return None
        key, more = evaluate(expr.key, each)
        diags.extend(more)
        if more.has_errors:
            return None
        plain, marks = key.unmark_deep()
        if marks:
            diags.append(error("Invalid index expression",
                               "Import address index expression cannot be sensitive.",
                               expr.key.range))
            return None
        if plain.is_known and isinstance(plain.v, str):
            return inner + key_str(plain.v)
        try:
            whole = convert(plain, NUMBER).v
        except ConversionError:
            whole = None
        if plain.is_null or not plain.is_known or not isinstance(whole, int):
            diags.append(error("Invalid import 'to' expression",
                               "The import block 'to' argument does not resolve to a single "
                               "resource instance.", expr.range))
            return None
        return inner + key_str(whole)
    return None


# ------------------------------------------------------------------ evaluation
def _each_roots(scope: Any, imp: Import) -> tuple[list[dict[str, Value]], Diagnostics]:
    """One `each` binding per element of the block's `for_each` ([{}] without one)."""
    if imp.for_each is None:
        return [{}], Diagnostics()
    val, diags = scope.evaluate(imp.for_each)
    if diags.has_errors:
        return [], diags
    plain, marks = val.unmark_deep()
    if not marks and plain.is_wholly_known() and not plain.is_null and \
            isinstance(plain.type, (ListType, TupleType)):
        return [{"each": object_({"key": number(i), "value": e})}
                for i, e in enumerate(val.v)], diags
    _rep, insts, more = expand_resource(scope, SimpleNamespace(count=None,
                                                               for_each=imp.for_each))
    return [roots for _key, roots in insts], more


def import_id(scope: Any, imp: Import, each: dict[str, Value]) -> tuple[str | None, Diagnostics]:
    """The block's ID for one `each` binding (terraform's evaluateImportIdExpression)."""
    subject = imp.id.range if imp.id is not None else imp.decl_range

    def bad(detail: str, diags: Diagnostics) -> tuple[str | None, Diagnostics]:
        diags.append(error("Invalid import id argument", detail, subject))
        return None, diags

    if imp.id is None:
        return bad("The import ID cannot be null.", Diagnostics())
    val, diags = scope.evaluate(imp.id, each)
    if diags.has_errors:
        return None, diags
    plain, _ = val.unmark_deep()
    if plain.is_null:
        return bad("The import ID cannot be null.", diags)
    if not plain.is_known:
        return bad(UNKNOWN_ID, diags)
    try:
        text = convert(plain, STRING)
    except ConversionError:
        return bad("The import ID value is unsuitable: not a string.", diags)
    if not text.is_known or not isinstance(text.v, str):
        return bad(UNKNOWN_ID, diags)
    if text.v == "":
        return bad("The import ID value evaluates to an empty string, please provide a "
                   "non-empty value.", diags)
    return text.v, diags


def expand_block(scope: Any, imp: Import, res: Any) -> tuple[list[ImportTarget], Diagnostics]:
    """Every (instance, ID) one import block stands for, checked against `res`."""
    out: list[ImportTarget] = []
    eaches, diags = _each_roots(scope, imp)
    if diags.has_errors or imp.to is None:
        return out, diags
    for each in eaches:
        text = address_text(imp.to, each, scope.evaluate, diags)
        if text is None:
            return out, diags
        try:
            addr = parse_abs_resource_instance(text.removeprefix("resource."))
        except AddressSyntaxError as exc:
            diags.append(error("Invalid import 'to' expression", str(exc), imp.to.range))
            return out, diags
        diags.extend(instance_key_problems(res, addr.key, imp.to))
        the_id, more = import_id(scope, imp, each)
        diags.extend(more)
        if diags.has_errors or the_id is None:
            return out, diags
        out.append(ImportTarget(addr, the_id, imp))
    return out, diags


# ------------------------------------------------------------------ the planner's side
class ImportPlanner:
    """See the module docstring."""

    def __init__(self, ctx: PlanContext) -> None:
        self.ctx = ctx
        self.active = ctx.mode is PlanMode.NORMAL
        self.blocks: dict[Node, list[Import]] = {}
        for imp in ctx.config.module.imports:
            node = target_node(imp)
            if node is not None:
                self.blocks.setdefault(node, []).append(imp)
        self.imported: dict[AbsResourceInstance, str] = {}
        self._mu = threading.Lock()

    def _root_scope(self) -> Any:
        return self.ctx.tree.scope(ModuleInstance())

    def targets(self, node: Node, res: Any) -> tuple[list[ImportTarget], Diagnostics]:
        """The expanded import targets of resource `node` (last one wins per address)."""
        diags = Diagnostics()
        found: dict[AbsResourceInstance, ImportTarget] = {}
        for imp in self.blocks.get(node, []):
            got, more = expand_block(self._root_scope(), imp, res)
            diags.extend(more)
            if more.has_errors:
                return [], diags
            for t in got:
                found[t.addr] = t
        return list(found.values()), diags

    def _expanded(self, node: Node, res: Any) -> set[AbsResourceInstance]:
        from engine.plans.planner_instance import instance_addr

        out: set[AbsResourceInstance] = set()
        for mi in self.ctx.module_instances(node.module):
            _rep, insts, more = expand_resource(self.ctx.tree.scope(mi), res)
            if not more.has_errors:
                out.update(instance_addr(mi, res, k) for k, _ in insts)
        return out

    def before_resource(self, node: Node, res: Any) -> Diagnostics:
        """Expand, check and import the targets of `node` (see the module docstring)."""
        if not self.active or res is None or node not in self.blocks:
            return Diagnostics()
        targets, diags = self.targets(node, res)
        if diags.has_errors:
            return diags
        expanded = self._expanded(node, res)
        for t in targets:
            if t.addr not in expanded:
                diags.append(error("Configuration for import target does not exist",
                                   NOT_EXPANDED_DETAIL.format(addr=t.addr)))
                return diags
        todo = [t for t in targets if t.addr not in self.ctx.prior]
        if not todo:
            return diags
        cfg = self.ctx.config.descendant(node.module.names)
        b, more = self.ctx.binding(provider_addr_for(cfg, res), "managed", res.type)
        diags.extend(more)
        if b is None:
            return diags
        for t in todo:
            self.ctx.hooks.pre_plan_import(t.addr, t.id)
            got, more = import_object(b.provider, t.addr, t.id, self.ctx.hooks)
            diags.extend(more)
            if got is None:
                continue
            obj = encode_object(b.schema, got.value, got.private)
            with self._mu:
                self.imported[t.addr] = t.id
                # copy on write: other nodes may be iterating the prior state right now
                prior = dict(self.ctx.prior)
                prior[t.addr] = StateEntry(t.addr, str(b.addr), obj, imported=True)
                self.ctx.prior = prior
            self.ctx.refreshed.set_current(t.addr, obj, str(b.addr))
        return diags

    def missing_targets(self, generate: bool = False) -> Diagnostics:
        """Import blocks whose target resource is not configured (see the module docstring);
        with `generate` (`-generate-config-out`), those in the root module are imported
        and given generated configuration instead (`generate_config`)."""
        diags = Diagnostics()
        if not self.active:
            return diags
        generated = False
        for node, blocks in self.blocks.items():
            cfg = self.ctx.config.descendant(node.module.names)
            if cfg is not None and cfg.module.managed_resources.get(node.name) is not None:
                continue
            targets, more = self.targets(node, None)
            diags.extend(more)
            if more.has_errors or not targets:
                continue
            if generate and not node.module.names:
                diags.extend(self.generate_config(node, blocks, targets))
                generated = generated or any(t.addr in self.imported for t in targets)
                continue
            if len(blocks) == 1 and blocks[0].to is not None:
                diags.append(error("Configuration for import target does not exist",
                                   NO_CONFIG_DETAIL.format(addr=_resource_text(node)),
                                   blocks[0].to.range))
            else:
                diags.append(error("Configuration for import target does not exist",
                                   NOT_EXPANDED_DETAIL.format(addr=targets[0].addr)))
        if generated:  # once a plan, as terraform says it
            diags.append(warning(
                "Config generation is experimental",
                "Generating configuration during import is currently experimental, and the "
                "generated configuration format may change in future versions."))
        return diags

    def generate_config(self, node: Node, blocks: list[Import],
                        targets: list[ImportTarget]) -> Diagnostics:
        """Import each target of a root resource without configuration and record its change:
        a no-op import whose `generated_config` is the configuration of the object read
        (engine.plans.genconfig), as terraform plans an import with generated config."""
        from engine.plans.genconfig import resource_config

        diags = Diagnostics()
        type_name, name = node.name.split(".", 1)
        ref = next((b.provider for b in blocks if b.provider is not None), None)
        local = ref.name if ref is not None else type_name.split("_", 1)[0]
        res = SimpleNamespace(type=type_name, provider=ref, provider_local_name=local)
        cfg = self.ctx.config.descendant(())
        b, more = self.ctx.binding(provider_addr_for(cfg, res), "managed", type_name)
        diags.extend(more)
        if b is None:
            return diags
        line = ""
        if ref is not None and (ref.name != type_name.split("_", 1)[0] or ref.alias):
            line = ref.name + (f".{ref.alias}" if ref.alias else "")
        for t in targets:
            if t.addr in self.ctx.prior:
                continue
            self.ctx.hooks.pre_plan_import(t.addr, t.id)
            got, more = import_object(b.provider, t.addr, t.id, self.ctx.hooks)
            diags.extend(more)
            if got is None:
                continue
            text = resource_config(type_name, name, line, b.schema.block, got.value)
            obj = encode_object(b.schema, got.value, got.private)
            with self._mu:
                self.imported[t.addr] = t.id
                prior = dict(self.ctx.prior)
                prior[t.addr] = StateEntry(t.addr, str(b.addr), obj, imported=True)
                self.ctx.prior = prior
            self.ctx.refreshed.set_current(t.addr, obj, str(b.addr))
            self.ctx.add_change(ResourceInstanceChange(
                t.addr, b.addr, Action.NOOP, got.value, got.value, importing=Importing(t.id),
                generated_config=text))
        return diags

    def mark(self, changes: list[ResourceInstanceChange]) -> None:
        """Set `importing` on the changes of the instances imported in this plan."""
        for i, c in enumerate(changes):
            the_id = self.imported.get(c.addr)
            if the_id is not None and c.deposed_key is None:
                changes[i] = replace(c, importing=Importing(the_id))


def _resource_text(node: Node) -> str:
    prefix = "".join(f"module.{n}." for n in node.module.names)
    return prefix + node.name


# ------------------------------------------------------------------ graph step
def _root_ref_nodes(expr: Expr | None) -> list[Node]:
    root = Module(())
    out: list[Node] = []
    if expr is None:
        return out
    for trav in expr_traversals(expr):
        ref, _ = parse_ref(trav)
        if ref is None:
            continue
        if ref.kind == MANAGED:
            out.append(Node(RESOURCE, root, f"{ref.type}.{ref.name}"))
        elif ref.kind == DATA:
            out.append(Node(RESOURCE, root, f"data.{ref.type}.{ref.name}"))
        elif ref.kind == LOCAL:
            out.append(Node(LOCAL_NODE, root, ref.name))
        elif ref.kind == VAR:
            out.append(Node(VAR_NODE, root, ref.name))
    return out


class ImportReferencesStep:
    """An edge from each object an import block's `id`/`for_each` refers to (in the root
    module) to the resource the block targets."""

    def __call__(self, build: Any) -> Diagnostics:
        g = build.graph
        for imp in build.config.module.imports:
            node = target_node(imp)
            if node is None or node not in g:
                continue
            for expr in (imp.id, imp.for_each):
                for dep in _root_ref_nodes(expr):
                    if dep in g and dep != node:
                        g.add_edge(dep, node)
        return Diagnostics()
