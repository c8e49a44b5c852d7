"""The syntax errors Go's `encoding/json` reports: its scanner's message and byte offset.

`go_syntax_error(data)` is None for valid JSON, else the `GoSyntaxError` that Go's
`json.Valid`/`json.Unmarshal` would give (`invalid character 'x' looking for beginning of
value` at offset N), so a bad state or plan file gets terraform's diagnostic.
"""

from __future__ import annotations

import json
from typing import Any

__all__ = ["GoSyntaxError", "go_quote_char", "go_syntax_error"]

class GoSyntaxError(ValueError):
    """What Go's `json.Valid`/`json.Unmarshal` report for malformed input: the message (as
    `SyntaxError.Error()` gives it) and `offset`, the number of bytes read when it was found."""

    def __init__(self, msg: str, offset: int) -> None:
        super().__init__(msg)
        self.msg = msg
        self.offset = offset


def go_quote_char(c: int) -> str:
    """Go's `quoteChar`: a byte as the scanner names it in messages (`'x'`, `'\\x00'`)."""
    if c == 0x27:
        return "'\\''"
    if c == 0x22:
        return "'\"'"
    ch = chr(c)
    if ch.isprintable() and c != 0x5C:
        return f"'{ch}'"
    short = {7: "\\a", 8: "\\b", 12: "\\f", 10: "\\n", 13: "\\r", 9: "\\t", 11: "\\v", 0x5C: "\\\\"}
    if c in short:
        return f"'{short[c]}'"
    return f"'\\x{c:02x}'" if c < 0x80 else f"'\\u{c:04x}'"


_SPACE = frozenset(b" \t\r\n")
_DIGITS = frozenset(b"0123456789")
_HEX = frozenset(b"0123456789abcdefABCDEF")
_ESCAPABLE = frozenset(b'bfnrt\\/"')
_LITERALS = {ord("t"): b"true", ord("f"): b"false", ord("n"): b"null"}


class _Scanner:
    """A transcription of Go's encoding/json scanner: the same states, so the same error
    message at the same byte offset."""

    def __init__(self) -> None:
        self.stack: list[str] = []  # "key" (reading an object key) or "value" / "array"
        self.state = self.begin_value
        self.end_top = False
        self.literal = b""
        self.literal_pos = 0
        self.hex_left = 0

    def fail(self, c: int, context: str) -> None:
        raise GoSyntaxError(f"invalid character {go_quote_char(c)} {context}", 0)

    def begin_value_or_empty(self, c: int) -> None:
        if c in _SPACE:
            return
        if c == ord("]"):
            self.end_value(c)
            return
        self.begin_value(c)

    def begin_value(self, c: int) -> None:
        if c in _SPACE:
            return
        if c == ord("{"):
            self.stack.append("key")
            self.state = self.begin_string_or_empty
        elif c == ord("["):
            self.stack.append("array")
            self.state = self.begin_value_or_empty
        elif c == ord('"'):
            self.state = self.in_string
        elif c == ord("-"):
            self.state = self.neg
        elif c == ord("0"):
            self.state = self.zero
        elif c in _DIGITS:
            self.state = self.one
        elif c in _LITERALS:
            self.literal, self.literal_pos = _LITERALS[c], 1
            self.state = self.in_literal
        else:
            self.fail(c, "looking for beginning of value")

    def begin_string_or_empty(self, c: int) -> None:
        if c in _SPACE:
            return
        if c == ord("}"):
            self.stack[-1] = "value"
            self.end_value(c)
            return
        self.begin_string(c)

    def begin_string(self, c: int) -> None:
        if c in _SPACE:
            return
        if c == ord('"'):
            self.state = self.in_string
            return
        self.fail(c, "looking for beginning of object key string")

    def end_value(self, c: int) -> None:
        if not self.stack:
            self.end_top = True
            self.state = self.end_top_state
            self.end_top_state(c)
            return
        if c in _SPACE:
            self.state = self.end_value
            return
        top = self.stack[-1]
        if top == "key":
            if c == ord(":"):
                self.stack[-1] = "value"
                self.state = self.begin_value
                return
            self.fail(c, "after object key")
        elif top == "value":
            if c == ord(","):
                self.stack[-1] = "key"
                self.state = self.begin_string
                return
            if c == ord("}"):
                self.stack.pop()
                self.state = self.end_value
                if not self.stack:
                    self.end_top = True
                    self.state = self.end_top_state
                return
            self.fail(c, "after object key:value pair")
        else:
            if c == ord(","):
                self.state = self.begin_value
                return
            if c == ord("]"):
                self.stack.pop()
                self.state = self.end_value
                if not self.stack:
                    self.end_top = True
                    self.state = self.end_top_state
                return
            self.fail(c, "after array element")

    def end_top_state(self, c: int) -> None:
        if c not in _SPACE:
            self.fail(c, "after top-level value")

    def in_string(self, c: int) -> None:
        if c == ord('"'):
            self.state = self.end_value
        elif c == ord("\\"):
            self.state = self.in_string_esc
        elif c < 0x20:
            self.fail(c, "in string literal")

    def in_string_esc(self, c: int) -> None:
        if c in _ESCAPABLE:
            self.state = self.in_string
        elif c == ord("u"):
            self.hex_left = 4
            self.state = self.in_string_hex
        else:
            self.fail(c, "in string escape code")

    def in_string_hex(self, c: int) -> None:
        if c not in _HEX:
            self.fail(c, "in \\u hexadecimal character escape")
        self.hex_left -= 1
        if self.hex_left == 0:
            self.state = self.in_string

    def neg(self, c: int) -> None:
        if c == ord("0"):
            self.state = self.zero
        elif c in _DIGITS:
            self.state = self.one
        else:
            self.fail(c, "in numeric literal")

    def one(self, c: int) -> None:
        if c in _DIGITS:
            return
        self.zero(c)

    def zero(self, c: int) -> None:
        if c == ord("."):
            self.state = self.dot
        elif c in (ord("e"), ord("E")):
            self.state = self.exp
        else:
            self.end_value(c)

    def dot(self, c: int) -> None:
        if c in _DIGITS:
            self.state = self.dot_digits
            return
        self.fail(c, "after decimal point in numeric literal")

    def dot_digits(self, c: int) -> None:
        if c in _DIGITS:
            return
        if c in (ord("e"), ord("E")):
            self.state = self.exp
            return
        self.end_value(c)

    def exp(self, c: int) -> None:
        if c in (ord("+"), ord("-")):
            self.state = self.exp_sign
            return
        self.exp_sign(c)

    def exp_sign(self, c: int) -> None:
        if c in _DIGITS:
            self.state = self.exp_digits
            return
        self.fail(c, "in exponent of numeric literal")

    def exp_digits(self, c: int) -> None:
        if c not in _DIGITS:
            self.end_value(c)

    def in_literal(self, c: int) -> None:
        want = self.literal[self.literal_pos]
        if c != want:
            self.fail(c, f"in literal {self.literal.decode()} (expecting {go_quote_char(want)})")
        self.literal_pos += 1
        if self.literal_pos == len(self.literal):
            self.state = self.end_value


def _reject_constant(name: str) -> Any:
    raise ValueError(f"not JSON: {name}")


def go_syntax_error(data: bytes) -> GoSyntaxError | None:
    """The error Go's encoding/json gives for `data` when it is not valid JSON, else None.

    Whatever Python's strict parser accepts (without NaN/Infinity) Go accepts too, so valid
    documents take that fast path; only a rejected one is rescanned byte by byte as Go's
    scanner does, for its message and offset (the scan costs ~0.6 s per 10 MB).
    """
    if not data.startswith(b"\xef\xbb\xbf"):  # Python skips a UTF-8 BOM, Go does not
        try:
            json.loads(data, parse_constant=_reject_constant)
            return None
        except (ValueError, RecursionError):
            pass
    scan = _Scanner()
    offset = 0
    try:
        for c in data:
            offset += 1
            scan.state(c)
        if scan.end_top:
            return None
        scan.state(0x20)  # Go's eof(): a final space completes a number at the top level
        if scan.end_top:
            return None
    except GoSyntaxError as exc:
        exc.offset = offset
        return exc
    return GoSyntaxError("unexpected end of JSON input", offset)
