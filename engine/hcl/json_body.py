"""Bodies and blocks of HCL's JSON syntax: the parts of hashicorp/hcl's json/structure.go
that need no schema.

A JSON body is made of one JSON value: an object (its properties), an array of objects
(their properties, in order), `null` (nothing), or anything else (an error when the body is
decoded). `deep_attrs` lists the properties as HCL's `collectDeepAttrs` does, with its
diagnostics; `attribute_as_blocks` reads a property as blocks with labels as `unpackBlock`
does; `just_attributes` is `JustAttributes`. Property names are never templates.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.diags import Diagnostic, Diagnostics, error
from engine.hcl.ast import (
    Attribute,
    Block,
    Body,
    Expr,
    LiteralValueExpr,
    ObjectConsExpr,
    ObjectConsKeyExpr,
    TupleConsExpr,
)
from engine.source import Range

__all__ = ["attribute_as_blocks", "body_of", "deep_attrs", "just_attributes", "missing_item_range"]


def _key_name(key: ObjectConsKeyExpr) -> str:
    wrapped = key.wrapped
    assert isinstance(wrapped, LiteralValueExpr)
    name: str = wrapped.value.v
    return name


def _is_null(expr: Expr) -> bool:
    return isinstance(expr, LiteralValueExpr) and expr.value.is_null


def _start_range(expr: Expr) -> Range:
    if isinstance(expr, (ObjectConsExpr, TupleConsExpr)):
        return expr.open_range
    return expr.range


def missing_item_range(value: Expr) -> Range:
    """hcl's MissingItemRange of a JSON body: an object's closing brace, an array's
    opening bracket, else where the value starts."""
    if isinstance(value, ObjectConsExpr):
        rng = value.range
        if rng.end_offset > rng.start_offset:
            return Range(rng.file, rng.end_offset - 1, rng.end_offset)
        return rng
    return _start_range(value)


def _object_attrs(obj: ObjectConsExpr) -> list[Attribute]:
    out: list[Attribute] = []
    for item in obj.items:
        krng = item.key.range
        out.append(Attribute(_key_name(item.key), item.value, krng.to(item.value.range), krng, krng))
    return out


def _value_attrs(value: Expr, label: str | None, diags: list[Diagnostic]) -> list[Attribute]:
    """hcl's collectDeepAttrs: the properties of an object, or of each object of an array."""
    if isinstance(value, ObjectConsExpr):
        return _object_attrs(value)
    if _is_null(value):
        return []
    if isinstance(value, TupleConsExpr):
        attrs: list[Attribute] = []
        for elem in value.exprs:
            if isinstance(elem, ObjectConsExpr):
                attrs.extend(_object_attrs(elem))
            elif label is not None:
                diags.append(error(
                    "Incorrect JSON value type",
                    f"A JSON object is required here, to specify {label} labels for this block.",
                    _start_range(elem)))
            else:
                diags.append(error(
                    "Incorrect JSON value type",
                    "A JSON object is required here, to define arguments and child blocks.",
                    _start_range(elem)))
        return attrs
    if label is not None:
        detail = (f"Either a JSON object or JSON array of objects is required here, to specify "
                  f"{label} labels for this block.")
    else:
        detail = ("Either a JSON object or JSON array of objects is required here, to define "
                  "arguments and child blocks.")
    diags.append(error("Incorrect JSON value type", detail, _start_range(value)))
    return []


def body_of(value: Expr, end_range: Range | None = None) -> Body:
    """The body a JSON value makes (see the module docstring)."""
    attrs: dict[str, Attribute] = {}
    for attr in _value_attrs(value, None, []):
        attrs.setdefault(attr.name, attr)
    end = end_range if end_range is not None else missing_item_range(value)
    return Body(attrs, [], value.range, end, value)


def deep_attrs(body: Body) -> tuple[list[Attribute], Diagnostics]:
    """Every property of a JSON body in order (duplicates included; none that a partial
    decoding consumed), and hcl's diagnostics for a body value of the wrong shape."""
    if body.json_value is None:
        return list(body.attributes.values()), Diagnostics()
    diags: list[Diagnostic] = []
    attrs = _value_attrs(body.json_value, None, diags)
    if body.json_hidden:
        attrs = [a for a in attrs if a.name not in body.json_hidden]
    return attrs, Diagnostics(diags)


def hiding(body: Body, attrs: dict[str, Attribute], names: frozenset[str]) -> Body:
    """The rest of a JSON body once the properties `names` are consumed."""
    return Body(attrs, [], body.range, body.end_range, body.json_value, body.json_hidden | names)


def just_attributes(body: Body) -> tuple[dict[str, Attribute], Diagnostics]:
    """hcl's JustAttributes for a JSON body: an object's properties (but `//`), the first
    of each name, "Duplicate attribute definition" for the others."""
    diags = Diagnostics()
    value = body.json_value
    if value is None:
        attrs = dict(body.attributes)
        attrs.pop("//", None)
        return attrs, diags
    out: dict[str, Attribute] = {}
    if not isinstance(value, ObjectConsExpr):
        diags.append(error(
            "Incorrect JSON value type",
            "A JSON object is required here, setting the arguments for this block.",
            _start_range(value)))
        return out, diags
    for attr in _object_attrs(value):
        if attr.name == "//" or attr.name in body.json_hidden:
            continue
        existing = out.get(attr.name)
        if existing is not None:
            diags.append(error(
                "Duplicate attribute definition",
                f'The argument "{attr.name}" was already set at {existing.range}.',
                attr.name_range))
            continue
        out[attr.name] = attr
    return out, diags


def attribute_as_blocks(
    attr: Attribute, block_type: str, labels: int | Sequence[str]
) -> tuple[list[Block], Diagnostics]:
    """Read a JSON property as blocks of `block_type` with the given label names (or a
    number of labels), as hcl's unpackBlock: objects nest one level per label (their keys
    are the labels); at the innermost level an object is one block's body, an array one
    block per element, `null` no block."""
    names = [f"label{i}" for i in range(labels)] if isinstance(labels, int) else list(labels)
    diags: list[Diagnostic] = []
    blocks: list[Block] = []
    _unpack(attr.expr, block_type, attr.name_range, names, [], [], blocks, diags)
    return blocks, Diagnostics(diags)


def _unpack(
    value: Expr,
    block_type: str,
    type_range: Range,
    labels_left: list[str],
    labels: list[str],
    label_ranges: list[Range],
    out: list[Block],
    diags: list[Diagnostic],
) -> None:
    if labels_left:
        label = labels_left[0]
        props = _value_attrs(value, label, diags)
        if not props:
            diags.append(error(
                "Missing block label",
                f"At least one object property is required, whose name represents the "
                f"{block_type} block's {label}.",
                _start_range(value)))
            return
        for p in props:
            _unpack(p.expr, block_type, type_range, labels_left[1:], [*labels, p.name],
                    [*label_ranges, p.name_range], out, diags)
        return
    if _is_null(value):
        return
    if isinstance(value, ObjectConsExpr):
        out.append(_block(block_type, labels, value, type_range, label_ranges, value.open_range))
    elif isinstance(value, TupleConsExpr):
        for elem in value.exprs:
            out.append(_block(block_type, labels, elem, type_range, label_ranges, value.open_range))
    else:
        diags.append(error(
            "Incorrect JSON value type",
            f'Either a JSON object or a JSON array is required, representing the contents of '
            f'one or more "{block_type}" blocks.',
            _start_range(value)))


def _block(
    block_type: str, labels: list[str], value: Expr, type_range: Range,
    label_ranges: list[Range], def_range: Range,
) -> Block:
    body = body_of(value)
    return Block(block_type, list(labels), body, type_range, list(label_ranges), def_range,
                 body.end_range, json=True)
