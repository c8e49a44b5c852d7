"""Type conversion with cty's rules (zclconf/go-cty cty/convert) and messages.

`convert(value, want)` converts or raises `ConversionError`; `.message` is cty's text (e.g.
`a number is required`, `list of string required`, `attribute "x" is required`) and `.path` the
steps to the offending nested value. `str(err)` is the message prefixed by the path the way
Terraform prints it (`.x[0]: a number is required`). Conversion is "unsafe" (cty's Convert):
string to number/bool, list to set, map to object are allowed and may fail per value.

Object type constraints may carry `optional` attributes and `defaults`; `convert` first applies
the defaults (as HCL's typeexpr.Defaults.Apply) and then converts, filling absent optional
attributes with typed nulls. Marks on the input are kept on the result; a conversion to a set
moves the marks inside its elements to the set (cty.SetVal).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from engine.values.numbers import format_number, parse_number
from engine.values.types import (
    BOOL,
    DYNAMIC,
    NUMBER,
    STRING,
    ListType,
    MapType,
    ObjectType,
    PrimitiveType,
    SetType,
    TupleType,
    Type,
)
from engine.values.value import UNKNOWN, Value

PathStep = str | int  # str: attribute name or map key (see kind); int: index
Path = tuple[tuple[str, PathStep], ...]  # ("attr", name) | ("index", key)
Conversion = Callable[[Value, Path], Value]


class ConversionError(Exception):
    """A value that cannot be converted: cty's message and the path to the bad nested value."""

    def __init__(self, message: str, path: Path = ()) -> None:
        super().__init__(message)
        self.message = message
        self.path = path

    def __str__(self) -> str:
        if not self.path:
            return self.message
        return f"{format_path(self.path)}: {self.message}"


def format_path(path: Path) -> str:
    """A path as Terraform prints it in errors: `.attr`, `["key"]`, `[0]`."""
    from engine.gocompat.strconv import quote as go_quote

    out = []
    for kind, step in path:
        if kind == "attr":
            out.append(f".{step}")
        elif isinstance(step, int):
            out.append(f"[{step}]")
        else:
            out.append(f"[{go_quote(step)}]")
    return "".join(out)


# ------------------------------------------------------------------------------ type helpers
def friendly_name_for_constraint(t: Type) -> str:
    """cty's FriendlyNameForConstraint: `any type`, `list of any single type`, ..."""
    if t == DYNAMIC:
        return "any type"
    if isinstance(t, (ListType, SetType, MapType)):
        elem = "any single type" if t.element == DYNAMIC else friendly_name_for_constraint(
            t.element
        )
        return f"{t.kind} of {elem}"
    return t.friendly_name()


def without_optional_deep(t: Type) -> Type:
    """The type with every object's optional-attribute markers (and defaults) removed."""
    if isinstance(t, ObjectType):
        attrs = {k: without_optional_deep(v) for k, v in t.attrs.items()}
        if not t.optional and not t.defaults and all(attrs[k] is t.attrs[k] for k in attrs):
            return t
        return ObjectType(attrs)
    if isinstance(t, (ListType, SetType, MapType)):
        e = without_optional_deep(t.element)
        return t if e is t.element else type(t)(e)
    if isinstance(t, TupleType):
        es = [without_optional_deep(e) for e in t.elements]
        return t if all(a is b for a, b in zip(es, t.elements)) else TupleType(es)
    return t


def dynamic_replace(have: Type, want: Type) -> Type:
    """`want` with its DYNAMIC parts replaced by the matching parts of `have` (cty's
    dynamicReplace; the type of a converted null or unknown)."""
    from engine.values.unify import unify

    if have == DYNAMIC:
        return want
    if want == DYNAMIC:
        return have
    if isinstance(want, PrimitiveType):
        return want
    if isinstance(want, MapType):
        if isinstance(have, MapType):
            return MapType(dynamic_replace(have.element, want.element))
        if isinstance(have, ObjectType):
            u = unify(list(have.attrs.values()), unsafe=True)
            return MapType(want.element if u is None else dynamic_replace(u, want.element))
        return want
    if isinstance(want, ObjectType):
        attrs: dict[str, Type] = {}
        if isinstance(have, MapType):
            attrs = {k: dynamic_replace(have.element, t) for k, t in want.attrs.items()}
        elif isinstance(have, ObjectType):
            attrs = {
                k: dynamic_replace(have.attrs[k], t) if k in have.attrs else t
                for k, t in want.attrs.items()
            }
        return ObjectType(attrs)
    if isinstance(want, (SetType, ListType)):
        cls = type(want)
        if isinstance(have, (SetType, ListType)):
            return cls(dynamic_replace(have.element, want.element))
        if isinstance(have, TupleType):
            u = unify(list(have.elements), unsafe=True)
            return cls(want.element if u is None else dynamic_replace(u, want.element))
        return want
    if isinstance(want, TupleType):
        if isinstance(have, TupleType) and len(have.elements) == len(want.elements):
            return TupleType(dynamic_replace(h, w) for h, w in zip(have.elements, want.elements))
        return want
    return want


# ------------------------------------------------------------------------------ primitives
def _num_to_string(v: Value, path: Path) -> Value:
    return Value(STRING, format_number(v.v))


def _bool_to_string(v: Value, path: Path) -> Value:
    return Value(STRING, "true" if v.v else "false")


def _string_to_number(v: Value, path: Path) -> Value:
    try:
        return Value(NUMBER, parse_number(v.v))
    except ValueError:
        raise ConversionError("a number is required", path) from None


def _string_to_bool(v: Value, path: Path) -> Value:
    s = v.v
    if s in ("true", "1"):
        return Value(BOOL, True)
    if s in ("false", "0"):
        return Value(BOOL, False)
    low = s.lower()
    if low in ("true", "false"):
        raise ConversionError(
            f'a bool is required; to convert from string, use lowercase "{low}"', path
        )
    raise ConversionError("a bool is required", path)


_SAFE_PRIMITIVE: dict[tuple[Type, Type], Conversion] = {
    (NUMBER, STRING): _num_to_string,
    (BOOL, STRING): _bool_to_string,
}
_UNSAFE_PRIMITIVE: dict[tuple[Type, Type], Conversion] = {
    (STRING, NUMBER): _string_to_number,
    (STRING, BOOL): _string_to_bool,
}


def _identity(v: Value, path: Path) -> Value:
    return v


# ------------------------------------------------------------------------------ dispatch
def get_conversion(have: Type, want: Type, unsafe: bool = True) -> Conversion | None:
    """A function converting values of type `have` to `want`, or None when cty has none."""
    if have == want and not (isinstance(want, ObjectType) or want.has_dynamic()):
        return _identity
    conv = _get_conversion_known(have, want, unsafe)
    if conv is None:
        return None
    inner = conv

    def wrapped(v: Value, path: Path) -> Value:
        if v.marks:
            plain, marks = v.unmark()
            return wrapped(plain, path).with_marks(marks)
        if want == DYNAMIC:
            return v
        if v.v is UNKNOWN:
            out = Value(dynamic_replace(v.type, without_optional_deep(want)), UNKNOWN)
            return out if v.refinement is None else _prepare_unknown_result(v, out)
        if v.v is None:
            return Value(dynamic_replace(v.type, without_optional_deep(want)), None)
        return inner(v, path)

    return wrapped


def _prepare_unknown_result(source: Value, target: Value) -> Value:
    """The unknown `target` with what a conversion keeps of the refined unknown `source`
    (cty's prepareUnknownResult): that it is not null, and between collections the length
    bounds (a set keeps at least one element of a non-empty source; duplicates may merge)."""
    from engine.values.refinement import refine, value_range

    rng = value_range(source)
    b = refine(target)
    if rng.definitely_not_null():
        b = b.not_null()
    st, tt = source.type, target.type
    if isinstance(st, (ListType, SetType, MapType)) and isinstance(tt, (ListType, SetType, MapType)):
        if isinstance(tt, SetType):
            if rng.length_lower_bound() > 0:
                b = b.length_lower_bound(1)
        else:
            b = b.length_lower_bound(rng.length_lower_bound())
        b = b.length_upper_bound(rng.length_upper_bound())
    return b.new_value()


def _get_conversion_known(have: Type, want: Type, unsafe: bool) -> Conversion | None:
    if want == DYNAMIC:
        return _identity
    if unsafe and have == DYNAMIC:
        return _dynamic_fixup(want)
    if isinstance(have, PrimitiveType) and isinstance(want, PrimitiveType):
        if have == want:
            return _identity
        conv = _SAFE_PRIMITIVE.get((have, want))
        if conv is None and unsafe:
            conv = _UNSAFE_PRIMITIVE.get((have, want))
        return conv
    if isinstance(want, ObjectType) and isinstance(have, ObjectType):
        return _object_to_object(have, want, unsafe)
    if isinstance(want, TupleType) and isinstance(have, TupleType):
        return _tuple_to_tuple(have, want, unsafe)
    if isinstance(want, ListType) and isinstance(have, (ListType, SetType)):
        if have.element == want.element:
            return _collection_to_list(want.element, None)
        ec = get_conversion(have.element, want.element, unsafe)
        return None if ec is None else _collection_to_list(want.element, ec)
    if isinstance(want, SetType) and isinstance(have, (ListType, SetType)):
        if isinstance(have, ListType) and not unsafe:
            return None
        if have.element == want.element:
            return _collection_to_set(want.element, None)
        ec = get_conversion(have.element, want.element, unsafe)
        return None if ec is None else _collection_to_set(want.element, ec)
    if isinstance(want, MapType) and isinstance(have, MapType):
        ec = get_conversion(have.element, want.element, unsafe)
        return None if ec is None else _collection_to_map(want.element, ec)
    if isinstance(want, (ListType, SetType)) and isinstance(have, TupleType):
        return _tuple_to_seq(have, want, unsafe)
    if isinstance(want, MapType) and isinstance(have, ObjectType):
        return _object_to_map(have, want.element, unsafe)
    if isinstance(want, ObjectType) and isinstance(have, MapType):
        return _map_to_object(have, want, unsafe) if unsafe else None
    return None


def _dynamic_fixup(want: Type) -> Conversion:
    def conv(v: Value, path: Path) -> Value:
        try:
            return convert(v, want)
        except ConversionError as exc:
            raise ConversionError(exc.message, path + exc.path) from None

    return conv


# ------------------------------------------------------------------------------ collections
def _empty_elem_type(ety: Type, given: Type) -> Type:
    return given if ety == DYNAMIC else without_optional_deep(ety)


def _same_types(elems: Sequence[Value]) -> bool:
    first = elems[0].type
    return all(e.type == first for e in elems)


def _convert_elems(items: Sequence[Value], conv: Conversion | None, path: Path) -> list[Value]:
    if conv is None:
        return list(items)
    return [conv(e, (*path, ("index", i))) for i, e in enumerate(items)]


def _collection_to_list(ety: Type, conv: Conversion | None) -> Conversion:
    from engine.values.sets import length_is_known

    def run(v: Value, path: Path) -> Value:
        if not length_is_known(v):
            # A set whose unknown elements may still coalesce: the list's length is unknown.
            assert isinstance(v.type, SetType)
            return Value(ListType(v.type.element if ety == DYNAMIC else ety), UNKNOWN)
        elems = _convert_elems(v.v, conv, path)
        if not elems:
            given = v.type.element if isinstance(v.type, (ListType, SetType)) else DYNAMIC
            return Value(ListType(_empty_elem_type(ety, given)), [])
        if not _same_types(elems):
            raise ConversionError("element types must all match for conversion to list", path)
        return Value(ListType(elems[0].type), elems)

    return run


def _collection_to_set(ety: Type, conv: Conversion | None) -> Conversion:
    from engine.values.sets import set_value

    def run(v: Value, path: Path) -> Value:
        elems = _convert_elems(v.v, conv, path)
        if not elems:
            given = v.type.element if isinstance(v.type, (ListType, SetType)) else DYNAMIC
            return Value(SetType(_empty_elem_type(ety, given)), [])
        if not _same_types(elems):
            raise ConversionError("element types must all match for conversion to set", path)
        return set_value(SetType(elems[0].type), elems)

    return run


def _collection_to_map(ety: Type, conv: Conversion) -> Conversion:
    def run(v: Value, path: Path) -> Value:
        out = {k: conv(e, (*path, ("index", k))) for k, e in v.v.items()}
        if not out:
            given = v.type.element if isinstance(v.type, MapType) else DYNAMIC
            return Value(MapType(_empty_elem_type(ety, given)), {})
        elems = list(out.values())
        if not _same_types(elems):
            raise ConversionError("element types must all match for conversion to map", path)
        return Value(MapType(elems[0].type), dict(sorted(out.items())))

    return run


def _tuple_to_seq(have: TupleType, want: ListType | SetType, unsafe: bool) -> Conversion | None:
    from engine.values.unify import unify

    kind = "list" if isinstance(want, ListType) else "set"
    cls = type(want)
    etys = have.elements
    ety = want.element
    if not etys:
        empty_t = cls(without_optional_deep(ety))
        return lambda v, path: Value(empty_t, [])
    if ety == DYNAMIC:
        u = unify(list(etys), unsafe)
        if u is None:
            return None
        if u == DYNAMIC and any(t != DYNAMIC for t in etys):
            return None
        ety = u
    convs: list[Conversion | None] = []
    for t in etys:
        if t == ety:
            convs.append(None)
            continue
        c = get_conversion(t, ety, unsafe)
        if c is None:
            return None
        convs.append(c)

    def run(v: Value, path: Path) -> Value:
        from engine.values.sets import set_value

        elems = []
        for i, (e, c) in enumerate(zip(v.v, convs)):
            elems.append(e if c is None else c(e, (*path, ("index", i))))
        if not _same_types(elems):
            raise ConversionError(f"element types must all match for conversion to {kind}", path)
        if cls is SetType:
            return set_value(SetType(elems[0].type), elems)
        return Value(ListType(elems[0].type), elems)

    return run


def _object_to_map(have: ObjectType, ety: Type, unsafe: bool) -> Conversion | None:
    from engine.values.unify import unify

    atys = have.attrs
    if not atys:
        empty_t = MapType(without_optional_deep(ety))
        return lambda v, path: Value(empty_t, {})
    if ety == DYNAMIC:
        u = unify(list(atys.values()), unsafe)
        if u is None:
            return None
        if u == DYNAMIC and any(t != DYNAMIC for t in atys.values()):
            return None
        ety = u
    convs: dict[str, Conversion | None] = {}
    for name, t in atys.items():
        if t == ety:
            convs[name] = None
            continue
        c = get_conversion(t, ety, unsafe)
        if c is None:
            return None
        convs[name] = c

    def run(v: Value, path: Path) -> Value:
        out: dict[str, Value] = {}
        for k in sorted(v.v):
            c = convs.get(k)
            e = v.v[k]
            out[k] = e if c is None else c(e, (*path, ("index", k)))
        elems = list(out.values())
        if not _same_types(elems):
            raise ConversionError("element types must all match for conversion to map", path)
        return Value(MapType(elems[0].type), out)

    return run


# ------------------------------------------------------------------------------ structural
def _object_to_object(have: ObjectType, want: ObjectType, unsafe: bool) -> Conversion | None:
    convs: dict[str, Conversion | None] = {}
    for name, wt in want.attrs.items():
        ht = have.attrs.get(name)
        if ht is None:
            if name in want.optional:
                continue
            return None
        if ht == wt and not wt.has_dynamic() and not _has_optional(wt):
            convs[name] = None
            continue
        c = get_conversion(ht, wt, unsafe)
        if c is None:
            return None
        convs[name] = c
    optional = want.optional
    wattrs = want.attrs

    def run(v: Value, path: Path) -> Value:
        out: dict[str, Value] = {}
        for name, e in v.v.items():
            if name not in convs:
                continue
            c = convs[name]
            if c is not None:
                e = c(e, (*path, ("attr", name)))
            if e.v is None and _has_optional(e.type):
                e = Value(without_optional_deep(e.type), None, e.marks)
            out[name] = e
        for name in optional:
            if name not in out:
                out[name] = Value(without_optional_deep(wattrs[name]), None)
        return Value(ObjectType({k: e.type for k, e in out.items()}), dict(sorted(out.items())))

    return run


def _has_optional(t: Type) -> bool:
    return isinstance(t, Type) and without_optional_deep(t) is not t


def _tuple_to_tuple(have: TupleType, want: TupleType, unsafe: bool) -> Conversion | None:
    if len(have.elements) != len(want.elements):
        return None
    convs: list[Conversion | None] = []
    for ht, wt in zip(have.elements, want.elements):
        if ht == wt and not wt.has_dynamic():
            convs.append(None)
            continue
        c = get_conversion(ht, wt, unsafe)
        if c is None:
            return None
        convs.append(c)

    def run(v: Value, path: Path) -> Value:
        elems = [
            e if c is None else c(e, (*path, ("index", i)))
            for i, (e, c) in enumerate(zip(v.v, convs))
        ]
        return Value(TupleType(e.type for e in elems), elems)

    return run


def _map_to_object(have: MapType, want: ObjectType, unsafe: bool) -> Conversion | None:
    if not want.attrs:
        return lambda v, path: Value(ObjectType({}), {})
    convs: dict[str, Conversion | None] = {}
    for name, wt in want.attrs.items():
        if wt == have.element and not wt.has_dynamic():
            convs[name] = None
            continue
        c = get_conversion(have.element, wt, unsafe)
        if c is None:
            return None
        convs[name] = c

    def run(v: Value, path: Path) -> Value:
        out: dict[str, Value] = {}
        for k, e in v.v.items():
            if k not in want.attrs:
                continue
            c = convs[k]
            out[k] = e if c is None else c(e, (*path, ("index", k)))
        for name, t in want.attrs.items():
            if name not in out:
                if name in want.optional:
                    out[name] = Value(without_optional_deep(t), None)
                else:
                    raise ConversionError(
                        f'map has no element for required attribute "{name}"', path
                    )
        return Value(ObjectType({k: e.type for k, e in out.items()}), dict(sorted(out.items())))

    return run


# ------------------------------------------------------------------------------ public API
# conversions between primitive types, by (have, want): they depend on nothing else
_PRIMITIVE_CONVERSIONS: dict[tuple[Type, Type], Conversion] = {}


def convert(value: Value, want: Type, *, defaults: bool = True) -> Value:
    """`value` converted to `want` (cty convert.Convert, after applying optional-attribute
    defaults of `want` unless `defaults` is False). Raises ConversionError with cty's message."""
    have = value.type
    if isinstance(want, PrimitiveType) and isinstance(have, PrimitiveType):
        # the common case (a number into a string template, a string attribute): no
        # defaults or optional attributes to consider, one conversion per pair of types
        if have is want or have == want:
            return value
        pconv = _PRIMITIVE_CONVERSIONS.get((have, want))
        if pconv is None:
            pconv = get_conversion(have, want, unsafe=True)
            if pconv is None:
                from engine.values.mismatch import mismatch_message

                raise ConversionError(mismatch_message(have, want))
            _PRIMITIVE_CONVERSIONS[(have, want)] = pconv
        return pconv(value, ())
    from engine.values.defaults import apply_defaults, has_defaults

    if defaults and has_defaults(want):
        value = apply_defaults(value, want)
    if value.type == want and not _has_optional(want):
        return value
    conv = get_conversion(value.type, want, unsafe=True)
    if conv is None:
        from engine.values.mismatch import mismatch_message

        raise ConversionError(mismatch_message(value.type, want))
    return conv(value, ())


def can_convert(have: Type, want: Type, unsafe: bool = True) -> bool:
    """Whether cty has a conversion from `have` to `want` (safe-only when `unsafe` is False)."""
    return have == want or get_conversion(have, want, unsafe) is not None
