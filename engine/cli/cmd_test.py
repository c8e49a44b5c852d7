"""`test`: run the module's `*.tftest.hcl` / `*.tftest.json` files (engine.testing).

Flags as terraform 1.11's: `-filter=FILE` (repeatable), `-test-directory=DIR` (default
`tests`), `-var`, `-var-file`, `-verbose` (each run's plan or state), `-json` (machine-readable
test messages), `-no-color`; `-parallelism` and `-junit-xml` are accepted. Exit code 0 when
every run passed, 1 otherwise (and for a configuration or test file that cannot be loaded).
"""

from __future__ import annotations

import os
from typing import Any

from engine.cli.args import FlagSet
from engine.cli.meta import Meta
from engine.diags import Diagnostics, warning


def _render_verbose(rr: Any) -> str | None:
    """The plan (plan runs) or state (apply runs) -verbose prints after a run's verdict."""
    if rr.plan is not None:
        from engine.plans.render_human import render_plan

        res = rr.plan
        return render_plan(res.plan, res.schemas, res.relevant_attributes) + "\n"
    if rr.state is not None:
        from engine.cli.state_view import render_state
        from engine.states import StateFile

        if rr.state.is_empty:
            return "\nThe state file is empty. No resources are represented.\n\n"
        return "\n" + render_state(StateFile(rr.state), rr.schemas) + "\n"
    return None


def _by_file(diags: Diagnostics) -> list[Any]:
    """`diags` grouped by file (in the order files first appear), each file's in source
    order, those without a place last."""
    files: dict[str, list[Any]] = {}
    placeless = []
    for d in diags:
        if d.subject is None:
            placeless.append(d)
        else:
            files.setdefault(d.subject.filename, []).append(d)
    out = [d for group in files.values() for d in sorted(group, key=lambda d: d.subject.start_offset)]
    return out + placeless


def run_test(meta: Meta, args: list[str]) -> int:
    fs = FlagSet().multi("filter").text("test-directory", "tests").multi("var").multi("var-file")
    fs.boolean("verbose").boolean("json").integer("parallelism", 10).text("junit-xml")
    fs.text("cloud-run")
    rest = meta.parse_flags("test", fs, args)
    if rest is None:
        return 1
    from engine.testing.runner import FAIL, SuiteContext, run_suite
    from engine.testing.views import HumanView, JsonView

    view: Any
    if fs.get("json"):
        from engine.cli.json_view import JsonView as UiJson

        base = UiJson(meta.ui)
        base.version()
        view = JsonView(base, fs.get("verbose"))
    else:
        view = HumanView(meta.ui, fs.get("verbose"), _render_verbose)
    test_dir = fs.get("test-directory") or "tests"
    # as terraform, the test files (and the modules their run blocks name, which `init`
    # installed) load with the configuration: any error stops everything
    config, loaded, diags = meta.load_config_with_tests(test_dir=test_dir)
    if diags.has_errors or config is None:
        view.diagnostics(_by_file(diags))
        return 1
    names = [tf.name for tf in loaded]
    wanted: list[str] = list(fs.get("filter") or [])
    if wanted:
        kept = set()
        for w in wanted:
            norm = os.path.normpath(w)
            if norm in names:
                kept.add(norm)
            else:
                diags.append(warning("Unknown test file",
                                     f"The specified test file, {w}, could not be found."))
        loaded = [tf for tf in loaded if tf.name in kept]
    view.diagnostics(_by_file(diags))  # warnings only
    files = [(tf, Diagnostics()) for tf in loaded]
    ctx = SuiteContext(meta.cwd, config, view,
                       [(k, v) for k, v in fs.ordered if k in ("var", "var-file")],
                       dict(meta.environ),
                       bool(fs.get("verbose")), test_dir)
    view.abstract(files)
    status = run_suite(ctx, files)
    return 1 if status >= FAIL else 0
