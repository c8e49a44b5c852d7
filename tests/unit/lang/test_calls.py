"""Function calls, argument expansion, and the lazy `try`/`can`.

Expected values and diagnostic texts were verified against terraform v1.11.4 (`terraform
console`; `try`/`can` over unknowns with `terraform plan`).
"""

from __future__ import annotations

import pytest

from engine.hcl.ast import FunctionCallExpr
from engine.lang import EvalContext, evaluate
from engine.lang.functions.base import Function, FunctionError, Param, static_return
from engine.lang.functions.special import CAN, TRY
from engine.values import BOOL, DYNAMIC, NUMBER, STRING, UNKNOWN, ListType, Value, number, string

from .helpers import ctx, default_vars, only_error, parse, run, show, subject_text, value

SENSITIVE = frozenset({"sensitive"})


@pytest.mark.parametrize(
    ("src", "expected"),
    [
        ('upper("x")', '"X"'),
        ("max([1,5,2]...)", "5"),
        ("max(1, [2]...)", "2"),
        ('upper(["a"]...)', '"A"'),
        ('try(upper([]), "x")', '"x"'),
        ("try(1, 2)", "1"),
        ("can(upper([]))", "false"),
        ('can(upper("a"))', "true"),
        ("try(var.nope, 2)", "2"),
        ("can(var.nope)", "false"),
    ],
)
def test_call_results(src: str, expected: str) -> None:
    assert show(src) == expected


@pytest.mark.parametrize(
    ("src", "summary", "detail", "subject"),
    [
        ("nofunc(1)", "Call to unknown function", 'There is no function named "nofunc".', "nofunc"),
        (
            'uper("a")',
            "Call to unknown function",
            'There is no function named "uper". Did you mean "upper"?',
            "uper",
        ),
        (
            "upper()",
            "Not enough function arguments",
            'Function "upper" expects 1 argument(s). Missing value for "str".',
            ")",
        ),
        (
            'substr("abc", 1)',
            "Not enough function arguments",
            'Function "substr" expects 3 argument(s). Missing value for "length".',
            ")",
        ),
        (
            "join()",
            "Not enough function arguments",
            'Function "join" expects at least 1 argument(s). Missing value for "separator".',
            ")",
        ),
        (
            'upper("a", "b")',
            "Too many function arguments",
            'Function "upper" expects only 1 argument(s).',
            "b",  # HCL: a template's StartRange is its first part, inside the quotes
        ),
        (
            'upper(["a","b"]...)',
            "Too many function arguments",
            'Function "upper" expects only 1 argument(s).',
            '["a","b"]',
        ),
        ("upper({})", "Invalid function argument", 'Invalid value for "str" parameter: string required.', "{"),
        (
            "abs(null)",
            "Invalid function argument",
            'Invalid value for "num" parameter: argument must not be null.',
            "null",
        ),
        (
            "max()",
            "Error in function call",
            'Call to function "max" failed: must pass at least one number.',
            "max(",
        ),
        (
            'join(",")',
            "Error in function call",
            'Call to function "join" failed: at least one list is required.',
            "join(",
        ),
        (
            "max(null...)",
            "Invalid expanding argument value",
            "The expanding argument (indicated by ...) must not be null.",
            "null",
        ),
        (
            "max(1...)",
            "Invalid expanding argument value",
            "The expanding argument (indicated by ...) must be of a tuple, list, or set type.",
            "1",
        ),
        (
            "can()",
            "Not enough function arguments",
            'Function "can" expects 1 argument(s). Missing value for "expression".',
            ")",
        ),
        ("can(1, 2)", "Too many function arguments", 'Function "can" expects only 1 argument(s).', "2"),
        (
            "try()",
            "Error in function call",
            'Call to function "try" failed: at least one argument is required.',
            "try(",
        ),
    ],
)
def test_call_errors(src: str, summary: str, detail: str, subject: str) -> None:
    d = only_error(src)
    assert (d.summary, d.detail) == (summary, detail)
    assert subject_text(d) == subject
    assert d.context is not None and d.context.text() == src


def test_call_errors_name_the_function_signature() -> None:
    # terraform prints "while calling upper(str)" above the value lines
    d = only_error("upper(var.n == 1 ? {} : {})")
    assert d.values[0].traversal == "while calling"
    assert d.values[0].statement == "upper(str)"
    assert [(v.traversal, v.statement) for v in d.values[1:]] == [("var.n", "is 1")]
    assert only_error("join()").values[0].statement == "join(separator, lists...)"
    assert only_error("nofunc()").values == ()


def test_unknown_function_suggestions_only_from_the_immediate_scope() -> None:
    # terraform: inside a for expression the did-you-mean suggestion is absent
    d = only_error("[for x in [1]: uper(x)]")
    assert d.detail == 'There is no function named "uper".'


def test_functions_not_allowed_without_a_function_table() -> None:
    d = only_error('upper("a")', ctx(functions=False))
    assert (d.summary, d.detail) == ("Function calls not allowed", "Functions may not be called here.")


def test_try_failure_lists_every_attempt() -> None:
    d = only_error("try(upper([]))")
    assert d.summary == "Error in function call"
    assert d.detail == (
        'Call to function "try" failed: no expression succeeded:\n'
        "- Invalid function argument (at test.tf:1,11-12)\n"
        '  Invalid value for "str" parameter: string required.\n'
        "\nAt least one expression must produce a successful result."
    )


def test_try_and_can_with_unknowns() -> None:
    # terraform plan: try(unknown.foo, 1) = 1 (the reference is an error, not an unknown),
    # can(unknown.foo) = false
    assert value("try(var.un.foo, 1)") == number(1)
    assert value("can(var.un.foo)") == Value(BOOL, False)
    assert value("try(var.un, 1)") == Value(DYNAMIC, UNKNOWN)
    assert value("can(var.un + 1)") == Value(BOOL, UNKNOWN)
    assert value("try(var.n, var.un)") == number(1)


def test_try_keeps_marks_of_the_chosen_value() -> None:
    assert value("try(var.secret, 1)") == Value(STRING, "hunter2", SENSITIVE)


def test_call_marks_and_unknowns() -> None:
    assert value("upper(var.secret)") == Value(STRING, "HUNTER2", SENSITIVE)
    assert value("upper(var.us)") == Value(STRING, UNKNOWN)
    assert value("max(var.un, 1)") == Value(NUMBER, UNKNOWN)


def test_impure_function_is_unknown_during_plan() -> None:
    impure = Function(
        name="now",
        params=(),
        impl=lambda args, ret: string("2024-01-01"),
        return_type=static_return(STRING),
        impure=True,
    )
    funcs = {"now": impure}
    assert value("now()", EvalContext(default_vars(), funcs)) == string("2024-01-01")
    assert value("now()", EvalContext(default_vars(), funcs, plan_phase=True)) == Value(STRING, UNKNOWN)


def test_function_error_with_argument_index_points_at_the_argument() -> None:
    def impl(args: object, ret: object) -> Value:
        raise FunctionError("too large", 1)

    fn = Function(
        name="pick",
        params=(Param("a", NUMBER), Param("b", NUMBER)),
        impl=impl,
        return_type=static_return(NUMBER),
    )
    c = EvalContext(default_vars(), {"pick": fn})
    val, diags = run("pick(1, 20)", c)
    assert val == Value(DYNAMIC, UNKNOWN)
    (d,) = diags
    assert (d.summary, d.detail) == ("Invalid function argument", 'Invalid value for "b" parameter: too large.')
    assert subject_text(d) == "20"


def test_try_and_can_called_as_plain_functions() -> None:
    # with values already evaluated, every argument succeeded
    from engine.lang.functions.base import call

    assert call(TRY, [number(1), number(2)]) == number(1)
    assert call(CAN, [string("x")]) == Value(BOOL, True)


def test_try_and_can_argument_expressions_are_evaluated_lazily() -> None:
    expr = parse("try(var.nope, 3)")
    assert isinstance(expr, FunctionCallExpr)
    val, diags = evaluate(expr, ctx())
    assert val == number(3) and not diags


def test_try_and_can_from_a_function_table_stay_lazy() -> None:
    c = EvalContext(default_vars(), {"try": TRY, "can": CAN})
    assert value("try(var.nope, 4)", c) == number(4)
    assert value("can(var.nope)", c) == Value(BOOL, False)


def test_expanded_arguments_carry_the_collection_marks() -> None:
    variables = default_vars()
    variables["sl"] = Value(
        ListType(STRING),
        [string("a")],
        SENSITIVE,
    )
    assert value("upper(sl...)", ctx(variables)) == Value(STRING, "A", SENSITIVE)


def test_expanding_an_unknown_list_gives_unknown() -> None:
    assert value("max(var.l...)") == number(2)
    variables = default_vars()
    variables["ul"] = Value(DYNAMIC, UNKNOWN)
    assert value("max(ul...)", ctx(variables)) == Value(DYNAMIC, UNKNOWN)
