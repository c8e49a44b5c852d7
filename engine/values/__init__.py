"""The value model: cty's types and values, conversion and unification, numbers, marks."""

from __future__ import annotations

from engine.values.compare import equals
from engine.values.convert import (
    ConversionError,
    can_convert,
    convert,
    friendly_name_for_constraint,
    get_conversion,
    without_optional_deep,
)
from engine.values.format import format_value
from engine.values.json import dumps, implied_type, value_from_json, value_to_json
from engine.values.numbers import NumberError, format_number, normalize, parse_number
from engine.values.sets import canonical_set_elements, set_
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
from engine.values.unify import unify, unify_unsafe, unify_values
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
    "ConversionError", "NumberError", "can_convert", "canonical_set_elements", "convert",
    "format_number", "format_value", "friendly_name_for_constraint", "get_conversion",
    "normalize", "parse_number", "unify", "unify_unsafe", "unify_values",
    "without_optional_deep", "equals", "dumps", "implied_type", "value_from_json",
    "value_to_json",
]
