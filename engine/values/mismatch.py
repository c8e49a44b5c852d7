"""cty's MismatchMessage: why a value of type `got` cannot be converted to type `want`.

Used by `convert` when no conversion exists at all; texts match cty/convert/mismatch_msg.go
(`list of string required`, `attribute "x" is required`, `element 0: string required`, ...).
"""

from __future__ import annotations

from engine.values.types import DYNAMIC, ListType, MapType, ObjectType, SetType, TupleType, Type


def _q(s: str) -> str:
    from engine.gocompat.strconv import quote as go_quote

    return go_quote(s)


def _required(want: Type) -> str:
    from engine.values.convert import friendly_name_for_constraint

    return friendly_name_for_constraint(want) + " required"


def mismatch_message(got: Type, want: Type) -> str:
    """An English reason why `got` does not conform to `want` (call after conversion failed)."""
    if isinstance(got, ObjectType) and isinstance(want, ObjectType):
        return _objects(got, want)
    if isinstance(got, TupleType) and isinstance(want, ListType) and want.element == DYNAMIC:
        return "all list elements must have the same type"
    if isinstance(got, TupleType) and isinstance(want, SetType) and want.element == DYNAMIC:
        return "all set elements must have the same type"
    if isinstance(got, ObjectType) and isinstance(want, MapType) and want.element == DYNAMIC:
        return "all map elements must have the same type"
    if isinstance(got, (TupleType, ObjectType)) and want.is_collection:
        return _from_structural(got, want)
    if got.is_collection and want.is_collection:
        return _from_collections(got, want)
    return _required(want)


def _objects(got: ObjectType, want: ObjectType) -> str:
    from engine.values.convert import get_conversion

    missing: list[str] = []
    unsafe_msg = ""
    safe_msg = ""
    for name, wty in want.attrs.items():
        gty = got.attrs.get(name)
        if gty is None:
            if name not in want.optional:
                missing.append(name)
            continue
        if gty == wty:
            continue
        if unsafe_msg:
            continue
        if get_conversion(gty, wty, unsafe=True) is None:
            unsafe_msg = f"attribute {_q(name)}: {mismatch_message(gty, wty)}"
        if safe_msg:
            continue
        if get_conversion(gty, wty, unsafe=False) is None:
            safe_msg = f"attribute {_q(name)}: {mismatch_message(gty, wty)}"
    if missing:
        missing.sort()
        if len(missing) == 1:
            return f"attribute {_q(missing[0])} is required"
        if len(missing) == 2:
            return f"attributes {_q(missing[0])} and {_q(missing[1])} are required"
        head = "".join(f"{_q(n)}, " for n in missing[:-1])
        return f"attributes {head}and {_q(missing[-1])} are required"
    return unsafe_msg or safe_msg or "incorrect object attributes"


def _from_structural(got: Type, want: Type) -> str:
    from engine.values.convert import friendly_name_for_constraint, get_conversion

    if isinstance(want, (ListType, SetType)) and not isinstance(got, TupleType):
        return _required(want)
    if isinstance(want, MapType) and not isinstance(got, ObjectType):
        return _required(want)
    assert isinstance(want, (ListType, SetType, MapType))
    wety = want.element
    if isinstance(got, TupleType):
        for i, gety in enumerate(got.elements):
            if gety == wety or get_conversion(gety, wety, unsafe=True) is not None:
                continue
            return f"element {i}: {mismatch_message(gety, wety)}"
    elif isinstance(got, ObjectType):
        for name, gaty in got.attrs.items():
            if gaty == wety or get_conversion(gaty, wety, unsafe=True) is not None:
                continue
            return f"element {_q(name)}: {mismatch_message(gaty, wety)}"
    return f"all elements must be {friendly_name_for_constraint(wety)}"


def _from_collections(got: Type, want: Type) -> str:
    if isinstance(want, (ListType, SetType)) and not isinstance(got, (ListType, SetType)):
        return _required(want)
    if isinstance(want, MapType) and not isinstance(got, MapType):
        return _required(want)
    assert isinstance(got, (ListType, SetType, MapType))
    assert isinstance(want, (ListType, SetType, MapType))
    noun = f"{want.kind} element type"
    return f"incorrect {noun}: {mismatch_message(got.element, want.element)}"
