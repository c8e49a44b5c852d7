"""Attribute paths: where inside a resource object a value lives (cty.Path).

A path is a tuple of steps; each step either names an object attribute (`AttrStep`) or picks an
element of a collection by key (`IndexStep`, whose key is a string Value for maps, a number
Value for lists/tuples, or the element Value itself for sets, as in cty). Paths are immutable,
hashable and ordered by their steps' textual form, so they can be used in sets and sorted.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.values import NUMBER, STRING, Value, number, string


@dataclass(frozen=True, slots=True)
class AttrStep:
    """`.name`: an object attribute."""

    name: str

    def __str__(self) -> str:
        return f".{self.name}"


@dataclass(frozen=True, slots=True)
class IndexStep:
    """`[key]`: an element of a list, tuple, map or set."""

    key: Value

    def __str__(self) -> str:
        k = self.key
        if k.type == STRING and isinstance(k.v, str):
            return '["' + k.v.replace("\\", "\\\\").replace('"', '\\"') + '"]'
        if k.type == NUMBER and k.is_known and not k.is_null:
            return f"[{k.v}]"
        return f"[{k!r}]"


PathStep = AttrStep | IndexStep


@dataclass(frozen=True, slots=True)
class AttributePath:
    """A sequence of steps from the root object of a resource to a nested value."""

    steps: tuple[PathStep, ...] = ()

    @classmethod
    def root(cls) -> AttributePath:
        return _ROOT

    @classmethod
    def of(cls, *parts: str | int) -> AttributePath:
        """Build a path from names (attribute steps) and ints (list-index steps):
        `AttributePath.of("tags", 0)`."""
        p = _ROOT
        for part in parts:
            p = p.index(part) if isinstance(part, int) else p.attr(part)
        return p

    def attr(self, name: str) -> AttributePath:
        """This path followed by attribute `name`."""
        return AttributePath((*self.steps, AttrStep(name)))

    def index(self, key: Value | str | int) -> AttributePath:
        """This path followed by an element step; strings/ints become string/number keys."""
        if isinstance(key, str):
            key = string(key)
        elif isinstance(key, int):
            key = number(key)
        return AttributePath((*self.steps, IndexStep(key)))

    def __len__(self) -> int:
        return len(self.steps)

    def __str__(self) -> str:
        text = "".join(str(s) for s in self.steps)
        return text[1:] if text.startswith(".") else text

    def __lt__(self, other: AttributePath) -> bool:
        return str(self) < str(other)

    def has_prefix(self, prefix: AttributePath) -> bool:
        """Whether `prefix` is this path or leads to it."""
        return self.steps[: len(prefix.steps)] == prefix.steps

    def apply(self, value: Value) -> Value | None:
        """The value this path reaches inside `value`, or None when a step does not exist
        (missing attribute, key, index out of range, or an unknown/null on the way)."""
        cur = value
        for step in self.steps:
            v = cur.v
            if isinstance(step, AttrStep):
                if not isinstance(v, dict) or step.name not in v:
                    return None
                cur = v[step.name]
                continue
            key = step.key
            if isinstance(v, dict):
                if not isinstance(key.v, str) or key.v not in v:
                    return None
                cur = v[key.v]
            elif isinstance(v, list):
                if key.type == NUMBER and isinstance(key.v, int):
                    if not 0 <= key.v < len(v):
                        return None
                    cur = v[key.v]
                else:
                    # a set element is addressed by its own value
                    match = [e for e in v if e == key]
                    if not match:
                        return None
                    cur = match[0]
            else:
                return None
        return cur


_ROOT = AttributePath(())
