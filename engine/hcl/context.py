"""Which block a source range sits in, for the `in resource "x" "y":` part of messages.

As HCL's navigation.ContextString (which Terraform uses): the *top-level* block whose
source (type keyword to closing brace) contains the range's start, named by its type and
quoted labels, e.g. `resource "terraform_data" "x"`. Parsed files are remembered weakly by
their SourceFile, holding only plain offsets so the index never keeps a file alive.
"""

from __future__ import annotations

import weakref

from engine.hcl.ast import Block, File
from engine.source import Range, SourceFile

_files: weakref.WeakKeyDictionary[SourceFile, list[tuple[int, int, str]]] = (
    weakref.WeakKeyDictionary()
)
_registered = False


def register_file(file: File) -> None:
    """Remember a parsed file so that ranges in it can be given a block context (and, on
    first use, register `block_context` with the diagnostic renderer)."""
    global _registered
    if not _registered:
        from engine.diags.render import register_context_finder

        register_context_finder(block_context)
        _registered = True
    _files[file.source] = [
        (b.type_range.start_offset, b.close_brace_range.end_offset, block_header(b))
        for b in file.body.blocks
    ]


def alias_file(source: SourceFile, same_as: SourceFile) -> None:
    """Let ranges in `source` find their context in `same_as` (for nodes parsed from a
    piece of a file but positioned in the whole file's text)."""
    entries = _files.get(same_as)
    if entries is not None:
        _files[source] = entries


def block_header(block: Block) -> str:
    """`type "label1" "label2"` as Terraform prints a block header (labels Go-quoted)."""
    parts = [block.type]
    for label in block.labels:
        parts.append('"' + label.replace("\\", "\\\\").replace('"', '\\"') + '"')
    return " ".join(parts)


def block_context(rng: Range) -> str | None:
    """The header of the top-level block enclosing `rng`, if its file was parsed here."""
    entries = _files.get(rng.file)
    if not entries:
        return None
    offset = rng.start_offset
    for start, end, header in entries:
        if start <= offset < end:
            return header
    return None
