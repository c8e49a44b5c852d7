"""The value operations the evaluator needs, from `engine.values`, under one roof.

`convert` is cty's convert.Convert; `ConversionFailed` is the values package's ConversionError
(its `message` is cty's text without the path, as HCL prints `err.Error()` of a PathError);
`unify` is cty's convert.UnifyUnsafe (what HCL uses for conditionals); `equals` is cty's
Value.Equals with marks carried over.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.values import DYNAMIC, Type, Value
from engine.values.compare import equals as _equals
from engine.values.convert import ConversionError as ConversionFailed
from engine.values.convert import convert as _convert
from engine.values.unify import unify_unsafe


def convert(val: Value, want: Type) -> Value:
    """`val` converted to type `want`; raises ConversionFailed."""
    if want == DYNAMIC or val.type == want:
        return val
    return _convert(val, want)


def unify(types: Sequence[Type]) -> Type | None:
    """The type all of `types` convert to (UnifyUnsafe), or None if there is none."""
    return unify_unsafe(types)


def equals(a: Value, b: Value) -> Value:
    """cty's Value.Equals over the deep-unmarked operands; their marks mark the result."""
    if a.marks or b.marks or isinstance(a.v, (list, dict)) or isinstance(b.v, (list, dict)):
        ua, ma = a.unmark_deep()
        ub, mb = b.unmark_deep()
        result = _equals(ua, ub)
        marks = ma | mb
        return result.with_marks(marks) if marks else result
    return _equals(a, b)


__all__ = ["ConversionFailed", "convert", "equals", "unify"]
