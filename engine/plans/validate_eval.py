"""The expressions terraform's validate walk evaluates, for a configuration with resources.

terraform's `validate` evaluates every module once, statically (not per instance): input
variables are unknowns of their types, resources and module outputs are unknown, `count.index`
/ `each.key` / `each.value` / `self` are unknown. In that world it still reports what it can
know: errors in locals and outputs, and `count` / `for_each` values that are known and
unusable (negative, fractional, of the wrong type, null, a list for `for_each`, a set with a
null element or of non-strings, a sensitive `for_each`), on resources and on module calls.

- `module_scope(node, cwd)`: the validate-walk scope of one module of the tree.
- `validate_expressions(config, cwd)`: those diagnostics for every module.
- `argument_evaluator(scope)`: an evaluator for `engine.core.body.decode_body` that
  evaluates a resource's arguments in the scope with the unknown repetition roots, so
  type errors such as `each.value + "x"` are found as terraform finds them.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from engine.core.scope import ModuleScope
from engine.diags import Diagnostics, error
from engine.hcl.ast import Expr
from engine.values import (
    DYNAMIC,
    NUMBER,
    SENSITIVE,
    STRING,
    UNKNOWN_DYNAMIC,
    Value,
    object_,
    unknown,
)
from engine.values.convert import ConversionError, convert
from engine.values.types import MapType, ObjectType, SetType

# The unknown repetition roots a resource body sees in the validate walk.
_COUNT = {"count": object_({"index": unknown(NUMBER)})}
_EACH = {"each": object_({"key": unknown(STRING), "value": UNKNOWN_DYNAMIC})}

_INT64 = (-(2**63), 2**63 - 1)


def _unknown_resource(_mode: str, _type: str, _name: str) -> Value:
    return UNKNOWN_DYNAMIC


def _unknown_module(_name: str) -> tuple[Value, Diagnostics]:
    return UNKNOWN_DYNAMIC, Diagnostics()


def module_scope(node: Any, cwd: str) -> ModuleScope:
    """The scope of config node `node` as the validate walk sees it (see the docstring)."""
    inputs: dict[str, Value] = {}
    for name, var in node.module.variables.items():
        val = unknown(var.type)
        inputs[name] = val.mark(SENSITIVE) if var.sensitive else val
    root_dir = node.root.source_dir or "."
    rel = os.path.relpath(node.source_dir or ".", root_dir) if node.parent is not None else "."
    return ModuleScope(
        node.module,
        module_path=rel,
        root_path=".",
        cwd=cwd,
        input_values=inputs,
        module_outputs=_unknown_module,
        module_label=node.path_str or "the root module",
        plan_phase=True,
        resource_value=_unknown_resource,
    )


def repetition_roots(res: Any) -> dict[str, Value]:
    """`count` / `each` / `self` as unknowns for a resource (or provisioner) body; nothing
    for None (a provider block)."""
    if res is None:
        return {}
    roots: dict[str, Value] = {"self": UNKNOWN_DYNAMIC}
    if res.count is not None:
        roots.update(_COUNT)
    elif res.for_each is not None:
        roots.update(_EACH)
    return roots


def argument_evaluator(scope: ModuleScope, res: Any
                       ) -> Callable[[Expr, dict[str, Value]], tuple[Value, Diagnostics]]:
    """An evaluator of `res`'s arguments (and dynamic blocks) in `scope` (`res` None: a
    provider block's)."""
    base = repetition_roots(res)

    def evaluate_arg(expr: Expr, roots: dict[str, Value]) -> tuple[Value, Diagnostics]:
        return scope.evaluate(expr, {**base, **roots})

    return evaluate_arg


def check_count(scope: ModuleScope, expr: Expr) -> Diagnostics:
    """terraform's evaluateCountExpressionValue in the validate walk: unknown is fine."""
    val, diags = scope.evaluate(expr)
    if diags.has_errors:
        return diags
    plain, _ = val.unmark_deep()
    if plain.is_null:
        diags.append(error("Invalid count argument",
                           'The given "count" argument value is null. An integer is required.',
                           expr.range))
        return diags
    try:
        conv = convert(plain, NUMBER)
    except ConversionError as exc:
        diags.append(error("Incorrect value type", f"Invalid expression value: {exc.message}.",
                           expr.range))
        return diags
    if not conv.is_known:
        return diags
    n = conv.v
    if not isinstance(n, int) or not _INT64[0] <= n <= _INT64[1]:
        problem = (f"value must be a whole number, between {_INT64[0]} and {_INT64[1]}")
    elif n < 0:
        problem = "must be greater than or equal to zero"
    else:
        return diags
    diags.append(error("Invalid count argument",
                       f'The given "count" argument value is unsuitable: {problem}.',
                       expr.range))
    return diags


def check_for_each(scope: ModuleScope, expr: Expr, module_call: bool) -> Diagnostics:
    """terraform's ValidateResourceValue / ValidateModuleValue: unknowns are fine, known
    problems (and a wrong type, even of an unknown) are errors."""
    val, diags = scope.evaluate(expr)
    if diags.has_errors:
        return diags
    plain, marks = val.unmark()

    def fail(summary: str, detail: str) -> Diagnostics:
        diags.append(error(summary, detail, expr.range))
        return diags

    unsuitable = 'The given "for_each" argument value is unsuitable: '
    if marks and not module_call:
        return fail("Invalid for_each argument",
                    "Sensitive values, or values derived from sensitive values, cannot be used "
                    "as for_each arguments. If used, the sensitive value could be exposed as a "
                    "resource instance key.")
    if plain.is_null:
        return fail("Invalid for_each argument",
                    unsuitable + 'the given "for_each" argument value is null. A map, or set '
                    "of strings is allowed.")
    t = plain.type
    if t == DYNAMIC:
        return diags
    if not isinstance(t, (MapType, ObjectType, SetType)):
        return fail("Invalid for_each argument",
                    unsuitable + 'the "for_each" argument must be a map, or set of strings, and '
                    f"you have provided a value of type {t.friendly_name()}.")
    if not plain.is_known or not isinstance(t, SetType):
        return diags
    if t.element != STRING:
        return fail("Invalid for_each set argument",
                    unsuitable + '"for_each" supports maps and sets of strings, but you have '
                    f"provided a set containing type {t.element.friendly_name()}.")
    for e in plain.v:
        if e.is_known and e.is_null:
            return fail("Invalid for_each set argument",
                        unsuitable + '"for_each" sets must not contain null values.')
    return diags


def validate_expressions(config: Any, cwd: str
                         ) -> tuple[Diagnostics, frozenset[tuple[str, ...]]]:
    """See the module docstring: every module's locals, outputs, and the `count` /
    `for_each` of its resources and module calls; and the paths of the module calls whose
    `count` / `for_each` failed (terraform validates nothing below them)."""
    diags = Diagnostics()
    failed: set[tuple[str, ...]] = set()
    for node in config.walk():
        if any(node.path[: len(p)] == p for p in failed):
            continue
        scope = module_scope(node, cwd)
        mod = node.module
        for name in sorted(mod.locals):
            scope.local_value(name, diags)
        for name in sorted(mod.outputs):
            out = mod.outputs[name]
            if out.expr is not None:
                _, more = scope.evaluate(out.expr)
                diags.extend(more)
        for res in mod.all_resources():
            if res.count is not None:
                diags.extend(check_count(scope, res.count))
            elif res.for_each is not None:
                diags.extend(check_for_each(scope, res.for_each, module_call=False))
        for name in sorted(mod.module_calls):
            call = mod.module_calls[name]
            if call.count is not None:
                more = check_count(scope, call.count)
            elif call.for_each is not None:
                more = check_for_each(scope, call.for_each, module_call=True)
            else:
                continue
            diags.extend(more)
            if more.has_errors:
                failed.add((*node.path, name))
    return diags, frozenset(failed)
