"""Lossless JSON encoding of Values (with unknowns and marks) and of whole Plans.

A Value is encoded as a JSON object:

- `type`: the value's type in Terraform's JSON type notation (`Type.to_json`);
- `value`: the payload as JSON (unknowns written as `null`, numbers exact);
- `unknown`: the paths of unknown values; `marks`: `[path, [mark, ...]]` pairs for every
  marked value; `types`: `[path, type]` for every nested value whose type differs from what
  its parent's type implies (values under `dynamic`); `floats`: `[path, text]` for numbers
  held as Python floats (infinities, negative zero); `nulls`: paths of null values inside
  collections whose JSON `null` would otherwise be ambiguous with an unknown;
  `refinements`: `[path, {...}]` for every refined unknown (engine.values.refinement): only
  the refinements it has (`not_null`, `prefix`, `lower`/`upper` as exact number text with
  `lower_inclusive`/`upper_inclusive`, `min_length`, `max_length`).

A path is a list of positional steps into the payload: a string (object attribute or map key)
or an int (position in a list, tuple or set as stored). Sets are rebuilt in their stored order,
so `decode_value(encode_value(v)) == v` for every Value, marks and element order included.

`encode_plan` / `decode_plan` do the same for a `Plan` and every field of its model; decoding
raises `CodecError` (a ValueError) on malformed input — callers at the edge (the plan file
reader) turn it into a diagnostic.
"""

from __future__ import annotations

import base64
from typing import Any

from engine.addrs import (
    AbsProviderConfig,
    AbsResourceInstance,
    parse_abs_provider_config,
    parse_abs_resource_instance,
)
from engine.plans.model import (
    Action,
    ActionReason,
    Importing,
    OutputChange,
    Plan,
    PlanMode,
    ResourceInstanceChange,
)
from engine.states.state import CheckObjectResult, CheckResult
from engine.values import DYNAMIC, NUMBER, Type, Value, type_from_json
from engine.values.json import JSONNumber, value_from_json, value_to_json
from engine.values.numbers import format_number, parse_number
from engine.values.refinement import RefinedUnknown, Refinement
from engine.values.types import ListType, MapType, ObjectType, SetType, TupleType
from engine.values.value import UNKNOWN

FORMAT_VERSION = 1

Path = list[str | int]


class CodecError(ValueError):
    """Encoded data that does not describe a valid Value or Plan."""


# ------------------------------------------------------------------------------ values
def _child_type(parent: Type, step: str | int, elem: Value) -> Type:
    if isinstance(parent, ObjectType) and isinstance(step, str):
        return parent.attrs.get(step, elem.type)
    if isinstance(parent, TupleType) and isinstance(step, int) and step < len(parent.elements):
        return parent.elements[step]
    if isinstance(parent, (ListType, SetType, MapType)):
        return parent.element
    return elem.type


class _Encoder:
    def __init__(self) -> None:
        self.unknown: list[Path] = []
        self.marks: list[list[Any]] = []
        self.types: list[list[Any]] = []
        self.floats: list[list[Any]] = []
        self.nulls: list[Path] = []
        self.refinements: list[list[Any]] = []

    def walk(self, v: Value, expected: Type, path: Path, in_collection: bool) -> Any:
        if v.marks:
            self.marks.append([list(path), sorted(v.marks)])
        if v.type != expected:
            self.types.append([list(path), v.type.to_json()])
        p = v.v
        if p is UNKNOWN:
            self.unknown.append(list(path))
            if v.refinement is not None:
                self.refinements.append([list(path), _encode_refinement(v.refinement)])
            return None
        if p is None:
            if in_collection:
                self.nulls.append(list(path))
            return None
        if isinstance(p, dict):
            return {k: self.walk(e, _child_type(v.type, k, e), [*path, k], True)
                    for k, e in p.items()}
        if isinstance(p, list):
            return [self.walk(e, _child_type(v.type, i, e), [*path, i], True)
                    for i, e in enumerate(p)]
        if v.type == NUMBER and isinstance(p, float):
            self.floats.append([list(path), repr(p)])
            return None
        return value_to_json(Value(v.type, p))


def encode_value(v: Value) -> dict[str, Any]:
    """The lossless JSON form of `v` (see module doc)."""
    enc = _Encoder()
    payload = enc.walk(v, v.type, [], False)
    out: dict[str, Any] = {"type": v.type.to_json(), "value": payload}
    for name in ("unknown", "marks", "types", "floats", "nulls", "refinements"):
        items = getattr(enc, name)
        if items:
            out[name] = items
    return out


def _key(path: Any) -> tuple[Any, ...]:
    if not isinstance(path, list) or not all(isinstance(s, (str, int)) for s in path):
        raise CodecError(f"invalid value path {path!r}")
    return tuple(path)


class _Decoder:
    def __init__(self, data: dict[str, Any]) -> None:
        try:
            self.unknown = {_key(p) for p in data.get("unknown", [])}
            self.nulls = {_key(p) for p in data.get("nulls", [])}
            self.marks = {_key(p): frozenset(m) for p, m in data.get("marks", [])}
            self.types = {_key(p): type_from_json(t) for p, t in data.get("types", [])}
            self.floats = {_key(p): float(f) for p, f in data.get("floats", [])}
            self.refinements = {_key(p): _decode_refinement(r)
                                for p, r in data.get("refinements", [])}
        except (TypeError, ValueError, KeyError) as exc:
            raise CodecError(f"invalid encoded value: {exc}") from exc

    def walk(self, data: Any, expected: Type, path: tuple[Any, ...]) -> Value:
        t = self.types.get(path, expected)
        marks = self.marks.get(path, frozenset())
        if path in self.unknown:
            r = self.refinements.get(path)
            if r is not None:
                return RefinedUnknown(t, r, marks)
            return Value(t, UNKNOWN, marks)
        if path in self.floats:
            return Value(t, self.floats[path], marks)
        if data is None or path in self.nulls:
            return Value(t, None, marks)
        if isinstance(t, (ObjectType, MapType)):
            if not isinstance(data, dict):
                raise CodecError(f"object expected at {list(path)}")
            out = {}
            for k, e in data.items():
                ct = t.attrs.get(k, DYNAMIC) if isinstance(t, ObjectType) else t.element
                out[k] = self.walk(e, ct, (*path, k))
            return Value(t, out, marks)
        if isinstance(t, (ListType, SetType, TupleType)):
            if not isinstance(data, list):
                raise CodecError(f"array expected at {list(path)}")
            items = []
            for i, e in enumerate(data):
                if isinstance(t, TupleType):
                    ct = t.elements[i] if i < len(t.elements) else DYNAMIC
                else:
                    ct = t.element
                items.append(self.walk(e, ct, (*path, i)))
            return Value(t, items, marks)
        try:
            plain = value_from_json(JSONNumber(str(data)) if isinstance(data, float) else data, t)
        except ValueError as exc:
            raise CodecError(f"invalid value at {list(path)}: {exc}") from exc
        return Value(t, plain.v, marks)


_DEFAULT = Refinement()
_REFINEMENT_FIELDS = ("not_null", "prefix", "lower", "lower_inclusive", "upper",
                      "upper_inclusive", "min_length", "max_length")


def _encode_refinement(r: Refinement) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name in _REFINEMENT_FIELDS:
        val = getattr(r, name)
        if val != getattr(_DEFAULT, name):
            out[name] = format_number(val) if name in ("lower", "upper") else val
    return out


def _decode_refinement(data: Any) -> Refinement:
    if not isinstance(data, dict) or set(data) - set(_REFINEMENT_FIELDS):
        raise ValueError(f"invalid refinement {data!r}")
    fields = dict(data)
    for name in ("lower", "upper"):
        if name in fields:
            fields[name] = parse_number(str(fields[name]))
    return Refinement(**fields)


def decode_value(data: Any) -> Value:
    """The Value that `encode_value` encoded as `data`; raises CodecError."""
    if not isinstance(data, dict) or "type" not in data:
        raise CodecError("an encoded value must be an object with a \"type\"")
    try:
        t = type_from_json(data["type"])
    except ValueError as exc:
        raise CodecError(str(exc)) from exc
    return _Decoder(data).walk(data.get("value"), t, ())


# ------------------------------------------------------------------------------ paths
def _encode_step(step: Any) -> Any:
    if isinstance(step, Value):
        return {"key": encode_value(step)}
    if isinstance(step, bool) or not isinstance(step, (str, int)):
        # AttributePath-like steps: AttrStep(name) / IndexStep(key)
        name = getattr(step, "name", None)
        if isinstance(name, str):
            return {"attr": name}
        key = getattr(step, "key", None)
        if isinstance(key, Value):
            return {"index": encode_value(key)}
        raise CodecError(f"cannot encode path step {step!r}")
    return step


def _decode_step(data: Any) -> Any:
    if isinstance(data, (str, int)) and not isinstance(data, bool):
        return data
    if isinstance(data, dict):
        from engine.plugin.paths import AttrStep, IndexStep

        if "key" in data:
            return decode_value(data["key"])
        if "attr" in data:
            return AttrStep(str(data["attr"]))
        if "index" in data:
            return IndexStep(decode_value(data["index"]))
    raise CodecError(f"invalid path step {data!r}")


# ------------------------------------------------------------------------------ plans
def _action(text: Any) -> Action:
    if not isinstance(text, list):
        raise CodecError(f"invalid action {text!r}")
    for a in Action:
        if list(a.value) == text:
            return a
    raise CodecError(f"invalid action {text!r}")


def _encode_change(c: ResourceInstanceChange) -> dict[str, Any]:
    out: dict[str, Any] = {
        "addr": str(c.addr),
        "provider": str(c.provider),
        "action": list(c.action.value),
        "before": encode_value(c.before),
        "after": encode_value(c.after),
    }
    if c.prev_run_addr is not None:
        out["prev_run_addr"] = str(c.prev_run_addr)
    if c.deposed_key is not None:
        out["deposed_key"] = c.deposed_key
    if c.action_reason is not None:
        out["action_reason"] = c.action_reason.value
    if c.requires_replace:
        out["requires_replace"] = [[_encode_step(s) for s in p] for p in c.requires_replace]
    if c.importing is not None:
        out["importing"] = {"id": c.importing.id}
    if c.generated_config is not None:
        out["generated_config"] = c.generated_config
    if c.private:
        out["private"] = base64.b64encode(c.private).decode("ascii")
    return out


def _decode_change(d: Any) -> ResourceInstanceChange:
    if not isinstance(d, dict):
        raise CodecError("a resource change must be an object")
    try:
        addr: AbsResourceInstance = parse_abs_resource_instance(d["addr"])
        provider: AbsProviderConfig = parse_abs_provider_config(d["provider"])
        prev = d.get("prev_run_addr")
        reason = d.get("action_reason")
        imp = d.get("importing")
        return ResourceInstanceChange(
            addr=addr,
            provider=provider,
            action=_action(d["action"]),
            before=decode_value(d["before"]),
            after=decode_value(d["after"]),
            prev_run_addr=parse_abs_resource_instance(prev) if prev is not None else None,
            deposed_key=d.get("deposed_key"),
            action_reason=ActionReason(reason) if reason is not None else None,
            requires_replace=[tuple(_decode_step(s) for s in p)
                              for p in d.get("requires_replace", [])],
            importing=Importing(str(imp["id"])) if imp is not None else None,
            generated_config=d.get("generated_config"),
            private=base64.b64decode(d.get("private", "")),
        )
    except CodecError:
        raise
    except (KeyError, TypeError, ValueError) as exc:
        raise CodecError(f"invalid resource change: {exc}") from exc


def encode_plan(plan: Plan) -> dict[str, Any]:
    """Every field of `plan` as JSON data (see `decode_plan` for the inverse)."""
    return {
        "format_version": FORMAT_VERSION,
        "mode": plan.mode.value,
        "changes": [_encode_change(c) for c in plan.changes],
        "output_changes": [
            {
                "name": o.name,
                "action": list(o.action.value),
                "before": encode_value(o.before),
                "after": encode_value(o.after),
                "sensitive": o.sensitive,
            }
            for o in plan.output_changes
        ],
        "drift": [_encode_change(c) for c in plan.drift],
        "variables": {k: encode_value(v) for k, v in plan.variables.items()},
        "apply_time_variables": sorted(plan.apply_time_variables),
        "target_addrs": list(plan.target_addrs),
        "force_replace_addrs": list(plan.force_replace_addrs),
        "errored": plan.errored,
        "complete": plan.complete,
        "timestamp": plan.timestamp,
        "relevant_attributes": [[r, list(path)] for r, path in plan.relevant_attributes],
        "checks": _encode_checks(plan.checks),
    }


def _encode_checks(results: list[CheckResult] | None) -> list[Any] | None:
    if results is None:
        return None
    return [
        {
            "object_kind": r.object_kind,
            "config_addr": r.config_addr,
            "status": r.status,
            "objects": None if r.objects is None else [
                [o.object_addr, o.status, list(o.failure_messages)] for o in r.objects],
        }
        for r in results
    ]


def _decode_checks(data: Any) -> list[CheckResult] | None:
    if data is None:
        return None
    return [
        CheckResult(
            object_kind=str(r["object_kind"]),
            config_addr=str(r["config_addr"]),
            status=str(r["status"]),
            objects=None if r["objects"] is None else [
                CheckObjectResult(str(a), str(st), [str(m) for m in msgs])
                for a, st, msgs in r["objects"]],
        )
        for r in data
    ]


def decode_plan(data: Any) -> Plan:
    """The Plan `encode_plan` produced `data` from; raises CodecError."""
    if not isinstance(data, dict):
        raise CodecError("an encoded plan must be a JSON object")
    if data.get("format_version") != FORMAT_VERSION:
        raise CodecError(f"unsupported plan format version {data.get('format_version')!r}")
    try:
        outputs = [
            OutputChange(
                name=str(o["name"]),
                action=_action(o["action"]),
                before=decode_value(o["before"]),
                after=decode_value(o["after"]),
                sensitive=bool(o.get("sensitive", False)),
            )
            for o in data.get("output_changes", [])
        ]
        return Plan(
            mode=PlanMode(data["mode"]),
            changes=[_decode_change(c) for c in data.get("changes", [])],
            output_changes=outputs,
            drift=[_decode_change(c) for c in data.get("drift", [])],
            variables={str(k): decode_value(v) for k, v in data.get("variables", {}).items()},
            apply_time_variables=[str(n) for n in data.get("apply_time_variables", [])],
            target_addrs=[str(a) for a in data.get("target_addrs", [])],
            force_replace_addrs=[str(a) for a in data.get("force_replace_addrs", [])],
            errored=bool(data.get("errored", False)),
            complete=bool(data.get("complete", True)),
            timestamp=str(data.get("timestamp", "")),
            relevant_attributes=[(str(r), [k if isinstance(k, (str, int)) else str(k)
                                           for k in path])
                                 for r, path in data.get("relevant_attributes", [])],
            checks=_decode_checks(data.get("checks")),
        )
    except CodecError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise CodecError(f"invalid plan: {exc}") from exc
