"""Schema-driven decoding of a body, with HCL's own messages.

This is HCL's `Body.Content` / `PartialContent` / `JustAttributes` over our syntax tree: a
`BodySchema` names the arguments and block types a body may contain; decoding returns the
matching attributes and blocks, plus the diagnostics HCL gives for unsupported arguments,
unsupported block types, missing required arguments and wrong label counts.

Bodies that come from `.tf.json` files hold only attributes (JSON properties); a property
whose name is a block type in the schema is turned into blocks with the parser's
`attribute_as_blocks`, and unexpected properties get the JSON syntax's message.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.diags import Diagnostics, error
from engine.gocompat.levenshtein import name_suggestion
from engine.hcl.ast import Attribute, Block, Body
from engine.source import Range


@dataclass(frozen=True, slots=True)
class AttrSchema:
    """An attribute a configuration body may contain, and whether it must."""

    name: str
    required: bool = False


@dataclass(frozen=True, slots=True)
class BlockSchema:
    """A nested block type a configuration body may contain, with its label names."""

    type: str
    labels: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class BodySchema:
    """The attributes and block types a configuration body may contain."""

    attributes: tuple[AttrSchema, ...] = ()
    blocks: tuple[BlockSchema, ...] = ()

    def without_required(self) -> BodySchema:
        """The same schema with nothing required (what override files are decoded with)."""
        return BodySchema(tuple(AttrSchema(a.name) for a in self.attributes), self.blocks)


@dataclass(slots=True)
class BodyContent:
    """The schema-matching part of a body: attributes by name, blocks in source order."""

    attributes: dict[str, Attribute] = field(default_factory=dict)
    blocks: list[Block] = field(default_factory=list)
    missing_item_range: Range | None = None


def is_json_body(body: Body) -> bool:
    """Whether this body came from a JSON file (`.tf.json`, `.tfvars.json`)."""
    return body.range.file.filename.endswith(".json")


def missing_item_range(body: Body, block: Block | None = None) -> Range:
    """Where Terraform points "Missing required argument": the opening brace of the block
    (for a body without its block at hand, the first character of the body)."""
    if is_json_body(body) and body.json_value is not None:
        from engine.hcl.json_body import missing_item_range as json_missing

        return json_missing(body.json_value)
    if block is not None:
        if is_json_body(body):
            return block.close_brace_range
        return block.open_brace_range
    start = body.range.start_offset
    end = min(start + 1, body.range.end_offset)
    return Range(body.range.file, start, end)


# ------------------------------------------------------------------------------ suggestions
# ---------------------------------------------------------------------------------- decoding
def _json_partial(
    body: Body, schema: BodySchema, content: BodyContent, diags: Diagnostics
) -> Body:
    """hcl's JSON PartialContent: every property in order, the first of an argument's name
    kept ("Duplicate argument" for the others), a block type's property read as blocks;
    returns the rest of the body."""
    from engine.hcl.json_body import attribute_as_blocks, deep_attrs, hiding

    props, pdiags = deep_attrs(body)
    diags.extend(pdiags)
    attr_names = {a.name for a in schema.attributes}
    wanted = {b.type: b for b in schema.blocks}
    used: set[str] = set()
    for attr in props:
        name = attr.name
        if name in attr_names:
            existing = content.attributes.get(name)
            if existing is not None:
                diags.append(error(
                    "Duplicate argument",
                    f'The argument "{name}" was already set at {existing.range}.',
                    attr.name_range, attr.name_range))  # (hcl's objectAttr.Range is its name)
                continue
            content.attributes[name] = attr
            used.add(name)
        elif name in wanted:
            blocks, bdiags = attribute_as_blocks(attr, name, wanted[name].labels)
            diags.extend(bdiags)
            content.blocks.extend(blocks)
            used.add(name)
    for a in schema.attributes:
        if a.required and a.name not in content.attributes:
            diags.append(error(
                "Missing required argument",
                f'The argument "{a.name}" is required, but no definition was found.',
                content.missing_item_range))
    rest: dict[str, Attribute] = {}
    for attr in props:
        if attr.name not in used:
            rest.setdefault(attr.name, attr)
    return hiding(body, rest, frozenset(used))


def _check_labels(block: Block, schema: BlockSchema, diags: Diagnostics) -> bool:
    names = schema.labels
    ctx = block.type_range.to(block.open_brace_range)
    if len(block.labels) > len(names):
        if not names:
            diags.append(
                error(
                    f"Extraneous label for {block.type}",
                    f"No labels are expected for {block.type} blocks.",
                    block.label_ranges[0],
                    ctx,
                )
            )
        else:
            diags.append(
                error(
                    f"Extraneous label for {block.type}",
                    f"Only {len(names)} labels ({', '.join(names)}) are expected for "
                    f"{block.type} blocks.",
                    block.label_ranges[len(names)],
                    ctx,
                )
            )
        return False
    if len(block.labels) < len(names):
        diags.append(
            error(
                f"Missing {names[len(block.labels)]} for {block.type}",
                f"All {block.type} blocks must have {len(names)} labels ({', '.join(names)}).",
                block.open_brace_range,
                ctx,
            )
        )
        return False
    return True


def partial_content(
    body: Body, schema: BodySchema, block: Block | None = None
) -> tuple[BodyContent, Body, Diagnostics]:
    """Decode what `schema` names; return it, the rest of the body, and diagnostics about
    missing required arguments and bad labels. `block` is the block owning `body`, used to
    place "Missing required argument" at its opening brace."""
    diags = Diagnostics()
    content = BodyContent(missing_item_range=missing_item_range(body, block))
    if is_json_body(body):
        return content, _json_partial(body, schema, content, diags), diags
    for a in schema.attributes:
        attr = body.attributes.get(a.name)
        if attr is None:
            if a.required:
                diags.append(
                    error(
                        "Missing required argument",
                        f'The argument "{a.name}" is required, but no definition was found.',
                        content.missing_item_range,
                    )
                )
            continue
        content.attributes[a.name] = attr
    wanted = {b.type: b for b in schema.blocks}
    for blk in body.blocks:
        bs = wanted.get(blk.type)
        if bs is None:
            continue
        if _check_labels(blk, bs, diags):
            content.blocks.append(blk)
    remain_attrs = {k: v for k, v in body.attributes.items() if k not in content.attributes}
    remain_blocks = [b for b in body.blocks if b.type not in wanted]
    remain = Body(remain_attrs, remain_blocks, body.range, body.end_range)
    return content, remain, diags


def content(body: Body, schema: BodySchema, block: Block | None = None) -> tuple[BodyContent, Diagnostics]:
    """Decode `body` fully against `schema`: anything the schema does not name is an error
    ("Unsupported argument", "Unsupported block type"; JSON: "Extraneous JSON object
    property")."""
    got, remain, diags = partial_content(body, schema, block)
    block_types = [b.type for b in schema.blocks]
    if is_json_body(body):
        from engine.hcl.json_body import deep_attrs

        props, pdiags = deep_attrs(remain)
        diags.extend(pdiags)
        cands = [a.name for a in schema.attributes if a.name not in remain.json_hidden]
        cands += block_types
        for attr in props:
            name = attr.name
            if name == "//":
                continue
            sugg = name_suggestion(name, cands)
            detail = f'No argument or block type is named "{name}".'
            if sugg:
                detail += f' Did you mean "{sugg}"?'
            diags.append(error("Extraneous JSON object property", detail, attr.name_range,
                               attr.name_range))
        return got, diags
    for name, attr in remain.attributes.items():
        cands = [a.name for a in schema.attributes if a.name not in got.attributes]
        sugg = name_suggestion(name, cands)
        if sugg:
            hint = f' Did you mean "{sugg}"?'
        elif name in block_types:
            hint = f' Did you mean to define a block of type "{name}"?'
        else:
            hint = ""
        diags.append(
            error(
                "Unsupported argument",
                f'An argument named "{name}" is not expected here.{hint}',
                attr.name_range,
            )
        )
    for blk in remain.blocks:
        sugg = name_suggestion(blk.type, block_types)
        if sugg:
            hint = f' Did you mean "{sugg}"?'
        elif any(a.name == blk.type for a in schema.attributes):
            hint = (
                f' Did you mean to define argument "{blk.type}"? If so, use the equals sign to '
                "assign it a value."
            )
        else:
            hint = ""
        diags.append(
            error(
                "Unsupported block type",
                f'Blocks of type "{blk.type}" are not expected here.{hint}',
                blk.type_range,
            )
        )
    return got, diags


def just_attributes(body: Body) -> tuple[dict[str, Attribute], Diagnostics]:
    """All arguments of a body that must contain no blocks (`locals`, `.tfvars`)."""
    diags = Diagnostics()
    if body.blocks:
        ex = body.blocks[0]
        diags.append(error(f'Unexpected "{ex.type}" block', "Blocks are not allowed here.", ex.type_range))
    if is_json_body(body):
        from engine.hcl.json_body import just_attributes as json_just_attributes

        return json_just_attributes(body)
    attrs = dict(body.attributes)
    return attrs, diags


def merged_body(first: Body, second: Body) -> Body:
    """Two bodies seen as one (the `_` escaping block merged into a resource's config)."""
    attrs = dict(first.attributes)
    attrs.update(second.attributes)
    return Body(attrs, [*first.blocks, *second.blocks], first.range, first.end_range)


def find_blocks(body: Body, block_type: str) -> list[Block]:
    """Blocks of one type directly in `body` (native syntax), e.g. `dynamic` blocks."""
    return [b for b in body.blocks if b.type == block_type]
