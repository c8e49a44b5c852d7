"""`SDKProvider`: a provider written with the SDK, exposed as the engine's `Provider` protocol.

This is the in-process form of a Python provider: the gRPC server (engine.plugin.sdk.server)
serves exactly these calls, and tests call them directly. Every call returns diagnostics and
never raises: `ProviderError` becomes its diagnostic, any other exception an error naming it.
Values returned are typed by the schema (`Block.implied_type()`), unmarked.

Configuration: `configure_provider` stores what `Provider.configure` returns; resource and data
source instances are created per call with it as `provider_data`. Calls before configuration
get `None`. `stop_provider` sets `stopping`, which long-running hooks may poll.
"""

from __future__ import annotations

import json
import threading
import traceback
from collections.abc import Callable
from typing import Any, TypeVar

from engine.diags import Diagnostic, Diagnostics, Severity
from engine.plugin import protocol as p
from engine.plugin.sdk.errors import ProviderError
from engine.plugin.sdk.native import state_from_json, to_value
from engine.plugin.sdk.obj import Obj
from engine.plugin.sdk.planner import plan_change
from engine.plugin.sdk.resource import DataSource, Provider, Resource
from engine.values import ObjectType, Value

__all__ = ["SDKProvider"]

_R = TypeVar("_R")


def _guard(diags: Diagnostics, fn: Callable[[], _R]) -> _R | None:
    """Run `fn`, turning what it raises into diagnostics (None is returned then)."""
    try:
        return fn()
    except ProviderError as e:
        diags.append(e.diagnostic)
    except Exception as e:  # a provider bug must not end the process
        diags.append(
            Diagnostic(
                Severity.ERROR,
                "Unexpected provider error",
                f"{type(e).__name__}: {e}\n\n{traceback.format_exc(limit=5)}",
            )
        )
    return None


def _merge(base: Value, updates: dict[str, Any], t: ObjectType) -> Value:
    """`base` (an object of `t`, possibly null) with `updates` (plain Python) applied."""
    data: dict[str, Any] = {}
    if isinstance(base.v, dict):
        data.update(base.unmark_deep()[0].v)
    for k, v in updates.items():
        if k not in t.attrs:
            raise ProviderError("Invalid provider result", f"No attribute {k!r} in the schema.")
        data[k] = v
    return to_value(data, t)


class SDKProvider:
    """The engine `Provider` protocol over an SDK `Provider` (see the module docstring)."""

    def __init__(self, spec: Provider) -> None:
        self.spec = spec
        self.provider_data: Any = None
        self.stopping = threading.Event()
        self._resources = {r.type_name: r for r in spec.resources}
        self._data_sources = {d.type_name: d for d in spec.data_sources}

    # -- helpers ---------------------------------------------------------------------------
    def _resource(self, name: str, diags: Diagnostics) -> Resource | None:
        cls = self._resources.get(name)
        if cls is None:
            diags.append(Diagnostic(Severity.ERROR, "Resource Type Not Found",
                                    f"The provider does not support resource type {name!r}."))
            return None
        return cls(self.provider_data)

    def _data_source(self, name: str, diags: Diagnostics) -> DataSource | None:
        cls = self._data_sources.get(name)
        if cls is None:
            diags.append(Diagnostic(Severity.ERROR, "Data Source Type Not Found",
                                    f"The provider does not support data source {name!r}."))
            return None
        return cls(self.provider_data)

    @staticmethod
    def _unknowns_left(v: Value, diags: Diagnostics, type_name: str) -> None:
        if isinstance(v.v, dict):
            left = sorted(k for k, e in v.v.items() if not e.is_wholly_known())
            if left:
                diags.append(Diagnostic(
                    Severity.ERROR, "Provider returned invalid result object after apply",
                    f"After applying {type_name}, these attributes are still unknown: "
                    + ", ".join(left)))

    # -- schema and configuration -------------------------------------------------------------
    def get_provider_schema(self) -> p.GetProviderSchemaResponse:
        return p.GetProviderSchemaResponse(
            provider=self.spec.schema(),
            resource_types={n: c.schema() for n, c in self._resources.items()},
            data_sources={n: c.schema() for n, c in self._data_sources.items()},
            server_capabilities=p.ServerCapabilities(get_provider_schema_optional=True),
        )

    def validate_provider_config(
        self, req: p.ValidateProviderConfigRequest
    ) -> p.ValidateProviderConfigResponse:
        resp = p.ValidateProviderConfigResponse(prepared_config=req.config)
        cfg = req.config.unmark_deep()[0]
        if isinstance(cfg.type, ObjectType):
            found = _guard(resp.diagnostics, lambda: list(self.spec.validate(Obj(cfg))))
            resp.diagnostics.extend(found or [])
        return resp

    def configure_provider(self, req: p.ConfigureProviderRequest) -> p.ConfigureProviderResponse:
        resp = p.ConfigureProviderResponse()
        cfg = req.config.unmark_deep()[0]
        if not isinstance(cfg.type, ObjectType):
            cfg = self.spec.schema().block.empty_value()
        self.provider_data = _guard(resp.diagnostics, lambda: self.spec.configure(Obj(cfg)))
        return resp

    def validate_resource_config(
        self, req: p.ValidateResourceConfigRequest
    ) -> p.ValidateResourceConfigResponse:
        resp = p.ValidateResourceConfigResponse()
        r = self._resource(req.type_name, resp.diagnostics)
        if r is not None:
            cfg = Obj(req.config.unmark_deep()[0])
            resp.diagnostics.extend(_guard(resp.diagnostics, lambda: list(r.validate(cfg))) or [])
        return resp

    def validate_data_resource_config(
        self, req: p.ValidateDataResourceConfigRequest
    ) -> p.ValidateDataResourceConfigResponse:
        resp = p.ValidateDataResourceConfigResponse()
        d = self._data_source(req.type_name, resp.diagnostics)
        if d is not None:
            cfg = Obj(req.config.unmark_deep()[0])
            resp.diagnostics.extend(_guard(resp.diagnostics, lambda: list(d.validate(cfg))) or [])
        return resp

    # -- resources ---------------------------------------------------------------------------
    def upgrade_resource_state(
        self, req: p.UpgradeResourceStateRequest
    ) -> p.UpgradeResourceStateResponse:
        resp = p.UpgradeResourceStateResponse()
        r = self._resource(req.type_name, resp.diagnostics)
        if r is None:
            return resp
        t = r.object_type()

        def run() -> Value:
            if req.raw_state_json is not None:
                raw = json.loads(req.raw_state_json)
            else:
                raw = dict(req.raw_state_flatmap or {})
            if req.version == r.schema_version:
                return state_from_json(json.dumps(raw), t)
            upgraded = r.upgrade_state(req.version, raw)
            return to_value({k: v for k, v in upgraded.items() if k in t.attrs}, t)

        got = _guard(resp.diagnostics, run)
        resp.upgraded_state = got if got is not None else Value(t, None)
        return resp

    def read_resource(self, req: p.ReadResourceRequest) -> p.ReadResourceResponse:
        resp = p.ReadResourceResponse(new_state=req.prior_state, private=req.private)
        r = self._resource(req.type_name, resp.diagnostics)
        prior = req.prior_state.unmark_deep()[0]
        if r is None or prior.is_null:
            return resp
        t = r.object_type()

        def run() -> Value:
            updates = r.read(Obj(prior))
            return Value(t, None) if updates is None else _merge(prior, updates, t)

        got = _guard(resp.diagnostics, run)
        if got is not None:
            resp.new_state = got
        return resp

    def plan_resource_change(
        self, req: p.PlanResourceChangeRequest
    ) -> p.PlanResourceChangeResponse:
        resp = p.PlanResourceChangeResponse(
            planned_state=req.proposed_new_state, planned_private=req.prior_private
        )
        r = self._resource(req.type_name, resp.diagnostics)
        if r is None:
            return resp
        prior = req.prior_state.unmark_deep()[0]
        proposed = req.proposed_new_state.unmark_deep()[0]
        config = req.config.unmark_deep()[0]
        if config.is_null and not proposed.is_null:
            config = r.schema().block.empty_value()
        got = _guard(resp.diagnostics, lambda: plan_change(r, prior, proposed, config))
        if got is not None:
            resp.planned_state, resp.requires_replace, found = got
            resp.diagnostics.extend(found)
        return resp

    def apply_resource_change(
        self, req: p.ApplyResourceChangeRequest
    ) -> p.ApplyResourceChangeResponse:
        resp = p.ApplyResourceChangeResponse(new_state=req.planned_state)
        r = self._resource(req.type_name, resp.diagnostics)
        if r is None:
            return resp
        t = r.object_type()
        prior = req.prior_state.unmark_deep()[0]
        planned = req.planned_state.unmark_deep()[0]

        def run() -> Value:
            if planned.is_null:
                r.delete(Obj(prior))
                return planned
            if prior.is_null:
                return _merge(planned, r.create(Obj(planned)), t)
            return _merge(planned, r.update(Obj(prior), Obj(planned)), t)

        got = _guard(resp.diagnostics, run)
        if got is None:
            # a failed create leaves nothing; a failed update or delete keeps the prior object
            resp.new_state = prior
            return resp
        self._unknowns_left(got, resp.diagnostics, req.type_name)
        resp.new_state = got
        resp.private = req.planned_private
        return resp

    def import_resource_state(
        self, req: p.ImportResourceStateRequest
    ) -> p.ImportResourceStateResponse:
        resp = p.ImportResourceStateResponse()
        r = self._resource(req.type_name, resp.diagnostics)
        if r is None:
            return resp
        t = r.object_type()
        got = _guard(resp.diagnostics, lambda: to_value(r.import_state(req.id), t))
        if got is not None:
            resp.imported_resources.append(p.ImportedResource(req.type_name, got))
        return resp

    def move_resource_state(
        self, req: p.MoveResourceStateRequest
    ) -> p.MoveResourceStateResponse:
        resp = p.MoveResourceStateResponse()
        resp.diagnostics.append(Diagnostic(
            Severity.ERROR, "Unable to Move Resource State",
            f"The provider cannot move {req.source_type_name} state to {req.target_type_name}."))
        return resp

    def read_data_source(self, req: p.ReadDataSourceRequest) -> p.ReadDataSourceResponse:
        resp = p.ReadDataSourceResponse(state=req.config)
        d = self._data_source(req.type_name, resp.diagnostics)
        if d is None:
            return resp
        t = d.object_type()
        config = req.config.unmark_deep()[0]
        got = _guard(resp.diagnostics, lambda: _merge(config, d.read(Obj(config)), t))
        if got is not None:
            self._unknowns_left(got, resp.diagnostics, req.type_name)
            resp.state = got
        return resp

    # -- lifetime ---------------------------------------------------------------------------
    def stop_provider(self) -> Diagnostics:
        self.stopping.set()
        return Diagnostics()

    def close(self) -> Diagnostics:
        return Diagnostics()

