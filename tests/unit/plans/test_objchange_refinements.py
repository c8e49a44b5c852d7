"""A provider's final values against refined planned placeholders (terraform's
assertValueCompatible: the final value must be one the placeholder's refinements allow)."""

from __future__ import annotations

from engine.plans.objchange import assert_object_compatible, cty_string
from engine.plugin.schema import Block
from engine.values import NUMBER, STRING, null, number, object_, string, unknown
from engine.values.refinement import refine, refine_not_null


def test_final_values_must_fit_the_refinements() -> None:
    planned = object_({
        "id": refine_not_null(unknown(STRING)),
        "name": refine(unknown(STRING)).not_null().string_prefix("ab-").new_value(),
        "size": refine(unknown(NUMBER)).number_lower_bound(0, True).new_value(),
    })
    good = object_({"id": string("x"), "name": string("ab-1"), "size": number(0)})
    assert assert_object_compatible(Block(), planned, good) == []
    bad = object_({"id": null(STRING), "name": string("zz"), "size": number(-1)})
    assert assert_object_compatible(Block(), planned, bad) == [
        '.id: final value cty.NullVal(cty.String) does not conform to planning placeholder '
        'cty.UnknownVal(cty.String).Refine().NotNull().NewValue()',
        '.name: final value cty.StringVal("zz") does not conform to planning placeholder '
        'cty.UnknownVal(cty.String).Refine().NotNull().StringPrefixFull("ab-").NewValue()',
        '.size: final value cty.NumberIntVal(-1) does not conform to planning placeholder '
        'cty.UnknownVal(cty.Number).Refine().NumberRangeLowerBound(cty.NumberIntVal(0), true)'
        '.NewValue()',
    ]


def test_unrefined_placeholders_allow_anything() -> None:
    assert cty_string(unknown(STRING)) == "cty.UnknownVal(cty.String)"
    planned = object_({"id": unknown(STRING)})
    assert assert_object_compatible(Block(), planned, object_({"id": null(STRING)})) == []
