"""Go's `strconv.Quote` and `strconv.QuoteRune`: what Go's `%q` prints for a string or a rune.

Printable characters (Go's `unicode.IsPrint`: letters, marks, numbers, punctuation, symbols
and the ASCII space, the same classes as Python's `str.isprintable`) are copied; `\\a \\b \\f
\\n \\r \\t \\v`, the backslash and the quote get their short escapes; any other character
below U+0080 is `\\xHH`, below U+10000 `\\uHHHH`, else `\\UHHHHHHHH`. A lone surrogate (what
invalid UTF-8 decodes to here) is Go's replacement character escape, `\\ufffd`.
"""

from __future__ import annotations

__all__ = ["quote", "quote_rune"]

_SHORT = {
    "\a": "\\a",
    "\b": "\\b",
    "\f": "\\f",
    "\n": "\\n",
    "\r": "\\r",
    "\t": "\\t",
    "\v": "\\v",
    "\\": "\\\\",
}


def _escape(ch: str, quote_char: str) -> str:
    if ch == quote_char:
        return "\\" + ch
    short = _SHORT.get(ch)
    if short is not None:
        return short
    if ch == " " or ch.isprintable():
        return ch
    cp = ord(ch)
    if 0xD800 <= cp <= 0xDFFF:
        return "\\ufffd"
    if cp < 0x80:
        return f"\\x{cp:02x}"
    if cp < 0x10000:
        return f"\\u{cp:04x}"
    return f"\\U{cp:08x}"


def quote(s: str) -> str:
    """`s` double-quoted as Go's `strconv.Quote` writes it."""
    if s.isascii() and s.isprintable() and '"' not in s and "\\" not in s:
        return '"' + s + '"'
    return '"' + "".join([_escape(ch, '"') for ch in s]) + '"'


def quote_rune(ch: str) -> str:
    """The one-character string `ch` single-quoted as Go's `strconv.QuoteRune` writes it."""
    return "'" + _escape(ch, "'") + "'"
