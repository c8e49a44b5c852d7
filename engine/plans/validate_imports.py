"""What terraform's validate walk reports about `import` blocks (its ConfigTransformer's
validateImportTargets, then NodeValidatableResource.validateImportTargets per target).

`validate_imports(config, cwd)`:

1. A block whose `to` names a module the configuration does not have: "Configuration for
   import target does not exist" ("... All target instances must have an associated
   configuration to be imported."), at `to`. terraform finds these while building its graph,
   so when there is one, they are all that is reported (`graph_errors=True` in the result).
2. For each resource the blocks target, in the order of the blocks:
   - a target without configuration outside the root module: "Resource X not found. Only
     resources within the root module are eligible for config generation."; in the root
     module, a keyed `to` or a `for_each` block cannot have configuration generated: "The
     given import block is not compatible with config generation. ..." (either error ends
     that resource's checks);
   - then each block: an `id` referring to the target itself ("The import ID cannot
     reference the resource being imported."), and for every element of its `for_each` (a
     `for_each` not yet known is skipped, as terraform's validate allows unknowns) the
     instance key `to` resolves to against the target's repetition ("Invalid import 'to'
     expression": "The target resource does not use for_each.", ...) and the `id`
     (null, not a string; unknown is fine). The first error ends that resource's checks.

Blocks without `for_each` whose target is configured are left to the static check of
`engine.configs.import_checks`, which reports the same problems without evaluating.
Everything is evaluated in the root module's validate scope (`validate_eval.module_scope`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.addrs import AddressSyntaxError, parse_abs_resource_instance
from engine.addrs.keys import NO_KEY
from engine.configs.exprs import unwrap
from engine.configs.exprs import variables as expr_traversals
from engine.configs.import_checks import instance_key_problems
from engine.configs.refactoring import Import
from engine.configs.refs import MANAGED, parse_ref
from engine.diags import Diagnostics, error
from engine.graph.builder_nodes import Node
from engine.hcl import ast
from engine.plans.planner_imports import address_text, target_node
from engine.plans.validate_eval import module_scope
from engine.values import STRING, Value, number, object_, string
from engine.values.convert import ConversionError, convert
from engine.values.types import ListType, MapType, ObjectType, SetType, TupleType

NO_MODULE_DETAIL = (
    "The configuration for the given import target {addr} does not exist. All target "
    "instances must have an associated configuration to be imported."
)
NOT_ROOT_DETAIL = (
    "Resource {addr} not found. Only resources within the root module are eligible for "
    "config generation."
)
NOT_GENERATABLE_DETAIL = (
    "The given import block is not compatible with config generation. The "
    "-generate-config-out option cannot be used with import blocks which use for_each, or "
    "resources which use for_each or count."
)


@dataclass
class ImportValidation:
    """The diagnostics, and whether they are graph-building errors (reported alone)."""

    diags: Diagnostics
    graph_errors: bool = False


def _static_to(imp: Import) -> Any:
    """The instance address a block's `to` names when it needs no evaluation, else None."""
    to = unwrap(imp.to) if imp.to is not None else None
    if not isinstance(to, ast.ScopeTraversalExpr):
        return None
    try:
        return parse_abs_resource_instance(ast.traversal_str(to.traversal).removeprefix("resource."))
    except AddressSyntaxError:
        return None


def _config_resource_text(node: Node) -> str:
    return "".join(f"module.{n}." for n in node.module.names) + node.name


def validate_imports(config: Any, cwd: str) -> ImportValidation:
    """See the module docstring."""
    diags = Diagnostics()
    by_node: dict[Node, list[Import]] = {}
    for imp in config.module.imports:
        node = target_node(imp)
        if node is None or imp.to is None:
            continue
        if config.descendant(node.module.names) is None:
            diags.append(error("Configuration for import target does not exist",
                               NO_MODULE_DETAIL.format(addr=_config_resource_text(node)),
                               imp.to.range))
            continue
        by_node.setdefault(node, []).append(imp)
    if diags.has_errors:
        return ImportValidation(diags, graph_errors=True)
    scope = module_scope(config, cwd)
    for node, blocks in by_node.items():
        cfg = config.descendant(node.module.names)
        res = cfg.module.managed_resources.get(node.name)
        found = _config_gen_problems(node, blocks) if res is None else Diagnostics()
        diags.extend(_check_blocks(scope, node, res, blocks, found))
    return ImportValidation(diags)


def _config_gen_problems(node: Node, blocks: list[Import]) -> Diagnostics:
    diags = Diagnostics()
    for imp in blocks:
        assert imp.to is not None
        if node.module.names:
            diags.append(error("Configuration for import target does not exist",
                               NOT_ROOT_DETAIL.format(addr=_config_resource_text(node)),
                               imp.to.range))
            continue
        addr = _static_to(imp)
        if addr is None:
            continue  # an expression terraform cannot parse statically: reported elsewhere
        if addr.key is not NO_KEY or imp.for_each is not None:
            diags.append(error("Configuration for import target does not exist",
                               NOT_GENERATABLE_DETAIL, imp.to.range))
    return diags


def _self_references(node: Node, imp: Import) -> Diagnostics:
    diags = Diagnostics()
    if imp.id is None or node.module.names:
        return diags
    for trav in expr_traversals(imp.id):
        ref, _ = parse_ref(trav)
        if ref is not None and ref.kind == MANAGED and f"{ref.type}.{ref.name}" == node.name:
            diags.append(error("Invalid import id argument",
                               "The import ID cannot reference the resource being imported.",
                               ref.range))
    return diags


def _check_blocks(scope: Any, node: Node, res: Any, blocks: list[Import],
                  diags: Diagnostics) -> Diagnostics:
    """`diags` (the node's problems so far: any error ends the checks, as in terraform)
    with the problems of each block."""
    for imp in blocks:
        diags.extend(_self_references(node, imp))
        if diags.has_errors:
            return diags
        if imp.for_each is None and res is not None:
            continue  # engine.configs.import_checks
        eaches, more = _each_data(scope, imp)
        diags.extend(more)
        if diags.has_errors:
            return diags
        for each in eaches:
            assert imp.to is not None
            text = address_text(imp.to, each, scope.evaluate, diags)
            if diags.has_errors or text is None:
                return diags
            try:
                addr = parse_abs_resource_instance(text.removeprefix("resource."))
            except AddressSyntaxError as exc:
                diags.append(error("Invalid import 'to' expression", str(exc), imp.to.range))
                return diags
            diags.extend(instance_key_problems(res, addr.key, imp.to))
            if diags.has_errors:
                return diags
            diags.extend(_id_problems(scope, imp, each))
            if diags.has_errors:
                return diags
    return diags


def _each_data(scope: Any, imp: Import) -> tuple[list[dict[str, Value]], Diagnostics]:
    """One `each` binding per element of the block's `for_each` (terraform's ImportValues
    with unknowns allowed); [{}] without one, none while it is not known."""
    if imp.for_each is None:
        return [{}], Diagnostics()
    val, diags = scope.evaluate(imp.for_each)
    if diags.has_errors:
        return [], diags
    plain, marks = val.unmark()
    if not plain.is_wholly_known():
        return [], diags
    if plain.is_null:
        return [], diags
    t = plain.type

    def each(key: Value, value: Value) -> dict[str, Value]:
        return {"each": object_({"key": key, "value": value.mark(*marks)})}

    if isinstance(t, (ListType, TupleType)):
        return [each(number(i), e) for i, e in enumerate(plain.v)], diags
    if isinstance(t, SetType):
        return [each(e, e) for e in plain.v], diags
    if isinstance(t, (MapType, ObjectType)):
        return [each(string(k), e) for k, e in plain.v.items()], diags
    diags.append(error("Invalid for_each argument",
                       'The "for_each" expression must be a collection.', imp.for_each.range))
    return [], diags


def _id_problems(scope: Any, imp: Import, each: dict[str, Value]) -> Diagnostics:
    """terraform's evaluateImportIdExpression with unknowns allowed."""
    subject = imp.id.range if imp.id is not None else imp.decl_range
    if imp.id is None:
        return Diagnostics([error("Invalid import id argument", "The import ID cannot be null.",
                                  subject)])
    val, diags = scope.evaluate(imp.id, each)
    if diags.has_errors:
        return diags
    plain, _ = val.unmark_deep()
    if plain.is_null:
        diags.append(error("Invalid import id argument", "The import ID cannot be null.", subject))
        return diags
    try:
        convert(plain, STRING)
    except ConversionError:
        diags.append(error("Invalid import id argument",
                           "The import ID value is unsuitable: not a string.", subject))
    return diags
