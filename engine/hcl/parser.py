"""Bodies, blocks and attributes, and the public entry points for native syntax.

HCL's ParseBody/ParseBodyItem/finishParsingBodyBlock: an attribute ends at a newline, a
block header is a type plus quoted-string or identifier labels followed by `{` on the same
line, a one-line block holds exactly one argument, duplicate arguments are errors. Every
function here returns what it could parse plus diagnostics; none raises on bad input.
"""

from __future__ import annotations

from engine.diags import Diagnostic, Diagnostics, error
from engine.gocompat.strconv import quote as go_quote
from engine.hcl.ast import Attribute, Block, Body, Comment, Expr, File
from engine.hcl.gcpause import paused_cyclic_gc
from engine.hcl.lexer import (
    CBRACE,
    COMMA,
    COMMENT,
    CQUOTE,
    EOF,
    EQUAL,
    IDENT,
    MODE_TEMPLATE,
    NEWLINE,
    OBRACE,
    OQUOTE,
    QUOTED_LIT,
    TEMPLATE_CONTROL,
    TEMPLATE_INTERP,
    TEMPLATE_SEQ_END,
    check_invalid_tokens,
    lex,
)
from engine.hcl.parser_base import between
from engine.hcl.parser_expr import ExprParser
from engine.hcl.parser_template import parse_template_inner
from engine.hcl.template_literal import decode_literal
from engine.source import Range, SourceFile

_ARG_OR_BLOCK = "Argument or block definition required"
_UNCLOSED_BLOCK_DETAIL = (
    "There is no closing brace for this block before the end of the file. This may be caused "
    "by incorrect brace nesting elsewhere in this file."
)


class Parser(ExprParser):
    """The full native-syntax parser: bodies on top of expressions."""

    def parse_body(self, end: int) -> Body:
        attrs: dict[str, Attribute] = {}
        blocks: list[Block] = []
        diags = self.diags
        start = self.prev_range()
        end_rng = start
        while True:
            k = self.peek()
            j = self.pj
            if k == end:
                end_rng = self.rng(j)
                self.read()
                break
            if k == NEWLINE:
                self.read()
                continue
            if k == IDENT:
                item = self.parse_body_item()
                if isinstance(item, Block):
                    blocks.append(item)
                elif isinstance(item, Attribute):
                    existing = attrs.get(item.name)
                    if existing is not None:
                        diags.append(
                            error(
                                "Attribute redefined",
                                f"The argument {go_quote(item.name)} was already set at "
                                f"{existing.name_range}. Each argument may be set only once.",
                                item.name_range,
                            )
                        )
                    else:
                        attrs[item.name] = item
                continue
            self.read()
            bad = self.rng(j)
            if not self.recovery:
                if k == OQUOTE:
                    diags.append(
                        error("Invalid argument name", "Argument names must not be quoted.", bad)
                    )
                elif k == EOF:
                    if end == CBRACE:
                        diags.append(
                            error("Unclosed configuration block", _UNCLOSED_BLOCK_DETAIL, start)
                        )
                    else:
                        diags.append(
                            error(
                                "Unclosed configuration body",
                                "Found end of file before the end of this configuration body.",
                                start,
                            )
                        )
                else:
                    diags.append(
                        error(_ARG_OR_BLOCK, "An argument or block definition is required here.", bad)
                    )
            end_rng = self.prev_range()
            self.recover(end)
            break
        return Body(
            attrs,
            blocks,
            between(start, end_rng),
            Range(self.file, end_rng.end_offset, end_rng.end_offset),
        )

    def parse_body_item(self) -> Attribute | Block | None:
        _, ij = self.read_tok()
        nk = self.peek()
        if nk == EQUAL:
            return self.finish_attribute(ij, False)
        if nk in (OQUOTE, OBRACE, IDENT):
            return self.finish_block(ij)
        self.recover_after_body_item()
        self.diags.append(
            error(
                _ARG_OR_BLOCK,
                "An argument or block definition is required here. To set an argument, use the "
                'equals sign "=" to introduce the argument value.',
                self.rng(ij),
            )
        )
        return None

    def parse_single_attr_body(self) -> Body | None:
        ik, ij = self.read_tok()
        ident = self.rng(ij)
        if ik != IDENT:
            self.recover_after_body_item()
            self.diags.append(
                error(_ARG_OR_BLOCK, "An argument or block definition is required here.", ident)
            )
            return None
        nk = self.peek()
        if nk == EQUAL:
            attr = self.finish_attribute(ij, True)
            return Body(
                {attr.name: attr},
                [],
                attr.range,
                Range(self.file, attr.range.end_offset, attr.range.end_offset),
            )
        nrng = self.rng(self.pj)
        self.recover_after_body_item()
        if nk in (OQUOTE, OBRACE, IDENT):
            name = self.tok_text(ij)
            self.diags.append(
                error(
                    "Argument definition required",
                    "A single-line block definition can contain only a single argument. If you "
                    f"meant to define argument {go_quote(name)}, use an equals sign to assign it "
                    "a value. To define a nested block, place it on a line of its own within its "
                    "parent block.",
                    between(ident, nrng),
                )
            )
        else:
            self.diags.append(
                error(
                    _ARG_OR_BLOCK,
                    "An argument or block definition is required here. To set an argument, use "
                    'the equals sign "=" to introduce the argument value.',
                    ident,
                )
            )
        return None

    def finish_attribute(self, ij: int, single_line: bool) -> Attribute:
        _, ej = self.read_tok()
        diags = self.diags
        n0 = len(diags)
        expr = self.parse_expression()
        ident = self.rng(ij)
        if self.recovery and len(diags) > n0:
            end_rng = self.prev_range()
            self.recover_after_body_item()
        else:
            end_rng = self.prev_range()  # nothing is consumed before it is used below
            if not single_line:
                ek = self.peek()
                if ek != NEWLINE and ek != EOF:
                    if not self.recovery:
                        erng = self.rng(self.pj)
                        summary = "Missing newline after argument"
                        detail = "An argument definition must end with a newline."
                        if ek == COMMA:
                            summary = "Unexpected comma after argument"
                            detail = (
                                "Argument definitions must be separated by newlines, not "
                                "commas. " + detail
                            )
                        diags.append(error(summary, detail, erng, between(ident, erng)))
                    self.recover_after_body_item()
                else:
                    self.read()
        return Attribute(
            self.tok_text(ij), expr, between(ident, end_rng), ident, self.rng(ej)
        )

    def finish_block(self, ij: int) -> Block:
        diags = self.diags
        ident = self.rng(ij)
        block_type = self.tok_text(ij)
        labels: list[str] = []
        label_ranges: list[Range] = []
        while True:
            k = self.peek()
            j = self.pj
            if k == OBRACE:
                self.read()
                ob = j
                break
            if k == OQUOTE:
                label, lrng = self.parse_quoted_string_literal()
                labels.append(label)
                label_ranges.append(lrng)
                continue
            if k == IDENT:
                self.read()
                labels.append(self.tok_text(j))
                label_ranges.append(self.rng(j))
                continue
            trng = self.rng(j)
            ctx = between(ident, trng)
            if k == EQUAL:
                diags.append(
                    error(
                        "Invalid block definition",
                        'The equals sign "=" indicates an argument definition, and must not be '
                        "used when defining a block.",
                        trng,
                        ctx,
                    )
                )
            elif k == NEWLINE:
                diags.append(
                    error(
                        "Invalid block definition",
                        'A block definition must have block content delimited by "{" and "}", '
                        "starting on the same line as the block header.",
                        trng,
                        ctx,
                    )
                )
            elif not self.recovery:
                diags.append(
                    error(
                        "Invalid block definition",
                        'Either a quoted string block label or an opening brace ("{") is '
                        "expected here.",
                        trng,
                        ctx,
                    )
                )
            self.recover_after_body_item()
            end_rng = label_ranges[-1] if label_ranges else ident
            return Block(
                block_type,
                labels,
                Body({}, [], ident, ident),
                ident,
                label_ranges,
                ident,
                end_rng,
            )

        ob_rng = self.rng(ob)
        body: Body | None
        pk = self.peek()
        if pk in (NEWLINE, EOF, CBRACE):
            body = self.parse_body(CBRACE)
        else:
            body = self.parse_single_attr_body()
            ck = self.peek()
            if ck == CBRACE:
                self.read()
            else:
                crng = self.rng(self.pj)
                if ck == COMMA:
                    diags.append(
                        error(
                            "Invalid single-argument block definition",
                            "Single-line block syntax can include only one argument definition. "
                            "To define multiple arguments, use the multi-line block syntax with "
                            "one argument definition per line.",
                            crng,
                        )
                    )
                elif ck == NEWLINE:
                    diags.append(
                        error(
                            "Invalid single-argument block definition",
                            "An argument definition on the same line as its containing block "
                            "creates a single-line block definition, which must also be closed "
                            "on the same line. Place the block's closing brace immediately after "
                            "the argument definition.",
                            crng,
                        )
                    )
                elif not self.recovery:
                    if ck == EOF:
                        diags.append(
                            error(
                                "Unclosed configuration block",
                                _UNCLOSED_BLOCK_DETAIL,
                                ob_rng,
                                between(ident, ob_rng),
                            )
                        )
                    else:
                        diags.append(
                            error(
                                "Invalid single-argument block definition",
                                "A single-line block definition must end with a closing brace "
                                "immediately after its single argument definition.",
                                crng,
                            )
                        )
                self.recover(CBRACE)
        cb_rng = self.prev_range()
        ek = self.peek()
        if ek in (NEWLINE, EOF):
            self.read()
        else:
            if not self.recovery:
                erng = self.rng(self.pj)
                diags.append(
                    error(
                        "Missing newline after block definition",
                        "A block definition must end with a newline.",
                        erng,
                        between(ident, erng),
                    )
                )
            self.recover_after_body_item()
        if body is None:
            body = Body({}, [], between(ob_rng, cb_rng), cb_rng)
        return Block(block_type, labels, body, ident, label_ranges, ob_rng, cb_rng)

    def parse_quoted_string_literal(self) -> tuple[str, Range]:
        """A block label: a quoted string without template sequences."""
        diags = self.diags
        _, oj = self.read_tok()
        open_rng = self.rng(oj)
        kinds = self.kinds
        if kinds[oj + 1] == QUOTED_LIT and kinds[oj + 2] == CQUOTE:
            # The usual label, `"name"`: one literal then the closing quote.
            self.i = oj + 3
            label = decode_literal(self.file, self.starts[oj + 1], self.ends[oj + 1], True, diags)
            return label, Range(self.file, open_rng.start_offset, self.ends[oj + 2])
        out: list[str] = []
        while True:
            k, j = self.read_tok()
            trng = self.rng(j)
            if k == CQUOTE:
                end_rng = trng
                break
            if k == QUOTED_LIT:
                out.append(decode_literal(self.file, self.starts[j], self.ends[j], True, diags))
                continue
            if k in (TEMPLATE_CONTROL, TEMPLATE_INTERP):
                which = "%" if k == TEMPLATE_CONTROL else "$"
                diags.append(
                    error(
                        "Invalid string literal",
                        f'Template sequences are not allowed in this string. To include a '
                        f'literal "{which}", double it (as "{which}{which}") to escape it.',
                        trng,
                        between(open_rng, trng),
                    )
                )
                out.append(which + "{ ... }")
                self.recover(TEMPLATE_SEQ_END)
                continue
            if k == EOF:
                diags.append(
                    error(
                        "Unterminated string literal",
                        "Unable to find the closing quote mark before the end of the file.",
                        trng,
                        between(open_rng, trng),
                    )
                )
                end_rng = trng
                break
            diags.append(
                error(
                    "Invalid string literal",
                    "This item is not valid in a string literal.",
                    trng,
                    between(open_rng, trng),
                )
            )
            self.recover(CQUOTE)
            end_rng = trng
            break
        return "".join(out), between(open_rng, end_rng)


def _comments(file: SourceFile, kinds: list[int], starts: list[int], ends: list[int]) -> list[Comment]:
    text = file.text
    out: list[Comment] = []
    for i, k in enumerate(kinds):
        if k == COMMENT:
            s, e = starts[i], ends[i]
            out.append(Comment(text[s:e], Range(file, s, e)))
    return out


def parse_file(text: str, filename: str) -> tuple[File, Diagnostics]:
    """Parse a native-syntax file (`.tf`, `.tfvars`, `.tftest.hcl`): its body and comments.

    Never raises for bad input: returns the partial tree and error diagnostics."""
    source = SourceFile(filename, text)
    # The parse allocates hundreds of thousands of small objects and frees none of them:
    # cyclic garbage collection passes during it would only rescan them, so pause it.
    with paused_cyclic_gc():
        tokens = lex(source)
        diags: list[Diagnostic] = list(check_invalid_tokens(tokens))
        parser = Parser(tokens)
        body = parser.parse_body(EOF)
        diags.extend(parser.diags)
        file = File(body, source, _comments(source, tokens.kinds, tokens.starts, tokens.ends))
    from engine.hcl.context import register_file

    register_file(file)
    return file, Diagnostics(diags)


def parse_expression(text: str, filename: str = "<expr>") -> tuple[Expr, Diagnostics]:
    """Parse one expression (console input, `-var` values, type constraints).

    Newlines are insignificant, as if the expression were in parentheses; anything after
    the expression is an "Extra characters after expression" error."""
    source = SourceFile(filename, text)
    tokens = lex(source)
    diags: list[Diagnostic] = list(check_invalid_tokens(tokens))
    parser = Parser(tokens)
    parser.push_nl(False)
    expr = parser.parse_expression()
    diags.extend(parser.diags)
    if parser.peek() != EOF and not parser.recovery:
        diags.append(
            error(
                "Extra characters after expression",
                "An expression was successfully parsed, but extra characters were found after "
                "it.",
                parser.rng(parser.pj),
            )
        )
    parser.pop_nl()
    return expr, Diagnostics(diags)


def parse_template(text: str, filename: str) -> tuple[Expr, Diagnostics]:
    """Parse a bare template (e.g. a `templatefile` file): literal text with `${}`/`%{}`."""
    from engine.hcl.ast import TemplateExpr, TemplateWrapExpr

    source = SourceFile(filename, text)
    tokens = lex(source, MODE_TEMPLATE)
    diags: list[Diagnostic] = list(check_invalid_tokens(tokens))
    parser = Parser(tokens)
    exprs, passthru, rng = parse_template_inner(parser, EOF, False)
    diags.extend(parser.diags)
    if passthru:
        return TemplateWrapExpr(exprs[0], rng), Diagnostics(diags)
    return TemplateExpr(exprs, rng), Diagnostics(diags)
