"""The output-changes renderer against texts terraform 1.11 printed for the same changes."""

from __future__ import annotations

from typing import Any

from engine.cli.diffrender import ABSENT
from engine.cli.plan_view import OutputDiff, has_changes, render_output_changes
from engine.cli.ui import colorize
from engine.gocompat.json import loads


def j(text: str) -> Any:
    return loads(text)


def render(diffs: list[OutputDiff]) -> str:
    return colorize(render_output_changes(diffs), False)


def test_creates() -> None:
    got = render(
        [
            OutputDiff("nums", after=j("[1, 2.5, 3]")),
            OutputDiff("m", after=j('{"a": 1, "b": "x"}')),
            OutputDiff("empty", after=j("[]")),
            OutputDiff("secret", after=j('"x"'), after_sensitive=True),
            OutputDiff("multi", after="a\nb\n"),
            OutputDiff("n", after=None),
        ]
    )
    assert got == (
        "Changes to Outputs:\n"
        "  + empty  = []\n"
        "  + m      = {\n"
        "      + a = 1\n"
        '      + b = "x"\n'
        "    }\n"
        "  + multi  = <<-EOT\n"
        "        a\n"
        "        b\n"
        "    EOT\n"
        "  + nums   = [\n"
        "      + 1,\n"
        "      + 2.5,\n"
        "      + 3,\n"
        "    ]\n"
        "  + secret = (sensitive value)\n"
    )


def test_updates_and_deletes() -> None:
    got = render(
        [
            OutputDiff("added", after="new"),
            OutputDiff("empty", before=j("[]")),
            OutputDiff("greeting", before="hello world", after="hello there"),
            OutputDiff("m", before=j('{"a": 1, "b": "x"}'), after=j('{"a": 1, "b": "y", "c": 2}')),
            OutputDiff("nums", before=j("[1, 2.5, 3]"), after=j("[1, 2.5, 4, 5]")),
        ]
    )
    assert got == (
        "Changes to Outputs:\n"
        '  + added    = "new"\n'
        "  - empty    = [] -> null\n"
        '  ~ greeting = "hello world" -> "hello there"\n'
        "  ~ m        = {\n"
        '      ~ b = "x" -> "y"\n'
        "      + c = 2\n"
        "        # (1 unchanged attribute hidden)\n"
        "    }\n"
        "  ~ nums     = [\n"
        "        # (1 unchanged element hidden)\n"
        "        2.5,\n"
        "      - 3,\n"
        "      + 4,\n"
        "      + 5,\n"
        "    ]\n"
    )


def test_lists_objects_heredocs() -> None:
    got = render(
        [
            OutputDiff("gone", before=j('{"q": [1]}')),
            OutputDiff("h", before="a\nb\nc\n", after="a\nB\nc\n"),
            OutputDiff("l", before=j("[1,2,3,4,5,6]"), after=j("[1,2,3,9,5,6]")),
            OutputDiff("o", before=j('{"a": 1, "longname": 2}'), after=j('{"a": "2", "longname": 2}')),
            OutputDiff("e", before=j('["a", "b"]'), after=j('["b", "a"]')),
            OutputDiff(
                "lo",
                before=j('[{"a": 1, "b": 2}, {"a": 3, "b": 1}]'),
                after=j('[{"a": 1, "b": 2}, {"a": 3, "b": "2"}]'),
            ),
        ]
    )
    assert got == (
        "Changes to Outputs:\n"
        "  ~ e    = [\n"
        '      - "a",\n'
        '        "b",\n'
        '      + "a",\n'
        "    ]\n"
        "  - gone = {\n"
        "      - q = [\n"
        "          - 1,\n"
        "        ]\n"
        "    } -> null\n"
        "  ~ h    = <<-EOT\n"
        "        a\n"
        "      - b\n"
        "      + B\n"
        "        c\n"
        "    EOT\n"
        "  ~ l    = [\n"
        "        # (2 unchanged elements hidden)\n"
        "        3,\n"
        "      ~ 4 -> 9,\n"
        "        5,\n"
        "        # (1 unchanged element hidden)\n"
        "    ]\n"
        "  ~ lo   = [\n"
        "        {\n"
        "            a = 1\n"
        "            b = 2\n"
        "        },\n"
        "      ~ {\n"
        '          ~ b = 1 -> "2"\n'
        "            # (1 unchanged attribute hidden)\n"
        "        },\n"
        "    ]\n"
        "  ~ o    = {\n"
        '      ~ a        = 1 -> "2"\n'
        "        # (1 unchanged attribute hidden)\n"
        "    }\n"
    )


def test_no_changes() -> None:
    diffs = [OutputDiff("x", before=j("1"), after=j("1")), OutputDiff("n", ABSENT, None)]
    assert not has_changes(diffs)
    assert render_output_changes(diffs) == ""


def test_colour_tags() -> None:
    text = render_output_changes([OutputDiff("x", after=j("1"))], color=True)
    assert text == "Changes to Outputs:\n  \x1b[32m+\x1b[0m\x1b[0m x = 1\n"


def test_json_strings_render_as_jsonencode() -> None:
    got = render(
        [
            OutputDiff("jl", before='[1]', after='["2"]'),
            OutputDiff("js", before='{"a":1,"b":[1,2]}', after='{"a":"2","b":[1,2]}'),
            OutputDiff("mix", before='{"a":1}', after="plain"),
        ]
    )
    assert got == (
        "Changes to Outputs:\n"
        "  ~ jl  = jsonencode(\n"
        "      ~ [\n"
        '          ~ 1 -> "2",\n'
        "        ]\n"
        "    )\n"
        "  ~ js  = jsonencode(\n"
        "      ~ {\n"
        '          ~ a = 1 -> "2"\n'
        "            # (1 unchanged attribute hidden)\n"
        "        }\n"
        "    )\n"
        "  ~ mix = jsonencode(\n"
        "        {\n"
        "          - a = 1\n"
        "        }\n"
        '    ) -> "plain"\n'
    )


def test_unknown_values() -> None:
    from engine.cli.diffrender import UNKNOWN

    got = render(
        [
            OutputDiff("flip", before="x", after="x", before_sensitive=False, after_sensitive=True),
            OutputDiff("l", before=j('[1, "old"]'), after=[j("1"), UNKNOWN]),
            OutputDiff("n", after=[j("1"), UNKNOWN]),
            OutputDiff("t", before="2026", after=UNKNOWN),
        ]
    )
    assert got == (
        "Changes to Outputs:\n"
        "  ~ l    = [\n"
        "        1,\n"
        '      ~ "old" -> (known after apply),\n'
        "    ]\n"
        "  + n    = [\n"
        "      + 1,\n"
        "      + (known after apply),\n"
        "    ]\n"
        '  ~ t    = "2026" -> (known after apply)\n'
    )
