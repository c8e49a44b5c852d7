"""Templates: quoted strings, heredocs and bare templates, with `${}` and `%{}` directives.

Two passes, as HCL's parser_template.go: first the raw tokens become "template tokens"
(literals with escapes decoded and `~` stripping applied to the neighbouring literal token,
interpolations, if/for openers and else/endif/endfor closers); then, after `<<-` dedenting
and merging adjacent literals, those are folded into the expression tree.
"""

from __future__ import annotations

from typing import Any

from engine.diags import error
from engine.gocompat.levenshtein import name_suggestion
from engine.hcl.ast import Expr, LiteralValueExpr, TemplateExpr, TemplateForExpr, TemplateIfExpr
from engine.hcl.lexer import (
    COLON,
    COMMA,
    CQUOTE,
    EOF,
    IDENT,
    OQUOTE,
    QUOTED_LIT,
    STRING_LIT,
    TEMPLATE_CONTROL,
    TEMPLATE_INTERP,
    TEMPLATE_SEQ_END,
)
from engine.hcl.parser_base import ParserBase, between, placeholder
from engine.hcl.template_literal import decode_literal
from engine.source import Range
from engine.values import string

# Template token tags. A template token is a list: [tag, payload..., range].
LIT, INTERP, IF, FOR, ENDCTL, END = "lit", "interp", "if", "for", "endctl", "end"
_KEYWORDS = ("if", "for", "else", "endif", "endfor")


def parse_template_inner(
    p: ParserBase, end: int, flush: bool
) -> tuple[list[Expr], bool, Range]:
    """Parse template content up to the `end` token; returns (parts, passthru, range).

    `passthru` is true when the template is exactly one interpolation (`"${x}"`), which
    the caller turns into a TemplateWrapExpr."""
    parts, rng = _parse_parts(p, end)
    if flush:
        _flush_heredoc(parts)
    _meld(parts)
    exprs = _TreeBuilder(p, parts).parse_root()
    passthru = len(parts) == 2 and parts[0][0] == INTERP
    return exprs, passthru, rng


def _strip_trailing(parts: list[list[Any]], can_trim_prev: bool) -> None:
    if can_trim_prev and parts and parts[-1][0] == LIT:
        parts[-1][1] = parts[-1][1].rstrip()


def _parse_parts(p: ParserBase, end: int) -> tuple[list[list[Any]], Range]:
    diags = p.diags
    parts: list[list[Any]] = []
    start_rng = p.next_range()
    ltrim_next = False
    next_can_trim_prev = False
    end_rng = start_rng
    text = p.text
    while True:
        k, j = p.read_tok()
        if k == end:
            end_rng = p.rng(j)
            break
        ltrim = ltrim_next
        ltrim_next = False
        can_trim_prev = next_can_trim_prev
        next_can_trim_prev = False
        if k in (STRING_LIT, QUOTED_LIT):
            s = decode_literal(p.file, p.starts[j], p.ends[j], k == QUOTED_LIT, diags)
            if ltrim:
                s = s.lstrip()
            parts.append([LIT, s, p.starts[j], p.ends[j]])
            next_can_trim_prev = True
        elif k == TEMPLATE_INTERP:
            if p.ends[j] - p.starts[j] == 3:  # "${~"
                _strip_trailing(parts, can_trim_prev)
            p.push_nl(False)
            expr = p.parse_expression()
            ck = p.peek()
            cj = p.pj
            if ck != TEMPLATE_SEQ_END:
                if not p.recovery:
                    crng = p.rng(cj)
                    if ck == EOF:
                        diags.append(
                            error(
                                "Unclosed template interpolation sequence",
                                "There is no closing brace for this interpolation sequence "
                                "before the end of the file. This might be caused by incorrect "
                                "nesting inside the given expression.",
                                start_rng,
                            )
                        )
                    elif ck == COLON:
                        diags.append(
                            error(
                                "Extra characters after interpolation expression",
                                "Template interpolation doesn't expect a colon at this "
                                "location. Did you intend this to be a literal sequence to be "
                                "processed as part of another language? If so, you can escape "
                                'it by starting with "$${" instead of just "${".',
                                crng,
                                between(start_rng, crng),
                            )
                        )
                    elif (ck in (CQUOTE, OQUOTE)) and end == CQUOTE:
                        diags.append(
                            error(
                                "Unclosed template interpolation sequence",
                                "There is no closing brace for this interpolation sequence "
                                "before the end of the quoted template. This might be caused "
                                "by incorrect nesting inside the given expression.",
                                start_rng,
                            )
                        )
                    else:
                        diags.append(
                            error(
                                "Extra characters after interpolation expression",
                                "Expected a closing brace to end the interpolation expression, "
                                "but found extra characters.\n\nThis can happen when you "
                                "include interpolation syntax for another language, such as "
                                "shell scripting, but forget to escape the interpolation start "
                                "token. If this is an embedded sequence for another language, "
                                'escape it by starting with "$${" instead of just "${".',
                                crng,
                                between(start_rng, crng),
                            )
                        )
                p.recover(TEMPLATE_SEQ_END)
            else:
                p.read()
                if text[p.starts[cj]] == "~":
                    ltrim_next = True
            p.pop_nl()
            parts.append([INTERP, expr, between(p.rng(j), p.rng(cj))])
        elif k == TEMPLATE_CONTROL:
            if p.ends[j] - p.starts[j] == 3:  # "%{~"
                _strip_trailing(parts, can_trim_prev)
            p.push_nl(False)
            ltrim_next = _parse_directive(p, j, parts, start_rng)
            p.pop_nl()
        else:
            if not p.recovery:
                nrng = p.rng(j)
                diags.append(
                    error(
                        "Unterminated template string",
                        "No closing marker was found for the string.",
                        nrng,
                        between(start_rng, nrng),
                    )
                )
            fj = p.recover(end)
            end_rng = p.rng(fj)
            break
    if not parts:
        # An empty template is an empty string literal, zero-width at the content start.
        at = start_rng.start_offset
        parts.append([LIT, "", at, at])
    parts.append([END, end_rng])
    return parts, between(start_rng, end_rng)


def _parse_directive(p: ParserBase, j: int, parts: list[list[Any]], start_rng: Range) -> bool:
    """After `%{`: the keyword and its clause. Returns whether the closer was `~}`."""
    diags = p.diags
    open_rng = p.rng(j)
    kk = p.peek()
    kj = p.pj
    if kk != IDENT:
        if not p.recovery:
            krng = p.rng(kj)
            diags.append(
                error(
                    "Invalid template directive",
                    'A template directive keyword ("if", "for", etc) is expected at the '
                    "beginning of a %{ sequence.",
                    krng,
                    between(open_rng, krng),
                )
            )
        p.recover(TEMPLATE_SEQ_END)
        return False
    p.read()
    kw = p.tok_text(kj)
    if kw == "if":
        cond = p.parse_expression()
        parts.append([IF, cond, between(open_rng, p.next_range())])
    elif kw in ("else", "endif", "endfor"):
        parts.append([ENDCTL, kw, between(open_rng, p.next_range())])
    elif kw == "for":
        key_name: str | None = None
        if p.peek() != IDENT:
            if not p.recovery:
                diags.append(
                    error(
                        "Invalid 'for' directive",
                        "For directive requires variable name after 'for'.",
                        p.rng(p.pj),
                    )
                )
            p.recover(TEMPLATE_SEQ_END)
            return False
        _, vj = p.read_tok()
        val_name = p.tok_text(vj)
        if p.peek() == COMMA:
            key_name = val_name
            p.read()
            if p.peek() != IDENT:
                if not p.recovery:
                    diags.append(
                        error(
                            "Invalid 'for' directive",
                            "For directive requires value variable name after comma.",
                            p.rng(p.pj),
                        )
                    )
                p.recover(TEMPLATE_SEQ_END)
                return False
            _, vj = p.read_tok()
            val_name = p.tok_text(vj)
        if not p.is_keyword("in"):
            if not p.recovery:
                diags.append(
                    error(
                        "Invalid 'for' directive",
                        "For directive requires 'in' keyword after names.",
                        p.rng(p.pj),
                    )
                )
            p.recover(TEMPLATE_SEQ_END)
            return False
        p.read()
        coll = p.parse_expression()
        parts.append([FOR, key_name, val_name, coll, between(open_rng, p.next_range())])
    else:
        if not p.recovery:
            suggestion = name_suggestion(kw, _KEYWORDS)
            extra = f' Did you mean "{suggestion}"?' if suggestion else ""
            krng = p.rng(kj)
            diags.append(
                error(
                    "Invalid template control keyword",
                    f'"{kw}" is not a valid template control keyword.{extra}',
                    krng,
                    between(open_rng, krng),
                )
            )
        p.recover(TEMPLATE_SEQ_END)
        return False
    ck = p.peek()
    cj = p.pj
    if ck != TEMPLATE_SEQ_END:
        if not p.recovery:
            crng = p.rng(cj)
            diags.append(
                error(
                    f"Extra characters in {kw} marker",
                    "Expected a closing brace to end the sequence, but found extra characters.",
                    crng,
                    between(start_rng, crng),
                )
            )
        p.recover(TEMPLATE_SEQ_END)
        return False
    p.read()
    return p.text[p.starts[cj]] == "~"


def _flush_heredoc(parts: list[list[Any]]) -> None:
    """`<<-`: remove the smallest leading-whitespace width from every line."""
    min_spaces = 1 << 62
    newline = True
    adjust: list[list[Any]] = []
    for tok in parts:
        if newline:
            newline = False
            spaces = 1 << 62
            if tok[0] == LIT:
                orig: str = tok[1]
                trimmed = orig.lstrip()
                if not (trimmed == "" and orig.endswith("\n")):
                    spaces = len(orig) - len(trimmed)
                    adjust.append(tok)
            elif tok[0] == END:
                break
            min_spaces = min(min_spaces, spaces)
        if tok[0] == LIT and tok[1].endswith("\n"):
            newline = True
    if min_spaces == 1 << 62:
        return
    for tok in adjust:
        tok[1] = tok[1][min_spaces:]
        tok[2] += min_spaces


def _meld(parts: list[list[Any]]) -> None:
    i = 1
    while i < len(parts):
        prev = parts[i - 1]
        cur = parts[i]
        if prev[0] == LIT and cur[0] == LIT:
            prev[1] += cur[1]
            prev[3] = cur[3]
            del parts[i]
            continue
        i += 1


class _TreeBuilder:
    """Folds template tokens into expressions (HCL's templateParser)."""

    def __init__(self, p: ParserBase, parts: list[list[Any]]) -> None:
        self.p = p
        self.parts = parts
        self.pos = 0
        self.file = p.file

    def peek(self) -> list[Any]:
        return self.parts[self.pos]

    def read(self) -> list[Any]:
        tok = self.parts[self.pos]
        if tok[0] != END:
            self.pos += 1
        return tok

    def lit_expr(self, tok: list[Any]) -> LiteralValueExpr:
        return LiteralValueExpr(string(tok[1]), Range(self.file, tok[2], tok[3]))

    def parse_root(self) -> list[Expr]:
        exprs: list[Expr] = []
        while self.peek()[0] != END:
            exprs.append(self.parse_expr())
        return exprs

    def parse_expr(self) -> Expr:
        tok = self.peek()
        tag = tok[0]
        if tag == LIT:
            self.read()
            return self.lit_expr(tok)
        if tag == INTERP:
            self.read()
            expr: Expr = tok[1]
            return expr
        if tag == IF:
            return self.parse_if()
        if tag == FOR:
            return self.parse_for()
        self.read()
        rng: Range = tok[-1]
        if tag == END:
            self.p.diags.append(
                error(
                    "Unexpected end of template",
                    "The control directives within this template are unbalanced.",
                    rng,
                )
            )
        else:
            self.p.diags.append(
                error(
                    f"Unexpected {tok[1]} directive",
                    "The control directives within this template are unbalanced.",
                    rng,
                )
            )
        return placeholder(rng)

    def _empty(self, offset: int) -> LiteralValueExpr:
        return LiteralValueExpr(string(""), Range(self.file, offset, offset))

    def parse_if(self) -> Expr:
        open_tok = self.read()
        open_rng: Range = open_tok[2]
        if_exprs: list[Expr] = []
        else_exprs: list[Expr] = []
        current = if_exprs
        diags = self.p.diags
        while True:
            nxt = self.peek()
            if nxt[0] == END:
                diags.append(
                    error(
                        "Unexpected end of template",
                        f"The if directive at {open_rng} is missing its corresponding endif "
                        "directive.",
                        nxt[1],
                    )
                )
                return placeholder(nxt[1])
            if nxt[0] == ENDCTL:
                self.read()
                name = nxt[1]
                if name == "else":
                    if current is if_exprs:
                        current = else_exprs
                        continue
                    diags.append(
                        error(
                            "Unexpected else directive",
                            f"Already in the else clause for the if started at {open_rng}.",
                            nxt[2],
                        )
                    )
                elif name == "endif":
                    endif_rng: Range = nxt[2]
                    break
                else:
                    diags.append(
                        error(
                            f"Unexpected {name} directive",
                            f"Expecting an endif directive for the if started at {open_rng}.",
                            nxt[2],
                        )
                    )
                return placeholder(nxt[2])
            current.append(self.parse_expr())
        if not if_exprs:
            if_exprs.append(self._empty(open_rng.end_offset))
        if not else_exprs:
            else_exprs.append(self._empty(endif_rng.start_offset))
        true_t = TemplateExpr(if_exprs, between(if_exprs[0].range, if_exprs[-1].range))
        false_t = TemplateExpr(else_exprs, between(else_exprs[0].range, else_exprs[-1].range))
        return TemplateIfExpr(open_tok[1], true_t, false_t, between(open_rng, endif_rng))

    def parse_for(self) -> Expr:
        open_tok = self.read()
        open_rng: Range = open_tok[4]
        body: list[Expr] = []
        diags = self.p.diags
        while True:
            nxt = self.peek()
            if nxt[0] == END:
                diags.append(
                    error(
                        "Unexpected end of template",
                        f"The for directive at {open_rng} is missing its corresponding endfor "
                        "directive.",
                        nxt[1],
                    )
                )
                return placeholder(nxt[1])
            if nxt[0] == ENDCTL:
                self.read()
                name = nxt[1]
                if name == "endfor":
                    endfor_rng: Range = nxt[2]
                    break
                if name == "else":
                    diags.append(
                        error(
                            "Unexpected else directive",
                            "An else clause is not expected for a for directive.",
                            nxt[2],
                        )
                    )
                else:
                    diags.append(
                        error(
                            f"Unexpected {name} directive",
                            "Expecting an endfor directive corresponding to the for directive "
                            f"at {open_rng}.",
                            nxt[2],
                        )
                    )
                return placeholder(nxt[2])
            body.append(self.parse_expr())
        if not body:
            body.append(self._empty(open_rng.end_offset))
        content = TemplateExpr(body, between(body[0].range, body[-1].range))
        return TemplateForExpr(
            open_tok[1], open_tok[2], open_tok[3], content, between(open_rng, endfor_rng)
        )


