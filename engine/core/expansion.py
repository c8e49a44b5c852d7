"""`count` and `for_each` on module calls: which instances a call has, and the `count` /
`each` objects each instance's arguments are evaluated with.

`expand(scope, call)` gives (mode, instances) where mode is "" (a single instance), "count"
or "for_each", and each instance is (key, extra roots): key is None, an int or a string.
The messages are Terraform's for counts and for_each values it cannot use.
"""

from __future__ import annotations

from typing import Any

from engine.core.scope import ModuleScope
from engine.diags import Diagnostics, error
from engine.values import NUMBER, STRING, Value, number, object_, string
from engine.values.convert import ConversionError, convert
from engine.values.types import MapType, ObjectType, SetType

Instance = tuple[int | str | None, dict[str, Value]]


def expand(scope: ModuleScope, call: Any) -> tuple[str, list[Instance], Diagnostics]:
    """The instances of module call `call` evaluated in the parent `scope`."""
    diags = Diagnostics()
    if call.count is not None:
        val, more = scope.evaluate(call.count)
        diags.extend(more)
        if more.has_errors:
            return "count", [], diags
        plain, _ = val.unmark_deep()
        problem = ""
        n = 0
        if plain.is_null:
            problem = "The given \"count\" argument value is null. An integer is required."
        elif not plain.is_known:
            problem = (
                'The "count" value depends on resource attributes that cannot be determined '
                "until apply, so groundplan cannot predict how many instances will be created."
            )
        else:
            try:
                conv = convert(plain, NUMBER)
                if not isinstance(conv.v, int) or not -(2**63) <= conv.v < 2**63:
                    raise ConversionError("value must be a whole number, between "
                                          "-9223372036854775808 and 9223372036854775807")
                n = conv.v
                if n < 0:
                    problem = (
                        'The given "count" argument value is unsuitable: must be greater '
                        "than or equal to zero."
                    )
            except ConversionError as exc:
                problem = f'The given "count" argument value is unsuitable: {exc.message}.'
        if problem:
            diags.append(error("Invalid count argument", problem, call.count.range))
            return "count", [], diags
        return "count", [(i, {"count": object_({"index": number(i)})}) for i in range(n)], diags
    if call.for_each is not None:
        val, more = scope.evaluate(call.for_each)
        diags.extend(more)
        if more.has_errors:
            return "for_each", [], diags
        plain, _ = val.unmark_deep()
        t = plain.type
        if plain.is_null or not plain.is_known or not isinstance(
            t, (MapType, ObjectType, SetType)
        ):
            diags.append(
                error(
                    "Invalid for_each argument",
                    'The given "for_each" argument value is unsuitable: the "for_each" '
                    "argument must be a map, or set of strings, and you have provided a value "
                    f"of type {t.friendly_name()}.",
                    call.for_each.range,
                )
            )
            return "for_each", [], diags
        out: list[Instance] = []
        if isinstance(t, SetType):
            if t.element != STRING:
                diags.append(
                    error(
                        "Invalid for_each set argument",
                        'The given "for_each" argument value is unsuitable: "for_each" '
                        "supports sets of strings, but you have provided a set containing "
                        f"type {t.element.friendly_name()}.",
                        call.for_each.range,
                    )
                )
                return "for_each", [], diags
            for e in plain.v:
                key = str(e.v)
                out.append((key, {"each": object_({"key": string(key), "value": string(key)})}))
        else:
            for key, e in plain.v.items():
                out.append((key, {"each": object_({"key": string(key), "value": e})}))
        return "for_each", out, diags
    return "", [(None, {})], diags
