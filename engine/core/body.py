"""Decoding a configuration body with a provider schema into one object Value.

`decode_body(body, block, evaluate)` evaluates every argument of `body` (a resource's or
provider's remaining configuration) with `evaluate(expr, extra_roots)` and builds the object
of `block.implied_type()`: attributes converted to their types (missing ones null), nested
blocks gathered by their nesting mode, `dynamic` blocks expanded from their `for_each` with
the iterator variable (`<label>.key` / `<label>.value`, or the `iterator` name). Marks (for
example sensitive) on argument values are kept. Errors are terraform's: "Unsupported
argument", "Unsupported block type", "Missing required argument", "Incorrect attribute value
type", "Too many ... blocks".
"""

from __future__ import annotations

from collections.abc import Callable

from engine.diags import Diagnostics, error
from engine.hcl.ast import Block as AstBlock
from engine.hcl.ast import Body, Expr
from engine.plugin.paths import AttributePath
from engine.plugin.schema import Block, NestedBlock, Nesting, mark_paths
from engine.source import Range
from engine.values import DYNAMIC, Value, null, object_, unknown
from engine.values.convert import ConversionError, convert
from engine.values.types import ListType, MapType, ObjectType, SetType, TupleType

Evaluate = Callable[[Expr, dict[str, Value]], tuple[Value, Diagnostics]]

# Arguments and blocks of a resource body that are Terraform's, not the provider's.
RESOURCE_META = frozenset({"count", "for_each", "provider", "depends_on"})
RESOURCE_META_BLOCKS = frozenset({"lifecycle", "connection", "provisioner", "locals"})


def decode_body(
    body: Body,
    block: Block,
    evaluate: Evaluate,
    extra: dict[str, Value] | None = None,
    skip_attrs: frozenset[str] = RESOURCE_META,
    skip_blocks: frozenset[str] = RESOURCE_META_BLOCKS,
    subject: Range | None = None,
) -> tuple[Value, Diagnostics]:
    """The object `body` describes under `block` (see the module docstring)."""
    diags = Diagnostics()
    roots = dict(extra or {})
    out: dict[str, Value] = {}
    for name, attr in body.attributes.items():
        if name in skip_attrs:
            continue
        schema_attr = block.attributes.get(name)
        if schema_attr is None:
            if name in block.block_types:
                diags.append(error(
                    "Unsupported argument",
                    f'An argument named "{name}" is not expected here. Did you mean to define '
                    f'a block of type "{name}"?', attr.name_range))
            else:
                diags.append(error(
                    "Unsupported argument",
                    f'An argument named "{name}" is not expected here.', attr.name_range))
            continue
        val, more = evaluate(attr.expr, roots)
        diags.extend(more)
        if more.has_errors:
            out[name] = unknown(schema_attr.implied_type())
            continue
        want = schema_attr.spec_type()
        plain, marks = val.unmark_deep()
        try:
            conv = convert(plain, want)
        except ConversionError as exc:
            diags.append(error(
                "Incorrect attribute value type",
                f'Inappropriate value for attribute "{name}": {exc.message}.', attr.expr.range))
            out[name] = unknown(schema_attr.implied_type())
            continue
        out[name] = _remark(val, conv) if marks else conv
    for name, schema_attr in block.attributes.items():
        if name in out:
            continue
        if schema_attr.required:
            diags.append(error(
                "Missing required argument",
                f'The argument "{name}" is required, but no definition was found.',
                subject or body.end_range))
        out[name] = null(schema_attr.implied_type())
    grouped: dict[str, list[tuple[Value, AstBlock]]] = {n: [] for n in block.block_types}
    for blk in body.blocks:
        if blk.type in skip_blocks:
            continue
        if blk.type == "dynamic" and blk.labels:
            label = blk.labels[0]
            nb = block.block_types.get(label)
            if nb is None:
                diags.append(error(
                    "Unsupported block type",
                    f'Blocks of type "{label}" are not expected here.', blk.def_range))
                continue
            diags.extend(_expand_dynamic(blk, nb, evaluate, roots, grouped[label]))
            continue
        nb = block.block_types.get(blk.type)
        if nb is None:
            diags.append(error(
                "Unsupported block type",
                f'Blocks of type "{blk.type}" are not expected here.', blk.type_range))
            continue
        val, more = decode_body(blk.body, nb.block, evaluate, roots, frozenset(), frozenset(),
                                blk.def_range)
        diags.extend(more)
        grouped[blk.type].append((_with_key(val, blk), blk))
    for name, nb in block.block_types.items():
        val, more = _collect(name, nb, grouped[name], subject or body.end_range)
        diags.extend(more)
        out[name] = val
    ordered = dict(sorted(out.items()))
    return Value(ObjectType({k: v.type for k, v in ordered.items()}), ordered), diags


def _paths(value: Value, path: AttributePath, out: list[tuple[AttributePath, frozenset[str]]]
           ) -> None:
    if value.marks:
        out.append((path, value.marks))
    v = value.v
    if isinstance(v, dict):
        for k, e in v.items():
            _paths(e, path.attr(k) if isinstance(value.type, ObjectType) else path.index(k), out)
    elif isinstance(v, list):
        for i, e in enumerate(v):
            _paths(e, path.index(e if isinstance(value.type, SetType) else i), out)


def _remark(original: Value, converted: Value) -> Value:
    """`converted` (of the unmarked `original`) with `original`'s marks at the same paths."""
    found: list[tuple[AttributePath, frozenset[str]]] = []
    _paths(original, AttributePath.root(), found)
    for path, marks in found:
        for m in marks:
            converted = mark_paths(converted, [path], m) if path.steps else converted.mark(m)
    return converted


_KEY_ATTR = "\x00key"


def _with_key(val: Value, blk: AstBlock) -> Value:
    if blk.labels:
        return Value(val.type, dict(val.v) | {_KEY_ATTR: Value(DYNAMIC, blk.labels[0])})
    return val


def _strip_key(val: Value) -> tuple[str | None, Value]:
    if isinstance(val.v, dict) and _KEY_ATTR in val.v:
        d = dict(val.v)
        key = d.pop(_KEY_ATTR).v
        return str(key), Value(ObjectType({k: e.type for k, e in d.items()}), d)
    return None, val


def _expand_dynamic(
    blk: AstBlock,
    nb: NestedBlock,
    evaluate: Evaluate,
    roots: dict[str, Value],
    into: list[tuple[Value, AstBlock]],
) -> Diagnostics:
    diags = Diagnostics()
    label = blk.labels[0]
    fe = blk.body.attributes.get("for_each")
    if fe is None:
        diags.append(error("Missing required argument",
                           'The argument "for_each" is required, but no definition was found.',
                           blk.def_range))
        return diags
    iterator = label
    it_attr = blk.body.attributes.get("iterator")
    if it_attr is not None:
        from engine.configs.exprs import abs_traversal

        trav, _ = abs_traversal(it_attr.expr)
        if trav:
            iterator = getattr(trav[0], "name", label)
    coll, more = evaluate(fe.expr, roots)
    diags.extend(more)
    if more.has_errors:
        return diags
    plain, _ = coll.unmark_deep()
    if not plain.is_known:
        into.append((unknown(nb.block.implied_type()), blk))
        return diags
    if plain.is_null:
        diags.append(error("Invalid dynamic for_each value",
                           "Cannot use a null value in for_each.", fe.expr.range))
        return diags
    content = next((b for b in blk.body.blocks if b.type == "content"), None)
    if content is None:
        return diags
    pairs: list[tuple[Value, Value]] = []
    if isinstance(coll.v, dict):
        from engine.values import string

        pairs = [(string(k), e) for k, e in coll.v.items()]
    elif isinstance(coll.v, list):
        from engine.values import number

        if isinstance(coll.type, SetType):
            pairs = [(e, e) for e in coll.v]
        else:
            pairs = [(number(i), e) for i, e in enumerate(coll.v)]
    else:
        diags.append(error("Invalid dynamic for_each value",
                           f"Cannot use a {coll.type.friendly_name()} value in for_each. An "
                           "iterable collection is required.", fe.expr.range))
        return diags
    labels_attr = blk.body.attributes.get("labels")
    for k, v in pairs:
        scoped = dict(roots)
        scoped[iterator] = object_({"key": k, "value": v})
        val, more = decode_body(content.body, nb.block, evaluate, scoped, frozenset(),
                                frozenset(), content.def_range)
        diags.extend(more)
        if labels_attr is not None:
            lv, more = evaluate(labels_attr.expr, scoped)
            diags.extend(more)
            if isinstance(lv.v, list) and lv.v:
                val = Value(val.type, dict(val.v) | {_KEY_ATTR: Value(DYNAMIC, lv.v[0].v)})
        into.append((val, blk))
    return diags


def _collect(
    name: str, nb: NestedBlock, items: list[tuple[Value, AstBlock]], subject: Range
) -> tuple[Value, Diagnostics]:
    diags = Diagnostics()
    t = nb.implied_type()
    n = len(items)
    if nb.max_items and n > nb.max_items:
        diags.append(error(
            f'Too many {name} blocks',
            f"No more than {nb.max_items} \"{name}\" blocks are allowed", items[nb.max_items][1].def_range))
    if nb.min_items and n < nb.min_items:
        diags.append(error(
            f"Insufficient {name} blocks",
            f"At least {nb.min_items} \"{name}\" blocks are required.", subject))
    if nb.nesting in (Nesting.SINGLE, Nesting.GROUP):
        if n > 1:
            diags.append(error(
                "Duplicate " + name + " block",
                f'Only one "{name}" block is allowed. Another was defined earlier.',
                items[1][1].def_range))
        if not items:
            return (null(t) if nb.nesting is Nesting.SINGLE else nb.block.empty_value()), diags
        return _strip_key(items[0][0])[1], diags
    values = [_strip_key(v) for v, _ in items]
    if nb.nesting is Nesting.MAP:
        entries = {k or "": v for k, v in values}
        if isinstance(t, MapType):
            return Value(t, dict(sorted(entries.items()))), diags
        return Value(ObjectType({k: v.type for k, v in entries.items()}), entries), diags
    elems = [v for _, v in values]
    if nb.nesting is Nesting.SET:
        from engine.values.sets import canonical_set_elements

        return Value(t, canonical_set_elements(elems)), diags
    if isinstance(t, ListType):
        return Value(t, elems), diags
    return Value(TupleType(e.type for e in elems), elems), diags
