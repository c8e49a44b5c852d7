"""Expanding a resource's `count` / `for_each` in one module instance.

`expand_resource(scope, res)` gives the repetition mode ("" single, "count", "for_each"),
the instances as (key, extra roots: `count` or `each`), and terraform's diagnostics for values
it cannot use — including unknown values ("Invalid count argument", "Invalid for_each
argument" with terraform's advice), sensitive ones, nulls and wrong types.
"""

from __future__ import annotations

from typing import Any

from engine.core.conditions import expression_values
from engine.core.scope import ModuleScope
from engine.diags import Diagnostic, Diagnostics, error
from engine.values import NUMBER, STRING, Value, number, object_, string
from engine.values.convert import ConversionError, convert
from engine.values.types import MapType, ObjectType, SetType

Instance = tuple[int | str | None, dict[str, Value]]

UNKNOWN_COUNT = (
    'The "count" value depends on resource attributes that cannot be determined until apply, '
    "so groundplan cannot predict how many instances will be created. To work around this, use "
    "the -target argument to first apply only the resources that the count depends on."
)
_TARGET_ADVICE = (
    "\n\nAlternatively, you could use the -target planning option to first apply only the "
    "resources that the for_each value depends on, and then apply a second time to fully "
    "converge."
)
UNKNOWN_SET = (
    'The "for_each" set includes values derived from resource attributes that cannot be '
    "determined until apply, and so groundplan cannot determine the full set of keys that will "
    "identify the instances of this resource.\n\nWhen working with unknown values in for_each, "
    "it's better to use a map value where the keys are defined statically in your "
    "configuration and where only the values contain apply-time results." + _TARGET_ADVICE
)
UNKNOWN_MAP = (
    'The "for_each" map includes keys derived from resource attributes that cannot be '
    "determined until apply, and so groundplan cannot determine the full set of keys that will "
    "identify the instances of this resource.\n\nWhen working with unknown values in for_each, "
    "it's better to define the map keys statically in your configuration and place apply-time "
    "results only in the map values." + _TARGET_ADVICE
)


def _err(scope: ModuleScope, summary: str, detail: str, expr: Any) -> Diagnostic:
    d = error(summary, detail, expr.range)
    vals = expression_values(expr, scope.evaluate)
    if vals:
        from dataclasses import replace

        d = replace(d, values=vals)
    return d


def expand_resource(scope: ModuleScope, res: Any) -> tuple[str, list[Instance], Diagnostics]:
    """The instances of resource `res` in `scope`'s module instance."""
    diags = Diagnostics()
    if res.count is not None:
        val, more = scope.evaluate(res.count)
        diags.extend(more)
        if more.has_errors:
            return "count", [], diags
        plain, marks = val.unmark_deep()
        problem = ""
        if marks:
            problem = ("The given \"count\" is marked as sensitive, so it cannot be used to "
                       "determine the number of instances.")
        elif plain.is_null:
            problem = 'The given "count" argument value is null. An integer is required.'
        elif not plain.is_known:
            problem = UNKNOWN_COUNT
        else:
            try:
                conv = convert(plain, NUMBER)
                if not isinstance(conv.v, int) or not -(2**63) <= conv.v < 2**63:
                    raise ConversionError("value must be a whole number, between "
                                          "-9223372036854775808 and 9223372036854775807")
                if conv.v < 0:
                    problem = ('The given "count" argument value is unsuitable: must be '
                               "greater than or equal to zero.")
                n = conv.v
            except ConversionError as exc:
                problem = f'The given "count" argument value is unsuitable: {exc.message}.'
        if problem:
            diags.append(_err(scope, "Invalid count argument", problem, res.count))
            return "count", [], diags
        return "count", [(i, {"count": object_({"index": number(i)})}) for i in range(n)], diags
    if res.for_each is not None:
        return _for_each(scope, res.for_each, diags)
    return "", [(None, {})], diags


def _for_each(scope: ModuleScope, expr: Any, diags: Diagnostics
              ) -> tuple[str, list[Instance], Diagnostics]:
    val, more = scope.evaluate(expr)
    diags.extend(more)
    if more.has_errors:
        return "for_each", [], diags
    # Only a mark on the collection itself is refused (terraform's marks.Has): a map whose
    # values are sensitive expands, and each.value keeps those marks.
    plain, marks = val.unmark()
    t = plain.type
    if marks:
        diags.append(_err(scope, "Invalid for_each argument",
                          "Sensitive values, or values derived from sensitive values, cannot "
                          "be used as for_each arguments. If used, the sensitive value could "
                          "be exposed as a resource instance key.", expr))
        return "for_each", [], diags
    if plain.is_null:
        diags.append(_err(scope, "Invalid for_each argument",
                          'The given "for_each" argument value is unsuitable: the given '
                          '"for_each" argument value is null. A map, or set of strings is '
                          "allowed.", expr))
        return "for_each", [], diags
    if not plain.is_known:
        detail = UNKNOWN_SET if isinstance(t, SetType) else UNKNOWN_MAP
        diags.append(_err(scope, "Invalid for_each argument", detail, expr))
        return "for_each", [], diags
    if not isinstance(t, (MapType, ObjectType, SetType)):
        diags.append(_err(scope, "Invalid for_each argument",
                          'The given "for_each" argument value is unsuitable: the "for_each" '
                          "argument must be a map, or set of strings, and you have provided a "
                          f"value of type {t.friendly_name()}.", expr))
        return "for_each", [], diags
    out: list[Instance] = []
    if isinstance(t, SetType):
        if t.element != STRING:
            diags.append(_err(scope, "Invalid for_each set argument",
                              'The given "for_each" argument value is unsuitable: "for_each" '
                              "supports sets of strings, but you have provided a set "
                              f"containing type {t.element.friendly_name()}.", expr))
            return "for_each", [], diags
        if not plain.is_wholly_known():
            diags.append(_err(scope, "Invalid for_each argument", UNKNOWN_SET, expr))
            return "for_each", [], diags
        for e in plain.v:
            if e.is_null:
                diags.append(_err(scope, "Invalid for_each set argument",
                                  'The given "for_each" argument value is unsuitable: '
                                  '"for_each" sets must not contain null values.', expr))
                return "for_each", [], diags
            key = str(e.v)
            out.append((key, {"each": object_({"key": string(key), "value": string(key)})}))
        return "for_each", out, diags
    for key, e in plain.v.items():
        out.append((key, {"each": object_({"key": string(key), "value": e})}))
    return "for_each", out, diags
