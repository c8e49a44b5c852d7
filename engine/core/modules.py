"""Evaluating a module tree without resources: inputs, locals, outputs, child modules.

`ModuleInstance` ties a configuration node to its scope. A child module call's inputs are its
arguments evaluated in the parent's scope (with `count.index` or `each.key`/`each.value` for
calls with `count`/`for_each`); the child's outputs become the object that `module.<name>`
refers to in the parent (declared-sensitive outputs stay marked).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from engine.core.conditions import Reporter
from engine.core.expansion import expand
from engine.core.inputs import finalize_input, validate_inputs
from engine.core.outputs import OutputResult, evaluate_outputs
from engine.core.scope import ModuleScope
from engine.diags import Diagnostics, error
from engine.values import UNKNOWN_DYNAMIC, Value, object_, tuple_, unknown

# Arguments of a `module` block that are not input variables.
META_ARGUMENTS = frozenset(
    {"source", "version", "count", "for_each", "depends_on", "providers"}
)


class ModuleInstance:
    """One module of the tree, evaluated on demand."""

    def __init__(
        self,
        config: Any,
        module_path: str,
        root_dir: str,
        input_values: dict[str, Value],
        check_conditions: bool = True,
        label: str = "the root module",
        plan_phase: bool = False,
    ) -> None:
        self.config = config
        self.module = config.module
        self.check_conditions = check_conditions
        self.root_dir = root_dir
        self.plan_phase = plan_phase
        self.scope = ModuleScope(
            self.module,
            module_path=module_path,
            root_path=".",
            cwd=root_dir,
            input_values=input_values,
            module_outputs=self._child_outputs,
            module_label=label,
            plan_phase=plan_phase,
        )
        self._children: dict[str, ModuleInstance] = {}

    def validate_inputs(self, reporter: Callable[[str], Reporter | None] | None = None
                        ) -> Diagnostics:
        """Check the variable validation rules of this module (statuses to `reporter(name)`,
        see engine.core.inputs). A variable that fails takes an unknown value from then on,
        as in Terraform, so its failure does not cascade."""
        if not self.check_conditions:
            return Diagnostics()
        diags, failed = validate_inputs(self.module.variables, self.scope.evaluate, reporter)
        if failed:
            for name in failed:
                old = self.scope.input_values[name]
                var = self.module.variables[name]
                self.scope.input_values[name] = unknown(var.type).with_marks(old.marks)
            self.scope.reset()
        return diags

    def outputs(self) -> tuple[dict[str, OutputResult], Diagnostics]:
        """Every output, evaluated (those that failed are left out, with diagnostics), then
        every local no output needed: Terraform evaluates them all and reports their errors."""
        results, diags = evaluate_outputs(self.scope, self.check_conditions)
        for name in sorted(self.module.locals):
            self.scope.local_value(name, diags)
        return results, diags

    def _child_outputs(self, name: str) -> tuple[Value, Diagnostics]:
        """`module.<name>`: the object of the child's outputs, a tuple of them (`count`) or
        an object of them by key (`for_each`)."""
        diags = Diagnostics()
        call = self.module.module_calls[name]
        children = getattr(self.config, "children", {}) or {}
        child_config = children.get(name)
        if child_config is None:
            diags.append(
                error(
                    "Module not installed",
                    "This module is not yet installed. Run \"groundplan init\" to install all "
                    "modules required by this configuration.",
                    call.decl_range,
                )
            )
            return UNKNOWN_DYNAMIC, diags
        mode, instances, more = expand(self.scope, call)
        diags.extend(more)
        if more.has_errors:
            return UNKNOWN_DYNAMIC, diags
        results: list[tuple[int | str | None, Value]] = []
        for key, extra in instances:
            val, more = self._instance_outputs(name, call, child_config, key, extra)
            diags.extend(more)
            results.append((key, val))
        if diags.has_errors:
            return UNKNOWN_DYNAMIC, diags
        if mode == "count":
            return tuple_(v for _, v in results), diags
        if mode == "for_each":
            return object_({str(k): v for k, v in results}), diags
        return results[0][1], diags

    def _instance_outputs(
        self,
        name: str,
        call: Any,
        child_config: Any,
        key: int | str | None,
        extra: dict[str, Value],
    ) -> tuple[Value, Diagnostics]:
        diags = Diagnostics()
        values, more = self._call_inputs(call, child_config, extra)
        diags.extend(more)
        if more.has_errors:
            return UNKNOWN_DYNAMIC, diags
        label = f"module.{name}"
        if isinstance(key, int):
            label += f"[{key}]"
        elif isinstance(key, str):
            label += f'["{key}"]'
        child = ModuleInstance(
            child_config,
            _child_module_path(self.scope.module_path, call, child_config),
            self.root_dir,
            values,
            self.check_conditions,
            label=label,
            plan_phase=self.plan_phase,
        )
        self._children[label] = child
        diags.extend(child.validate_inputs())
        results, more = child.outputs()
        diags.extend(more)
        if diags.has_errors:
            return UNKNOWN_DYNAMIC, diags
        return object_({k: r.value for k, r in results.items()}), diags

    def _call_inputs(
        self, call: Any, child_config: Any, extra: dict[str, Value]
    ) -> tuple[dict[str, Value], Diagnostics]:
        diags = Diagnostics()
        body = call.config
        attrs = dict(getattr(body, "attributes", {}) or {})
        child_vars = child_config.module.variables
        given: dict[str, Value] = {}
        for name, attr in attrs.items():
            if name in META_ARGUMENTS:
                continue
            if name not in child_vars:
                diags.append(
                    error(
                        "Unsupported argument",
                        f'An argument named "{name}" is not expected here.',
                        attr.name_range,
                    )
                )
                continue
            val, more = self.scope.evaluate(attr.expr, extra)
            diags.extend(more)
            if more.has_errors:
                continue
            fin, more = finalize_input(child_vars[name], val, attr.expr.range)
            diags.extend(more)
            given[name] = fin
        for name, var in child_vars.items():
            if name in given or name in attrs:
                continue
            if var.default is None:
                diags.append(
                    error(
                        "Missing required argument",
                        f'The argument "{name}" is required, but no definition was found.',
                        call.decl_range,
                    )
                )
                continue
            fin, more = finalize_input(var, None, call.decl_range)
            diags.extend(more)
            given[name] = fin
        return given, diags


def _child_module_path(parent_path: str, call: Any, child_config: Any) -> str:
    """`path.module` of a child module: its source directory relative to the root module."""
    root = getattr(child_config, "root", None)
    child_dir = getattr(child_config, "source_dir", None)
    root_dir = getattr(root, "source_dir", None) if root is not None else None
    if isinstance(child_dir, str) and isinstance(root_dir, str):
        return os.path.relpath(child_dir, root_dir)
    source = getattr(call, "source", "")
    return os.path.normpath(os.path.join(parent_path, source))
