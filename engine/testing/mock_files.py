"""`mock_provider { source = "DIR" }`: mock data shared through `*.tfmock.hcl` files.

Each `.tfmock.hcl` (or `.tfmock.json`) file in DIR (relative to the module directory) may hold
`mock_resource`, `mock_data`, `override_resource` and `override_data` blocks; they join the
mock provider's own, which win where both define the same type or target.
"""

from __future__ import annotations

import os

from engine.configs.syntax import BlockSchema, BodySchema, content
from engine.diags import Diagnostics, error
from engine.testing.files import MockProvider, TestFile, add_mock_blocks

MOCK_FILE_SCHEMA = BodySchema(blocks=(
    BlockSchema("mock_resource", ("type",)), BlockSchema("mock_data", ("type",)),
    BlockSchema("override_resource"), BlockSchema("override_data")))


def _load_dir(mock: MockProvider, base: str) -> Diagnostics:
    from engine.hcl import parse_file, parse_json_file

    diags = Diagnostics()
    directory = os.path.join(base, mock.source)
    try:
        names = sorted(n for n in os.listdir(directory)
                       if n.endswith(".tfmock.hcl") or n.endswith(".tfmock.json"))
    except OSError as exc:
        diags.append(error("Failed to load mock data",
                           f"Could not read the mock data directory {mock.source}: "
                           f"{exc.strerror}.", mock.decl_range))
        return diags
    for n in names:
        rel = os.path.join(mock.source, n)
        with open(os.path.join(directory, n), encoding="utf-8") as fh:
            text = fh.read()
        parsed, more = parse_json_file(text, rel) if n.endswith(".json") else parse_file(text, rel)
        diags.extend(more)
        if parsed is None:
            continue
        got, more = content(parsed.body, MOCK_FILE_SCHEMA)
        diags.extend(more)
        add_mock_blocks(mock, got.blocks, diags, keep_existing=True)
    return diags


def load_mock_sources(tf: TestFile, base: str) -> Diagnostics:
    """Load the `source` directories of `tf`'s mock providers (see the module docstring)."""
    diags = Diagnostics()
    for mock in tf.mocks.values():
        if mock.source:
            diags.extend(_load_dir(mock, base))
    return diags
