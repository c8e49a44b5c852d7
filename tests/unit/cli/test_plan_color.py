"""Terraform's colours on the parts of a plan the renderer colours (bytes as terraform's)."""

from __future__ import annotations

from engine.cli.plan_color import color_plan

G, R, Y, GREY, END = "\x1b[32m", "\x1b[31m", "\x1b[33m", "\x1b[90m", "\x1b[0m\x1b[0m"


def test_no_changes_heading() -> None:
    text = ("\nNo changes. Your infrastructure matches the configuration.\n\n"
            "Terraform has compared your real infrastructure against your configuration\n")
    assert color_plan(text) == (
        "\n\x1b[0m\x1b[1m\x1b[32mNo changes.\x1b[0m\x1b[1m Your infrastructure matches the "
        "configuration.\x1b[0m\n\n\x1b[0mTerraform has compared your real infrastructure "
        "against your configuration\n")


def test_output_changes_signs_arrows_and_comments() -> None:
    text = ("\nChanges to Outputs:\n"
            '  + a = "x -> y"\n'
            "  - b = 1 -> null\n"
            "  ~ c = {\n"
            "      ~ k = 1 -> 2\n"
            "        # (2 unchanged attributes hidden)\n"
            "    }\n"
            "\nYou can apply this plan\n")
    assert color_plan(text) == (
        "\nChanges to Outputs:\n"
        f'  {G}+{END} a = "x -> y"\n'
        f"  {R}-{END} b = 1 {GREY}-> null{END}\n"
        f"  {Y}~{END} c = {{\n"
        f"      {Y}~{END} k = 1 {Y}->{END} 2\n"
        f"        {GREY}# (2 unchanged attributes hidden){END}\n"
        "    }\n"
        "\nYou can apply this plan\n")


def test_resource_bodies_stay_plain() -> None:
    text = "  # terraform_data.a will be created\n  + resource \"terraform_data\" \"a\" {\n"
    assert color_plan(text) == text
