"""The time resources, schema-compatible with hashicorp/time 0.12.

- time_static: a timestamp (`rfc3339`, default: now at create) and its parts; `id` is the
  timestamp. Import: the timestamp.
- time_sleep: waits `create_duration` when created and `destroy_duration` when destroyed (Go
  duration strings; changing them is an in-place update). `id` is the creation time. Import:
  `create_duration,destroy_duration` (either may be empty).
- time_offset: `base_rfc3339` (default: now) shifted by `offset_years` ... `offset_seconds`;
  changing an offset updates in place. `id` is the base timestamp. Import:
  `base,years,months,days,hours,minutes,seconds`.
- time_rotating: `rfc3339` (default: now) and `rotation_rfc3339`, either given or the base
  plus `rotation_years` ... `rotation_minutes`; once the rotation time has passed, reading
  removes the resource from state so it is created again. Import:
  `base,years,months,days,hours,minutes` or `base,rotation_rfc3339`.
All take `triggers` (a change forces replacement).
"""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Iterable
from typing import Any

from engine.plugin.sdk import (
    UNKNOWN,
    Attr,
    Obj,
    Plan,
    ProviderError,
    Resource,
    error,
    to_value,
)
from engine.values import NUMBER, STRING, MapType
from providers.time.clock import (
    add_date,
    format_rfc3339,
    now,
    parse_duration,
    parse_rfc3339,
    parts,
)

_PARTS = ("year", "month", "day", "hour", "minute", "second", "unix")

TRIGGERS = Attr(MapType(STRING), description="Arbitrary map of values that, when changed, will "
                "trigger a new base timestamp value to be saved.", optional=True,
                requires_replace=True)


def _part_fields() -> dict[str, Attr]:
    desc = {"unix": "Number of seconds since epoch time, e.g. `1581489373`."}
    return {p: Attr(NUMBER, description=desc.get(p, f"Number {p}, e.g. `1`."), computed=True,
                    use_state_for_unknown=True) for p in _PARTS}


def _given(v: Any) -> bool:
    """Whether an optional+computed timestamp was configured (not null, not unknown)."""
    return isinstance(v, str)


def _timestamp(value: str, attr: str) -> dt.datetime:
    try:
        return parse_rfc3339(value)
    except ValueError as e:
        raise ProviderError("Invalid timestamp", str(e), attr) from None


def _check_rfc3339(config: Obj, *attrs: str) -> list[Any]:
    out = []
    for a in attrs:
        v = config[a]
        if isinstance(v, str):
            try:
                parse_rfc3339(v)
            except ValueError as e:
                out.append(error("Invalid Attribute Value", str(e), a))
    return out


class TimeStatic(Resource):
    type_name = "time_static"
    description = "Manages a static time value."
    fields = {
        "rfc3339": Attr(STRING, description="Base timestamp in [RFC3339](https://datatracker."
                        "ietf.org/doc/html/rfc3339#section-5.8) format (see [RFC3339 time "
                        "string](https://tools.ietf.org/html/rfc3339#section-5.8) e.g., "
                        "`YYYY-MM-DDTHH:MM:SSZ`). Defaults to the current time.",
                        optional=True, computed=True, requires_replace=True,
                        use_state_for_unknown=True),
        "triggers": TRIGGERS,
        **_part_fields(),
        "id": Attr(STRING, description="RFC3339 format of the timestamp, e.g. "
                   "`2020-02-12T06:36:13Z`.", computed=True, use_state_for_unknown=True),
    }

    def validate(self, config: Obj) -> Iterable[Any]:
        return _check_rfc3339(config, "rfc3339")

    def create(self, planned: Obj) -> dict[str, Any]:
        t = _timestamp(planned["rfc3339"], "rfc3339") if _given(planned["rfc3339"]) else now()
        return {"rfc3339": format_rfc3339(t), "id": format_rfc3339(t), **parts(t)}

    def import_state(self, id: str) -> dict[str, Any]:
        t = _timestamp(id, "rfc3339")
        return {"rfc3339": id, "id": id, **parts(t)}


class TimeSleep(Resource):
    type_name = "time_sleep"
    description = "Manages a resource that delays creation and/or destruction, typically for " \
        "further resources. This prevents cross-platform compatibility and destroy-time " \
        "issues with using the [`local-exec` provisioner](https://www.terraform.io/docs/" \
        "provisioners/local-exec.html)."
    fields = {
        "create_duration": Attr(STRING, description="[Time duration](https://golang.org/pkg/"
                                "time/#ParseDuration) to delay resource creation. For example, "
                                "`30s` for 30 seconds or `5m` for 5 minutes. Updating this "
                                "value by itself will not trigger a delay.", optional=True),
        "destroy_duration": Attr(STRING, description="[Time duration](https://golang.org/pkg/"
                                 "time/#ParseDuration) to delay resource destroy. For example, "
                                 "`30s` for 30 seconds or `5m` for 5 minutes. Updating this "
                                 "value by itself will not trigger a delay.", optional=True),
        "triggers": Attr(MapType(STRING), description="(Optional) Arbitrary map of values "
                         "that, when changed, will run any creation or destroy delays again.",
                         optional=True, requires_replace=True),
        "id": Attr(STRING, description="RFC3339 format of the offset timestamp, e.g. "
                   "`2020-02-12T06:36:13Z`.", computed=True, use_state_for_unknown=True),
    }

    def validate(self, config: Obj) -> Iterable[Any]:
        out = []
        for a in ("create_duration", "destroy_duration"):
            v = config[a]
            if isinstance(v, str):
                try:
                    parse_duration(v)
                except ValueError as e:
                    out.append(error("Invalid Attribute Value", str(e), a))
        return out

    def _sleep(self, value: str | None) -> None:
        if value:
            time.sleep(max(parse_duration(value).total_seconds(), 0))

    def create(self, planned: Obj) -> dict[str, Any]:
        self._sleep(planned["create_duration"])
        return {"id": format_rfc3339(now())}

    def delete(self, state: Obj) -> None:
        self._sleep(state["destroy_duration"])

    def import_state(self, id: str) -> dict[str, Any]:
        create, sep, destroy = id.partition(",")
        if not sep:
            raise ProviderError("Unexpected Format of ID",
                                f"Unexpected format of ID ({id}), expected "
                                "CREATEDURATION,DESTROYDURATION where at least one value is "
                                "non-empty")
        return {"create_duration": create or None, "destroy_duration": destroy or None,
                "id": format_rfc3339(now())}


_OFFSETS = ("offset_years", "offset_months", "offset_days", "offset_hours", "offset_minutes",
            "offset_seconds")


def offset_time(base: dt.datetime, o: dict[str, Any]) -> dt.datetime:
    t = add_date(base, int(o.get("offset_years") or 0), int(o.get("offset_months") or 0),
                 int(o.get("offset_days") or 0))
    return t + dt.timedelta(hours=int(o.get("offset_hours") or 0),
                            minutes=int(o.get("offset_minutes") or 0),
                            seconds=int(o.get("offset_seconds") or 0))


class TimeOffset(Resource):
    type_name = "time_offset"
    description = "Manages an offset time resource, which keeps an UTC timestamp stored in " \
        "the Terraform state that is offset from a locally sourced base timestamp. This " \
        "prevents perpetual differences caused by using the " \
        "[`timestamp()` function](https://www.terraform.io/docs/configuration/functions/" \
        "timestamp.html)."
    fields = {
        "base_rfc3339": Attr(STRING, description="Base timestamp in [RFC3339](https://"
                             "datatracker.ietf.org/doc/html/rfc3339#section-5.8) format (see "
                             "[RFC3339 time string](https://tools.ietf.org/html/rfc3339#section"
                             "-5.8) e.g., `YYYY-MM-DDTHH:MM:SSZ`). Defaults to the current "
                             "time.", optional=True, computed=True, requires_replace=True,
                             use_state_for_unknown=True),
        **{n: Attr(NUMBER, description=f"Number of {n.removeprefix('offset_')} to offset the "
                   "base timestamp. At least one of the 'offset_' arguments must be configured.",
                   optional=True) for n in _OFFSETS},
        "triggers": TRIGGERS,
        "rfc3339": Attr(STRING, description="RFC3339 format of the offset timestamp, e.g. "
                        "`2020-02-12T06:36:13Z`.", computed=True),
        **{p: Attr(NUMBER, description=f"Number {p} of offset timestamp.", computed=True)
           for p in _PARTS},
        "id": Attr(STRING, description="RFC3339 format of the offset timestamp, e.g. "
                   "`2020-02-12T06:36:13Z`.", computed=True, use_state_for_unknown=True),
    }

    def validate(self, config: Obj) -> Iterable[Any]:
        out = _check_rfc3339(config, "base_rfc3339")
        if all(config.value(n).is_known and config.value(n).is_null for n in _OFFSETS):
            out.append(error("Invalid Attribute Combination", "At least one attribute out of "
                             f"[{','.join(_OFFSETS)}] must be specified"))
        return out

    def modify_plan(self, plan: Plan) -> Iterable[Any]:
        if plan.is_create or plan.prior is None:
            return []
        if any(not plan.value(n).is_known for n in _OFFSETS):
            return []
        base = plan["base_rfc3339"]
        if isinstance(base, str):
            t = offset_time(_timestamp(base, "base_rfc3339"), {n: plan[n] for n in _OFFSETS})
            plan.set("rfc3339", format_rfc3339(t))
            for k, v in parts(t).items():
                plan.set(k, v)
        else:
            for k in ("rfc3339", *_PARTS):
                plan.set(k, UNKNOWN)
        return []

    def _values(self, planned: Obj) -> dict[str, Any]:
        base = (_timestamp(planned["base_rfc3339"], "base_rfc3339")
                if _given(planned["base_rfc3339"]) else now())
        t = offset_time(base, {n: planned[n] for n in _OFFSETS})
        return {"base_rfc3339": format_rfc3339(base), "id": format_rfc3339(base),
                "rfc3339": format_rfc3339(t), **parts(t)}

    def create(self, planned: Obj) -> dict[str, Any]:
        return self._values(planned)

    def update(self, prior: Obj, planned: Obj) -> dict[str, Any]:
        return self._values(planned)

    def import_state(self, id: str) -> dict[str, Any]:
        fields = id.split(",")
        if len(fields) != 7:
            raise ProviderError("Unexpected Format of ID",
                                f"Unexpected format of ID ({id}), expected BASETIMESTAMP,"
                                "YEARS,MONTHS,DAYS,HOURS,MINUTES,SECONDS")
        out: dict[str, Any] = {"base_rfc3339": fields[0]}
        for n, v in zip(_OFFSETS, fields[1:]):
            out[n] = int(v) if v else None
        base = _timestamp(fields[0], "base_rfc3339")
        t = offset_time(base, out)
        out.update(id=fields[0], rfc3339=format_rfc3339(t), **parts(t))
        return out


_ROTATIONS = ("rotation_years", "rotation_months", "rotation_days", "rotation_hours",
              "rotation_minutes")


def rotation_time(base: dt.datetime, r: dict[str, Any]) -> dt.datetime:
    t = add_date(base, int(r.get("rotation_years") or 0), int(r.get("rotation_months") or 0),
                 int(r.get("rotation_days") or 0))
    return t + dt.timedelta(hours=int(r.get("rotation_hours") or 0),
                            minutes=int(r.get("rotation_minutes") or 0))


class TimeRotating(Resource):
    type_name = "time_rotating"
    description = "Manages a rotating time resource, which keeps a rotating UTC timestamp " \
        "stored in the Terraform state and proposes resource recreation when the locally " \
        "sourced current time is beyond the rotation time. This rotation only occurs when " \
        "Terraform is executed, meaning there will be drift between the rotation timestamp " \
        "and actual rotation."
    fields = {
        "rfc3339": Attr(STRING, description="Base timestamp in [RFC3339](https://datatracker."
                        "ietf.org/doc/html/rfc3339#section-5.8) format (see [RFC3339 time "
                        "string](https://tools.ietf.org/html/rfc3339#section-5.8) e.g., "
                        "`YYYY-MM-DDTHH:MM:SSZ`). Defaults to the current time.",
                        optional=True, computed=True, requires_replace=True,
                        use_state_for_unknown=True),
        **{n: Attr(NUMBER, description=f"Number of {n.removeprefix('rotation_')} to add to "
                   "the base timestamp to configure the rotation timestamp. When the current "
                   "time has passed the rotation timestamp, the resource will trigger "
                   "recreation. At least one of the 'rotation_' arguments must be configured.",
                   optional=True) for n in _ROTATIONS},
        "rotation_rfc3339": Attr(STRING, description="Configure the rotation timestamp with an "
                                 "[RFC3339](https://datatracker.ietf.org/doc/html/rfc3339#"
                                 "section-5.8) format of the offset timestamp. When the current "
                                 "time has passed the rotation timestamp, the resource will "
                                 "trigger recreation. At least one of the 'rotation_' arguments "
                                 "must be configured.", optional=True, computed=True),
        "triggers": TRIGGERS,
        **_part_fields(),
        "id": Attr(STRING, description="RFC3339 format of the timestamp, e.g. "
                   "`2020-02-12T06:36:13Z`.", computed=True, use_state_for_unknown=True),
    }

    def validate(self, config: Obj) -> Iterable[Any]:
        out = _check_rfc3339(config, "rfc3339", "rotation_rfc3339")
        names = (*_ROTATIONS, "rotation_rfc3339")
        if all(config.value(n).is_known and config.value(n).is_null for n in names):
            out.append(error("Invalid Attribute Combination", "At least one attribute out of "
                             f"[{','.join(names)}] must be specified"))
        return out

    def modify_plan(self, plan: Plan) -> Iterable[Any]:
        if plan.prior is None or plan.replacing:
            return []
        changed = any(plan.value(n) != plan.prior.value(n) for n in _ROTATIONS)
        if changed and plan.config.value("rotation_rfc3339").is_null:
            plan.set_unknown("rotation_rfc3339")
        return []

    def _values(self, planned: Obj) -> dict[str, Any]:
        base = _timestamp(planned["rfc3339"], "rfc3339") if _given(planned["rfc3339"]) else now()
        if any(planned[n] for n in _ROTATIONS):
            rot = rotation_time(base, {n: planned[n] for n in _ROTATIONS})
        elif isinstance(planned["rotation_rfc3339"], str):
            rot = _timestamp(planned["rotation_rfc3339"], "rotation_rfc3339")
        else:
            raise ProviderError("Missing rotation", "No rotation attribute is set.")
        return {"rfc3339": format_rfc3339(base), "id": format_rfc3339(base),
                "rotation_rfc3339": format_rfc3339(rot), **parts(base)}

    def create(self, planned: Obj) -> dict[str, Any]:
        return self._values(planned)

    def update(self, prior: Obj, planned: Obj) -> dict[str, Any]:
        return self._values(planned)

    def read(self, state: Obj) -> dict[str, Any] | None:
        rot = state["rotation_rfc3339"]
        if isinstance(rot, str) and now() >= parse_rfc3339(rot):
            return None
        return {}

    def import_state(self, id: str) -> dict[str, Any]:
        fields = id.split(",")
        out: dict[str, Any] = {"rfc3339": fields[0]}
        if len(fields) == 2:
            out["rotation_rfc3339"] = fields[1]
        elif len(fields) == 6:
            for n, v in zip(_ROTATIONS, fields[1:]):
                out[n] = int(v) if v else None
        else:
            raise ProviderError("Unexpected Format of ID",
                                f"Unexpected format of ID ({id}), expected BASETIMESTAMP,"
                                "YEARS,MONTHS,DAYS,HOURS,MINUTES or BASETIMESTAMP,"
                                "ROTATIONTIMESTAMP")
        out.update(self._values(Obj(to_value(out, self.object_type()))))
        return out
