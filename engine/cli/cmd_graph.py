"""`graph`: the resource dependency graph in DOT, as terraform 1.11 draws it by default.

    digraph G {
      rankdir = "RL";
      node [shape = rect, fontname = "sans-serif"];
      "terraform_data.a" [label="terraform_data.a"];
      subgraph "cluster_module.m" {
        label = "module.m"
        fontname = "sans-serif"
        "module.m.terraform_data.x" [label="terraform_data.x"];
      }
      "terraform_data.b" -> "terraform_data.a";
    }

Nodes are the configuration's resources (data sources first, then by type and name; a
module's resources in a cluster after the root's); an edge goes from a resource to each one
it depends on — through references, locals, variables, outputs and module calls — reduced
to the direct ones (transitive reduction). The `-type` graphs of the whole operation are
not drawn by this command.
"""

from __future__ import annotations

import json

from engine.cli.args import FlagSet
from engine.cli.meta import Meta
from engine.diags import error
from engine.operations.graph_op import (
    DiGraph,
    is_directed_acyclic_graph,
    resource_graph,
    transitive_reduction,
)
from engine.operations.graph_op import GraphNode as Node


def _order(n: Node) -> tuple[object, ...]:
    data = n.name.startswith("data.")
    parts = n.name.split(".")
    return (n.module.names, 0 if data else 1, parts[-2], parts[-1])


def render_dot(deps: dict[Node, set[Node]]) -> str:
    """The DOT text for resource nodes and their dependencies."""
    g: DiGraph = DiGraph()
    g.add_nodes_from(deps)
    for n, ds in deps.items():
        g.add_edges_from((n, d) for d in ds if d != n)
    if is_directed_acyclic_graph(g):
        g = transitive_reduction(g)
    nodes = sorted(g.nodes, key=_order)
    rank = {n: i for i, n in enumerate(nodes)}
    lines = ['digraph G {', '  rankdir = "RL";', '  node [shape = rect, fontname = "sans-serif"];']
    modules: dict[tuple[str, ...], list[Node]] = {}
    for n in nodes:
        modules.setdefault(n.module.names, []).append(n)
    for names in sorted(modules):
        members = modules[names]
        if not names:
            lines += [f"  {json.dumps(str(n))} [label={json.dumps(n.name)}];" for n in members]
            continue
        label = str(members[0].module)
        lines += [f"  subgraph {json.dumps('cluster_' + label)} {{", f"    label = {json.dumps(label)}",
                  '    fontname = "sans-serif"']
        lines += [f"    {json.dumps(str(n))} [label={json.dumps(n.name)}];" for n in members]
        lines.append("  }")
    for a, b in sorted(g.edges, key=lambda e: (rank[e[0]], rank[e[1]])):
        lines.append(f"  {json.dumps(str(a))} -> {json.dumps(str(b))};")
    lines.append("}")
    return "\n".join(lines) + "\n"


def run_graph(meta: Meta, args: list[str]) -> int:
    fs = FlagSet().text("type").text("plan").boolean("draw-cycles").integer("module-depth", -1)
    rest = meta.parse_flags("graph", fs, args)
    if rest is None:
        return 1
    ui = meta.ui
    if rest:
        ui.err("The graph command expects no arguments.")
        return 1
    if fs.get("type") or fs.get("plan"):
        ui.diagnostics([error(
            "Operation graphs are not drawn",
            "This command draws the resource dependency graph of the configuration; the "
            "-type and -plan graphs of terraform's internal operations are not available.")])
        return 1
    config, diags = meta.load_config()
    if diags.has_errors or config is None:
        ui.diagnostics(diags)
        return 1
    deps, more = resource_graph(config)
    if more.has_errors:
        ui.diagnostics(more)
        return 1
    ui.raw(render_dot(deps))
    return 0
