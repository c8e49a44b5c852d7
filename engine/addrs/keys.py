"""Instance keys: `[0]` for `count`, `["k"]` for `for_each`, none for a single instance."""

from __future__ import annotations

import json

InstanceKey = int | str | None
NO_KEY: InstanceKey = None


def key_str(key: InstanceKey) -> str:
    """The key as it appears in an address: `""`, `[0]` or `["k"]` (JSON string escapes)."""
    if key is None:
        return ""
    if isinstance(key, bool):
        raise TypeError("instance keys are ints or strings")
    if isinstance(key, int):
        return f"[{key}]"
    return "[" + json.dumps(key, ensure_ascii=False) + "]"


def key_sort(key: InstanceKey) -> tuple[int, int, str]:
    """Sort order for keys: no key, then integer keys numerically, then string keys."""
    if key is None:
        return (0, 0, "")
    if isinstance(key, int):
        return (1, key, "")
    return (2, 0, key)
