"""Terraform's JSON syntax (`.tf.json`, `.tfvars.json`) parsed into the native tree types.

A port of hashicorp/hcl's json/parser.go and public.go (v2.23, what terraform 1.11 uses):
the same diagnostics (summary, detail, range) in the same order, and the same recovery. A
value that cannot be parsed becomes an invalid value (an unknown of dynamic type, as HCL's
`invalidVal` evaluates) and parsing goes on; an object or array whose structure is broken
(a missing colon or comma, a trailing comma, a wrong closing bracket, a non-string key) is
itself invalid, after the parser has skipped to what looks like its end. A root that is not
an object or an array gets "Root value must be object" and the file's body is then empty.

Strings are templates: their contents are parsed as bare templates (positions point into
the JSON file when the string has no escapes, else into the decoded string); numbers,
`true`/`false`/`null` are literals; arrays are tuple constructors and objects are object
constructors with literal string keys. Whether a property is an argument or a block depends
on a schema this layer does not know: a body keeps every property (`Body.json_props`, in
order, duplicates included) and `engine.hcl.json_body` reads one as blocks when asked.
"""

from __future__ import annotations

import json
import re

from engine.diags import Diagnostic, Diagnostics, error
from engine.gocompat.levenshtein import distance
from engine.gocompat.strconv import quote as go_quote
from engine.hcl.ast import (
    Body,
    Expr,
    File,
    LiteralValueExpr,
    ObjectConsExpr,
    ObjectConsItem,
    ObjectConsKeyExpr,
    TemplateExpr,
    TemplateWrapExpr,
    TupleConsExpr,
)
from engine.hcl.gcpause import paused_cyclic_gc
from engine.hcl.json_scan import (
    BRACE_C,
    BRACE_O,
    BRACK_C,
    BRACK_O,
    COLON,
    COMMA,
    EOF,
    EQUALS,
    KEYWORD,
    NUMBER,
    STRING,
    Tokens,
    byte_offset_range,
    scan,
    token_range,
)
from engine.hcl.lexer import EOF as LEX_EOF
from engine.hcl.lexer import MODE_TEMPLATE, lex
from engine.source import EmbeddedSourceFile, JSONSourceFile, Pos, Range, SourceFile
from engine.values import DYNAMIC, FALSE, TRUE, UNKNOWN, Value, null, number, string

_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?")
_SURROGATE = re.compile("[\ud800-\udfff]")
_VALUE_START = "A JSON value must start with a brace, a bracket, a number, a string, or a keyword."
_ROOT_DETAIL = (
    "The root value in a JSON-based configuration must be either a JSON object or a JSON "
    "array of objects."
)
_INVALID = Value(DYNAMIC, UNKNOWN)


def is_invalid(expr: Expr) -> bool:
    """Whether `expr` is the placeholder for a value that could not be parsed."""
    return isinstance(expr, LiteralValueExpr) and expr.value is _INVALID


class _Parser:
    """hcl's json parser over a token stream: each parse function returns the node, or
    None where hcl's returns nil (a broken object or array), and appends diagnostics."""

    def __init__(self, tokens: Tokens) -> None:
        self.toks = tokens
        self.file = tokens.file
        self.text = tokens.file.text
        self.kinds = tokens.kinds
        self.starts = tokens.starts
        self.ends = tokens.ends
        self.last = len(tokens.kinds) - 1
        self.i = 0
        self.diags: list[Diagnostic] = []

    # -- the peeker: reading never moves past the end-of-input token
    def read(self) -> int:
        i = self.i
        if i < self.last:
            self.i = i + 1
        return i

    def rng(self, i: int) -> Range:
        return token_range(self.toks, i)

    def err(self, summary: str, detail: str, subject: Range, context: Range | None = None) -> None:
        self.diags.append(error(summary, detail, subject, context))

    def value(self) -> Expr:
        i = self.i
        kind = self.kinds[i]
        if kind == STRING:
            node = self.string()
        elif kind == BRACE_O:
            node = self.object()
        elif kind == BRACK_O:
            node = self.array()
        elif kind == NUMBER:
            node = self.number()
        elif kind == KEYWORD:
            node = self.keyword()
        else:
            summary = {
                BRACE_C: "Missing JSON value",
                BRACK_C: "Missing array element value",
                EOF: "Missing value",
            }.get(kind, "Invalid start of value")
            detail = "The JSON data ends prematurely." if kind == EOF else _VALUE_START
            self.err(summary, detail, self.rng(i))
            node = None
        if node is None:
            return LiteralValueExpr(_INVALID, self.rng(i))
        return node

    def _recover(self, i: int, open_kind: str, close_kind: str) -> None:
        """Skip to what seems the end of the object or array being parsed: from token `i`
        (already read) to the closing token that balances it, which is read too."""
        depth = 1
        kinds = self.kinds
        while True:
            kind = kinds[i]
            if kind == open_kind:
                depth += 1
            elif kind == close_kind:
                depth -= 1
                if depth <= 1:
                    return
            elif kind == EOF:
                return
            i = self.read()

    def object(self) -> Expr | None:
        kinds = self.kinds
        open_i = self.read()
        items: list[ObjectConsItem] = []
        while kinds[self.i] != BRACE_C:
            key: Expr | None
            if kinds[self.i] == STRING:
                key_i = self.i
                key = self.string(as_key=True)
                if key is None:
                    key = LiteralValueExpr(_INVALID, self.rng(key_i))
                    key_ok = False
                else:
                    key_ok = True
            else:
                key = self.value()
                key_ok = False
            if not key_ok:
                self.err("Invalid object property name", "A JSON object property name must be a string",
                         start_range(key))
                return None
            colon = self.read()
            ckind = kinds[colon]
            if ckind != COLON:
                self._recover(colon, BRACE_O, BRACE_C)
                if ckind in (BRACE_C, COMMA):
                    self.err("Missing object value",
                             "A JSON object attribute must have a value, introduced by a colon.",
                             self.rng(colon))
                elif ckind == EQUALS:
                    self.err("Missing property value colon",
                             "JSON uses a colon as its name/value delimiter, not an equals sign.",
                             self.rng(colon))
                else:
                    self.err("Missing property value colon",
                             "A colon must appear between an object property's name and its value.",
                             self.rng(colon))
                return None
            val = self.value()
            items.append(ObjectConsItem(ObjectConsKeyExpr(key, False), val))
            kind = kinds[self.i]
            if kind == COMMA:
                comma = self.read()
                if kinds[self.i] == BRACE_C:
                    self.err("Trailing comma in object",
                             "JSON does not permit a trailing comma after the final property in "
                             "an object.", self.rng(comma))
                    return None
                continue
            if kind == BRACE_C:
                break
            if kind == EOF:
                self.err("Unclosed object", "No closing brace was found for this JSON object.",
                         self.rng(open_i))
                return None
            if kind == BRACK_C:
                self.read()
                self.err("Mismatched braces", "A JSON object must be closed with a brace, not a bracket.",
                         self.rng(self.i))
                return None
            self._recover(self.read(), BRACE_O, BRACE_C)
            self.err("Missing attribute seperator comma",
                     "A comma must appear between each property definition in an object.",
                     self.rng(self.i))
            return None
        close = self.read()
        start, end = self.starts[open_i], self.ends[close]
        file = self.file
        return ObjectConsExpr(items, Range(file, start, end), Range(file, start, start + 1))

    def array(self) -> Expr | None:
        kinds = self.kinds
        open_i = self.read()
        exprs: list[Expr] = []
        while kinds[self.i] != BRACK_C:
            exprs.append(self.value())
            kind = kinds[self.i]
            if kind == COMMA:
                comma = self.read()
                if kinds[self.i] == BRACK_C:
                    self.err("Trailing comma in array",
                             "JSON does not permit a trailing comma after the final value in an "
                             "array.", self.rng(comma))
                    return None
                continue
            if kind == BRACK_C:
                break
            if kind == COLON:
                self._recover(self.read(), BRACK_O, BRACK_C)
                self.err("Invalid array value", "A colon is not used to introduce values in a JSON array.",
                         self.rng(self.i))
            elif kind == EOF:
                self._recover(self.read(), BRACK_O, BRACK_C)
                self.err("Unclosed object", "No closing bracket was found for this JSON array.",
                         self.rng(open_i))
            elif kind == BRACE_C:
                self._recover(self.read(), BRACK_O, BRACK_C)
                self.err("Mismatched brackets", "A JSON array must be closed with a bracket, not a brace.",
                         self.rng(self.i))
            else:
                self._recover(self.read(), BRACK_O, BRACK_C)
                self.err("Missing attribute seperator comma",
                         "A comma must appear between each value in an array.", self.rng(self.i))
            return None
        close = self.read()
        start, end = self.starts[open_i], self.ends[close]
        file = self.file
        return TupleConsExpr(exprs, Range(file, start, end), Range(file, start, start + 1))

    def number(self) -> Expr | None:
        i = self.read()
        start, end = self.starts[i], self.ends[i]
        raw = self.text[start:end]
        if _NUMBER.fullmatch(raw) is None:
            self.err("Invalid JSON number", "There is a syntax error in the given JSON number.",
                     self.rng(i))
            return None
        return LiteralValueExpr(number(raw), Range(self.file, start, end))

    def keyword(self) -> Expr | None:
        i = self.read()
        start, end = self.starts[i], self.ends[i]
        word = self.text[start:end]
        rng = Range(self.file, start, end)
        if word == "true":
            return LiteralValueExpr(TRUE, rng)
        if word == "false":
            return LiteralValueExpr(FALSE, rng)
        if word == "null":
            return LiteralValueExpr(null(), rng)
        if word in ("undefined", "NaN", "Infinity"):
            detail = f"The JavaScript identifier {go_quote(word)} cannot be used in JSON."
        else:
            suggest = next((k for k in ("false", "true", "null") if distance(word, k) < 3), "")
            dym = f" Did you mean {go_quote(suggest)}?" if suggest else ""
            detail = f"{go_quote(word)} is not a valid JSON keyword.{dym}"
        self.err("Invalid JSON keyword", detail, rng)
        return None

    def string(self, as_key: bool = False) -> Expr | None:
        i = self.read()
        start, end = self.starts[i], self.ends[i]
        decoded = decode_string(self.text[start:end])
        if decoded is None:
            self._string_error(i)
            return None
        if as_key:  # an object key is a plain string, never a template
            return LiteralValueExpr(string(decoded), Range(self.file, start, end))
        return template_from_json_string(self.file, decoded, start, end, self.diags)

    def _string_error(self, i: int) -> None:
        from engine.gocompat.json_syntax import go_syntax_error

        tok = self.rng(i)
        raw = self.text[tok.start_offset:tok.end_offset].encode("utf-8", "surrogateescape")
        found = go_syntax_error(raw)
        subject = tok if found is None else byte_offset_range(self.file, tok, found.offset)
        self.err("Invalid JSON string", "There is a syntax error in the given JSON string.",
                 subject, None if subject == tok and found is None else tok)


def start_range(expr: Expr) -> Range:
    """hcl's StartRange of a JSON node: an object's or array's opening bracket, else all."""
    if isinstance(expr, (ObjectConsExpr, TupleConsExpr)):
        return expr.open_range
    return expr.range


def decode_string(raw: str) -> str | None:
    """A string token's value as Go's encoding/json decodes it (invalid UTF-8 and unpaired
    surrogate escapes become U+FFFD), or None when it is not a valid JSON string."""
    if len(raw) < 2 or raw[-1] != '"':
        return None
    if "\\" not in raw:
        body = raw[1:-1]
    else:
        try:
            body = json.loads(raw)
        except ValueError:
            return None
    if not body.isascii() and _SURROGATE.search(body) is not None:
        body = _SURROGATE.sub("\ufffd", body)
    return body


def template_from_json_string(
    file: SourceFile, decoded: str, start: int, end: int, diags: list[Diagnostic]
) -> Expr:
    """A JSON string (at text[start:end], quotes included) as a template expression."""
    if "${" not in decoded and "%{" not in decoded:
        return LiteralValueExpr(string(decoded), Range(file, start, end))
    from engine.hcl.parser import Parser
    from engine.hcl.parser_template import parse_template_inner

    if file.text[start + 1 : end - 1] == decoded:
        tokens = lex(file, MODE_TEMPLATE, start + 1, end - 1)
    else:
        # as hcl: the decoded text parsed from just after the opening quote (positions
        # then advance over the decoded text, which is "not exactly right", says hcl)
        quote = Range(file, start, start).start
        base = Pos(quote.line, quote.column + 1, quote.byte + 1)
        tokens = lex(EmbeddedSourceFile(file.filename, decoded, file, base), MODE_TEMPLATE)
    parser = Parser(tokens)
    exprs, passthru, _ = parse_template_inner(parser, LEX_EOF, False)
    diags.extend(parser.diags)
    rng = Range(file, start, end)
    if passthru:
        return TemplateWrapExpr(exprs[0], rng)
    return TemplateExpr(exprs, rng)


def parse_json_value(source: JSONSourceFile) -> tuple[Expr, list[Diagnostic]]:
    """The file's one JSON value (invalid where it could not be parsed) and the syntax
    diagnostics, "Extraneous data after value" included (hcl's parseFileContent)."""
    parser = _Parser(scan(source))
    root = parser.value()
    if not parser.diags and parser.kinds[parser.i] != EOF:
        parser.err("Extraneous data after value", "Extra characters appear after the JSON value.",
                   parser.rng(parser.i))
    return root, parser.diags


def parse_json_file(text: str, filename: str) -> tuple[File, Diagnostics]:
    """Parse a JSON-syntax file (hcl's json.Parse): the root must be an object or an array
    of objects, else "Root value must be object" and an empty body."""
    from engine.hcl.json_body import body_of

    source = JSONSourceFile(filename, text)
    with paused_cyclic_gc():
        root, diags = parse_json_value(source)
    if not isinstance(root, (ObjectConsExpr, TupleConsExpr)):
        diags.append(error("Root value must be object", _ROOT_DETAIL, root.range))
        fake = Range(source, 0, 0)
        root = ObjectConsExpr([], fake, fake)
    body: Body = body_of(root, Range(source, len(text), len(text)))
    file = File(body, source, [], is_json=True)
    from engine.hcl.context import register_json_file

    register_json_file(file)
    return file, Diagnostics(diags)
