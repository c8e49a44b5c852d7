"""Expression parsing: operators, terms, traversals, splats, collections, for-expressions.

Follows HCL's parser.go function by function so that errors carry the same summaries,
details and ranges. Binary operators are parsed by precedence climbing (one function for all
levels) rather than one recursive call per level, which keeps deep configurations fast.
Precedence, lowest first: `||`, `&&`, `== !=`, `< > <= >=`, `+ -`, `* / %`; all binary
operators are left-associative; unary `-`/`!` bind tighter and apply to a term with its
traversals; the conditional `a ? b : c` groups to the right.
"""

from __future__ import annotations

from typing import Any

from engine.diags import error
from engine.hcl.ast import (
    AnonSymbolExpr,
    BinaryOpExpr,
    ConditionalExpr,
    Expr,
    FunctionCallExpr,
    IndexExpr,
    LiteralValueExpr,
    ObjectConsExpr,
    ObjectConsItem,
    ObjectConsKeyExpr,
    ParenthesesExpr,
    RelativeTraversalExpr,
    ScopeTraversalExpr,
    SplatExpr,
    TemplateExpr,
    TemplateWrapExpr,
    TraverseAttr,
    TraverseIndex,
    TraverseRoot,
    TraverseStep,
    TupleConsExpr,
    UnaryOpExpr,
)
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
    DOUBLECOLON,
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
    number_text_ok,
)
from engine.hcl.parser_base import ParserBase, between, placeholder
from engine.source import Range
from engine.values import DYNAMIC, FALSE, NUMBER, TRUE, UNKNOWN, Value, null, number, string

_PREC: dict[int, int] = {
    OR: 1, AND: 2, EQUALOP: 3, NOTEQUAL: 3, LT: 4, LTE: 4, GT: 4, GTE: 4,
    PLUS: 5, MINUS: 5, STAR: 6, SLASH: 6, PERCENT: 6,
}
_OP_TEXT: dict[int, str] = {
    OR: "||", AND: "&&", EQUALOP: "==", NOTEQUAL: "!=", LT: "<", LTE: "<=", GT: ">",
    GTE: ">=", PLUS: "+", MINUS: "-", STAR: "*", SLASH: "/", PERCENT: "%",
}
_NULL = null()
_DYNAMIC_UNKNOWN = Value(DYNAMIC, UNKNOWN)


def _extend(expr: Expr, step: TraverseStep, rng: Range) -> Expr:
    """HCL's makeRelativeTraversal: append a static step to a traversal expression."""
    if isinstance(expr, (ScopeTraversalExpr, RelativeTraversalExpr)):
        expr.traversal = (*expr.traversal, step)
        expr.range = between(expr.range, rng)
        return expr
    return RelativeTraversalExpr(expr, (step,), between(expr.range, rng))


class ExprParser(ParserBase):
    """Parses expressions from the token cursor, collecting diagnostics in `self.diags`."""

    # -- entry points ---------------------------------------------------------------------------
    def parse_expression(self) -> Expr:
        """A full expression (HCL's ParseExpression: the conditional level)."""
        diags = self.diags
        n0 = len(diags)
        cond = self.parse_binary(1)
        if self.recovery and len(diags) > n0:
            return cond
        k = self.kinds[self.i]
        if k != QUESTION and k != COMMENT and (k != NEWLINE or self.nl):
            return cond  # the next significant token is this one and not "?": no peek() needed
        if self.peek() != QUESTION:
            return cond
        self.read()
        n1 = len(diags)
        true_expr = self.parse_expression()
        if self.recovery and len(diags) > n1:
            return cond
        if self.peek() != COLON:
            colon = self.rng(self.pj)
            start = cond.range
            diags.append(
                error(
                    "Missing false expression in conditional",
                    "The conditional operator (...?...:...) requires a false expression, "
                    "delimited by a colon.",
                    colon,
                    between(start, colon),
                )
            )
            return cond
        self.read()
        n2 = len(diags)
        false_expr = self.parse_expression()
        if self.recovery and len(diags) > n2:
            return cond
        start = cond.range
        return ConditionalExpr(cond, true_expr, false_expr, between(start, false_expr.range))

    def parse_binary(self, min_prec: int) -> Expr:
        """Binary operators of precedence `min_prec` and higher, left-associative."""
        lhs = self.parse_term()  # then its traversals, as parse_with_traversals (inlined)
        k = self.peek()
        if k in (DOT, OBRACK):
            lhs = self.parse_traversals(lhs)
            k = self.peek()
        prec_of = _PREC.get
        prec = prec_of(k)
        if prec is None or prec < min_prec:
            return lhs
        diags = self.diags
        while prec is not None and prec >= min_prec:
            _, j = self.read_tok()
            n0 = len(diags)
            rhs = self.parse_binary(prec + 1)
            if self.recovery and len(diags) > n0:
                return lhs
            lhs = BinaryOpExpr(_OP_TEXT[k], lhs, rhs, between(lhs.range, rhs.range), self.rng(j))
            k = self.peek()
            prec = prec_of(k)
        return lhs

    def parse_with_traversals(self) -> Expr:
        term = self.parse_term()
        k = self.peek()
        if k in (DOT, OBRACK):
            return self.parse_traversals(term)
        return term

    # -- traversals -----------------------------------------------------------------------------
    def parse_traversals(self, source: Expr) -> Expr:
        ret = source
        diags = self.diags
        while True:
            k = self.peek()
            if k == DOT:
                _, dj = self.read_tok()
                ak = self.peek()
                aj = self.pj
                if ak == IDENT:  # the common `.name` step: one range from the dot to the name
                    self.i = aj + 1
                    rng = Range(self.file, self.starts[dj], self.ends[aj])
                    ret = _extend(ret, TraverseAttr(self.tok_text(aj), rng), rng)
                    continue
                dot = self.rng(dj)
                if ak == NUMBER_LIT:
                    self.read()
                    text = self.tok_text(aj)
                    num_rng = self.rng(aj)
                    rng = between(dot, num_rng)
                    if "." in text:
                        first, _, second = text.partition(".")
                        diags.append(
                            error(
                                "Invalid legacy index syntax",
                                "When using the legacy index syntax, chaining two indexes "
                                "together is not permitted. Use the proper index syntax "
                                f"instead, like [{first}][{second}].",
                                num_rng,
                            )
                        )
                        ret = _extend(ret, TraverseIndex(_DYNAMIC_UNKNOWN, rng), rng)
                    else:
                        ret = _extend(ret, TraverseIndex(self.number_value(aj), rng), rng)
                elif ak == STAR:
                    ret = self._finish_legacy_splat(source, ret, dot)
                else:
                    diags.append(
                        error(
                            "Invalid attribute name",
                            "An attribute name is required after a dot.",
                            self.rng(aj),
                        )
                    )
                    ret = placeholder(between(source.range, dot))
                    self.recovery = True
            elif k == OBRACK:
                _, oj = self.read_tok()
                open_rng = self.rng(oj)
                if self.peek() == STAR:
                    self.read()
                    ck, cj = self.read_tok()
                    if ck != CBRACK and not self.recovery:
                        # HCL points its subject at the variable it then reassigns with the
                        # recovered token, so terraform reports the token found by recovery.
                        cj = self.recover(CBRACK)
                        diags.append(
                            error(
                                "Missing close bracket on splat index",
                                'The star for a full splat operator must be immediately '
                                'followed by a closing bracket ("]").',
                                self.rng(cj),
                            )
                        )
                    marker = between(open_rng, self.rng(cj))
                    item = AnonSymbolExpr(marker)
                    each = self.parse_traversals(item)
                    ret = SplatExpr(ret, each, item, between(source.range, each.range), marker)
                else:
                    self.push_nl(False)
                    n0 = len(diags)
                    key = self.parse_expression()
                    if self.recovery and len(diags) > n0:
                        cj = self.recover(CBRACK)
                    else:
                        ck, cj = self.read_tok()
                        if ck != CBRACK and not self.recovery:
                            cj = self.recover(CBRACK)  # subject: the recovered token, as HCL
                            diags.append(
                                error(
                                    "Missing close bracket on index",
                                    'The index operator must end with a closing bracket ("]").',
                                    self.rng(cj),
                                )
                            )
                    self.pop_nl()
                    rng = between(open_rng, self.rng(cj))
                    if isinstance(key, LiteralValueExpr):
                        ret = _extend(ret, TraverseIndex(key.value, rng), rng)
                    elif isinstance(key, TemplateExpr) and key.is_string_literal:
                        ret = _extend(ret, TraverseIndex(_template_literal_value(key), rng), rng)
                    else:
                        ret = IndexExpr(ret, key, between(source.range, rng), rng)
            else:
                return ret

    def _finish_legacy_splat(self, source: Expr, ret: Expr, dot: Range) -> Expr:
        """`.*` then `.attr`/`.0` steps: HCL's attribute-only splat."""
        diags = self.diags
        _, mj = self.read_tok()
        marker = self.rng(mj)
        steps: list[TraverseStep] = []
        first = self.next_range()
        last = marker
        while self.peek() == DOT:
            _, dj = self.read_tok()
            d = self.rng(dj)
            nk = self.peek()
            nj = self.pj
            if nk == NUMBER_LIT:
                self.read()
                text = self.tok_text(nj)
                if "." in text:
                    a, _, b = text.partition(".")
                    diags.append(
                        error(
                            "Invalid legacy index syntax",
                            "When using the legacy index syntax, chaining two indexes together "
                            "is not permitted. Use the proper index syntax with a full splat "
                            f"expression [*] instead, like [{a}][{b}].",
                            marker,
                        )
                    )
                    steps.append(TraverseIndex(_DYNAMIC_UNKNOWN, between(d, self.rng(nj))))
                else:
                    steps.append(TraverseIndex(self.number_value(nj), between(d, self.rng(nj))))
                last = self.rng(nj)
                continue
            if nk != IDENT:
                if not self.recovery:
                    if nk == STAR:
                        diags.append(
                            error(
                                "Nested splat expression not allowed",
                                "A splat expression (*) cannot be used inside another "
                                "attribute-only splat expression.",
                                self.rng(nj),
                            )
                        )
                    else:
                        diags.append(
                            error(
                                "Invalid attribute name",
                                "An attribute name is required after a dot.",
                                marker,
                            )
                        )
                self.recovery = True
                break
            self.read()
            steps.append(TraverseAttr(self.tok_text(nj), between(d, self.rng(nj))))
            last = self.rng(nj)
        item = AnonSymbolExpr(between(dot, marker))
        each: Expr = item
        if steps:
            each = RelativeTraversalExpr(item, tuple(steps), between(first, last))
        return SplatExpr(
            ret, each, item, between(source.range, last), between(dot, marker), legacy=True
        )

    # -- terms ----------------------------------------------------------------------------------
    def number_value(self, j: int) -> Value:
        """The value of NUMBER_LIT token `j` (unknown, with an error, if it is malformed)."""
        text = self.text[self.starts[j] : self.ends[j]]
        if text.isdigit() and len(text) <= 150:
            # A plain integer well inside 512 bits: what number(text) returns, directly.
            return Value(NUMBER, int(text))
        if number_text_ok(text):
            try:
                return number(text)
            except ValueError:
                pass  # an exponent out of range: terraform's "Invalid number literal" too
        self.diags.append(
            error(
                "Invalid number literal",
                "Failed to recognize the value of this number literal.",
                self.rng(j),
            )
        )
        return Value(NUMBER, UNKNOWN)

    def parse_term(self) -> Expr:
        k = self.peek()
        j = self.pj
        if k == IDENT:
            self.i = j + 1  # consume the peeked token (as read(), which would peek again)
            nk = self.peek()
            if nk in (OPAREN, DOUBLECOLON):
                return self.finish_function_call(j)
            s0 = self.starts[j]
            e0 = self.ends[j]
            name = self.text[s0:e0]
            rng = Range(self.file, s0, e0)
            if name == "true":
                return LiteralValueExpr(TRUE, rng)
            if name == "false":
                return LiteralValueExpr(FALSE, rng)
            if name == "null":
                return LiteralValueExpr(_NULL, rng)
            return ScopeTraversalExpr((TraverseRoot(name, rng),), rng)
        if k == NUMBER_LIT:
            self.i = j + 1
            return LiteralValueExpr(self.number_value(j), Range(self.file, self.starts[j], self.ends[j]))
        if k in (OQUOTE, OHEREDOC):
            return self.parse_template_term(k, j)
        if k == OBRACE:
            return self.parse_object_cons()
        if k == OBRACK:
            return self.parse_tuple_cons()
        if k == OPAREN:
            return self.parse_parens(j)
        if k in (MINUS, BANG):
            self.read()
            operand = self.parse_with_traversals()
            op_rng = self.rng(j)
            return UnaryOpExpr(
                "-" if k == MINUS else "!", operand, between(op_rng, operand.range), op_rng
            )
        if not self.recovery:
            if k == EOF:
                self.diags.append(
                    error(
                        "Missing expression",
                        "Expected the start of an expression, but found the end of the file.",
                        self.rng(j),
                    )
                )
            else:
                self.diags.append(
                    error(
                        "Invalid expression",
                        "Expected the start of an expression, but found an invalid expression "
                        "token.",
                        self.rng(j),
                    )
                )
        self.recovery = True
        return placeholder(self.rng(j))

    def parse_template_term(self, k: int, j: int) -> Expr:
        """A quoted string or heredoc whose opening token `j` (of kind `k`) was just peeked."""
        if k == OQUOTE:
            # Fast path for a plain string ("", "abc") with no escapes or template sequences:
            # the same nodes the general template parser builds, without its two passes.
            kinds = self.kinds
            k1 = kinds[j + 1]
            if k1 == CQUOTE:
                self.i = j + 2
                at = self.starts[j + 1]
                return TemplateExpr(
                    [LiteralValueExpr(string(""), Range(self.file, at, at))],
                    Range(self.file, self.starts[j], self.ends[j + 1]),
                )
            if k1 == QUOTED_LIT and kinds[j + 2] == CQUOTE:
                s0 = self.starts[j + 1]
                e0 = self.ends[j + 1]
                raw = self.text[s0:e0]
                if "\\" not in raw and "$${" not in raw and "%%{" not in raw:
                    self.i = j + 3
                    return TemplateExpr(
                        [LiteralValueExpr(string(raw), Range(self.file, s0, e0))],
                        Range(self.file, self.starts[j], self.ends[j + 2]),
                    )
        from engine.hcl.parser_template import parse_template_inner

        self.read()
        closer = CQUOTE if k == OQUOTE else CHEREDOC
        flush = k == OHEREDOC and self.text.startswith("<<-", self.starts[j])
        exprs, passthru, _ = parse_template_inner(self, closer, flush)
        rng = between(self.rng(j), self.prev_range())
        if passthru:
            return TemplateWrapExpr(exprs[0], rng)
        return TemplateExpr(exprs, rng)

    def parse_parens(self, j: int) -> Expr:
        self.read()
        self.push_nl(False)
        n0 = len(self.diags)
        expr = self.parse_expression()
        if len(self.diags) > n0:
            self.recover(CPAREN)
            self.pop_nl()
            return expr
        if self.peek() != CPAREN:
            close = self.rng(self.pj)
            self.diags.append(
                error(
                    "Unbalanced parentheses",
                    "Expected a closing parenthesis to terminate the expression.",
                    close,
                    between(self.rng(j), close),
                )
            )
            self.recovery = True
        _, cj = self.read_tok()
        self.pop_nl()
        return ParenthesesExpr(expr, between(self.rng(j), self.rng(cj)))

    def finish_function_call(self, name_j: int) -> Expr:
        diags = self.diags
        ok, oj = self.read_tok()
        name = self.tok_text(name_j)
        name_rng = self.rng(name_j)
        name_end = name_rng.end_offset
        while ok == DOUBLECOLON:
            nk, nj = self.read_tok()
            if nk != IDENT:
                nrng = self.rng(nj)
                diags.append(
                    error(
                        "Missing function name",
                        "Function scope resolution symbol :: must be followed by a function "
                        "name in this scope.",
                        nrng,
                        between(name_rng, nrng),
                    )
                )
                self.recover_over(OPAREN)
                return placeholder(between(name_rng, nrng))
            name = name + "::" + self.tok_text(nj)
            name_end = self.ends[nj]
            ok, oj = self.read_tok()
        full_name_rng = Range(self.file, name_rng.start_offset, name_end)
        open_rng = self.rng(oj)
        if ok != OPAREN:
            diags.append(
                error(
                    "Missing open parenthesis",
                    "Function selector must be followed by an open parenthesis to begin the "
                    "function call.",
                    open_rng,
                    between(name_rng, open_rng),
                )
            )
            self.recover_over(OPAREN)
            return placeholder(between(name_rng, open_rng))

        args: list[Expr] = []
        expand_final = False
        close_j = -1
        self.push_nl(False)
        while True:
            if self.peek() == CPAREN:
                _, close_j = self.read_tok()
                break
            n0 = len(diags)
            arg = self.parse_expression()
            args.append(arg)
            if self.recovery and len(diags) > n0:
                rj = self.recover(CPAREN)
                if self.kinds[rj] == CPAREN:
                    close_j = rj
                break
            sk, sj = self.read_tok()
            if sk == CPAREN:
                close_j = sj
                break
            if sk == ELLIPSIS:
                expand_final = True
                if self.peek() != CPAREN:
                    if not self.recovery:
                        srng = self.rng(sj)
                        diags.append(
                            error(
                                "Missing closing parenthesis",
                                "An expanded function argument (with ...) must be immediately "
                                "followed by closing parentheses.",
                                srng,
                                between(name_rng, srng),
                            )
                        )
                    close_j = self.recover(CPAREN)
                else:
                    _, close_j = self.read_tok()
                break
            if sk != COMMA:
                if sk == EOF:
                    diags.append(
                        error(
                            "Unterminated function call",
                            "There is no closing parenthesis for this function call before the "
                            "end of the file. This may be caused by incorrect parenthesis "
                            "nesting elsewhere in this file.",
                            between(name_rng, open_rng),
                        )
                    )
                else:
                    srng = self.rng(sj)
                    diags.append(
                        error(
                            "Missing argument separator",
                            "A comma is required to separate each function argument from the "
                            "next.",
                            srng,
                            between(name_rng, srng),
                        )
                    )
                close_j = self.recover(CPAREN)
                break
            if self.peek() == CPAREN:
                _, close_j = self.read_tok()
                break
        self.pop_nl()
        close_rng = self.rng(close_j) if close_j >= 0 else self.prev_range()
        return FunctionCallExpr(
            name,
            args,
            expand_final,
            between(full_name_rng, close_rng),
            full_name_rng,
            open_rng,
            close_rng,
        )

    # -- collections ----------------------------------------------------------------------------
    def parse_tuple_cons(self) -> Expr:
        _, oj = self.read_tok()
        open_rng = self.rng(oj)
        self.push_nl(False)
        try:
            if self.is_keyword("for"):
                from engine.hcl.parser_for import finish_for_expr

                return finish_for_expr(self, oj)
            diags = self.diags
            exprs: list[Expr] = []
            while True:
                if self.peek() == CBRACK:
                    _, cj = self.read_tok()
                    break
                n0 = len(diags)
                exprs.append(self.parse_expression())
                if self.recovery and len(diags) > n0:
                    cj = self.recover(CBRACK)
                    break
                nk = self.peek()
                if nk == CBRACK:
                    _, cj = self.read_tok()
                    break
                if nk != COMMA:
                    if not self.recovery:
                        if nk == EOF:
                            diags.append(
                                error(
                                    "Unterminated tuple constructor expression",
                                    "There is no corresponding closing bracket before the end "
                                    "of the file. This may be caused by incorrect bracket "
                                    "nesting elsewhere in this file.",
                                    open_rng,
                                )
                            )
                        else:
                            nrng = self.rng(self.pj)
                            diags.append(
                                error(
                                    "Missing item separator",
                                    "Expected a comma to mark the beginning of the next item.",
                                    nrng,
                                    between(open_rng, nrng),
                                )
                            )
                    cj = self.recover(CBRACK)
                    break
                self.read()
            return TupleConsExpr(exprs, between(open_rng, self.rng(cj)), open_rng)
        finally:
            self.pop_nl()

    def parse_object_cons(self) -> Expr:
        _, oj = self.read_tok()
        open_rng = self.rng(oj)
        self.push_nl(False)
        is_for = self.is_keyword("for")
        self.pop_nl()
        if is_for:
            from engine.hcl.parser_for import finish_for_expr

            return finish_for_expr(self, oj)
        self.push_nl(True)
        try:
            return self._object_items(open_rng)
        finally:
            self.pop_nl()

    def _object_items(self, open_rng: Range) -> Expr:
        diags = self.diags
        items: list[ObjectConsItem] = []
        while True:
            nk = self.peek()
            if nk == NEWLINE:
                self.read()
                continue
            if nk == CBRACE:
                _, cj = self.read_tok()
                break
            force = nk == OPAREN
            n0 = len(diags)
            key_expr = self.parse_expression()
            if self.recovery and len(diags) > n0:
                cj = self.recover(CBRACE)
                break
            key = ObjectConsKeyExpr(key_expr, force)
            nk = self.peek()
            if nk != EQUAL and nk != COLON:
                if not self.recovery:
                    nrng = self.rng(self.pj)
                    ctx = between(open_rng, nrng)
                    if nk in (NEWLINE, COMMA):
                        diags.append(
                            error(
                                "Missing attribute value",
                                'Expected an attribute value, introduced by an equals sign ("=").',
                                nrng,
                                ctx,
                            )
                        )
                    elif nk == IDENT:
                        diags.append(
                            error(
                                "Missing key/value separator",
                                'Expected an equals sign ("=") to mark the beginning of the '
                                "attribute value. If you intended to given an attribute name "
                                "containing periods or spaces, write the name in quotes to "
                                "create a string literal.",
                                nrng,
                                ctx,
                            )
                        )
                    elif nk == EOF:
                        diags.append(_unterminated_object(open_rng))
                    else:
                        diags.append(
                            error(
                                "Missing key/value separator",
                                'Expected an equals sign ("=") to mark the beginning of the '
                                "attribute value.",
                                nrng,
                                ctx,
                            )
                        )
                cj = self.recover(CBRACE)
                break
            self.read()
            n1 = len(diags)
            value = self.parse_expression()
            items.append(ObjectConsItem(key, value))
            if self.recovery and len(diags) > n1:
                cj = self.recover(CBRACE)
                break
            nk = self.peek()
            if nk == CBRACE:
                _, cj = self.read_tok()
                break
            if nk != COMMA and nk != NEWLINE:
                if not self.recovery:
                    if nk == EOF:
                        diags.append(_unterminated_object(open_rng))
                    else:
                        nrng = self.rng(self.pj)
                        diags.append(
                            error(
                                "Missing attribute separator",
                                "Expected a newline or comma to mark the beginning of the next "
                                "attribute.",
                                nrng,
                                between(open_rng, nrng),
                            )
                        )
                cj = self.recover(CBRACE)
                break
            self.read()
        return ObjectConsExpr(items, between(open_rng, self.rng(cj)), open_rng)


def _unterminated_object(open_rng: Range) -> Any:
    return error(
        "Unterminated object constructor expression",
        "There is no corresponding closing brace before the end of the file. This may be "
        "caused by incorrect brace nesting elsewhere in this file.",
        open_rng,
    )


def _template_literal_value(expr: TemplateExpr) -> Value:
    """The string value of a template that is a plain string literal."""
    if not expr.parts:
        from engine.values import string

        return string("")
    part = expr.parts[0]
    assert isinstance(part, LiteralValueExpr)
    value: Value = part.value
    return value

