"""The value model: cty's types and values, conversion and unification, numbers, marks."""

from __future__ import annotations

from engine.values.types import (
    BOOL,
    DYNAMIC,
    EMPTY_OBJECT,
    EMPTY_TUPLE,
    NUMBER,
    STRING,
    DynamicType,
    ListType,
    MapType,
    ObjectType,
    PrimitiveType,
    SetType,
    TupleType,
    Type,
    type_from_json,
)
from engine.values.value import (
    EMPTY_STRING,
    FALSE,
    NO_MARKS,
    NULL_DYNAMIC,
    SENSITIVE,
    TRUE,
    UNKNOWN,
    UNKNOWN_DYNAMIC,
    Value,
    boolean,
    list_,
    map_,
    null,
    number,
    object_,
    set_,
    string,
    tuple_,
    unknown,
)

__all__ = [
    "BOOL", "DYNAMIC", "EMPTY_OBJECT", "EMPTY_STRING", "EMPTY_TUPLE", "FALSE", "NO_MARKS",
    "NULL_DYNAMIC", "NUMBER", "SENSITIVE", "STRING", "TRUE", "UNKNOWN", "UNKNOWN_DYNAMIC",
    "DynamicType", "ListType", "MapType", "ObjectType", "PrimitiveType", "SetType", "TupleType",
    "Type", "Value", "boolean", "list_", "map_", "null", "number", "object_", "set_", "string",
    "tuple_", "type_from_json", "unknown",
]
