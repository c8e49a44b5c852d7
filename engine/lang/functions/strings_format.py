"""`format` and `formatlist`: cty's printf-like formatting.

The format string is scanned as cty's state machine does (flags `0 # - + space`, an optional
argument index `[n]`, width, `.precision`, a verb letter); verbs convert their argument as cty
does (`%s %q` to string, `%t` to bool, `%b %d %o %x %X %e %E %f %g %G` to number, `%v`/`%#v` as
is or as JSON). Offsets in messages are byte offsets, as in Go.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from engine.gocompat.json import quote as json_string
from engine.gocompat.strconv import quote as go_quote
from engine.gocompat.strconv import quote_rune as go_quote_rune
from engine.lang.functions.base import Function, FunctionError, Param, static_return
from engine.lang.functions.strings_decimal import Flags, number_text, render_float, render_int
from engine.source.graphemes import grapheme_count, graphemes
from engine.values import (
    BOOL,
    DYNAMIC,
    NUMBER,
    STRING,
    ListType,
    SetType,
    TupleType,
    Value,
    list_,
    string,
    unknown,
)


class FormatError(Exception):
    """A formatting failure, with cty's message."""


def _json_number(v: object) -> str:
    if isinstance(v, float) and math.isinf(v):
        raise FormatError("value must be a finite number")
    return number_text(v, "f", -1)


def json_marshal(val: Value) -> str:
    """cty's JSON encoding of a wholly known value (object keys sorted)."""
    v = val.v
    if v is None:
        return "null"
    t = val.type
    if t == STRING:
        return json_string(v)
    if t == NUMBER:
        return _json_number(v)
    if t == BOOL:
        return "true" if v else "false"
    if isinstance(v, list):
        return "[" + ",".join(json_marshal(e) for e in v) + "]"
    if isinstance(v, dict):
        items = sorted(v.items())
        return "{" + ",".join(json_string(k) + ":" + json_marshal(e) for k, e in items) + "}"
    raise FormatError(f"value of type {t.friendly_name()} cannot be encoded as JSON")


class _Verb:
    __slots__ = ("arg_num", "flags", "mode", "offset", "raw")

    def __init__(self, arg_num: int, offset: int) -> None:
        self.arg_num = arg_num
        self.offset = offset
        self.flags = Flags()
        self.mode = ""
        self.raw = ""


def _convert(arg: Value, target: object, verb: _Verb) -> Value:
    from engine.values.convert import ConversionError, convert

    try:
        return convert(arg, target)  # type: ignore[arg-type]
    except ConversionError as exc:
        raise FormatError(
            f"unsupported value for {go_quote(verb.raw)} at {verb.offset}: {exc.message}"
        ) from None


def _pad(verb: _Verb, text: str) -> str:
    width = verb.flags.width
    if width < 0:
        return text
    have = grapheme_count(text)
    if have >= width:
        return text
    pads = ("0" if verb.flags.zero else " ") * (width - have)
    return text + pads if verb.flags.minus else pads + text


def _append_number(verb: _Verb, arg: Value) -> str:
    v = _convert(arg, NUMBER, verb).v
    if verb.mode in "bdoxX":
        if isinstance(v, float) and v == 0:
            v = 0
        if not isinstance(v, int):
            raise FormatError(
                f"unsupported value for {go_quote(verb.raw)} at {verb.offset}: "
                "an integer is required"
            )
        return render_int(v, verb.mode, verb.flags)
    return render_float(v, verb.mode, verb.flags)


def _append_string(verb: _Verb, arg: Value) -> str:
    text: str = _convert(arg, STRING, verb).v
    if verb.flags.prec > 0:
        text = "".join(graphemes(text)[: verb.flags.prec])
    if verb.mode == "q":
        text = json_string(text)
    return _pad(verb, text)


def _append_as_is(verb: _Verb, arg: Value) -> str:
    if not verb.flags.sharp and arg.v is not None:
        if arg.type == STRING:
            return _pad(verb, arg.v)
        if arg.type == NUMBER:
            v = arg.v
            text = number_text(v, "g", -1)
            return _pad(verb, text)
    try:
        text = json_marshal(arg)
    except FormatError as exc:
        raise FormatError(f"unsupported value for {go_quote(verb.raw)} at {verb.offset}: {exc}") from None
    return _pad(verb, text)


def _append(verb: _Verb, args: Sequence[Value]) -> str:
    idx = verb.arg_num - 1
    if idx >= len(args):
        raise FormatError(
            f"not enough arguments for {go_quote(verb.raw)} at {verb.offset}: "
            f"need index {verb.arg_num} but have {len(args)} total"
        )
    arg = args[idx]
    if verb.mode != "v" and arg.v is None:
        raise FormatError(
            f"unsupported value for {go_quote(verb.raw)} at {verb.offset}: "
            "null value cannot be formatted"
        )
    mode = verb.mode
    if mode == "v":
        return _append_as_is(verb, arg)
    if mode == "t":
        return "true" if _convert(arg, BOOL, verb).v else "false"
    if mode in "bdoxXeEfgG":
        return _append_number(verb, arg)
    if mode in "sq":
        return _append_string(verb, arg)
    raise FormatError(
        f"unsupported format verb {go_quote_rune(mode)} in {go_quote(verb.raw)} "
        f"at offset {verb.offset}"
    )


def format_values(fmt: str, args: Sequence[Value]) -> str:
    """Format `args` (known, unmarked) according to `fmt`, or raise FormatError."""
    data = fmt.encode("utf-8")
    n = len(data)
    out = bytearray()
    next_arg = 1
    p = 0

    def err_char(pos: int) -> FormatError:
        ch = data[pos:].decode("utf-8", errors="replace")[:1]
        return FormatError(f"unrecognized format character {go_quote_rune(ch)} at offset {pos}")

    def eof() -> FormatError:
        return FormatError(f"invalid format string starting at offset {n}")

    while p < n:
        c = data[p]
        if c != 0x25:  # '%'
            out.append(c)
            p += 1
            continue
        start = p
        p += 1
        if p >= n:
            raise eof()
        if data[p] == 0x25:
            out.append(0x25)
            p += 1
            continue
        verb = _Verb(next_arg, start)
        f = verb.flags
        while p < n and chr(data[p]) in "0#-+ ":
            ch = chr(data[p])
            if ch == "0":
                f.zero = True
            elif ch == "#":
                f.sharp = True
            elif ch == "-":
                f.minus = True
            elif ch == "+":
                f.plus = True
            else:
                f.space = True
            p += 1
        if p < n and data[p] == 0x5B:  # '['
            p += 1
            if p >= n:
                raise eof()
            if not 0x31 <= data[p] <= 0x39:
                raise err_char(p)
            num = 0
            while p < n and 0x30 <= data[p] <= 0x39:
                num = num * 10 + data[p] - 0x30
                p += 1
            if p >= n:
                raise eof()
            if data[p] != 0x5D:
                raise err_char(p)
            p += 1
            verb.arg_num = num
        if p < n and 0x31 <= data[p] <= 0x39:
            width = 0
            while p < n and 0x30 <= data[p] <= 0x39:
                width = width * 10 + data[p] - 0x30
                p += 1
            f.width = width
        if p < n and data[p] == 0x2E:  # '.'
            p += 1
            prec = 0
            while p < n and 0x30 <= data[p] <= 0x39:
                prec = prec * 10 + data[p] - 0x30
                p += 1
            f.prec = prec
        if p >= n:
            raise eof()
        c = data[p]
        if not (0x41 <= c <= 0x5A or 0x61 <= c <= 0x7A):
            raise err_char(p)
        verb.mode = chr(c)
        p += 1
        verb.raw = data[start:p].decode("utf-8")
        out += _append(verb, args).encode("utf-8")
        next_arg = verb.arg_num + 1
    return out.decode("utf-8")


# ------------------------------------------------------------------------------- functions
def _format_impl(args: Sequence[Value], ret: object) -> Value:
    vals = args[1:]
    if any(not a.is_wholly_known() for a in vals):
        return unknown(STRING)
    try:
        return string(format_values(args[0].v, vals))
    except FormatError as exc:
        raise FunctionError(str(exc)) from None


def _is_sequence(t: object) -> bool:
    return isinstance(t, (ListType, SetType, TupleType))


def _formatlist_impl(args: Sequence[Value], ret: object) -> Value:
    fmt_val = args[0]
    rest = args[1:]
    if not fmt_val.is_known:
        return unknown(ListType(STRING))
    if not rest:
        return _format_list_single(fmt_val.v)
    iter_len = -1
    chooser = -1
    iterators: list[list[Value] | None] = []
    singles: list[Value | None] = []
    any_unknown = False
    for i, arg in enumerate(rest):
        t = arg.type
        if _is_sequence(t) and arg.v is not None:
            if not isinstance(t, TupleType) and not arg.is_known:
                any_unknown = True
                iterators.append(None)
                singles.append(None)
                continue
            this_len = len(t.elements) if isinstance(t, TupleType) else len(arg.v)
            if iter_len == -1:
                iter_len, chooser = this_len, i
            elif this_len != iter_len:
                raise FunctionError(
                    f"argument {i + 1} has length {this_len}, which is inconsistent with "
                    f"argument {chooser + 1} of length {iter_len}",
                    i + 1,
                )
            if not arg.is_known:
                any_unknown = True
                iterators.append(None)
                singles.append(None)
                continue
            iterators.append(list(arg.v))
            singles.append(None)
        else:
            iterators.append(None)
            singles.append(arg)
    if any_unknown:
        return unknown(ListType(STRING))
    if iter_len == 0:
        return Value(ListType(STRING), [])
    if iter_len == -1:
        iter_len = 1
    results: list[Value] = []
    for n in range(iter_len):
        call_args: list[Value] = []
        for it, single in zip(iterators, singles):
            if it is not None:
                elem, _ = it[n].unmark_deep()
                call_args.append(elem)
            else:
                assert single is not None
                call_args.append(single)
        if any(not a.is_wholly_known() for a in call_args):
            results.append(unknown(STRING))
            continue
        try:
            results.append(string(format_values(fmt_val.v, call_args)))
        except FormatError as exc:
            raise FunctionError(f"error on format iteration {n}: {exc}") from None
    return list_(results, STRING)


def _format_list_single(fmt: str) -> Value:
    try:
        return list_([string(format_values(fmt, []))], STRING)
    except FormatError as exc:
        raise FunctionError(str(exc)) from None


FORMAT = Function(
    name="format",
    params=(Param("format", STRING),),
    var_param=Param("args", DYNAMIC, allow_null=True),
    impl=_format_impl,
    return_type=static_return(STRING),
    description="Produces a string by formatting values according to a printf-like spec.",
)

FORMATLIST = Function(
    name="formatlist",
    params=(Param("format", STRING),),
    var_param=Param("args", DYNAMIC, allow_null=True, allow_unknown=True),
    impl=_formatlist_impl,
    return_type=static_return(ListType(STRING)),
    description="Formats each element of the given lists, producing a list of strings.",
)

FUNCTIONS: list[Function] = [FORMAT, FORMATLIST]
