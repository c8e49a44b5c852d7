"""What `validate` (and so `plan`) reports about `import` blocks before anything is evaluated.

`check_import_blocks(config)`:
- an import block outside the root module: "Invalid import configuration" ("Import blocks
  are only allowed in the root module."), at the block;
- for a block without `for_each` whose `to` is a plain address: the instance key must suit the
  target resource's repetition (`instance_key_problems`: "Invalid import 'to' expression",
  e.g. "The target resource is using count."), at `to`;
- an `id` that is a constant null or empty string: "Invalid import id argument".

`instance_key_problems(res, key, to)` is terraform's validateImportTargetExpansion, used again
by the planner for keys that come from `for_each`.
"""

from __future__ import annotations

from typing import Any

from engine.addrs import AddressSyntaxError, parse_abs_resource_instance
from engine.addrs.keys import InstanceKey
from engine.configs.exprs import static_value, unwrap
from engine.diags import Diagnostics, error
from engine.hcl import ast
from engine.values import STRING
from engine.values.convert import ConversionError, convert


def instance_key_problems(res: Any, key: InstanceKey, to: ast.Expr) -> Diagnostics:
    """The key of an import target must match how resource `res` (None: none) repeats."""
    diags = Diagnostics()
    for_each = res is not None and res.for_each is not None
    count = res is not None and res.count is not None
    problems: list[str] = []
    if isinstance(key, str):
        if not for_each:
            problems.append("The target resource does not use for_each.")
    elif isinstance(key, int):
        if not count:
            problems.append("The target resource does not use count.")
    else:
        if for_each:
            problems.append("The target resource is using for_each.")
        if count:
            problems.append("The target resource is using count.")
    for p in problems:
        diags.append(error("Invalid import 'to' expression", p, to.range))
    return diags


def _constant_id_problem(expr: ast.Expr | None) -> str | None:
    if expr is None:
        return None
    val, diags = static_value(expr)
    if val is None or diags.has_errors:
        return None
    plain, _ = val.unmark_deep()
    if plain.is_null:
        return "The import ID cannot be null."
    try:
        text = convert(plain, STRING)
    except ConversionError:
        return None
    if text.is_known and text.v == "":
        return ("The import ID value evaluates to an empty string, please provide a "
                "non-empty value.")
    return None


def check_import_blocks(config: Any) -> Diagnostics:
    """See the module docstring."""
    diags = Diagnostics()
    for node in config.walk():
        if node.path:
            for imp in node.module.imports:
                diags.append(error(
                    "Invalid import configuration",
                    f'An import block was detected in "{node.path_str}". Import blocks are '
                    "only allowed in the root module.", imp.decl_range))
    for imp in config.module.imports:
        to = unwrap(imp.to) if imp.to is not None else None
        if imp.for_each is None and isinstance(to, ast.ScopeTraversalExpr):
            try:
                addr = parse_abs_resource_instance(
                    ast.traversal_str(to.traversal).removeprefix("resource."))
            except AddressSyntaxError:
                addr = None
            if addr is not None:
                cfg = config.descendant(tuple(s.name for s in addr.module.steps))
                res = None if cfg is None else cfg.module.managed_resources.get(
                    f"{addr.resource.type}.{addr.resource.name}")
                if res is not None:
                    diags.extend(instance_key_problems(res, addr.key, imp.to))
        problem = _constant_id_problem(imp.id)
        if problem is not None and imp.id is not None:
            diags.append(error("Invalid import id argument", problem, imp.id.range))
    return diags
