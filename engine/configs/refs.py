"""Parsing a traversal into what it refers to, as Terraform's addrs.ParseRef does.

`parse_ref(traversal)` returns a `Reference` (its `kind`, the names involved, the range of the
part that names the object and the remaining steps) or the same "Invalid reference"
diagnostics Terraform gives for a malformed reference.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.diags import Diagnostics, error
from engine.hcl.ast import Traversal, TraverseAttr, TraverseIndex
from engine.source import Range

# kinds
COUNT = "count"
EACH = "each"
DATA = "data"
MANAGED = "resource"
EPHEMERAL = "ephemeral"
LOCAL = "local"
MODULE_CALL = "module"
MODULE_OUTPUT = "module_output"
PATH = "path"
SELF = "self"
TERRAFORM = "terraform"
VAR = "var"


@dataclass(frozen=True, slots=True)
class Reference:
    """What a traversal refers to.

    - `kind` is one of the constants above.
    - `name`: the variable/local/module-call/attribute name; for resources the resource name.
    - `type`: the resource type (resource kinds only); `output`: the module output name.
    - `key`: the instance key step's raw key, if one was given (resources, module calls).
    - `range`: the part of the source that names the object; `remaining`: the steps after it.
    """

    kind: str
    name: str
    range: Range
    remaining: Traversal
    type: str = ""
    output: str = ""
    key: Any = None
    has_key: bool = False

    @property
    def resource_key(self) -> str:
        """`type.name` for resources (prefixed with `data.`/`ephemeral.` for those modes)."""
        if self.kind == DATA:
            return f"data.{self.type}.{self.name}"
        if self.kind == EPHEMERAL:
            return f"ephemeral.{self.type}.{self.name}"
        return f"{self.type}.{self.name}"


def traversal_range(t: Traversal) -> Range:
    return t[0].range.to(t[-1].range)


def single_attr_ref(t: Traversal, diags: Diagnostics) -> tuple[str, Range, Traversal] | None:
    """terraform's parseSingleAttrRef: `root.name` (name, range, remaining steps), or None
    with an "Invalid reference" error."""
    root = t[0].name  # type: ignore[union-attr]
    if len(t) < 2:
        diags.append(
            error(
                "Invalid reference",
                f'The "{root}" object cannot be accessed directly. Instead, access one of its '
                "attributes.",
                t[0].range,
            )
        )
        return None
    step = t[1]
    if isinstance(step, TraverseAttr):
        return step.name, t[0].range.to(step.range), t[2:]
    diags.append(
        error("Invalid reference", f'The "{root}" object does not support this operation.', step.range)
    )
    return None


_WHOLE = "value must be a whole number, between -9223372036854775808 and 9223372036854775807"


def _valid_key(key: Any) -> str | None:
    """Terraform's ParseInstanceKey: a string, or a whole number within int64; else why not."""
    t = getattr(key, "type", None)
    v = getattr(key, "v", key)
    name = getattr(t, "name", None)
    if name == "string" or (name is None and isinstance(v, str)):
        return None
    if name == "number" or (name is None and isinstance(v, int) and not isinstance(v, bool)):
        if isinstance(v, int) and not isinstance(v, bool) and -(2**63) <= v < 2**63:
            return None
        return _WHOLE
    return "either a string or an integer is required"


def _resource_ref(kind: str, start: Range, t: Traversal, diags: Diagnostics) -> Reference | None:
    if len(t) < 2:
        diags.append(
            error(
                "Invalid reference",
                "A reference to a resource type must be followed by at least one attribute "
                "access, specifying the resource name.",
                traversal_range(t),
            )
        )
        return None
    first = t[0]
    if isinstance(first, TraverseIndex):
        diags.append(error("Invalid reference", 'The "data" object does not support this operation.', first.range))
        return None
    type_name = first.name
    step = t[1]
    if not isinstance(step, TraverseAttr):
        what = "data source" if kind == DATA else "resource type"
        diags.append(
            error(
                "Invalid reference",
                f"A reference to a {what} must be followed by at least one attribute access, "
                "specifying the resource name.",
                step.range,
            )
        )
        return None
    rng = start.to(step.range)
    remain = t[2:]
    if remain and isinstance(remain[0], TraverseIndex):
        idx = remain[0]
        problem = _valid_key(idx.key)
        if problem:
            diags.append(
                error("Invalid index key", f"Invalid index for resource instance: {problem}.", idx.range)
            )
            return None
        return Reference(kind, step.name, rng.to(idx.range), remain[1:], type=type_name, key=idx.key, has_key=True)
    return Reference(kind, step.name, rng, remain, type=type_name)


def parse_ref(t: Traversal) -> tuple[Reference | None, Diagnostics]:
    """Parse an absolute traversal into a Reference (None with diagnostics if invalid)."""
    diags = Diagnostics()
    root = t[0].name  # type: ignore[union-attr]
    root_range = t[0].range
    if root in (COUNT, EACH, LOCAL, PATH, TERRAFORM, VAR):
        got = single_attr_ref(t, diags)
        if got is None:
            return None, diags
        name, rng, remain = got
        return Reference(root, name, rng, remain), diags
    if root in (DATA, "resource", EPHEMERAL):
        if len(t) < 3:
            what = {
                DATA: 'The "data" object must be followed by two attribute names: the data source '
                "type and the resource name.",
                "resource": 'The "resource" object must be followed by two attribute names: the '
                "resource type and the resource name.",
                EPHEMERAL: 'The "ephemeral" object must be followed by two attribute names: the '
                "ephemeral resource type and the resource name.",
            }[root]
            diags.append(error("Invalid reference", what, traversal_range(t)))
            return None, diags
        kind = MANAGED if root == "resource" else root
        return _resource_ref(kind, root_range, t[1:], diags), diags
    if root == "module":
        got = single_attr_ref(t, diags)
        if got is None:
            return None, diags
        call, rng, remain = got
        key: Any = None
        has_key = False
        if not remain:
            return Reference(MODULE_CALL, call, rng, remain), diags
        if isinstance(remain[0], TraverseIndex):
            idx = remain[0]
            problem = _valid_key(idx.key)
            if problem:
                diags.append(
                    error("Invalid index key", f"Invalid index for module instance: {problem}.", idx.range)
                )
                return None, diags
            key, has_key = idx.key, True
            rng = rng.to(idx.range)
            remain = remain[1:]
            if not remain:
                return Reference(MODULE_CALL, call, rng, remain, key=key, has_key=True), diags
        step = remain[0]
        if isinstance(step, TraverseAttr):
            return (
                Reference(
                    MODULE_OUTPUT, call, rng.to(step.range), remain[1:], output=step.name, key=key, has_key=has_key
                ),
                diags,
            )
        diags.append(error("Invalid reference", "Module instance objects do not support this operation.", step.range))
        return None, diags
    if root == SELF:
        return Reference(SELF, "self", root_range, t[1:]), diags
    if root in ("template", "lazy", "arg"):
        diags.append(
            error(
                "Reserved symbol name",
                f'The symbol name "{root}" is reserved for use in a future Terraform version. If '
                "you are using a provider that already uses this as a resource type name, add the "
                'prefix "resource." to force interpretation as a resource type name.',
                root_range,
            )
        )
        return None, diags
    return _resource_ref(MANAGED, root_range, t, diags), diags
