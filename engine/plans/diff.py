"""Computing the human-plan diff tree of a change (terraform's jsonformat/differ).

`diff_block(change, block)` diffs a resource object by its schema; `diff_output(change)` diffs
a value with no type information (outputs, and attributes of type `dynamic`) by its JSON
shape. The result is a tree of `Diff` nodes, each with the action it shows (`create`,
`delete`, `update`, `noop`), whether it forces replacement, and the node kind that decides how
it renders (engine.plans.render_human_values).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from engine.plans.diff_change import Change, json_type
from engine.plugin.schema import Attribute, Block, NestedBlock, NestedObject, Nesting
from engine.values import DYNAMIC, Type
from engine.values.types import ListType, MapType, ObjectType, PrimitiveType, SetType, TupleType

CREATE, DELETE, UPDATE, NOOP = "create", "delete", "update", "noop"


@dataclass(slots=True)
class Diff:
    """A rendered-diff node. `kind` is one of: primitive (`before`/`after`, `ctype`),
    object / nested_object / map (`children` by key), list / nested_list / set (`elements`),
    block (`children` attributes + `blocks`), unknown (`inner`: the before diff or None),
    sensitive (`inner`, `before_sensitive`, `after_sensitive`), typechange (`elements`
    [before, after])."""

    kind: str
    action: str
    replace: bool = False
    before: Any = None
    after: Any = None
    ctype: str = ""
    children: dict[str, Diff] = field(default_factory=dict)
    elements: list[Diff] = field(default_factory=list)
    blocks: list[tuple[str, str, Diff]] = field(default_factory=list)  # (name, map key, diff)
    inner: Diff | None = None
    before_sensitive: bool = False
    after_sensitive: bool = False


def combine(current: str, nxt: str) -> str:
    """collections.CompareActions: how a parent's action absorbs a child's."""
    if current == NOOP:
        return nxt
    if nxt == NOOP or current == nxt:
        return current
    return UPDATE


def _primitive_action(c: Change) -> str:
    before_missing = c.before is None and not c.before_explicit
    after_missing = c.after is None and not c.after_explicit
    if before_missing and not after_missing:
        return CREATE
    if after_missing and not before_missing:
        return DELETE
    if c.before == c.after and type(c.before) is type(c.after):
        return NOOP
    return UPDATE


def _sensitive(c: Change, compute: Callable[[Change], Diff]) -> Diff | None:
    bs, as_ = c.is_before_sensitive, c.is_after_sensitive
    if not bs and not as_:
        return None
    inner = compute(c.non_sensitive())
    action = inner.action
    if action == NOOP and bs != as_:
        action = UPDATE
    return Diff("sensitive", action, c.replace_matches(), inner=inner,
                before_sensitive=bs, after_sensitive=as_)


def _unknown(c: Change, compute: Callable[[Change], Diff], replace: bool) -> Diff | None:
    if not c.is_unknown:
        return None
    if c.before is None:
        return Diff("unknown", CREATE, replace)
    return Diff("unknown", UPDATE, replace, inner=compute(c.as_delete()))


def _slice_pairs(before: list[Any], after: list[Any], pair: Callable[[Any], bool]) -> list[tuple[int, int]]:
    """collections.ProcessSlice: (before index, after index) pairs in display order; an index
    equal to the other list's length means "absent on that side"."""
    n, m = len(before), len(after)
    table = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        for j in range(m - 1, -1, -1):
            if before[i] == after[j] and type(before[i]) is type(after[j]):
                table[i][j] = table[i + 1][j + 1] + 1
            else:
                table[i][j] = max(table[i + 1][j], table[i][j + 1])
    lcs: list[Any] = []
    i = j = 0
    while i < n and j < m:
        if before[i] == after[j] and type(before[i]) is type(after[j]):
            lcs.append(before[i])
            i += 1
            j += 1
        elif table[i + 1][j] >= table[i][j + 1]:
            i += 1
        else:
            j += 1
    out: list[tuple[int, int]] = []
    bi = ai = li = 0
    while bi < n or ai < m or li < len(lcs):
        while bi < n and (li >= len(lcs) or before[bi] != lcs[li]):
            if pair(before[bi]) and ai < m and pair(after[ai]) and (
                li >= len(lcs) or after[ai] != lcs[li]
            ):
                out.append((bi, ai))
                bi += 1
                ai += 1
                continue
            out.append((bi, m))
            bi += 1
        while ai < m and (li >= len(lcs) or after[ai] != lcs[li]):
            out.append((n, ai))
            ai += 1
        if li < len(lcs):
            out.append((bi, ai))
            bi += 1
            ai += 1
            li += 1
    return out


def _slice_action(c: Change, elements: list[Diff]) -> str:
    current = NOOP
    if c.before is not None and c.after is None:
        current = DELETE
    if c.before is None and c.after is not None:
        current = CREATE
    for e in elements:
        current = combine(current, e.action)
    return current


def _map_action(c: Change, children: dict[str, Diff]) -> str:
    current = NOOP
    if c.before is not None and c.after is None:
        current = DELETE
    if c.before is None and c.after is not None:
        current = CREATE
    for d in children.values():
        current = combine(current, d.action)
    return current


def _keys(c: Change) -> list[str]:
    keys: set[str] = set()
    for side in (c.before, c.after):
        if isinstance(side, dict):
            keys |= set(side)
    if isinstance(c.unknown, dict):
        keys |= {k for k, v in c.unknown.items() if v}
    return sorted(keys)


# ------------------------------------------------------------------------------ JSON values
def diff_output(c: Change) -> Diff:
    """Diff a value by its JSON shape (outputs, `dynamic` attributes); no replace markers."""
    c.replace_paths = ()
    return _json(c)


def _json(c: Change) -> Diff:
    s = _sensitive(c, _json)
    if s is not None:
        return s
    u = _unknown(c, _json, False)
    if u is not None:
        return u
    bt, at = json_type(c.before), json_type(c.after)
    deleted = at == "null" and not c.after_explicit
    created = bt == "null" and not c.before_explicit
    if bt == at or created or deleted:
        return _json_update(c, bt if bt != "null" else at)
    b = _json_update(c.as_delete(), bt)
    a = _json_update(c.as_create(), at)
    return Diff("typechange", UPDATE, elements=[b, a])


def _json_update(c: Change, jt: str) -> Diff:
    if jt == "object":
        children = {}
        for k in _keys(c):
            child = c.child(k)
            if not child.relevant_partial():
                child = child.as_noop()
            children[k] = _json(child)
        return Diff("object", _map_action(c, children), children=children)
    if jt == "array":
        before = c.before if isinstance(c.before, list) else []
        after = c.after if isinstance(c.after, list) else []
        pairs = _slice_pairs(before, after, lambda v: json_type(v) in ("object", "string"))
        elements = [_json(c.child_index(b, a)) for b, a in pairs]
        return Diff("list", _slice_action(c, elements), elements=elements)
    return Diff("primitive", _primitive_action(c), before=c.before, after=c.after,
                ctype="" if jt == "null" else jt)


# ------------------------------------------------------------------------------ typed values
def diff_type(c: Change, t: Type) -> Diff:
    """Diff a value of a known type (ComputeDiffForType)."""
    s = _sensitive(c, lambda x: diff_type(x, t))
    if s is not None:
        return s
    u = _unknown(c, lambda x: diff_type(x, t), c.replace_matches())
    if u is not None:
        return u
    if t == DYNAMIC:
        return diff_output(c)
    replace = c.replace_matches()
    if isinstance(t, PrimitiveType):
        return Diff("primitive", _primitive_action(c), replace, before=c.before, after=c.after,
                    ctype=t.name)
    if isinstance(t, (ListType, TupleType)):
        before = c.before if isinstance(c.before, list) else []
        after = c.after if isinstance(c.after, list) else []
        if isinstance(t, ListType):
            et = t.element
            pair_kind = isinstance(et, ObjectType) or et.to_json() == "string"
            pairs = _slice_pairs(before, after, lambda _: pair_kind)
            elements = [diff_type(c.child_index(b, a), et) for b, a in pairs]
        else:
            elements = [diff_type(c.child_index(i, i), et) for i, et in enumerate(t.elements)]
        return Diff("list", _slice_action(c, elements), replace, elements=elements)
    if isinstance(t, SetType):
        elements = _set_elements(c, lambda x: diff_type(x, t.element))
        return Diff("set", _slice_action(c, elements), replace, elements=elements)
    if isinstance(t, MapType):
        children = {k: diff_type(c.child(k), t.element) for k in _keys(c)}
        return Diff("map", _map_action(c, children), replace, children=children)
    if isinstance(t, ObjectType):
        children = {}
        for k, at in t.attrs.items():
            child = c.child(k)
            d = diff_type(child, at)
            if d.action == NOOP and child.before is None and child.after is None:
                continue
            children[k] = d
        return Diff("object", _map_action(c, children), replace, children=children)
    return diff_output(c)


def _set_elements(c: Change, compute: Callable[[Change], Diff]) -> list[Diff]:
    before = c.before if isinstance(c.before, list) else []
    after = c.after if isinstance(c.after, list) else []
    out: list[Diff] = []
    matched: set[int] = set()
    for bi, b in enumerate(before):
        ai = next((j for j, a in enumerate(after) if j not in matched and a == b), None)
        if ai is None:
            out.append(compute(c.child_index(bi, len(after))))
        else:
            matched.add(ai)
            out.append(compute(c.child_index(bi, ai)))
    for ai in range(len(after)):
        if ai not in matched:
            out.append(compute(c.child_index(len(before), ai)))
    return out


def diff_attribute(c: Change, attr: Attribute) -> Diff:
    """An attribute's diff: by its nested object type or its plain type."""
    if attr.nested_type is not None:
        return _diff_nested(c, attr.nested_type)
    return diff_type(c, attr.type if attr.type is not None else DYNAMIC)


def _diff_nested(c: Change, nt: NestedObject) -> Diff:
    s = _sensitive(c, lambda x: _diff_nested(x, nt))
    if s is not None:
        return s
    u = _unknown(c, lambda x: _diff_nested(x, nt), c.replace_matches())
    if u is not None:
        return u
    replace = c.replace_matches()

    def obj(x: Change) -> Diff:
        s2 = _sensitive(x, obj)
        if s2 is not None:
            return s2
        u2 = _unknown(x, obj, x.replace_matches())
        if u2 is not None:
            return u2
        children = {}
        for k, a in nt.attributes.items():
            ch = x.child(k)
            d = diff_attribute(ch, a)
            if d.action == NOOP and ch.before is None and ch.after is None:
                continue
            children[k] = d
        return Diff("nested_object", _map_action(x, children), x.replace_matches(),
                    children=children)

    if nt.nesting is Nesting.SINGLE:
        d = obj(c)
        d.replace = replace
        return d
    if nt.nesting is Nesting.MAP:
        children = {k: obj(c.child(k)) for k in _keys(c)}
        return Diff("map", _map_action(c, children), replace, children=children)
    before = c.before if isinstance(c.before, list) else []
    after = c.after if isinstance(c.after, list) else []
    if nt.nesting is Nesting.SET:
        elements = _set_elements(c, obj)
        return Diff("set", _slice_action(c, elements), replace, elements=elements)
    pairs = _slice_pairs(before, after, lambda _: True)
    elements = [obj(c.child_index(b, a)) for b, a in pairs]
    return Diff("nested_list", _slice_action(c, elements), replace, elements=elements)


def diff_block(c: Change, block: Block) -> Diff:
    """A block's diff (resource objects and nested blocks): attributes, then blocks."""
    current = NOOP
    if c.before is None and c.after is not None:
        current = CREATE
    elif c.before is not None and c.after is None:
        current = DELETE
    children: dict[str, Diff] = {}
    for name, attr in block.attributes.items():
        ch = c.child(name)
        if not ch.relevant_partial():
            ch = ch.as_noop()
        if ch.before == "":
            ch.before = None
        if ch.after == "":
            ch.after = None
        ch.before_explicit = ch.after_explicit = False
        d = diff_attribute(ch, attr)
        if d.action == NOOP and ch.before is None and ch.after is None:
            continue
        children[name] = d
        current = combine(current, d.action)
    blocks: list[tuple[str, str, Diff]] = []
    for name in sorted(block.block_types):
        for key, d in _diff_blocks(c.child(name), block.block_types[name]):
            blocks.append((name, key, d))
            current = combine(current, d.action)
    return Diff("block", current, c.replace_matches(), children=children, blocks=blocks)


def _diff_blocks(c: Change, nb: NestedBlock) -> list[tuple[str, Diff]]:
    if not c.relevant_partial():
        c = c.as_noop()
    if nb.nesting in (Nesting.SINGLE, Nesting.GROUP):
        if c.before is None and c.after is None:
            return []
        return [("", diff_block(c, nb.block))]
    if nb.nesting is Nesting.MAP:
        return [(f' "{k}"', diff_block(c.child(k), nb.block)) for k in _keys(c)]
    before = c.before if isinstance(c.before, list) else []
    after = c.after if isinstance(c.after, list) else []
    if nb.nesting is Nesting.SET:
        return [("", d) for d in _set_elements(c, lambda x: diff_block(x, nb.block))]
    pairs = _slice_pairs(before, after, lambda _: True)
    return [("", diff_block(c.child_index(b, a), nb.block)) for b, a in pairs]
