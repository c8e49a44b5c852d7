"""The HCL parser: native syntax (`.tf`, `.tfvars`, `.tftest.hcl`), templates and JSON syntax.

Entry points return `(tree, Diagnostics)` and never raise on bad input:
- `parse_file(text, filename)`: a whole native-syntax file.
- `parse_expression(text, filename)`: one expression (console, `-var`, type constraints).
- `parse_template(text, filename)`: a bare template such as a `templatefile` file.
- `parse_json_file(text, filename)`: `.tf.json`/`.tfvars.json`, into the same tree types.

The names are loaded lazily, so importing `engine.hcl` (or one of its light modules such as
`ast`) does not pay for the parser. Positions (`Range`, `Pos`, `SourceFile`) live below in
`engine.source`, shared with `engine.diags`. The block context finder (`context.block_context`) is registered with the diagnostic renderer when
the first file is parsed, which is the first moment it can find anything.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.lazy_exports import lazy_exports

if TYPE_CHECKING:
    from engine.hcl.context import block_context
    from engine.hcl.json_body import attribute_as_blocks
    from engine.hcl.json_syntax import parse_json_file
    from engine.hcl.parser import parse_expression, parse_file, parse_template

_LAZY = {
    "parse_file": "engine.hcl.parser",
    "parse_expression": "engine.hcl.parser",
    "parse_template": "engine.hcl.parser",
    "parse_json_file": "engine.hcl.json_syntax",
    "attribute_as_blocks": "engine.hcl.json_body",
    "block_context": "engine.hcl.context",
}


__getattr__ = lazy_exports(globals(), _LAZY)


__all__ = [
    "attribute_as_blocks",
    "block_context",
    "parse_expression",
    "parse_file",
    "parse_json_file",
    "parse_template",
]
