"""The evaluation scope of one module instance (for modules without resources).

`ModuleScope.evaluate(expr)` evaluates an expression of the module: it looks at the
references the expression makes and gives it exactly the roots it needs:

- `var`: the module's input values (sensitive variables carry the sensitive mark);
- `local`: the locals it refers to, each evaluated on first use and memoised; a local that
  (directly or through others) refers to itself is an error naming the members of the cycle;
- `module`: the outputs of the child module calls it refers to (see `engine.core.modules`);
- `path` (`module`, `root`, `cwd`) and `terraform` (`workspace`: the name given to the scope,
  else the process's selected workspace, set once per invocation by the CLI through
  `engine.core.workspace.select_workspace`, else "default").

In the plan phase (`plan_phase`), impure functions such as `timestamp()` give unknown values.

A reference to something the module does not declare is Terraform's "Reference to
undeclared ..." error. Evaluation never raises: problems come back as diagnostics, and the
value is then an unknown of dynamic type so callers can carry on.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

from engine.configs.exprs import variables as expr_traversals
from engine.core.workspace import selected_workspace
from engine.diags import Diagnostic, Diagnostics, error
from engine.hcl.ast import Expr, TraverseAttr, TraverseRoot
from engine.lang import evaluate
from engine.lang.context import EvalContext
from engine.lang.functions import function_table
from engine.source import Range
from engine.values import STRING, UNKNOWN_DYNAMIC, Value, object_, string

# Builds the object of a child module call's outputs; given the call name and the range of
# the reference (for messages). Supplied by `engine.core.modules`.
ModuleOutputsFn = Callable[[str], tuple[Value, Diagnostics]]

# Gives the value a resource reference stands for: (mode "managed"/"data", type, name) →
# the object (single instance), tuple (count) or object by key (for_each). Supplied by the
# plan and apply walks (engine.core.instances); without it resources are unknown.
ResourceValueFn = Callable[[str, str, str], Value]

# Roots a caller supplies through `extra` (never looked up as resource types).
_EXTRA_ROOTS = frozenset({"count", "each", "self"})



class ModuleScope:
    """Everything an expression in one module can refer to."""

    def __init__(
        self,
        module: Any,
        module_path: str,
        root_path: str,
        cwd: str,
        input_values: dict[str, Value],
        module_outputs: ModuleOutputsFn | None = None,
        module_label: str = "the root module",
        workspace: str | None = None,
        plan_phase: bool = False,
        resource_value: ResourceValueFn | None = None,
    ) -> None:
        self.module = module
        self.resource_value = resource_value
        self.module_path = module_path
        self.root_path = root_path
        self.cwd = cwd
        self.input_values = input_values
        self.module_outputs = module_outputs
        self.module_label = module_label
        self.workspace = workspace if workspace is not None else selected_workspace()
        self.plan_phase = plan_phase
        self._functions = function_table(os.path.join(cwd, module_path))
        self._locals: dict[str, Value] = {}
        self._local_stack: list[str] = []
        self._modules: dict[str, Value] = {}
        self._var_object: Value | None = None
        self._reported: set[tuple[str, str]] = set()

    def reset(self) -> None:
        """Forget every memoised value (after the input values changed)."""
        self._locals.clear()
        self._modules.clear()
        self._var_object = None

    def override_function(self, name: str, fn: Any) -> None:
        """Use `fn` for function `name` in this scope (the planner's `plantimestamp`)."""
        self._functions = self._functions.with_function(name, fn)

    def set_input(self, name: str, value: Value) -> None:
        """Set (or replace) the value of input variable `name` (a module call's argument)."""
        self.input_values[name] = value
        self._var_object = None

    def forget_module(self, name: str) -> None:
        """Drop the memoised `module.<name>` object (one of its outputs got a new value)."""
        self._modules.pop(name, None)

    def set_local(self, name: str, value: Value) -> None:
        """Memoise `local.<name>` as `value` (its graph node evaluated it)."""
        self._locals[name] = value

    # -- roots -------------------------------------------------------------------------
    def var_object(self) -> Value:
        if self._var_object is None:
            self._var_object = object_(dict(self.input_values))
        return self._var_object

    def path_object(self) -> Value:
        return object_(
            {
                "cwd": string(self.cwd),
                "module": string(self.module_path),
                "root": string(self.root_path),
            }
        )

    def terraform_object(self) -> Value:
        return object_({"workspace": Value(STRING, self.workspace)})

    # -- locals --------------------------------------------------------------------------
    def local_value(self, name: str, diags: Diagnostics, rng: Range | None = None) -> Value:
        """The value of `local.<name>`, evaluating it the first time it is needed.

        A local whose expression refers to itself is "Self-referencing local value"; locals
        that refer to each other in a loop are Terraform's "Cycle: local.a (expand), ..."."""
        if name in self._locals:
            return self._locals[name]
        if name in self._local_stack:
            members = self._local_stack[self._local_stack.index(name):]
            key = ("cycle", ",".join(sorted(members)))
            if key not in self._reported:
                self._reported.add(key)
                if members == [name]:
                    diags.append(
                        error(
                            "Self-referencing local value",
                            f"Local value local.{name} cannot use its own result as part of "
                            "its expression.",
                            rng,
                        )
                    )
                else:
                    diags.append(
                        error("Cycle: " + ", ".join(f"local.{m} (expand)" for m in members))
                    )
            return UNKNOWN_DYNAMIC
        decl = self.module.locals[name]
        self._local_stack.append(name)
        try:
            val, more = self.evaluate(decl.expr)
        finally:
            self._local_stack.pop()
        diags.extend(more)
        self._locals[name] = val
        return val

    # -- evaluation ----------------------------------------------------------------------
    def evaluate(
        self, expr: Expr, extra: dict[str, Value] | None = None
    ) -> tuple[Value, Diagnostics]:
        """Evaluate `expr` in this module; undeclared references are errors. `extra` adds
        roots such as `count` or `each` (a module call's instance arguments)."""
        ctx, diags = self.eval_context([expr], extra)
        if diags.has_errors:
            return UNKNOWN_DYNAMIC, diags
        val, more = evaluate(expr, ctx)
        diags.extend(more)
        return val, diags

    def eval_context(
        self, exprs: list[Expr], extra: dict[str, Value] | None = None
    ) -> tuple[EvalContext, Diagnostics]:
        """An evaluation context with exactly the roots `exprs` refer to (plus `extra`).

        The roots in `extra` are local to the expressions (`count`, `each`, a `dynamic`
        block's iterator, …) and shadow the module's names as an HCL child context does:
        `versioning.value` inside `dynamic "versioning"` is the iterator, never a reference to
        a resource of type "versioning"."""
        diags = Diagnostics()
        roots: dict[str, Value] = dict(extra or {})
        local_roots = frozenset(roots)
        locals_needed: dict[str, Value] = {}
        modules_needed: dict[str, Value] = {}
        managed_root: dict[str, dict[str, Value]] = {}
        data_root: dict[str, dict[str, Value]] = {}
        travs = [t for e in exprs for t in expr_traversals(e)]
        for trav in travs:
            root = trav[0]
            assert isinstance(root, TraverseRoot)
            name = root.name
            if name in local_roots:
                continue
            attr = trav[1] if len(trav) > 1 and isinstance(trav[1], TraverseAttr) else None
            rng = root.range if attr is None else root.range.to(attr.range)
            if extra and name in extra:
                continue  # a root the caller gives (`groundplan test`: run, output, var)
            if name == "var":
                if attr is not None and attr.name not in self.module.variables:
                    diags.append(self._undeclared_var(attr.name, rng))
                    continue
                roots["var"] = self.var_object()
            elif name == "local":
                if attr is None:
                    continue
                if attr.name not in self.module.locals:
                    diags.append(
                        error(
                            "Reference to undeclared local value",
                            f'A local value with the name "{attr.name}" has not been declared.',
                            rng,
                        )
                    )
                    continue
                locals_needed[attr.name] = self.local_value(attr.name, diags, rng)
            elif name == "module":
                if attr is None:
                    continue
                if attr.name not in self.module.module_calls:
                    diags.append(
                        error(
                            "Reference to undeclared module",
                            f'No module call named "{attr.name}" is declared in '
                            f"{self.module_label}.",
                            rng,
                        )
                    )
                    continue
                modules_needed[attr.name] = self._module_value(attr.name, diags)
            elif name == "path":
                roots["path"] = self.path_object()
            elif name == "terraform":
                roots["terraform"] = self.terraform_object()
            elif name in _EXTRA_ROOTS or self.resource_value is None:
                continue
            elif name == "data":
                if attr is None or len(trav) < 3 or not isinstance(trav[2], TraverseAttr):
                    continue
                rname = trav[2].name
                if f"data.{attr.name}.{rname}" not in self.module.data_resources:
                    diags.append(self._undeclared_resource(f"data.{attr.name}", rname, rng))
                    continue
                data_root.setdefault(attr.name, {})[rname] = self.resource_value(
                    "data", attr.name, rname
                )
            elif attr is not None:
                if f"{name}.{attr.name}" not in self.module.managed_resources:
                    diags.append(self._undeclared_resource(name, attr.name, rng))
                    continue
                managed_root.setdefault(name, {})[attr.name] = self.resource_value(
                    "managed", name, attr.name
                )
        for rtype, by_name in managed_root.items():
            roots[rtype] = object_(by_name)
        if data_root:
            roots["data"] = object_({t: object_(v) for t, v in data_root.items()})
        if locals_needed:
            roots["local"] = object_(locals_needed)
        if modules_needed:
            roots["module"] = object_(modules_needed)
        return EvalContext(roots, self._functions, plan_phase=self.plan_phase), diags

    def _module_value(self, name: str, diags: Diagnostics) -> Value:
        if name in self._modules:
            return self._modules[name]
        if self.module_outputs is None:
            val = UNKNOWN_DYNAMIC
        else:
            val, more = self.module_outputs(name)
            diags.extend(more)
        self._modules[name] = val
        return val

    def _undeclared_resource(self, rtype: str, name: str, rng: Range) -> Diagnostic:
        return error(
            "Reference to undeclared resource",
            f'A managed resource "{rtype}" "{name}" has not been declared in '
            f"{self.module_label}."
            if not rtype.startswith("data.")
            else f'A data resource "{rtype[5:]}" "{name}" has not been declared in '
            f"{self.module_label}.",
            rng,
        )

    def _undeclared_var(self, name: str, rng: Range) -> Diagnostic:
        return error(
            "Reference to undeclared input variable",
            f'An input variable with the name "{name}" has not been declared. This variable '
            f'can be declared with a variable "{name}" {{}} block.',
            rng,
        )
