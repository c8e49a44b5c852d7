"""Rendering diagnostics the way Terraform does, for people and as JSON."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from engine.diags.diagnostic import Diagnostic
from engine.hcl.source import Range

# Finds the "in resource "x" "y"" context for a range; the hcl package registers one so that
# this module need not import the parser.
ContextFinder = Callable[[Range], str | None]
_context_finders: list[ContextFinder] = []


def register_context_finder(finder: ContextFinder) -> None:
    _context_finders.append(finder)


def _context_of(rng: Range) -> str | None:
    """The enclosing block's header, found as terraform does: at the byte just before the
    subject, so a subject that starts a block (its header) has no context of its own."""
    if rng.start_offset == 0:
        return None
    probe = Range(rng.file, rng.start_offset - 1, rng.start_offset - 1)
    for finder in _context_finders:
        found = finder(probe)
        if found:
            return found
    return None


def render_diagnostic(diag: Diagnostic, color: bool = False, box: bool = True) -> str:
    """One diagnostic as terraform prints it (`box=False` is `-no-color` style)."""
    kind = "Error" if diag.is_error else "Warning"
    lines: list[str] = [f"{kind}: {diag.summary}", ""]
    if diag.subject is not None:
        rng = diag.subject
        start = rng.start
        ctx = _context_of(rng)
        where = f"  on {rng.filename} line {start.line}"
        lines.append(where + (f", in {ctx}:" if ctx else ":"))
        first = diag.context.start.line if diag.context is not None else start.line
        last = diag.context.end.line if diag.context is not None else start.line
        first = min(first, start.line)
        last = max(last, start.line)
        for n in range(first, last + 1):
            lines.append(f"{n:>4}: {rng.file.line_text(n)}")
        if diag.values:
            lines.append("    ├────────────────")
            for v in diag.values:
                lines.append(f"    │ {v.traversal} {v.statement}")
        lines.append("")
    if diag.detail:
        lines.extend(diag.detail.split("\n"))
    while lines and lines[-1] == "":
        lines.pop()
    if not box:
        return "\n" + "\n".join(lines) + "\n"
    body = "\n".join(("│ " + ln) if ln else "│" for ln in lines)
    return "╷\n" + body + "\n╵\n"


def render_diagnostics(diags: Iterable[Diagnostic], color: bool = False, box: bool = True) -> str:
    return "".join(render_diagnostic(d, color=color, box=box) for d in diags)


def _pos_json(rng: Range) -> dict[str, Any]:
    s, e = rng.start, rng.end
    return {
        "filename": rng.filename,
        "start": {"line": s.line, "column": s.column, "byte": s.byte},
        "end": {"line": e.line, "column": e.column, "byte": e.byte},
    }


def to_json(diag: Diagnostic) -> dict[str, Any]:
    """Terraform's machine-readable diagnostic object (`validate -json`, `-json` UI)."""
    out: dict[str, Any] = {
        "severity": diag.severity.value,
        "summary": diag.summary,
        "detail": diag.detail,
    }
    if diag.subject is not None:
        rng = diag.subject
        out["range"] = _pos_json(rng)
        start = rng.start
        code_line = rng.file.line_text(start.line)
        line_start = rng.file.line_starts[start.line - 1]
        hl_start = rng.start_offset - line_start
        hl_end = min(rng.end_offset - line_start, len(code_line))
        if rng.file.text[line_start:].isascii() is False:
            enc = code_line.encode("utf-8")
            hl_start = len(code_line[:hl_start].encode("utf-8"))
            hl_end = len(code_line[:hl_end].encode("utf-8"))
            hl_end = min(hl_end, len(enc))
        out["snippet"] = {
            "context": _context_of(rng),
            "code": code_line,
            "start_line": start.line,
            "highlight_start_offset": hl_start,
            "highlight_end_offset": max(hl_end, hl_start),
            "values": [{"traversal": v.traversal, "statement": v.statement} for v in diag.values],
        }
    return out
