"""Override files (`override.tf`, `*_override.tf`): merging them over the primary files.

`build_module(dir, primary, overrides)` appends the primary files in order and then merges
the override files over them.

Each object in an override file must already exist; its set arguments replace the base's.
Bodies merge the way Terraform's override body does: an argument in the override replaces the
base argument of that name, and any nested block type present in the override replaces all base
blocks of that type.
"""

from __future__ import annotations

from engine.configs.files import FileContents
from engine.configs.module import Module, append_file
from engine.configs.resources import Resource
from engine.configs.variables import Variable, convert_to_constraint
from engine.diags import Diagnostics, error
from engine.hcl.ast import Body
from engine.values import UNKNOWN_DYNAMIC


def merge_body(base: Body, override: Body) -> Body:
    """`base` with `override`'s arguments and block types replacing its own."""
    attrs = dict(base.attributes)
    attrs.update(override.attributes)
    over_types = {b.type for b in override.blocks}
    blocks = [b for b in base.blocks if b.type not in over_types] + list(override.blocks)
    return Body(attrs, blocks, base.range, base.end_range)


def _merge_variable(v: Variable, o: Variable, diags: Diagnostics) -> None:
    if o.description_set:
        v.description, v.description_set = o.description, True
    if o.default is not None:
        v.default, v.default_range = o.default, o.default_range
    if o.type_set:
        v.type, v.parsing_mode, v.type_set, v.type_range = o.type, o.parsing_mode, True, o.type_range
    if o.sensitive_set:
        v.sensitive, v.sensitive_set = o.sensitive, True
    if o.nullable_set:
        v.nullable, v.nullable_set = o.nullable, True
    if o.ephemeral_set:
        v.ephemeral, v.ephemeral_set = o.ephemeral, True
    if v.default is not None and (o.type_set or o.default is not None) and v.default.is_known:
        conv, msg = convert_to_constraint(v.default, v.type)
        if conv is None:
            diags.append(
                error(
                    "Invalid default value for variable",
                    "The overridden default value for this variable is not compatible with the "
                    f"variable's type constraint: {msg}.",
                    o.decl_range,
                )
            )
            v.default = UNKNOWN_DYNAMIC
        else:
            v.default = conv
        if not v.nullable and v.default.is_null:
            diags.append(
                error(
                    "Invalid default value for variable",
                    "A null default value is not valid when nullable=false.",
                    o.decl_range,
                )
            )


def _merge_resource(r: Resource, o: Resource) -> None:
    if o.count is not None:
        r.count, r.for_each = o.count, None
    if o.for_each is not None:
        r.for_each, r.count = o.for_each, None
    if o.provider is not None:
        r.provider = o.provider
    if o.depends_on:
        r.depends_on = list(o.depends_on)
    lc, ol = r.lifecycle, o.lifecycle
    if ol.create_before_destroy_set:
        lc.create_before_destroy, lc.create_before_destroy_set = ol.create_before_destroy, True
    if ol.prevent_destroy_set:
        lc.prevent_destroy, lc.prevent_destroy_set = ol.prevent_destroy, True
    if ol.ignore_changes or ol.ignore_all_changes:
        lc.ignore_changes, lc.ignore_all_changes = list(ol.ignore_changes), ol.ignore_all_changes
    if ol.replace_triggered_by:
        lc.replace_triggered_by = list(ol.replace_triggered_by)
    if o.provisioners:
        r.provisioners = list(o.provisioners)
    if o.connection is not None:
        r.connection = o.connection
    r.config = merge_body(r.config, o.config)


def _missing(summary: str, detail: str, rng: object, diags: Diagnostics) -> None:
    diags.append(error(summary, detail, rng))  # type: ignore[arg-type]


def merge_file(m: Module, f: FileContents, diags: Diagnostics) -> None:
    """Merge one override file's contents into the module (Terraform's Module.mergeFile)."""
    for ts in f.terraform:
        if ts.required_versions:
            m.required_versions = list(ts.required_versions)
        for reqs, rng in ts.required_providers:
            for rp in reqs:
                m.required_providers[rp.name] = rp
            m.required_providers_range = m.required_providers_range or rng
        if ts.encryptions:
            m.encryption = ts.encryptions[-1]
    # an override file with several backend (or cloud) blocks is invalid, though one overrides
    # those of other files; a backend and a cloud block replace each other
    backends = [b for ts in f.terraform for b in ts.backends]
    if len(backends) == 1:
        m.backend, m.cloud = backends[0], None
    elif backends:
        diags.append(
            error(
                "Duplicate backend configuration",
                "Each override file may have only one backend configuration. A backend was "
                f"previously configured at {backends[0].decl_range}.",
                backends[1].decl_range,
            )
        )
    clouds = [c for ts in f.terraform for c in ts.clouds]
    if len(clouds) == 1:
        m.backend, m.cloud = None, clouds[0]
    elif clouds:
        diags.append(
            error(
                "Duplicate HCP Terraform configurations",
                "A module may have only one 'cloud' block configuring HCP Terraform or Terraform "
                f"Enterprise. The 'cloud' block was previously configured at {clouds[0].decl_range}.",
                clouds[1].decl_range,
            )
        )
    for pc in f.providers:
        existing = m.provider_configs.get(pc.key)
        if existing is None:
            if pc.alias:
                _missing(
                    "Missing base provider configuration for override",
                    f'There is no {pc.name} provider configuration with the alias "{pc.alias}". An '
                    "override file can only override an aliased provider configuration that was "
                    "already defined in a primary configuration file.",
                    pc.decl_range,
                    diags,
                )
                continue
            m.provider_configs[pc.key] = pc
            continue
        if pc.version is not None:
            existing.version = pc.version
        existing.config = merge_body(existing.config, pc.config)
    for v in f.variables:
        base = m.variables.get(v.name)
        if base is None:
            _missing(
                "Missing base variable declaration to override",
                f'There is no variable named "{v.name}". An override file can only override a '
                "variable that was already declared in a primary configuration file.",
                v.decl_range,
                diags,
            )
            continue
        _merge_variable(base, v, diags)
    for lv in f.locals:
        base_l = m.locals.get(lv.name)
        if base_l is None:
            _missing(
                "Missing base local value definition to override",
                f'There is no local value named "{lv.name}". An override file can only override '
                "a local value that was already defined in a primary configuration file.",
                lv.decl_range,
                diags,
            )
            continue
        base_l.expr = lv.expr
    for o in f.outputs:
        base_o = m.outputs.get(o.name)
        if base_o is None:
            _missing(
                "Missing base output definition to override",
                f'There is no output named "{o.name}". An override file can only override an '
                "output that was already defined in a primary configuration file.",
                o.decl_range,
                diags,
            )
            continue
        if o.expr is not None:
            base_o.expr = o.expr
        if o.description_set:
            base_o.description, base_o.description_set = o.description, True
        if o.sensitive_set:
            base_o.sensitive, base_o.sensitive_set = o.sensitive, True
        if o.ephemeral_set:
            base_o.ephemeral, base_o.ephemeral_set = o.ephemeral, True
        if o.depends_on:
            base_o.depends_on = list(o.depends_on)
    for mc in f.module_calls:
        base_m = m.module_calls.get(mc.name)
        if base_m is None:
            _missing(
                "Missing module call to override",
                f'There is no module call named "{mc.name}". An override file can only override '
                "a module call that was defined in a primary configuration file.",
                mc.decl_range,
                diags,
            )
            continue
        if mc.source_range is not None:
            base_m.source, base_m.source_range = mc.source, mc.source_range
            base_m.source_ok = mc.source_ok
        if mc.version is not None:
            base_m.version = mc.version
        if mc.count is not None:
            base_m.count, base_m.for_each = mc.count, None
        if mc.for_each is not None:
            base_m.for_each, base_m.count = mc.for_each, None
        if mc.providers:
            base_m.providers = list(mc.providers)
        if mc.depends_on:
            base_m.depends_on = list(mc.depends_on)
        base_m.config = merge_body(base_m.config, mc.config)
    for kind, items, table in (
        ("resource", f.managed, m.managed_resources),
        ("data", f.data, m.data_resources),
        ("ephemeral", f.ephemeral, m.ephemeral_resources),
    ):
        for r in items:
            base_r = table.get(r.key)
            if base_r is None:
                if kind == "resource":
                    summary = "Missing resource to override"
                    detail = (
                        f'There is no {r.type} resource named "{r.name}". An override file can '
                        "only override a resource block defined in a primary configuration file."
                    )
                else:
                    summary = f"Missing {kind} resource to override"
                    detail = (
                        f'There is no {r.type} {kind} resource named "{r.name}". An override file '
                        f"can only override a {kind} block defined in a primary configuration file."
                    )
                _missing(summary, detail, r.decl_range, diags)
                continue
            _merge_resource(base_r, r)
    for mv in f.moved:
        _missing(
            "Cannot override 'moved' blocks",
            "Records of moved objects can appear only in normal files, not in override files.",
            mv.decl_range,
            diags,
        )
    for imp in f.imports:
        _missing(
            "Cannot override 'import' blocks",
            "Import blocks can appear only in normal files, not in override files.",
            imp.decl_range,
            diags,
        )
    for rm in f.removed:
        _missing(
            "Cannot override 'Removed' blocks",
            "Removed blocks can appear only in normal files, not in override files.",
            rm.decl_range,
            diags,
        )


def build_module(source_dir: str, primary: list[FileContents], overrides: list[FileContents]) -> tuple[Module, Diagnostics]:
    """A module from its decoded files: primaries appended in order, then overrides merged."""
    diags = Diagnostics()
    m = Module(source_dir)
    for f in primary:
        append_file(m, f, diags)
    for f in overrides:
        m.files.append(f.filename)
        merge_file(m, f, diags)
    return m, diags
