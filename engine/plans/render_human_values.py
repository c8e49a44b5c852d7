"""Rendering diff trees (engine.plans.diff) as terraform's human plan shows values.

`render(diff, indent, opts)` is the text after `name = `; nested lines are indented by four
spaces per level followed by the action symbol (`  +`, `  -`, `  ~`, `   `), collections end
with `]`/`}` lines, deleted values get ` -> null`, values that force replacement get
` # forces replacement`, unchanged children are hidden and counted
(`# (2 unchanged attributes hidden)`), except `id`, `name` and `tags` which always show.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, replace
from typing import Any

from engine.gocompat.strconv import quote as go_quote
from engine.plans.diff import CREATE, DELETE, NOOP, UPDATE, Diff
from engine.plans.diff_change import Change

SYMBOLS = {CREATE: "  +", DELETE: "  -", UPDATE: "  ~", NOOP: "   "}
IMPORTANT = ("id", "name", "tags")
_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_-]*$")


@dataclass(frozen=True, slots=True)
class Opts:
    """Rendering switches passed down a value's diff (renderer options of terraform's jsonformat).
    """

    override_null_suffix: bool = False
    override_forces_replacement: bool = False
    forbid_forces_replacement: bool = False
    show_unchanged_children: bool = False


def indent_str(n: int) -> str:
    return "    " * n


def _null_suffix(action: str, opts: Opts) -> str:
    return " -> null" if action == DELETE and not opts.override_null_suffix else ""


def _forces(replace_: bool, opts: Opts) -> str:
    if opts.forbid_forces_replacement:
        return ""
    return " # forces replacement" if replace_ or opts.override_forces_replacement else ""


def _unchanged(keyword: str, count: int) -> str:
    return f"# ({count} unchanged {keyword}{'' if count == 1 else 's'} hidden)"


def attribute_name(name: str) -> str:
    """A name as an attribute key: bare when a valid identifier, else quoted."""
    return name if _IDENT.match(name) else go_quote(name)


def format_number(v: Any) -> str:
    """A JSON number as the plan shows it: its exact JSON text."""
    return str(v)


# ------------------------------------------------------------------------------ dispatch
def render(d: Diff, indent: int, opts: Opts) -> str:
    fn = _RENDERERS[d.kind]
    return fn(d, indent, opts)


def warnings(d: Diff, indent: int) -> list[str]:
    """Sensitivity-change warnings shown above an attribute line."""
    if d.kind != "sensitive" or d.inner is None:
        return []
    if d.before_sensitive == d.after_sensitive or d.inner.action in (CREATE, DELETE):
        return []
    if d.before_sensitive:
        w = (f"  # Warning: this attribute value will no longer be marked as sensitive\n"
             f"{indent_str(indent)}  # after applying this change.")
    else:
        w = (f"  # Warning: this attribute value will be marked as sensitive and will not\n"
             f"{indent_str(indent)}  # display in UI output after applying this change.")
    if d.inner.action == NOOP:
        w += " The value is unchanged."
    return [w]


# ------------------------------------------------------------------------------ primitives
def _plain(v: Any, ctype: str) -> str:
    if v is None:
        return "null"
    if ctype == "bool" or isinstance(v, bool):
        return "true" if v else "false"
    return format_number(v)


def _json_of(s: Any) -> Any:
    if not isinstance(s, str):
        return None
    t = s.strip()
    if not t or t[0] not in "{[":
        return None
    try:
        parsed = json.loads(t)
    except ValueError:
        return None
    return parsed if isinstance(parsed, (dict, list)) else None


def _primitive(d: Diff, indent: int, opts: Opts) -> str:
    if d.ctype == "string":
        return _string(d, indent, opts)
    b, a = _plain(d.before, d.ctype), _plain(d.after, d.ctype)
    f = _forces(d.replace, opts)
    if d.action == CREATE:
        return a + f
    if d.action == DELETE:
        return b + _null_suffix(d.action, opts) + f
    if d.action == NOOP:
        return b + f
    return f"{b} -> {a}{f}"


def _heredoc_lines(s: str, indent: int, symbol: str) -> list[str]:
    return [f"{indent_str(indent + 1)}{symbol} {line}" for line in s.split("\n")]


def _string(d: Diff, indent: int, opts: Opts) -> str:
    f = _forces(d.replace, opts)
    lines: list[str]
    if d.action in (CREATE, NOOP, DELETE):
        s = d.after if d.action != DELETE else d.before
        j = _json_of(s)
        if j is not None:
            if d.action == NOOP:
                return _json_string(d, indent, opts, j, j)
            return _json_string(d, indent, opts, None if d.action == CREATE else j,
                                j if d.action == CREATE else None)
        text = str(s)
        suffix = _null_suffix(d.action, opts) if d.action == DELETE else ""
        if "\n" not in text:
            return go_quote(text) + suffix + f
        lines = _heredoc_lines(text, indent, SYMBOLS[NOOP])
    else:
        bj, aj = _json_of(d.before), _json_of(d.after)
        if bj is not None and aj is not None:
            return _json_string(d, indent, opts, bj, aj)
        if bj is not None or aj is not None:
            tc = Diff("typechange", d.action, d.replace, elements=[
                Diff("primitive", DELETE, before=d.before, ctype="string"),
                Diff("primitive", CREATE, after=d.after, ctype="string")])
            return render(tc, indent, opts)
        bs, as_ = str(d.before), str(d.after)
        if "\n" not in bs and "\n" not in as_:
            return f"{go_quote(bs)} -> {go_quote(as_)}{f}"
        from engine.plans.diff import _slice_pairs

        bl, al = bs.split("\n"), as_.split("\n")
        lines = []
        for bi, ai in _slice_pairs(bl, al, lambda _: False):
            if bi >= len(bl):
                lines.append(f"{indent_str(indent + 1)}{SYMBOLS[CREATE]} {al[ai]}")
            elif ai >= len(al):
                lines.append(f"{indent_str(indent + 1)}{SYMBOLS[DELETE]} {bl[bi]}")
            else:
                lines.append(f"{indent_str(indent + 1)}{SYMBOLS[NOOP]} {bl[bi]}")
    body = "\n".join(lines)
    return (f"<<-EOT{f}\n{body}\n{indent_str(indent)}{SYMBOLS[NOOP]} EOT"
            f"{_null_suffix(d.action, opts)}")


def _json_string(d: Diff, indent: int, opts: Opts, before: Any, after: Any) -> str:
    from engine.plans.diff import diff_output

    jd = diff_output(Change(before=before, after=after, before_explicit=before is not None,
                            after_explicit=after is not None))
    action = d.action
    whitespace = replace_ = ""
    jopts = opts
    if jd.action == NOOP and d.action == UPDATE:
        whitespace = (" # whitespace changes force replacement" if d.replace
                      else " # whitespace changes")
        jopts = replace(opts, show_unchanged_children=True)
        action = NOOP
    else:
        replace_ = _forces(d.replace, opts)
    rendered = render(jd, indent + 1, jopts)
    if d.action in (CREATE, DELETE):
        action = NOOP
    if "\n" in rendered:
        return (f"jsonencode({whitespace}\n{indent_str(indent + 1)}{SYMBOLS[action]} "
                f"{rendered}{replace_}\n{indent_str(indent + 1)})")
    return f"jsonencode({rendered}){whitespace}{replace_}"


# ------------------------------------------------------------------------------ composites
def _object(d: Diff, indent: int, opts: Opts) -> str:
    f = _forces(d.replace, opts)
    if not d.children:
        return "{}" + _null_suffix(d.action, opts) + f
    attr_opts = replace(opts, override_null_suffix=d.kind == "object")
    keys = sorted(d.children)
    width = max(len(attribute_name(k)) for k in keys)
    out = [f"{{{f}\n"]
    hidden = 0
    for k in keys:
        child = d.children[k]
        o = attr_opts
        if k in IMPORTANT:
            o = replace(attr_opts, show_unchanged_children=True)
        elif child.action == NOOP and not opts.show_unchanged_children:
            hidden += 1
            continue
        for w in warnings(child, indent + 1):
            out.append(f"{indent_str(indent + 1)}{w}\n")
        out.append(f"{indent_str(indent + 1)}{SYMBOLS[child.action]} "
                   f"{attribute_name(k):<{width}} = {render(child, indent + 1, o)}\n")
    if hidden:
        out.append(f"{indent_str(indent + 1)}{SYMBOLS[NOOP]} {_unchanged('attribute', hidden)}\n")
    out.append(f"{indent_str(indent)}{SYMBOLS[NOOP]} }}{_null_suffix(d.action, opts)}")
    return "".join(out)


def _map(d: Diff, indent: int, opts: Opts) -> str:
    f = _forces(d.replace, opts)
    if not d.children:
        return "{}" + _null_suffix(d.action, opts) + f
    keys = sorted(d.children)
    width = max(len(go_quote(k)) for k in keys)
    elem_opts = replace(opts, override_null_suffix=d.action == DELETE)
    out = [f"{{{f}\n"]
    hidden = 0
    for k in keys:
        child = d.children[k]
        if child.action == NOOP and not opts.show_unchanged_children:
            hidden += 1
            continue
        for w in warnings(child, indent + 1):
            out.append(f"{indent_str(indent + 1)}{w}\n")
        comma = "," if child.kind in ("object", "nested_object") else ""
        out.append(f"{indent_str(indent + 1)}{SYMBOLS[child.action]} {go_quote(k):<{width}} = "
                   f"{render(child, indent + 1, elem_opts)}{comma}\n")
    if hidden:
        out.append(f"{indent_str(indent + 1)}{SYMBOLS[NOOP]} {_unchanged('element', hidden)}\n")
    out.append(f"{indent_str(indent)}{SYMBOLS[NOOP]} }}{_null_suffix(d.action, opts)}")
    return "".join(out)


def _list(d: Diff, indent: int, opts: Opts) -> str:
    f = _forces(d.replace, opts)
    if not d.elements:
        return "[]" + _null_suffix(d.action, opts) + f
    context = d.kind == "list"
    elem_opts = replace(opts, override_null_suffix=True)
    unchanged_opts = replace(opts, show_unchanged_children=True)
    pending: list[Diff] = []
    render_next = False
    out = [f"[{f}\n"]
    pad = indent_str(indent + 1)
    for e in d.elements:
        if e.action == NOOP and not render_next and not opts.show_unchanged_children:
            pending.append(e)
            continue
        render_next = False
        o = elem_opts
        if context:
            if len(pending) > 1:
                out.append(f"{pad}{SYMBOLS[NOOP]} {_unchanged('element', len(pending) - 1)}\n")
            if pending:
                last = pending[-1]
                out.append(f"{pad}{SYMBOLS[last.action]} {render(last, indent + 1, unchanged_opts)},\n")
            pending = []
            if e.action == NOOP:
                o = unchanged_opts
            else:
                render_next = True
        for w in warnings(e, indent + 1):
            out.append(f"{pad}{w}\n")
        out.append(f"{pad}{SYMBOLS[e.action]} {render(e, indent + 1, o)},\n")
    if pending:
        out.append(f"{pad}{SYMBOLS[NOOP]} {_unchanged('element', len(pending))}\n")
    out.append(f"{indent_str(indent)}{SYMBOLS[NOOP]} ]{_null_suffix(d.action, opts)}")
    return "".join(out)


def _set(d: Diff, indent: int, opts: Opts) -> str:
    f = _forces(d.replace, opts)
    if not d.elements:
        return "[]" + _null_suffix(d.action, opts) + f
    elem_opts = replace(opts, override_null_suffix=True, override_forces_replacement=d.replace)
    out = [f"[{f}\n"]
    hidden = 0
    pad = indent_str(indent + 1)
    for e in d.elements:
        if e.action == NOOP and not opts.show_unchanged_children:
            hidden += 1
            continue
        for w in warnings(e, indent + 1):
            out.append(f"{pad}{w}\n")
        out.append(f"{pad}{SYMBOLS[e.action]} {render(e, indent + 1, elem_opts)},\n")
    if hidden:
        out.append(f"{pad}{SYMBOLS[NOOP]} {_unchanged('element', hidden)}\n")
    out.append(f"{indent_str(indent)}{SYMBOLS[NOOP]} ]{_null_suffix(d.action, opts)}")
    return "".join(out)


def _unknown(d: Diff, indent: int, opts: Opts) -> str:
    if d.action == CREATE or d.inner is None:
        return "(known after apply)" + _forces(d.replace, opts)
    bopts = replace(opts, override_null_suffix=True, forbid_forces_replacement=d.replace)
    return f"{render(d.inner, indent, bopts)} -> (known after apply){_forces(d.replace, opts)}"


def _sensitive(d: Diff, indent: int, opts: Opts) -> str:
    return "(sensitive value)" + _null_suffix(d.action, opts) + _forces(d.replace, opts)


def _typechange(d: Diff, indent: int, opts: Opts) -> str:
    b, a = d.elements
    bopts = replace(opts, override_null_suffix=True)
    return f"{render(b, indent, bopts)} -> {render(a, indent, opts)}{_forces(d.replace, opts)}"


def _block(d: Diff, indent: int, opts: Opts) -> str:
    f = _forces(d.replace, opts)
    if not d.children and not d.blocks:
        return "{}" + f
    keys = sorted(d.children)
    width = max((len(attribute_name(k)) for k in keys), default=0)
    out = [f"{{{f}\n"]
    pad = indent_str(indent + 1)
    hidden = 0
    for k in keys:
        child = d.children[k]
        o = opts
        if k in IMPORTANT:
            o = replace(opts, show_unchanged_children=True)
            name = k
        elif child.action == NOOP and not opts.show_unchanged_children:
            hidden += 1
            continue
        else:
            name = attribute_name(k)
        for w in warnings(child, indent + 1):
            out.append(f"{pad}{w}\n")
        out.append(f"{pad}{SYMBOLS[child.action]} {name:<{width}} = {render(child, indent + 1, o)}\n")
    if hidden:
        out.append(f"{pad}{SYMBOLS[NOOP]} {_unchanged('attribute', hidden)}\n")
    hidden_blocks = 0
    last_name = None
    for name, key, child in d.blocks:
        if child.action == NOOP and not opts.show_unchanged_children:
            hidden_blocks += 1
            continue
        if name != last_name and d.children:
            out.append("\n")
        last_name = name
        out.append(f"{pad}{SYMBOLS[child.action]} {attribute_name(name)}{key} "
                   f"{render(child, indent + 1, opts)}\n")
    if hidden_blocks:
        out.append(f"\n{pad}{SYMBOLS[NOOP]} {_unchanged('block', hidden_blocks)}\n")
    out.append(f"{indent_str(indent)}{SYMBOLS[NOOP]} }}")
    return "".join(out)


_RENDERERS = {
    "primitive": _primitive,
    "object": _object,
    "nested_object": _object,
    "map": _map,
    "list": _list,
    "nested_list": _list,
    "set": _set,
    "unknown": _unknown,
    "sensitive": _sensitive,
    "typechange": _typechange,
    "block": _block,
}
