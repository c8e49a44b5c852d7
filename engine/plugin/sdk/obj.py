"""`Obj`: a read-only, Python-native view of one object value (a configuration, a prior state,
a planned state), as provider hooks receive it.

`obj["name"]` is the attribute as plain Python (see native.to_native): None when null,
`UNKNOWN` when unknown. `obj.value("name")` is the underlying engine Value. An `Obj` over a null
object reads every attribute as None and has `is_null` true.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from engine.plugin.sdk.native import UNKNOWN, to_native
from engine.values import ObjectType, Value

__all__ = ["Obj"]


class Obj:
    """A read-only view of an object value (see the module docstring)."""

    __slots__ = ("_value",)

    def __init__(self, value: Value) -> None:
        if not isinstance(value.type, ObjectType):
            raise TypeError(f"an object is required, got {value.type!r}")
        self._value = value

    @property
    def is_null(self) -> bool:
        return self._value.is_null

    @property
    def raw(self) -> Value:
        """The whole object value."""
        return self._value

    def value(self, name: str) -> Value:
        """The attribute's Value (null of its type when the object itself is null)."""
        t = self._value.type
        assert isinstance(t, ObjectType)
        if name not in t.attrs:
            raise KeyError(name)
        payload = self._value.v
        if not isinstance(payload, dict):
            return Value(t.attrs[name], None if payload is None else UNKNOWN)
        return payload[name]

    def __getitem__(self, name: str) -> Any:
        return to_native(self.value(name))

    def get(self, name: str, default: Any = None) -> Any:
        """The attribute as plain Python, `default` when it is null."""
        v = self[name]
        return default if v is None else v

    def is_known(self, name: str) -> bool:
        """Whether the attribute is wholly known."""
        return self.value(name).is_wholly_known()

    def __iter__(self) -> Iterator[str]:
        t = self._value.type
        assert isinstance(t, ObjectType)
        return iter(t.attrs)

    def to_dict(self) -> dict[str, Any]:
        """Every attribute as plain Python."""
        return {n: self[n] for n in self}

    def __repr__(self) -> str:
        return f"Obj({self.to_dict()!r})"
