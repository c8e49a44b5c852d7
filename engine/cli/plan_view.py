"""The human plan for configurations without resources: "Changes to Outputs:".

`OutputDiff` holds one root output's previous value (from state) and planned value, as JSON
data with exact numbers (`ABSENT` when there is none); `render_output_changes` lays them out
as Terraform does, with names padded to a common width and sensitive values hidden.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from engine.cli.diffrender import (
    ABSENT,
    DELETE,
    NOOP,
    SIGNS,
    TO_NULL,
    compute,
    finish,
    render_change,
)

SIGN_COLORS = {"+": "\x1b[32m+", "-": "\x1b[31m-", "~": "\x1b[33m~"}
_SIGN_LINE = re.compile(r"^( *)([+\-~]) ")


@dataclass(slots=True)
class OutputDiff:
    name: str
    before: Any = ABSENT
    after: Any = ABSENT
    before_sensitive: bool = False
    after_sensitive: bool = False

    def __post_init__(self) -> None:
        # A null output is no output: Terraform neither stores nor shows it.
        if self.before is None:
            self.before = ABSENT
        if self.after is None:
            self.after = ABSENT

    def action(self) -> str:
        # A change of sensitivity alone is no change to show (Terraform shows none either).
        return compute(self.before, self.after).action


def has_changes(diffs: list[OutputDiff]) -> bool:
    return any(d.action() != NOOP for d in diffs)


def _color_signs(text: str) -> str:
    """Colour each line's change sign as Terraform does (`ESC[32m+ESC[0mESC[0m`)."""
    out = []
    for line in text.split("\n"):
        m = _SIGN_LINE.match(line)
        if m:
            line = m.group(1) + SIGN_COLORS[m.group(2)] + "\x1b[0m\x1b[0m " + line[m.end():]
        out.append(line)
    return "\n".join(out)


def render_output_changes(diffs: list[OutputDiff], color: bool = False) -> str:
    """The "Changes to Outputs:" block, or "" when nothing changes (signs coloured when
    `color`; the text is final, not to be colourised again)."""
    shown = sorted((d for d in diffs if d.action() != NOOP), key=lambda d: d.name)
    if not shown:
        return ""
    # Names are padded to the longest of all outputs, changed or not, as Terraform does.
    width = max(len(d.name) for d in diffs)
    lines = ["Changes to Outputs:"]
    for d in shown:
        action = d.action()
        if d.before_sensitive or d.after_sensitive:
            text = "(sensitive value)"
        else:
            text = render_change(compute(d.before, d.after), 2)
            if action == DELETE and not text.endswith(TO_NULL):
                text += TO_NULL
        lines.append(f"  {SIGNS[action]} {d.name.ljust(width)} = {text}")
    block = "\n".join(lines) + "\n"
    return finish(_color_signs(block), True) if color else finish(block, False)
