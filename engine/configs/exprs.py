"""Static readings of expressions, as HCL's helper functions give them.

- `expr_as_keyword`: a bare identifier (`all`, `destroy`) or None (hcl.ExprAsKeyword).
- `expr_list`: the elements of a static list `[a, b]` (hcl.ExprList).
- `abs_traversal`: a single static reference (hcl.AbsTraversalForExpr),
  accepting, as Terraform's `shimTraversalInString` does, a reference written as a string in
  JSON files.
- `static_value`: the value of an expression evaluated without variables or functions, with
  HCL's "Variables not allowed" / "Function calls not allowed" messages.
- `decode_string` / `decode_bool`: gohcl.DecodeExpression into a Go string or bool.
"""

from __future__ import annotations

import functools
from typing import Any

from engine.diags import Diagnostics, error, warning
from engine.hcl import ast
from engine.hcl.ast import Traversal, TraverseRoot
from engine.source import Range
from engine.values import BOOL, STRING, Type, Value

_STATIC_REF_DETAIL = (
    "A single static variable reference is required: only attribute access and indexing with "
    "constant keys. No calculations, function calls, template expressions, etc are allowed here."
)


def unwrap(expr: ast.Expr) -> ast.Expr:
    """The expression without surrounding parentheses."""
    while isinstance(expr, ast.ParenthesesExpr):
        expr = expr.wrapped
    return expr


def literal_string(expr: ast.Expr) -> str | None:
    """The string, if `expr` is a quoted string without interpolation."""
    expr = unwrap(expr)
    if isinstance(expr, ast.TemplateExpr) and expr.is_string_literal:
        if not expr.parts:
            return ""
        part = expr.parts[0]
        assert isinstance(part, ast.LiteralValueExpr)
        return str(getattr(part.value, "v", part.value))
    if isinstance(expr, ast.LiteralValueExpr):
        v = getattr(expr.value, "v", None)
        t = getattr(expr.value, "type", None)
        if isinstance(v, str) and t == STRING:
            return v
    return None


def is_native_quoted_string(expr: ast.Expr) -> bool:
    """A native-syntax quoted string literal (`"x"`), as Terraform's exprIsNativeQuotedString."""
    return isinstance(expr, ast.TemplateExpr) and expr.is_string_literal and not _in_json(expr)


def _in_json(expr: ast.Expr) -> bool:
    return expr.range.file.filename.endswith(".json")


def expr_as_keyword(expr: ast.Expr) -> str | None:
    """The identifier a bare single-name reference spells, else None."""
    if isinstance(expr, ast.ScopeTraversalExpr) and len(expr.traversal) == 1:
        return expr.traversal[0].name  # type: ignore[union-attr]
    if _in_json(expr):
        # HCL's JSON expressions read a string as the traversal it spells (`"refresh-only"`)
        s = literal_string(expr)
        if s is not None and valid_identifier(s):
            return s
    return None


def expr_list(expr: ast.Expr) -> tuple[list[ast.Expr], Diagnostics]:
    """The element expressions of a static list expression."""
    diags = Diagnostics()
    inner = unwrap(expr)
    if isinstance(inner, ast.TupleConsExpr):
        return list(inner.exprs), diags
    items = getattr(inner, "exprs", None)  # JSON arrays
    if isinstance(items, list):
        return items, diags
    diags.append(error("Invalid expression", "A static list expression is required.", start_range(expr)))
    return [], diags


_QUOTED_REF_DETAIL = (
    "In this context, references are expected literally rather than in quotes. Terraform 0.11 "
    "and earlier required quotes, but quoted references are now deprecated and will be removed "
    "in a future version of Terraform. Remove the quotes surrounding this reference to silence "
    "this warning."
)


_QUOTED_KEYWORD_DETAIL = (
    "In this context, keywords are expected literally rather than in quotes. Terraform 0.11 and "
    "earlier required quotes, but quoted keywords are now deprecated and will be removed in a "
    "future version of Terraform. Remove the quotes surrounding this keyword to silence this "
    "warning."
)
_KEYWORDS = ("null", "true", "false")


def _as_traversal(parsed: ast.Expr, whole: Range) -> ast.Expr:
    """A parsed reference as HCL's ParseTraversalAbs reads it: `null`, `true` and `false` are
    plain root names there (`"null.foo"` is the provider `null`, alias `foo`), and the
    expression's range is the whole quoted string."""
    if isinstance(parsed, ast.LiteralValueExpr) and parsed.range.text() in _KEYWORDS:
        return ast.ScopeTraversalExpr((ast.TraverseRoot(parsed.range.text(), parsed.range),), whole)
    if (
        isinstance(parsed, ast.RelativeTraversalExpr)
        and isinstance(parsed.source, ast.LiteralValueExpr)
        and parsed.source.range.text() in _KEYWORDS
    ):
        root = ast.TraverseRoot(parsed.source.range.text(), parsed.source.range)
        return ast.ScopeTraversalExpr((root, *parsed.traversal), whole)
    if isinstance(parsed, ast.ScopeTraversalExpr):
        return ast.ScopeTraversalExpr(parsed.traversal, whole)
    return parsed


def shim_traversal_in_string(expr: ast.Expr, want_keyword: bool, diags: Diagnostics) -> ast.Expr:
    """Terraform's shimTraversalInString: a reference (or keyword) given as a native quoted
    string is read as one, with a deprecation warning; in JSON a string is read as the
    reference it holds, silently. Anything else is returned unchanged."""
    if _in_json(expr):
        return json_string_as_expr(expr, diags)
    if not is_native_quoted_string(expr):
        return expr
    parsed = _as_traversal(json_string_as_expr(expr, diags), expr.range)
    if want_keyword:
        diags.append(warning("Quoted keywords are deprecated", _QUOTED_KEYWORD_DETAIL, expr.range))
    else:
        diags.append(warning("Quoted references are deprecated", _QUOTED_REF_DETAIL, expr.range))
    return parsed


def _shim_string(expr: ast.Expr, diags: Diagnostics) -> ast.Expr:
    return shim_traversal_in_string(expr, False, diags)


def _json_raw_string(expr: ast.Expr) -> str | None:
    """A JSON string's decoded text, its template sequences uninterpreted (what HCL's JSON
    expressions return when evaluated with no context)."""
    from engine.hcl.json_syntax import decode_string

    return decode_string(expr.range.file.text[expr.range.start_offset:expr.range.end_offset])


def unwrap_json_ref_expr(expr: ast.Expr) -> tuple[ast.Expr | None, Diagnostics]:
    """Terraform's unwrapJSONRefExpr: in JSON syntax, the reference a string holds parsed as
    a native expression (any other JSON value is an error); native expressions unchanged."""
    diags = Diagnostics()
    if not _in_json(expr):
        return expr, diags
    if literal_string(expr) is None and not (
        isinstance(expr, (ast.TemplateExpr, ast.TemplateWrapExpr)) and _json_raw_string(expr) is not None
    ):
        diags.append(
            error("Invalid reference expression", "A single reference string is required.", expr.range)
        )
        return None, diags
    return json_string_as_expr(expr, diags), diags


def json_string_as_expr(expr: ast.Expr, diags: Diagnostics) -> ast.Expr:
    """A string literal's content parsed as a native expression (Terraform reads references
    and type constraints this way in `.tf.json`, and quoted legacy references in `.tf`).

    Positions in the result point into the original file, where Terraform puts them: from the
    opening quote for JSON, from just after it for native syntax."""
    s = literal_string(expr)
    if s is None and _in_json(expr) and isinstance(expr, (ast.TemplateExpr, ast.TemplateWrapExpr)):
        s = _json_raw_string(expr)
    if s is None:
        return expr
    from engine.hcl import parse_expression
    from engine.hcl.context import alias_file

    outer = expr.range.file
    at = expr.range.start_offset + (0 if _in_json(expr) else 1)
    # Blank out everything before the string (keeping line breaks) so that offsets, lines
    # and columns of the parsed nodes are those of the original file, then let the nodes'
    # source be the original file's text.
    pad = "".join("\n" if c == "\n" else " " for c in outer.text[:at])
    parsed, pdiags = parse_expression(pad + s, outer.filename)
    src = parsed.range.file
    src.text = outer.text
    src._line_starts = None
    src._ascii = None
    alias_file(src, outer)
    diags.extend(pdiags)
    return parsed


def abs_traversal(expr: ast.Expr, shim: bool = True) -> tuple[Traversal | None, Diagnostics]:
    """A single static absolute reference (`aws_instance.a`, `module.m`), or an error. In
    JSON syntax a string holds the reference (HCL's AbsTraversalForExpr), shim or not."""
    diags = Diagnostics()
    if shim or _in_json(expr):
        expr = _shim_string(expr, diags)
    inner = unwrap(expr)
    if isinstance(inner, ast.ScopeTraversalExpr):
        return inner.traversal, diags
    diags.append(error("Invalid expression", _STATIC_REF_DETAIL, expr.range))
    return None, diags


# ------------------------------------------------------------------------- static evaluation
def _bound_names(expr: ast.Expr) -> set[str]:
    if isinstance(expr, (ast.ForExpr, ast.TemplateForExpr)):
        return {n for n in (expr.key_var, expr.value_var) if n}
    return set()


def children(expr: ast.Expr) -> list[ast.Expr]:
    """The direct sub-expressions of an expression node, in slot order."""
    slots = _CHILD_SLOTS.get(type(expr))
    if slots is None:
        slots = _child_slots(type(expr))
    out: list[ast.Expr] = []
    if not slots:
        return out
    for slot in slots:
        v = getattr(expr, slot, None)
        if isinstance(v, ast.Expr):
            out.append(v)
        elif isinstance(v, list):
            for item in v:
                if isinstance(item, ast.Expr):
                    out.append(item)
                elif isinstance(item, ast.ObjectConsItem):
                    out.append(item.key)
                    out.append(item.value)
    return out


# Slots of the node classes that by their declared types never hold an expression or a list
# of them (ranges, names, operators, flags, a literal's Value, a traversal tuple): skipping
# them changes nothing in `children`, it only saves looking at them.
_NOT_CHILD_SLOTS = frozenset(
    {
        "value", "traversal", "name", "op", "key_var", "value_var", "expand_final", "legacy",
        "group", "force_non_literal",
    }
)
_CHILD_SLOTS: dict[type, tuple[str, ...]] = {}


def _child_slots(cls: type) -> tuple[str, ...]:
    names: list[str] = []
    for k in reversed(cls.__mro__):
        s = k.__dict__.get("__slots__", ())
        names.extend([s] if isinstance(s, str) else s)
    got = tuple(
        n for n in dict.fromkeys(names) if not n.endswith("range") and n not in _NOT_CHILD_SLOTS
    )
    _CHILD_SLOTS[cls] = got
    return got


def _static_problems(expr: ast.Expr, bound: frozenset[str], diags: Diagnostics) -> None:
    if isinstance(expr, ast.ScopeTraversalExpr):
        root = expr.traversal[0]
        assert isinstance(root, TraverseRoot)
        if root.name not in bound:
            diags.append(error("Variables not allowed", "Variables may not be used here.", root.range))
        return
    if isinstance(expr, ast.FunctionCallExpr):
        diags.append(error("Function calls not allowed", "Functions may not be called here.", expr.range))
        return
    if isinstance(expr, ast.ObjectConsKeyExpr) and expr.as_literal_name() is not None:
        return
    inner = bound | _bound_names(expr)
    for child in children(expr):
        _static_problems(child, inner, diags)


def static_value(expr: ast.Expr) -> tuple[Value | None, Diagnostics]:
    """The expression's value with no variables and no functions in scope (None on error)."""
    diags = Diagnostics()
    _static_problems(expr, frozenset(), diags)
    if diags.has_errors:
        return None, diags
    from engine.lang import EvalContext, evaluate

    val, vdiags = evaluate(expr, EvalContext(variables={}, functions={}))
    diags.extend(vdiags)
    if vdiags.has_errors:
        return None, diags
    return val, diags


def _convert(val: Value, ty: Type) -> tuple[Value | None, str | None]:
    from engine.values.convert import ConversionError, convert

    try:
        return convert(val, ty), None
    except ConversionError as exc:
        return None, str(exc)


_NOT_STATIC = ("Variables not allowed", "Function calls not allowed")


def start_range(expr: ast.Expr) -> Range:
    """HCL's StartRange: the first part of an expression (the text inside a quoted string, a
    function's name and opening parenthesis)."""
    from engine.lang.eval_diag import start_range as hcl_start_range

    return hcl_start_range(expr)


def _decode(expr: ast.Expr, ty: Type) -> tuple[Any, Diagnostics]:
    val, diags = static_value(expr)
    if val is None:
        if any(d.summary in _NOT_STATIC for d in diags):
            # the expression's value is unknown here, which gohcl then cannot decode
            diags.append(
                error(
                    "Unsuitable value type",
                    "Unsuitable value: value must be known",
                    start_range(expr),
                    expr.range,
                )
            )
        return None, diags
    conv, msg = _convert(val.unmark()[0], ty)
    if conv is not None and conv.is_null:
        msg = "null value is not allowed"
    if conv is None or conv.is_null:
        diags.append(
            error("Unsuitable value type", f"Unsuitable value: {msg}", start_range(expr), expr.range)
        )
        return None, diags
    return conv.v, diags


def decode_string(attr: ast.Attribute) -> tuple[str | None, Diagnostics]:
    """A static string argument (`description = "..."`)."""
    v, diags = _decode(attr.expr, STRING)
    return (v if isinstance(v, str) else None), diags


def decode_bool(attr: ast.Attribute) -> tuple[bool | None, Diagnostics]:
    """A static bool argument (`sensitive = true`)."""
    v, diags = _decode(attr.expr, BOOL)
    return (v if isinstance(v, bool) else None), diags


def valid_identifier(name: str) -> bool:
    """hclsyntax.ValidIdentifier: a letter or underscore, then letters, digits, `_` and `-`."""
    if not name:
        return False
    first = name[0]
    if not (first.isalpha() or first == "_"):
        return False
    return all(c.isalnum() or c in "_-" for c in name[1:])


def variables(expr: ast.Expr, bound: frozenset[str] = frozenset()) -> list[Traversal]:
    """Every absolute traversal in an expression, in source order, as hcl's `Variables()`:
    names bound by a for-expression inside it, or listed in `bound` (a `dynamic` block's
    iterator), are not included; splat/relative sources are walked."""
    return list(_variables(expr, bound))


@functools.lru_cache(maxsize=16384)
def _variables(expr: ast.Expr, bound: frozenset[str]) -> tuple[Traversal, ...]:
    # by identity: a parsed expression is never changed, and each instance of a resource
    # evaluates the same expressions again
    out: list[Traversal] = []
    _collect_vars(expr, bound, out)
    return tuple(out)


def _collect_vars(expr: ast.Expr, bound: frozenset[str], out: list[Traversal]) -> None:
    if isinstance(expr, ast.ScopeTraversalExpr):
        if expr.traversal[0].name not in bound:  # type: ignore[union-attr]
            out.append(expr.traversal)
        return
    if isinstance(expr, ast.LiteralValueExpr):  # a leaf
        return
    if isinstance(expr, ast.ObjectConsKeyExpr) and expr.as_literal_name() is not None:
        return
    if isinstance(expr, (ast.ForExpr, ast.TemplateForExpr)):
        inner = bound | _bound_names(expr)
        _collect_vars(expr.collection, bound, out)
        for child in children(expr):
            if child is not expr.collection:
                _collect_vars(child, inner, out)
        return
    for child in children(expr):
        _collect_vars(child, bound, out)
