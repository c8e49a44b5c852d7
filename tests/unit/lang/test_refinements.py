"""Expressions over refined unknowns. Expected results are terraform 1.11's plan-time values
(tests/conformance/test_refinements.py compares many more with terraform itself); here
`var.us` is an unknown string that may be null and `var.ns` one known not to be."""

from __future__ import annotations

import pytest

from engine.values import STRING, Value, number, object_, string, unknown
from engine.values.refinement import refine_not_null
from tests.unit.lang.helpers import ctx, show


def _vars() -> dict[str, Value]:
    return {"var": object_({"us": unknown(STRING), "ns": refine_not_null(unknown(STRING)),
                            "n": number(1), "s": string("a")})}


@pytest.mark.parametrize(("src", "want"), [
    ('"${var.us}-y" != null', "true"),
    ('var.us != null', "(known after apply)"),
    ('var.ns == null', "false"),
    ('"ab-${var.us}" == "zz"', "false"),
    ('"ab-${var.us}" == "ab-"', "(known after apply)"),
    ('startswith("ab-${var.us}", "ab")', "true"),
    ('startswith("abc${var.us}", "abc")', "(known after apply)"),
    ('startswith("abc-${var.us}", "abd")', "false"),
    ('length("ab-${var.us}") > 2', "true"),
    ('length(var.us) == -1', "false"),
    ('length(split(",", var.us)) < 9999999999999999999', "true"),
    ('(var.ns == "x" ? 1 : 2) > 0', "true"),
    ('(var.ns == "x" ? 1 : 2) >= 1', "(known after apply)"),
    ('(var.ns == "x" ? 1 : 2) == 5', "false"),
    ('length(var.ns == "x" ? tolist(["a"]) : tolist(["b", "c"])) < 3', "true"),
    ('length(var.ns[*])', "1"),
    ('length(var.us[*])', "(known after apply)"),
    ('upper(var.us) != null', "true"),
    ('strcontains(var.us, "a") != null', "(known after apply)"),
    ('tostring(var.ns) != null', "(known after apply)"),
    ('length(toset([var.us, "a"])) < 3', "true"),
    ('(var.us == "a") != null', "true"),
])
def test_refined_results(src: str, want: str) -> None:
    assert show(src, ctx(_vars(), plan=True)) == want


def test_a_list_of_known_length_is_known() -> None:
    assert show('var.ns == "x" ? tolist(["a"]) : tolist(["b"])', ctx(_vars())) == (
        "tolist([\n  (known after apply),\n])")
