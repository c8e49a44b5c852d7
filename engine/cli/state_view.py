"""The human view of a state with resources (`show`, `state show ADDR`), as terraform's.

Each resource instance object is rendered from the JSON state representation
(engine.plans.render_json_state) with its provider's schema, by the plan renderer's value
diffing with before == after and every child shown, then un-indented by the action-symbol
column terraform hides for state:

    # terraform_data.a:
    resource "terraform_data" "a" {
        id     = "..."
        input  = "hello"
    }

A tainted object's header ends in ` (tainted)`, a deposed one's in
` (deposed object KEY)`; sensitive values show as `(sensitive value)`.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from engine.addrs import AddressSyntaxError, parse_abs_provider_config
from engine.addrs import Provider as ProviderAddr
from engine.cli.show_view import render_state_outputs
from engine.diags import Diagnostics
from engine.plans.diff import diff_block
from engine.plans.diff_change import Change
from engine.plans.diff_schemas import resource_schema
from engine.plans.render_human_values import Opts, render
from engine.plans.render_json_state import state_to_json
from engine.plugin.registry import ProviderRegistry
from engine.plugin.schema import Block
from engine.states.state import State, StateFile
from engine.values.json import dumps, loads

Schemas = dict[ProviderAddr, Any]


def state_providers(state: State) -> list[ProviderAddr]:
    """The providers the state's resources were made with, in first-seen order."""
    out: list[ProviderAddr] = []
    for rs in state.resources:
        try:
            p = parse_abs_provider_config(rs.provider).provider
        except AddressSyntaxError:
            continue
        if p not in out:
            out.append(p)
    return out


def load_schemas(
    registry: ProviderRegistry, providers: list[ProviderAddr]
) -> tuple[Schemas, Diagnostics]:
    """Each provider's schemas from `registry` (diagnostics for those it cannot give)."""
    diags = Diagnostics()
    out: Schemas = {}
    for p in providers:
        resp, more = registry.schema(p)
        diags.extend(more)
        if resp is not None:
            out[p] = resp
    return out, diags


def _modules(mod: dict[str, Any]) -> Iterator[dict[str, Any]]:
    yield mod
    for child in mod.get("child_modules", []) or []:
        yield from _modules(child)


def json_resources(sf: StateFile, schemas: Schemas) -> list[dict[str, Any]]:
    """Every resource instance object of the JSON state representation, in its order."""
    doc = loads(dumps(state_to_json(sf, schemas)))
    root = doc.get("values", {}).get("root_module")
    if not root:
        return []
    return [r for m in _modules(root) for r in m.get("resources", []) or []]


def _block(schemas: Schemas, r: dict[str, Any]) -> Block:
    try:
        provider = parse_abs_provider_config(f'provider["{r["provider_name"]}"]').provider
    except (AddressSyntaxError, KeyError):
        return Block()
    schema = resource_schema(schemas, provider, r.get("mode", "managed"), r["type"])
    return schema.block if schema is not None else Block()


def render_instance(r: dict[str, Any], schemas: Schemas) -> str:
    """One resource instance object (a JSON state resource) as `show` prints it."""
    values = r.get("values", {})
    sensitive = r.get("sensitive_values", {})
    change = Change(before=values, after=values, unknown=False, before_sensitive=sensitive,
                    after_sensitive=sensitive, replace_paths=(), relevant=None,
                    before_explicit=True, after_explicit=True)
    body = render(diff_block(change, _block(schemas, r)), 0, Opts(show_unchanged_children=True))
    lines = body.split("\n")
    body = "\n".join([lines[0], *(ln[4:] if ln.startswith("    ") else ln for ln in lines[1:])])
    header = f"# {r['address']}:"
    if r.get("deposed_key"):
        header = f"# {r['address']}: (deposed object {r['deposed_key']})"
    elif r.get("tainted"):
        header = f"# {r['address']}: (tainted)"
    kind = "data" if r.get("mode") == "data" else "resource"
    return f'{header}\n{kind} "{r["type"]}" "{r["name"]}" {body}\n'


def render_state(sf: StateFile, schemas: Schemas) -> str:
    """The whole state: every resource instance, then the "Outputs:" section."""
    doc = loads(dumps(state_to_json(sf, schemas)))
    root = doc.get("values", {}).get("root_module")
    parts: list[str] = []
    for m in _modules(root) if root else []:
        resources = m.get("resources", []) or []
        if resources and parts:
            parts.append("\n")  # as terraform's renderHumanStateModule: a module starts apart
        parts.extend(render_instance(r, schemas) + "\n" for r in resources)
    text = "".join(parts)
    if sf.state.outputs:
        text += render_state_outputs(sf.state.outputs)[1:]
    return text
