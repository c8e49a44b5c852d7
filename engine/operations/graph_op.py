"""The resource dependency graph of a configuration (what `graph` draws).

    deps, diags = resource_graph(config)     # {resource node: the resource nodes it needs}

Built by the plan graph's steps against an empty state, without targets; dependencies
through locals, variables, outputs and module calls count (engine.graph.builder_nodes).
"""

from __future__ import annotations

from engine.configs import Config
from engine.diags import Diagnostics
from engine.graph.builder import build_graph, plan_steps
from engine.graph.builder_nodes import Node as GraphNode
from engine.graph.builder_nodes import resource_dependencies
from engine.graph.digraph import DiGraph, is_directed_acyclic_graph, transitive_reduction
from engine.states.state import State


def resource_graph(config: Config) -> tuple[dict[GraphNode, set[GraphNode]], Diagnostics]:
    """Every resource node of `config` with the resource nodes it depends on (empty with
    errors: a cycle, a bad reference)."""
    build, diags = build_graph(config, plan_steps(State(), []))
    if diags.has_errors:
        return {}, diags
    return resource_dependencies(build.graph), diags


__all__ = [
    "DiGraph",
    "GraphNode",
    "is_directed_acyclic_graph",
    "resource_graph",
    "transitive_reduction",
]
