"""Built-in functions: encoding and decoding (base64, gzip, JSON, CSV, URL, IANA text, YAML).

Each behaves as Terraform 1.11's function of the same name: same parameter names, result types,
error texts and handling of unknown, null and sensitive arguments. JSON output follows Go's
`encoding/json` (keys sorted, compact, HTML-safe escapes); YAML lives in `yaml_codec`.
"""

from __future__ import annotations

import base64
import gzip
import json
import struct
import urllib.parse
import zlib
from collections.abc import Iterator, Sequence

from engine.gocompat.json import quote as json_quote
from engine.gocompat.strconv import quote as go_quote
from engine.lang.functions.base import Function, FunctionError, Param, refine_results, static_return
from engine.lang.functions.goflate import go_deflate
from engine.lang.functions.textcodecs import lookup_encoding
from engine.lang.functions.yaml_codec import yaml_decode, yaml_encode
from engine.values import (
    BOOL,
    DYNAMIC,
    NUMBER,
    STRING,
    ListType,
    ObjectType,
    Type,
    Value,
    list_,
    null,
    string,
    unknown,
)
from engine.values.value import SENSITIVE

REDACTED = "(sensitive value)"


def redact(text: str, marks: frozenset[str]) -> str:
    """`text` quoted as Go's %q would, or Terraform's placeholder when `marks` is sensitive."""
    return REDACTED if SENSITIVE in marks else go_quote(text)


# ----------------------------------------------------------------------------- base64
_B64 = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")


def go_base64_error_offset(s: str) -> int | None:
    """Where Go's `base64.StdEncoding` would report a CorruptInputError in `s`, or None if valid.

    Go skips `\\r` and `\\n` anywhere, requires padding, and rejects anything after it.
    """
    n = len(s)
    si = 0
    while si < n:
        j = 0
        while j < 4:
            if si == n:
                if j == 0:
                    return None
                return si - j
            ch = s[si]
            si += 1
            if ch in "\r\n":
                continue
            if ch == "=":
                if j in (0, 1):
                    return si - 1
                if j == 2:
                    while si < n and s[si] in "\r\n":
                        si += 1
                    if si == n:
                        return n
                    if s[si] != "=":
                        return si - 1
                    si += 1
                while si < n and s[si] in "\r\n":
                    si += 1
                if si < n:
                    return si
                return None
            if ch not in _B64:
                return si - 1
            j += 1
    return None


def go_base64_decode(s: str) -> bytes | None:
    """Decode `s` as Go's standard base64 decoder does; None when it is not valid."""
    if go_base64_error_offset(s) is not None:
        return None
    return base64.b64decode(s.replace("\r", "").replace("\n", ""))


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def _base64decode(args: Sequence[Value], ret: Type) -> Value:
    val, marks = args[0].unmark()
    if not val.is_known:
        return unknown(STRING).with_marks(marks)
    s: str = val.v
    raw = go_base64_decode(s)
    if raw is None:
        raise FunctionError(f"failed to decode base64 data {redact(s, marks)}")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise FunctionError(
            "the result of decoding the provided string is not valid UTF-8"
        ) from None
    return string(text).with_marks(marks)


def _base64encode(args: Sequence[Value], ret: Type) -> Value:
    return string(_b64(args[0].v.encode("utf-8")))


def gzip_go(data: bytes) -> bytes:
    """gzip `data` exactly as Go's `gzip.Writer` does after Write, Flush and Close.

    Header: no name, mtime 0, OS byte 255; the DEFLATE body is Go's own (see `goflate`).
    """
    body = go_deflate(data)
    header = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff"
    trailer = struct.pack("<II", zlib.crc32(data) & 0xFFFFFFFF, len(data) & 0xFFFFFFFF)
    return header + body + trailer


def _base64gzip(args: Sequence[Value], ret: Type) -> Value:
    out = gzip_go(args[0].v.encode("utf-8"))
    assert gzip.decompress(out) == args[0].v.encode("utf-8")
    return string(_b64(out))


def _urlencode(args: Sequence[Value], ret: Type) -> Value:
    return string(urllib.parse.quote_plus(args[0].v.encode("utf-8"), safe=""))


# ------------------------------------------------------------------------ IANA text
def _unsupported_encoding(name: str) -> FunctionError:
    return FunctionError(
        f"{go_quote(name)} is not a supported IANA encoding name or alias in this Terraform version",
        1,
    )


def _textencodebase64(args: Sequence[Value], ret: Type) -> Value:
    enc = lookup_encoding(args[1].v)
    if enc is None:
        raise _unsupported_encoding(args[1].v)
    try:
        data = enc.encode(args[0].v)
    except UnicodeError:
        raise FunctionError(
            f"the given string contains characters that cannot be represented in {enc.name}", 0
        ) from None
    return string(_b64(data))


def _textdecodebase64(args: Sequence[Value], ret: Type) -> Value:
    enc = lookup_encoding(args[1].v)
    if enc is None:
        raise _unsupported_encoding(args[1].v)
    s: str = args[0].v
    offset = go_base64_error_offset(s)
    if offset is not None:
        raise FunctionError(
            f"the given value is has an invalid base64 symbol at offset {offset}", 0
        )
    raw = base64.b64decode(s.replace("\r", "").replace("\n", ""))
    text = enc.decode(raw)
    if text is None or "\ufffd" in text:
        raise FunctionError(f"the given string contains symbols that are not defined for {enc.name}", 0)
    return string(text)


# ----------------------------------------------------------------------------- JSON
def json_encode_value(v: Value, out: list[str]) -> None:
    """Append cty's JSON serialization of the known, unmarked value `v` to `out`."""
    from engine.values.numbers import format_number

    if v.v is None:
        out.append("null")
        return
    t = v.type
    if t == STRING:
        out.append(json_quote(v.v))
    elif t == NUMBER:
        out.append(format_number(v.v))
    elif isinstance(v.v, bool):
        out.append("true" if v.v else "false")
    elif isinstance(v.v, list):
        out.append("[")
        for i, e in enumerate(v.v):
            if i:
                out.append(",")
            json_encode_value(e, out)
        out.append("]")
    elif isinstance(v.v, dict):
        out.append("{")
        for i, k in enumerate(sorted(v.v)):
            if i:
                out.append(",")
            out.append(json_quote(k))
            out.append(":")
            json_encode_value(v.v[k], out)
        out.append("}")
    else:
        raise FunctionError(f"cannot serialize {t.friendly_name()} as JSON")


def _jsonencode(args: Sequence[Value], ret: Type) -> Value:
    val, marks = args[0].unmark_deep()
    if not val.is_wholly_known():
        return unknown(STRING).with_marks(marks)
    out: list[str] = []
    json_encode_value(val, out)
    return string("".join(out)).with_marks(marks)


class _JSONNumber(str):
    """A JSON number's source text, kept exact until it becomes a cty number."""


def _go_char(ch: str) -> str:
    if ch == "'":
        return "'\\''"
    if ch == "\n":
        return "'\\n'"
    if ch == "\t":
        return "'\\t'"
    if ch == "\r":
        return "'\\r'"
    return f"'{ch}'"


def _json_container_at(doc: str, pos: int) -> str:
    """The innermost open bracket ('[' or '{') before `pos`, ignoring string contents."""
    stack: list[str] = []
    in_str = False
    i = 0
    while i < pos:
        c = doc[i]
        if in_str:
            if c == "\\":
                i += 1
            elif c == '"':
                in_str = False
        elif c == '"':
            in_str = True
        elif c in "[{":
            stack.append(c)
        elif c in "]}" and stack:
            stack.pop()
        i += 1
    return stack[-1] if stack else ""


def _json_error(doc: str, exc: json.JSONDecodeError) -> str:
    """Go's `encoding/json` message for the syntax error Python found."""
    pos = exc.pos
    msg = exc.msg
    if not doc.strip():
        return "EOF"
    if pos >= len(doc):
        return "EOF" if msg.startswith("Expecting value") else "unexpected EOF"
    ch = doc[pos]
    if msg.startswith("Extra data"):
        return "extraneous data after JSON object"
    if msg.startswith("Unterminated string"):
        return "unexpected EOF"
    if msg.startswith("Invalid control character"):
        return f"invalid character {_go_char(ch)} in string literal"
    if msg.startswith("Invalid \\escape") or msg.startswith("Invalid \\u"):
        return f"invalid character {_go_char(doc[pos + 1] if pos + 1 < len(doc) else ch)} in string escape code"
    if msg.startswith("Expecting ':'"):
        return f"invalid character {_go_char(ch)} after object key"
    if msg.startswith("Expecting ','"):
        if _json_container_at(doc, pos) == "[":
            return f"invalid character {_go_char(ch)} after array element"
        return f"invalid character {_go_char(ch)} after object key:value pair"
    if msg.startswith("Expecting property name"):
        return f"invalid character {_go_char(ch)} looking for beginning of object key string"
    for word in ("true", "false", "null"):
        if doc.startswith(word[0], pos):
            for k, expect in enumerate(word):
                if pos + k >= len(doc):
                    return "unexpected EOF"
                if doc[pos + k] != expect:
                    return (
                        f"invalid character {_go_char(doc[pos + k])} in literal {word} "
                        f"(expecting {_go_char(expect)})"
                    )
    return f"invalid character {_go_char(ch)} looking for beginning of value"


def _reject_constant(name: str) -> object:
    raise ValueError(name)


def _json_to_value(obj: object) -> Value:
    from engine.values.numbers import parse_number

    if obj is None:
        return null(DYNAMIC)
    if isinstance(obj, bool):
        return Value(BOOL, obj)
    if isinstance(obj, _JSONNumber):
        return Value(NUMBER, parse_number(str(obj)))
    if isinstance(obj, str):
        return string(obj)
    if isinstance(obj, list):
        from engine.values import tuple_

        return tuple_(_json_to_value(e) for e in obj)
    assert isinstance(obj, dict)
    from engine.values import object_

    return object_({k: _json_to_value(e) for k, e in obj.items()})


def json_decode(doc: str) -> Value:
    """Parse `doc` as JSON into cty's implied-type value (tuples, objects, primitives)."""
    if not doc.strip():
        raise FunctionError("EOF")
    decoder = json.JSONDecoder(
        parse_float=_JSONNumber,
        parse_int=_JSONNumber,
        parse_constant=_reject_constant,
        object_pairs_hook=dict,
    )
    try:
        obj, end = decoder.raw_decode(doc, len(doc) - len(doc.lstrip(" \t\r\n")))
    except json.JSONDecodeError as exc:
        raise FunctionError(_json_error(doc, exc)) from None
    except ValueError as exc:
        raise FunctionError(f"invalid character {_go_char(str(exc)[0])} looking for beginning of value") from None
    if doc[end:].strip(" \t\r\n"):
        raise FunctionError("extraneous data after JSON object")
    return _json_to_value(obj)


def _jsondecode_type(args: Sequence[Value]) -> Type:
    if not args[0].is_known or args[0].v is None:
        return DYNAMIC
    return json_decode(args[0].v).type


def _jsondecode(args: Sequence[Value], ret: Type) -> Value:
    return json_decode(args[0].v)


# ------------------------------------------------------------------------------ CSV
class CSVError(Exception):
    """A CSV syntax error, worded as Go's `encoding/csv` ParseError."""

    def __init__(self, line: int, what: str) -> None:
        super().__init__(f"CSV parse error on line {line}: {what}")


def iter_csv(text: str) -> Iterator[tuple[int, list[str]]]:
    """Yield (line number, fields) per record as Go's `csv.Reader` reads them: strict quotes,
    blank lines skipped, CRLF taken as LF. Raises CSVError when it meets bad syntax."""
    lines = text.replace("\r\n", "\n").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    i = 0
    while i < len(lines):
        line = lines[i]
        i += 1
        if line == "":
            continue
        rec_line = i
        record: list[str] = []
        pos = 0
        while pos >= 0:
            if not line.startswith('"', pos):
                comma = line.find(",", pos)
                field = line[pos:] if comma < 0 else line[pos:comma]
                if '"' in field:
                    raise CSVError(i, 'bare " in non-quoted-field')
                record.append(field)
                pos = -1 if comma < 0 else comma + 1
                continue
            pos += 1
            buf: list[str] = []
            while True:
                q = line.find('"', pos)
                if q < 0:
                    buf.append(line[pos:])
                    if i >= len(lines):
                        raise CSVError(i, 'extraneous or missing " in quoted-field')
                    buf.append("\n")
                    line = lines[i]
                    i += 1
                    pos = 0
                    continue
                buf.append(line[pos:q])
                nxt = line[q + 1 : q + 2]
                if nxt == '"':
                    buf.append('"')
                    pos = q + 2
                    continue
                if nxt not in (",", ""):
                    raise CSVError(i, 'extraneous or missing " in quoted-field')
                record.append("".join(buf))
                pos = q + 2 if nxt == "," else -1
                break
        yield rec_line, record


def _csvdecode_type(args: Sequence[Value]) -> Type:
    if not args[0].is_known or args[0].v is None:
        return DYNAMIC
    try:
        header = next(iter_csv(args[0].v), None)
    except CSVError as exc:
        raise FunctionError(str(exc)) from None
    if header is None:
        raise FunctionError("missing header line")
    seen: set[str] = set()
    for name in header[1]:
        if name in seen:
            raise FunctionError(f"duplicate column name {go_quote(name)}")
        seen.add(name)
    return ListType(ObjectType(dict.fromkeys(header[1], STRING)))


def _csvdecode(args: Sequence[Value], ret: Type) -> Value:
    assert isinstance(ret, ListType) and isinstance(ret.element, ObjectType)
    ety = ret.element
    headers: list[str] = []
    rows: list[Value] = []
    try:
        for line, rec in iter_csv(args[0].v):
            if len(rec) != len(ety.attrs):
                raise CSVError(line, "wrong number of fields")
            if not headers:
                headers = rec
                continue
            rows.append(Value(ety, {name: string(col) for name, col in zip(headers, rec)}))
    except CSVError as exc:
        raise FunctionError(str(exc)) from None
    return list_(rows, ety)


# ----------------------------------------------------------------------------- YAML
def _yamlencode(args: Sequence[Value], ret: Type) -> Value:
    val, marks = args[0].unmark_deep()
    if not val.is_wholly_known():
        return unknown(STRING).with_marks(marks)
    return string(yaml_encode(val)).with_marks(marks)


def _yamldecode_type(args: Sequence[Value]) -> Type:
    if not args[0].is_known or args[0].v is None:
        return DYNAMIC
    return _yamldecode_value(args[0].v).type


def _yamldecode_value(src: str) -> Value:
    try:
        return yaml_decode(src)
    except ValueError as exc:
        raise FunctionError(str(exc)) from None


def _yamldecode(args: Sequence[Value], ret: Type) -> Value:
    return _yamldecode_value(args[0].v)


_STR = STRING

FUNCTIONS: list[Function] = refine_results([
    Function(
        "base64decode",
        (Param("str", _STR, allow_marked=True, allow_unknown=True),),
        _base64decode,
        static_return(_STR),
    ),
    Function("base64encode", (Param("str", _STR),), _base64encode, static_return(_STR)),
    Function("base64gzip", (Param("str", _STR),), _base64gzip, static_return(_STR)),
    Function(
        "csvdecode",
        (Param("str", _STR),),
        _csvdecode,
        _csvdecode_type,
    ),
    Function("jsondecode", (Param("str", _STR),), _jsondecode, _jsondecode_type),
    Function(
        "jsonencode",
        (Param("val", DYNAMIC, allow_null=True, allow_dynamic=True, allow_marked=True),),
        _jsonencode,
        static_return(_STR),
    ),
    Function(
        "textdecodebase64",
        (Param("source", _STR), Param("encoding", _STR)),
        _textdecodebase64,
        static_return(_STR),
    ),
    Function(
        "textencodebase64",
        (Param("string", _STR), Param("encoding", _STR)),
        _textencodebase64,
        static_return(_STR),
    ),
    Function("urlencode", (Param("str", _STR),), _urlencode, static_return(_STR)),
    Function("yamldecode", (Param("src", _STR),), _yamldecode, _yamldecode_type),
    Function(
        "yamlencode",
        (Param("value", DYNAMIC, allow_null=True, allow_dynamic=True, allow_marked=True),),
        _yamlencode,
        static_return(_STR),
    ),
], unrefined=("csvdecode", "jsondecode", "yamldecode", "yamlencode"))
