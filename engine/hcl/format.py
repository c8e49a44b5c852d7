"""Canonical whitespace for native-syntax HCL, as hclwrite's `format` does it.

The input is a flat token list (`FTok`: kind, text, spaces before). Formatting changes only
the number of spaces before each token, in three passes over the lines of the stream:

1. indentation: two spaces per open bracket level, counted per line (a line that opens
   several brackets indents its successors by one level only);
2. spacing between the tokens of a line (`space_after`, hclwrite's `spaceAfterToken`);
3. alignment: the `=` of consecutive single-line attributes, then trailing comments of
   consecutive lines, are put in one column.

A heredoc's literal lines end in their own newline, so a whole heredoc belongs to the line
that opens it and its text is never re-indented. `render` writes the tokens back out and
ends the text with a newline when it does not already end with one.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.hcl.lexer import (
    AND,
    BANG,
    CBRACE,
    CBRACK,
    CHEREDOC,
    COLON,
    COMMA,
    COMMENT,
    CPAREN,
    CQUOTE,
    DOT,
    ELLIPSIS,
    EOF,
    EQUAL,
    EQUALOP,
    GT,
    GTE,
    IDENT,
    LT,
    LTE,
    MINUS,
    NEWLINE,
    NIL,
    NOTEQUAL,
    NUMBER_LIT,
    OBRACE,
    OBRACK,
    OHEREDOC,
    OPAREN,
    OQUOTE,
    OR,
    PERCENT,
    PLUS,
    QUESTION,
    QUOTED_LIT,
    SLASH,
    STAR,
    STRING_LIT,
    TEMPLATE_CONTROL,
    TEMPLATE_INTERP,
    TEMPLATE_SEQ_END,
    lex,
)
from engine.source import SourceFile


@dataclass(slots=True)
class FTok:
    """One token for formatting: its kind (lexer constants), text and spaces before it."""

    kind: int
    text: str
    spaces: int = 0


_NIL = FTok(NIL, "")

_OPENERS = frozenset({OBRACE, OBRACK, OPAREN, TEMPLATE_CONTROL, TEMPLATE_INTERP})
_CLOSERS = frozenset({CBRACE, CBRACK, CPAREN, TEMPLATE_SEQ_END})

# A minus after one of these is a negation (no space after it).
_NEGATION_CONTEXT = frozenset({
    NIL, OPAREN, OBRACE, OBRACK, EQUAL, COLON, COMMA, QUESTION,
    PLUS, STAR, SLASH, PERCENT, MINUS,
    EQUALOP, NOTEQUAL, GT, GTE, LT, LTE,
    AND, OR, BANG,
})
_TEMPLATE_TEXT_SUBJECT = frozenset({QUOTED_LIT, STRING_LIT, OQUOTE, OHEREDOC})
_TEMPLATE_TEXT_AFTER = frozenset({QUOTED_LIT, STRING_LIT, CQUOTE, CHEREDOC})


def tokens_for_format(text: str, filename: str = "<fmt>") -> list[FTok]:
    """The source's tokens (without EOF), with the spaces the source had before each."""
    toks = lex(SourceFile(filename, text))
    out: list[FTok] = []
    last = 1 if text.startswith("\ufeff") else 0
    for i, kind in enumerate(toks.kinds):
        if kind == EOF:
            break
        start, end = toks.starts[i], toks.ends[i]
        out.append(FTok(kind, text[start:end], start - last))
        last = end
    return out


def bracket_change(tok: FTok) -> int:
    """+1 for an opening bracket (including `${` and `%{`), -1 for a closing one, else 0."""
    if tok.kind in _OPENERS:
        return 1
    if tok.kind in _CLOSERS:
        return -1
    return 0


def _is_newline(tok: FTok) -> bool:
    # Single-line comments consume their newline, so they end a line too.
    return tok.kind == NEWLINE or (tok.kind == COMMENT and tok.text.endswith("\n"))


@dataclass(slots=True)
class _Line:
    """One line of a body as the formatter aligns it: leading tokens, assignment and comment."""

    lead: list[FTok]
    assign: list[FTok] | None = None
    comment: list[FTok] | None = None


def _columns(toks: list[FTok] | None) -> int:
    if not toks:
        return 0
    return sum(t.spaces + len(t.text) for t in toks)


def _net_brackets(toks: list[FTok]) -> int:
    net = 0
    for tok in toks:
        net += bracket_change(tok)
        if tok.kind == OHEREDOC:
            break
    return net


def _lines(tokens: list[FTok]) -> list[_Line]:
    lines: list[_Line] = []
    current: list[FTok] = []
    for tok in tokens:
        current.append(tok)
        if _is_newline(tok):
            lines.append(_Line(current))
            current = []
    lines.append(_Line(current))
    for line in lines:
        lead = line.lead
        if not lead:
            continue
        if len(lead) > 1 and lead[-1].kind == COMMENT:
            line.comment = lead[-1:]
            lead = line.lead = lead[:-1]
        for i, tok in enumerate(lead):
            if i > 0 and tok.kind == EQUAL:
                if _net_brackets(lead[i:]) == 0:
                    line.assign = lead[i:]
                    line.lead = lead[:i]
                break
    return lines


def _format_indent(lines: list[_Line]) -> None:
    indents: list[int] = []
    for line in lines:
        if not line.lead:
            continue
        if line.lead[0].kind == NEWLINE:
            line.lead[0].spaces = 0
            continue
        net = _net_brackets(line.lead) + _net_brackets(line.assign or [])
        if net > 0:
            line.lead[0].spaces = 2 * len(indents)
            indents.append(net)
            continue
        closed = -net
        while closed > 0 and indents:
            if closed > indents[-1]:
                closed -= indents.pop()
            elif closed < indents[-1]:
                indents[-1] -= closed
                closed = 0
            else:
                indents.pop()
                closed = 0
        line.lead[0].spaces = 2 * len(indents)


def space_after(subject: FTok, before: FTok, after: FTok) -> bool:
    """Whether `subject` is followed by one space (else none), given its neighbours on the
    line (`before`/`after` are the NIL token at the ends of a cell)."""
    sk, ak = subject.kind, after.kind
    if ak in (NEWLINE, NIL):
        return False
    if sk == IDENT and ak == OPAREN:
        return False
    if sk == DOT or ak == DOT:
        return False
    if ak in (COMMA, ELLIPSIS):
        return False
    if sk == COMMA:
        return True
    if sk in _TEMPLATE_TEXT_SUBJECT or ak in _TEMPLATE_TEXT_AFTER:
        return False
    if sk == IDENT and subject.text == "in" and before.kind == IDENT:
        return True  # the `in` keyword of a for expression: `in [foo]`, not `in[foo]`
    if ak == OBRACK and (sk in (IDENT, NUMBER_LIT) or bracket_change(subject) < 0):
        return False
    if sk == BANG:
        return False
    if sk == MINUS:
        return before.kind not in _NEGATION_CONTEXT
    if sk == OBRACE or ak == CBRACE:
        return not (sk == OBRACE and ak == CBRACE)
    if sk in (TEMPLATE_INTERP, TEMPLATE_CONTROL) and ak == OBRACE:
        return True
    if sk == CBRACE and ak == TEMPLATE_SEQ_END:
        return True
    if sk == TEMPLATE_SEQ_END and ak == TEMPLATE_INTERP:
        return False
    if bracket_change(subject) > 0:
        return False  # no space after an opening bracket
    return bracket_change(after) >= 0  # no space before a closing bracket


def _space_cell(cell: list[FTok]) -> None:
    last = len(cell) - 1
    for i, tok in enumerate(cell):
        before = cell[i - 1] if i > 0 else _NIL
        after = cell[i + 1] if i < last else _NIL
        if after is not _NIL:
            after.spaces = 1 if space_after(tok, before, after) else 0


def _format_spaces(lines: list[_Line]) -> None:
    for line in lines:
        _space_cell(line.lead)
        if line.assign:
            line.assign[0].spaces = 1
            _space_cell(line.assign)


def _format_cells(lines: list[_Line]) -> None:
    def chains(has: list[bool]) -> list[tuple[int, int]]:
        out: list[tuple[int, int]] = []
        start = -1
        for i, flag in enumerate(has):
            if flag and start < 0:
                start = i
            elif not flag and start >= 0:
                out.append((start, i))
                start = -1
        if start >= 0:
            out.append((start, len(has)))
        return out

    for a, b in chains([line.assign is not None for line in lines]):
        width = max(_columns(line.lead) for line in lines[a:b])
        for line in lines[a:b]:
            assert line.assign is not None
            line.assign[0].spaces = width - _columns(line.lead) + 1
    for a, b in chains([line.comment is not None for line in lines]):
        width = max(_columns(line.lead) + _columns(line.assign) for line in lines[a:b])
        for line in lines[a:b]:
            assert line.comment is not None
            line.comment[0].spaces = width - _columns(line.lead) - _columns(line.assign) + 1


def format_tokens(tokens: list[FTok]) -> None:
    """Adjust the spaces before every token in place to hclwrite's canonical layout."""
    lines = _lines(tokens)
    _format_indent(lines)
    _format_spaces(lines)
    _format_cells(lines)


def render(tokens: list[FTok]) -> str:
    """The tokens as text, ending with a newline."""
    out = "".join(" " * t.spaces + t.text for t in tokens)
    return out if out.endswith("\n") else out + "\n"


def format_source(text: str) -> str:
    """`text` (valid native syntax) in hclwrite's canonical whitespace, without Terraform's
    rewrites (see `engine.hcl.format_rewrite` for those)."""
    tokens = tokens_for_format(text)
    format_tokens(tokens)
    return render(tokens)
