"""Refinements of unknown values, as cty's `Value.Refine()`, `RefinementBuilder` and `Range()`.

An unknown value may carry what is already known about the value it stands for: that it is
not null, the prefix of a string, the bounds of a number, the bounds of a collection's
length. Operations use that to give known results from unknown operands (`"a-${x}" != null`
is `true`, `startswith("a-${x}", "a")` is `true`, `length(x) == -1` is `false`).

Only unknowns carry refinements, and only in the subclass `RefinedUnknown`: a plain
`Value` (every known value, every unrefined unknown) has the class attribute
`refinement = None` and costs nothing more. `refine(v)` returns a builder; its `new_value()`
gives a plain unknown when nothing was learned, a known value when the refinements pin the
value down (a null, a number whose bounds meet, an empty collection, a list of known length
as that many unknown elements, a set of one unknown element), else a `RefinedUnknown`. Refining a known or null value returns it unchanged, as does refining an
unknown of the dynamic type (cty keeps `DynamicVal` a singleton). `value_range(v)` answers
what is known of any value, known or not; `includes(range, v)` is cty's
`ValueRange.Includes` as a Python `True`/`False`/`None` (unknown).

String prefixes are stored as cty stores them (`string_prefix`): NFC-normalised and shortened
so that a later character cannot change the last one (the last grapheme cluster is dropped
unless it is a space, a tab or an ASCII punctuation mark that nothing combines with).
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, replace
from fractions import Fraction

from engine.source.graphemes import graphemes
from engine.values.numbers import compare as num_compare
from engine.values.types import DYNAMIC, NUMBER, STRING, ListType, MapType, SetType, Type
from engine.values.value import NO_MARKS, UNKNOWN, Value

Number = int | Fraction | float

#: cty's math.MaxInt: the upper length bound of a collection whose length is not bounded.
MAX_LENGTH = (1 << 63) - 1

#: cty's `ctystrings.SafeKnownPrefix` keeps a trailing character of these; any other last
#: grapheme cluster of a known prefix might still combine with what follows, so it is dropped.
_SAFE_LAST = frozenset(" \t!\"#$%&'()*+,-./:;?@[\\]^_{|}~")


#: A list refined to an exact length becomes a known list of that many unknowns; past this
#: many (a provider could claim any length) it stays an unknown list.
_MAX_MATERIALISED = 100_000


class RefinementError(ValueError):
    """Refinements that leave no possible value (a lower bound above the upper one)."""


@dataclass(frozen=True, slots=True)
class Refinement:
    """What is known of an unknown value. Number bounds are `None` when unbounded; lengths
    run from `min_length` to `max_length` (MAX_LENGTH when unbounded)."""

    not_null: bool = False
    prefix: str = ""
    lower: Number | None = None
    lower_inclusive: bool = False
    upper: Number | None = None
    upper_inclusive: bool = False
    min_length: int = 0
    max_length: int = MAX_LENGTH


NO_REFINEMENT = Refinement()


class RefinedUnknown(Value):
    """An unknown value with a refinement; its marks, type and payload (`UNKNOWN`) are those
    of any Value, so every `v is UNKNOWN` test treats it as the unknown it is."""

    __slots__ = ("refinement",)

    def __init__(self, type: Type, refinement: Refinement, marks: frozenset[str] = NO_MARKS
                 ) -> None:
        super().__init__(type, UNKNOWN, marks)
        self.refinement: Refinement = refinement

    def mark(self, *marks: str) -> Value:
        if not marks or set(marks) <= self.marks:
            return self
        return RefinedUnknown(self.type, self.refinement, self.marks | frozenset(marks))

    def with_marks(self, marks: frozenset[str]) -> Value:
        if not marks or marks <= self.marks:
            return self
        return RefinedUnknown(self.type, self.refinement, self.marks | marks)

    def unmark(self) -> tuple[Value, frozenset[str]]:
        if not self.marks:
            return self, NO_MARKS
        return RefinedUnknown(self.type, self.refinement), self.marks

    def unmark_deep(self) -> tuple[Value, frozenset[str]]:
        return self.unmark()

    def deep_marks(self) -> frozenset[str]:
        return self.marks

    def __repr__(self) -> str:
        marks = f", marks={sorted(self.marks)}" if self.marks else ""
        return f"RefinedUnknown({self.type!r}, {self.refinement!r}{marks})"


# ------------------------------------------------------------------------------ prefixes
def safe_known_prefix(prefix: str) -> str:
    """`prefix` as an unknown string may promise it (cty's ctystrings.SafeKnownPrefix)."""
    prefix = unicodedata.normalize("NFC", prefix)
    if not prefix or prefix[-1] in _SAFE_LAST:
        return prefix
    clusters = graphemes(prefix)
    return prefix[: len(prefix) - len(clusters[-1])]


# ------------------------------------------------------------------------------ kinds
def _kind(t: Type) -> str:
    if t is STRING or t == STRING:
        return "string"
    if t is NUMBER or t == NUMBER:
        return "number"
    if isinstance(t, (ListType, SetType, MapType)):
        return "collection"
    return "other"


# ------------------------------------------------------------------------------ builder
class RefinementBuilder:
    """Collects refinements for one value (cty's RefinementBuilder); `new_value()` makes the
    refined value. Refinements that do not apply to the value's type are ignored, as are all
    refinements of a known value, a null, or an unknown of the dynamic type."""

    __slots__ = ("_kind", "_marks", "_orig", "_wip")

    def __init__(self, orig: Value) -> None:
        self._orig, self._marks = orig.unmark()
        self._wip: Refinement | None = None
        self._kind = ""
        v = self._orig
        if v.v is UNKNOWN and v.type != DYNAMIC:
            self._wip = v.refinement or NO_REFINEMENT
            self._kind = _kind(v.type)

    # -- nullness --------------------------------------------------------------------------
    def not_null(self) -> RefinementBuilder:
        """The value is not null."""
        if self._wip is not None and not self._wip.not_null:
            self._wip = replace(self._wip, not_null=True)
        return self

    def null(self) -> RefinementBuilder:
        """The value is null: `new_value()` is the null of the type."""
        if self._wip is not None:
            if self._wip.not_null:
                raise RefinementError("refining a not-null value to null")
            self._orig = Value(self._orig.type, None)
            self._wip = None
        return self

    # -- strings ---------------------------------------------------------------------------
    def string_prefix(self, prefix: str) -> RefinementBuilder:
        """The string starts with `prefix`, shortened to what is safe to promise."""
        return self.string_prefix_full(safe_known_prefix(prefix))

    def string_prefix_full(self, prefix: str) -> RefinementBuilder:
        """The string starts with exactly `prefix` (already safe: see `safe_known_prefix`)."""
        wip = self._wip
        if wip is None or self._kind != "string" or not prefix:
            return self
        have = wip.prefix
        if have.startswith(prefix):
            return self
        if not prefix.startswith(have):
            raise RefinementError(f"prefix {prefix!r} conflicts with {have!r}")
        self._wip = replace(wip, prefix=prefix)
        return self

    # -- numbers ---------------------------------------------------------------------------
    def number_lower_bound(self, n: Number, inclusive: bool) -> RefinementBuilder:
        """The number is at least `n` (`inclusive`) or above it."""
        wip = self._wip
        if wip is None or self._kind != "number" or _is_inf(n, -1):
            return self
        if wip.lower is not None:
            c = num_compare(n, wip.lower)
            if c < 0 or (c == 0 and inclusive and not wip.lower_inclusive):
                return self  # the bound we have is at least as tight
        if wip.upper is not None:
            c = num_compare(n, wip.upper)
            if c > 0 or (c == 0 and not (inclusive and wip.upper_inclusive)):
                raise RefinementError("refining to an empty range")
        self._wip = replace(wip, lower=n, lower_inclusive=inclusive)
        return self

    def number_upper_bound(self, n: Number, inclusive: bool) -> RefinementBuilder:
        """The number is at most `n` (`inclusive`) or below it."""
        wip = self._wip
        if wip is None or self._kind != "number" or _is_inf(n, 1):
            return self
        if wip.upper is not None:
            c = num_compare(n, wip.upper)
            if c > 0 or (c == 0 and inclusive and not wip.upper_inclusive):
                return self  # the bound we have is at least as tight
        if wip.lower is not None:
            c = num_compare(n, wip.lower)
            if c < 0 or (c == 0 and not (inclusive and wip.lower_inclusive)):
                raise RefinementError("refining to an empty range")
        self._wip = replace(wip, upper=n, upper_inclusive=inclusive)
        return self

    def number_range_inclusive(self, lower: Number, upper: Number) -> RefinementBuilder:
        """The number is between `lower` and `upper`, both included."""
        return self.number_lower_bound(lower, True).number_upper_bound(upper, True)

    # -- collections -----------------------------------------------------------------------
    def length_lower_bound(self, n: int) -> RefinementBuilder:
        """The collection has at least `n` elements."""
        wip = self._wip
        if wip is None or self._kind != "collection" or n <= wip.min_length:
            return self
        if n > wip.max_length:
            raise RefinementError("refining to an empty range of lengths")
        self._wip = replace(wip, min_length=n)
        return self

    def length_upper_bound(self, n: int) -> RefinementBuilder:
        """The collection has at most `n` elements."""
        wip = self._wip
        if wip is None or self._kind != "collection" or n >= wip.max_length:
            return self
        if n < wip.min_length:
            raise RefinementError("refining to an empty range of lengths")
        self._wip = replace(wip, max_length=n)
        return self

    def length(self, n: int) -> RefinementBuilder:
        """The collection has exactly `n` elements."""
        return self.length_lower_bound(n).length_upper_bound(n)

    # -- result ----------------------------------------------------------------------------
    def new_value(self) -> Value:
        """The refined value, with the original's marks."""
        out = self._new_value()
        return out.with_marks(self._marks) if self._marks else out

    def _new_value(self) -> Value:
        wip, orig = self._wip, self._orig
        if wip is None:
            return orig
        t = orig.type
        if wip.not_null:
            if (self._kind == "number" and wip.lower is not None and wip.upper is not None
                    and wip.lower_inclusive and wip.upper_inclusive
                    and num_compare(wip.lower, wip.upper) == 0):
                return Value(NUMBER, wip.lower)
            if self._kind == "collection" and wip.min_length == wip.max_length:
                n = wip.max_length
                if n == 0:
                    return Value(t, [] if isinstance(t, (ListType, SetType)) else {})
                # a list of known length is a known list of unknown elements, as is a set of
                # exactly one element (more unknown elements might coalesce)
                if isinstance(t, ListType) and n <= _MAX_MATERIALISED:
                    return Value(t, [Value(t.element, UNKNOWN) for _ in range(n)])
                if isinstance(t, SetType) and n == 1:
                    return Value(t, [Value(t.element, UNKNOWN)])
        if wip == NO_REFINEMENT:
            return Value(t, UNKNOWN)
        if wip is orig.refinement:
            return orig
        return RefinedUnknown(t, wip)


def _is_inf(n: Number, sign: int) -> bool:
    return isinstance(n, float) and n == sign * float("inf")


def refine(v: Value) -> RefinementBuilder:
    """A builder of refinements for `v` (cty's `v.Refine()`)."""
    return RefinementBuilder(v)


def refine_not_null(v: Value) -> Value:
    """`v` known not to be null (cty's RefineNotNull); known values come back unchanged."""
    if v.v is not UNKNOWN:
        return v
    return RefinementBuilder(v).not_null().new_value()


def without_refinements(v: Value) -> Value:
    """`v` as a plain unknown of its type and marks, when it is a refined unknown."""
    if v.refinement is None:
        return v
    return Value(v.type, UNKNOWN, v.marks)


# ------------------------------------------------------------------------------ ranges
class ValueRange:
    """What is known of the value `v` stands for (cty's ValueRange), known or not."""

    __slots__ = ("_r", "_v")

    def __init__(self, v: Value) -> None:
        self._v = v
        self._r: Refinement = v.refinement or NO_REFINEMENT

    @property
    def type(self) -> Type:
        return self._v.type

    def could_be_null(self) -> bool:
        v = self._v
        if v.v is UNKNOWN:
            return not self._r.not_null
        return v.v is None

    def definitely_not_null(self) -> bool:
        v = self._v
        if v.v is UNKNOWN:
            return self._r.not_null
        return v.v is not None

    def string_prefix(self) -> str:
        """The known prefix of a string (all of a known string, "" for a null)."""
        v = self._v
        if v.v is UNKNOWN:
            return self._r.prefix
        return v.v if isinstance(v.v, str) else ""

    def number_lower_bound(self) -> tuple[Number | None, bool]:
        """(bound, inclusive); the bound is None when there is none."""
        v = self._v
        if v.v is UNKNOWN:
            return self._r.lower, self._r.lower_inclusive
        if v.v is None or v.type != NUMBER:
            return None, False
        return v.v, True

    def number_upper_bound(self) -> tuple[Number | None, bool]:
        """(bound, inclusive); the bound is None when there is none."""
        v = self._v
        if v.v is UNKNOWN:
            return self._r.upper, self._r.upper_inclusive
        if v.v is None or v.type != NUMBER:
            return None, False
        return v.v, True

    def length_lower_bound(self) -> int:
        v = self._v
        if v.v is UNKNOWN:
            return self._r.min_length
        if isinstance(v.v, (list, dict)) and _length_known(v):
            return len(v.v)
        return 0

    def length_upper_bound(self) -> int:
        v = self._v
        if v.v is UNKNOWN:
            return self._r.max_length
        if isinstance(v.v, (list, dict)):
            return len(v.v)
        return MAX_LENGTH


def _length_known(v: Value) -> bool:
    from engine.values.sets import length_is_known

    return length_is_known(v)


def value_range(v: Value) -> ValueRange:
    """What is known of `v` (cty's `v.Range()`); `v` should be unmarked at the top."""
    return ValueRange(v)


def includes(rng: ValueRange, v: Value) -> bool | None:
    """Whether a value in `rng` could be `v`: False when it cannot, None when it might
    (cty's ValueRange.Includes, whose True needs both known and equal: not asked here)."""
    if v.v is UNKNOWN:
        return None
    if v.v is None:
        return False if rng.definitely_not_null() else None
    if rng._v.v is not UNKNOWN:
        return None
    kind = _kind(rng.type)
    if kind == "string" and isinstance(v.v, str):
        prefix = rng.string_prefix()
        if prefix and not v.v.startswith(prefix):
            return False
    elif kind == "number" and v.type == NUMBER:
        lo, lo_inc = rng.number_lower_bound()
        if lo is not None:
            c = num_compare(v.v, lo)
            if c < 0 or (c == 0 and not lo_inc):
                return False
        hi, hi_inc = rng.number_upper_bound()
        if hi is not None:
            c = num_compare(v.v, hi)
            if c > 0 or (c == 0 and not hi_inc):
                return False
    elif kind == "collection" and isinstance(v.v, (list, dict)) and _length_known(v):
        n = len(v.v)
        if n < rng.length_lower_bound() or n > rng.length_upper_bound():
            return False
    return None


__all__ = [
    "MAX_LENGTH", "NO_REFINEMENT", "RefinedUnknown", "Refinement", "RefinementBuilder",
    "RefinementError", "ValueRange", "includes", "refine", "refine_not_null",
    "safe_known_prefix", "value_range", "without_refinements",
]
