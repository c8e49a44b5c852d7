"""The tokens of HCL's JSON syntax, as hashicorp/hcl's json/scanner.go marks them.

The scanner is lax on purpose: a keyword is any run of letters (and underscores after the
first), a number any run of `-+.eE0-9` that starts with `-+.` or a digit, a string runs from
its quote to the closing quote or to the first control character (so an unterminated string
is a token without its closing quote). The parser judges them and gives the diagnostics.
The first byte that can start no token is an invalid token, and scanning stops there with
an end-of-input token one byte after it.

Tokens are three parallel lists (`kinds`, `starts`, `ends`; offsets are characters of the
decoded text). Their line, column and byte positions are HCL's and are derived on demand
(`JSONSourceFile` counts columns as this scanner does); only the end-of-input token after an
invalid one has positions no character offset gives (one *byte* after that token's start),
which `token_range` returns as a `FixedRange`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.source import FixedRange, Pos, Range, SourceFile

BRACE_O, BRACE_C, BRACK_O, BRACK_C = "{", "}", "[", "]"
COMMA, COLON, EQUALS = ",", ":", "="
KEYWORD, STRING, NUMBER, EOF, INVALID = "K", "S", "N", "E", "I"

# whitespace, then one token: punctuation, a string (up to its closing quote, or up to a
# control character or the end, keeping a trailing backslash), a number, a keyword, or any
# other single character (invalid). Trailing whitespace matches nothing.
_TOKEN = re.compile(
    r'[ \t\r\n]*(?:([{}\[\],:=])|("(?:[^"\\\x00-\x1f]+|\\[^\x00-\x1f])*(?:"|\\)?)'
    r"|([-+.0-9][-+.eE0-9]*)|([A-Za-z][A-Za-z_]*)|([^ \t\r\n]))",
    re.S,
)
_KIND = ("", "", STRING, NUMBER, KEYWORD, INVALID)


@dataclass(slots=True)
class Tokens:
    """The token stream of one file; the last token is always EOF. `after_invalid` is
    True when that EOF follows an invalid token (its position is one byte after it)."""

    file: SourceFile
    kinds: list[str]
    starts: list[int]
    ends: list[int]
    after_invalid: bool


def scan(file: SourceFile) -> Tokens:
    """Split `file.text` into tokens as HCL's JSON scanner does."""
    text = file.text
    kinds: list[str] = []
    starts: list[int] = []
    ends: list[int] = []
    add_kind, add_start, add_end = kinds.append, starts.append, ends.append
    pos = len(text)
    after_invalid = False
    for m in _TOKEN.finditer(text):
        group = m.lastindex
        assert group is not None
        start, end = m.span(group)
        add_start(start)
        add_end(end)
        if group == 1:
            add_kind(text[start])
        else:
            add_kind(_KIND[group])
            if group == 5:
                after_invalid = True
                pos = end
                break
    add_kind(EOF)
    add_start(pos)
    add_end(pos)
    return Tokens(file, kinds, starts, ends, after_invalid)


def token_range(tokens: Tokens, i: int) -> Range:
    """Token `i`'s source range, with HCL's positions."""
    start, end = tokens.starts[i], tokens.ends[i]
    kind = tokens.kinds[i]
    file = tokens.file
    if kind == INVALID:
        # one byte long, even when the character is not
        p = Range(file, start, start).start
        return FixedRange(file, start, end, p, Pos(p.line, p.column + 1, p.byte + 1))
    if kind == EOF and tokens.after_invalid:
        p = Range(file, tokens.starts[i - 1], tokens.starts[i - 1]).start
        at = Pos(p.line, p.column + 1, p.byte + 1)
        return FixedRange(file, start, end, at, at)
    return Range(file, start, end)


def byte_offset_range(file: SourceFile, tok: Range, offset: int) -> FixedRange:
    """The one-byte range `offset` bytes after the start of `tok`, as HCL's JSON parser
    reports a string's syntax error: the column advanced by the same number (of bytes)."""
    p = tok.start
    start = Pos(p.line, p.column + offset, p.byte + offset)
    end = Pos(p.line, p.column + offset + 1, p.byte + offset + 1)
    text = file.text
    char = tok.start_offset
    seen = 0
    while seen < offset and char < len(text):
        c = text[char]
        seen += 1 if c < "\x80" or "\udc80" <= c <= "\udcff" else len(c.encode("utf-8", "surrogatepass"))
        char += 1
    return FixedRange(file, char, min(char + 1, len(text)), start, end)
