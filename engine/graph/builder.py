"""Building plan graphs from an ordered list of steps (terraform's BasicGraphBuilder).

`build_graph(config, steps)` runs each step of `steps` on one `GraphBuild` in order and stops
at the first step that reports an error. `plan_steps(state, targets, destroy)` is the list the planner
uses; see engine.graph.steps for what each step does.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from engine.addrs import AbsResource, AbsResourceInstance, ModuleInstance
from engine.diags import Diagnostics
from engine.graph.steps import (
    ConfigStep,
    CycleStep,
    GraphBuild,
    ModuleExpansionStep,
    ProviderStep,
    ReferencesStep,
    StateStep,
    TargetsStep,
)

Step = Callable[[GraphBuild], Diagnostics]


def build_graph(config: Any, steps: Sequence[Step]) -> tuple[GraphBuild, Diagnostics]:
    """Run `steps` in order on a new build for `config`."""
    build = GraphBuild(config)
    diags = Diagnostics()
    for step in steps:
        diags.extend(step(build))
        if diags.has_errors:
            break
    return build, diags


def plan_steps(
    state: Any,
    targets: list[AbsResource | AbsResourceInstance | ModuleInstance] | None = None,
    destroy: bool = False,
) -> list[Step]:
    """The steps of a plan graph: config, state orphans, references, module expansion,
    providers, targets, cycle check. `destroy`: a destroy plan (or its apply), whose targets
    keep what depends on them instead of what they depend on."""
    return [
        ConfigStep(),
        StateStep(state),
        ReferencesStep(),
        ModuleExpansionStep(),
        ProviderStep(),
        TargetsStep(list(targets or []), destroy),
        CycleStep(),
    ]


def validate_steps() -> list[Step]:
    """The steps of terraform's validate graph: the configuration's objects, their
    references, module expansion and providers, then the cycle check (no state)."""
    return [ConfigStep(), ReferencesStep(), ModuleExpansionStep(), ProviderStep(), CycleStep()]
