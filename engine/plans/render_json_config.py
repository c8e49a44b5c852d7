"""The `configuration` object of the JSON plan (terraform's jsonconfig).

`config_to_json(config, schemas)` describes the loaded module tree (engine.configs.loader
Config): `provider_config` (see render_json_providers), and per module `outputs`, `resources`
(managed ones sorted by address, then data ones), `module_calls` and `variables`. Every expression is written as terraform does: `constant_value` when it
evaluates with no variables and no functions, and `references` listing each reference from its
longest form down to the referenced object (`terraform_data.a.id`, `terraform_data.a`).
"""

from __future__ import annotations

from typing import Any

from engine.addrs import parse_provider_source
from engine.configs.exprs import static_value, variables
from engine.configs.refs import (
    DATA,
    EPHEMERAL,
    MANAGED,
    MODULE_CALL,
    MODULE_OUTPUT,
    parse_ref,
)
from engine.diags import Diagnostics
from engine.hcl import ast
from engine.hcl.ast import Traversal, traversal_str
from engine.plans.diff_schemas import Schemas, resource_schema
from engine.plans.render_json_providers import ProviderConfigs
from engine.plans.render_json_values import marshal
from engine.plugin.schema import Block, Nesting

Expression = dict[str, Any]


def _key_str(key: Any) -> str:
    raw = getattr(key, "v", key)
    if isinstance(raw, str):
        return '["' + raw + '"]'
    return f"[{raw}]"


def _subject(ref: Any) -> tuple[str, list[str]]:
    """The referenced object's address and any extra shorter forms terraform adds."""
    kind = ref.kind
    extra: list[str] = []
    if kind in (MANAGED, DATA, EPHEMERAL):
        prefix = {MANAGED: "", DATA: "data.", EPHEMERAL: "ephemeral."}[kind]
        base = f"{prefix}{ref.type}.{ref.name}"
        if ref.has_key:
            return base + _key_str(ref.key), [base]
        return base, extra
    if kind == MODULE_CALL:
        base = f"module.{ref.name}"
        if ref.has_key:
            return base + _key_str(ref.key), [base]
        return base, extra
    if kind == MODULE_OUTPUT:
        inst = f"module.{ref.name}" + (_key_str(ref.key) if ref.has_key else "")
        return f"{inst}.{ref.output}", [inst]
    if kind == "self":
        return "self", extra
    return f"{kind}.{ref.name}", extra


def _references(traversals: list[Traversal]) -> list[str]:
    out: list[str] = []
    for t in traversals:
        ref, diags = parse_ref(t)
        if ref is None or diags.has_errors:
            continue
        subject, extra = _subject(ref)
        remains = list(ref.remaining)
        while remains:
            out.append(subject + traversal_str(tuple(remains)))
            remains.pop()
        out.append(subject)
        out.extend(extra)
    return out


def expression_json(expr: ast.Expr | None) -> Expression:
    """One expression as `{"constant_value": ...}` and/or `{"references": [...]}`."""
    out: Expression = {}
    if expr is None:
        return out
    val, diags = static_value(expr)
    if val is not None and not diags.has_errors and val.is_wholly_known():
        out["constant_value"] = marshal(val)
    refs = _references(variables(expr))
    if refs:
        out["references"] = refs
    return out


def body_expressions(body: ast.Body, block: Block | None) -> dict[str, Any]:
    """A block body's expressions by schema: attributes, then nested blocks as lists."""
    out: dict[str, Any] = {}
    if block is None:
        for name, attr in body.attributes.items():
            out[name] = expression_json(attr.expr)
        return out
    for name in block.attributes:
        found_attr = body.attributes.get(name)
        if found_attr is not None:
            out[name] = expression_json(found_attr.expr)
    for name, nb in block.block_types.items():
        found = [b for b in body.blocks if b.type == name]
        if not found:
            continue
        inner = [body_expressions(b.body, nb.block) for b in found]
        if nb.nesting in (Nesting.SINGLE, Nesting.GROUP):
            out[name] = inner[0]
        else:
            out[name] = inner
    return out


def _full_name(module: Any, local: str) -> str:
    return str(module.provider_for_local_name(local))


def _depends_on(travs: list[Traversal]) -> list[str]:
    """depends_on entries as terraform writes them: each reference's subject."""
    out: list[str] = []
    for t in travs:
        ref, diags = parse_ref(t)
        if ref is None or diags.has_errors:
            out.append(traversal_str(t))
            continue
        out.append(_subject(ref)[0])
    return out


def _resource_json(node: Any, r: Any, schemas: Schemas,
                   providers: ProviderConfigs) -> dict[str, Any]:
    mod = node.module
    local = r.provider.name if r.provider is not None else r.implied_provider
    alias = r.provider.alias if r.provider is not None else ""
    full = _full_name(mod, local)
    try:
        provider = parse_provider_source(full)
        schema = resource_schema(schemas, provider, r.mode, r.type)
    except ValueError:
        schema = None
    res: dict[str, Any] = {
        "address": r.key,
        "mode": r.mode,
        "type": r.type,
        "name": r.name,
        "provider_config_key": providers.resource_key(
            f"{local}.{alias}" if alias else local, node.path_str),
    }
    exprs = body_expressions(r.config, schema.block if schema else None)
    if exprs:
        res["expressions"] = exprs
    res["schema_version"] = schema.version if schema else 0
    count = expression_json(r.count)
    if count:
        res["count_expression"] = count
    else:
        for_each = expression_json(r.for_each)
        if for_each:
            res["for_each_expression"] = for_each
    if r.depends_on:
        res["depends_on"] = _depends_on(r.depends_on)
    return res


def _resources(node: Any, schemas: Schemas, providers: ProviderConfigs) -> list[dict[str, Any]]:
    """Managed resources sorted by address, then data resources sorted by address."""
    mod = node.module
    out: list[dict[str, Any]] = []
    for group in (mod.managed_resources, mod.data_resources):
        out.extend(sorted((_resource_json(node, r, schemas, providers) for r in group.values()),
                          key=lambda r: r["address"]))
    return out


def _module_json(node: Any, schemas: Schemas, providers: ProviderConfigs) -> dict[str, Any]:
    mod = node.module
    out: dict[str, Any] = {}
    outputs: dict[str, Any] = {}
    for name in sorted(mod.outputs):
        o = mod.outputs[name]
        entry: dict[str, Any] = {}
        if o.sensitive:
            entry["sensitive"] = True
        entry["expression"] = expression_json(o.expr)
        if o.description:
            entry["description"] = o.description
        if o.depends_on:
            entry["depends_on"] = _depends_on(o.depends_on)
        outputs[name] = entry
    if outputs:
        out["outputs"] = outputs
    resources = _resources(node, schemas, providers)
    if resources:
        out["resources"] = resources
    calls: dict[str, Any] = {}
    for name in sorted(mod.module_calls):
        mc = mod.module_calls[name]
        call: dict[str, Any] = {"source": mc.source}
        child = node.children.get(name)
        exprs = {a: expression_json(attr.expr) for a, attr in mc.config.attributes.items()}
        if exprs:
            call["expressions"] = exprs
        count = expression_json(mc.count)
        if count:
            call["count_expression"] = count
        else:
            for_each = expression_json(mc.for_each)
            if for_each:
                call["for_each_expression"] = for_each
        if child is not None:
            call["module"] = _module_json(child, schemas, providers)
        if mc.version is not None:
            call["version_constraint"] = str(mc.version)
        if mc.depends_on:
            call["depends_on"] = _depends_on(mc.depends_on)
        calls[name] = call
    if calls:
        out["module_calls"] = calls
    variables_json: dict[str, Any] = {}
    for name in sorted(mod.variables):
        v = mod.variables[name]
        entry = {}
        if v.default is not None:
            entry["default"] = marshal(v.default)
        if v.description:
            entry["description"] = v.description
        if v.sensitive:
            entry["sensitive"] = True
        variables_json[name] = entry
    if variables_json:
        out["variables"] = variables_json
    return out


def _provider_block(schemas: Schemas, full_name: str) -> Block | None:
    """The provider's configuration schema, so its nested blocks (aws `endpoints`) render as
    terraform renders them; None (attributes only) when the schema is not at hand."""
    try:
        ps = schemas.get(parse_provider_source(full_name))
    except ValueError:
        return None
    schema = getattr(ps, "provider", None)
    return getattr(schema, "block", None)


def config_to_json(config: Any, schemas: Schemas) -> dict[str, Any]:
    """The `configuration` object for a loaded configuration tree."""
    providers = ProviderConfigs()
    providers.collect(config, lambda body, full_name: body_expressions(
        body, _provider_block(schemas, full_name)))
    root = _module_json(config, schemas, providers)
    out: dict[str, Any] = {}
    provider_config = providers.provider_config()
    if provider_config:
        out["provider_config"] = provider_config
    out["root_module"] = root
    return out


__all__ = ["Diagnostics", "body_expressions", "config_to_json", "expression_json"]
