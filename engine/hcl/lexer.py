"""The native-syntax scanner: source text to a flat token stream, as HCL's scan_tokens.rl.

Tokens are kept in three parallel lists (`Tokens.kinds`, `.starts`, `.ends`: small ints and
character offsets) instead of one object per token, so lexing a large file allocates little.
The scanner is modal exactly like HCL's: the main (expression) mode, quoted-string templates,
heredoc templates and bare templates, with a stack so that `${ ... }` inside a template
returns to the template when its closing brace is reached.

Quirks kept on purpose because they shape positions and errors:
- a `#` or `//` comment includes its terminating newline (the parser turns it back into a
  newline token when newlines matter);
- a newline inside a quoted string is a QUOTED_NEWLINE token and the string goes on;
- template literals are split where HCL splits them (per line in heredocs, at every `$`/`%`),
  because whitespace stripping (`~`) applies to the neighbouring literal token only.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.diags import Diagnostic, Diagnostics, error
from engine.source import Range, SourceFile

# ------------------------------------------------------------------------------- token kinds
OBRACE, CBRACE, OBRACK, CBRACK, OPAREN, CPAREN = 1, 2, 3, 4, 5, 6
OQUOTE, CQUOTE, OHEREDOC, CHEREDOC = 7, 8, 9, 10
STAR, SLASH, PLUS, MINUS, PERCENT = 11, 12, 13, 14, 15
EQUAL, EQUALOP, NOTEQUAL, LT, LTE, GT, GTE = 16, 17, 18, 19, 20, 21, 22
AND, OR, BANG, DOT, COMMA, ELLIPSIS, FATARROW, QUESTION, COLON, DOUBLECOLON = (
    23, 24, 25, 26, 27, 28, 29, 30, 31, 32,
)
TEMPLATE_INTERP, TEMPLATE_CONTROL, TEMPLATE_SEQ_END = 33, 34, 35
QUOTED_LIT, STRING_LIT, NUMBER_LIT, IDENT, COMMENT, NEWLINE, EOF = 36, 37, 38, 39, 40, 41, 42
BITWISE_AND, BITWISE_OR, BITWISE_NOT, BITWISE_XOR = 43, 44, 45, 46
APOSTROPHE, BACKTICK, SEMICOLON, INVALID, BAD_UTF8, QUOTED_NEWLINE = 47, 48, 49, 50, 51, 52
NIL = 0

# Human names, as HCL's TokenType.String() gives them (used in a few messages and tests).
KIND_NAMES: dict[int, str] = {
    OBRACE: "TokenOBrace", CBRACE: "TokenCBrace", OBRACK: "TokenOBrack", CBRACK: "TokenCBrack",
    OPAREN: "TokenOParen", CPAREN: "TokenCParen", OQUOTE: "TokenOQuote", CQUOTE: "TokenCQuote",
    OHEREDOC: "TokenOHeredoc", CHEREDOC: "TokenCHeredoc", STAR: "TokenStar",
    SLASH: "TokenSlash", PLUS: "TokenPlus", MINUS: "TokenMinus", PERCENT: "TokenPercent",
    EQUAL: "TokenEqual", EQUALOP: "TokenEqualOp", NOTEQUAL: "TokenNotEqual",
    LT: "TokenLessThan", LTE: "TokenLessThanEq", GT: "TokenGreaterThan",
    GTE: "TokenGreaterThanEq", AND: "TokenAnd", OR: "TokenOr", BANG: "TokenBang",
    DOT: "TokenDot", COMMA: "TokenComma", ELLIPSIS: "TokenEllipsis",
    FATARROW: "TokenFatArrow", QUESTION: "TokenQuestion", COLON: "TokenColon",
    DOUBLECOLON: "TokenDoubleColon", TEMPLATE_INTERP: "TokenTemplateInterp",
    TEMPLATE_CONTROL: "TokenTemplateControl", TEMPLATE_SEQ_END: "TokenTemplateSeqEnd",
    QUOTED_LIT: "TokenQuotedLit", STRING_LIT: "TokenStringLit", NUMBER_LIT: "TokenNumberLit",
    IDENT: "TokenIdent", COMMENT: "TokenComment", NEWLINE: "TokenNewline", EOF: "TokenEOF",
    BITWISE_AND: "TokenBitwiseAnd", BITWISE_OR: "TokenBitwiseOr",
    BITWISE_NOT: "TokenBitwiseNot", BITWISE_XOR: "TokenBitwiseXor",
    APOSTROPHE: "TokenApostrophe", BACKTICK: "TokenBacktick", SEMICOLON: "TokenSemicolon",
    INVALID: "TokenInvalid", BAD_UTF8: "TokenBadUTF8", QUOTED_NEWLINE: "TokenQuotedNewline",
}

_SELF: dict[str, int] = {
    "[": OBRACK, "]": CBRACK, "(": OPAREN, ")": CPAREN, ".": DOT, ",": COMMA, "*": STAR,
    "/": SLASH, "%": PERCENT, "+": PLUS, "-": MINUS, "=": EQUAL, "<": LT, ">": GT, "!": BANG,
    "?": QUESTION, ":": COLON, "&": BITWISE_AND, "|": BITWISE_OR, "~": BITWISE_NOT,
    "^": BITWISE_XOR, ";": SEMICOLON, "`": BACKTICK, "'": APOSTROPHE,
    "==": EQUALOP, "!=": NOTEQUAL, ">=": GTE, "<=": LTE, "&&": AND, "||": OR,
    "::": DOUBLECOLON, "...": ELLIPSIS, "=>": FATARROW,
}

# Main mode. Group numbers are used for dispatch (m.lastindex), so keep them in this order.
_MAIN = re.compile(
    r"[ \t]*(?:"  # leading spaces are skipped as part of the next token's match
    r"(\r?\n)"  # 1 newline
    r"|([0-9](?:(?:[0-9.]|[eE][+-]?[0-9])*(?:[0-9]|[eE][+-]?[0-9]))?)"  # 2 number
    r"|([^\W\d][\w-]*)"  # 3 identifier
    r"|(#[^\n]*\n?|//[^\n]*\n?|/\*[\s\S]*?\*/)"  # 4 comment
    r'|("[^"$%\\\r\n]*")'  # 5 a whole plain string: no escapes, sequences or newlines
    r"|(<<-?[^\W\d][\w-]*\r?\n)"  # 6 heredoc introducer
    r"|(==|!=|>=|<=|&&|\|\||::|\.\.\.|=>|[\[\]().,*/%+\-=<>!?:&|^;`'])"  # 7 operators
    r"|(\{)"  # 8
    r"|(\})"  # 9
    r"|(~\})"  # 10
    r"|(\")"  # 11
    r"|(~)"  # 12
    r"|([\s\S])"  # 13 anything else
    r")",
)

# Inside a quoted template.
_QUOTED = re.compile(
    r"(\$\{~?)"  # 1 interpolation
    r"|(%\{~?)"  # 2 control
    r"|(\")"  # 3 end of string
    r"|(\$\$\{~?|%%\{~?|[$%](?!\{)(?=[\s\S])|(?:\\[^\r\n]|[^$%\"\\\r\n])+)"  # 4 literal
    r"|([\r\n]+)"  # 5 quoted newline
    r"|([\s\S])",  # 6 invalid
)

# Inside a heredoc or a bare template: literals run to the end of a line.
_LINE = re.compile(
    r"(\$\{~?)"  # 1 interpolation
    r"|(%\{~?)"  # 2 control
    r"|(?:(\$\$\{~?|%%\{~?|[$%](?!\{)|[^$%\r\n]*)(\r?\n)?)",  # 3 literal, 4 end of line
)

_NUMBER_OK = re.compile(r"[0-9]+(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?\Z")

MODE_NORMAL, MODE_TEMPLATE = 0, 1


@dataclass(slots=True)
class Tokens:
    """A token stream over one source file: kind, start and end offset per token."""

    file: SourceFile
    kinds: list[int]
    starts: list[int]
    ends: list[int]

    def text(self, i: int) -> str:
        return self.file.text[self.starts[i] : self.ends[i]]

    def range(self, i: int) -> Range:
        return Range(self.file, self.starts[i], self.ends[i])

    def __len__(self) -> int:
        return len(self.kinds)


def lex(file: SourceFile, mode: int = MODE_NORMAL, start: int = 0, stop: int = -1) -> Tokens:
    """Scan the file (or text[start:stop]) into tokens, always ending with one EOF token."""
    text = file.text
    kinds: list[int] = []
    starts: list[int] = []
    ends: list[int] = []
    kapp, sapp, eapp = kinds.append, starts.append, ends.append
    n = stop if stop >= 0 else len(text)
    pos = start + 1 if text.startswith("\ufeff", start) else start

    # Stack of scanner states: ("m",) main, ("q",) quoted, ("h", marker, [start_of_line]),
    # ("b",) bare template. `ret_braces` holds the brace depth at which a `}` returns from
    # main to the enclosing template.
    stack: list[list[object]] = [["b"] if mode == MODE_TEMPLATE else ["m"]]
    braces = 0
    ret_braces: list[int] = []
    main_iter = _MAIN.finditer
    quoted_match = _QUOTED.match
    line_match = _LINE.match
    self_kinds = _SELF

    def enter_sequence() -> None:
        nonlocal braces
        braces += 1
        ret_braces.append(braces)
        top = stack[-1]
        if top[0] == "h":
            top[2] = False
        stack.append(["m"])

    while pos < n:
        state = stack[-1]
        st = state[0]
        if st == "m":
            # Stay in this loop for as long as the scanner stays in main mode: finditer over
            # the main pattern is the same as matching at each previous match's end, because
            # the pattern matches at any position except in trailing spaces.
            for mm in main_iter(text, pos, n):
                g: int = mm.lastindex or 0
                end = mm.end()
                if g == 3:
                    kapp(IDENT)
                elif g == 7:
                    kapp(self_kinds[mm.group(7)])
                elif g == 1:
                    kapp(NEWLINE)
                elif g == 5:
                    # Exactly the tokens the quoted-string mode would give: the quotes and,
                    # if the string is not empty, one literal between them.
                    s = mm.start(5)
                    kapp(OQUOTE)
                    sapp(s)
                    eapp(s + 1)
                    if end - s > 2:
                        kapp(QUOTED_LIT)
                        sapp(s + 1)
                        eapp(end - 1)
                    kapp(CQUOTE)
                    sapp(end - 1)
                    eapp(end)
                    continue
                elif g == 2:
                    kapp(NUMBER_LIT)
                elif g == 4:
                    kapp(COMMENT)
                elif g == 8:
                    kapp(OBRACE)
                    braces += 1
                elif g == 9 or g == 10:
                    if ret_braces and ret_braces[-1] == braces:
                        kapp(TEMPLATE_SEQ_END)
                        braces -= 1
                        ret_braces.pop()
                        stack.pop()
                        sapp(mm.start(g))
                        eapp(end)
                        pos = end
                        break  # back to the enclosing template
                    kapp(CBRACE if g == 9 else TEMPLATE_SEQ_END)
                    braces -= 1
                elif g == 11:
                    kapp(OQUOTE)
                    stack.append(["q"])
                    sapp(mm.start(g))
                    eapp(end)
                    pos = end
                    break
                elif g == 6:
                    kapp(OHEREDOC)
                    intro = mm.group(6)
                    marker = intro[2:].rstrip("\r\n")
                    if marker.startswith("-"):
                        marker = marker[1:]
                    stack.append(["h", marker, True])
                    sapp(mm.start(g))
                    eapp(end)
                    pos = end
                    break
                elif g == 12:
                    kapp(BITWISE_NOT)
                else:
                    c = mm.group(13)
                    o = ord(c)
                    kapp(BAD_UTF8 if 0xD800 <= o <= 0xDFFF or c == "\ufffd" else INVALID)
                sapp(mm.start(g))
                eapp(end)
            else:  # the text ended (or only spaces remain) in main mode
                break
        elif st == "q":
            m = quoted_match(text, pos, n)
            assert m is not None
            g = m.lastindex or 0
            end = m.end()
            if g == 4:
                kapp(QUOTED_LIT)
            elif g == 1:
                kapp(TEMPLATE_INTERP)
                sapp(pos)
                eapp(end)
                pos = end
                enter_sequence()
                continue
            elif g == 2:
                kapp(TEMPLATE_CONTROL)
                sapp(pos)
                eapp(end)
                pos = end
                enter_sequence()
                continue
            elif g == 3:
                kapp(CQUOTE)
                stack.pop()
            elif g == 5:
                kapp(QUOTED_NEWLINE)
            else:
                kapp(INVALID)
            sapp(pos)
            eapp(end)
            pos = end
        else:
            m = line_match(text, pos, n)
            assert m is not None
            g = m.lastindex or 0
            end = m.end()
            if g == 1 or g == 2:
                kapp(TEMPLATE_INTERP if g == 1 else TEMPLATE_CONTROL)
                sapp(pos)
                eapp(end)
                pos = end
                enter_sequence()
                continue
            if end == pos:  # a lone "\r": keep it as literal text
                end = pos + 1
            if st == "h":
                if m.group(4) is not None:
                    if state[2] and text[pos : m.start(4)].strip() == state[1]:
                        nl = m.start(4)
                        kapp(CHEREDOC)
                        sapp(pos)
                        eapp(nl)
                        kapp(NEWLINE)
                        sapp(nl)
                        eapp(end)
                        pos = end
                        stack.pop()
                        continue
                    state[2] = True
                else:
                    state[2] = False
            kapp(STRING_LIT)
            sapp(pos)
            eapp(end)
            pos = end

    kapp(EOF)
    sapp(n)
    eapp(n)
    return Tokens(file, kinds, starts, ends)


def check_invalid_tokens(tokens: Tokens) -> Diagnostics:
    """Errors for tokens that never belong in HCL source (HCL's checkInvalidTokens)."""
    diags = Diagnostics()
    if not tokens.kinds or max(tokens.kinds) < BITWISE_AND:  # the usual case: none at all
        return diags
    told_bitwise = told_backtick = told_apostrophe = told_semicolon = told_bad = 0
    for i, kind in enumerate(tokens.kinds):
        if kind < BITWISE_AND:
            continue
        rng = tokens.range(i)
        diag: Diagnostic | None = None
        if kind in (BITWISE_AND, BITWISE_OR, BITWISE_XOR, BITWISE_NOT):
            if told_bitwise < 4:
                suggestion = {
                    BITWISE_AND: ' Did you mean boolean AND ("&&")?',
                    BITWISE_OR: ' Did you mean boolean OR ("||")?',
                    BITWISE_NOT: ' Did you mean boolean NOT ("!")?',
                }.get(kind, "")
                diag = error(
                    "Unsupported operator",
                    f"Bitwise operators are not supported.{suggestion}",
                    rng,
                )
                told_bitwise += 1
        elif kind == BACKTICK:
            if told_backtick % 2 == 0:
                diag = error(
                    "Invalid character",
                    'The "`" character is not valid. To create a multi-line string, use the '
                    '"heredoc" syntax, like "<<EOT".',
                    rng,
                )
            if told_backtick <= 2:
                told_backtick += 1
        elif kind == APOSTROPHE:
            if told_apostrophe % 2 == 0:
                diag = error(
                    "Invalid character",
                    'Single quotes are not valid. Use double quotes (") to enclose strings.',
                    rng,
                )
            if told_apostrophe <= 2:
                told_apostrophe += 1
        elif kind == SEMICOLON:
            if told_semicolon < 1:
                diag = error(
                    "Invalid character",
                    'The ";" character is not valid. Use newlines to separate arguments and '
                    "blocks, and commas to separate items in collection values.",
                    rng,
                )
                told_semicolon += 1
        elif kind == BAD_UTF8:
            if told_bad < 1:
                diag = error(
                    "Invalid character encoding",
                    "All input files must be UTF-8 encoded. Ensure that UTF-8 encoding is "
                    "selected in your editor.",
                    rng,
                )
                told_bad += 1
        elif kind == QUOTED_NEWLINE:
            diag = error(
                "Invalid multi-line string",
                "Quoted strings may not be split over multiple lines. To produce a multi-line "
                "string, either use the \\n escape to represent a newline character or use the "
                '"heredoc" multi-line template syntax.',
                rng,
            )
        elif kind == INVALID:
            diag = error(
                "Invalid character", "This character is not used within the language.", rng
            )
        if diag is not None:
            diags.append(diag)
    return diags


def number_text_ok(text: str) -> bool:
    """Whether a NUMBER_LIT token's text is a number cty can parse (not `1.2.3`)."""
    return _NUMBER_OK.match(text) is not None
