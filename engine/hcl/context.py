"""Which block a source range sits in, for the `in resource "x" "y":` part of messages.

As HCL's navigation.ContextString (which Terraform uses): the *top-level* block whose
source (type keyword to closing brace) contains the range's start, named by its type and
quoted labels, e.g. `resource "terraform_data" "x"`. Parsed files are remembered weakly by
their SourceFile, holding only plain offsets so the index never keeps a file alive.
"""

from __future__ import annotations

import weakref

from engine.hcl.ast import Block, Expr, File, ObjectConsExpr, TupleConsExpr
from engine.source import Range, SourceFile

_files: weakref.WeakKeyDictionary[SourceFile, list[tuple[int, int, str]]] = (
    weakref.WeakKeyDictionary()
)
# a JSON file's objects and arrays: (start, end, [(step, child), ...]) in character offsets
_Nav = tuple[int, int, list[tuple[str, "_Nav"]]]
_json_files: weakref.WeakKeyDictionary[SourceFile, weakref.ref[File]] = (
    weakref.WeakKeyDictionary()
)
_json_navs: weakref.WeakKeyDictionary[SourceFile, _Nav] = weakref.WeakKeyDictionary()
_registered = False


def _register_finder() -> None:
    global _registered
    if not _registered:
        from engine.diags.render import register_context_finder

        register_context_finder(block_context)
        _registered = True


def register_json_file(file: File) -> None:
    """Remember a parsed JSON file, so that ranges in it get HCL's JSON context: the path
    of property names and indexes (`resource.aws_instance.web`, `[0]`) to the innermost
    object or array holding them. Its index is built on the first question (from the file
    if it is still alive, else, as terraform does, by parsing the text again)."""
    _register_finder()
    _json_files[file.source] = weakref.ref(file)


def _json_nav(source: SourceFile) -> _Nav | None:
    nav = _json_navs.get(source)
    if nav is not None:
        return nav
    ref = _json_files.get(source)
    if ref is None:
        return None
    file = ref()
    if file is not None and file.body.json_value is not None:
        root = file.body.json_value
    else:
        from engine.hcl.json_syntax import parse_json_value
        from engine.source import JSONSourceFile

        root, _ = parse_json_value(JSONSourceFile(source.filename, source.text))
    nav = _json_navs[source] = _nav(root)
    return nav


def _nav(value: Expr) -> _Nav:
    children: list[tuple[str, _Nav]] = []
    if isinstance(value, ObjectConsExpr):
        for item in value.items:
            v = item.value
            if isinstance(v, (ObjectConsExpr, TupleConsExpr)):
                children.append(("." + item.key.wrapped.value.v, _nav(v)))  # type: ignore[attr-defined]
    elif isinstance(value, TupleConsExpr):
        for i, v in enumerate(value.exprs):
            if isinstance(v, (ObjectConsExpr, TupleConsExpr)):
                children.append((f"[{i}]", _nav(v)))
    return (value.range.start_offset, value.range.end_offset, children)


def _json_context(nav: _Nav, offset: int) -> str | None:
    steps: list[str] = []
    node = nav
    while True:
        for step, child in node[2]:
            if child[0] <= offset < child[1]:
                steps.append(step)
                node = child
                break
        else:
            break
    text = "".join(steps)
    return text[1:] if text.startswith(".") else (text or None)


def register_file(file: File) -> None:
    """Remember a parsed file so that ranges in it can be given a block context (and, on
    first use, register `block_context` with the diagnostic renderer)."""
    _register_finder()
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
    """The header of the top-level block enclosing `rng`, if its file was parsed here (in
    a JSON file: the path to the innermost object or array enclosing it)."""
    nav = _json_nav(rng.file)
    if nav is not None:
        return _json_context(nav, rng.start_offset)
    entries = _files.get(rng.file)
    if not entries:
        return None
    offset = rng.start_offset
    for start, end, header in entries:
        if start <= offset < end:
            return header
    return None
