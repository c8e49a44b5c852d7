"""Regenerate the Python modules for the plugin protocol definitions in this package.

`python -m engine.plugin.proto.generate` (needs grpcio-tools, the `dev` extra) writes
`<name>_pb2.py`, `<name>_pb2.pyi` and `<name>_pb2_grpc.py` next to each `.proto` here, with
imports rooted at the repository (`engine.plugin.proto.<name>_pb2`). The generated modules are
committed, so a fresh clone needs no code generation; rerun this after editing a `.proto`.
"""

from __future__ import annotations

import sys
from pathlib import Path

PROTO_DIR = Path(__file__).resolve().parent
ROOT = PROTO_DIR.parents[2]
PROTOS = ("tfplugin5.proto", "tfplugin6.proto", "grpc_controller.proto")


def generate() -> int:
    """Run protoc over every definition; returns protoc's exit status (0 on success)."""
    from grpc_tools import protoc  # dev-only dependency

    include = Path(protoc.__file__).resolve().parent / "_proto"
    rel = [str((PROTO_DIR / name).relative_to(ROOT)) for name in PROTOS]
    args = [
        "grpc_tools.protoc",
        f"-I{ROOT}",
        f"-I{include}",
        f"--python_out={ROOT}",
        f"--pyi_out={ROOT}",
        f"--grpc_python_out={ROOT}",
        *rel,
    ]
    return int(protoc.main(args))


if __name__ == "__main__":
    sys.exit(generate())
