"""Value transforms behind Terraform's JSON plan and state formats (jsonplan, jsonstate).

- `marshal(v)`: a wholly known value as JSON data (marks dropped, numbers exact: `int`, or
  `ExactNumber` for the others, which both `engine.values.json.dumps` and the CLI's
  order-keeping `engine.gocompat.json.dumps` write unquoted, as terraform writes numbers);
- `omit_unknowns(v)`: the value with unknowns removed from objects and maps and replaced by
  nulls in sequences (None when `v` itself is unknown);
- `unknown_as_bool(v)`: `after_unknown`: `true` where unknown, objects keep only the non-false
  entries, sequences become arrays;
- `sensitive_as_bool(v)`: `before_sensitive`/`after_sensitive`/`sensitive_values` from marks;
- `marshal_attributes(v)`: a resource object's attributes, each as JSON (None if null);
- `path_json(path)`: an attribute path as a JSON array of names and keys (`replace_paths`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from engine.gocompat.json import RawNumber
from engine.plugin.paths import AttributePath, AttrStep, IndexStep
from engine.plugin.schema import Block, mark_sensitive
from engine.values import SENSITIVE, TupleType, Value
from engine.values.json import JSONNumber, value_to_json
from engine.values.types import ListType, MapType, ObjectType, SetType
from engine.values.value import UNKNOWN


class ExactNumber(JSONNumber, RawNumber):
    """A non-integer JSON number literal (engine.values.numbers' exact text, e.g. `0.3` or a
    155-digit decimal) that every JSON writer of groundplan writes as a number."""

    __slots__ = ()


def exact_numbers(data: Any) -> Any:
    """JSON data with every `JSONNumber` / `RawNumber` literal that is not an integer as an
    `ExactNumber` (integers as `int`); other data unchanged."""
    if isinstance(data, ExactNumber):
        return data
    if isinstance(data, (JSONNumber, RawNumber)):
        text = str.__str__(data)
        try:
            return int(text)
        except ValueError:
            return ExactNumber(text)
    if isinstance(data, list):
        return [exact_numbers(e) for e in data]
    if isinstance(data, dict):
        return {k: exact_numbers(e) for k, e in data.items()}
    return data


def marshal(v: Value) -> Any:
    """`v` (wholly known, marks anywhere ignored) as JSON data: ctyjson.Marshal."""
    plain, _ = v.unmark_deep()
    return exact_numbers(value_to_json(plain))


def omit_unknowns(v: Value) -> Value | None:
    """jsonplan's omitUnknowns: None for an unknown value."""
    p = v.v
    if p is None:
        return v
    if p is UNKNOWN:
        return None
    if isinstance(p, list):
        items = []
        for e in p:
            ne = omit_unknowns(e)
            items.append(ne if ne is not None else Value(e.type, None))
        return Value(TupleType(e.type for e in items), items, v.marks)
    if isinstance(p, dict):
        out: dict[str, Value] = {}
        for k, e in p.items():
            ne = omit_unknowns(e)
            if ne is not None:
                out[k] = ne
        return Value(ObjectType({k: e.type for k, e in out.items()}), out, v.marks)
    return v


def unknown_as_bool(v: Value) -> Any:
    """jsonplan's unknownAsBool, as JSON data."""
    p = v.v
    if p is None:
        return False
    if p is UNKNOWN:
        return True
    if isinstance(p, list):
        return [unknown_as_bool(e) for e in p]
    if isinstance(p, dict):
        out = {}
        for k, e in p.items():
            b = unknown_as_bool(e)
            if b is not False:
                out[k] = b
        return out
    return False


def sensitive_as_bool(v: Value) -> Any:
    """jsonstate's SensitiveAsBool, as JSON data."""
    if SENSITIVE in v.marks:
        return True
    p = v.v
    t = v.type
    if p is None or not isinstance(t, (ListType, SetType, TupleType, MapType, ObjectType)):
        return False
    if isinstance(t, (ListType, SetType, TupleType)):
        if p is UNKNOWN:
            return []
        return [sensitive_as_bool(e) for e in p]
    if p is UNKNOWN:
        return {}
    out = {}
    for k, e in p.items():
        b = sensitive_as_bool(e)
        if b is not False:
            out[k] = b
    return out


def with_schema_sensitivity(block: Block | None, v: Value) -> Value:
    """`v` with the schema's sensitive attributes marked too (MarkWithPaths of both)."""
    if block is None or not block.contains_sensitive():
        return v
    return mark_sensitive(block, v)


def marshal_attributes(v: Value) -> dict[str, Any] | None:
    """jsonplan's marshalAttributeValues: attribute name -> JSON, or None for a null object."""
    plain, _ = v.unmark_deep()
    if plain.v is None or plain.v is UNKNOWN or not isinstance(plain.v, dict):
        return None
    return {k: exact_numbers(value_to_json(e)) for k, e in plain.v.items()}


def path_json(path: AttributePath | Iterable[Any]) -> list[Any]:
    """A path as jsonplan's encodePaths writes it: names and keys; set steps are dropped."""
    steps = path.steps if isinstance(path, AttributePath) else tuple(path)
    out: list[Any] = []
    for s in steps:
        if isinstance(s, AttrStep):
            out.append(s.name)
        elif isinstance(s, IndexStep):
            k = s.key
            if isinstance(k.v, (str, int)) and not isinstance(k.v, bool):
                out.append(k.v)
        elif isinstance(s, (str, int)) and not isinstance(s, bool):
            out.append(s)
        elif isinstance(s, Value) and isinstance(s.v, (str, int)):
            out.append(s.v)
    return out
