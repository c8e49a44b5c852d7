"""Built-in functions: explicit type conversion and marks (tobool, tolist, tomap, tonumber,
toset, tostring, sensitive, nonsensitive, issensitive, ephemeralasnull).

The `to...` functions take any value (null, unknown and marked included), convert it with
cty's unsafe conversion rules and report failures with Terraform's wording for explicit
conversions. `type()` is not here: Terraform offers it only in `terraform console`.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.gocompat.strconv import quote as go_quote
from engine.lang.functions.base import Function, FunctionError, Param, refine_results, static_return
from engine.values import (
    BOOL,
    DYNAMIC,
    NUMBER,
    STRING,
    ListType,
    MapType,
    ObjectType,
    SetType,
    TupleType,
    Type,
    Value,
    boolean,
    null,
    unknown,
)
from engine.values.value import SENSITIVE

EPHEMERAL = "ephemeral"

_ANY_PARAM = Param(
    "v", DYNAMIC, allow_null=True, allow_unknown=True, allow_dynamic=True, allow_marked=True
)


def _value_param(name: str = "value") -> Param:
    return Param(
        name, DYNAMIC, allow_null=True, allow_unknown=True, allow_dynamic=True, allow_marked=True
    )


def _make_to(name: str, want: Type) -> Function:
    """A `to...` function converting its argument to the type constraint `want`."""
    from engine.values.convert import friendly_name_for_constraint, get_conversion
    from engine.values.mismatch import mismatch_message

    want_name = friendly_name_for_constraint(want)

    def _ret(args: Sequence[Value]) -> Type:
        got = args[0].type
        if got == want:
            return want
        if get_conversion(got, want, unsafe=True) is None:
            if isinstance(got, TupleType) and isinstance(want, TupleType):
                msg = f"incompatible tuple type for conversion: {mismatch_message(got, want)}"
            elif isinstance(got, ObjectType) and isinstance(want, ObjectType):
                msg = f"incompatible object type for conversion: {mismatch_message(got, want)}"
            else:
                msg = f"cannot convert {got.friendly_name()} to {want_name}"
            raise FunctionError(msg, 0)
        return want

    def _impl(args: Sequence[Value], ret: Type) -> Value:
        from engine.values.convert import ConversionError, convert

        arg = args[0]
        if not arg.is_known:  # a plain unknown: terraform's to* functions keep no refinement
            return unknown(ret).with_marks(arg.marks)
        try:
            return convert(arg, ret)
        except ConversionError:
            plain, marks = arg.unmark_deep()
            got = plain.type
            if SENSITIVE in marks:
                msg = f"cannot convert this sensitive {got.friendly_name()} to {want_name}"
            elif got == STRING and want in (BOOL, NUMBER):
                what = "string" if plain.v is None else go_quote(plain.v)
                if want == BOOL:
                    msg = (
                        f"cannot convert {what} to bool; "
                        'only the strings "true" or "false" are allowed'
                    )
                else:
                    msg = (
                        f"cannot convert {what} to number; "
                        "given string must be a decimal representation of a number"
                    )
            else:
                msg = f"cannot convert {got.friendly_name()} to {want_name}"
            raise FunctionError(msg, 0) from None

    return Function(name, (_ANY_PARAM,), _impl, _ret)


def _same_type(args: Sequence[Value]) -> Type:
    return args[0].type


def _sensitive(args: Sequence[Value], ret: Type) -> Value:
    return args[0].mark(SENSITIVE)


def _nonsensitive(args: Sequence[Value], ret: Type) -> Value:
    v, marks = args[0].unmark()
    return v.with_marks(marks - {SENSITIVE})


def _issensitive(args: Sequence[Value], ret: Type) -> Value:
    v = args[0]
    if v.is_sensitive:
        return boolean(True)
    if not v.is_known:
        return unknown(BOOL)
    return boolean(False)


def ephemeral_as_null(v: Value) -> Value:
    """`v` with every ephemeral-marked part (at any depth) replaced by a null of its type."""
    if EPHEMERAL in v.marks:
        rest = v.marks - {EPHEMERAL}
        replaced = unknown(v.type) if not v.is_known else null(v.type)
        return replaced.with_marks(rest)
    if isinstance(v.v, list):
        return Value(v.type, [ephemeral_as_null(e) for e in v.v], v.marks)
    if isinstance(v.v, dict):
        return Value(v.type, {k: ephemeral_as_null(e) for k, e in v.v.items()}, v.marks)
    return v


def _ephemeralasnull(args: Sequence[Value], ret: Type) -> Value:
    return ephemeral_as_null(args[0])


FUNCTIONS: list[Function] = refine_results([
    _make_to("tobool", BOOL),
    _make_to("tolist", ListType(DYNAMIC)),
    _make_to("tomap", MapType(DYNAMIC)),
    _make_to("tonumber", NUMBER),
    _make_to("toset", SetType(DYNAMIC)),
    _make_to("tostring", STRING),
    Function("sensitive", (_value_param(),), _sensitive, _same_type),
    Function("nonsensitive", (_value_param(),), _nonsensitive, _same_type),
    Function("issensitive", (_value_param(),), _issensitive, static_return(BOOL)),
    Function("ephemeralasnull", (_value_param(),), _ephemeralasnull, _same_type),
    # terraform's conversions give a plain unknown for an unknown argument; the others
    # return their argument as it is
], unrefined=("tobool", "tolist", "tomap", "tonumber", "toset", "tostring", "sensitive",
              "nonsensitive", "issensitive", "ephemeralasnull"))
