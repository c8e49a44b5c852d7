"""Recording the objects a plan imported (`import` blocks) during apply.

The plan already read each imported object and put it in its prior state, which is where the
apply's working state starts; `record_imports(ctx)` makes each of them durable the way every
other change is: for each change with `importing`, the `Importing... [id=...]` hook, a journal
intent ("import"), the object as its result, and `Import complete [id=...]`. An update or
replacement planned on top of the import is applied afterwards by the normal walk.
"""

from __future__ import annotations

from engine.apply.context import ApplyContext
from engine.diags import Diagnostics


def record_imports(ctx: ApplyContext) -> Diagnostics:
    """Journal every imported object of `ctx.plan` (see the module docstring)."""
    diags = Diagnostics()
    manager = ctx.manager
    hooks = ctx.pctx.hooks
    for c in ctx.plan.changes:
        if c.importing is None or c.deposed_key is not None:
            continue
        obj = manager.sync.current(c.addr)
        if obj is None:
            continue
        hooks.pre_apply_import(c.addr, c.importing.id)
        seq, more = manager.record_intent(c.addr, "import")
        diags.extend(more)
        if more.has_errors:
            return diags
        diags.extend(manager.record_result(c.addr, seq, obj, provider=str(c.provider)))
        hooks.post_apply_import(c.addr, c.importing.id)
    return diags
