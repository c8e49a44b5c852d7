"""Running test files: terraform 1.11's TestSuiteRunner / TestFileRunner.

Files run in name order. In each file the runs execute in order; each is first checked as
terraform's TestRun.Validate does (engine.testing.validate: an `expect_failures` entry that is
not checkable is an error, an override without a target a warning), then plans (and, for
`command = apply`, applies) its configuration — the module under test, or the module its
`module` block names — against the state it shares with earlier runs of the same
configuration (or `state_key`), kept in memory. Assertions are then evaluated over the
planned or applied values, with `run.NAME` (earlier runs' outputs), `output.NAME` and
test-only `var.NAME` in scope. A run that errors skips the rest of its file. At the end every
state is destroyed, the most recently used first; resources that could not be destroyed are
named. Statuses merge as terraform's (pending < skip < pass < fail < error).
"""

from __future__ import annotations

import os
import shutil
import tempfile
from dataclasses import dataclass, field
from typing import Any

from engine.addrs import ModuleInstance
from engine.apply.applier import ApplyOptions, apply_plan
from engine.diags import Diagnostics, error, warning
from engine.hcl.ast import TraverseAttr, TraverseRoot
from engine.plans.model import PlanMode
from engine.plans.planner import PlanOptions, make_plan
from engine.states.manager import StateManager
from engine.states.state import State, StateFile
from engine.testing.config_setup import RunConfig, prepare_run_config
from engine.testing.expectations import (
    ERROR_S,
    PASS_S,
    evaluate_asserts,
    explain_expected,
    validate_expected,
    without_check_blocks,
)
from engine.testing.files import Run, TestFile
from engine.testing.memstate import MemoryStorage
from engine.testing.validate import validate_run
from engine.testing.variables import RunVariables, run_variables
from engine.values import NULL_DYNAMIC, Value, object_

PENDING, SKIP, PASS, FAIL, ERROR = 0, 1, 2, 3, 4

# terraform's Context.Apply warns so after applying a targeted plan
TARGETED_APPLY_DETAIL = (
    "The plan was created with the -target option in effect, so some changes requested in "
    "the configuration may have been ignored and the output values may not be fully "
    "updated. Run the following command to verify that no other changes are pending:\n"
    "    groundplan plan\n\n"
    "Note that the -target option is not suitable for routine use, and is provided only for "
    "exceptional situations such as recovering from errors or mistakes, or when groundplan "
    "specifically suggests to use it as part of an error message."
)
STATUS_NAMES = {PENDING: "pending", SKIP: "skip", PASS: "pass", FAIL: "fail", ERROR: "error"}


@dataclass
class RunResult:
    """What one run did."""

    run: Run
    index: int
    status: int = PENDING
    diagnostics: Diagnostics = field(default_factory=Diagnostics)
    plan: Any = None  # PlanResult of a plan run (for -verbose)
    state: State | None = None  # the state after an apply run (for -verbose)
    schemas: dict[Any, Any] = field(default_factory=dict)


@dataclass
class FileResult:
    """The result of one test file: its status, its runs' results and its diagnostics."""

    file: TestFile
    status: int = PENDING
    runs: list[RunResult] = field(default_factory=list)
    diagnostics: Diagnostics = field(default_factory=Diagnostics)


@dataclass
class SuiteContext:
    """What every file shares: the module under test, flags, the view."""

    cwd: str
    config: Any
    view: Any
    cli_vars: list[tuple[str, str]] = field(default_factory=list)
    environ: dict[str, str] = field(default_factory=dict)
    verbose: bool = False
    test_dir: str = "tests"


@dataclass
class _StateEntry:
    """A state a test file keeps between runs, with the run and configuration that made it."""

    state: State
    run: RunResult | None = None
    rc: RunConfig | None = None
    variables: dict[str, Value] = field(default_factory=dict)


def _merge(a: int, b: int) -> int:
    return max(a, b)


class FileRunner:
    """Runs one test file (see the module docstring)."""

    def __init__(self, ctx: SuiteContext, file: TestFile, file_diags: Diagnostics) -> None:
        self.ctx = ctx
        self.result = FileResult(file, diagnostics=file_diags)
        self.result.runs = [RunResult(r, i) for i, r in enumerate(file.runs)]
        self.states: dict[str, _StateEntry] = {"": _StateEntry(State())}
        self.outputs: dict[str, Value] = {}
        self.tmp = tempfile.mkdtemp(prefix="groundplan-test-")
        self.registries: dict[int, Any] = {}

    # ------------------------------------------------------------------ the file
    def test(self) -> FileResult:
        res = self.result
        view = self.ctx.view
        res.status = SKIP if res.file.runs else PASS
        if res.diagnostics.has_errors:
            res.status = ERROR
        for rr in res.runs:
            if res.status == ERROR:
                rr.status = SKIP
                view.run_done(res, rr)
                continue
            view.run_start(res, rr)
            self._run(rr)
            view.run_done(res, rr)
            res.status = _merge(res.status, rr.status)
        view.teardown(res)
        try:
            self._cleanup()
        finally:
            for reg in self.registries.values():
                reg.close()
            shutil.rmtree(self.tmp, ignore_errors=True)
        return res

    # ------------------------------------------------------------------ one run
    def _run(self, rr: RunResult) -> None:
        run = rr.run
        # terraform's TestRun.Validate first: expect_failures kinds, override targets
        checked = validate_run(run, run.config if run.module is not None else self.ctx.config)
        rr.diagnostics.extend(checked)
        if checked.has_errors:
            rr.status = ERROR
            return
        rc, diags = prepare_run_config(self.ctx, self.result.file, run, self.registries)
        rr.diagnostics.extend(diags)
        if diags.has_errors or rc is None:
            rr.status = ERROR
            return
        try:
            self._execute(rr, rc)
        finally:
            rc.close()

    def _execute(self, rr: RunResult, rc: RunConfig) -> None:
        run = rr.run
        key = run.state_key or rc.state_key
        entry = self.states.setdefault(key, _StateEntry(State()))
        rv, diags = run_variables(self.ctx, self.result.file, run, rc.config, self.outputs,
                                  [r.run.name for r in self.result.runs[:rr.index]])
        rr.diagnostics.extend(diags)
        if diags.has_errors or rv is None:
            rr.status = ERROR
            return
        opts, diags = _plan_options(run, rc, rv)
        rr.diagnostics.extend(diags)
        if diags.has_errors:
            rr.status = ERROR
            return
        base = StateFile(entry.state) if entry.state.resources or entry.state.outputs else None
        result = make_plan(rc.config, base, rc.registry, opts)
        pdiags = result.diagnostics
        config = rc.config
        if run.command == "plan":
            pdiags = validate_expected(config, run.expect_failures, pdiags)
            rr.diagnostics.extend(pdiags)
            if pdiags.has_errors:
                rr.status = ERROR
                return
            rr.plan, rr.schemas = result, result.schemas
            if result.tree is None:  # planning stopped early, as expected (a variable failed)
                rr.status = PASS if not run.asserts else ERROR
                self.outputs[run.name] = object_({})
                return
            self._assert(rr, result.tree, rv)
            return
        pdiags = explain_expected(config, run.expect_failures, pdiags)
        if pdiags.has_errors or result.plan.errored:
            rr.diagnostics.extend(pdiags)
            rr.status = ERROR
            return
        rr.diagnostics.extend(without_check_blocks(config, pdiags))
        applied, adiags = self._apply(rc, result, base, rv.values)
        adiags = validate_expected(config, run.expect_failures, adiags)
        rr.diagnostics.extend(adiags)
        entry.state, entry.run, entry.rc, entry.variables = applied.state, rr, rc, rv.values
        if adiags.has_errors or applied.tree is None:
            rr.status = ERROR
            return
        rr.state, rr.schemas = applied.state, result.schemas
        self._assert(rr, applied.tree, rv)

    def _apply(self, rc: RunConfig, result: Any, base: StateFile | None,
               variables: dict[str, Value]) -> tuple[Any, Diagnostics]:
        storage = MemoryStorage(os.path.join(self.tmp, "state"), base)
        manager = StateManager(storage, None, journal_file=os.path.join(self.tmp, "journal"),
                               errored_path=os.path.join(self.tmp, "errored.tfstate"))
        prior = StateFile(result.prior_state)
        applied = apply_plan(rc.config, result.plan, prior, manager, rc.registry,
                             ApplyOptions(variables=variables, working_dir=self.ctx.cwd))
        diags = Diagnostics(list(applied.diagnostics))
        if result.plan.target_addrs:
            diags.append(warning("Applied changes may be incomplete", TARGETED_APPLY_DETAIL))
        return applied, diags

    def _assert(self, rr: RunResult, tree: Any, rv: RunVariables) -> None:
        scope = tree.scope(ModuleInstance())
        outputs: dict[str, Value] = {}
        for name in scope.module.outputs:
            got = tree.output(ModuleInstance(), name)
            outputs[name] = got.value if got is not None else NULL_DYNAMIC
        extra = {
            "run": object_(dict(self.outputs)),
            "output": object_(outputs),
            "var": object_({**rv.test_only, **scope.input_values}),
        }

        def evaluate(expr: Any) -> tuple[Value, Diagnostics]:
            return scope.evaluate(expr, _needed(expr, extra))

        status, diags = evaluate_asserts(rr.run.asserts, evaluate)
        rr.status = _merge(rr.status, status)
        rr.diagnostics.extend(diags)
        self.outputs[rr.run.name] = object_(outputs)

    # ------------------------------------------------------------------ teardown
    def _cleanup(self) -> None:
        view = self.ctx.view
        entries = [e for e in self.states.values()
                   if any(rs.mode == "managed" for rs in e.state.resources)]
        entries.sort(key=lambda e: -(e.run.index if e.run is not None else -1))
        for e in entries:
            diags = Diagnostics()
            if e.run is None or e.rc is None:
                diags.append(error("Inconsistent state",
                                   f"Found inconsistent state while cleaning up "
                                   f"{self.result.file.name}. This is a bug in groundplan - "
                                   "please report it"))
                self.result.status = ERROR
                view.destroy_summary(self.result, None, diags, e.state)
                continue
            view.run_teardown(self.result, e.run)
            left, more = self._destroy(e)
            diags.extend(more)
            if any(rs.mode == "managed" and rs.instances for rs in left.resources):
                self.result.status = ERROR
            view.destroy_summary(self.result, e.run, diags, left)
            e.rc.close()

    def _destroy(self, e: _StateEntry) -> tuple[State, Diagnostics]:
        assert e.rc is not None
        rc = e.rc
        rc.reopen()
        base = StateFile(e.state)
        opts = PlanOptions(mode=PlanMode.DESTROY, variables=dict(e.variables),
                           working_dir=self.ctx.cwd)
        result = make_plan(rc.config, base, rc.registry, opts)
        diags = Diagnostics(list(result.diagnostics))
        if diags.has_errors or result.plan.errored:
            return e.state, diags
        applied, more = self._apply(rc, result, base, e.variables)
        diags.extend(more)
        return applied.state, diags


def _needed(expr: Any, extra: dict[str, Value]) -> dict[str, Value]:
    """The extra roots `expr` refers to (the rest resolve in the module's scope)."""
    from engine.configs.exprs import variables

    names = set()
    for trav in variables(expr):
        root = trav[0]
        if isinstance(root, TraverseRoot):
            if root.name == "var" and len(trav) > 1 and isinstance(trav[1], TraverseAttr):
                names.add("var")
            elif root.name in ("run", "output"):
                names.add(root.name)
    return {k: v for k, v in extra.items() if k in names}


def _plan_options(run: Run, rc: RunConfig, rv: RunVariables) -> tuple[PlanOptions, Diagnostics]:
    from engine.hcl.ast import traversal_str

    diags = Diagnostics()
    mode = PlanMode.REFRESH_ONLY if run.options.mode == "refresh-only" else PlanMode.NORMAL
    replace = [traversal_str(t) for t in run.options.replace]
    for t, text in zip(run.options.replace, replace, strict=True):
        if isinstance(t[0], TraverseRoot) and t[0].name == "data":
            diags.append(error("Can only target managed resources for forced replacements.",
                               text, t[0].range.to(t[-1].range)))
    return PlanOptions(mode=mode, refresh=run.options.refresh,
                       targets=[traversal_str(t) for t in run.options.target],
                       force_replace=replace, variables=dict(rv.values),
                       working_dir=rc.working_dir), diags


def run_suite(ctx: SuiteContext, files: list[tuple[TestFile, Diagnostics]]) -> int:
    """Run every file in `files` (in the given order); the suite status."""
    view = ctx.view
    status = PASS
    results: list[FileResult] = []
    for tf, fdiags in files:
        runner = FileRunner(ctx, tf, fdiags)
        view.file_start(runner.result)
        res = runner.test()
        view.file_done(res)
        results.append(res)
        status = _merge(status, res.status)
    if not files:
        status = PENDING
    view.conclusion(results, status)
    return status


__all__ = ["ERROR_S", "PASS_S", "STATUS_NAMES", "FileRunner", "RunResult", "SuiteContext",
           "run_suite"]
