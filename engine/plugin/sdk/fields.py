"""Typed declarations of attributes and nested blocks, and their conversion to schemas.

A resource, data source or provider declares its body as a mapping of names to `Attr` (one
attribute) and `Blocks` (a nested block type). Besides what the wire schema carries (type,
required/optional/computed, sensitive, description, deprecation), an `Attr` carries behaviour
the SDK's planner applies:

- `default`: the planned value when the configuration leaves the attribute null (the attribute
  must be optional and computed, as terraform-plugin-framework requires);
- `requires_replace`: a planned value different from the prior state's forces replacement;
- `use_state_for_unknown`: a computed attribute keeps its prior value on update instead of
  becoming unknown.

`block_of(fields)` builds the engine.plugin.schema `Block` that the protocol speaks.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from engine.plugin.schema import Attribute, Block, NestedBlock, Nesting
from engine.values import Type

__all__ = ["Attr", "Blocks", "Field", "Nesting", "block_of"]


@dataclass(frozen=True, slots=True)
class Attr:
    """One attribute and the planning behaviour attached to it (see the module docstring)."""

    type: Type
    description: str = ""
    required: bool = False
    optional: bool = False
    computed: bool = False
    sensitive: bool = False
    deprecated: str = ""
    default: Any = None
    requires_replace: bool = False
    use_state_for_unknown: bool = False

    def __post_init__(self) -> None:
        if self.required and (self.optional or self.computed):
            raise ValueError("a required attribute is neither optional nor computed")
        if not (self.required or self.optional or self.computed):
            raise ValueError("an attribute is required, optional or computed")
        if self.default is not None and not (self.optional and self.computed):
            raise ValueError("an attribute with a default must be optional and computed")

    def to_schema(self) -> Attribute:
        """The wire schema attribute."""
        desc = self.description
        if self.deprecated:
            desc = f"{desc} {self.deprecated}".strip() if desc else self.deprecated
        return Attribute(
            type=self.type,
            description=desc,
            required=self.required,
            optional=self.optional,
            computed=self.computed,
            sensitive=self.sensitive,
            deprecated=bool(self.deprecated),
        )


@dataclass(frozen=True, slots=True)
class Blocks:
    """A nested block type: its own fields, how it repeats and how many are allowed."""

    fields: Mapping[str, Field]
    nesting: Nesting = Nesting.LIST
    description: str = ""
    min_items: int = 0
    max_items: int = 0
    requires_replace: bool = False

    def to_schema(self) -> NestedBlock:
        return NestedBlock(
            block_of(self.fields, self.description),
            nesting=self.nesting,
            min_items=self.min_items,
            max_items=self.max_items,
        )


Field = Attr | Blocks


def block_of(fields: Mapping[str, Field], description: str = "", deprecated: bool = False) -> Block:
    """The schema `Block` for a body declared as `fields`."""
    attrs = {n: f.to_schema() for n, f in fields.items() if isinstance(f, Attr)}
    blocks = {n: f.to_schema() for n, f in fields.items() if isinstance(f, Blocks)}
    return Block(
        attributes=attrs,
        block_types=blocks,
        description=description,
        description_kind="plain",
        deprecated=deprecated,
    )
