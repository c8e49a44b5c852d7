"""The encryption of a root module, with OpenTofu's static evaluation and `TF_ENCRYPTION`.

`module_encryption(module, values, environ, cwd)` decodes the module's
`terraform { encryption { ... } }`, lays `TF_ENCRYPTION` over it (OpenTofu's merge), and
builds it with an evaluator that sees what is known before the plan: input variables
(`values`; a variable without a value is unknown, which only `validate` tolerates), locals
that depend on nothing else, `path.*` and `terraform.workspace`. A reference to a resource,
data source or module output is an error: it is not known until the plan.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engine.configs.encryption_config import merge
from engine.diags import Diagnostics, error
from engine.encryption.build import Encryption, build
from engine.hcl import ast as A
from engine.values import Value

ENV_NAME = "TF_ENCRYPTION"
STATIC_ROOTS = frozenset({"var", "local", "path", "terraform"})


def _roots(expr: A.Expr) -> list[tuple[str, Any]]:
    from engine.lang.references import references

    out = []
    for trav, rng in references(expr):
        root = trav[0]
        if isinstance(root, A.TraverseRoot):
            out.append((root.name, rng))
    return out


def static_evaluator(module: Any, values: Mapping[str, Value], cwd: str,
                     allow_unknown: bool = False) -> Any:
    """An `Evaluate` over `module`'s variables and locals (see the module docstring). A value
    not known yet (a variable without a value) is an error unless `allow_unknown`
    (`validate`, where checks that need it are skipped)."""
    from engine.core.scope import ModuleScope
    from engine.values import UNKNOWN_DYNAMIC

    inputs = dict(values)
    for name in module.variables:
        inputs.setdefault(name, UNKNOWN_DYNAMIC)
    scope = ModuleScope(module, "", ".", cwd, inputs)

    def evaluate(expr: A.Expr) -> tuple[Value, Diagnostics]:
        diags = Diagnostics()
        seen_locals: set[str] = set()
        pending = [expr]
        while pending:  # locals are evaluated too: their references must be static as well
            e = pending.pop()
            for name, rng in _roots(e):
                if name == "local":
                    for trav, _ in _local_refs(e):
                        if trav not in seen_locals and trav in module.locals:
                            seen_locals.add(trav)
                            pending.append(module.locals[trav].expr)
                    continue
                if name not in STATIC_ROOTS:
                    diags.append(error(
                        "Invalid reference in encryption configuration",
                        f'The encryption configuration can refer only to values known before '
                        f'the plan (input variables and locals); "{name}" is not one.', rng))
        if diags.has_errors:
            return UNKNOWN_DYNAMIC, diags
        val, more = scope.evaluate(expr)
        if not more.has_errors and not allow_unknown and not val.unmark_deep()[0].is_wholly_known():
            more.append(error(
                "Encryption configuration value not known",
                "The encryption configuration needs this value before anything is read or "
                "planned, but it is not known: give the variables it uses a value (-var, "
                "-var-file, TF_VAR_...).", expr.range))
        return val, more

    return evaluate


def _local_refs(expr: A.Expr) -> list[tuple[str, Any]]:
    from engine.lang.references import references

    out = []
    for trav, rng in references(expr):
        root = trav[0]
        if isinstance(root, A.TraverseRoot) and root.name == "local" and len(trav) > 1:
            step = trav[1]
            if isinstance(step, A.TraverseAttr):
                out.append((step.name, rng))
    return out


def module_encryption(
    module: Any, values: Mapping[str, Value], environ: Mapping[str, str], cwd: str,
    allow_unknown: bool = False,
) -> tuple[Encryption | None, Diagnostics]:
    """The encryption of the root `module` (DISABLED when neither it nor TF_ENCRYPTION
    configures any); None with error diagnostics when the configuration is wrong."""
    from engine.configs.encryption_block import decode_encryption, decode_encryption_text

    diags = Diagnostics()
    cfg = None
    raw = getattr(module, "encryption", None)
    if raw is not None:
        cfg, more = decode_encryption(raw.body, raw.decl_range)
        diags.extend(more)
        if cfg is None:
            return None, diags
    env = environ.get(ENV_NAME, "").strip()
    if env:
        env_cfg, more = decode_encryption_text(ENV_NAME, env)
        diags.extend(more)
        if env_cfg is None:
            return None, diags
        cfg = merge(cfg, env_cfg)
    enc, more = build(cfg, static_evaluator(module, values, cwd, allow_unknown))
    diags.extend(more)
    return enc, diags
