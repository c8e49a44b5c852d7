"""`override_module`: a module call whose contents are not run, its outputs given instead.

While a run executes, the overridden call's module is replaced by one that declares the same
input variables (so the call's arguments are still checked) and, for every output of the
original module, an output whose value is the override's (null when the override does not
name it, as terraform's nodeExpandOutput.getOverrideValue); nothing else of the module or of
its own children is planned.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine.configs.module import Module
from engine.configs.outputs import Output
from engine.hcl.ast import LiteralValueExpr
from engine.testing.overrides import Override
from engine.values import NULL_DYNAMIC


def _stub(module: Module, ov: Override) -> Module:
    given = ov.values.v if isinstance(ov.values.v, dict) else {}
    outputs: dict[str, Output] = {}
    for name, out in module.outputs.items():
        value = given.get(name, NULL_DYNAMIC)
        rng = ov.values_range or ov.decl_range
        outputs[name] = Output(name, out.decl_range, LiteralValueExpr(value, rng),
                               sensitive=out.sensitive, sensitive_set=out.sensitive_set)
    return Module(source_dir=module.source_dir, files=list(module.files),
                  variables=dict(module.variables), outputs=outputs,
                  required_providers=dict(module.required_providers))


def install_module_overrides(config: Any, overrides: dict[str, Override]
                             ) -> list[Callable[[], None]]:
    """Replace the modules `overrides` target (by `module.a.module.b` path); the undo steps."""
    undo: list[Callable[[], None]] = []
    if not overrides:
        return undo
    for node in list(config.walk()):
        if not node.path:
            continue
        ov = overrides.get(node.path_str)
        if ov is None:
            continue
        saved_module, saved_children = node.module, node.children
        node.module = _stub(saved_module, ov)
        node.children = {}

        def restore(n: Any = node, m: Module = saved_module, c: dict[str, Any] = saved_children
                    ) -> None:
            n.module, n.children = m, c

        undo.append(restore)
    return undo

