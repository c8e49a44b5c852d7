"""Glob matching as the `doublestar` library (v1) that Terraform's `fileset` uses.

A pattern is split on `/`; each component may use `*` (any run of characters except `/`),
`?` (one character), `[...]` classes (`^` or `!` negates, `a-z` ranges), `{a,b}` alternatives
and `\\` escapes. A component that is exactly `**` matches zero or more directories. Matching
names include dotfiles. `glob(pattern)` returns every existing path that matches; a malformed
pattern raises GlobSyntaxError.
"""

from __future__ import annotations

import os
import re

_META = set("*?[{\\")


class GlobSyntaxError(ValueError):
    """The pattern is malformed (unclosed class or alternatives, `/` inside `{}`)."""


def _translate(comp: str, i: int = 0, stop: str = "") -> tuple[str, int]:
    """A regex for one path component from index `i`, up to an unnested char in `stop`."""
    out: list[str] = []
    n = len(comp)
    while i < n:
        ch = comp[i]
        if ch in stop:
            return "".join(out), i
        if ch == "\\":
            i += 1
            if i >= n:
                raise GlobSyntaxError("escape at end")
            out.append(re.escape(comp[i]))
        elif ch == "*":
            out.append("[^/]*")
        elif ch == "?":
            out.append("[^/]")
        elif ch == "[":
            j = i + 1
            negate = j < n and comp[j] in "^!"
            if negate:
                j += 1
            parts: list[str] = []
            first = True
            while True:
                if j >= n:
                    raise GlobSyntaxError("unclosed class")
                c = comp[j]
                if c == "]" and not first:
                    break
                first = False
                if c == "\\":
                    j += 1
                    if j >= n:
                        raise GlobSyntaxError("unclosed class")
                    c = comp[j]
                lo = c
                if j + 2 < n and comp[j + 1] == "-" and comp[j + 2] != "]":
                    hi = comp[j + 2]
                    if hi == "\\":
                        j += 1
                        if j + 2 >= n:
                            raise GlobSyntaxError("unclosed class")
                        hi = comp[j + 2]
                    if hi < lo:
                        raise GlobSyntaxError("bad range")
                    parts.append(f"{re.escape(lo)}-{re.escape(hi)}")
                    j += 3
                else:
                    parts.append(re.escape(lo))
                    j += 1
            out.append(("[^/" if negate else "[") + "".join(parts) + "]")
            i = j
        elif ch == "{":
            alts: list[str] = []
            j = i + 1
            while True:
                sub, j = _translate(comp, j, ",}")
                alts.append(sub)
                if j >= n:
                    raise GlobSyntaxError("unclosed alternatives")
                if comp[j] == "}":
                    break
                j += 1
            out.append("(?:" + "|".join(alts) + ")")
            i = j
        else:
            out.append(re.escape(ch))
        i += 1
    if stop:
        raise GlobSyntaxError("unclosed alternatives")
    return "".join(out), i


def compile_component(comp: str) -> re.Pattern[str]:
    """The compiled matcher for one path component."""
    rx, _ = _translate(comp)
    return re.compile(rx, re.DOTALL)


def _check_alternatives(pattern: str) -> None:
    depth = 0
    escaped = False
    for ch in pattern:
        if escaped:
            escaped = False
        elif ch == "\\":
            escaped = True
        elif ch == "{":
            depth += 1
        elif ch == "}" and depth:
            depth -= 1
        elif ch == "/" and depth:
            raise GlobSyntaxError("separator inside alternatives")


def glob(pattern: str) -> list[str]:
    """Every existing path matching `pattern` (relative patterns start at the working dir)."""
    _check_alternatives(pattern)
    absolute = pattern.startswith("/")
    comps = [c for c in pattern.split("/") if c]
    matchers = [None if c == "**" or not (_META & set(c)) else compile_component(c) for c in comps]
    found: set[str] = set()
    _walk("/" if absolute else "", comps, matchers, found)
    return sorted(found)


def _unescape(comp: str) -> str:
    return re.sub(r"\\(.)", r"\1", comp)


def _join(base: str, name: str) -> str:
    if not base:
        return name
    return base + name if base.endswith("/") else base + "/" + name


def _listdir(path: str) -> list[str]:
    try:
        return sorted(os.listdir(path or "."))
    except OSError:
        return []


def _walk(
    base: str, comps: list[str], matchers: list[re.Pattern[str] | None], found: set[str]
) -> None:
    if not comps:
        if base:
            found.add(base)
        return
    comp, rest, rest_m = comps[0], comps[1:], matchers[1:]
    if comp == "**":
        _walk(base, rest, rest_m, found)
        for name in _listdir(base):
            p = _join(base, name)
            if os.path.isdir(p) and not os.path.islink(p):
                _walk(p, comps, matchers, found)
            elif not rest:
                found.add(p)
        return
    matcher = matchers[0]
    if matcher is None:
        p = _join(base, comp) if comp not in (".", "..") or base else comp
        if os.path.lexists(p):
            _walk(p, rest, rest_m, found)
        return
    for name in _listdir(base):
        if matcher.fullmatch(name):
            _walk(_join(base, name), rest, rest_m, found)
