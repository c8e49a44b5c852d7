"""Validating resources against their provider schemas (terraform's validate walk).

- `static_validate_traversal(block, steps)`: terraform's configschema StaticValidateTraversal:
  the attribute/index steps after a resource reference (`terraform_data.a.nonexistent`)
  checked against the resource type's schema: "Unsupported attribute" (with a "Did you mean"
  suggestion), "Invalid index operation" on a block, the nested block rules (sets cannot be
  indexed, lists need a numeric index), and, past an attribute, HCL's own traversal errors on
  an unknown value of the attribute's type.
- `resource_ref_check(registry)`: for `engine.configs.refcheck.check_references`: a function
  (module config, resource, steps after a reference to it) -> `static_validate_traversal` of
  the steps against the resource type's schema (nothing when the provider's schema is not
  available: the plan reports that).
- `validate_resources(config, registry, cwd, skip)`: each resource block of every module decoded against
  its schema (Unsupported argument, Missing required argument, Unsupported block type, block
  counts, wrong types of arguments that need nothing else to be evaluated) and, when that
  succeeds, the provider's ValidateResourceConfig / ValidateDataResourceConfig on the decoded
  object, its arguments evaluated as the validate walk does (engine.plans.validate_eval); resource
  types the provider does not have are "Invalid resource type" — what `validate` reports for resources;
  the provider's diagnostics point at the argument they name (engine.core.diag_paths).
  A managed resource's `ignore_changes` paths are checked against its schema
  (`ignore_changes_diagnostics`) before the provider's validation, as in terraform.
  Each module's provider blocks are validated first (engine.plans.validate_providers); the
  resources of a provider configuration with errors are not validated, as in terraform.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from engine.addrs import AbsProviderConfig
from engine.core.body import decode_body
from engine.core.diag_paths import in_config_body
from engine.diags import Diagnostics, error, warning
from engine.gocompat.strconv import quote as go_quote
from engine.graph.steps import provider_addr_for
from engine.hcl.ast import Traversal, TraverseAttr, TraverseIndex, TraverseRoot
from engine.lang.eval_traversal import traverse_rel
from engine.plans.validate_eval import argument_evaluator, module_scope
from engine.plans.validate_providers import validate_provider_blocks
from engine.plugin.paths import AttributePath, AttrStep
from engine.plugin.protocol import ValidateDataResourceConfigRequest, ValidateResourceConfigRequest
from engine.plugin.registry import ProviderRegistry
from engine.plugin.schema import Attribute, Block, NestedBlock, Nesting, Schema
from engine.values import Value
from engine.values.value import UNKNOWN


def _suggest(given: str, names: list[str]) -> str:
    from engine.gocompat.levenshtein import name_suggestion

    s = name_suggestion(given, sorted(names))
    return f" Did you mean {go_quote(s)}?" if s else ""


def static_validate_traversal(block: Block, steps: Traversal) -> Diagnostics:
    """See the module docstring; `steps` are relative (attribute and index steps)."""
    diags = Diagnostics()
    if not steps:
        return diags
    step, after = steps[0], steps[1:]
    if isinstance(step, TraverseIndex):
        key = step.key
        plain = key.unmark()[0] if isinstance(key, Value) else None
        name = plain.v if plain is not None and isinstance(plain.v, str) else None
        if name is not None and name.isidentifier():
            detail = ("Only attribute access is allowed here. Did you mean to access attribute "
                      f"{go_quote(name)} using the dot operator?")
        else:
            detail = "Only attribute access is allowed here, using the dot operator."
        diags.append(error("Invalid index operation", detail, step.range))
        return diags
    if not isinstance(step, TraverseAttr):
        diags.append(error("Invalid operation",
                           "Only attribute access is allowed here, using the dot operator.",
                           getattr(step, "range", None)))
        return diags
    name = step.name
    attr = block.attributes.get(name)
    if attr is not None:
        if attr.deprecated:
            diags.append(warning(
                "Deprecated attribute",
                f"The attribute {go_quote(name)} is deprecated. Refer to the provider "
                "documentation for details.", step.range))
        _val, diag = traverse_rel(Value(attr.implied_type(), UNKNOWN), after)
        if diag is not None:
            diags.append(diag)
        return diags
    nested = block.block_types.get(name)
    if nested is not None:
        diags.extend(_nested_traversal(name, nested, after))
        return diags
    names = [*block.attributes, *block.block_types]
    diags.append(error(
        "Unsupported attribute",
        f"This object has no argument, nested block, or exported attribute named "
        f"{go_quote(name)}.{_suggest(name, names)}", step.range))
    return diags


def ignore_changes_diagnostics(res: Any, block: Block) -> Diagnostics:
    """terraform's checks of a managed resource's `ignore_changes` paths: each is statically
    validated against the schema ("Unsupported attribute", ...), and, while no error has been
    found, a path naming a computed attribute that is not optional gets the "Redundant
    ignore_changes element" warning on the resource's type label."""
    diags = Diagnostics()
    for trav in res.lifecycle.ignore_changes:
        steps: Traversal = tuple(TraverseAttr(s.name, s.range) if isinstance(s, TraverseRoot)
                                 else s for s in trav)
        diags.extend(static_validate_traversal(block, steps))
        if diags.has_errors:
            continue
        path = _traversal_path(steps)
        attr = _attribute_by_path(block, path)
        if attr is not None and attr.computed and not attr.optional:
            diags.append(warning(
                "Redundant ignore_changes element",
                "Adding an attribute name to ignore_changes tells groundplan to ignore future "
                "changes to the argument in configuration after the object has been created, "
                "retaining the value originally configured.\n\nThe attribute "
                f"{path} is decided by the provider alone and therefore there can be no "
                "configured value to compare with. Including this attribute in ignore_changes "
                "has no effect. Remove the attribute from ignore_changes to quiet this warning.",
                res.type_range))
    return diags


def ignore_changes_problems(config: Any, registry: ProviderRegistry) -> Diagnostics:
    """`ignore_changes_diagnostics` of every managed resource with `ignore_changes` paths in
    every module whose provider schema is available (the plan's part of the validate walk:
    a provider that cannot give its schema is reported by the plan itself)."""
    diags = Diagnostics()
    for node in config.walk():
        for res in node.module.all_resources():
            if res.mode != "managed" or not res.lifecycle.ignore_changes:
                continue
            schema = _schema(registry, node, res)
            if schema is not None:
                diags.extend(ignore_changes_diagnostics(res, schema.block))
    return diags


def _traversal_path(steps: Traversal) -> AttributePath:
    path = AttributePath.root()
    for step in steps:
        if isinstance(step, TraverseAttr):
            path = path.attr(step.name)
        elif isinstance(step, TraverseIndex) and isinstance(step.key, Value):
            path = path.index(step.key)
    return path


def _attribute_by_path(block: Block, path: AttributePath) -> Attribute | None:
    """configschema's Block.AttributeByPath: index steps are passed over, a path that goes on
    past an attribute without nested attributes names nothing."""
    attrs: Mapping[str, Attribute] = block.attributes
    cur: Block | None = block
    steps = path.steps
    for i, step in enumerate(steps):
        if not isinstance(step, AttrStep):
            continue
        attr = attrs.get(step.name)
        if attr is not None:
            if i == len(steps) - 1:
                return attr
            if attr.nested_type is None:
                return None
            return _attribute_by_path(
                Block(attributes=attr.nested_type.attributes), AttributePath(steps[i + 1:]))
        nested = cur.block_types.get(step.name) if cur is not None else None
        if nested is None:
            return None
        cur, attrs = nested.block, nested.block.attributes
    return None


def _nested_traversal(type_name: str, nb: NestedBlock, steps: Traversal) -> Diagnostics:
    if nb.nesting in (Nesting.SINGLE, Nesting.GROUP):
        return static_validate_traversal(nb.block, steps)
    diags = Diagnostics()
    if not steps:
        return diags
    step, after = steps[0], steps[1:]
    rng = getattr(step, "range", None)
    if nb.nesting is Nesting.SET:
        diags.append(error(
            "Cannot index a set value",
            f"Block type {go_quote(type_name)} is represented by a set of objects, and set "
            "elements do not have addressable keys. To find elements matching specific "
            'criteria, use a "for" expression with an "if" clause.', rng))
    elif nb.nesting is Nesting.LIST:
        if isinstance(step, TraverseIndex):
            diags.extend(static_validate_traversal(nb.block, after))
        else:
            diags.append(error(
                "Invalid operation",
                f"Block type {go_quote(type_name)} is represented by a list of objects, so it "
                f"must be indexed using a numeric key, like .{type_name}[0].", rng))
    elif nb.nesting is Nesting.MAP:
        diags.extend(static_validate_traversal(nb.block, after))
    return diags


def _schema(registry: ProviderRegistry, node: Any, res: Any) -> Schema | None:
    paddr = provider_addr_for(node, res)
    resp, _diags = registry.schema(paddr.provider)
    if resp is None:
        return None
    table = resp.data_sources if res.mode == "data" else resp.resource_types
    return table.get(res.type)


def _schema_or_error(registry: ProviderRegistry, node: Any, res: Any, unavailable: set[Any]
                     ) -> tuple[Schema | None, Diagnostics]:
    """The schema of `res`'s type, or terraform's validate errors: the provider's own
    (it failed to start or to give its schemas: reported once, in `unavailable` after), or
    "Invalid resource type" / "Invalid data source" at the type label, with terraform's
    suggestions."""
    provider = provider_addr_for(node, res).provider
    diags = Diagnostics()
    if provider in unavailable:
        return None, diags
    resp, more = registry.schema(provider)
    if resp is None:
        unavailable.add(provider)
        diags.extend(more)
        return None, diags
    data = res.mode == "data"
    table, other = ((resp.data_sources, resp.resource_types) if data
                    else (resp.resource_types, resp.data_sources))
    schema = table.get(res.type)
    if schema is not None:
        return schema, diags
    shown = provider.for_display()
    if data:
        summary, what = "Invalid data source", "data source"
        hint = (f"\n\nDid you intend to use the managed resource type {go_quote(res.type)}? "
                'If so, declare this using a "resource" block instead of a "data" block.')
    else:
        summary, what = "Invalid resource type", "resource type"
        hint = (f"\n\nDid you intend to use the data source {go_quote(res.type)}? If so, "
                'declare this using a "data" block instead of a "resource" block.')
    if res.type not in other:
        hint = _suggest(res.type, list(table)) if table else ""
    diags.append(error(summary, f"The provider {shown} does not support {what} "
                                f"{go_quote(res.type)}.{hint}", res.type_range))
    return None, diags


def resource_ref_check(registry: ProviderRegistry) -> Callable[[Any, Any, Traversal], Diagnostics]:
    """See the module docstring."""

    def check(node: Any, res: Any, steps: Traversal) -> Diagnostics:
        schema = _schema(registry, node, res)
        return static_validate_traversal(schema.block, steps) if schema else Diagnostics()

    return check


def _config_address(path: tuple[str, ...], res: Any) -> str:
    """The resource block's address in its static module path (`module.m.data.x.y`), as
    terraform's validate walk tags provider diagnostics with it."""
    prefix = "".join(f"module.{name}." for name in path)
    mode = "data." if res.mode == "data" else ""
    return f"{prefix}{mode}{res.type}.{res.name}"


def validate_resources(config: Any, registry: ProviderRegistry, cwd: str = ".",
                       skip: frozenset[tuple[str, ...]] = frozenset()) -> Diagnostics:
    """See the module docstring; arguments are evaluated as the validate walk does
    (engine.plans.validate_eval), modules at the paths in `skip` (and below) are not
    validated (their call's count or for_each failed). Provider instances started here
    are closed before it returns."""
    diags = Diagnostics()
    instances: dict[Any, Any] = {}
    failed: set[AbsProviderConfig] = set()
    unavailable: set[Any] = set()
    try:
        for node in config.walk():
            if any(node.path[: len(p)] == p for p in skip):
                continue
            scope = module_scope(node, cwd)
            diags.extend(validate_provider_blocks(node, registry, instances,
                                                  argument_evaluator(scope, None), failed))
            for res in node.module.all_resources():
                if res.mode not in ("managed", "data"):
                    continue
                if provider_addr_for(node, res) in failed:
                    continue
                schema, more = _schema_or_error(registry, node, res, unavailable)
                diags.extend(more)
                if schema is None:
                    continue
                value, more = decode_body(res.config, schema.block,
                                          argument_evaluator(scope, res),
                                          subject=res.decl_range)
                diags.extend(more)
                if more.has_errors:
                    continue
                if res.mode == "managed":
                    diags.extend(ignore_changes_diagnostics(res, schema.block))
                provider = provider_addr_for(node, res).provider
                if provider not in instances:
                    instances[provider] = registry.new_instance(provider)[0]
                inst = instances[provider]
                if inst is None:
                    continue
                plain, _ = value.unmark_deep()
                if res.mode == "data":
                    resp = inst.validate_data_resource_config(
                        ValidateDataResourceConfigRequest(res.type, plain))
                else:
                    resp = inst.validate_resource_config(
                        ValidateResourceConfigRequest(res.type, plain))
                diags.extend(in_config_body(resp.diagnostics, res.config,
                                            _config_address(node.path, res),
                                            not provider.is_builtin))
    finally:
        for inst in instances.values():
            if inst is not None:
                inst.close()
    return diags
