"""Evaluating the `assert`s of one `check` block instance (terraform's nodeCheckAssert).

`record_check_data(checks, mi, name, diags, value)` records how the data source scoped in
check block `name` was read: its errors make the check fail (with terraform's text of them)
and are returned as warnings; a read that was deferred (the value is not wholly known yet)
leaves it unknown.

`assert_check_block(tree, checks, mi, chk)` evaluates every assertion of check block `chk`
in module instance `mi` and records their statuses in `checks` (the object `check.<name>` in
`mi`). A failed assertion (and any error evaluating one) is returned as a warning ("Check
block assertion failed", with the condition's values), as terraform reports it. As in
terraform, nothing is evaluated when the check's object has already failed (its scoped data
source could not be read).
"""

from __future__ import annotations

import dataclasses
from typing import Any

from engine.addrs import ModuleInstance
from engine.checks.state import ASSERTION, CHECK_DATA, ERROR, FAIL, PASS, ChecksState, in_module
from engine.core.conditions import check_rules
from engine.diags import Diagnostics, Severity
from engine.diags.presentation import NO_CONSOLIDATE
from engine.values import Value


def assert_check_block(tree: Any, checks: ChecksState, mi: ModuleInstance, chk: Any
                       ) -> Diagnostics:
    """See the module docstring (`tree` is the walk's engine.core InstanceTree)."""
    config_addr = in_module(str(mi.module()), f"check.{chk.name}")
    object_addr = in_module(str(mi), f"check.{chk.name}")
    if checks.object_status(config_addr, object_addr) in (FAIL, ERROR):
        return Diagnostics()
    report = checks.reporter(config_addr, object_addr, ASSERTION)
    _statuses, diags = check_rules(chk.asserts, tree.scope(mi).evaluate,
                                   "Check block assertion failed", report)
    return _as_warnings(diags)


def _as_warnings(diags: Diagnostics) -> Diagnostics:
    """Errors as warnings, every one tagged as a check block's (never consolidated in
    human output, as terraform's CheckRuleDiagnosticExtra)."""
    return Diagnostics([dataclasses.replace(d, severity=Severity.WARNING, extra=NO_CONSOLIDATE)
                        for d in diags])


def _error_text(diags: Diagnostics) -> str:
    """terraform's diagnosticsAsError text: "summary: detail", or "N problems:" and a list."""
    def one(d: Any) -> str:
        return f"{d.summary}: {d.detail}" if d.detail else d.summary

    items = list(diags)
    if len(items) == 1:
        return one(items[0])
    return f"{len(items)} problems:\n" + "".join(f"\n- {one(d)}" for d in items)


def record_check_data(checks: ChecksState, mi: ModuleInstance, check_name: str,
                      diags: Diagnostics, value: Value | None) -> Diagnostics:
    """See the module docstring."""
    config_addr = in_module(str(mi.module()), f"check.{check_name}")
    object_addr = in_module(str(mi), f"check.{check_name}")
    if diags.has_errors:
        checks.report(config_addr, object_addr, CHECK_DATA, 0, FAIL, _error_text(diags))
    elif value is not None and value.is_wholly_known():
        checks.report(config_addr, object_addr, CHECK_DATA, 0, PASS)
    return _as_warnings(diags)
