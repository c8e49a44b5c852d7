"""Rendering diagnostics the way Terraform does, for people and as JSON."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from engine.diags.diagnostic import Diagnostic
from engine.source import Range, SourceFile

# Finds the "in resource "x" "y"" context for a range; the hcl package registers one so that
# this module need not import the parser.
ContextFinder = Callable[[Range], str | None]
_context_finders: list[ContextFinder] = []


def register_context_finder(finder: ContextFinder) -> None:
    _context_finders.append(finder)


def _context_of(rng: Range) -> str | None:
    """The enclosing block's header (JSON: the path to the enclosing object), found as
    terraform does: at the byte just before the subject, so a subject that starts a block
    (its header) has no context of its own."""
    byte = rng.start.byte
    if byte <= 0:
        return None
    src = rng.file.snippet_file()
    at = src.char_at_byte(byte - 1) if src is not rng.file else rng.start_offset - 1
    probe = Range(src, at, at)
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


@dataclass(frozen=True, slots=True)
class _Lines:
    """What terraform's JSON diagnostic snippet holds, before it is told in characters or
    bytes: the lines' text as shown and as read (bytes that were not UTF-8 kept, one
    character each), the first line's number, the highlight's byte offsets in them."""

    code: str
    raw: str
    start_line: int
    highlight_start: int
    highlight_end: int


def _line_bytes(file: SourceFile, line: int) -> tuple[int, int, int, int]:
    """A 1-based line without its line ending (bufio.ScanLines): start and end as
    characters, then as bytes."""
    starts = file.line_starts
    text = file.text
    start = starts[line - 1]
    end = starts[line] - 1 if line < len(starts) else len(text)
    if end > start and text[end - 1] == "\r":
        end -= 1
    return start, end, file.byte_offset(start), file.byte_offset(end)


def _snippet_lines(diag: Diagnostic, rng: Range) -> _Lines:
    """terraform's snippet (views/json NewDiagnostic): the lines that overlap the context
    and subject (`hcl.Range.Overlaps`, in bytes; an empty line never does), and the
    subject's offsets in them, capped to their length; an empty subject is widened."""
    src = rng.file.snippet_file()
    s, e = rng.start, rng.end
    hl_start, hl_end = s.byte, max(e.byte, s.byte)
    snip_start, snip_end, snip_line = hl_start, hl_end, s.line
    ctx = diag.context
    if ctx is not None and ctx.file.snippet_file() is src:
        cs, ce = ctx.start, ctx.end
        if cs.byte < snip_start:
            snip_start, snip_line = cs.byte, cs.line
        snip_end = max(snip_end, ce.byte)
    if snip_end == snip_start:
        snip_end += 1
    if hl_end == hl_start:
        hl_end += 1
    raw: list[str] = []
    code_start = 0
    count = len(src.line_starts)
    line = max(1, min(snip_line, count) - 1)
    while line <= count:
        cs_, ce_, ls, le = _line_bytes(src, line)
        if ls > snip_end:
            break
        if le > ls and (ls <= snip_start < le or ls <= snip_end < le
                        or snip_start <= ls < snip_end or snip_start <= le < snip_end):
            if not raw:
                code_start = ls
            raw.append(src.text[cs_:ce_])
        line += 1
    raw_code = "\n".join(raw)
    code = "\n".join(_shown(t) for t in raw)
    size = len(raw_code.encode("utf-8", "surrogateescape"))
    start = min(max(hl_start - code_start, 0), size)
    end = min(max(start + (hl_end - hl_start), 0), size)
    return _Lines(code, raw_code, snip_line, start, end)


def _shown(text: str) -> str:
    """A line as terraform shows it: bytes that were not UTF-8 as U+FFFD."""
    if text.isascii():
        return text
    return "".join("\ufffd" if "\udc80" <= c <= "\udcff" else c for c in text)


def _chars(raw: str, nbytes: int) -> int:
    """How many characters of `raw` its first `nbytes` bytes hold (a partial one not)."""
    if raw.isascii():
        return nbytes
    seen = 0
    for i, c in enumerate(raw):
        seen += len(c.encode("utf-8", "surrogateescape"))
        if seen > nbytes:
            return i
    return len(raw)


def snippet_of(diag: Diagnostic, raw_bytes: bool = False) -> Snippet | None:
    """The snippet terraform's human output shows: its JSON snippet, offsets in characters.
    With `raw_bytes` the code keeps bytes that were not UTF-8 (as lone surrogates, for a
    stream that writes them back as the bytes terraform prints), else shows U+FFFD."""
    rng = diag.subject
    if rng is None:
        return None
    lines = _snippet_lines(diag, rng)
    start = _chars(lines.raw, lines.highlight_start)
    end = _chars(lines.raw, lines.highlight_end)
    code = lines.raw if raw_bytes else lines.code
    return Snippet(_context_of(rng), code, lines.start_line, start, end)


# terraform's colour codes; each colorstring.Color() call also appends a reset at its end
_RESET, _BOLD, _UNDERLINE, _GRAY = "\x1b[0m", "\x1b[1m", "\x1b[4m", "\x1b[90m"
_RED, _YELLOW = "\x1b[31m", "\x1b[33m"


def render_diagnostic(
    diag: Diagnostic, color: bool = False, box: bool = True, raw_bytes: bool = False
) -> str:
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
    snip = snippet_of(diag, raw_bytes)
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


def terraform_order(diags: Iterable[Diagnostic]) -> list[Diagnostic]:
    """Diagnostics in the order terraform's human output shows them (tfdiags' Sort, which
    every view applies; engine.diags.presentation.sort_key)."""
    from engine.diags.presentation import sort_key

    return sorted(diags, key=sort_key)


def render_diagnostics(diags: Iterable[Diagnostic], color: bool = False, box: bool = True) -> str:
    return "".join(render_diagnostic(d, color=color, box=box) for d in diags)


def _pos_json(rng: Range) -> dict[str, Any]:
    s, e = rng.start, rng.end
    return {
        "filename": rng.filename,
        "start": {"line": s.line, "column": s.column, "byte": s.byte},
        "end": {"line": e.line, "column": e.column, "byte": e.byte},
    }


def _json_snippet(diag: Diagnostic, rng: Range) -> dict[str, Any]:
    lines = _snippet_lines(diag, rng)
    return {
        "context": _context_of(rng),
        "code": lines.code,
        "start_line": lines.start_line,
        "highlight_start_offset": lines.highlight_start,
        "highlight_end_offset": lines.highlight_end,
        "values": [{"traversal": v.traversal, "statement": v.statement} for v in diag.values],
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
        if rng.end.byte <= rng.start.byte:
            # as terraform: an empty range is widened to one character
            end = out["range"]["end"] = dict(out["range"]["start"])
            end["byte"] += 1
            end["column"] += 1
        out["snippet"] = _json_snippet(diag, rng)
    return out
