"""Provider schemas as Terraform's configschema has them.

A `Schema` is a versioned `Block`; a block has attributes and nested block types. An `Attribute`
has either a plain `type` (an engine.values Type) or, in protocol 6, a `nested_type`
(`NestedObject`: attributes plus a nesting mode). `Block.implied_type()` is the object type of
a value decoded from such a body (configschema's ImpliedType, optional-attribute markers
removed); `Block.spec_type()` keeps the `optional` markers nested attribute objects contribute.

Sensitivity is per attribute: `sensitive_paths(block, value)` lists the concrete paths of a
value that the schema declares sensitive (as configschema's ValueMarks), and
`mark_sensitive(block, value)` returns the value with those paths marked.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.plugin.paths import AttributePath, AttrStep, IndexStep
from engine.values import (
    DYNAMIC,
    EMPTY_OBJECT,
    EMPTY_TUPLE,
    NUMBER,
    SENSITIVE,
    STRING,
    ListType,
    MapType,
    ObjectType,
    SetType,
    Type,
    Value,
)


class Nesting(enum.Enum):
    """How a nested block type (or nested attribute object) repeats."""

    SINGLE = "single"
    GROUP = "group"
    LIST = "list"
    SET = "set"
    MAP = "map"


@dataclass(frozen=True, slots=True)
class NestedObject:
    """The type of a protocol-6 nested attribute: an object of attributes, repeated by
    `nesting` (SINGLE, LIST, SET or MAP; GROUP is not valid here)."""

    attributes: Mapping[str, Attribute]
    nesting: Nesting = Nesting.SINGLE

    def spec_type(self) -> Type:
        """The type with `optional` markers for optional attributes (decoding config)."""
        attrs = {name: a.spec_type() for name, a in self.attributes.items()}
        optional = sorted(name for name, a in self.attributes.items() if a.optional)
        obj = ObjectType(attrs, optional)
        return _wrap(obj, self.nesting)

    def implied_type(self) -> Type:
        """The type of values of this attribute (no optional markers)."""
        attrs = {name: a.implied_type() for name, a in self.attributes.items()}
        return _wrap(ObjectType(attrs), self.nesting)

    def contains_sensitive(self) -> bool:
        return any(
            a.sensitive or (a.nested_type is not None and a.nested_type.contains_sensitive())
            for a in self.attributes.values()
        )


def _wrap(obj: Type, nesting: Nesting) -> Type:
    if nesting is Nesting.LIST:
        return ListType(obj)
    if nesting is Nesting.SET:
        return SetType(obj)
    if nesting is Nesting.MAP:
        return MapType(obj)
    return obj


@dataclass(frozen=True, slots=True)
class Attribute:
    """One attribute of a block. Exactly one of `type` and `nested_type` is set."""

    type: Type | None = None
    nested_type: NestedObject | None = None
    description: str = ""
    description_kind: str = "plain"
    required: bool = False
    optional: bool = False
    computed: bool = False
    sensitive: bool = False
    deprecated: bool = False
    write_only: bool = False

    def implied_type(self) -> Type:
        if self.nested_type is not None:
            return self.nested_type.implied_type()
        return self.type if self.type is not None else DYNAMIC

    def spec_type(self) -> Type:
        if self.nested_type is not None:
            return self.nested_type.spec_type()
        return self.type if self.type is not None else DYNAMIC


@dataclass(frozen=True, slots=True)
class NestedBlock:
    """A nested block type: its body schema, how it repeats and how many are allowed
    (`max_items` 0 means no limit)."""

    block: Block
    nesting: Nesting = Nesting.LIST
    min_items: int = 0
    max_items: int = 0

    def implied_type(self) -> Type:
        inner = self.block.implied_type()
        return self._collection(inner)

    def spec_type(self) -> Type:
        return self._collection(self.block.spec_type())

    def _collection(self, inner: Type) -> Type:
        n = self.nesting
        if n in (Nesting.SINGLE, Nesting.GROUP):
            return inner
        if n is Nesting.LIST:
            # a list of blocks whose type is not fully decided decodes as a tuple
            return DYNAMIC if inner.has_dynamic() else ListType(inner)
        if n is Nesting.MAP:
            return DYNAMIC if inner.has_dynamic() else MapType(inner)
        return SetType(inner)


@dataclass(frozen=True, slots=True)
class Block:
    """A body: attributes and nested block types, by name."""

    attributes: Mapping[str, Attribute] = field(default_factory=dict)
    block_types: Mapping[str, NestedBlock] = field(default_factory=dict)
    description: str = ""
    description_kind: str = "plain"
    deprecated: bool = False
    # derived answers, computed once per block (a schema is never changed once built)
    _memo: dict[str, Any] = field(default_factory=dict, init=False, repr=False, compare=False)

    def implied_type(self) -> ObjectType:
        """The object type of a value decoded from a body of this block (ImpliedType)."""
        found = self._memo.get("implied")
        if found is None:
            attrs: dict[str, Type] = {n: a.implied_type() for n, a in self.attributes.items()}
            for n, b in self.block_types.items():
                attrs[n] = b.implied_type()
            found = self._memo["implied"] = ObjectType(attrs)
        return found

    def spec_type(self) -> ObjectType:
        """As implied_type, but nested attribute objects keep their `optional` markers."""
        attrs: dict[str, Type] = {n: a.spec_type() for n, a in self.attributes.items()}
        for n, b in self.block_types.items():
            attrs[n] = b.spec_type()
        return ObjectType(attrs)

    def contains_sensitive(self) -> bool:
        """Whether any attribute here or in a nested block/attribute object is sensitive."""
        found = self._memo.get("sensitive")
        if found is None:
            found = self._memo["sensitive"] = any(
                a.sensitive or (a.nested_type is not None and a.nested_type.contains_sensitive())
                for a in self.attributes.values()
            ) or any(b.block.contains_sensitive() for b in self.block_types.values())
        return bool(found)

    def empty_value(self) -> Value:
        """The value of an empty body: every attribute null, absent single blocks null,
        group blocks their own empty value, repeated blocks empty collections."""
        out: dict[str, Value] = {}
        for n, a in self.attributes.items():
            out[n] = Value(a.implied_type(), None)
        for n, b in self.block_types.items():
            t = b.implied_type()
            if b.nesting is Nesting.SINGLE:
                out[n] = Value(t, None)
            elif b.nesting is Nesting.GROUP:
                out[n] = b.block.empty_value()
            elif t == DYNAMIC:
                empty = EMPTY_TUPLE if b.nesting is Nesting.LIST else EMPTY_OBJECT
                out[n] = Value(empty, [] if b.nesting is Nesting.LIST else {})
            else:
                out[n] = Value(t, {} if b.nesting is Nesting.MAP else [])
        return Value(self.implied_type(), dict(sorted(out.items())))

    def with_attributes(self, values: Mapping[str, Value]) -> Value:
        """An object conforming to this block's type: `values` for the named attributes (they
        must conform to the attributes' types), everything else as in `empty_value()`. Like a
        cty object, its type is built from its attributes' actual types."""
        base = self.empty_value()
        merged = dict(base.v)
        for n, v in values.items():
            if n not in merged:
                raise KeyError(f"no attribute {n!r} in schema")
            merged[n] = v
        ordered = dict(sorted(merged.items()))
        return Value(ObjectType({k: e.type for k, e in ordered.items()}), ordered)

    def attribute_at(self, path: AttributePath) -> Attribute | None:
        """The attribute the path names, walking through nested blocks and nested attribute
        objects (element steps are skipped over), or None."""
        block: Block | None = self
        attrs: Mapping[str, Attribute] | None = None
        found: Attribute | None = None
        for step in path.steps:
            if isinstance(step, IndexStep):
                continue
            if found is not None:
                if found.nested_type is None:
                    return None
                attrs, block, found = found.nested_type.attributes, None, None
            if block is not None:
                if step.name in block.attributes:
                    found = block.attributes[step.name]
                elif step.name in block.block_types:
                    block = block.block_types[step.name].block
                else:
                    return None
            elif attrs is not None:
                if step.name not in attrs:
                    return None
                found = attrs[step.name]
            else:
                return None
        return found


@dataclass(frozen=True, slots=True)
class Schema:
    """A resource, data source or provider schema: a version and a body block."""

    block: Block = field(default_factory=Block)
    version: int = 0


# ---------------------------------------------------------------------------- sensitivity
def sensitive_paths(block: Block, value: Value) -> list[AttributePath]:
    """The paths of `value` (an object of `block`'s type) that the schema marks sensitive.

    As configschema's ValueMarks: every sensitive attribute's path is listed (null or not);
    nested blocks and nested attribute objects are walked per element, keyed by list index,
    map key or (for sets) the element itself; null and unknown containers are not entered.
    """
    out: list[AttributePath] = []
    if block.contains_sensitive():
        _block_paths(block, value, AttributePath.root(), out)
    return out


def _block_paths(block: Block, value: Value, path: AttributePath, out: list[AttributePath]) -> None:
    if value.is_null or not value.is_known or not isinstance(value.v, dict):
        return
    _attr_paths(block.attributes, value, path, out)
    for name, bt in block.block_types.items():
        if not bt.block.contains_sensitive():
            continue
        bv = value.v.get(name)
        if bv is None or bv.is_null or not bv.is_known:
            continue
        bpath = path.attr(name)
        if bt.nesting in (Nesting.SINGLE, Nesting.GROUP):
            _block_paths(bt.block, bv, bpath, out)
            continue
        for key, elem in _elements(bv):
            _block_paths(bt.block, elem, bpath.index(key), out)


def _attr_paths(
    attrs: Mapping[str, Attribute], value: Value, path: AttributePath, out: list[AttributePath]
) -> None:
    for name in sorted(attrs):
        a = attrs[name]
        apath = path.attr(name)
        if a.sensitive:
            out.append(apath)
        nt = a.nested_type
        if nt is None or not isinstance(value.v, dict):
            continue
        av = value.v.get(name)
        if av is None or av.is_null or not av.is_known:
            continue
        if nt.nesting is Nesting.SINGLE:
            if isinstance(av.v, dict):
                _attr_paths(nt.attributes, av, apath, out)
            continue
        for key, elem in _elements(av):
            if elem.is_known and not elem.is_null:
                _attr_paths(nt.attributes, elem, apath.index(key), out)


def _elements(v: Value) -> list[tuple[Value, Value]]:
    """(key, element) pairs of a known collection, cty's ElementIterator keys."""
    payload = v.v
    if isinstance(payload, dict):
        return [(Value(STRING, k), e) for k, e in payload.items()]
    if isinstance(payload, list):
        if isinstance(v.type, SetType):
            return [(e, e) for e in payload]
        return [(Value(NUMBER, i), e) for i, e in enumerate(payload)]
    return []


def mark_paths(value: Value, paths: list[AttributePath], mark: str = SENSITIVE) -> Value:
    """`value` with `mark` added at each path that exists in it (missing paths are ignored)."""
    for p in paths:
        value = _mark_at(value, list(p.steps), mark)
    return value


def _mark_at(value: Value, steps: list[AttrStep | IndexStep], mark: str) -> Value:
    if not steps:
        return value.mark(mark)
    step, rest = steps[0], steps[1:]
    payload = value.v
    if isinstance(step, AttrStep):
        if not isinstance(payload, dict) or step.name not in payload:
            return value
        new = dict(payload)
        new[step.name] = _mark_at(payload[step.name], rest, mark)
        return Value(value.type, new, value.marks)
    key = step.key
    if isinstance(payload, dict) and isinstance(key.v, str) and key.v in payload:
        new = dict(payload)
        new[key.v] = _mark_at(payload[key.v], rest, mark)
        return Value(value.type, new, value.marks)
    if isinstance(payload, list):
        items = list(payload)
        for i, e in enumerate(items):
            hit = (
                (i == key.v and key.type == NUMBER)
                if not isinstance(value.type, SetType)
                else e == key
            )
            if hit:
                items[i] = _mark_at(e, rest, mark)
        return Value(value.type, items, value.marks)
    return value


def mark_sensitive(block: Block, value: Value) -> Value:
    """`value` with the `sensitive` mark on every path the schema declares sensitive."""
    return mark_paths(value, sensitive_paths(block, value))
