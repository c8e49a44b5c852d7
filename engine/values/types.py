"""cty's type system: primitives, collections, structural types and the dynamic pseudo-type.

Types are immutable and hashable; compare them with `==`. `DYNAMIC` (Terraform's `any`) stands
for "not decided yet": a value of that type is null or unknown, or a type constraint accepts any
type there.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping
from typing import Any


class Type(ABC):
    """Base of all types."""

    __slots__ = ("_hash",)

    @abstractmethod
    def friendly_name(self) -> str:
        """cty's FriendlyName: `string`, `list of number`, `object`."""

    @abstractmethod
    def to_json(self) -> Any:
        """Terraform's JSON type notation (`"string"`, `["list","string"]`, ...)."""

    # helpers used everywhere
    @property
    def is_primitive(self) -> bool:
        return isinstance(self, PrimitiveType)

    @property
    def is_collection(self) -> bool:
        return isinstance(self, (ListType, SetType, MapType))

    @property
    def is_structural(self) -> bool:
        return isinstance(self, (ObjectType, TupleType))

    def has_dynamic(self) -> bool:
        """Whether DYNAMIC appears anywhere in this type."""
        return False

    def __repr__(self) -> str:
        return self.type_expr()

    @abstractmethod
    def type_expr(self) -> str:
        """The type as Terraform's type-constraint syntax writes it (`list(string)`)."""


class PrimitiveType(Type):
    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name
        self._hash = hash(("prim", name))

    def __eq__(self, other: object) -> bool:
        return self is other or (isinstance(other, PrimitiveType) and other.name == self.name)

    def __hash__(self) -> int:
        return self._hash

    def friendly_name(self) -> str:
        return self.name

    def to_json(self) -> Any:
        return self.name

    def type_expr(self) -> str:
        return self.name


class DynamicType(Type):
    __slots__ = ()

    def __init__(self) -> None:
        self._hash = hash("dynamic")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, DynamicType)

    def __hash__(self) -> int:
        return self._hash

    def friendly_name(self) -> str:
        return "dynamic"

    def to_json(self) -> Any:
        return "dynamic"

    def has_dynamic(self) -> bool:
        return True

    def type_expr(self) -> str:
        return "any"


STRING = PrimitiveType("string")
NUMBER = PrimitiveType("number")
BOOL = PrimitiveType("bool")
DYNAMIC = DynamicType()


class _CollectionType(Type):
    __slots__ = ("element",)
    kind = ""

    def __init__(self, element: Type) -> None:
        self.element = element
        self._hash = hash((self.kind, element))

    def __eq__(self, other: object) -> bool:
        return self is other or (type(other) is type(self) and other.element == self.element)

    def __hash__(self) -> int:
        return self._hash

    def friendly_name(self) -> str:
        return f"{self.kind} of {self.element.friendly_name()}"

    def to_json(self) -> Any:
        return [self.kind, self.element.to_json()]

    def has_dynamic(self) -> bool:
        return self.element.has_dynamic()

    def type_expr(self) -> str:
        return f"{self.kind}({self.element.type_expr()})"


class ListType(_CollectionType):
    __slots__ = ()
    kind = "list"


class SetType(_CollectionType):
    __slots__ = ()
    kind = "set"


class MapType(_CollectionType):
    __slots__ = ()
    kind = "map"


class ObjectType(Type):
    """An object type: attribute names to types. `optional` names the attributes that a type
    constraint marks `optional(...)`; `defaults` holds their default Values (constraints only)."""

    __slots__ = ("attrs", "defaults", "optional")

    def __init__(
        self,
        attrs: Mapping[str, Type],
        optional: Iterable[str] = (),
        defaults: Mapping[str, Any] | None = None,
    ) -> None:
        self.attrs: dict[str, Type] = dict(sorted(attrs.items()))
        self.optional = frozenset(optional)
        self.defaults: dict[str, Any] = dict(defaults or {})
        self._hash = hash(("object", tuple(self.attrs.items()), self.optional))

    def __eq__(self, other: object) -> bool:
        return self is other or (
            isinstance(other, ObjectType)
            and other.attrs == self.attrs
            and other.optional == self.optional
        )

    def __hash__(self) -> int:
        return self._hash

    def friendly_name(self) -> str:
        return "object"

    def to_json(self) -> Any:
        out: list[Any] = ["object", {k: t.to_json() for k, t in self.attrs.items()}]
        if self.optional:
            out.append(sorted(self.optional))
        return out

    def has_dynamic(self) -> bool:
        return any(t.has_dynamic() for t in self.attrs.values())

    def type_expr(self) -> str:
        inner = ", ".join(
            f"{k}=optional({t.type_expr()})" if k in self.optional else f"{k}={t.type_expr()}"
            for k, t in self.attrs.items()
        )
        return "object({" + inner + "})"


class TupleType(Type):
    __slots__ = ("elements",)

    def __init__(self, elements: Iterable[Type]) -> None:
        self.elements: tuple[Type, ...] = tuple(elements)
        self._hash = hash(("tuple", self.elements))

    def __eq__(self, other: object) -> bool:
        return self is other or (isinstance(other, TupleType) and other.elements == self.elements)

    def __hash__(self) -> int:
        return self._hash

    def friendly_name(self) -> str:
        return "tuple"

    def to_json(self) -> Any:
        return ["tuple", [t.to_json() for t in self.elements]]

    def has_dynamic(self) -> bool:
        return any(t.has_dynamic() for t in self.elements)

    def type_expr(self) -> str:
        return "tuple([" + ", ".join(t.type_expr() for t in self.elements) + "])"


EMPTY_OBJECT = ObjectType({})
EMPTY_TUPLE = TupleType(())


def type_from_json(data: Any) -> Type:
    """Parse Terraform's JSON type notation (inverse of `Type.to_json`)."""
    if isinstance(data, str):
        if data == "string":
            return STRING
        if data == "number":
            return NUMBER
        if data == "bool":
            return BOOL
        if data == "dynamic":
            return DYNAMIC
        raise ValueError(f"unknown type {data!r}")
    if isinstance(data, list) and data:
        kind = data[0]
        if kind == "list":
            return ListType(type_from_json(data[1]))
        if kind == "set":
            return SetType(type_from_json(data[1]))
        if kind == "map":
            return MapType(type_from_json(data[1]))
        if kind == "object":
            optional = data[2] if len(data) > 2 else ()
            return ObjectType({k: type_from_json(v) for k, v in data[1].items()}, optional)
        if kind == "tuple":
            return TupleType(type_from_json(t) for t in data[1])
    raise ValueError(f"invalid type notation {data!r}")
