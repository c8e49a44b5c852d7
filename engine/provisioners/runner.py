"""Running a resource instance's provisioners, as Terraform's applyProvisioners does.

`run_provisioners(provisioners, when, self_value, eval_ctx, addr, hooks, stop_event)` runs, in
configuration order, those of `provisioners` whose `when` is `when` ("create" or "destroy"):

1. A type groundplan does not have is "Missing required provisioner plugin"; stop.
2. The arguments are evaluated against the type's schema: create-time provisioners see the
   module's scope plus `self` (the new object); destroy-time ones see only `self` (the object
   being destroyed), `count.index`, `each.key`, `path` and `terraform` (see
   `engine.provisioners.scope`). Errors stop here, before anything runs.
3. `hooks.pre_provision(addr, type)` ("Provisioning with 'local-exec'..."); the provisioner runs
   with its arguments unmarked, each output line going to `hooks.provision_output(addr, type,
   line)` - unless any argument value is sensitive, in which case every line is replaced by
   "(output suppressed due to sensitive value in config)"; then
   `hooks.post_provision(addr, type, first_error_or_None)`.
4. The provisioner's diagnostics point at the provisioner block's opening brace and carry the
   instance's address (terraform's InConfigBody: the `with ADDR,` line). With
   `on_failure = continue` a failure is dropped (Terraform only logs it; warnings are kept) and
   the next provisioner runs; with `on_failure = fail` (the default) its errors are returned
   and no further provisioner runs.

The connection (`base_connection`, the resource's own `connection` block, with the
provisioner's `connection` arguments taking precedence) is evaluated in the same scope against
terraform's superset connection schema after the arguments, and its errors also stop before
anything runs. Sensitive values in the connection do not suppress output (as terraform).

The caller decides whether to run at all (Terraform runs create-time provisioners only for a
newly created, untainted object) and what an error means (taint the new object; keep the
object whose destroy-time provisioner failed).
"""

from __future__ import annotations

import threading
from collections.abc import Sequence

from engine.addrs import AbsResourceInstance
from engine.configs.merge import merge_body
from engine.configs.provisioners import ON_FAILURE_CONTINUE, WHEN_DESTROY, Connection
from engine.configs.provisioners import Provisioner as ProvisionerConfig
from engine.core.diag_paths import in_config_body
from engine.diags import Diagnostics
from engine.hcl.ast import Body
from engine.lang import EvalContext
from engine.plans.hooks import Hooks
from engine.provisioners.base import OutputFn
from engine.provisioners.connection import CONNECTION_SCHEMA
from engine.provisioners.registry import lookup, missing_plugin
from engine.provisioners.schema import decode_config
from engine.provisioners.scope import create_scope, destroy_scope
from engine.values import Value

SUPPRESSED_LINE = "(output suppressed due to sensitive value in config)"


def _output_fn(hooks: Hooks, addr: AbsResourceInstance, type_name: str, sensitive: bool) -> OutputFn:
    if sensitive:
        return lambda _line: hooks.provision_output(addr, type_name, SUPPRESSED_LINE)
    return lambda line: hooks.provision_output(addr, type_name, line)


def connection_body(pc: ProvisionerConfig, base: Connection | None) -> Body | None:
    """The connection configuration of `pc`: its own block merged over the resource's."""
    own = pc.connection.config if pc.connection is not None else None
    if base is not None and own is not None:
        return merge_body(base.config, own)
    return own if own is not None else (base.config if base is not None else None)


def run_provisioners(
    provisioners: Sequence[ProvisionerConfig],
    when: str,
    self_value: Value,
    eval_ctx: EvalContext,
    addr: AbsResourceInstance,
    hooks: Hooks,
    stop_event: threading.Event,
    base_connection: Connection | None = None,
) -> Diagnostics:
    """Run the `when`-time provisioners of one instance; see the module docstring."""
    diags = Diagnostics()
    for pc in provisioners:
        if pc.when != when:
            continue
        impl = lookup(pc.type)
        if impl is None:
            diags.append(missing_plugin(pc.type))
            return diags
        conn_body = connection_body(pc, base_connection)
        if when == WHEN_DESTROY:
            ctx, ref_diags = destroy_scope(eval_ctx, self_value, pc.config)
            if conn_body is not None:
                ref_diags.extend(destroy_scope(eval_ctx, self_value, conn_body)[1])
            diags.extend(ref_diags)
            if ref_diags.has_errors:
                return diags
        else:
            ctx = create_scope(eval_ctx, self_value)
        config, config_diags = decode_config(pc.config, impl.schema, ctx)
        diags.extend(config_diags)
        if config_diags.has_errors:
            return diags
        connection: Value | None = None
        if conn_body is not None:
            connection, conn_diags = decode_config(conn_body, CONNECTION_SCHEMA, ctx)
            diags.extend(conn_diags)
            if conn_diags.has_errors:
                return diags

        hooks.pre_provision(addr, pc.type)
        unmarked, marks = config.unmark_deep()
        output = _output_fn(hooks, addr, pc.type, bool(marks))
        result = Diagnostics(in_config_body(
            impl.provision(unmarked, output, stop_event,
                           connection.unmark_deep()[0] if connection is not None else None),
            pc.config, str(addr)))
        first_error = result.errors[0] if result.has_errors else None
        hooks.post_provision(addr, pc.type, first_error)

        if pc.on_failure == ON_FAILURE_CONTINUE:
            if not result.has_errors:
                diags.extend(result)
            continue
        diags.extend(result)
        if result.has_errors:
            return diags
    return diags
