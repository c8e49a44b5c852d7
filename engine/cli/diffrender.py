"""Rendering changes to JSON-like values the way Terraform's plan renderer does.

Output values are diffed as plain JSON (Terraform compares outputs without their types):
objects, arrays, strings, numbers (exact text), booleans and null. `render_change` gives the
text after `name = ` for one change, starting at a line whose sign sits at column `indent`:

- created values are shown whole with `+`, deleted ones with `-` (a deleted attribute or a
  deleted top-level value ends in `-> null`), updated primitives as `old -> new`;
- in an updated object, unchanged attributes are hidden and counted
  (`# (1 unchanged attribute hidden)`); in an updated array, unchanged elements next to a
  change are shown for context and the others are hidden and counted;
- arrays are matched by their longest common subsequence, and equal-sized gaps between
  common elements pair up as in-place updates;
- multi-line strings are rendered as `<<-EOT` heredocs, line by line;
- strings holding a JSON object or array are diffed as that JSON inside `jsonencode(...)`;
- `UNKNOWN` (a value known only after apply) shows as `(known after apply)`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from engine.gocompat.json import RawNumber

CREATE, DELETE, UPDATE, NOOP = "create", "delete", "update", "noop"

# Placeholders that `finish` turns into plain or coloured text.
ARROW, TO_NULL, COMMENT_OPEN, COMMENT_CLOSE = "\ue000", "\ue001", "\ue002", "\ue003"
_PLAIN = {ARROW: " -> ", TO_NULL: " -> null", COMMENT_OPEN: "", COMMENT_CLOSE: ""}
_COLORED = {
    ARROW: " \x1b[33m->\x1b[0m\x1b[0m ",
    TO_NULL: " \x1b[90m-> null\x1b[0m\x1b[0m",
    COMMENT_OPEN: "\x1b[90m",
    COMMENT_CLOSE: "\x1b[0m\x1b[0m",
}


def finish(text: str, color: bool) -> str:
    """Replace the renderer's placeholders with plain text or Terraform's colours."""
    table = _COLORED if color else _PLAIN
    for token, repl in table.items():
        text = text.replace(token, repl)
    return text
SIGNS = {CREATE: "+", DELETE: "-", UPDATE: "~", NOOP: " "}

_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_-]*$")


class _Absent:
    def __repr__(self) -> str:
        return "ABSENT"


ABSENT: Any = _Absent()


class _Unknown:
    def __repr__(self) -> str:
        return "UNKNOWN"


UNKNOWN: Any = _Unknown()  # a value only known after apply
KNOWN_AFTER_APPLY = "(known after apply)"


@dataclass(slots=True)
class Diff:
    """The change from `before` to `after` (either may be ABSENT), with its children."""

    action: str
    kind: str  # "primitive", "object", "array", "typechange", "json", "unknown"
    before: Any = None
    after: Any = None
    attrs: dict[str, Diff] = field(default_factory=dict)
    elems: list[Diff] = field(default_factory=list)
    parts: tuple[Diff, ...] = ()


def _jtype(v: Any) -> str:
    if v is UNKNOWN:
        return "unknown"
    if v is ABSENT or v is None:
        return "null"
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, dict):
        return "object"
    if isinstance(v, list):
        return "array"
    if isinstance(v, RawNumber) or (isinstance(v, (int, float)) and not isinstance(v, bool)):
        return "number"
    return "string"


def _same(a: Any, b: Any) -> bool:
    """Deep equality that tells numbers from strings (RawNumber is a str)."""
    ta = _jtype(a)
    if ta != _jtype(b):
        return False
    if ta == "object":
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if ta == "array":
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if ta == "null":
        return (a is ABSENT) == (b is ABSENT)
    if ta == "unknown":
        return False
    return bool(a == b)


def compute(before: Any, after: Any) -> Diff:
    """Diff two JSON values; ABSENT stands for "no value at all"."""
    if after is UNKNOWN:
        return Diff(CREATE if before is ABSENT else UPDATE, "unknown", before, after)
    bt, at = _jtype(before), _jtype(after)
    created = bt == "null" and before is ABSENT
    deleted = at == "null" and after is ABSENT
    if bt == at or created or deleted:
        target = at if bt == "null" else bt
        if target == "object":
            return _object(before, after)
        if target == "array":
            return _array(before, after)
        if target == "string":
            as_json = _json_strings(before, after)
            if as_json is not None:
                return as_json
        return _primitive(before, after)
    b = compute(before, ABSENT)
    a = compute(ABSENT, after)
    return Diff(UPDATE, "typechange", before, after, parts=(b, a))


def _json_container(v: Any) -> Any:
    """The JSON object or array a string holds (ABSENT when it holds none)."""
    if not isinstance(v, str) or isinstance(v, RawNumber):
        return ABSENT
    text = v.strip()
    if not text.startswith(("{", "[")):
        return ABSENT
    from engine.gocompat.json import loads

    try:
        data = loads(v)
    except ValueError:
        return ABSENT
    return data if isinstance(data, (dict, list)) else ABSENT


def _json_strings(before: Any, after: Any) -> Diff | None:
    """Strings holding JSON are diffed as the JSON they hold (`jsonencode(...)`)."""
    jb, ja = _json_container(before), _json_container(after)
    b_json = before is ABSENT or jb is not ABSENT
    a_json = after is ABSENT or ja is not ABSENT
    if jb is ABSENT and ja is ABSENT:
        return None
    if b_json and a_json:
        inner = compute(jb, ja)
        return Diff(inner.action, "json", before, after, parts=(inner,))
    b = _json_strings(before, ABSENT) if jb is not ABSENT else _primitive(before, ABSENT)
    a = _json_strings(ABSENT, after) if ja is not ABSENT else _primitive(ABSENT, after)
    assert b is not None and a is not None
    return Diff(UPDATE, "typechange", before, after, parts=(b, a))


def _primitive(before: Any, after: Any) -> Diff:
    if before is ABSENT and after is not ABSENT:
        action = CREATE
    elif before is not ABSENT and after is ABSENT:
        action = DELETE
    elif _same(before, after):
        action = NOOP
    else:
        action = UPDATE
    return Diff(action, "primitive", before, after)


def _combine(current: str, child: str) -> str:
    if current == child or child == NOOP:
        return current
    if current == NOOP:
        return UPDATE if child in (CREATE, DELETE) else child
    return UPDATE


def _object(before: Any, after: Any) -> Diff:
    bmap = before if isinstance(before, dict) else {}
    amap = after if isinstance(after, dict) else {}
    if before is ABSENT or before is None:
        action = CREATE
    elif after is ABSENT or after is None:
        action = DELETE
    else:
        action = NOOP
    diff = Diff(action, "object", before, after)
    for key in sorted(set(bmap) | set(amap)):
        child = compute(bmap.get(key, ABSENT), amap.get(key, ABSENT))
        diff.attrs[key] = child
        if action not in (CREATE, DELETE):
            action = _combine(action, child.action)
    diff.action = action
    return diff


def _lcs(a: list[Any], b: list[Any]) -> list[Any]:
    n, m = len(a), len(b)
    table = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        for j in range(m - 1, -1, -1):
            if _same(a[i], b[j]):
                table[i][j] = table[i + 1][j + 1] + 1
            else:
                table[i][j] = max(table[i + 1][j], table[i][j + 1])
    out: list[Any] = []
    i = j = 0
    while i < n and j < m:
        if _same(a[i], b[j]):
            out.append(a[i])
            i += 1
            j += 1
        elif table[i + 1][j] >= table[i][j + 1]:
            i += 1
        else:
            j += 1
    return out


def _array(before: Any, after: Any) -> Diff:
    blist = before if isinstance(before, list) else []
    alist = after if isinstance(after, list) else []
    if before is ABSENT or before is None:
        action = CREATE
    elif after is ABSENT or after is None:
        action = DELETE
    else:
        action = NOOP
    diff = Diff(action, "array", before, after)
    common = _lcs(blist, alist)
    bi = ai = ci = 0
    while bi < len(blist) or ai < len(alist) or ci < len(common):
        gap_b: list[Any] = []
        gap_a: list[Any] = []
        while bi < len(blist) and (ci >= len(common) or not _same(blist[bi], common[ci])):
            gap_b.append(blist[bi])
            bi += 1
        while ai < len(alist) and (ci >= len(common) or not _same(alist[ai], common[ci])):
            gap_a.append(alist[ai])
            ai += 1
        if gap_b and len(gap_b) == len(gap_a):
            diff.elems.extend(compute(b, a) for b, a in zip(gap_b, gap_a))
        else:
            diff.elems.extend(compute(b, ABSENT) for b in gap_b)
            diff.elems.extend(compute(ABSENT, a) for a in gap_a)
        if ci < len(common):
            diff.elems.append(compute(blist[bi], alist[ai]))
            bi += 1
            ai += 1
            ci += 1
    if action == NOOP:
        for e in diff.elems:
            action = _combine(action, e.action)
    diff.action = action
    return diff


# ------------------------------------------------------------------------------ rendering
def quote_string(s: str) -> str:
    """A string as the plan renderer quotes it (JSON escapes, U+2028/9 escaped)."""
    out = ['"']
    for ch in s:
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            out.append("\\\\")
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\r":
            out.append("\\r")
        elif ch == "\t":
            out.append("\\t")
        elif ch in "\u2028\u2029\ue000\ue001\ue002\ue003" or ord(ch) < 0x20:
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def format_primitive(v: Any) -> str:
    if v is None or v is ABSENT:
        return "null"
    if v is True:
        return "true"
    if v is False:
        return "false"
    if isinstance(v, RawNumber):
        return str(v)
    if isinstance(v, (int, float)):
        return str(v)
    return quote_string(str(v))


def attribute_name(key: str) -> str:
    return key if _IDENT.match(key) else quote_string(key)


def _plural(n: int, word: str) -> str:
    return f"{n} unchanged {word}" + ("" if n == 1 else "s") + " hidden"


def _is_multiline(v: Any) -> bool:
    return isinstance(v, str) and not isinstance(v, RawNumber) and "\n" in v


def _heredoc_lines(s: str) -> list[str]:
    if s.endswith("\n"):
        s = s[:-1]
    return s.split("\n")


def render_change(diff: Diff, indent: int, null_suffix: bool = True) -> str:
    """The text of `diff` after `= ` (or after a list element's sign)."""
    suffix = TO_NULL if diff.action == DELETE and null_suffix else ""
    pad = " " * indent
    if diff.kind == "typechange":
        b, a = diff.parts
        return render_change(b, indent, False) + ARROW + render_change(a, indent)
    if diff.kind == "primitive":
        return _render_primitive(diff, indent) + suffix
    if diff.kind == "unknown":
        if diff.before is ABSENT or diff.before is None:
            return KNOWN_AFTER_APPLY
        old = render_change(compute(diff.before, ABSENT), indent, null_suffix=False)
        return old + ARROW + KNOWN_AFTER_APPLY
    if diff.kind == "json":
        inner = diff.parts[0]
        if inner.action == UPDATE:
            head = f"{pad}    ~ "
        else:
            head = f"{pad}      "
        body = render_change(inner, indent + 4, null_suffix=False)
        return f"jsonencode(\n{head}{body}\n{pad}  )" + suffix
    if diff.kind == "object":
        keys = list(diff.attrs)
        if not keys:
            return "{}" + suffix
        width = max(len(attribute_name(k)) for k in keys)
        lines = ["{"]
        hidden = 0
        for key in keys:
            child = diff.attrs[key]
            if diff.action == UPDATE and child.action == NOOP:
                hidden += 1
                continue
            sign = SIGNS[child.action if diff.action != NOOP else NOOP]
            text = render_change(child, indent + 4, null_suffix=diff.action != DELETE)
            lines.append(f"{pad}    {sign} {attribute_name(key).ljust(width)} = {text}")
        if hidden:
            lines.append(f"{pad}      {COMMENT_OPEN}# ({_plural(hidden, 'attribute')}){COMMENT_CLOSE}")
        lines.append(f"{pad}  }}")
        return "\n".join(lines) + suffix
    # array
    if not diff.elems:
        return "[]" + suffix
    lines = ["["]
    elems = diff.elems
    hidden = 0

    def flush() -> None:
        nonlocal hidden
        if hidden:
            lines.append(f"{pad}      {COMMENT_OPEN}# ({_plural(hidden, 'element')}){COMMENT_CLOSE}")
            hidden = 0

    for i, child in enumerate(elems):
        if diff.action == UPDATE and child.action == NOOP:
            near = (i > 0 and elems[i - 1].action != NOOP) or (
                i + 1 < len(elems) and elems[i + 1].action != NOOP
            )
            if not near:
                hidden += 1
                continue
        flush()
        sign = SIGNS[child.action if diff.action != NOOP else NOOP]
        text = render_change(child, indent + 4, null_suffix=False)
        lines.append(f"{pad}    {sign} {text},")
    flush()
    lines.append(f"{pad}  ]")
    return "\n".join(lines) + suffix


def _render_primitive(diff: Diff, indent: int) -> str:
    b, a = diff.before, diff.after
    pad = " " * indent
    if diff.action == UPDATE and _is_multiline(b) and _is_multiline(a):
        old, new = _heredoc_lines(b), _heredoc_lines(a)
        lines = ["<<-EOT"]
        for line_diff in _array(old, new).elems:
            if line_diff.action == NOOP:
                lines.append(f"{pad}      {line_diff.after}".rstrip())
            elif line_diff.action == UPDATE:
                lines.append(f"{pad}    - {line_diff.before}".rstrip())
                lines.append(f"{pad}    + {line_diff.after}".rstrip())
            elif line_diff.action == DELETE:
                lines.append(f"{pad}    - {line_diff.before}".rstrip())
            else:
                lines.append(f"{pad}    + {line_diff.after}".rstrip())
        lines.append(f"{pad}  EOT")
        return "\n".join(lines)
    if diff.action == UPDATE:
        return f"{_render_value(b, indent)}{ARROW}{_render_value(a, indent)}"
    if diff.action == DELETE:
        return _render_value(b, indent)
    return _render_value(a, indent)


def _render_value(v: Any, indent: int) -> str:
    if _is_multiline(v):
        pad = " " * indent
        body = "\n".join(f"{pad}      {line}".rstrip() for line in _heredoc_lines(v))
        return f"<<-EOT\n{body}\n{pad}  EOT"
    return format_primitive(v)
