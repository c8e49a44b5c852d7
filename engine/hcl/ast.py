"""The native-syntax tree: expressions, attributes, blocks and bodies, each with its range.

This mirrors HashiCorp HCL's `hclsyntax` node set, so that evaluation and error messages can
follow Terraform's exactly. Nodes are plain slotted classes: the parser creates hundreds of
thousands of them for a large configuration.

Traversals (`var.a.b[0]`) are tuples of steps: the first is a `TraverseRoot`, then
`TraverseAttr` and `TraverseIndex` steps. A traversal whose steps are all static becomes a
`ScopeTraversalExpr`; steps after any other expression form a `RelativeTraversalExpr`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.source import Range, SourceFile


# ---------------------------------------------------------------------------------- traversals
@dataclass(frozen=True, slots=True)
class TraverseRoot:
    """The first step of a traversal: the root name (`var`, `local`, a resource type...)."""

    name: str
    range: Range


@dataclass(frozen=True, slots=True)
class TraverseAttr:
    """An attribute step of a traversal (`.name`)."""

    name: str
    range: Range


@dataclass(frozen=True, slots=True)
class TraverseIndex:
    """A static index step (`[0]`, `["k"]`, or the legacy `.0`); `key` is a Value."""

    key: Any
    range: Range


TraverseStep = TraverseRoot | TraverseAttr | TraverseIndex
Traversal = tuple[TraverseStep, ...]


def traversal_str(traversal: Traversal) -> str:
    """The traversal as it reads in source: `var.a["k"][0]`."""
    out: list[str] = []
    for step in traversal:
        if isinstance(step, TraverseRoot):
            out.append(step.name)
        elif isinstance(step, TraverseAttr):
            out.append("." + step.name)
        else:
            key = step.key
            raw = getattr(key, "v", key)
            if isinstance(raw, str):
                out.append('["' + raw + '"]')
            else:
                out.append(f"[{raw}]")
    return "".join(out)


# --------------------------------------------------------------------------------- expressions
class Expr:
    """Base of every expression node. `range` covers the whole expression."""

    __slots__ = ("range",)
    range: Range

    def src_range(self) -> Range:
        return self.range


class LiteralValueExpr(Expr):
    """A literal number, bool, null or a string without interpolation; `value` is a Value."""

    __slots__ = ("value",)

    def __init__(self, value: Any, range: Range) -> None:
        self.value = value
        self.range = range


class TemplateExpr(Expr):
    """A quoted or heredoc template: literal parts (LiteralValueExpr of string) and
    interpolated expressions, joined as strings."""

    __slots__ = ("parts",)

    def __init__(self, parts: list[Expr], range: Range) -> None:
        self.parts = parts
        self.range = range

    @property
    def is_string_literal(self) -> bool:
        return len(self.parts) <= 1 and all(isinstance(p, LiteralValueExpr) for p in self.parts)


class TemplateWrapExpr(Expr):
    """A template of exactly one interpolation (`"${x}"`): yields x's value unconverted."""

    __slots__ = ("wrapped",)

    def __init__(self, wrapped: Expr, range: Range) -> None:
        self.wrapped = wrapped
        self.range = range


class TemplateIfExpr(Expr):
    """`%{ if cond }...%{ else }...%{ endif }` inside a template."""

    __slots__ = ("cond", "true_parts", "false_parts")

    def __init__(
        self, cond: Expr, true_parts: TemplateExpr, false_parts: TemplateExpr | None, range: Range
    ) -> None:
        self.cond = cond
        self.true_parts = true_parts
        self.false_parts = false_parts
        self.range = range


class TemplateForExpr(Expr):
    """`%{ for k, v in coll }...%{ endfor }` inside a template."""

    __slots__ = ("key_var", "value_var", "collection", "body")

    def __init__(
        self,
        key_var: str | None,
        value_var: str,
        collection: Expr,
        body: TemplateExpr,
        range: Range,
    ) -> None:
        self.key_var = key_var
        self.value_var = value_var
        self.collection = collection
        self.body = body
        self.range = range


class ScopeTraversalExpr(Expr):
    """A reference rooted at a name in scope: `var.a`, `aws_s3_bucket.b[0].arn`, `count.index`."""

    __slots__ = ("traversal",)

    def __init__(self, traversal: Traversal, range: Range) -> None:
        self.traversal = traversal
        self.range = range


class RelativeTraversalExpr(Expr):
    """Static attribute/index steps applied to the result of another expression."""

    __slots__ = ("source", "traversal")

    def __init__(self, source: Expr, traversal: Traversal, range: Range) -> None:
        self.source = source
        self.traversal = traversal
        self.range = range


class IndexExpr(Expr):
    """`collection[key]` with a key that is not a literal."""

    __slots__ = ("collection", "key", "bracket_range")

    def __init__(self, collection: Expr, key: Expr, range: Range, bracket_range: Range) -> None:
        self.collection = collection
        self.key = key
        self.range = range
        self.bracket_range = bracket_range


class AnonSymbolExpr(Expr):
    """The placeholder a splat's `each` expression is evaluated against."""

    __slots__ = ()

    def __init__(self, range: Range) -> None:
        self.range = range


class SplatExpr(Expr):
    """`source[*].each` (full) or the legacy `source.*.each` (attribute-only)."""

    __slots__ = ("source", "each", "item", "marker_range", "legacy")

    def __init__(
        self,
        source: Expr,
        each: Expr,
        item: AnonSymbolExpr,
        range: Range,
        marker_range: Range,
        legacy: bool = False,
    ) -> None:
        self.source = source
        self.each = each
        self.item = item
        self.range = range
        self.marker_range = marker_range
        self.legacy = legacy


class FunctionCallExpr(Expr):
    """`name(args...)`; `expand_final` is true when the last argument ends in `...`."""

    __slots__ = ("name", "args", "expand_final", "name_range", "open_paren_range", "close_paren_range")

    def __init__(
        self,
        name: str,
        args: list[Expr],
        expand_final: bool,
        range: Range,
        name_range: Range,
        open_paren_range: Range,
        close_paren_range: Range,
    ) -> None:
        self.name = name
        self.args = args
        self.expand_final = expand_final
        self.range = range
        self.name_range = name_range
        self.open_paren_range = open_paren_range
        self.close_paren_range = close_paren_range


class ConditionalExpr(Expr):
    __slots__ = ("condition", "true_result", "false_result")

    def __init__(self, condition: Expr, true_result: Expr, false_result: Expr, range: Range) -> None:
        self.condition = condition
        self.true_result = true_result
        self.false_result = false_result
        self.range = range


class BinaryOpExpr(Expr):
    """`lhs op rhs`; `op` is the operator's source text (`+`, `==`, `&&`, ...)."""

    __slots__ = ("op", "lhs", "rhs", "op_range")

    def __init__(self, op: str, lhs: Expr, rhs: Expr, range: Range, op_range: Range) -> None:
        self.op = op
        self.lhs = lhs
        self.rhs = rhs
        self.range = range
        self.op_range = op_range


class UnaryOpExpr(Expr):
    """`-x` or `!x`."""

    __slots__ = ("op", "operand", "op_range")

    def __init__(self, op: str, operand: Expr, range: Range, op_range: Range) -> None:
        self.op = op
        self.operand = operand
        self.range = range
        self.op_range = op_range


class TupleConsExpr(Expr):
    __slots__ = ("exprs", "open_range")

    def __init__(self, exprs: list[Expr], range: Range, open_range: Range) -> None:
        self.exprs = exprs
        self.range = range
        self.open_range = open_range


class ObjectConsKeyExpr(Expr):
    """An object key. A bare identifier is a literal string key unless `force_non_literal`
    (it was written in parentheses), in which case it is evaluated as a reference."""

    __slots__ = ("wrapped", "force_non_literal")

    def __init__(self, wrapped: Expr, force_non_literal: bool) -> None:
        self.wrapped = wrapped
        self.force_non_literal = force_non_literal
        self.range = wrapped.range

    def as_literal_name(self) -> str | None:
        """The bare identifier this key is, if it is one and is not parenthesized."""
        if self.force_non_literal:
            return None
        w = self.wrapped
        if isinstance(w, ScopeTraversalExpr) and len(w.traversal) == 1:
            root = w.traversal[0]
            if isinstance(root, TraverseRoot):
                return root.name
        return None


@dataclass(slots=True)
class ObjectConsItem:
    """One `key = value` item of an object constructor expression."""

    key: ObjectConsKeyExpr
    value: Expr


class ObjectConsExpr(Expr):
    __slots__ = ("items", "open_range")

    def __init__(self, items: list[ObjectConsItem], range: Range, open_range: Range) -> None:
        self.items = items
        self.range = range
        self.open_range = open_range


class ForExpr(Expr):
    """`[for k, v in coll : val if cond]` or `{for k, v in coll : key => val... if cond}`."""

    __slots__ = (
        "key_var",
        "value_var",
        "collection",
        "key_expr",
        "value_expr",
        "cond",
        "group",
        "open_range",
        "close_range",
    )

    def __init__(
        self,
        key_var: str | None,
        value_var: str,
        collection: Expr,
        key_expr: Expr | None,
        value_expr: Expr,
        cond: Expr | None,
        group: bool,
        range: Range,
        open_range: Range,
        close_range: Range,
    ) -> None:
        self.key_var = key_var
        self.value_var = value_var
        self.collection = collection
        self.key_expr = key_expr
        self.value_expr = value_expr
        self.cond = cond
        self.group = group
        self.range = range
        self.open_range = open_range
        self.close_range = close_range


class ParenthesesExpr(Expr):
    __slots__ = ("wrapped",)

    def __init__(self, wrapped: Expr, range: Range) -> None:
        self.wrapped = wrapped
        self.range = range


# ----------------------------------------------------------------------------- bodies, blocks
@dataclass(slots=True)
class Attribute:
    """`name = expr` in a body."""

    name: str
    expr: Expr
    range: Range
    name_range: Range
    equals_range: Range


@dataclass(slots=True)
class Block:
    """`type "label" ... { body }`."""

    type: str
    labels: list[str]
    body: Body
    type_range: Range
    label_ranges: list[Range]
    open_brace_range: Range
    close_brace_range: Range
    #: decoded from JSON syntax (the innermost object of `{"type": {"label": {...}}}`)
    json: bool = False

    @property
    def range(self) -> Range:
        return self.type_range.to(self.close_brace_range)

    @property
    def def_range(self) -> Range:
        """The block header: type and labels, as Terraform highlights it; in JSON syntax,
        HCL's DefRange is the opening brace of the block's object."""
        if self.json:
            return self.open_brace_range
        end = self.label_ranges[-1] if self.label_ranges else self.type_range
        return self.type_range.to(end)


@dataclass(slots=True)
class Body:
    """The attributes (by name, in source order) and blocks (in order) of a file or block.

    A body from a JSON file also keeps the JSON value it is made of (`json_value`: an
    object, an array of objects, or a value of the wrong type that decoding reports) and the
    property names a partial decoding already consumed (`json_hidden`); its `attributes` are
    the first property of each name (`engine.hcl.json_body` reads all of them, and blocks)."""

    attributes: dict[str, Attribute]
    blocks: list[Block]
    range: Range
    end_range: Range
    json_value: Expr | None = None
    json_hidden: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class Comment:
    """A comment token with its text and source range (kept for `fmt`)."""

    text: str
    range: Range


@dataclass(slots=True, weakref_slot=True)
class File:
    """A parsed file: its root body, its comments (for the formatter) and its source."""

    body: Body
    source: SourceFile
    comments: list[Comment] = field(default_factory=list)
    is_json: bool = False
