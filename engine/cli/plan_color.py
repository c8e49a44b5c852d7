"""Terraform's colours for the parts of a rendered plan this renderer colours: the "No
changes." headings and the "Changes to Outputs:" block (change signs green/red/yellow,
`->` yellow, `-> null` and `# (... hidden)` comments grey), byte for byte as terraform's
colorizer emits them. Resource bodies stay plain (the renderer gives them no colours yet).
"""

from __future__ import annotations

import re

_HEADING = re.compile(r"^\n(No changes\.)( [^\n]*)\n\n", re.M)
_SIGN = re.compile(r"^( *)([+\-~]) ")
_SIGN_COLORS = {"+": "\x1b[32m+", "-": "\x1b[31m-", "~": "\x1b[33m~"}
_END = "\x1b[0m\x1b[0m"
OUTPUTS = "\nChanges to Outputs:\n"


def color_plan(text: str) -> str:
    """`text` (a plan as engine.plans.render_human renders it) with terraform's colours."""
    text = _HEADING.sub(
        lambda m: f"\n\x1b[0m\x1b[1m\x1b[32m{m.group(1)}\x1b[0m\x1b[1m{m.group(2)}\x1b[0m\n\n"
                  "\x1b[0m", text, count=1)
    at = text.find(OUTPUTS)
    if at < 0:
        return text
    start = at + len(OUTPUTS)
    end = text.find("\n\n", start)
    end = len(text) if end < 0 else end
    block = "\n".join(_color_line(line) for line in text[start:end].split("\n"))
    return text[:start] + block + text[end:]


def _color_line(line: str) -> str:
    m = _SIGN.match(line)
    if m:
        line = m.group(1) + _SIGN_COLORS[m.group(2)] + _END + " " + line[m.end():]
    return _outside_strings(line)


def _outside_strings(line: str) -> str:
    """Colour ` -> null`, ` -> ` and `# (...)` comments that are not inside a quoted string."""
    out: list[str] = []
    i, n, quoted = 0, len(line), False
    while i < n:
        ch = line[i]
        if quoted:
            out.append(ch)
            if ch == "\\" and i + 1 < n:
                out.append(line[i + 1])
                i += 1
            elif ch == '"':
                quoted = False
            i += 1
            continue
        if ch == '"':
            quoted = True
        elif line.startswith(" -> null", i) and line[i + 8:i + 9] in ("", " ", "\n"):
            out.append(" \x1b[90m-> null" + _END)
            i += 8
            continue
        elif line.startswith(" -> ", i):
            out.append(" \x1b[33m->" + _END + " ")
            i += 4
            continue
        elif line.startswith("# (", i):
            out.append("\x1b[90m" + line[i:] + _END)
            break
        out.append(ch)
        i += 1
    return "".join(out)


__all__ = ["color_plan"]
