"""Checking a resource's provisioner blocks before anything runs (`validate`, `plan`).

`validate_provisioners(provisioners, eval_ctx)` reports what Terraform's validate walk reports
for provisioners: a type that is not available ("Missing required provisioner plugin"), and
arguments that do not fit the type's schema (unsupported, missing required, wrong type), with
`self` unknown. Destroy-time provisioners are checked in their restricted scope.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.configs.provisioners import WHEN_DESTROY
from engine.configs.provisioners import Provisioner as ProvisionerConfig
from engine.diags import Diagnostics
from engine.lang import EvalContext
from engine.provisioners.registry import lookup, missing_plugin
from engine.provisioners.schema import decode_config
from engine.provisioners.scope import create_scope, destroy_scope
from engine.values import UNKNOWN_DYNAMIC


def validate_provisioners(
    provisioners: Sequence[ProvisionerConfig], eval_ctx: EvalContext
) -> Diagnostics:
    """Diagnostics for every provisioner block of one resource; see the module docstring."""
    diags = Diagnostics()
    for pc in provisioners:
        impl = lookup(pc.type)
        if impl is None:
            diags.append(missing_plugin(pc.type))
            continue
        if pc.when == WHEN_DESTROY:
            ctx, ref_diags = destroy_scope(eval_ctx, UNKNOWN_DYNAMIC, pc.config)
            diags.extend(ref_diags)
            if ref_diags.has_errors:
                continue
        else:
            ctx = create_scope(eval_ctx, UNKNOWN_DYNAMIC)
        _, config_diags = decode_config(pc.config, impl.schema, ctx)
        diags.extend(config_diags)
    return diags
