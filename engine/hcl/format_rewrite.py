"""`terraform fmt`'s rewrites on top of hclwrite's whitespace formatting.

`format_terraform(text)` returns the canonical form of a valid native-syntax file as
`terraform fmt` writes it:

- every block label is written as a quoted string (`resource aws_instance x` becomes
  `resource "aws_instance" "x"`) and comments between the block type and `{` are dropped;
- an attribute value that is only one interpolation (`"${var.x}"`) is unwrapped to the
  expression itself (in parentheses when it spans lines);
- in a top-level `variable` block, `type = "string"`/`"list"`/`"map"` become `string`,
  `list(string)`, `map(string)`, and bare `list`/`map`/`set` become `list(any)` etc.;
- then hclwrite's whitespace rules (`engine.hcl.format`).

The structure is found on the token stream: the caller must have checked that the text
parses. Expressions nested inside other expressions are not rewritten, as in terraform.
"""

from __future__ import annotations

import re

from engine.hcl.format import FTok, bracket_change, format_tokens, render, tokens_for_format
from engine.hcl.lexer import (
    CBRACE,
    COMMENT,
    CPAREN,
    CQUOTE,
    EQUAL,
    IDENT,
    NEWLINE,
    OBRACE,
    OPAREN,
    OQUOTE,
    QUOTED_LIT,
    TEMPLATE_INTERP,
    TEMPLATE_SEQ_END,
)

_ESCAPES = {"n": "\n", "r": "\r", "t": "\t", '"': '"', "\\": "\\"}
_ESCAPE_RE = re.compile(r"\\(?:u([0-9a-fA-F]{4})|U([0-9a-fA-F]{8})|(.))|\$\$\{|%%\{", re.S)


def _unescape(lit: str) -> str:
    def one(m: re.Match[str]) -> str:
        whole = m.group(0)
        if whole in ("$${", "%%{"):
            return whole[1:]
        code = m.group(1) or m.group(2)
        if code:
            return chr(int(code, 16))
        return _ESCAPES.get(m.group(3), whole)

    return _ESCAPE_RE.sub(one, lit)


def quote_literal(value: str) -> str:
    """A string as hclwrite writes a quoted literal (escapeQuotedStringLit): `\\n` `\\r` `\\t`
    `\\"` `\\\\`, `${`/`%{` doubled so they stay literal, other non-printable characters as
    `\\uXXXX` (`\\UXXXXXXXX` beyond the BMP)."""
    out: list[str] = []
    i = 0
    while i < len(value):
        c = value[i]
        if c in "$%" and value.startswith("{", i + 1):
            out.append(c + c + "{")
            i += 2
            continue
        if c == "\n":
            out.append("\\n")
        elif c == "\r":
            out.append("\\r")
        elif c == "\t":
            out.append("\\t")
        elif c == '"':
            out.append('\\"')
        elif c == "\\":
            out.append("\\\\")
        elif not c.isprintable():  # Go's unicode.IsPrint: categories L M N P S, and " "
            out.append(f"\\u{ord(c):04x}" if ord(c) < 0x10000 else f"\\U{ord(c):08x}")
        else:
            out.append(c)
        i += 1
    return '"' + "".join(out) + '"'


def _label_tokens(value: str) -> list[FTok]:
    quoted = quote_literal(value)
    toks = [FTok(OQUOTE, '"')]
    if len(quoted) > 2:
        toks.append(FTok(QUOTED_LIT, quoted[1:-1]))
    toks.append(FTok(CQUOTE, '"'))
    return toks


def _expr_end(toks: list[FTok], i: int) -> int:
    """The index just past an attribute's expression that starts at `i` (trailing
    comments on its line excluded)."""
    depth = 0
    j = i
    while j < len(toks):
        tok = toks[j]
        if depth == 0 and (tok.kind == NEWLINE or (tok.kind == COMMENT and tok.text.endswith("\n"))):
            break
        if depth == 0 and tok.kind == CBRACE:
            break  # the end of a one-line block
        depth += bracket_change(tok)
        if tok.kind == OQUOTE:
            depth += 1
        elif tok.kind == CQUOTE:
            depth -= 1
        j += 1
    while j > i and toks[j - 1].kind == COMMENT:
        j -= 1
    return j


def _unwrap_interpolation(expr: list[FTok]) -> list[FTok]:
    if len(expr) < 5:
        return expr
    if (
        expr[0].kind != OQUOTE
        or expr[1].kind != TEMPLATE_INTERP
        or expr[-2].kind != TEMPLATE_SEQ_END
        or expr[-1].kind != CQUOTE
    ):
        return expr
    inside = expr[2:-2]
    quotes = 0
    for tok in inside:
        if tok.kind == OQUOTE:
            quotes += 1
        elif tok.kind == CQUOTE:
            quotes -= 1
        elif quotes > 0:
            continue
        elif tok.kind in (TEMPLATE_INTERP, TEMPLATE_SEQ_END, QUOTED_LIT):
            return expr
    start, end = 0, len(inside)
    while start < end and inside[start].kind == NEWLINE:
        start += 1
    while end > start and inside[end - 1].kind == NEWLINE:
        end -= 1
    trimmed = inside[start:end]
    multiline = any(t.kind == NEWLINE for t in trimmed[1:-1]) if len(trimmed) > 2 else False
    parens = bool(trimmed) and trimmed[0].kind == OPAREN and trimmed[-1].kind == CPAREN
    if multiline and not parens:
        return [FTok(OPAREN, "("), *trimmed, FTok(CPAREN, ")")]
    return trimmed


def _type_expr(expr: list[FTok]) -> list[FTok]:
    if len(expr) == 1 and expr[0].kind == IDENT and expr[0].text in ("list", "map", "set"):
        return [expr[0], FTok(OPAREN, "("), FTok(IDENT, "any"), FTok(CPAREN, ")")]
    if (
        len(expr) == 3
        and expr[0].kind == OQUOTE
        and expr[1].kind == QUOTED_LIT
        and expr[2].kind == CQUOTE
    ):
        name = expr[1].text
        if name == "string":
            return [FTok(IDENT, "string")]
        if name in ("list", "map"):
            return [FTok(IDENT, name), FTok(OPAREN, "("), FTok(IDENT, "string"), FTok(CPAREN, ")")]
    return expr


def _body(toks: list[FTok], i: int, blocks: list[str], out: list[FTok]) -> int:
    """Copy a body's tokens from `i` to `out`, rewritten; the index of the token that ends
    it (its closing brace, or the end of the stream)."""
    n = len(toks)
    while i < n:
        tok = toks[i]
        if tok.kind == CBRACE:
            return i
        if tok.kind != IDENT:
            out.append(tok)
            i += 1
            continue
        j = i + 1
        if j < n and toks[j].kind == EQUAL:
            end = _expr_end(toks, j + 1)
            expr = toks[j + 1 : end]
            if blocks == ["variable"] and tok.text == "type":
                new = _type_expr(expr)
            else:
                new = _unwrap_interpolation(expr)
            out.extend([tok, toks[j], *new])
            i = end
            continue
        # A block: its type, labels (comments between them dropped), then its body.
        out.append(tok)
        while j < n and toks[j].kind != OBRACE:
            lt = toks[j]
            if lt.kind == IDENT:
                out.extend(_label_tokens(lt.text))
            elif lt.kind == OQUOTE:
                k = j + 1
                while toks[k].kind != CQUOTE:
                    k += 1
                # As hclwrite's Labels(): a label split into several literal tokens
                # (`"a$${b}"`) is not recognised, so terraform fmt drops it.
                if k - j <= 2:
                    out.extend(_label_tokens(_unescape(toks[j + 1].text if k - j == 2 else "")))
                j = k
            j += 1
        out.append(toks[j])
        close = _body(toks, j + 1, [*blocks, tok.text], out)
        if close < n:
            out.append(toks[close])
        i = close + 1
    return i


def rewrite_tokens(toks: list[FTok]) -> list[FTok]:
    """The token stream with terraform fmt's label, interpolation and type rewrites."""
    out: list[FTok] = []
    _body(toks, 0, [], out)
    return out


def format_terraform(text: str) -> str:
    """`text` (valid native syntax) exactly as `terraform fmt` writes it."""
    toks = rewrite_tokens(tokens_for_format(text))
    format_tokens(toks)
    return render(toks)
