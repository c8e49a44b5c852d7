"""Importing one existing remote object: ImportResourceState, then ReadResource.

    obj, diags = import_object(provider, addr, import_id, hooks)

This is the core shared by the `import ADDR ID` command (engine.cli.cmd_import) and `import`
blocks during plan (engine.plans.planner_imports), as terraform's graphNodeImportState and
NodePlannableResourceInstance.importState both do it:

1. ImportResourceState with the ID; provider errors are returned as they are;
2. exactly one object must come back ("Import returned no resources", "Multiple import
   states not supported"; the plan's wording of the first lacks a space after "provider", as
   terraform's does);
3. `prepared(imported)` (optional) runs next and may stop the import with errors (the command
   prints "Import prepared!" and refuses an address already in state there);
4. ReadResource reads the object (with the refresh hooks: "Refreshing state... [id=...]"); a
   null result is "Cannot import non-existent remote object".

The result is the read object as an `ImportedObject`: its value as the provider returned it
(no sensitive marks: terraform records an imported object with no `sensitive_attributes`)
and private data; nothing is written anywhere.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from engine.addrs import AbsResourceInstance
from engine.diags import Diagnostics, error
from engine.plans.hooks import Hooks
from engine.plugin.protocol import (
    ImportedResource,
    ImportResourceStateRequest,
    Provider,
    ReadResourceRequest,
)
from engine.values import Value

NON_EXISTENT = (
    'While attempting to import an existing object to "{addr}", the provider detected that no '
    "object exists with the given id. Only pre-existing objects can be imported; check that "
    "the id is correct and that it is associated with the provider's configured region or "
    'endpoint, or use "groundplan apply" to create a new remote object for this resource.'
)


@dataclass(frozen=True, slots=True)
class ImportedObject:
    """The object an import read: its (unmarked) value and private data."""

    value: Value
    private: bytes = b""


def value_id(value: Value | None) -> str | None:
    """The known string `id` attribute of an object value, if it has one."""
    if value is None:
        return None
    plain, _ = value.unmark_deep()
    if plain.is_null or not isinstance(plain.v, dict):
        return None
    v = plain.v.get("id")
    if v is None or not v.is_known or v.is_null or not isinstance(v.v, str):
        return None
    return v.v


def _one(imported: list[ImportedResource], import_id: str, plan_wording: bool
         ) -> tuple[ImportedResource | None, Diagnostics]:
    diags = Diagnostics()
    if len(imported) > 1:
        diags.append(error(
            "Multiple import states not supported",
            f"While attempting to import with ID {import_id}, the provider returned multiple "
            "resource instance states. This is not currently supported."))
        return None, diags
    if not imported:
        gap = "" if plan_wording else " "
        diags.append(error(
            "Import returned no resources",
            f"While attempting to import with ID {import_id}, the provider{gap}returned no "
            "instance states."))
        return None, diags
    return imported[0], diags


def import_object(
    provider: Provider,
    addr: AbsResourceInstance,
    import_id: str,
    hooks: Hooks,
    prepared: Callable[[ImportedResource], Diagnostics] | None = None,
    plan_wording: bool = True,
) -> tuple[ImportedObject | None, Diagnostics]:
    """Import and read the object `import_id` for `addr` (see the module docstring)."""
    diags = Diagnostics()
    resp = provider.import_resource_state(
        ImportResourceStateRequest(addr.resource.type, import_id))
    diags.extend(resp.diagnostics)
    if resp.diagnostics.has_errors:
        return None, diags
    one, more = _one(list(resp.imported_resources), import_id, plan_wording)
    diags.extend(more)
    if one is None:
        return None, diags
    if prepared is not None:
        more = prepared(one)
        diags.extend(more)
        if more.has_errors:
            return None, diags
    hooks.pre_refresh(addr, value_id(one.state))
    read = provider.read_resource(ReadResourceRequest(one.type_name, one.state, one.private))
    diags.extend(read.diagnostics)
    if read.diagnostics.has_errors:
        return None, diags
    if read.new_state.is_null:
        diags.append(error("Cannot import non-existent remote object",
                           NON_EXISTENT.format(addr=addr)))
        return None, diags
    hooks.post_refresh(addr, value_id(read.new_state))
    return ImportedObject(read.new_state, read.private), diags
