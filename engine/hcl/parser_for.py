"""For-expressions: `[for k, v in coll : value if cond]` and `{for ... : key => value... }`.

HCL's finishParsingForExpr: newlines are insignificant throughout, a missing piece gives an
"Invalid 'for' expression" error with a detail naming what was expected, and a
placeholder is returned in place of the whole expression.
"""

from __future__ import annotations

from engine.diags import error
from engine.hcl.ast import Expr, ForExpr
from engine.hcl.lexer import CBRACE, CBRACK, COLON, COMMA, ELLIPSIS, FATARROW, IDENT, OBRACE
from engine.hcl.parser_base import ParserBase, between, placeholder

_SUMMARY = "Invalid 'for' expression"


def finish_for_expr(p: ParserBase, open_j: int) -> Expr:
    """Parse a for-expression whose opening bracket (token `open_j`) was read and whose
    `for` keyword is next."""
    p.push_nl(False)
    try:
        return _finish(p, open_j)
    finally:
        p.pop_nl()


def _fail(p: ParserBase, open_j: int, close_kind: int, detail: str) -> Expr:
    open_rng = p.rng(open_j)
    if not p.recovery:
        p.peek()
        nrng = p.rng(p.pj)
        p.diags.append(error(_SUMMARY, detail, nrng, between(open_rng, nrng)))
    cj = p.recover(close_kind)
    return placeholder(between(open_rng, p.rng(cj)))


def _finish(p: ParserBase, open_j: int) -> Expr:
    diags = p.diags
    p.read()  # "for"
    make_obj = p.kinds[open_j] == OBRACE
    close_kind = CBRACE if make_obj else CBRACK
    open_rng = p.rng(open_j)

    if p.peek() != IDENT:
        return _fail(p, open_j, close_kind, "For expression requires variable name after 'for'.")
    _, vj = p.read_tok()
    key_name: str | None = None
    val_name = p.tok_text(vj)
    if p.peek() == COMMA:
        key_name = val_name
        p.read()
        if p.peek() != IDENT:
            return _fail(
                p, open_j, close_kind, "For expression requires value variable name after comma."
            )
        _, vj = p.read_tok()
        val_name = p.tok_text(vj)
    if not p.is_keyword("in"):
        return _fail(
            p,
            open_j,
            close_kind,
            "For expression requires the 'in' keyword after its name declarations.",
        )
    p.read()
    n0 = len(diags)
    coll = p.parse_expression()
    if p.recovery and len(diags) > n0:
        cj = p.recover(close_kind)
        return placeholder(between(open_rng, p.rng(cj)))
    if p.peek() != COLON:
        return _fail(
            p, open_j, close_kind, "For expression requires a colon after the collection expression."
        )
    p.read()

    key_expr: Expr | None = None
    n1 = len(diags)
    val_expr = p.parse_expression()
    if p.peek() == FATARROW:
        p.read()
        key_expr = val_expr
        val_expr = p.parse_expression()
    if p.recovery and len(diags) > n1:
        cj = p.recover(close_kind)
        return placeholder(between(open_rng, p.rng(cj)))

    group = False
    ellipsis_j = -1
    if p.peek() == ELLIPSIS:
        _, ellipsis_j = p.read_tok()
        group = True

    cond: Expr | None = None
    if p.is_keyword("if"):
        p.read()
        n2 = len(diags)
        cond = p.parse_expression()
        if p.recovery and len(diags) > n2:
            cj = p.recover(close_kind)
            return placeholder(between(open_rng, p.rng(cj)))

    if p.peek() == close_kind:
        _, cj = p.read_tok()
    else:
        if not p.recovery:
            nrng = p.rng(p.pj)
            diags.append(
                error(
                    _SUMMARY,
                    "Extra characters after the end of the 'for' expression.",
                    nrng,
                    between(open_rng, nrng),
                )
            )
        cj = p.recover(close_kind)
    close_rng = p.rng(cj)
    whole = between(open_rng, close_rng)

    if not make_obj:
        if key_expr is not None:
            diags.append(
                error(
                    _SUMMARY, "Key expression is not valid when building a tuple.",
                    key_expr.range, whole,
                )
            )
        if group:
            diags.append(
                error(
                    _SUMMARY,
                    "Grouping ellipsis (...) cannot be used when building a tuple.",
                    p.rng(ellipsis_j),
                    whole,
                )
            )
    elif key_expr is None:
        diags.append(
            error(
                _SUMMARY, "Key expression is required when building an object.",
                val_expr.range, whole,
            )
        )
    return ForExpr(
        key_name, val_name, coll, key_expr, val_expr, cond, group, whole, open_rng, close_rng
    )
