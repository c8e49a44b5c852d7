"""Reading the arguments of a key provider or method body once it can be evaluated.

`Args` decodes a body against the names it may contain (anything else is HCL's
"Unsupported argument" with its line), evaluates each argument with the static evaluator
given to it and converts the result; an argument whose value is not known yet (a variable
`validate` has no value for) reads as None, so checks that need it are skipped.
`key_provider_ref` reads `keys = key_provider.T.N` / `chain = ...` references.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.configs.syntax import AttrSchema, BlockSchema, BodySchema, content
from engine.diags import Diagnostics, error
from engine.hcl import ast as A
from engine.hcl.ast import Attribute, Block, Body
from engine.source import Range
from engine.values import BOOL, NUMBER, STRING, Value
from engine.values.convert import ConversionError, convert
from engine.values.numbers import is_integer
from engine.values.types import ListType, MapType

Evaluate = Callable[[A.Expr], tuple[Value, Diagnostics]]


class Args:
    """The arguments of one body, decoded against a schema."""

    def __init__(self, body: Body, names: tuple[str, ...], evaluate: Evaluate,
                 diags: Diagnostics, blocks: tuple[str, ...] = (), required: tuple[str, ...] = (),
                 owner: Range | None = None) -> None:
        schema = BodySchema(tuple(AttrSchema(n, n in required) for n in names),
                            tuple(BlockSchema(b) for b in blocks))
        got, more = content(body, schema)
        if owner is not None:
            more = Diagnostics([d.with_subject(owner) for d in more])
        diags.extend(more)
        self.attrs: dict[str, Attribute] = got.attributes
        self.blocks: list[Block] = got.blocks
        self.evaluate = evaluate
        self.diags = diags

    def has(self, name: str) -> bool:
        return name in self.attrs

    def range(self, name: str) -> Range | None:
        a = self.attrs.get(name)
        return a.expr.range if a is not None else None

    def value(self, name: str, want: object) -> Value | None:
        """The argument converted to type `want`; None when absent, unknown or invalid (then
        a diagnostic says why)."""
        a = self.attrs.get(name)
        if a is None:
            return None
        val, more = self.evaluate(a.expr)
        self.diags.extend(more)
        if more.has_errors:
            return None
        val, _ = val.unmark_deep()  # sensitive variables are allowed here, as in OpenTofu
        if not val.is_wholly_known():
            return None
        try:
            out = convert(val, want)  # type: ignore[arg-type]
        except ConversionError as exc:
            self.diags.append(error("Incorrect attribute value type",
                                    f'Inappropriate value for attribute "{name}": {exc}.',
                                    a.expr.range))
            return None
        if out.is_null:
            return None
        return out

    def string(self, name: str) -> str | None:
        v = self.value(name, STRING)
        return None if v is None else str(v.v)

    def boolean(self, name: str) -> bool | None:
        v = self.value(name, BOOL)
        return None if v is None else bool(v.v)

    def integer(self, name: str) -> int | None:
        v = self.value(name, NUMBER)
        if v is None:
            return None
        if not is_integer(v.v):
            self.diags.append(error("Incorrect attribute value type",
                                    f'Inappropriate value for attribute "{name}": a whole '
                                    "number is required.", self.range(name)))
            return None
        return int(v.v)

    def strings(self, name: str) -> list[str] | None:
        v = self.value(name, ListType(STRING))
        if v is None:
            return None
        return [str(e.v) for e in v.elements()]

    def string_map(self, name: str) -> dict[str, str] | None:
        v = self.value(name, MapType(STRING))
        if v is None:
            return None
        return {k: str(e.v) for k, e in v.v.items()}

    def byte_list(self, name: str) -> bytes | None:
        v = self.value(name, ListType(NUMBER))
        if v is None:
            return None
        out = []
        for e in v.elements():
            if not is_integer(e.v) or not 0 <= int(e.v) <= 255:
                self.diags.append(error("Incorrect attribute value type",
                                        f'Inappropriate value for attribute "{name}": a list '
                                        "of byte values (0-255) is required.", self.range(name)))
                return None
            out.append(int(e.v))
        return bytes(out)


def key_provider_ref(
    args: Args, name: str
) -> tuple[tuple[str, str] | None, Range | None]:
    """The (type, name) of the key provider argument `name` refers to: a reference
    `key_provider.T.N`, or an expression whose value is such a string (OpenTofu allows
    choosing the provider with a variable). None (with a diagnostic) when it is neither;
    None without one when it is not known yet."""
    a = args.attrs.get(name)
    if a is None:
        return None, None
    rng = a.expr.range
    trav = _traversal(a.expr)
    if trav is not None and trav[0] == "key_provider":
        if len(trav) == 3:
            return (trav[1], trav[2]), rng
        args.diags.append(error(
            "Invalid Key Provider expression format",
            "The key_provider symbol must be followed by two more attribute names specifying "
            "the type and name of the selected key provider.", rng))
        return None, rng
    val, more = args.evaluate(a.expr)
    args.diags.extend(more)
    if more.has_errors:
        return None, rng
    val, _ = val.unmark_deep()
    if not val.is_known:
        return None, rng
    if isinstance(val.v, str) and val.v.startswith("key_provider."):
        parts = val.v.split(".")
        if len(parts) == 3 and all(parts):
            return (parts[1], parts[2]), rng
    args.diags.append(error(
        "Expected key_provider value",
        f'The "{name}" argument must refer to a key provider, as key_provider.TYPE.NAME.', rng))
    return None, rng


def _traversal(expr: A.Expr) -> list[str] | None:
    """`a.b.c` as its names (also `"${a.b.c}"`, and in JSON files the string "a.b.c", as
    hcl.AbsTraversalForExpr reads it); None for any other expression."""
    if isinstance(expr, A.TemplateWrapExpr):
        return _traversal(expr.wrapped)
    literal = expr
    if isinstance(expr, A.TemplateExpr) and len(expr.parts) == 1:
        literal = expr.parts[0]
    if isinstance(literal, A.LiteralValueExpr) and isinstance(literal.value.v, str) \
            and expr.range.filename.endswith(".json"):
        parts = literal.value.v.split(".")
        return parts if all(parts) else None
    if not isinstance(expr, A.ScopeTraversalExpr):
        return None
    names: list[str] = []
    for step in expr.traversal:
        if isinstance(step, A.TraverseRoot | A.TraverseAttr):
            names.append(step.name)
        else:
            return None
    return names


def method_ref(expr: A.Expr) -> list[str] | None:
    """The names of a target's `method = method.T.N` traversal (None if not a traversal)."""
    return _traversal(expr)
