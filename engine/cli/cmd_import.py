"""`import ADDR ID`: bring an existing remote object under management, as terraform does.

The resource must be declared in the configuration (else terraform's "resource address ...
does not exist in the configuration" with an example block). With the state locked, the
resource's provider configuration is configured from its `provider` block (evaluated with the
root input values), then ImportResourceState turns ID into an object and ReadResource reads it;
the object is written to the state file as the instance's current object. Progress texts are
terraform's ("Importing from ID ...", "Import prepared!", "Refreshing state... [id=...]",
"Import successful!"), and so are the errors: "Resource already managed by Terraform",
"Cannot import non-existent remote object", "Import returned no resources", "Multiple import
states not supported". Exit status 0 on success, 1 otherwise. Provider processes are
stopped on every exit path (the session's registry).
"""

from __future__ import annotations

from engine.addrs import (
    AbsResourceInstance,
    AddressSyntaxError,
    ResourceMode,
    parse_abs_resource_instance,
)
from engine.cli.args import FlagError, FlagSet, parse_duration
from engine.cli.meta import Meta
from engine.cli.session import Session
from engine.diags import error
from engine.operations import ImportRequest, import_resource

SUCCESS = (
    "[reset][green]\nImport successful!\n\n"
    "The resources that were imported are shown above. These resources are now in\n"
    "your groundplan state and will henceforth be managed by groundplan.\n\n"
)
USAGE_HINT = "\nFor more help on using this command, run:\n  groundplan import -help"


def _flags() -> FlagSet:
    fs = FlagSet()
    fs.multi("var").multi("var-file")
    fs.boolean("input", True).boolean("lock", True).text("lock-timeout", "0s")
    fs.integer("parallelism", 10).boolean("allow-missing-config").text("config", ".")
    fs.boolean("ignore-remote-version")
    fs.text("state").text("state-out").text("backup")  # legacy, for the local backend
    return fs


def _missing_config(addr: AbsResourceInstance) -> str:
    """terraform's plain (not diagnostic-framed) text for an import target not in config."""
    where = "the root module" if addr.module.is_root else f"module {addr.module.module()}"
    res = addr.resource
    return (
        f'[reset][bold][red]Error: [reset][bold]resource address "{addr}" does not exist in '
        f"the configuration.[reset]\n\nBefore importing this resource, please create its "
        f'configuration in {where}. For example:\n\nresource "{res.type}" "{res.name}" {{\n'
        "  # (resource arguments)\n}\n\n"
    )


def run_import(meta: Meta, args: list[str]) -> int:
    """The `import` command; its exit code."""
    fs = _flags()
    rest = meta.parse_flags("import", fs, args)
    if rest is None:
        return 1
    ui = meta.ui
    if len(rest) != 2:
        ui.diagnostics([error("Wrong number of arguments",
                              "The import command expects two arguments.")])
        ui.err(USAGE_HINT)
        return 1
    try:
        timeout = parse_duration(str(fs.get("lock-timeout")))
    except FlagError as exc:
        ui.diagnostics([error("Invalid lock timeout", str(exc))])
        return 1
    try:
        addr = parse_abs_resource_instance(rest[0])
    except AddressSyntaxError as exc:
        ui.diagnostics([error("Invalid address", f"{rest[0]}: {exc}")])
        ui.err(USAGE_HINT)
        return 1
    if addr.resource.mode is ResourceMode.DATA:
        ui.diagnostics([error(
            "Invalid address",
            "A managed resource address is required. Importing into a data resource is not "
            "allowed.")])
        return 1
    meta.override_local_state(fs)
    session = Session(meta, False, "import")
    try:
        result = import_resource(session.request(
            ImportRequest, config_dir=str(fs.get("config")), address=rest[0],
            parallelism=int(fs.get("parallelism")),
            import_id=rest[1], lock=bool(fs.get("lock")), lock_timeout=timeout,
            variables=[(n, v) for n, v in fs.ordered if n in ("var", "var-file")],
            ask_variable=meta.ask_variable if fs.get("input") else None))
    finally:
        closed = session.close()
    ui.diagnostics(closed)
    if result.not_in_config:
        ui.err(_missing_config(addr))
        return 1
    if not result.success or closed.has_errors:
        return 1
    ui.out(SUCCESS, newline=False)
    return 0
