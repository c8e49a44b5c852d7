"""The parser's token cursor: peeking with HCL's newline filtering, and error recovery.

This is HCL's `peeker` plus the recovery helpers of its parser. Comments are always skipped;
a `#`/`//` comment that swallowed its newline reads as a NEWLINE token (with the comment's
range) while newlines are significant. Whether newlines are significant is a stack:
brackets, parentheses and template sequences push "ignore", object constructors push
"include".

`ParserBase` is abstract in one method, `parse_expression`: the sub-parsers of `for`
expressions and templates (parser_for, parser_template) call back into it without importing
the expression parser (parser_expr), which imports them.
"""

from __future__ import annotations

from abc import ABC, abstractmethod

from engine.diags import Diagnostic
from engine.hcl.ast import Expr, LiteralValueExpr
from engine.hcl.lexer import (
    CBRACE,
    CBRACK,
    CHEREDOC,
    COMMENT,
    CPAREN,
    CQUOTE,
    EOF,
    IDENT,
    NEWLINE,
    NIL,
    OBRACE,
    OBRACK,
    OHEREDOC,
    OPAREN,
    OQUOTE,
    TEMPLATE_CONTROL,
    TEMPLATE_INTERP,
    TEMPLATE_SEQ_END,
    Tokens,
)
from engine.source import Range
from engine.values import DYNAMIC, UNKNOWN, Value

_OPPOSITE = {
    OBRACE: CBRACE, OBRACK: CBRACK, OPAREN: CPAREN, OQUOTE: CQUOTE, OHEREDOC: CHEREDOC,
    CBRACE: OBRACE, CBRACK: OBRACK, CPAREN: OPAREN, CQUOTE: OQUOTE, CHEREDOC: OHEREDOC,
    TEMPLATE_CONTROL: TEMPLATE_SEQ_END, TEMPLATE_INTERP: TEMPLATE_SEQ_END,
    TEMPLATE_SEQ_END: TEMPLATE_INTERP,
}


def opposite(kind: int) -> int:
    """The bracket kind that closes (or opens) `kind`, or NIL."""
    return _OPPOSITE.get(kind, NIL)


def between(a: Range, b: Range) -> Range:
    """HCL's RangeBetween: from the earlier start to the later end."""
    s = a.start_offset if a.start_offset <= b.start_offset else b.start_offset
    e = a.end_offset if a.end_offset >= b.end_offset else b.end_offset
    return Range(a.file, s, e)


class ParserBase(ABC):
    """Cursor over a token stream; `pj` is the index of the token last peeked."""

    def __init__(self, tokens: Tokens) -> None:
        self.tokens = tokens
        self.file = tokens.file
        self.text = tokens.file.text
        self.kinds = tokens.kinds
        self.starts = tokens.starts
        self.ends = tokens.ends
        # A second EOF after the real one lets the cursor step past EOF, as HCL's does.
        tokens.kinds.append(EOF)
        tokens.starts.append(tokens.starts[-1])
        tokens.ends.append(tokens.ends[-1])
        self.last = len(tokens.kinds) - 1
        self.i = 0
        self.pj = 0
        self.nl_stack: list[bool] = [True]
        self.nl = True
        self.recovery = False
        self.diags: list[Diagnostic] = []

    @abstractmethod
    def parse_expression(self) -> Expr:
        """A full expression at the cursor (the conditional level)."""

    def is_keyword(self, word: str) -> bool:
        """Whether the next significant token is the identifier `word`."""
        return self.peek() == IDENT and self.tok_text(self.pj) == word

    # -- peeking ------------------------------------------------------------------------------
    def peek(self) -> int:
        """The kind of the next significant token (its index is left in `self.pj`)."""
        i = self.i
        kinds = self.kinds
        k = kinds[i]
        if k == COMMENT or (k == NEWLINE and not self.nl):
            return self._peek_slow(i)
        self.pj = i
        return k

    def _peek_slow(self, i: int) -> int:
        kinds = self.kinds
        text = self.text
        while True:
            k = kinds[i]
            if k == COMMENT:
                if self.nl and text[self.ends[i] - 1] == "\n":
                    self.pj = i
                    return NEWLINE
                i += 1
                continue
            if k == NEWLINE and not self.nl:
                i += 1
                continue
            self.pj = i
            return k

    def read(self) -> int:
        """Consume the next significant token; returns its kind (index in `self.pj`)."""
        i = self.i
        k = self.kinds[i]
        if k == COMMENT or (k == NEWLINE and not self.nl):  # peek() inlined
            k = self._peek_slow(i)
            i = self.pj
        else:
            self.pj = i
        self.i = i + 1 if i < self.last else i
        return k

    def rng(self, j: int) -> Range:
        return Range(self.file, self.starts[j], self.ends[j])

    def next_range(self) -> Range:
        self.peek()
        return self.rng(self.pj)

    def prev_range(self) -> Range:
        i = self.i
        return self.rng(i - 1 if i > 0 else 0)

    def read_tok(self) -> tuple[int, int]:
        """Consume the next token; returns (kind, index)."""
        i = self.i
        k = self.kinds[i]
        if k == COMMENT or (k == NEWLINE and not self.nl):  # peek() inlined
            k = self._peek_slow(i)
            i = self.pj
        else:
            self.pj = i
        self.i = i + 1 if i < self.last else i
        return k, i

    def push_nl(self, include: bool) -> None:
        self.nl_stack.append(include)
        self.nl = include

    def pop_nl(self) -> None:
        self.nl_stack.pop()
        self.nl = self.nl_stack[-1]

    def tok_text(self, j: int) -> str:
        return self.text[self.starts[j] : self.ends[j]]

    # -- recovery -----------------------------------------------------------------------------
    def recover(self, end: int) -> int:
        """Skip to just after the `end` token closing the current bracket; returns its index."""
        start = opposite(end)
        self.recovery = True
        nest = 0
        while True:
            ty, j = self.read_tok()
            if end == TEMPLATE_SEQ_END and ty == TEMPLATE_CONTROL:
                ty = TEMPLATE_INTERP
            if ty == start:
                nest += 1
            elif ty == end:
                if nest < 1:
                    return j
                nest -= 1
            elif ty == EOF:
                return j

    def recover_over(self, start: int) -> None:
        """Skip past the next bracketed group opened by `start`."""
        end = opposite(start)
        while True:
            ty, _ = self.read_tok()
            if ty in (start, EOF):
                break
        self.recover(end)

    def recover_after_body_item(self) -> None:
        """Skip to the end of the current body item (a newline outside any brackets)."""
        self.recovery = True
        open_: list[int] = []
        while True:
            ty, _ = self.read_tok()
            if ty == NEWLINE:
                if not open_:
                    return
            elif ty == EOF:
                return
            elif ty in (OBRACE, OBRACK, OPAREN, OQUOTE, OHEREDOC, TEMPLATE_INTERP, TEMPLATE_CONTROL):
                open_.append(ty)
            elif ty in (CBRACE, CBRACK, CPAREN, CQUOTE, CHEREDOC):
                opener = opposite(ty)
                while open_ and open_[-1] != opener:
                    open_.pop()
                if open_:
                    open_.pop()
            elif ty == TEMPLATE_SEQ_END:
                while open_ and open_[-1] not in (TEMPLATE_INTERP, TEMPLATE_CONTROL):
                    open_.pop()
                if open_:
                    open_.pop()


def placeholder(rng: Range) -> LiteralValueExpr:
    """The expression left where a syntax error made parsing impossible: unknown, dynamic."""
    return LiteralValueExpr(Value(DYNAMIC, UNKNOWN), rng)
