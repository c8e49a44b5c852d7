"""Values on the wire of the plugin protocol: msgpack (and JSON) DynamicValues, as cty does.

`encode(value, type)` writes what cty's `msgpack.Marshal(value, type)` writes, and
`decode(data, type)` reads what `msgpack.Unmarshal(data, type)` reads, so a Terraform provider
sees exactly the bytes terraform would send it:

- null is msgpack nil; an unknown value (anywhere, any type) is the extension type 0 with one
  zero byte (`d4 00 00`), or, when it is refined (engine.values.refinement), cty's extension
  type 12 whose payload is a msgpack map of the refinements: 1 → is null (false: not null),
  2 → string prefix (at most 256 bytes), 3 / 4 → number lower / upper bound as
  `[number, inclusive]`, 5 / 6 → collection length lower / upper bound. Reading takes type 12
  back into a refined unknown (refinements that do not apply to the type are ignored, as is
  every refinement of a dynamic-typed unknown); any other extension value is a plain unknown.
- numbers: an integer that fits int64 is a msgpack int; otherwise a value exactly representable
  as a float64 (including ±infinity) is a float64; anything else is its exact decimal text
  (`big.Float.Text('f', -1)`) as a string. Reading accepts ints, floats and such strings.
- strings are msgpack str, bools are bool; lists, sets and tuples are arrays (sets in cty's
  canonical order); maps are maps with string keys; objects are maps of every attribute of the
  type (null ones included), keys in sorted order.
- where the type is DYNAMIC, a known non-null value is the pair `[type JSON as bin, value
  encoded by its own type]`; null and unknown are plain nil / unknown.

Marks (sensitivity) do not travel: `encode` ignores them and decoded values carry none; the core
re-applies what the schema marks sensitive. A known value that does not conform to the type
raises `CodecError` (the caller converts values to the schema type first).

`decode_json(data, type)` reads the JSON DynamicValue form (legacy providers and the state
file's `attributes`), as cty's ctyjson.Unmarshal: missing object attributes read as null.
`decode_dynamic_value(msgpack, json, type)` picks whichever form is present, and is null of the
type when both are empty, as terraform's decodeDynamicValue.
"""

from __future__ import annotations

import json
import math
from fractions import Fraction
from typing import Any

import msgpack

from engine.values import (
    BOOL,
    DYNAMIC,
    NUMBER,
    STRING,
    UNKNOWN,
    ListType,
    MapType,
    ObjectType,
    SetType,
    TupleType,
    Type,
    Value,
    canonical_set_elements,
    format_number,
    normalize,
    parse_number,
    type_from_json,
    value_from_json,
)
from engine.values.json import JSONError, loads
from engine.values.refinement import (
    MAX_LENGTH,
    RefinementError,
    refine,
    safe_known_prefix,
    value_range,
)

__all__ = [
    "REFINED_UNKNOWN_EXT_CODE",
    "UNKNOWN_EXT_CODE",
    "CodecError",
    "decode",
    "decode_dynamic_value",
    "decode_json",
    "encode",
    "encode_json",
]

UNKNOWN_EXT_CODE = 0
REFINED_UNKNOWN_EXT_CODE = 12
_NULLNESS, _PREFIX, _NUMBER_MIN, _NUMBER_MAX, _LENGTH_MIN, _LENGTH_MAX = 1, 2, 3, 4, 5, 6
_MAX_PREFIX_BYTES = 256
_UNKNOWN_BYTES = b"\xd4\x00\x00"
_INT64_MIN = -(1 << 63)
_INT64_MAX = (1 << 63) - 1


class CodecError(ValueError):
    """A value that does not fit its type, or bytes that are not a value of the type. The
    message names the path inside the value (`.tags["a"]: string required`)."""


class _UnknownMarker:
    """What msgpack's ext hook returns for an extension value: an unknown."""

    __slots__ = ()


_UNKNOWN_MARKER = _UnknownMarker()


class _RefinedMarker:
    """What the ext hook returns for a refined unknown: its refinement payload, unread."""

    __slots__ = ("data",)

    def __init__(self, data: bytes) -> None:
        self.data = data


# ------------------------------------------------------------------------------ encoding
def encode(value: Value, t: Type) -> bytes:
    """The msgpack bytes of `value` as a value of type `t` (cty msgpack.Marshal)."""
    out: list[bytes] = []
    packer = msgpack.Packer(use_bin_type=True)
    _encode(value, t, packer, out, "")
    return b"".join(out)


def _encode(v: Value, t: Type, p: msgpack.Packer, out: list[bytes], path: str) -> None:
    payload = v.v
    if payload is UNKNOWN:
        if v.refinement is None or t == DYNAMIC:
            out.append(_UNKNOWN_BYTES)
        else:
            out.append(_refined_unknown_bytes(v, t, p, path))
        return
    if payload is None:
        out.append(p.pack(None))
        return
    if t == DYNAMIC:
        vt = v.type
        if vt == DYNAMIC:
            raise CodecError(f"{path or 'value'}: a known value cannot have the dynamic type")
        out.append(p.pack_array_header(2))
        out.append(p.pack(json.dumps(vt.to_json(), separators=(",", ":")).encode()))
        _encode(v, vt, p, out, path)
        return
    if t == STRING:
        if not isinstance(payload, str):
            raise CodecError(f"{_where(path)}string required")
        out.append(p.pack(payload))
        return
    if t == BOOL:
        if not isinstance(payload, bool):
            raise CodecError(f"{_where(path)}bool required")
        out.append(p.pack(payload))
        return
    if t == NUMBER:
        out.append(p.pack(_wire_number(payload, path)))
        return
    if isinstance(t, (ListType, SetType)):
        if not isinstance(payload, list):
            raise CodecError(f"{_where(path)}{t.kind} required")
        out.append(p.pack_array_header(len(payload)))
        for i, e in enumerate(payload):
            _encode(e, t.element, p, out, f"{path}[{i}]")
        return
    if isinstance(t, TupleType):
        if not isinstance(payload, list) or len(payload) != len(t.elements):
            raise CodecError(f"{_where(path)}tuple of {len(t.elements)} elements required")
        out.append(p.pack_array_header(len(payload)))
        for i, (e, et) in enumerate(zip(payload, t.elements)):
            _encode(e, et, p, out, f"{path}[{i}]")
        return
    if isinstance(t, MapType):
        if not isinstance(payload, dict):
            raise CodecError(f"{_where(path)}map required")
        out.append(p.pack_map_header(len(payload)))
        for k in sorted(payload):
            out.append(p.pack(k))
            _encode(payload[k], t.element, p, out, f"{path}[{k!r}]")
        return
    if isinstance(t, ObjectType):
        if not isinstance(payload, dict):
            raise CodecError(f"{_where(path)}object required")
        extra = set(payload) - set(t.attrs)
        if extra:
            raise CodecError(f"{_where(path)}unsupported attribute {sorted(extra)[0]!r}")
        out.append(p.pack_map_header(len(t.attrs)))
        for k, at in t.attrs.items():  # ObjectType keeps its attributes sorted
            out.append(p.pack(k))
            attr = payload.get(k)
            if attr is None:
                raise CodecError(f"{_where(path)}attribute {k!r} is required")
            _encode(attr, at, p, out, f"{path}.{k}")
        return
    raise CodecError(f"{_where(path)}cannot encode a value of type {t!r}")


def _refined_unknown_bytes(v: Value, t: Type, p: msgpack.Packer, path: str) -> bytes:
    """cty's marshalUnknownValue: the refinements as the payload of extension type 12, or
    the plain unknown when none of them is worth sending."""
    rng = value_range(v)
    items: list[tuple[int, Any]] = []
    if rng.definitely_not_null():
        items.append((_NULLNESS, False))
    if t == STRING:
        prefix = rng.string_prefix()
        raw = prefix.encode()
        if len(raw) > _MAX_PREFIX_BYTES:
            prefix = safe_known_prefix(raw[:_MAX_PREFIX_BYTES].decode(errors="ignore"))
        if prefix:
            items.append((_PREFIX, prefix))
    elif t == NUMBER:
        lo, lo_inc = rng.number_lower_bound()
        if lo is not None:
            items.append((_NUMBER_MIN, [_wire_number(lo, path), lo_inc]))
        hi, hi_inc = rng.number_upper_bound()
        if hi is not None:
            items.append((_NUMBER_MAX, [_wire_number(hi, path), hi_inc]))
    elif isinstance(t, (ListType, SetType, MapType)):
        if rng.length_lower_bound() != 0:
            items.append((_LENGTH_MIN, rng.length_lower_bound()))
        if rng.length_upper_bound() != MAX_LENGTH:
            items.append((_LENGTH_MAX, rng.length_upper_bound()))
    if not items:
        return _UNKNOWN_BYTES
    body = p.pack(dict(items))
    return p.pack(msgpack.ExtType(REFINED_UNKNOWN_EXT_CODE, body))


def _wire_number(n: Any, path: str) -> int | float | str:
    """cty's choice: int64 if exact, else float64 if exact, else the decimal text."""
    if isinstance(n, bool) or not isinstance(n, (int, float, Fraction)):
        raise CodecError(f"{_where(path)}number required")
    if isinstance(n, float):
        return 0 if n == 0 else n  # -0 is the integer 0 as big.Float.Int64 reports it
    if isinstance(n, int) or n.denominator == 1:
        i = int(n)
        if _INT64_MIN <= i <= _INT64_MAX:
            return i
    try:
        f = float(n)
    except OverflowError:
        return format_number(n)
    if not math.isinf(f) and Fraction(f) == n:
        return f
    return format_number(n)


def _where(path: str) -> str:
    return f"{path}: " if path else ""


def encode_json(value: Value) -> bytes:
    """The JSON form of a wholly known value (ctyjson.Marshal with its own type), marks
    ignored; used where the protocol takes JSON (RawState.json)."""
    from engine.values import value_to_json
    from engine.values.json import dumps

    try:
        return dumps(value_to_json(value.unmark_deep()[0])).encode()
    except JSONError as e:
        raise CodecError(str(e)) from None


# ------------------------------------------------------------------------------ decoding
def _ext_hook(code: int, data: bytes) -> _UnknownMarker | _RefinedMarker:
    if code == REFINED_UNKNOWN_EXT_CODE:
        return _RefinedMarker(data)
    return _UNKNOWN_MARKER


def decode(data: bytes, t: Type) -> Value:
    """The value of type `t` in msgpack `data` (cty msgpack.Unmarshal)."""
    if not data:
        raise CodecError("EOF: no value in an empty msgpack buffer")
    try:
        raw = msgpack.unpackb(
            data, raw=False, ext_hook=_ext_hook, strict_map_key=False, use_list=True
        )
    except (msgpack.ExtraData, msgpack.FormatError, msgpack.StackError, ValueError) as e:
        raise CodecError(f"invalid msgpack: {e}") from None
    return _decode(raw, t, "")


def _decode(raw: Any, t: Type, path: str) -> Value:
    if raw is _UNKNOWN_MARKER:
        return Value(t, UNKNOWN)
    if isinstance(raw, _RefinedMarker):
        return _refined_unknown(raw.data, t, path)
    if raw is None:
        return Value(t, None)
    if t == DYNAMIC:
        if not isinstance(raw, list) or len(raw) != 2:
            raise CodecError(f"{_where(path)}dynamic value must be a [type, value] pair")
        tj = raw[0]
        if isinstance(tj, bytes):
            tj = tj.decode()
        if not isinstance(tj, str):
            raise CodecError(f"{_where(path)}dynamic value type must be JSON text")
        try:
            vt = type_from_json(json.loads(tj))
        except ValueError as e:
            raise CodecError(f"{_where(path)}invalid type {tj!r}: {e}") from None
        return _decode(raw[1], vt, path)
    if t == STRING:
        if isinstance(raw, bytes):
            raw = raw.decode("utf-8", errors="replace")
        if not isinstance(raw, str):
            raise CodecError(f"{_where(path)}string required")
        return Value(STRING, raw)
    if t == BOOL:
        if not isinstance(raw, bool):
            raise CodecError(f"{_where(path)}bool required")
        return Value(BOOL, raw)
    if t == NUMBER:
        return Value(NUMBER, _read_number(raw, path))
    if isinstance(t, (ListType, SetType, TupleType)):
        if not isinstance(raw, list):
            raise CodecError(f"{_where(path)}array required")
        if isinstance(t, TupleType):
            if len(raw) != len(t.elements):
                raise CodecError(f"{_where(path)}tuple of {len(t.elements)} elements required")
            items = [_decode(e, et, f"{path}[{i}]") for i, (e, et) in
                     enumerate(zip(raw, t.elements))]
            return Value(t, items)
        items = [_decode(e, t.element, f"{path}[{i}]") for i, e in enumerate(raw)]
        if isinstance(t, SetType):
            return Value(t, canonical_set_elements(items))
        return Value(t, items)
    if isinstance(t, MapType):
        if not isinstance(raw, dict):
            raise CodecError(f"{_where(path)}map required")
        return Value(t, {str(k): _decode(raw[k], t.element, f"{path}[{k!r}]")
                         for k in sorted(raw, key=str)})
    if isinstance(t, ObjectType):
        if not isinstance(raw, dict):
            raise CodecError(f"{_where(path)}object required")
        out: dict[str, Value] = {}
        for k, at in t.attrs.items():
            if k not in raw:
                raise CodecError(f"{_where(path)}missing attribute {k!r}")
            out[k] = _decode(raw[k], at, f"{path}.{k}")
        extra = set(raw) - set(t.attrs)
        if extra:
            raise CodecError(f"{_where(path)}unsupported attribute {sorted(map(str, extra))[0]!r}")
        return Value(t, out)
    raise CodecError(f"{_where(path)}cannot decode a value of type {t!r}")


def _refined_unknown(data: bytes, t: Type, path: str) -> Value:
    """The unknown of type `t` refined as the extension-12 payload `data` says (cty's
    unmarshalUnknownValue); keys it does not know are skipped."""
    try:
        refinements = msgpack.unpackb(data, raw=False, strict_map_key=False, use_list=True)
    except (msgpack.ExtraData, msgpack.FormatError, msgpack.StackError, ValueError) as e:
        raise CodecError(f"{_where(path)}invalid unknown value refinements: {e}") from None
    if not isinstance(refinements, dict):
        raise CodecError(f"{_where(path)}unknown value refinements must be a map")
    b = refine(Value(t, UNKNOWN))
    try:
        for key, val in refinements.items():
            if key == _NULLNESS:
                if not isinstance(val, bool):
                    raise CodecError(f"{_where(path)}nullness refinement must be a bool")
                b = b.null() if val else b.not_null()
            elif key == _PREFIX:
                if not isinstance(val, str):
                    raise CodecError(f"{_where(path)}prefix refinement must be a string")
                b = b.string_prefix_full(val)
            elif key in (_NUMBER_MIN, _NUMBER_MAX):
                if not (isinstance(val, list) and len(val) == 2 and isinstance(val[1], bool)):
                    raise CodecError(f"{_where(path)}number bound must be [number, inclusive]")
                n = _read_number(val[0], path)
                if key == _NUMBER_MIN:
                    b = b.number_lower_bound(n, val[1])
                else:
                    b = b.number_upper_bound(n, val[1])
            elif key in (_LENGTH_MIN, _LENGTH_MAX):
                if isinstance(val, bool) or not isinstance(val, int) or val < 0:
                    raise CodecError(f"{_where(path)}length bound must be a whole number")
                b = b.length_lower_bound(val) if key == _LENGTH_MIN else b.length_upper_bound(val)
    except RefinementError as e:
        raise CodecError(f"{_where(path)}invalid unknown value refinements: {e}") from None
    return b.new_value()


def _read_number(raw: Any, path: str) -> Any:
    if isinstance(raw, bool):
        raise CodecError(f"{_where(path)}number required")
    if isinstance(raw, int):
        return normalize(raw)
    if isinstance(raw, float):
        if math.isnan(raw):
            raise CodecError(f"{_where(path)}NaN is not a number")
        return normalize(raw)
    if isinstance(raw, bytes):
        raw = raw.decode("ascii", errors="replace")
    if isinstance(raw, str):
        try:
            return parse_number(raw)
        except ValueError:
            raise CodecError(f"{_where(path)}invalid number {raw!r}") from None
    raise CodecError(f"{_where(path)}number required")


def decode_json(data: bytes | str, t: Type) -> Value:
    """The value of type `t` in JSON `data` (ctyjson.Unmarshal); missing attributes are null."""
    text = data.decode() if isinstance(data, bytes) else data
    try:
        return value_from_json(loads(text), t)
    except (JSONError, ValueError) as e:
        raise CodecError(str(e)) from None


def decode_dynamic_value(msgpack_data: bytes, json_data: bytes, t: Type) -> Value:
    """A DynamicValue's value: msgpack if present, else JSON, else null of `t`."""
    if msgpack_data:
        return decode(msgpack_data, t)
    if json_data:
        return decode_json(json_data, t)
    return Value(t, None)
