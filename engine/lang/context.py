"""The evaluation context: the names and functions an expression can see.

An `EvalContext` mirrors HCL's `hcl.EvalContext`: a scope of root variables (each an object
`Value` such as `var`, `local`, `count`, `each`, or a name bound by a `for` expression), a table
of functions, and an optional parent scope that is searched when a name is not found here.
`plan_phase` makes impure functions (timestamp, uuid, ...) return unknown values.

Child scopes are cheap: `child(**vars)` allocates one small object and inherits functions and
`plan_phase` from the parent chain.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING

from engine.values import Value

if TYPE_CHECKING:
    from engine.hcl.ast import AnonSymbolExpr
    from engine.lang.functions.base import Function


class EvalContext:
    """A scope for evaluation; see the module docstring.

    `variables` and `functions` may be empty in a child scope; lookups walk `parent` links.
    `anon` holds the current item of an enclosing splat expression, by symbol node id.
    """

    __slots__ = ("anon", "functions", "parent", "plan_phase", "variables")

    def __init__(
        self,
        variables: dict[str, Value] | None = None,
        functions: Mapping[str, Function] | None = None,
        parent: EvalContext | None = None,
        plan_phase: bool | None = None,
    ) -> None:
        self.variables: dict[str, Value] = variables if variables is not None else {}
        self.functions: Mapping[str, Function] | None = functions
        self.parent = parent
        if plan_phase is None:
            plan_phase = parent.plan_phase if parent is not None else False
        self.plan_phase: bool = plan_phase
        self.anon: dict[int, Value] | None = None

    def child(self, **variables: Value) -> EvalContext:
        """A nested scope whose own variables are `variables`, inheriting everything else."""
        return EvalContext(variables, None, self, self.plan_phase)

    def lookup(self, name: str) -> Value | None:
        """The value bound to root name `name` in this scope or an enclosing one, else None."""
        ctx: EvalContext | None = self
        while ctx is not None:
            val = ctx.variables.get(name)
            if val is not None:
                return val
            ctx = ctx.parent
        return None

    def lookup_function(self, name: str) -> Function | None:
        """The function called `name` in the nearest scope that has a function table."""
        ctx: EvalContext | None = self
        while ctx is not None:
            if ctx.functions is not None:
                fn = ctx.functions.get(name)
                if fn is not None:
                    return fn
            ctx = ctx.parent
        return None

    def has_functions(self) -> bool:
        """Whether any scope in the chain has a function table (HCL: functions allowed)."""
        ctx: EvalContext | None = self
        while ctx is not None:
            if ctx.functions is not None:
                return True
            ctx = ctx.parent
        return False

    def function_names(self) -> list[str]:
        """The names of every function visible from this scope, sorted."""
        names: set[str] = set()
        ctx: EvalContext | None = self
        while ctx is not None:
            if ctx.functions is not None:
                names.update(ctx.functions)
            ctx = ctx.parent
        return sorted(names)

    def variable_names(self) -> list[str]:
        """The root names visible from this scope, sorted."""
        names: set[str] = set()
        for ctx in self._chain():
            names.update(ctx.variables)
        return sorted(names)

    def anon_value(self, symbol: AnonSymbolExpr) -> Value | None:
        """The current item bound to a splat symbol, if a splat is being evaluated."""
        key = id(symbol)
        for ctx in self._chain():
            if ctx.anon is not None and key in ctx.anon:
                return ctx.anon[key]
        return None

    def _chain(self) -> Iterator[EvalContext]:
        ctx: EvalContext | None = self
        while ctx is not None:
            yield ctx
            ctx = ctx.parent
