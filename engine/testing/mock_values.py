"""Computed values for mocked and overridden objects (terraform's moduletest/mocking).

`populate(value, block, data, replace_when, as_unknown)` walks `value` along the schema
`block`: every computed attribute for which `replace_when` holds (null while planning or
reading, unknown when applying) becomes unknown (`as_unknown`), the value `data` gives for its
path (converted to the attribute's type), or a generated value: 8 random lowercase letters
and digits for strings, 0, false, empty collections, objects of generated attributes, null
for dynamic types.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from engine.diags import Diagnostics, error
from engine.plugin.schema import Attribute, Block, Nesting
from engine.source import Range
from engine.values import Value, null, object_, unknown
from engine.values.convert import ConversionError, convert
from engine.values.types import (
    BOOL,
    DYNAMIC,
    NUMBER,
    STRING,
    ListType,
    MapType,
    ObjectType,
    SetType,
    Type,
)

_CHARS = "abcdefghijklmnopqrstuvwxyz0123456789"
_rand = random.SystemRandom()

Predicate = Callable[[Value], bool]


def is_null(v: Value) -> bool:
    return v.is_known and v.is_null


def is_unknown(v: Value) -> bool:
    return not v.is_known


def generate_for_type(t: Type) -> Value:
    """GenerateValueForType."""
    if t == STRING:
        return Value(STRING, "".join(_rand.choice(_CHARS) for _ in range(8)))
    if t == NUMBER:
        return Value(NUMBER, 0)
    if t == BOOL:
        return Value(BOOL, False)
    if isinstance(t, (ListType, SetType, MapType)):
        return Value(t, {} if isinstance(t, MapType) else [])
    if isinstance(t, ObjectType):
        return object_({k: generate_for_type(t.attrs[k])
                        for k in sorted(t.attrs)})
    return null(DYNAMIC)


def generate_for_attribute(attr: Attribute) -> Value:
    """GenerateValueForAttribute."""
    nt = attr.nested_type
    if nt is not None:
        if nt.nesting in (Nesting.SINGLE, Nesting.GROUP):
            return object_({k: generate_for_attribute(nt.attributes[k])
                            for k in sorted(nt.attributes)})
        t = attr.implied_type()
        return Value(t, {} if isinstance(t, MapType) else [])
    return generate_for_type(attr.implied_type())


def _fill(with_: Value, t: Type) -> Value:
    """`with_` as a value of type `t`; attributes an object type lacks are generated."""
    if isinstance(t, ObjectType) and isinstance(with_.type, ObjectType) and with_.is_known \
            and not with_.is_null:
        attrs: dict[str, Value] = {}
        for k, at in t.attrs.items():
            attrs[k] = _fill(with_.v[k], at) if k in with_.v else generate_for_type(at)
        return Value(t, attrs)
    return convert(with_, t)


class Populator:
    """One populate pass; problems collect in `diags`."""

    def __init__(self, data: Value | None, data_range: Range | None, replace_when: Predicate,
                 as_unknown: bool) -> None:
        self.data = data
        self.data_range = data_range
        self.replace_when = replace_when
        self.as_unknown = as_unknown
        self.diags = Diagnostics()

    def _data_at(self, path: list[str]) -> Value | None:
        cur = self.data
        if cur is None:
            return None
        for name in path:
            if not isinstance(cur.type, ObjectType) or cur.is_null or not cur.is_known:
                self.diags.append(error(
                    "Failed to compute attribute",
                    f'groundplan expected an object type for attribute "{".".join(path)}" '
                    f"defined within the mocked data at {self.data_range}, but found "
                    f"{cur.type.friendly_name()}.", self.data_range))
                return None
            if name not in cur.v:
                return None
            cur = cur.v[name]
        return cur

    def _generate(self, attr: Attribute, path: list[str]) -> Value:
        if self.as_unknown:
            return unknown(attr.implied_type())
        with_ = self._data_at(path)
        if with_ is not None:
            try:
                return _fill(with_, attr.implied_type())
            except ConversionError as exc:
                self.diags.append(error(
                    "Failed to compute attribute",
                    f"groundplan could not compute a value for the target type "
                    f"{attr.implied_type().friendly_name()} with the mocked data defined at "
                    f'{self.data_range} with the attribute "{".".join(path)}": {exc.message}.',
                    self.data_range))
        return generate_for_attribute(attr)

    def block(self, block: Block, value: Value, path: list[str]) -> Value:
        if not value.is_known or value.is_null or not isinstance(value.v, dict):
            return value
        out = dict(value.v)
        changed = False
        for name, attr in block.attributes.items():
            v = out.get(name)
            if v is None:
                continue
            new = v
            if attr.computed and self.replace_when(v):
                new = self._generate(attr, [*path, name])
            elif attr.nested_type is not None:
                new = self._nested_attrs(attr, v, [*path, name])
            if new is not v:
                out[name] = new
                changed = True
        for name, nb in block.block_types.items():
            v = out.get(name)
            if v is None or not v.is_known or v.is_null:
                continue
            if nb.nesting in (Nesting.SINGLE, Nesting.GROUP):
                new = self.block(nb.block, v, [*path, name])
            else:
                new = self._each_block(nb.block, v, [*path, name])
            if new is not v:
                out[name] = new
                changed = True
        return Value(value.type, out, value.marks) if changed else value

    def _each_block(self, block: Block, v: Value, path: list[str]) -> Value:
        return _each(v, lambda e: self.block(block, e, path))

    def _nested_attrs(self, attr: Attribute, v: Value, path: list[str]) -> Value:
        nt = attr.nested_type
        assert nt is not None
        inner = Block(attributes=nt.attributes)
        if not v.is_known or v.is_null:
            return v
        if nt.nesting in (Nesting.SINGLE, Nesting.GROUP):
            return self.block(inner, v, path)
        return _each(v, lambda e: self.block(inner, e, path))


def _each(v: Value, fn: Callable[[Value], Value]) -> Value:
    if isinstance(v.v, dict):
        return Value(v.type, {k: fn(e) for k, e in v.v.items()}, v.marks)
    if isinstance(v.v, list):
        return Value(v.type, [fn(e) for e in v.v], v.marks)
    return v


def populate(value: Value, block: Block, data: Value | None, data_range: Range | None,
             replace_when: Predicate, as_unknown: bool = False) -> tuple[Value, Diagnostics]:
    """See the module docstring. `data` must be an object (else terraform's "Invalid
    replacement value" error, and generated values are used)."""
    diags = Diagnostics()
    if data is not None and not isinstance(data.type, ObjectType):
        diags.append(error(
            "Invalid replacement value",
            f"The requested replacement value must be an object type, but was "
            f"{data.type.friendly_name()}.", data_range))
        data = None
    p = Populator(data, data_range, replace_when, as_unknown)
    out = p.block(block, value, [])
    diags.extend(p.diags)
    return out, diags
