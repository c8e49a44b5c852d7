"""The structured change the human renderer diffs: one value's before and after as JSON plan
data, walked in step with its `after_unknown`, `before_sensitive`, `after_sensitive`,
`replace_paths` and relevant-attribute paths (as terraform's jsonformat/structured.Change).

`before_explicit` / `after_explicit` say whether a value exists at all on that side (a missing
object key or list index is not the same as an explicit JSON null).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

Paths = tuple[tuple[Any, ...], ...]
ALWAYS: Paths | None = None  # relevant-attribute matcher that matches everything


def _child_paths(paths: Paths, key: Any) -> Paths:
    if not paths:
        return ()
    return tuple(p[1:] for p in paths if p and p[0] == key)


def _child_flag(flag: Any, key: Any) -> Any:
    if flag is True:
        return True
    if isinstance(flag, dict) and isinstance(key, str):
        return flag.get(key, False)
    if isinstance(flag, list) and isinstance(key, int) and 0 <= key < len(flag):
        return flag[key]
    return False


@dataclass(slots=True)
class Change:
    """One value's change as the human renderer walks it: before/after and their unknown and
    sensitive markers (terraform's JSON plan shapes)."""

    before: Any = None
    after: Any = None
    unknown: Any = False
    before_sensitive: Any = False
    after_sensitive: Any = False
    replace_paths: Paths = ()
    relevant: Paths | None = ALWAYS
    before_explicit: bool = False
    after_explicit: bool = False
    extra: dict[str, Any] = field(default_factory=dict)

    # ---------------------------------------------------------------- predicates
    @property
    def is_unknown(self) -> bool:
        return self.unknown is True

    @property
    def is_before_sensitive(self) -> bool:
        return self.before_sensitive is True

    @property
    def is_after_sensitive(self) -> bool:
        return self.after_sensitive is True

    def replace_matches(self) -> bool:
        """Whether this value itself is one of the replace paths."""
        paths = self.replace_paths
        return bool(paths) and any(len(p) == 0 for p in paths)

    def relevant_partial(self) -> bool:
        """Whether any relevant attribute lies at or under this value."""
        return self.relevant is None or len(self.relevant) > 0

    # ---------------------------------------------------------------- children
    def child(self, key: str) -> Change:
        """The change of an object attribute or map element."""
        b = self.before if isinstance(self.before, dict) else {}
        a = self.after if isinstance(self.after, dict) else {}
        return Change(
            before=b.get(key),
            after=a.get(key),
            unknown=_child_flag(self.unknown, key),
            before_sensitive=_child_flag(self.before_sensitive, key),
            after_sensitive=_child_flag(self.after_sensitive, key),
            replace_paths=_child_paths(self.replace_paths, key),
            relevant=None if self.relevant is None else _relevant_child(self.relevant, key),
            before_explicit=key in b,
            after_explicit=key in a,
        )

    def child_index(self, bi: int, ai: int) -> Change:
        """The change pairing element `bi` of before with element `ai` of after (an index out
        of range means the element does not exist on that side)."""
        b = self.before if isinstance(self.before, list) else []
        a = self.after if isinstance(self.after, list) else []
        has_b = 0 <= bi < len(b)
        has_a = 0 <= ai < len(a)
        return Change(
            before=b[bi] if has_b else None,
            after=a[ai] if has_a else None,
            unknown=_child_flag(self.unknown, ai) if has_a else False,
            before_sensitive=_child_flag(self.before_sensitive, bi) if has_b else False,
            after_sensitive=_child_flag(self.after_sensitive, ai) if has_a else False,
            replace_paths=_child_paths(self.replace_paths, ai),
            relevant=self.relevant,
            before_explicit=has_b,
            after_explicit=has_a,
        )

    # ---------------------------------------------------------------- variants
    def as_delete(self) -> Change:
        return replace(self, after=None, unknown=False, after_sensitive=False,
                       after_explicit=False)

    def as_create(self) -> Change:
        return replace(self, before=None, before_sensitive=False, before_explicit=False)

    def as_noop(self) -> Change:
        """Both sides showing the before value (non-relevant drift)."""
        return replace(self, after=self.before, unknown=False,
                       after_sensitive=self.before_sensitive, after_explicit=self.before_explicit)

    def non_sensitive(self) -> Change:
        return replace(self, before_sensitive=False if self.before_sensitive is True
                       else self.before_sensitive,
                       after_sensitive=False if self.after_sensitive is True
                       else self.after_sensitive)


def _relevant_child(paths: Paths, key: Any) -> Paths | None:
    if any(len(p) == 0 for p in paths):
        return None  # everything below a matched path is relevant
    return _child_paths(paths, key)


def json_type(v: Any) -> str:
    """The JSON kind of a value: null, bool, number, string, array or object."""
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, str) and not _is_number_text(v):
        return "string"
    if isinstance(v, (int, float)) or _is_number_text(v):
        return "number"
    if isinstance(v, list):
        return "array"
    return "object"


def _is_number_text(v: Any) -> bool:
    from engine.values.json import JSONNumber

    return isinstance(v, JSONNumber)
