"""YAML for `yamldecode`/`yamlencode`, as go-cty-yaml (Terraform's YAML library) does it.

Decoding reads one document with YAML 1.1 scalar resolution (yes/no/on/off are booleans,
timestamps become RFC 3339 strings, `0x`/`0o` integers), mappings become objects, sequences
tuples; anchors, aliases and `<<` merge keys work. Encoding writes go-yaml v3's block style:
keys and single-line strings double-quoted, multi-line strings literal (`|`), empty
collections in flow style.
"""

from __future__ import annotations

import base64
import re
from datetime import datetime
from typing import Any

import yaml
from yaml import events as ev

from engine.values import (
    BOOL,
    DYNAMIC,
    NUMBER,
    STRING,
    Value,
    boolean,
    null,
    object_,
    string,
    tuple_,
)

STR_TAG = "tag:yaml.org,2002:str"
INT_TAG = "tag:yaml.org,2002:int"
FLOAT_TAG = "tag:yaml.org,2002:float"
BOOL_TAG = "tag:yaml.org,2002:bool"
NULL_TAG = "tag:yaml.org,2002:null"
TIMESTAMP_TAG = "tag:yaml.org,2002:timestamp"
BINARY_TAG = "tag:yaml.org,2002:binary"
MAP_TAG = "tag:yaml.org,2002:map"
SEQ_TAG = "tag:yaml.org,2002:seq"
_RESOLVABLE = {"", STR_TAG, BOOL_TAG, INT_TAG, FLOAT_TAG, NULL_TAG, TIMESTAMP_TAG, BINARY_TAG}

_SPECIAL: dict[str, Value] = {}
for _words, _val in (
    (("y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON"), boolean(True)),
    (("n", "N", "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF"), boolean(False)),
    (("", "~", "null", "Null", "NULL"), null(DYNAMIC)),
):
    for _w in _words:
        _SPECIAL[_w] = _val
_INFINITIES = {".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF", "-.inf", "-.Inf", "-.INF"}
_HINT_CHARS = set("+-0123456789yYnNtTfFoO~.")
_TIMESTAMP = re.compile(
    r"(\d{4})-(\d{1,2})-(\d{1,2})"
    r"(?:(?:[Tt](\d{1,2}):(\d{1,2}):(\d{1,2})(?:\.\d{1,9})?(Z|[+-]\d{2}:\d{2}))"
    r"|(?: (\d{1,2}):(\d{1,2}):(\d{1,2})(?:\.\d{1,9})?))?"
)


def _try_number(src: str) -> Value | None:
    from engine.values.numbers import parse_number

    if not re.fullmatch(r"[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?", src):
        return None
    try:
        return Value(NUMBER, parse_number(src.lstrip("+")))
    except (ValueError, ArithmeticError):
        return None


def _timestamp(src: str) -> str | None:
    """The RFC 3339 form of a YAML timestamp, or None when `src` is not one."""
    m = _TIMESTAMP.fullmatch(src)
    if m is None:
        return None
    y, mo, d = int(m[1]), int(m[2]), int(m[3])
    if m[4] is not None:
        h, mi, s, tz = int(m[4]), int(m[5]), int(m[6]), m[7]
    elif m[8] is not None:
        h, mi, s, tz = int(m[8]), int(m[9]), int(m[10]), "Z"
    else:
        h, mi, s, tz = 0, 0, 0, "Z"
    try:
        datetime(y, mo, d, h, mi, s)
    except ValueError:
        return None
    return f"{y:04d}-{mo:02d}-{d:02d}T{h:02d}:{mi:02d}:{s:02d}{tz}"


def resolve_scalar(tag: str, src: str, plain: bool) -> Value:
    """The value of one scalar: its explicit `tag` ("" when none) and source text."""
    if not plain and tag in ("", "!"):
        return string(src)
    if tag not in _RESOLVABLE:
        raise ValueError(f'unsupported tag "{tag}"')
    hint = src[0] in _HINT_CHARS if src else True
    if hint and tag not in (STR_TAG, BINARY_TAG) and plain:
        if src in _SPECIAL:
            return _SPECIAL[src]
        if src in (".nan", ".NaN", ".NAN"):
            raise ValueError("floating point NaN is not supported")
        if src in _INFINITIES:
            return Value(NUMBER, float("-inf") if src.startswith("-") else float("inf"))
        if tag in ("", TIMESTAMP_TAG):
            ts = _timestamp(src)
            if ts is not None:
                return string(ts)
        num = _try_number(src)
        if num is not None:
            return num
        if re.fullmatch(r"0x[0-9a-fA-F]+", src) and int(src, 16) < 2**64:
            return Value(NUMBER, int(src, 16))
        if re.fullmatch(r"0o[0-7]+", src) and int(src[2:], 8) < 2**64:
            return Value(NUMBER, int(src[2:], 8))
    if tag in ("", STR_TAG):
        return string(src)
    if tag == BINARY_TAG:
        try:
            base64.b64decode(src, validate=True)
        except ValueError:
            raise ValueError(f'cannot parse "{src}" as {tag}: not valid base64') from None
        return string(src)
    if tag == BOOL_TAG:
        v = _SPECIAL.get(src)
        if v is None or v.type != BOOL:
            raise ValueError(f'cannot parse "{src}" as {tag}')
        return v
    if tag in (INT_TAG, FLOAT_TAG):
        num = _try_number(src.replace("_", ""))
        if num is not None:
            return num
        for base, prefix in ((16, "0x"), (8, "0o"), (2, "0b")):
            body = src.replace("_", "")
            neg = body.startswith("-")
            body = body.lstrip("+-")
            if body.startswith(prefix):
                try:
                    n = int(body[2:], base)
                except ValueError:
                    break
                return Value(NUMBER, -n if neg else n)
        raise ValueError(f'cannot parse "{src}" as {tag}')
    if tag == TIMESTAMP_TAG:
        ts = _timestamp(src)
        if ts is None:
            raise ValueError(f'cannot parse "{src}" as {tag}')
        return string(ts)
    return null(DYNAMIC)


def _pos(event: Any) -> str:
    mark = event.start_mark
    return f"on line {mark.line + 1}, column {mark.column + 1}: "


class _Decoder:
    def __init__(self, src: str) -> None:
        self.events = iter(yaml.parse(src))
        self.anchors: dict[str, Value] = {}
        self.pending: set[str] = set()

    def next(self) -> Any:
        try:
            return next(self.events)
        except yaml.MarkedYAMLError as exc:
            mark = exc.problem_mark or exc.context_mark
            where = f"on line {mark.line + 1}, column {mark.column + 1}: " if mark else ""
            raise ValueError(f"{where}{exc.problem}") from None
        except StopIteration:
            raise ValueError("unexpected end of stream") from None

    def document(self) -> Value:
        self.next()  # stream start
        start = self.next()
        if not isinstance(start, ev.DocumentStartEvent):
            raise ValueError("on line 1, column 1: missing start of document")
        value = self.node(self.next())
        end = self.next()
        if not isinstance(end, ev.DocumentEndEvent):
            raise ValueError(_pos(end) + "unexpected extra content after value")
        after = self.next()
        if isinstance(after, ev.DocumentStartEvent):
            raise ValueError(_pos(start) + "unexpected extra content after value")
        if not isinstance(after, ev.StreamEndEvent):
            raise ValueError(_pos(after) + "unexpected extra content after value")
        return value

    def _done(self, anchor: str | None, value: Value) -> Value:
        if anchor:
            self.pending.discard(anchor)
            self.anchors[anchor] = value
        return value

    def node(self, event: Any) -> Value:
        if isinstance(event, ev.AliasEvent):
            name = event.anchor
            if name in self.pending:
                raise ValueError(f'cannot refer to anchor "{name}" from inside its own definition')
            if name not in self.anchors:
                raise ValueError(f'reference to undefined anchor "{name}"')
            return self.anchors[name]
        if event.anchor:
            self.pending.add(event.anchor)
        if isinstance(event, ev.ScalarEvent):
            plain = event.style in (None, "")
            return self._done(event.anchor, resolve_scalar(event.tag or "", event.value, plain))
        if isinstance(event, ev.SequenceStartEvent):
            if event.tag not in (None, "!", SEQ_TAG):
                raise ValueError(_pos(event) + f"can't interpret sequence as {event.tag}")
            items: list[Value] = []
            while True:
                nxt = self.next()
                if isinstance(nxt, ev.SequenceEndEvent):
                    return self._done(event.anchor, tuple_(items))
                items.append(self.node(nxt))
        if isinstance(event, ev.MappingStartEvent):
            return self._done(event.anchor, self.mapping(event))
        raise ValueError(_pos(event) + "expecting value but found end of stream")

    def mapping(self, event: Any) -> Value:
        if event.tag not in (None, "!", MAP_TAG):
            raise ValueError(_pos(event) + f"can't interpret mapping as {event.tag}")
        explicit: dict[str, Value] = {}
        merged: dict[str, Value] = {}
        while True:
            key_ev = self.next()
            if isinstance(key_ev, ev.MappingEndEvent):
                return object_({**merged, **explicit})
            if not isinstance(key_ev, ev.ScalarEvent):
                raise ValueError("only strings are allowed as mapping keys")
            plain = key_ev.style in (None, "")
            if plain and key_ev.value == "<<" and not key_ev.tag:
                src = self.node(self.next())
                sources = src.v if isinstance(src.v, list) and src.type != DYNAMIC else [src]
                for s in sources:
                    if not isinstance(s.v, dict):
                        raise ValueError("map merge requires map or sequence of maps as the value")
                    for k, v in s.v.items():
                        merged.setdefault(k, v)
                continue
            key = resolve_scalar(key_ev.tag or "", key_ev.value, plain)
            if key.v is None:
                raise ValueError("mapping key cannot be null")
            explicit[_key_string(key)] = self.node(self.next())


def _key_string(key: Value) -> str:
    if key.type == STRING:
        return str(key.v)
    if key.type == BOOL:
        return "true" if key.v else "false"
    from engine.values.numbers import format_number

    return format_number(key.v)


def yaml_decode(src: str) -> Value:
    """Decode one YAML document; raises ValueError with go-cty-yaml's message on failure."""
    return _Decoder(src or "\n").document()


# ----------------------------------------------------------------------------- encode
def _scalar(text: str, quoted: bool) -> Any:
    if quoted:
        style = "|" if "\n" in text else '"'
        return ev.ScalarEvent(None, None, (False, True), text, style=style)
    return ev.ScalarEvent(None, None, (True, False), text, style=None)


def _events(v: Value, out: list[Any]) -> None:
    from engine.values.numbers import format_number

    if v.v is None:
        out.append(_scalar("null", False))
    elif v.type == STRING:
        out.append(_scalar(v.v, True))
    elif v.type == NUMBER:
        out.append(_scalar(format_number(v.v), False))
    elif v.type == BOOL:
        out.append(_scalar("true" if v.v else "false", False))
    elif isinstance(v.v, list):
        out.append(ev.SequenceStartEvent(None, None, True, flow_style=not v.v))
        for e in v.v:
            _events(e, out)
        out.append(ev.SequenceEndEvent())
    elif isinstance(v.v, dict):
        out.append(ev.MappingStartEvent(None, None, True, flow_style=not v.v))
        for k in sorted(v.v):
            out.append(_scalar(k, True))
            _events(v.v[k], out)
        out.append(ev.MappingEndEvent())
    else:
        raise ValueError(f"cannot encode {v.type.friendly_name()} as YAML")


_DQ_ESCAPES = {
    "\0": "0", "\x07": "a", "\b": "b", "\t": "t", "\n": "n", "\x0b": "v", "\f": "f",
    "\r": "r", "\x1b": "e", '"': '"', "\\": "\\", "\x85": "N", "\xa0": "_",
    "\u2028": "L", "\u2029": "P",
}


def _printable(ch: str) -> bool:
    """libyaml's IS_PRINTABLE: no C1 controls and nothing outside the Basic Multilingual Plane."""
    o = ord(ch)
    return (
        o == 0x0A
        or 0x20 <= o <= 0x7E
        or 0xA0 <= o <= 0xD7FF
        or (0xE000 <= o <= 0xFFFD and o != 0xFEFF)
    )


class _Dumper(yaml.Dumper):
    """PyYAML's emitter with libyaml's (go-yaml's) double-quoted folding and simple keys."""

    def analyze_scalar(self, scalar: str) -> Any:
        analysis = super().analyze_scalar(scalar)
        if any(not _printable(ch) for ch in scalar):
            analysis.allow_flow_plain = analysis.allow_block_plain = False
            analysis.allow_single_quoted = analysis.allow_block = False
        return analysis

    def check_empty_document(self) -> bool:
        # libyaml never treats a document as empty, so a root "" gets no "---" marker
        return False

    def check_simple_key(self) -> bool:
        if isinstance(self.event, ev.ScalarEvent) and self.event.value == "":
            return True
        return bool(super().check_simple_key())

    def write_literal(self, text: str) -> None:
        # go-yaml does not end the document with "..." after a keep-chomped (|+) literal
        open_ended = self.open_ended  # type: ignore[has-type]
        super().write_literal(text)
        self.open_ended = open_ended

    def write_double_quoted(self, text: str, split: bool = True) -> None:
        self.write_indicator('"', True)
        spaces = False
        n = len(text)
        for i, ch in enumerate(text):
            if not _printable(ch) or ch in '"\\' or ch in "\n\x85\u2028\u2029\ufeff":
                code = _DQ_ESCAPES.get(ch)
                if code is None:
                    o = ord(ch)
                    if o <= 0xFF:
                        code = f"x{o:02X}"
                    elif o <= 0xFFFF:
                        code = f"u{o:04X}"
                    else:
                        code = f"U{o:08X}"
                self._put("\\" + code)
                spaces = False
            elif ch == " ":
                if split and not spaces and self.column > self.best_width and 0 < i < n - 1:
                    self.write_indent()
                    if text[i + 1] == " ":
                        self._put("\\")
                else:
                    self._put(ch)
                spaces = True
            else:
                self._put(ch)
                spaces = False
        self.write_indicator('"', False)

    def _put(self, data: str) -> None:
        self.column += len(data)
        self.whitespace = False
        self.indention = False
        self.stream.write(data)


def yaml_encode(v: Value) -> str:
    """The YAML document for the known, unmarked value `v`, as Terraform's yamlencode writes it."""
    out: list[Any] = [ev.StreamStartEvent(), ev.DocumentStartEvent(explicit=False)]
    _events(v, out)
    out += [ev.DocumentEndEvent(explicit=False), ev.StreamEndEvent()]
    text = yaml.emit(out, Dumper=_Dumper, allow_unicode=True, width=80, indent=2)
    return str(text)

