"""Go RE2 regular expressions on Python's `re`, for `regex`, `regexall` and `replace`.

`compile_re2(pattern)` translates RE2 syntax into an equivalent Python pattern: ASCII-only
`\\d \\w \\s \\b`, `$` meaning end of text unless `(?m)`, flags `i m s U` that may change
mid-group, `(?P<name>)`/`(?<name>)` groups, POSIX classes, `\\Q...\\E`, `\\z`; it rejects what
RE2 rejects (look-arounds, back-references, unknown escapes, bad repetitions) with Go's
messages. `find_all` and `replace_all` iterate matches as Go does (an empty match right after
a previous match is skipped), and `expand` implements Go's `$name`/`${name}` templates.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache


class RE2Error(Exception):
    """A pattern RE2 would not compile; str() is `<code> in <expr>`."""


_POSIX = {
    "alnum": "0-9A-Za-z", "alpha": "A-Za-z", "ascii": "\\x00-\\x7f", "blank": "\\t ",
    "cntrl": "\\x00-\\x1f\\x7f", "digit": "0-9", "graph": "!-~", "lower": "a-z",
    "print": " -~", "punct": "!-/:-@\\[-`{-~", "space": "\\t\\n\\v\\f\\r ", "upper": "A-Z",
    "word": "0-9A-Za-z_", "xdigit": "0-9A-Fa-f",
}
_PERL = {"d": "0-9", "w": "0-9A-Za-z_", "s": "\\t\\n\\f\\r "}
_SIMPLE = {"a": "\\x07", "f": "\\x0c", "t": "\\t", "n": "\\n", "r": "\\r", "v": "\\x0b"}


@dataclass
class _Frame:
    """One open group while translating an RE2 pattern: its flags and whether it captures."""

    flags: set[str]
    capture: bool


@dataclass
class Compiled:
    """A translated pattern: the Python regex and RE2's capture-group names ("" = unnamed)."""

    regex: re.Pattern[str]
    names: list[str] = field(default_factory=list)


def _class_escape(pat: str, i: int) -> tuple[str, int]:
    """Translate the escape at pat[i] == '\\' inside a character class; returns (text, next)."""
    if i + 1 >= len(pat):
        raise RE2Error("trailing backslash at end of expression in ")
    c = pat[i + 1]
    if c in _PERL:
        return _PERL[c], i + 2
    if c in "pP" and c == "p":
        return _unicode_class(pat, i)
    if c in "DWS" or c in "pP":
        raise RE2Error(f"invalid character class range in \\{c}")
    return _escape_literal(pat, i)


@lru_cache(maxsize=64)
def _category_ranges(cat: str) -> str:
    """A class body matching the code points of Unicode general category `cat` (L, Lu, ...)."""
    parts: list[str] = []
    start = -1
    for cp in range(0x110001):
        inside = cp < 0x110000 and unicodedata.category(chr(cp)).startswith(cat)
        if inside and start < 0:
            start = cp
        elif not inside and start >= 0:
            end = cp - 1
            parts.append(f"\\U{start:08x}" + (f"-\\U{end:08x}" if end > start else ""))
            start = -1
    return "".join(parts)


def _unicode_class(pat: str, i: int) -> tuple[str, int]:
    """`\\pX` or `\\p{Name}` at pat[i]: a class body for a general category."""
    if i + 2 >= len(pat):
        raise RE2Error(f"invalid character class range in {pat[i:]}")
    if pat[i + 2] == "{":
        end = pat.find("}", i + 3)
        name = pat[i + 3 : end] if end >= 0 else ""
        nxt = end + 1
    else:
        name = pat[i + 2]
        nxt = i + 3
    if name == "Any":
        return "\\x00-\\U0010ffff", nxt
    if len(name) not in (1, 2) or not name[0].isupper() or not _category_ranges(name):
        raise RE2Error(f"invalid character class range in {pat[i:nxt]}")
    return _category_ranges(name), nxt


def _escape_literal(pat: str, i: int) -> tuple[str, int]:
    c = pat[i + 1]
    if c in _SIMPLE:
        return _SIMPLE[c], i + 2
    if c == "x":
        if i + 2 < len(pat) and pat[i + 2] == "{":
            end = pat.find("}", i + 3)
            hexd = pat[i + 3 : end] if end >= 0 else ""
            if end < 0 or not hexd or any(ch not in "0123456789abcdefABCDEF" for ch in hexd):
                raise RE2Error(f"invalid escape sequence in {pat[i : (end + 1) if end >= 0 else len(pat)]}")
            cp = int(hexd, 16)
            if cp > 0x10FFFF:
                raise RE2Error(f"invalid escape sequence in {pat[i : end + 1]}")
            return re.escape(chr(cp)), end + 1
        hexd = pat[i + 2 : i + 4]
        if len(hexd) != 2 or any(ch not in "0123456789abcdefABCDEF" for ch in hexd):
            raise RE2Error(f"invalid escape sequence in {pat[i : i + 4]}")
        return re.escape(chr(int(hexd, 16))), i + 4
    if c in "01234567":
        if c != "0" and not (i + 2 < len(pat) and pat[i + 2] in "01234567"):
            raise RE2Error(f"invalid escape sequence in \\{c}")
        j = i + 1
        while j < len(pat) and j < i + 4 and pat[j] in "01234567":
            j += 1
        return re.escape(chr(int(pat[i + 1 : j], 8))), j
    if c.isascii() and not c.isalnum():
        return re.escape(c), i + 2
    raise RE2Error(f"invalid escape sequence in \\{c}")


def _parse_class(pat: str, i: int, icase: bool) -> tuple[str, int]:
    """Translate the class starting at pat[i] == '['; returns (python class, next index)."""
    start = i
    i += 1
    out = ["["]
    if i < len(pat) and pat[i] == "^":
        out.append("^")
        i += 1
    first = True
    while True:
        if i >= len(pat):
            raise RE2Error(f"missing closing ] in {pat[start:]}")
        c = pat[i]
        if c == "]" and not first:
            i += 1
            break
        first = False
        if c == "[" and pat.startswith("[:", i):
            end = pat.find(":]", i + 2)
            name = pat[i + 2 : end] if end >= 0 else ""
            neg = name.startswith("^")
            key = name[1:] if neg else name
            if end >= 0 and key in _POSIX:
                if neg:
                    raise RE2Error(f"invalid character class range in {pat[i : end + 2]}")
                out.append(_POSIX[key])
                i = end + 2
                continue
            out.append("\\[")
            i += 1
            continue
        if c == "\\":
            text, i = _class_escape(pat, i)
            out.append(text)
            continue
        if c in "[&~|":
            out.append("\\" + c)
        else:
            out.append(c)
        i += 1
    out.append("]")
    text = "".join(out)
    return (f"(?i:{text})" if icase else text), i


def _translate(pat: str) -> tuple[str, list[str]]:
    out: list[str] = []
    names: list[str] = []
    stack: list[_Frame] = []
    flags: set[str] = set()
    i = 0
    n = len(pat)
    last_atom = False  # whether a repeatable item was just emitted
    last_repeat = ""  # text of a just-emitted repetition operator

    def atom(text: str) -> None:
        nonlocal last_atom, last_repeat
        out.append(f"(?i:{text})" if "i" in flags and any(ch.isalpha() for ch in text) else text)
        last_atom, last_repeat = True, ""

    while i < n:
        c = pat[i]
        if c in "*+?{":
            if c == "{":
                m = re.match(r"\{(\d+)(,(\d*))?\}", pat[i:])
                if not m:
                    atom("\\{")
                    i += 1
                    continue
                lo = int(m.group(1))
                hi = int(m.group(3)) if m.group(3) else None
                if lo > 1000 or (hi is not None and (hi > 1000 or hi < lo)):
                    raise RE2Error(f"invalid repeat count in {m.group(0)}")
                op = m.group(0)
            else:
                op = c
            if last_repeat:
                raise RE2Error(f"invalid nested repetition operator in {last_repeat}{op}")
            if not last_atom:
                raise RE2Error(f"missing argument to repetition operator in {op}")
            i += len(op)
            lazy = i < n and pat[i] == "?"
            if lazy:
                i += 1
            if "U" in flags:
                lazy = not lazy
            out.append(op + ("?" if lazy else ""))
            last_atom, last_repeat = False, op
            continue
        if c == "(":
            if pat.startswith("(?", i):
                if pat.startswith("(?P<", i) or pat.startswith("(?<", i):
                    j = i + (4 if pat[i + 2] == "P" else 3)
                    end = pat.find(">", j)
                    name = pat[j:end] if end >= 0 else ""
                    if end < 0 or not re.fullmatch(r"[A-Za-z0-9_]+", name):
                        raise RE2Error(f"invalid named capture in {pat[i : (end + 1) if end >= 0 else n]}")
                    if name in names:
                        raise RE2Error(f"duplicate capture group name in {name}")
                    names.append(name)
                    stack.append(_Frame(set(flags), True))
                    out.append(f"(?P<{name}>")
                    i = end + 1
                    last_atom, last_repeat = False, ""
                    continue
                m = re.match(r"\(\?([imsU]*)(?:-([imsU]*))?([:)])", pat[i:])
                if not m or (m.group(2) is not None and not m.group(2)):
                    end = min(i + 3, n)
                    raise RE2Error(f"invalid or unsupported Perl syntax in {pat[i:end]}")
                on, off = set(m.group(1)), set(m.group(2) or "")
                i += len(m.group(0))
                if m.group(3) == ")":
                    flags = (flags | on) - off
                    continue
                stack.append(_Frame(set(flags), False))
                flags = (flags | on) - off
                out.append("(?:")
                last_atom, last_repeat = False, ""
                continue
            names.append("")
            stack.append(_Frame(set(flags), True))
            out.append("(")
            i += 1
            last_atom, last_repeat = False, ""
            continue
        if c == ")":
            if not stack:
                raise RE2Error(f"unexpected ) in {pat}")
            frame = stack.pop()
            flags = frame.flags
            out.append(")")
            i += 1
            last_atom, last_repeat = True, ""
            continue
        if c == "|":
            out.append("|")
            i += 1
            last_atom, last_repeat = False, ""
            continue
        if c == "[":
            text, i = _parse_class(pat, i, "i" in flags)
            out.append(text)
            last_atom, last_repeat = True, ""
            continue
        if c == ".":
            atom("(?s:.)" if "s" in flags else "[^\\n]")
            i += 1
            continue
        if c == "^":
            out.append("(?m:^)" if "m" in flags else "\\A")
            last_atom, last_repeat = True, ""
            i += 1
            continue
        if c == "$":
            out.append("(?m:$)" if "m" in flags else "\\Z")
            last_atom, last_repeat = True, ""
            i += 1
            continue
        if c == "\\":
            if i + 1 >= n:
                raise RE2Error("trailing backslash at end of expression in ")
            e = pat[i + 1]
            if e == "Q":
                end = pat.find("\\E", i + 2)
                lit = pat[i + 2 :] if end < 0 else pat[i + 2 : end]
                i = n if end < 0 else end + 2
                for ch in lit:
                    atom(re.escape(ch))
                continue
            if e in _PERL:
                atom(f"[{_PERL[e]}]")
            elif e in "DWS":
                atom(f"[^{_PERL[e.lower()]}]")
            elif e == "b":
                out.append("(?a:\\b)")
                last_atom, last_repeat = True, ""
            elif e == "B":
                out.append("(?a:\\B)")
                last_atom, last_repeat = True, ""
            elif e == "A":
                out.append("\\A")
                last_atom, last_repeat = True, ""
            elif e == "z":
                out.append("\\Z")
                last_atom, last_repeat = True, ""
            elif e in "pP":
                cls, i = _unicode_class(pat, i)
                atom(f"[{'^' if e == 'P' else ''}{cls}]")
                continue
            else:
                text, i = _escape_literal(pat, i)
                atom(text)
                continue
            i += 2
            continue
        atom(re.escape(c))
        i += 1
    if stack:
        raise RE2Error(f"missing closing ) in {pat}")
    return "".join(out), names


@lru_cache(maxsize=256)
def compile_re2(pattern: str) -> Compiled:
    """Compile an RE2 pattern, or raise RE2Error with Go's `<code> in <expr>` text."""
    text, names = _translate(pattern)
    try:
        rx = re.compile(text)
    except re.error as exc:
        raise RE2Error(f"{exc.msg} in {pattern}") from None
    return Compiled(rx, names)


def find_all(rx: re.Pattern[str], s: str) -> list[re.Match[str]]:
    """Successive non-overlapping matches, as Go's FindAll* functions return them."""
    out: list[re.Match[str]] = []
    pos = 0
    prev_end = -1
    while pos <= len(s):
        m = rx.search(s, pos)
        if m is None:
            break
        accept = True
        if m.end() == pos:
            if m.start() == prev_end:
                accept = False
            pos += 1
        else:
            pos = m.end()
        prev_end = m.end()
        if accept:
            out.append(m)
    return out


def expand(template: str, m: re.Match[str], names: list[str]) -> str:
    """Go's `Regexp.Expand`: `$1`, `$name`, `${name}` and `$$` in `template`."""
    out: list[str] = []
    i = 0
    n = len(template)
    while i < n:
        c = template[i]
        if c != "$":
            out.append(c)
            i += 1
            continue
        if i + 1 < n and template[i + 1] == "$":
            out.append("$")
            i += 2
            continue
        if i + 1 < n and template[i + 1] == "{":
            end = template.find("}", i + 2)
            name = template[i + 2 : end] if end >= 0 else ""
            if end < 0 or not re.fullmatch(r"[A-Za-z0-9_]+", name):
                out.append("$")
                i += 1
                continue
            i = end + 1
        else:
            mm = re.match(r"[A-Za-z0-9_]+", template[i + 1 :])
            if not mm:
                out.append("$")
                i += 1
                continue
            name = mm.group(0)
            i += 1 + len(name)
        out.append(_group_text(m, name, names))
    return "".join(out)


def _group_text(m: re.Match[str], name: str, names: list[str]) -> str:
    if name.isdigit():
        idx = int(name)
        if idx > len(names):
            return ""
        return m.group(idx) or ""
    if name in names:
        return m.group(names.index(name) + 1) or ""
    return ""


def replace_all(rx: re.Pattern[str], names: list[str], s: str, template: str) -> str:
    """Go's `Regexp.ReplaceAllString`."""
    out: list[str] = []
    last_end = 0
    pos = 0
    while pos <= len(s):
        m = rx.search(s, pos)
        if m is None:
            break
        out.append(s[last_end : m.start()])
        if m.end() > last_end or m.start() == 0:
            out.append(expand(template, m, names))
        last_end = m.end()
        pos = pos + 1 if pos + 1 > m.end() else m.end()
    out.append(s[last_end:])
    return "".join(out)
