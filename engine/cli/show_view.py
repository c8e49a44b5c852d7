"""The human view of state outputs (`terraform show`): `name = value`, 4-space nesting.

Values are rendered from their JSON form as the state renderer does: objects and maps as
`{ key = value }` with keys padded to a common width, arrays one element per line with a
trailing comma, multi-line strings as `<<-EOT` heredocs, sensitive values hidden.
"""

from __future__ import annotations

from typing import Any

from engine.cli.diffrender import attribute_name, format_primitive
from engine.states import OutputValue
from engine.states.codec import encode_value
from engine.states.gojson import RawNumber


def _render(v: Any, indent: int) -> str:
    pad = " " * indent
    if isinstance(v, dict):
        if not v:
            return "{}"
        width = max(len(attribute_name(k)) for k in v)
        body = [
            f"{pad}    {attribute_name(k).ljust(width)} = {_render(v[k], indent + 4)}"
            for k in sorted(v)
        ]
        return "{\n" + "\n".join(body) + f"\n{pad}}}"
    if isinstance(v, list):
        if not v:
            return "[]"
        body = [f"{pad}    {_render(e, indent + 4)}," for e in v]
        return "[\n" + "\n".join(body) + f"\n{pad}]"
    if isinstance(v, str) and not isinstance(v, RawNumber) and "\n" in v:
        text = v[:-1] if v.endswith("\n") else v
        lines = "\n".join(f"{pad}    {line}".rstrip() for line in text.split("\n"))
        return f"<<-EOT\n{lines}\n{pad}EOT"
    return format_primitive(v)


def render_state_outputs(outputs: dict[str, OutputValue]) -> str:
    """The "Outputs:" section `show` prints (after two blank lines, as Terraform does)."""
    lines = ["", "", "Outputs:", ""]
    for name in sorted(outputs):
        ov = outputs[name]
        text = "(sensitive value)" if ov.sensitive else _render(encode_value(ov.value), 0)
        lines.append(f"{name} = {text}")
    return "\n".join(lines) + "\n"
