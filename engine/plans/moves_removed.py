"""`removed` blocks checked against the configuration (terraform's FindRemoveStatements).

A `removed` block says an object left the configuration; naming one that is still declared
is an error pointing at the declaration:

- "Removed resource still exists" (subject: the resource block's header);
- "Removed module still exists" (subject: the module call's header).

`removed_covers(config, addr)` answers which `removed` block (if any) governs an object of
the prior state, the innermost-declared block losing to one in an ancestor module, as
terraform's parent-overrides-child rule.
"""

from __future__ import annotations

from typing import Any

from engine.addrs import AbsResourceInstance, AddressSyntaxError, ModuleInstance, parse_target
from engine.diags import Diagnostics, error


def _statements(config: Any) -> list[tuple[Any, Any]]:
    """(absolute target, removed block) for every well-formed block, root module first."""
    out = []
    for cfg in config.walk():
        prefix = ".".join(f"module.{n}" for n in cfg.path)
        for rm in cfg.module.removed:
            if rm.from_ is None:
                continue
            try:
                t = parse_target(f"{prefix}.{rm.from_.text}" if prefix else rm.from_.text)
            except AddressSyntaxError:
                continue
            out.append((t, rm))
    return out


def validate_removed(config: Any) -> Diagnostics:
    """See the module docstring."""
    diags = Diagnostics()
    seen: set[str] = set()
    for target, _rm in _statements(config):
        if str(target) in seen:
            continue
        seen.add(str(target))
        if isinstance(target, ModuleInstance):
            names = target.module().names
            parent = config.descendant(names[:-1])
            call = None if parent is None else parent.module.module_calls.get(names[-1])
            if call is not None and config.descendant(names) is not None:
                diags.append(error(
                    "Removed module still exists",
                    f"This statement declares that {target.module()} was removed, but it is "
                    "still declared in configuration.", call.decl_range))
            continue
        cfg = config.descendant(target.module.module().names)
        r = target.resource
        key = f"data.{r.type}.{r.name}" if r.mode.value == "data" else f"{r.type}.{r.name}"
        res = None if cfg is None else cfg.module.resource(key)
        if res is not None:
            diags.append(error(
                "Removed resource still exists",
                f"This statement declares that {target} was removed, but it is still "
                "declared in configuration.", res.decl_range))
    return diags


def removed_covers(config: Any, addr: AbsResourceInstance) -> Any | None:
    """The `removed` block that governs `addr` (the outermost declaring module wins)."""
    for target, rm in _statements(config):
        if isinstance(target, ModuleInstance):
            n = len(target.steps)
            if addr.module.module().names[:n] == target.module().names:
                return rm
        elif target.module.module() == addr.module.module() and \
                target.resource == addr.resource:
            return rm
    return None


def forget_warning(changes: list[Any]) -> Diagnostics:
    """terraform's "Some objects will no longer be managed by Terraform" warning, listing the
    objects a plan forgets (empty when it forgets none)."""
    from engine.diags import warning
    from engine.plans.model import Action

    names = [f" - {c.addr}" for c in changes if c.action is Action.FORGET]
    if not names:
        return Diagnostics()
    return Diagnostics([warning(
        "Some objects will no longer be managed by groundplan",
        "If you apply this plan, groundplan will discard its tracking information for the "
        "following objects, but it will not delete them:\n" + "\n".join(names) + "\n\nAfter "
        "applying this plan, groundplan will no longer manage these objects. You will need to "
        "import them into groundplan to manage them again.")])


__all__ = ["forget_warning", "removed_covers", "validate_removed"]
