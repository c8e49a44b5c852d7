"""The `terraform_data` managed resource of the built-in `terraform` provider.

Behaviour as Terraform's (internal/builtin/providers/terraform/resource_data.go):
- `input` (optional, any type) is copied to `output` (computed) at apply; `output` is unknown
  in a plan whenever the instance is created, replaced, or `input` changed (and null, not
  unknown, when `input` is null).
- a change of `triggers_replace` (compared type- and value-exactly) requires replacement.
- `id` is computed, planned as an unknown known not to be null (terraform's RefineNotNull):
  a random UUID-shaped string (16 random bytes in 8-4-4-4-12 hex, no
  version bits, as go-uuid) generated at apply.
- import takes only the id; the other attributes start null.
- moving from `null_resource` (hashicorp/null) keeps its id and turns `triggers` into
  `triggers_replace`.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable

from engine.diags import Diagnostics, error
from engine.plugin.builtin.jsonstate import decode_json
from engine.plugin.paths import AttributePath
from engine.plugin.protocol import (
    ApplyResourceChangeRequest,
    ApplyResourceChangeResponse,
    ImportedResource,
    ImportResourceStateRequest,
    ImportResourceStateResponse,
    MoveResourceStateRequest,
    MoveResourceStateResponse,
    PlanResourceChangeRequest,
    PlanResourceChangeResponse,
    ReadResourceRequest,
    ReadResourceResponse,
    UpgradeResourceStateRequest,
    UpgradeResourceStateResponse,
    ValidateResourceConfigRequest,
    ValidateResourceConfigResponse,
)
from engine.plugin.schema import Attribute, Block, Schema
from engine.values import DYNAMIC, STRING, MapType, ObjectType, Value, object_, string, unknown
from engine.values.refinement import refine_not_null

TYPE_NAME = "terraform_data"

SCHEMA = Schema(
    Block(
        attributes={
            "input": Attribute(type=DYNAMIC, optional=True),
            "output": Attribute(type=DYNAMIC, computed=True),
            "triggers_replace": Attribute(type=DYNAMIC, optional=True),
            "id": Attribute(type=STRING, computed=True),
        }
    )
)

_NULL_RESOURCE_BLOCK = Block(
    attributes={
        "id": Attribute(type=STRING, computed=True),
        "triggers": Attribute(type=MapType(STRING), optional=True),
    }
)

_UNKNOWN_ID = refine_not_null(unknown(STRING))


def generate_id() -> str:
    """A go-uuid GenerateUUID string: 16 random bytes as 8-4-4-4-12 lowercase hex."""
    h = secrets.token_bytes(16).hex()
    return f"{h[0:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:32]}"


def validate(req: ValidateResourceConfigRequest) -> ValidateResourceConfigResponse:
    """`id` and `output` are read-only: setting either in configuration is an error."""
    resp = ValidateResourceConfigResponse()
    cfg = req.config
    if cfg.is_null or not isinstance(cfg.v, dict):
        return resp
    for attr in ("id", "output"):
        v = cfg.v.get(attr)
        if v is not None and not v.is_null:
            resp.diagnostics.append(error(f'"{attr}" attribute is read-only'))
    return resp


def upgrade(req: UpgradeResourceStateRequest) -> UpgradeResourceStateResponse:
    """Decode the stored attributes JSON with the (only) schema version's type."""
    resp = UpgradeResourceStateResponse()
    if req.raw_state_json is None:
        resp.diagnostics.append(
            error("Unsupported state format", "terraform_data has no legacy flatmap state.")
        )
        return resp
    value, diags = decode_json(req.raw_state_json, SCHEMA.block.implied_type())
    resp.diagnostics.extend(diags)
    if value is not None:
        resp.upgraded_state = value
    return resp


def read(req: ReadResourceRequest) -> ReadResourceResponse:
    """Nothing exists outside the state: the prior state is the current state."""
    return ReadResourceResponse(new_state=req.prior_state, private=req.private)


def plan(req: PlanResourceChangeRequest) -> PlanResourceChangeResponse:
    """Plan create, update, replace or destroy as Terraform's provider does."""
    resp = PlanResourceChangeResponse()
    proposed = req.proposed_new_state
    if proposed.is_null:
        resp.planned_state = proposed
        return resp
    planned: dict[str, Value] = dict(proposed.v)
    inp = planned["input"]
    trigger = planned["triggers_replace"]
    prior = req.prior_state
    if prior.is_null:
        planned["id"] = _UNKNOWN_ID
        planned["output"] = inp if inp.is_null else unknown(inp.type)
    elif prior.v["triggers_replace"] != trigger:
        resp.requires_replace.append(AttributePath.of("triggers_replace"))
        planned["id"] = _UNKNOWN_ID
        planned["output"] = inp if inp.is_null else unknown(inp.type)
    elif prior.v["input"] != inp:
        planned["output"] = unknown(inp.type)
    resp.planned_state = object_(planned)
    return resp


def apply(
    req: ApplyResourceChangeRequest, new_id: Callable[[], str] = generate_id
) -> ApplyResourceChangeResponse:
    """Make the planned state real: unknown output becomes input, unknown id a fresh id."""
    resp = ApplyResourceChangeResponse()
    planned = req.planned_state
    if planned.is_null:
        resp.new_state = planned
        return resp
    state: dict[str, Value] = dict(planned.v)
    if not state["output"].is_known:
        state["output"] = state["input"]
    if not state["id"].is_known:
        state["id"] = string(new_id())
    resp.new_state = object_(state)
    return resp


def import_state(req: ImportResourceStateRequest) -> ImportResourceStateResponse:
    """An object with only `id` set."""
    state = SCHEMA.block.with_attributes({"id": string(req.id)})
    return ImportResourceStateResponse(imported_resources=[ImportedResource(req.type_name, state)])


def move(req: MoveResourceStateRequest) -> MoveResourceStateResponse:
    """Adopt a `null_resource` of hashicorp/null (any registry host)."""
    resp = MoveResourceStateResponse()
    diags = Diagnostics()
    if not req.source_provider_address.endswith("hashicorp/null"):
        diags.append(
            error(
                "Unsupported source provider for move operation",
                "Only moving from the official hashicorp/null provider to terraform_data "
                "is supported.",
            )
        )
    elif req.source_type_name != "null_resource":
        diags.append(
            error(
                "Unsupported source resource type for move operation",
                "Only moving from the null_resource managed resource to terraform_data is "
                "supported.",
            )
        )
    if diags:
        resp.diagnostics = diags
        return resp
    source, ddiags = decode_json(req.source_state_json, _NULL_RESOURCE_BLOCK.implied_type())
    resp.diagnostics.extend(ddiags)
    if source is None:
        return resp
    triggers = source.v["triggers"]
    if triggers.is_null:
        triggers_replace = Value(DYNAMIC, None)
    elif not triggers.is_known:
        triggers_replace = triggers
    else:
        # an object, as `{...}` in configuration gives, so the next plan shows no change
        items = dict(triggers.v)
        triggers_replace = Value(ObjectType({k: e.type for k, e in items.items()}), items)
    resp.target_state = SCHEMA.block.with_attributes(
        {"id": source.v["id"], "triggers_replace": triggers_replace}
    )
    return resp
