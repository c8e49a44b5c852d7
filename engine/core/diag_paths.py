"""Placing a provider's diagnostics in the configuration they are about.

Terraform's `tfdiags.InConfigBody(body, address)`: a provider reports problems about an object
it was given, not about source text, so the core gives each of them

- the `address` of the resource instance (or provider configuration) it concerns, unless the
  diagnostic already names one, and
- a `subject` found from the diagnostic's attribute path (an `AttributeDiagnostic`), as
  `attributeDiagnostic.ElaborateFromConfigBody` finds it:

  * the path is walked through nested blocks of the body by name (with a number index to
    pick the n-th block of that type, or a string index to pick the block labelled with that
    key); `dynamic` blocks are not looked into, as terraform does not;
  * the last attribute step names an argument: its expression's range; when the path ends in
    an index into that argument, the range of that element of a literal list (`[...]`) or the
    start of that key's value in a literal object (`{...}`), the whole expression when it is
    not such a literal, and the argument's name when the element is not there;
  * anything else (a path that starts with an index, nested attributes inside an object value,
    a missing argument): the opening brace of the deepest body reached (for JSON bodies, the
    closing brace), which is also where a diagnostic without a path points.

Diagnostics that already have a subject are left where they are. A provider served as a plugin
has every diagnostic placed (terraform's gRPC client makes each one contextual); the in-process
built-in `terraform` provider's diagnostics without an attribute path are sourceless, as its
Go errors are in terraform: call with `whole_body=False` for it, and they are left untouched.
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.diags import Diagnostic
from engine.hcl import ast as A
from engine.lang.eval_diag import start_range
from engine.plugin.paths import AttributePath, AttrStep, IndexStep, PathStep
from engine.plugin.protocol import AttributeDiagnostic
from engine.source import Range
from engine.values import NUMBER, STRING, Value


def in_config_body(
    diags: Iterable[Diagnostic], body: A.Body | None, address: str | None,
    whole_body: bool = True,
) -> list[Diagnostic]:
    """`diags` (as a provider returned them) placed in `body` and tagged with `address`;
    with `whole_body` False, those without an attribute path are kept as they are."""
    return [elaborate(d, body, address) if whole_body or isinstance(d, AttributeDiagnostic)
            else d for d in diags]


def elaborate(diag: Diagnostic, body: A.Body | None, address: str | None) -> Diagnostic:
    """One diagnostic placed in `body` (see the module docstring)."""
    subject = diag.subject
    if subject is None and body is not None:
        path = diag.attribute_path if isinstance(diag, AttributeDiagnostic) else None
        subject = path_range(body, path) if path is not None else missing_item_range(body)
    return diag.located(subject, diag.address or address)


def missing_item_range(body: A.Body) -> Range:
    """HCL's `Body.MissingItemRange()`: the body's opening brace (closing brace in JSON)."""
    rng = body.range
    if rng.file.filename.endswith(".json"):
        end = rng.end_offset
        return Range(rng.file, max(end - 1, rng.start_offset), end)
    start = rng.start_offset
    return Range(rng.file, start, min(start + 1, rng.end_offset))


def path_range(body: A.Body, path: AttributePath) -> Range:
    """The range in `body` that the attribute `path` points at."""
    steps = path.steps
    if not steps or isinstance(steps[0], IndexStep):
        return missing_item_range(body)
    final: PathStep = steps[-1]
    traverse = steps
    index: IndexStep | None = None
    if isinstance(final, IndexStep):
        index = final
        final = steps[-2]
        traverse = steps[:-1]
    if len(traverse) > 1:
        body = _traverse(body, traverse)
    if not isinstance(final, AttrStep):
        return missing_item_range(body)
    attr = body.attributes.get(final.name)
    if attr is None:
        return missing_item_range(body)
    if index is None:
        return attr.expr.range
    return _index_range(attr, index.key)


def _traverse(body: A.Body, steps: tuple[PathStep, ...]) -> A.Body:
    """The deepest nested block body `steps` lead to (terraform's traversePathSteps)."""
    i = 0
    while i < len(steps):
        step = steps[i]
        if not isinstance(step, AttrStep):
            return body
        key: Value | None = None
        if i + 1 < len(steps):
            nxt = steps[i + 1]
            if isinstance(nxt, IndexStep):
                key = nxt.key
                i += 1
        i += 1
        if step.name in body.attributes:
            # an argument where a block was looked for: HCL reports it, the walk stops
            return body
        blocks = [b for b in body.blocks if b.type == step.name]
        if not blocks:
            continue  # the step is not a block: the same body serves the next step
        by_key = key is not None and key.type == STRING
        if any(len(b.labels) != (1 if by_key else 0) for b in blocks):
            return body
        if key is None:
            if len(blocks) != 1:
                return body
            body = blocks[0].body
        elif key.type == NUMBER:
            n = _int_of(key)
            if n is None or n < 0 or n >= len(blocks):
                return body
            body = blocks[n].body
        elif by_key:
            found = next((b for b in blocks if b.labels[0] == key.v), None)
            if found is None:
                return body
            body = found.body
        else:
            return body
    return body


def _int_of(key: Value) -> int | None:
    if not key.is_known or key.is_null:
        return None
    v = key.v
    try:
        n = int(v)
    except (TypeError, ValueError):
        return None
    return n if n == v else None


def _index_range(attr: A.Attribute, key: Value) -> Range:
    """terraform's hclRangeFromIndexStepAndAttribute."""
    expr = attr.expr
    if key.type == NUMBER:
        if not isinstance(expr, A.TupleConsExpr):
            return expr.range
        n = _int_of(key)
        if n is None or n < 0 or n >= len(expr.exprs):
            return attr.name_range
        return expr.exprs[n].range
    if key.type == STRING:
        if not isinstance(expr, A.ObjectConsExpr):
            return expr.range
        for item in expr.items:
            name = _static_key(item.key)
            if name is None:
                return expr.range
            if name == key.v:
                return start_range(item.value)
        return attr.name_range
    return expr.range


def _static_key(key: A.ObjectConsKeyExpr) -> str | None:
    """An object key's value when it needs no evaluation context (else None)."""
    name = key.as_literal_name()
    if name is not None:
        return name
    w = key.wrapped
    while isinstance(w, A.ParenthesesExpr):
        w = w.wrapped
    if isinstance(w, A.TemplateExpr) and all(isinstance(p, A.LiteralValueExpr) for p in w.parts):
        return "".join(_literal_text(p) for p in w.parts)
    if isinstance(w, A.LiteralValueExpr):
        return _literal_text(w)
    return None


def _literal_text(e: A.Expr) -> str:
    assert isinstance(e, A.LiteralValueExpr)
    v = e.value
    if isinstance(v, Value):
        return str(v.v)
    return str(v)
