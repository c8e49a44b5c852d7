"""Built-in collection functions (Terraform 1.11), gathered from the topic modules:
sequences (collections_seq), maps and objects (collections_map), sets (collections_set); plus
the removed `list` and `map` functions, which fail with Terraform's message."""

from __future__ import annotations

from collections.abc import Sequence

from engine.lang.functions import collections_map, collections_seq, collections_set
from engine.lang.functions.base import Function, FunctionError, Param, refine_results
from engine.values import DYNAMIC, Type, Value


def _removed(name: str, syntax: str) -> Function:
    message = (
        f'the "{name}" function was deprecated in Terraform v0.12 and is no longer available; '
        f"use {syntax} syntax to write a literal {name}"
    )

    def fail_type(args: Sequence[Value]) -> Type:
        raise FunctionError(message)

    def fail_impl(args: Sequence[Value], ret: Type) -> Value:
        raise FunctionError(message)

    return Function(
        name=name,
        params=(),
        impl=fail_impl,
        return_type=fail_type,
        var_param=Param("vals", DYNAMIC, allow_unknown=True, allow_dynamic=True, allow_null=True),
        description=f"Removed in Terraform v0.12; use {syntax}.",
    )


FUNCTIONS: list[Function] = [
    # an unknown result is not null, except where it is an element of the argument, as
    # terraform 1.11 refines them
    *refine_results(
        [*collections_seq.FUNCTIONS, *collections_map.FUNCTIONS, *collections_set.FUNCTIONS],
        unrefined=("element", "one", "lookup", "merge", "zipmap"),
    ),
    _removed("list", "tolist([ ... ])"),
    _removed("map", "tomap({ ... })"),
]
