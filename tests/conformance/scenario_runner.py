"""Multi-step scenarios run through terraform and through groundplan, side by side.

A scenario (a YAML mapping in `scenarios/*.yaml`) is a list of steps. Each step may write,
copy or remove files in the working directory, may run `init`, and then runs one operation:

    plan        plan -out=tfplan -detailed-exitcode ARGS, then `show -json tfplan`
    apply       apply the saved plan `tfplan`, then `output -json` and `show -json`
    apply_auto  apply -auto-approve ARGS, then `output -json` and `show -json`
    taint       taint ARGS
    untaint     untaint ARGS
    validate    validate
    state_list  state list
    output      output -json
    none        nothing (only files / init)

Each step declares the exit code terraform gives (`exit`), and for failures a substring of
the first error summary (`error`); optionally the actions terraform plans for some addresses
(`actions`). Those declarations only check that the scenario is well formed (that terraform
does what the scenario says it tests); groundplan is compared with what terraform produced in
the same run, never with the declarations.

Every tool runs in its own working directory. The observations of one run are a list, one
entry per step, of normalised facts: exit code, first error summary, the WHOLE `show -json
tfplan` document after a plan, and after an apply (or taint/untaint) the outputs and the WHOLE
`show -json` state document. Documents go through `normalise_document`, which removes only what
legitimately differs between two tools or two runs (see NORMALISATIONS); on a mismatch the
report lists the differing JSON paths and a unified diff of the two normalised documents.

Run as a script to exercise the scenarios against terraform alone (the oracle-only mode):

    python -m tests.conformance.scenario_runner [--compare] [NAME ...]

`--compare` also runs groundplan, step by step, and reports the first step that differs.
"""

from __future__ import annotations

import argparse
import difflib
import json
import re
import shutil
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any

import yaml

from tests.conformance.harness import Run, run_groundplan, run_terraform

SCENARIOS_DIR = Path(__file__).resolve().parent / "scenarios"
PLANFILE = "tfplan"
OPS = {
    "plan",
    "apply",
    "apply_auto",
    "taint",
    "untaint",
    "validate",
    "state_list",
    "output",
    "none",
}
STEP_KEYS = {"files", "copy", "remove", "init", "op", "args", "exit", "error", "actions", "note"}

Runner = Callable[..., Run]

_UUID_IN = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
_ERROR = re.compile(r"^[│|]?\s*Error: (.+?)\s*$", re.MULTILINE)


# --------------------------------------------------------------------------- scenario model


@dataclass
class Step:
    op: str
    args: list[str] = field(default_factory=list)
    files: dict[str, str] = field(default_factory=dict)
    copy: dict[str, str] = field(default_factory=dict)
    remove: list[str] = field(default_factory=list)
    init: bool = False
    exit: int = 0
    error: str | None = None
    actions: dict[str, list[str]] = field(default_factory=dict)
    note: str = ""


@dataclass
class Scenario:
    name: str
    description: str
    steps: list[Step]
    source: str


def _step(raw: dict[str, Any], where: str) -> Step:
    unknown = set(raw) - STEP_KEYS
    if unknown:
        raise ValueError(f"{where}: unknown step keys {sorted(unknown)}")
    op = raw.get("op", "none")
    if op not in OPS:
        raise ValueError(f"{where}: unknown op {op!r}")
    step = Step(
        op=op,
        args=[str(a) for a in raw.get("args", [])],
        files={str(k): str(v) for k, v in (raw.get("files") or {}).items()},
        copy={str(k): str(v) for k, v in (raw.get("copy") or {}).items()},
        remove=[str(r) for r in raw.get("remove", [])],
        init=bool(raw.get("init", False)),
        exit=int(raw.get("exit", 0)),
        error=raw.get("error"),
        actions={str(k): list(v) for k, v in (raw.get("actions") or {}).items()},
        note=str(raw.get("note", "")),
    )
    if step.exit == 1 and not step.error:
        raise ValueError(f"{where}: a failing step must declare the `error` summary it expects")
    if step.exit != 1 and step.error:
        raise ValueError(f"{where}: `error` given for a step that does not fail")
    if step.actions and step.op != "plan":
        raise ValueError(f"{where}: `actions` only make sense on a plan step")
    return step


def load_scenarios() -> dict[str, Scenario]:
    scenarios: dict[str, Scenario] = {}
    for path in sorted(SCENARIOS_DIR.glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        for name, body in data.items():
            if name in scenarios:
                raise ValueError(f"scenario {name!r} defined twice ({path.name})")
            steps = [_step(s, f"{path.name}:{name}[{i}]") for i, s in enumerate(body["steps"])]
            if not steps:
                raise ValueError(f"{path.name}:{name}: no steps")
            scenarios[name] = Scenario(name, str(body.get("description", "")), steps, path.name)
    return scenarios


# --------------------------------------------------------------------------- normalising


# What `normalise_document` removes or rewrites, each with the reason it may differ.
NORMALISATIONS = {
    "terraform_version": "each tool reports its own version (top level and in prior_state)",
    "timestamp": "the plan's creation time differs from run to run",
    "<uuid>": "terraform_data ids are random UUIDs; strings, keys and addresses built from "
    "them get a placeholder",
    "relevant_attributes order": "terraform collects them from a Go map and sorts them with a "
    "comparator that indexes the unsorted list: the order changes from run to run",
    "numbers": "JSON numbers are compared exactly (Decimal) as int, or as their decimal text",
}
_DROPPED = ("terraform_version", "timestamp")


def _plain(value: Any) -> Any:
    """Decimals to int/str (exactly), UUIDs (in strings and keys) to a placeholder, recursively."""
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else str(value)
    if isinstance(value, str):
        return _UUID_IN.sub("<uuid>", value)
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {_UUID_IN.sub("<uuid>", k): _plain(v) for k, v in value.items()}
    return value


def _address(address: str) -> str:
    """An instance key made of a resource id (for_each over ids) gets the UUID placeholder."""
    return _UUID_IN.sub("<uuid>", address)


def _normalise_summary(summary: str) -> str:
    """terraform names a cycle's members in a random order from run to run: sort them."""
    if summary.startswith("Cycle: "):
        return "Cycle: " + ", ".join(sorted(summary[len("Cycle: ") :].split(", ")))
    return summary


def error_summaries(run: Run) -> list[str]:
    """Every error summary of a human-readable run, in the order printed."""
    return [_normalise_summary(m) for m in _ERROR.findall(run.stderr + "\n" + run.stdout)]


def first_error(run: Run) -> str | None:
    summaries = error_summaries(run)
    return summaries[0] if summaries else None


def _json(run: Run, what: str) -> Any:
    try:
        return run.json()
    except json.JSONDecodeError:
        return {"<not json>": what, "exit": run.code, "stderr": run.stderr[-400:]}


def normalise_document(doc: Any) -> Any:
    """A `show -json` plan or state document with only NORMALISATIONS applied."""
    doc = _plain(doc)
    if isinstance(doc, dict):
        for key in _DROPPED:
            doc.pop(key, None)
        prior = doc.get("prior_state")
        if isinstance(prior, dict):
            prior.pop("terraform_version", None)
        if isinstance(doc.get("relevant_attributes"), list):
            doc["relevant_attributes"].sort(key=lambda r: json.dumps(r, sort_keys=True))
    return doc


def planned_actions(plan: Any) -> dict[str, list[str]]:
    """Address -> actions of a normalised plan document's resource changes."""
    return {
        rc["address"]: rc["change"]["actions"]
        for rc in (plan.get("resource_changes") or [])
        if isinstance(rc, dict) and "change" in rc
    }


def output_facts(outputs: Any) -> Any:
    return _plain(outputs)


def _json_path(path: tuple[Any, ...]) -> str:
    return "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path) or "."


def differing_paths(expected: Any, actual: Any, path: tuple[Any, ...] = ()) -> list[str]:
    """The JSON paths at which two documents differ, deepest first-differing point each."""
    if isinstance(expected, dict) and isinstance(actual, dict):
        out: list[str] = []
        for key in sorted(set(expected) | set(actual)):
            if key not in actual:
                out.append(f"{_json_path((*path, key))}: only in terraform")
            elif key not in expected:
                out.append(f"{_json_path((*path, key))}: only in groundplan")
            else:
                out.extend(differing_paths(expected[key], actual[key], (*path, key)))
        return out
    if isinstance(expected, list) and isinstance(actual, list) and len(expected) == len(actual):
        return [d for i, (e, a) in enumerate(zip(expected, actual))
                for d in differing_paths(e, a, (*path, i))]
    if expected != actual:
        return [f"{_json_path(path)}: differs"]
    return []


def _dump(doc: Any) -> list[str]:
    return json.dumps(doc, indent=2, sort_keys=True, default=str).splitlines()


def document_diff(expected: Any, actual: Any, max_lines: int = 160) -> str:
    """The differing paths, then a unified diff (terraform -> groundplan) of two documents."""
    paths = differing_paths(expected, actual)
    lines = [f"    {p}" for p in paths[:20]]
    if len(paths) > 20:
        lines.append(f"    ... and {len(paths) - 20} more differing paths")
    diff = list(difflib.unified_diff(_dump(expected), _dump(actual), "terraform",
                                     "groundplan", n=3, lineterm=""))
    if len(diff) > max_lines:
        diff = [*diff[:max_lines], f"... ({len(diff) - max_lines} more diff lines)"]
    return "\n".join(lines + [f"    {d}" for d in diff])


# --------------------------------------------------------------------------- running


def _prepare(work: Path, step: Step) -> None:
    for rel in step.remove:
        (work / rel).unlink(missing_ok=True)
    for src, dst in step.copy.items():
        shutil.copyfile(work / src, work / dst)
    for rel, text in step.files.items():
        target = work / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")


def _command(step: Step) -> list[str] | None:
    if step.op == "plan":
        return [
            "plan",
            "-input=false",
            "-no-color",
            "-detailed-exitcode",
            f"-out={PLANFILE}",
            *step.args,
        ]
    if step.op == "apply":
        return ["apply", "-input=false", "-no-color", *step.args, PLANFILE]
    if step.op == "apply_auto":
        return ["apply", "-auto-approve", "-input=false", "-no-color", *step.args]
    if step.op in ("taint", "untaint"):
        return [step.op, "-no-color", *step.args]
    if step.op == "validate":
        return ["validate", "-no-color", *step.args]
    if step.op == "state_list":
        return ["state", "list", *step.args]
    if step.op == "output":
        return ["output", "-json", *step.args]
    return None


def run_step(run: Runner, work: Path, step: Step) -> dict[str, Any]:
    """Run one step and return its normalised observations."""
    _prepare(work, step)
    facts: dict[str, Any] = {"op": step.op, "args": step.args}
    if step.init:
        init = run(work, "init", "-input=false", "-no-color")
        facts["init_exit"] = init.code
        facts["init_error"] = first_error(init) if init.code else None
    argv = _command(step)
    if argv is None:
        return facts
    result = run(work, *argv)
    facts["exit"] = result.code
    facts["error"] = first_error(result) if result.code == 1 else None
    facts["error_count"] = len(error_summaries(result))
    if step.op == "plan" and result.code in (0, 2):
        plan = _json(run(work, "show", "-json", PLANFILE), "show -json plan")
        facts["plan"] = normalise_document(plan)
    if step.op in ("apply", "apply_auto"):
        facts["outputs"] = output_facts(_json(run(work, "output", "-json"), "output -json"))
    if step.op in ("apply", "apply_auto", "taint", "untaint"):
        facts["state"] = normalise_document(_json(run(work, "show", "-json"), "show -json"))
    if step.op == "state_list" and result.code == 0:
        facts["addresses"] = sorted(map(_address, result.stdout.split()))
    if step.op == "output" and result.code == 0:
        facts["outputs"] = output_facts(_json(result, "output -json"))
    return facts


def run_scenario(run: Runner, scenario: Scenario) -> list[dict[str, Any]]:
    """All steps of one scenario in a fresh directory; stops after the first malformed step."""
    with tempfile.TemporaryDirectory(prefix=f"gp-scn-{scenario.name}-") as tmp:
        work = Path(tmp)
        return [run_step(run, work, step) for step in scenario.steps]


def check_well_formed(scenario: Scenario, observed: list[dict[str, Any]]) -> list[str]:
    """Where terraform's run disagrees with what the scenario declares; empty when it agrees."""
    problems: list[str] = []
    for i, (step, facts) in enumerate(zip(scenario.steps, observed)):
        where = f"{scenario.name} step {i} ({step.op} {' '.join(step.args)})"
        if step.init and facts.get("init_exit") != 0:
            problems.append(f"{where}: terraform init failed: {facts.get('init_error')}")
        if step.op == "none":
            continue
        if facts["exit"] != step.exit:
            problems.append(
                f"{where}: terraform exited {facts['exit']} (error: {facts['error']!r}), "
                f"the scenario declares {step.exit}"
            )
        if step.error and step.error not in (facts["error"] or ""):
            problems.append(
                f"{where}: terraform's first error is {facts['error']!r}, "
                f"the scenario declares one containing {step.error!r}"
            )
        if facts["error_count"] > 1:
            problems.append(
                f"{where}: terraform reports {facts['error_count']} errors; a step should "
                "fail for one reason so that its first error is well defined"
            )
        if step.actions:
            planned = planned_actions(facts.get("plan", {}))
            for addr, actions in step.actions.items():
                if planned.get(addr) != actions:
                    problems.append(
                        f"{where}: terraform plans {planned.get(addr)} for {addr}, "
                        f"the scenario declares {actions}"
                    )
    return problems


def run_terraform_side(scenario: Scenario) -> list[dict[str, Any]]:
    return run_scenario(run_terraform, scenario)


def describe_difference(expected: dict[str, Any], actual: dict[str, Any]) -> str:
    """The keys on which two observations of one step differ: a JSON document (plan, state,
    outputs) as its differing paths and a unified diff, anything else with both sides shown."""
    lines = []
    for key in sorted(set(expected) | set(actual)):
        e, a = expected.get(key), actual.get(key)
        if e == a:
            continue
        if isinstance(e, (dict, list)) and isinstance(a, (dict, list)):
            lines.append(f"  {key} (normalised JSON, - terraform, + groundplan):")
            lines.append(document_diff(e, a))
        else:
            lines.append(
                f"  {key}:\n    terraform:  {json.dumps(e, default=str, sort_keys=True)[:3000]}"
                f"\n    groundplan: {json.dumps(a, default=str, sort_keys=True)[:3000]}"
            )
    return "\n".join(lines)


def compare_with_groundplan(scenario: Scenario, expected: list[dict[str, Any]]) -> list[str]:
    """Run the scenario through groundplan step by step against terraform's observations.

    Stops at the first step that differs: later steps build on its outcome.
    """
    with tempfile.TemporaryDirectory(prefix=f"gp-scn-{scenario.name}-gp-") as tmp:
        work = Path(tmp)
        for i, (step, want) in enumerate(zip(scenario.steps, expected)):
            got = run_step(run_groundplan, work, step)
            if got != want:
                return [
                    f"{scenario.name} step {i} ({step.op} {' '.join(step.args)}) differs "
                    f"from terraform:\n{describe_difference(want, got)}"
                ]
    return []


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help="scenarios to run (default: all)")
    parser.add_argument("--compare", action="store_true", help="also run groundplan and diff")
    ns = parser.parse_args(argv)
    scenarios = load_scenarios()
    names = ns.names or sorted(scenarios)
    failed = 0
    for name in names:
        scenario = scenarios[name]
        expected = run_terraform_side(scenario)
        problems = check_well_formed(scenario, expected)
        if ns.compare and not problems:
            problems = compare_with_groundplan(scenario, expected)
        status = "ok" if not problems else "FAIL"
        print(f"{status:4} {name}")
        for p in problems:
            print(f"     {p}")
        failed += bool(problems)
    print(f"{len(names) - failed}/{len(names)} scenarios ok")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
