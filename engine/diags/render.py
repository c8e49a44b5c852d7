"""Rendering diagnostics the way Terraform does, for people and as JSON."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from engine.diags.diagnostic import Diagnostic
from engine.source import Range

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


@dataclass(frozen=True, slots=True)
class Snippet:
    """The source lines a diagnostic shows and the part of them to highlight.

    As terraform builds it: the lines overlapping the context range (or the subject's),
    extended to include the subject; offsets are characters into `code` (lines joined with
    newlines); an empty subject is widened to one character.
    """

    context: str | None
    code: str
    start_line: int
    highlight_start: int
    highlight_end: int


def snippet_of(diag: Diagnostic) -> Snippet | None:
    rng = diag.subject
    if rng is None:
        return None
    file = rng.file
    hl_start, hl_end = rng.start_offset, max(rng.end_offset, rng.start_offset)
    span_start, span_end = hl_start, hl_end
    if diag.context is not None and diag.context.file is file:
        span_start = min(span_start, diag.context.start_offset)
        span_end = max(span_end, diag.context.end_offset)
    if hl_end == hl_start:
        hl_end += 1
    first_line, _ = file.line_col(span_start)
    last_line, _ = file.line_col(
        max(span_start, span_end - 1) if span_end > span_start else span_end
    )
    code = "\n".join(file.line_text(n) for n in range(first_line, last_line + 1))
    code_start = file.line_starts[first_line - 1]
    start = min(hl_start - code_start, len(code))
    end = min(start + (hl_end - hl_start), len(code))
    return Snippet(_context_of(rng), code, first_line, start, end)


# terraform's colour codes; each colorstring.Color() call also appends a reset at its end
_RESET, _BOLD, _UNDERLINE, _GRAY = "\x1b[0m", "\x1b[1m", "\x1b[4m", "\x1b[90m"
_RED, _YELLOW = "\x1b[31m", "\x1b[33m"


def render_diagnostic(diag: Diagnostic, color: bool = False, box: bool = True) -> str:
    """One diagnostic as terraform prints it: with `box`, inside its left rule (and ANSI
    colours when `color`); without, as `-no-color` prints it. Details are printed as given
    (the caller wraps them to the terminal width)."""
    c = color

    def paint(text: str) -> str:
        return text + _RESET if c else text

    def code(seq: str) -> str:
        return seq if c else ""

    kind = "Error" if diag.is_error else "Warning"
    tint = _RED if diag.is_error else _YELLOW
    out: list[str] = []
    out.append(paint(f"{code(_BOLD)}{code(tint)}{kind}: {code(_RESET)}"))
    out.append(paint(f"{code(_BOLD)}{diag.summary}{code(_RESET)}\n\n"))
    if diag.address:
        out.append(f"  with {diag.address},\n")
    snip = snippet_of(diag)
    if snip is not None and diag.subject is not None:
        where = f"  on {diag.subject.filename} line {diag.subject.start.line}"
        out.append(where + (f", in {snip.context}:\n" if snip.context else ":\n"))
        before = snip.code[: snip.highlight_start]
        highlight = snip.code[snip.highlight_start : snip.highlight_end]
        after = snip.code[snip.highlight_end :]
        marked = paint(f"{before}{code(_UNDERLINE)}{highlight}{code(_RESET)}{after}")
        for i, line in enumerate(marked.split("\n")):
            out.append(f"{snip.start_line + i:>4}: {line}\n")
        if diag.values:
            out.append(paint(f"    {code(_GRAY)}├────────────────{code(_RESET)}\n"))
            calls = [v for v in diag.values if v.traversal == "while calling"]
            others = sorted(
                (v for v in diag.values if v.traversal != "while calling"),
                key=lambda v: v.traversal,
            )
            for v in calls:
                name, _, rest = v.statement.partition("(")
                out.append(
                    paint(
                        f"    {code(_GRAY)}│{code(_RESET)} while calling {code(_BOLD)}{name}"
                        f"{code(_RESET)}("
                    )
                    + rest
                    + "\n"
                )
            for v in others:
                out.append(
                    paint(
                        f"    {code(_GRAY)}│{code(_RESET)} {code(_BOLD)}{v.traversal}"
                        f"{code(_RESET)} {v.statement}\n"
                    )
                )
        out.append("\n")
    if diag.detail:
        out.append(diag.detail + "\n")
    body = "".join(out)
    if not box:
        return "\n" + body
    lines = body.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    rule = paint(f"{code(tint)}│{code(_RESET)} ")
    empty_rule = rule.strip()
    start_rule = paint(f"{code(tint)}╷{code(_RESET)}")
    end_rule = paint(f"{code(tint)}╵{code(_RESET)}")
    framed = [start_rule] + [(rule if ln else empty_rule) + ln for ln in lines] + [end_rule]
    return "\n".join(framed) + "\n"


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
    if diag.address:
        out["address"] = diag.address
    if diag.subject is not None:
        rng = diag.subject
        out["range"] = _pos_json(rng)
        if rng.end_offset <= rng.start_offset:
            # as terraform: an empty range is widened to one character
            end = out["range"]["end"] = dict(out["range"]["start"])
            end["byte"] += 1
            end["column"] += 1
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
        if hl_end <= hl_start:  # widened to one character, within the line
            hl_end = min(hl_start + 1, len(code_line.encode("utf-8")))
        out["snippet"] = {
            "context": _context_of(rng),
            "code": code_line,
            "start_line": start.line,
            "highlight_start_offset": hl_start,
            "highlight_end_offset": hl_end,
            "values": [{"traversal": v.traversal, "statement": v.statement} for v in diag.values],
        }
    return out
