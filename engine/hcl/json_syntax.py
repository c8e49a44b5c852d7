"""Terraform's JSON syntax (`.tf.json`, `.tfvars.json`) parsed into the native tree types.

Strings are templates: their contents are parsed as bare templates (positions point into
the JSON file when the string has no escapes, else into the decoded string); numbers,
`true`/`false`/`null` are literals; arrays are tuple constructors and objects are object
constructors with literal string keys. Whether a property is an argument or a block depends
on a schema this layer does not know, so every property of the root object is an
Attribute; `attribute_as_blocks` re-reads one as nested blocks when the caller knows.
"""

from __future__ import annotations

import json
import re

from engine.diags import Diagnostic, Diagnostics, error
from engine.gocompat.levenshtein import distance
from engine.gocompat.strconv import quote as go_quote
from engine.hcl.ast import (
    Attribute,
    Block,
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
from engine.hcl.lexer import EOF, MODE_TEMPLATE, lex
from engine.source import Range, SourceFile
from engine.values import FALSE, TRUE, null, number, string

_WS = re.compile(r"[ \t\r\n]*")
_STRING = re.compile(r'"(?:[^"\\\x00-\x1f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"')
_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?")
_WORD = re.compile(r"[A-Za-z_]+")


class _JSONError(Exception):
    def __init__(self, summary: str, detail: str, pos: int, end: int | None = None) -> None:
        super().__init__(summary)
        self.summary = summary
        self.detail = detail
        self.pos = pos
        self.end = end


class _JSONParser:
    def __init__(self, file: SourceFile) -> None:
        self.file = file
        self.text = file.text
        self.pos = 0
        self.diags: list[Diagnostic] = []

    def ws(self) -> None:
        m = _WS.match(self.text, self.pos)
        if m is not None:
            self.pos = m.end()

    def fail(self, detail: str) -> _JSONError:
        return _JSONError("Syntax error", detail, self.pos)

    def value(self) -> Expr:
        self.ws()
        text = self.text
        pos = self.pos
        if pos >= len(text):
            raise _JSONError("Missing value", "The JSON data ends prematurely.", pos)
        c = text[pos]
        if c == "{":
            return self.obj()
        if c == "[":
            return self.arr()
        if c == '"':
            return self.str_expr()
        m = _NUMBER.match(text, pos)
        if m is not None:
            self.pos = m.end()
            return LiteralValueExpr(number(m.group(0)), Range(self.file, pos, m.end()))
        m = _WORD.match(text, pos)
        if m is not None:
            word = m.group(0)
            if word in ("true", "false", "null"):
                self.pos = m.end()
                val = TRUE if word == "true" else FALSE if word == "false" else null()
                return LiteralValueExpr(val, Range(self.file, pos, m.end()))
            if word in ("undefined", "NaN", "Infinity"):
                detail = f"The JavaScript identifier {go_quote(word)} cannot be used in JSON."
            else:
                suggest = next((k for k in ("false", "true", "null") if distance(word, k) < 3), "")
                dym = f" Did you mean {go_quote(suggest)}?" if suggest else ""
                detail = f"{go_quote(word)} is not a valid JSON keyword.{dym}"
            raise _JSONError("Invalid JSON keyword", detail, pos, m.end())
        value_start = (
            "A JSON value must start with a brace, a bracket, a number, a string, or a keyword."
        )
        if c == "}":
            raise _JSONError("Missing JSON value", value_start, pos)
        if c == "]":
            raise _JSONError("Missing array element value", value_start, pos)
        raise _JSONError("Invalid start of value", value_start, pos)

    def raw_string(self) -> tuple[str, int, int]:
        m = _STRING.match(self.text, self.pos)
        if m is None:
            raise _JSONError("Invalid JSON string", "This string is not valid JSON.", self.pos)
        self.pos = m.end()
        decoded: str = json.loads(m.group(0))
        return decoded, m.start(), m.end()

    def str_expr(self) -> Expr:
        decoded, start, end = self.raw_string()
        return template_from_json_string(self.file, decoded, start, end, self.diags)

    def obj(self) -> ObjectConsExpr:
        start = self.pos
        self.pos += 1
        items: list[ObjectConsItem] = []
        self.ws()
        if self.text.startswith("}", self.pos):
            self.pos += 1
            rng = Range(self.file, start, self.pos)
            return ObjectConsExpr(items, rng, Range(self.file, start, start + 1))
        while True:
            self.ws()
            if not self.text.startswith('"', self.pos):
                raise self.fail("An object key must be a string.")
            key, ks, ke = self.raw_string()
            key_expr = ObjectConsKeyExpr(
                LiteralValueExpr(string(key), Range(self.file, ks, ke)), False
            )
            self.ws()
            if not self.text.startswith(":", self.pos):
                raise self.fail("A colon must follow an object key.")
            self.pos += 1
            items.append(ObjectConsItem(key_expr, self.value()))
            self.ws()
            if self.text.startswith(",", self.pos):
                self.pos += 1
                continue
            if self.text.startswith("}", self.pos):
                self.pos += 1
                break
            raise self.fail("Expected a comma or a closing brace after an object property.")
        return ObjectConsExpr(
            items, Range(self.file, start, self.pos), Range(self.file, start, start + 1)
        )

    def arr(self) -> TupleConsExpr:
        start = self.pos
        self.pos += 1
        exprs: list[Expr] = []
        self.ws()
        if self.text.startswith("]", self.pos):
            self.pos += 1
        else:
            while True:
                exprs.append(self.value())
                self.ws()
                if self.text.startswith(",", self.pos):
                    self.pos += 1
                    continue
                if self.text.startswith("]", self.pos):
                    self.pos += 1
                    break
                raise self.fail("Expected a comma or a closing bracket after an array element.")
        return TupleConsExpr(
            exprs, Range(self.file, start, self.pos), Range(self.file, start, start + 1)
        )


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
        tokens = lex(SourceFile(file.filename, decoded), MODE_TEMPLATE)
    parser = Parser(tokens)
    exprs, passthru, _ = parse_template_inner(parser, EOF, False)
    diags.extend(parser.diags)
    rng = Range(file, start, end)
    if passthru:
        return TemplateWrapExpr(exprs[0], rng)
    return TemplateExpr(exprs, rng)


def parse_json_file(text: str, filename: str) -> tuple[File, Diagnostics]:
    """Parse a JSON-syntax file: the root must be an object; each property is an Attribute."""
    source = SourceFile(filename, text)
    parser = _JSONParser(source)
    diags: list[Diagnostic] = []
    attrs: dict[str, Attribute] = {}
    whole = Range(source, 0, len(text))
    parser.ws()
    root_start = parser.pos
    try:
        root = parser.value()
        parser.ws()
        if parser.pos < len(text):
            raise _JSONError(
                "Trailing characters",
                "Only one JSON value is allowed in a file.",
                parser.pos,
            )
        if not isinstance(root, ObjectConsExpr):
            diags.append(
                error(
                    "Root value must be object",
                    "The root value in a JSON-based configuration must be either a JSON object "
                    "or a JSON array of objects.",
                    root.range,
                )
            )
        else:
            for item in root.items:
                name = _key_name(item.key)
                krng = item.key.range
                if name in attrs:
                    diags.append(
                        error(
                            "Duplicate argument",
                            f'The argument "{name}" was already set at {attrs[name].name_range}.',
                            krng,
                        )
                    )
                    continue
                attrs[name] = Attribute(
                    name, item.value, krng.to(item.value.range), krng, krng
                )
    except _JSONError as exc:
        stop = exc.end if exc.end is not None else min(exc.pos + 1, len(text))
        rng = Range(source, exc.pos, stop)
        diags.append(error(exc.summary, exc.detail, rng))
        if exc.pos == root_start and text[root_start:root_start + 1] not in ("{", "["):
            # as HCL: the root is then an invalid value, and not an object
            diags.append(
                error(
                    "Root value must be object",
                    "The root value in a JSON-based configuration must be either a JSON object "
                    "or a JSON array of objects.",
                    rng,
                )
            )
    diags = parser.diags + diags
    end = Range(source, len(text), len(text))
    body = Body(attrs, [], whole, end)
    file = File(body, source, [], is_json=True)
    from engine.hcl.context import register_file

    register_file(file)
    return file, Diagnostics(diags)


def _key_name(key: ObjectConsKeyExpr) -> str:
    wrapped = key.wrapped
    assert isinstance(wrapped, LiteralValueExpr)
    name: str = wrapped.value.v
    return name


def attribute_as_blocks(
    attr: Attribute, block_type: str, label_count: int
) -> tuple[list[Block], Diagnostics]:
    """Re-read a JSON property as blocks of `block_type` with `label_count` labels.

    Objects nest one level per label (keys are the labels); at the innermost level an
    object is one block's body and an array of objects is one block per element."""
    diags: list[Diagnostic] = []
    blocks: list[Block] = []
    _collect(attr.expr, block_type, label_count, [], [], attr.name_range, blocks, diags)
    return blocks, Diagnostics(diags)


def _collect(
    expr: Expr,
    block_type: str,
    remaining: int,
    labels: list[str],
    label_ranges: list[Range],
    type_range: Range,
    out: list[Block],
    diags: list[Diagnostic],
) -> None:
    if isinstance(expr, TupleConsExpr):
        for elem in expr.exprs:
            _collect(elem, block_type, remaining, labels, label_ranges, type_range, out, diags)
        return
    if not isinstance(expr, ObjectConsExpr):
        diags.append(
            error(
                "Incorrect JSON value type",
                f'Either a JSON object or a JSON array is required, representing the contents '
                f'of one or more "{block_type}" blocks.',
                expr.range,
            )
        )
        return
    if remaining > 0:
        for item in expr.items:
            name = _key_name(item.key)
            _collect(
                item.value,
                block_type,
                remaining - 1,
                [*labels, name],
                [*label_ranges, item.key.range],
                type_range,
                out,
                diags,
            )
        return
    attrs: dict[str, Attribute] = {}
    for item in expr.items:
        name = _key_name(item.key)
        krng = item.key.range
        attrs[name] = Attribute(name, item.value, krng.to(item.value.range), krng, krng)
    file = expr.range.file
    close = Range(file, expr.range.end_offset - 1, expr.range.end_offset)
    body = Body(attrs, [], expr.range, Range(file, expr.range.end_offset, expr.range.end_offset))
    out.append(Block(block_type, labels, body, type_range, label_ranges, expr.open_range, close))
