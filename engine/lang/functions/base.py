"""The function machinery, as cty's `function` package defines it.

A `Function` declares its parameters and a variadic parameter, how its return type follows from
its argument types, and its implementation. `call()` does the generic part for every function:
argument count, conversion of each argument to its parameter type, unknown and null handling,
and marks (sensitive values), as cty's `Function.Call`: unless a parameter allows them, every
mark anywhere inside the argument (cty's UnmarkDeep) is removed before the return type and the
implementation see it, and the union of all those marks is put on the whole result, also when
the result is unknown because an argument is. Parameters with `allow_marked` receive their
argument as given and the implementation is responsible for its marks.

Implementations raise `FunctionError` (pointing at an argument by index when it is that
argument's fault); the evaluator turns it into Terraform's "Invalid function argument" or
"Error in function call" diagnostic.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from engine.values import DYNAMIC, UNKNOWN, Type, Value, unknown
from engine.values.refinement import RefinementBuilder, refine


class FunctionError(Exception):
    """A function failed; `arg_index` names the argument at fault, when there is one."""

    def __init__(self, message: str, arg_index: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.arg_index = arg_index


@dataclass(frozen=True, slots=True)
class Param:
    """A parameter, with cty's Parameter flags.

    Marks: by default every mark inside the argument is removed before the function sees it
    and put on the whole result. `keep_nested_marks` removes only the argument's own (top-level)
    marks that way and lets the marks inside it reach the implementation, which carries them on
    the parts of the result built from those values (cty functions that `Unmark()` an
    AllowMarked argument at the top: `reverse([sensitive("a"), "b"])` marks only one element).
    `allow_marked` passes the argument as given: the implementation handles all its marks.
    """

    name: str
    type: Type = DYNAMIC
    allow_null: bool = False
    allow_unknown: bool = False
    allow_dynamic: bool = False
    allow_marked: bool = False
    keep_nested_marks: bool = False


ReturnTypeFn = Callable[[Sequence[Value]], Type]
ImplFn = Callable[[Sequence[Value], Type], Value]
RefineFn = Callable[[RefinementBuilder], RefinementBuilder]


def not_null(b: RefinementBuilder) -> RefinementBuilder:
    """The refinement most functions give an unknown result: it is not null."""
    return b.not_null()


@dataclass(frozen=True, slots=True)
class Function:
    """A built-in function.

    `return_type(args)` computes the result type from the (converted) arguments, whose values
    may be unknown; `impl(args, ret_type)` computes the result from known (unless allowed)
    arguments. `impure` functions (timestamp, uuid) return unknown during plan.
    `refine_result` (cty's RefineResult) refines every unknown result, whether an unknown
    argument or the implementation made it so; see `refine_results`.
    """

    name: str
    params: tuple[Param, ...]
    impl: ImplFn
    return_type: ReturnTypeFn
    var_param: Param | None = None
    impure: bool = False
    description: str = ""
    extra: dict[str, object] = field(default_factory=dict)
    refine_result: RefineFn | None = None


def refine_results(functions: Sequence[Function], *, unrefined: Sequence[str] = ()
                   ) -> list[Function]:
    """`functions`, each refining its unknown results as not null (as most of cty's and
    terraform's functions do) unless it is named in `unrefined` or refines them already."""
    skip = frozenset(unrefined)
    unknown_names = skip - {f.name for f in functions}
    if unknown_names:
        raise ValueError(f"no such functions here: {sorted(unknown_names)}")
    return [f if f.name in skip or f.refine_result is not None
            else replace(f, refine_result=not_null) for f in functions]


def static_return(t: Type) -> ReturnTypeFn:
    """A return-type function for functions whose result type never varies."""

    def _ret(args: Sequence[Value]) -> Type:
        return t

    return _ret


def call(fn: Function, args: Sequence[Value], *, plan_phase: bool = False) -> Value:
    """Call `fn` with `args` (already expanded), doing cty's generic argument handling.

    Raises FunctionError for a wrong argument count or an argument that does not convert.
    """
    from engine.values.convert import ConversionError, convert

    params = fn.params
    n_fixed = len(params)
    if len(args) < n_fixed or (fn.var_param is None and len(args) > n_fixed):
        if fn.var_param is None:
            expect = f"{n_fixed} argument" + ("" if n_fixed == 1 else "s")
            msg = f"Function \"{fn.name}\" expects {expect}"
        else:
            msg = f"Function \"{fn.name}\" expects at least {n_fixed} argument" + (
                "" if n_fixed == 1 else "s"
            )
        raise FunctionError(msg + ".", None)

    converted: list[Value] = []
    marks: set[str] = set()
    any_unknown = False
    dynamic_arg = False
    for i, arg in enumerate(args):
        p = params[i] if i < n_fixed else fn.var_param
        assert p is not None
        if arg.v is None and not p.allow_null:
            raise FunctionError("argument must not be null", i)
        if arg.type == DYNAMIC and not p.allow_dynamic and not arg.is_known:
            # cty: an argument of unknown type makes the return type unknown too, before any
            # type checking (`concat(<unknown>, [""])` is unknown, not "must be lists").
            dynamic_arg = True
        if p.type != DYNAMIC or p.allow_dynamic:
            try:
                arg = convert(arg, p.type) if p.type != DYNAMIC else arg
            except ConversionError as exc:
                raise FunctionError(exc.message, i) from None
        if p.allow_marked:
            pass
        elif p.keep_nested_marks:
            arg, m = arg.unmark()
            marks |= m
        else:
            arg, m = arg.unmark_deep()
            marks |= m
        if not arg.is_known and not p.allow_unknown:
            any_unknown = True
        converted.append(arg)

    if dynamic_arg:  # nothing sees the arguments: their marks (even allowed ones) go on top
        for a in args:
            marks |= a.unmark_deep()[1]
    ret_type = DYNAMIC if dynamic_arg else fn.return_type(converted)
    if any_unknown or dynamic_arg or (fn.impure and plan_phase):
        result = unknown(ret_type)
    else:
        result = fn.impl(converted, ret_type)
    if result.v is UNKNOWN and fn.refine_result is not None:
        result = fn.refine_result(refine(result)).new_value()
    if marks:
        result = result.with_marks(frozenset(marks))
    return result
