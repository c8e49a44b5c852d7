"""Evaluating the `assert`s of one `check` block instance (terraform's nodeCheckAssert).

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
from engine.checks.state import ASSERTION, ERROR, FAIL, ChecksState, in_module
from engine.core.conditions import check_rules
from engine.diags import Diagnostics, Severity


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
    return Diagnostics([dataclasses.replace(d, severity=Severity.WARNING) if d.is_error else d
                        for d in diags])
