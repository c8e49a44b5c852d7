"""A test provider (`hashicorp/test`) and helpers to plan and apply small configurations.

`test_thing`: `value` (optional string), `replace` (optional string, changing it requires
replacement), `id` and `stamp` (computed). The provider records every call in `log` and fails on demand:
an apply whose planned `value` is in `fail_apply`, a read of an id in `gone` (the object
vanished), with `corrupt_apply` an apply result that differs from its plan, and with
`plan_override` a planned `value` other than the configuration's. `stamp` (computed) is
planned as the provider's current `stamp` setting.
`test_data` (data source): `input` → `result` (computed, "data:<input>"). The provider
configuration has `region`; every configuration is recorded in `configured`.
"""

from __future__ import annotations

import os
import threading
from typing import Any

from engine.addrs import Provider as ProviderAddr
from engine.apply.applier import ApplyOptions, ApplyResult, apply_plan
from engine.configs.loader import load_config
from engine.diags import Diagnostics, error
from engine.plans.planner import PlanOptions, PlanResult, make_plan
from engine.plugin import protocol as p
from engine.plugin.paths import AttributePath
from engine.plugin.registry import ProviderRegistry
from engine.plugin.schema import Attribute, Block, Schema
from engine.states import LocalState
from engine.states.manager import StateManager
from engine.states.state import StateFile
from engine.values import STRING, Value, object_, string, unknown
from tests.modules_init import init_modules

TEST_PROVIDER = ProviderAddr("registry.terraform.io", "hashicorp", "test")

THING = Schema(Block(attributes={
    "id": Attribute(type=STRING, computed=True),
    "value": Attribute(type=STRING, optional=True),
    "replace": Attribute(type=STRING, optional=True),
    "stamp": Attribute(type=STRING, computed=True),
}))
PROVIDER_SCHEMA = Schema(Block(attributes={"region": Attribute(type=STRING, optional=True)}))
DATA = Schema(Block(attributes={
    "input": Attribute(type=STRING, required=True),
    "result": Attribute(type=STRING, computed=True),
}))


class TestProvider:
    """See the module docstring."""

    def __init__(self) -> None:
        self.log: list[tuple[str, str]] = []
        self.fail_apply: set[str] = set()
        self.gone: set[str] = set()
        self.corrupt_apply = False
        self.plan_override: str | None = None
        self.configured: list[Value] = []
        self.stamp = "s1"
        self.counter = 0
        self._mu = threading.Lock()

    def _note(self, op: str, what: str) -> None:
        with self._mu:
            self.log.append((op, what))

    def get_provider_schema(self) -> p.GetProviderSchemaResponse:
        return p.GetProviderSchemaResponse(provider=PROVIDER_SCHEMA,
                                           resource_types={"test_thing": THING},
                                           data_sources={"test_data": DATA})

    def validate_provider_config(self, req: Any) -> p.ValidateProviderConfigResponse:
        return p.ValidateProviderConfigResponse(prepared_config=req.config)

    def validate_resource_config(self, req: Any) -> p.ValidateResourceConfigResponse:
        return p.ValidateResourceConfigResponse()

    def validate_data_resource_config(self, req: Any) -> p.ValidateDataResourceConfigResponse:
        return p.ValidateDataResourceConfigResponse()

    def upgrade_resource_state(self, req: p.UpgradeResourceStateRequest) -> Any:
        from engine.plugin.builtin.jsonstate import decode_json

        val, diags = decode_json(req.raw_state_json or b"{}", THING.block.implied_type())
        return p.UpgradeResourceStateResponse(upgraded_state=val, diagnostics=diags) if val \
            else p.UpgradeResourceStateResponse(diagnostics=diags)

    def configure_provider(self, req: Any) -> p.ConfigureProviderResponse:
        self.configured.append(req.config)
        return p.ConfigureProviderResponse()

    def read_resource(self, req: p.ReadResourceRequest) -> p.ReadResourceResponse:
        ident = req.prior_state.v["id"].v
        self._note("read", str(ident))
        if ident in self.gone:
            return p.ReadResourceResponse(new_state=Value(req.prior_state.type, None))
        return p.ReadResourceResponse(new_state=req.prior_state, private=req.private)

    def plan_resource_change(self, req: p.PlanResourceChangeRequest) -> Any:
        prop = req.proposed_new_state
        if prop.is_null:
            return p.PlanResourceChangeResponse(planned_state=prop)
        planned = dict(prop.v)
        if self.plan_override is not None:
            planned["value"] = string(self.plan_override)
        planned["stamp"] = string(self.stamp)
        resp = p.PlanResourceChangeResponse()
        prior = req.prior_state
        if prior.is_null:
            planned["id"] = unknown(STRING)
        elif prior.v["replace"] != planned["replace"]:
            resp.requires_replace.append(AttributePath.of("replace"))
        resp.planned_state = object_(planned)
        return resp

    def apply_resource_change(self, req: p.ApplyResourceChangeRequest) -> Any:
        planned = req.planned_state
        if planned.is_null:
            self._note("delete", str(req.prior_state.v["id"].v))
            return p.ApplyResourceChangeResponse(new_state=planned)
        value = planned.v["value"].v
        self._note("apply", str(value))
        if value in self.fail_apply:
            return p.ApplyResourceChangeResponse(
                new_state=Value(planned.type, None),
                diagnostics=Diagnostics([error("Boom", f"failed to apply {value}")]))
        state = dict(planned.v)
        if not state["id"].is_known:
            with self._mu:
                self.counter += 1
                state["id"] = string(f"id-{self.counter}")
        if self.corrupt_apply:
            state["value"] = string("corrupted")
        return p.ApplyResourceChangeResponse(new_state=object_(state))

    def import_resource_state(self, req: Any) -> p.ImportResourceStateResponse:
        return p.ImportResourceStateResponse()

    def move_resource_state(self, req: Any) -> p.MoveResourceStateResponse:
        return p.MoveResourceStateResponse()

    def read_data_source(self, req: p.ReadDataSourceRequest) -> p.ReadDataSourceResponse:
        inp = req.config.v["input"].v
        self._note("read_data", str(inp))
        return p.ReadDataSourceResponse(
            state=object_({"input": string(inp), "result": string(f"data:{inp}")}))

    def stop_provider(self) -> Diagnostics:
        return Diagnostics()

    def close(self) -> Diagnostics:
        return Diagnostics()


class Harness:
    """A working directory with a configuration, a state and a registry with the test
    provider."""

    def __init__(self, root: str, files: dict[str, str]) -> None:
        self.dir = root
        self.provider = TestProvider()
        self.registry = ProviderRegistry(root)
        self.registry.register(TEST_PROVIDER, lambda: self.provider)
        self.write(files)

    def write(self, files: dict[str, str]) -> None:
        """Write `files` and run `init`'s module installation, as a user does after
        changing module calls."""
        for name, text in files.items():
            path = os.path.join(self.dir, name)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w") as f:
                f.write(text)
        init_modules(self.dir)

    def manager(self) -> StateManager:
        return StateManager(LocalState(os.path.join(self.dir, "terraform.tfstate")),
                            errored_path=os.path.join(self.dir, "errored.tfstate"))

    def state(self) -> StateFile | None:
        sf, _ = self.manager().read()
        return sf

    def plan(self, **kw: Any) -> PlanResult:
        cfg, diags = load_config(self.dir)
        assert not diags.has_errors, [str(d) for d in diags]
        return make_plan(cfg, self.state(), self.registry, PlanOptions(working_dir=self.dir,
                                                                       **kw))

    def apply(self, result: PlanResult, **kw: Any) -> ApplyResult:
        cfg, _ = load_config(self.dir)
        mgr = self.manager()
        sf, _ = mgr.read()
        prior = StateFile(result.prior_state, sf.lineage, sf.serial) if sf else StateFile(
            result.prior_state)
        return apply_plan(cfg, result.plan, prior, mgr, self.registry,
                          ApplyOptions(working_dir=self.dir, **kw))

    def plan_apply(self, **kw: Any) -> tuple[PlanResult, ApplyResult]:
        res = self.plan(**kw)
        assert not res.diagnostics.has_errors, [str(d) for d in res.diagnostics]
        return res, self.apply(res)


def actions(result: PlanResult) -> dict[str, tuple[str, ...]]:
    """`{address: action}` of a plan's changes (deposed ones suffixed)."""
    return {str(c.addr) + (f" ({c.deposed_key})" if c.deposed_key else ""): c.action.value
            for c in result.plan.changes}


def reasons(result: PlanResult) -> dict[str, str | None]:
    return {str(c.addr): c.action_reason.value if c.action_reason else None
            for c in result.plan.changes}


def messages(diags: Diagnostics) -> list[str]:
    return [d.summary for d in diags]
