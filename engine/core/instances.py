"""The expanded module tree of a plan or apply walk, with resource values.

`InstanceTree` holds one `ModuleScope` per module instance (`module.a["k"]`), created as the
walk expands module calls, and a `ResourceValues` store the scopes read resource references
from. Graph nodes drive it in dependency order:

- `expand_call(module, name)`: evaluates a call's `count`/`for_each` in every instance of the
  calling module (with `expander`, default engine.core.expansion.expand) and creates the
  child instances (with their `count`/`each` roots);
- `set_variable(module, name)`: evaluates a child module's input argument in the parent for
  every instance of the child and finalises it (defaults, type, sensitivity, validation);
- `eval_local(module, name)` / `eval_output(module, name)`: evaluate and memoise a local or
  an output in every instance (outputs feed the parent's `module.<name>` object).

Scopes evaluate lazily what no node evaluated yet, so the tree also works outside a walk.
Resource values: a resource not yet recorded is an unknown value ("known after apply").
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from engine.addrs import Module as ModulePath
from engine.addrs import ModuleInstance, ModuleInstanceStep
from engine.addrs.keys import InstanceKey
from engine.checks import OUTPUT_PRECONDITION, VALIDATION, ChecksState, in_module
from engine.core.conditions import Reporter
from engine.core.expansion import expand
from engine.core.inputs import finalize_input, validate_inputs
from engine.core.outputs import OutputResult, evaluate_output
from engine.core.scope import ModuleScope
from engine.diags import Diagnostics, error
from engine.values import UNKNOWN_DYNAMIC, Value, object_, tuple_

COUNT, FOR_EACH, SINGLE = "count", "for_each", ""

# Expands a module call in its parent's scope: (mode, [(key, extra roots)], diagnostics).
Expander = Callable[
    [ModuleScope, Any], tuple[str, list[tuple[int | str | None, dict[str, Value]]], Diagnostics]
]


@dataclass(slots=True)
class ResourceEntry:
    """The instances of one resource in one module instance: how it repeats and each
    instance's value (None mode: expansion unknown)."""

    mode: str | None = SINGLE
    values: dict[InstanceKey, Value] = field(default_factory=dict)


class ResourceValues:
    """Thread-safe store of resource instance values, by module instance and resource."""

    def __init__(self) -> None:
        self._mu = threading.Lock()
        self._entries: dict[tuple[ModuleInstance, str, str, str], ResourceEntry] = {}
        self._cache: dict[tuple[ModuleInstance, str, str, str], Value] = {}

    def expand(self, mi: ModuleInstance, mode: str, rtype: str, name: str,
               repetition: str | None) -> None:
        """Record how the resource repeats (None: unknown) and forget earlier values."""
        with self._mu:
            self._entries[(mi, mode, rtype, name)] = ResourceEntry(repetition)
            self._cache.pop((mi, mode, rtype, name), None)

    def set(self, mi: ModuleInstance, mode: str, rtype: str, name: str, key: InstanceKey,
            value: Value) -> None:
        with self._mu:
            entry = self._entries.setdefault((mi, mode, rtype, name), ResourceEntry(
                COUNT if isinstance(key, int) else FOR_EACH if isinstance(key, str) else SINGLE))
            entry.values[key] = value
            self._cache.pop((mi, mode, rtype, name), None)

    def get(self, mi: ModuleInstance, mode: str, rtype: str, name: str,
            key: InstanceKey) -> Value | None:
        with self._mu:
            entry = self._entries.get((mi, mode, rtype, name))
            return None if entry is None else entry.values.get(key)

    def value(self, mi: ModuleInstance, mode: str, rtype: str, name: str) -> Value:
        """What `type.name` means in module instance `mi`."""
        k = (mi, mode, rtype, name)
        with self._mu:
            cached = self._cache.get(k)
            if cached is not None:
                return cached
            entry = self._entries.get(k)
            if entry is None or entry.mode is None:
                return UNKNOWN_DYNAMIC
            vals = entry.values
            if entry.mode == COUNT:
                n = len(vals)
                if any(i not in vals for i in range(n)):
                    return UNKNOWN_DYNAMIC
                out = tuple_(vals[i] for i in range(n))
            elif entry.mode == FOR_EACH:
                out = object_({str(key): vals[key] for key in sorted(vals, key=str)})
            else:
                out = vals.get(None, UNKNOWN_DYNAMIC)
            self._cache[k] = out
            return out


class InstanceTree:
    """Module instances of one walk (see the module docstring)."""

    def __init__(
        self,
        config: Any,
        root_values: dict[str, Value],
        cwd: str,
        plan_phase: bool,
        values: ResourceValues | None = None,
        expander: Expander | None = None,
        destroying: bool = False,
    ) -> None:
        self.config = config
        self.destroying = destroying
        self.expander: Expander = expander or expand
        self.cwd = cwd
        self.plan_phase = plan_phase
        self.values = values or ResourceValues()
        self._mu = threading.RLock()
        self._configs: dict[ModuleInstance, Any] = {}
        self._scopes: dict[ModuleInstance, ModuleScope] = {}
        self._extra: dict[ModuleInstance, dict[str, Value]] = {}
        self._by_module: dict[ModulePath, list[ModuleInstance]] = {}
        self._outputs: dict[tuple[ModuleInstance, str], OutputResult] = {}
        self._unknown_modules: set[ModulePath] = set()
        # where the walk records check statuses (variables and outputs), if anywhere
        self.checks: ChecksState | None = None
        root = ModuleInstance()
        self._add(root, config, dict(root_values), "the root module", ".")

    # ------------------------------------------------------------------ instances
    def _add(self, mi: ModuleInstance, cfg: Any, inputs: dict[str, Value], label: str,
             module_path: str) -> None:
        def outputs(name: str) -> tuple[Value, Diagnostics]:
            return self._module_object(mi, name)

        def resource_value(mode: str, rtype: str, name: str) -> Value:
            if self.destroying and mode == "managed":
                return self._destroying_value(mi, cfg, rtype, name)
            return self.values.value(mi, mode, rtype, name)

        scope = ModuleScope(
            cfg.module, module_path=module_path, root_path=".", cwd=self.cwd,
            input_values=inputs, module_outputs=outputs, module_label=label,
            plan_phase=self.plan_phase, resource_value=resource_value,
        )
        self._configs[mi] = cfg
        self._scopes[mi] = scope
        self._by_module.setdefault(mi.module(), []).append(mi)

    def _destroying_value(self, mi: ModuleInstance, cfg: Any, rtype: str, name: str) -> Value:
        """A managed resource in a destroy plan, as terraform's evaluator gives it: every
        instance is planned for deletion and no longer counts, so a resource with `count` is
        an empty tuple, one with `for_each` an empty object, and a single one unknown. This
        is what lets `concat(aws_x.this.*.id, [""])[0]` in a module output evaluate to "" while
        everything is being destroyed. Values the walk did record (none, in a destroy plan)
        win."""
        recorded = self.values.value(mi, "managed", rtype, name)
        if recorded is not UNKNOWN_DYNAMIC:
            return recorded
        res = cfg.module.managed_resources.get(f"{rtype}.{name}")
        if res is not None and res.count is not None:
            return tuple_([])
        if res is not None and res.for_each is not None:
            return object_({})
        return UNKNOWN_DYNAMIC

    def scope(self, mi: ModuleInstance) -> ModuleScope:
        return self._scopes[mi]

    def config_of(self, mi: ModuleInstance) -> Any:
        return self._configs[mi]

    def instances(self, module: ModulePath) -> list[ModuleInstance]:
        """The known instances of a static module path (after its calls were expanded)."""
        with self._mu:
            return list(self._by_module.get(module, []))

    def expansion_unknown(self, module: ModulePath) -> bool:
        """Whether some call on the way to `module` could not be expanded."""
        return any(module.names[: len(m.names)] == m.names for m in self._unknown_modules)

    def extra_roots(self, mi: ModuleInstance) -> dict[str, Value]:
        """The `count`/`each` roots of the module call instance `mi` came from."""
        return self._extra.get(mi, {})

    # ------------------------------------------------------------------ node operations
    def expand_call(self, module: ModulePath, name: str) -> Diagnostics:
        """Create the instances of call `name` in every instance of `module`."""
        diags = Diagnostics()
        for parent in self.instances(module):
            cfg = self._configs[parent]
            child_cfg = cfg.children.get(name)
            call = cfg.module.module_calls[name]
            if child_cfg is None:
                diags.append(error(
                    "Module not installed",
                    "This module is not yet installed. Run \"groundplan init\" to install all "
                    "modules required by this configuration.", call.decl_range))
                continue
            _mode, insts, more = self.expander(self._scopes[parent], call)
            diags.extend(more)
            if more.has_errors:
                with self._mu:
                    self._unknown_modules.add(module.child(name))
                continue
            for key, extra in insts:
                mi = ModuleInstance((*parent.steps, ModuleInstanceStep(name, key)))
                label = f"module.{name}" + (
                    f"[{key}]" if isinstance(key, int) else f'["{key}"]' if isinstance(key, str)
                    else "")
                path = os.path.relpath(child_cfg.source_dir, self.config.source_dir) \
                    if child_cfg.source_dir and self.config.source_dir else call.source
                with self._mu:
                    self._extra[mi] = extra
                    self._add(mi, child_cfg, {}, label, path)
        return diags

    def set_variable(self, module: ModulePath, name: str, check: bool = True) -> Diagnostics:
        """Evaluate input `name` of every instance of the (non-root) `module`."""
        diags = Diagnostics()
        call_name = module.names[-1]
        for mi in self.instances(module):
            parent = ModuleInstance(mi.steps[:-1])
            pcfg = self._configs[parent]
            call = pcfg.module.module_calls[call_name]
            var = self._configs[mi].module.variables[name]
            attr = call.config.attributes.get(name)
            value: Value | None = None
            rng = call.decl_range
            if attr is not None:
                val, more = self._scopes[parent].evaluate(attr.expr, self._extra.get(mi, {}))
                diags.extend(more)
                value = val
                rng = attr.expr.range
            elif var.default is None:
                diags.append(error(
                    "Missing required argument",
                    f'The argument "{name}" is required, but no definition was found.',
                    call.decl_range))
            fin, more = finalize_input(var, value, rng)
            diags.extend(more)
            scope = self._scopes[mi]
            scope.set_input(name, fin)
            if check and var.validations:
                reporters = {name: self._reporter(mi, f"var.{name}", VALIDATION)}
                more, _failed = validate_inputs({name: var}, scope.evaluate, reporters.get)
                diags.extend(more)
        return diags

    def _reporter(self, mi: ModuleInstance, local: str, rule_type: str) -> Reporter | None:
        """Where the statuses of the conditions of `local` (`var.x`, `output.y`) in `mi` are
        recorded (`self.checks`), the object reported; None when nowhere."""
        if self.checks is None:
            return None
        return self.checks.reporter(in_module(str(mi.module()), local), in_module(str(mi), local),
                                    rule_type)

    def eval_local(self, module: ModulePath, name: str) -> Diagnostics:
        diags = Diagnostics()
        for mi in self.instances(module):
            scope = self._scopes[mi]
            val, more = scope.evaluate(scope.module.locals[name].expr)
            diags.extend(more)
            scope.set_local(name, val)
        return diags

    def eval_output(self, module: ModulePath, name: str, check: bool = True) -> Diagnostics:
        diags = Diagnostics()
        for mi in self.instances(module):
            scope = self._scopes[mi]
            res, more = evaluate_output(
                scope, scope.module.outputs[name], check, is_root=not mi.steps,
                report=self._reporter(mi, f"output.{name}", OUTPUT_PRECONDITION) if check
                else None)
            diags.extend(more)
            with self._mu:
                if res is not None:
                    self._outputs[(mi, name)] = res
                else:
                    self._outputs.pop((mi, name), None)
            if mi.steps:
                self._scopes[ModuleInstance(mi.steps[:-1])].forget_module(mi.steps[-1].name)
        return diags

    def output(self, mi: ModuleInstance, name: str) -> OutputResult | None:
        with self._mu:
            return self._outputs.get((mi, name))

    # ------------------------------------------------------------------ module objects
    def _module_object(self, parent: ModuleInstance, name: str) -> tuple[Value, Diagnostics]:
        diags = Diagnostics()
        cfg = self._configs[parent]
        call = cfg.module.module_calls[name]
        child_cfg = cfg.children.get(name)
        module = parent.module().child(name)
        if child_cfg is None or self.expansion_unknown(module):
            return UNKNOWN_DYNAMIC, diags
        children = [mi for mi in self.instances(module) if mi.steps[:-1] == parent.steps]
        if not children and call.count is None and call.for_each is None:
            return UNKNOWN_DYNAMIC, diags

        def obj(mi: ModuleInstance) -> Value:
            out: dict[str, Value] = {}
            for oname in child_cfg.module.outputs:
                res = self.output(mi, oname)
                out[oname] = res.value if res is not None else UNKNOWN_DYNAMIC
            return object_(out)

        if call.count is not None:
            ordered = sorted(children, key=lambda m: m.steps[-1].key)  # type: ignore[arg-type,return-value]
            return tuple_(obj(m) for m in ordered), diags
        if call.for_each is not None:
            return object_({str(m.steps[-1].key): obj(m) for m in children}), diags
        return obj(children[0]), diags
