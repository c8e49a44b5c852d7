"""The steps every operation takes before it touches state: load the configuration once,
check the dependency lock file, collect the root input values, validate once.

    config, diags = load_configuration(working_dir, ".")
    inputs, more = prepare_inputs(request, config)      # lock file, variables, validation

Texts are terraform's ("No configuration files", "failed to read dependency lock file: ...").
Nothing here prints: diagnostics are returned.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

from engine.configs import Config
from engine.configs.variable_values import RootInputs, collect_root_inputs
from engine.diags import Diagnostic, Diagnostics, error
from engine.encryption import PASSTHROUGH, OperationEncryption, PlanEncryption
from engine.plans.model import PlanMode
from engine.plugin.registry import ProviderRegistry
from engine.values import Value

#: A variable's validation failure: reported (with the values involved) by the planner's own
#: evaluation, so collecting the inputs leaves it out.
VALIDATION_FAILED = "Invalid value for variable"

NO_CONFIG_DETAIL = {
    "plan": (
        "Plan requires configuration to be present. Planning without a configuration would "
        "mark everything for destruction, which is normally not what is desired. If you would "
        "like to destroy everything, run plan with the -destroy option. Otherwise, create a "
        "groundplan configuration file (.tf file) and try again."
    ),
    "apply": (
        "Apply requires configuration to be present. Applying without a configuration would "
        "mark everything for destruction, which is normally not what is desired. If you would "
        "like to destroy everything, run 'groundplan destroy' instead."
    ),
}


def go_error_text(diags: Iterable[Diagnostic]) -> str:
    """Diagnostics as Terraform's `diags.Err().Error()` text: "Summary: Detail" for one,
    "N problems:" and a "- Summary: Detail" line each for several (warnings included)."""
    items = list(diags)

    def one(d: Diagnostic) -> str:
        return f"{d.summary}: {d.detail}" if d.detail else d.summary

    if len(items) == 1:
        return one(items[0])
    return f"{len(items)} problems:\n" + "".join(f"\n- {one(d)}" for d in items)


@dataclass
class Inputs:
    """The configuration and the root input values: `variables` final (what evaluation uses),
    `given` as given (what the plan records, as terraform's plan VariableValues)."""

    config: Config
    variables: dict[str, Value]
    given: dict[str, Value] = field(default_factory=dict)
    #: whether terraform's whole validate walk already passed (not only the static checks)
    validated: bool = False
    #: warnings about the input values (undeclared variables): terraform shows them with the
    #: plan's diagnostics, after the plan, not before it
    warnings: Diagnostics = field(default_factory=Diagnostics)
    #: the validate walk's warnings found before planning (redundant ignore_changes paths),
    #: shown with the plan's diagnostics too
    validate_warnings: Diagnostics = field(default_factory=Diagnostics)


def config_path(working_dir: str, directory: str) -> str:
    """Where the configuration `directory` (relative to `working_dir`) is, as it is named in
    diagnostics: relative, as terraform names it, when the working directory is the current
    one (the CLI); otherwise joined to the working directory (a Lambda's checkout)."""
    if os.path.isabs(directory) or os.path.abspath(working_dir) == os.getcwd():
        return directory
    return os.path.join(working_dir, directory)


def load_configuration(working_dir: str, directory: str = ".",
                       version_first: bool = False) -> tuple[Config | None, Diagnostics]:
    """The configuration rooted at `directory` (None when it could not be loaded).

    As terraform, a modules.json it cannot decode and a dependency lock file it cannot read
    are refused by every command that loads the configuration (Meta.providerFactories)."""
    from engine.configs import load_config

    return checked_load(working_dir, version_first,
                        lambda: load_config(config_path(working_dir, directory)))


def checked_load(working_dir: str, version_first: bool,
                 load: Callable[[], tuple[Config, Diagnostics]]) -> tuple[Config | None, Diagnostics]:
    """`load()` (a configuration loader) under the checks of `load_configuration`: the
    manifest and lock file first, then every module's `required_version`."""
    from engine.depsfile import LOCK_FILE, load_locks
    from engine.initwd import check_manifest

    diags = check_manifest(working_dir)
    if diags.has_errors:
        return None, diags
    config, diags = load()
    # Every module's `required_version`, as terraform's checkRequiredVersion: a configuration
    # that loads but that this version does not satisfy gives only "Unsupported Terraform Core
    # version" errors; with `version_first` (init) those errors win over load errors too.
    if config is not None and (version_first or not diags.has_errors):
        versions = config.check_core_versions()
        if versions.has_errors:
            return None, versions
    if diags.has_errors:
        return config, diags
    _, ldiags = load_locks(os.path.join(working_dir, LOCK_FILE))
    if ldiags.has_errors:
        diags.append(error(f"failed to read dependency lock file: {go_error_text(ldiags)}"))
        return None, diags
    return config, diags


def root_inputs(
    config: Config,
    ordered: list[tuple[str, str]],
    environ: Mapping[str, str],
    working_dir: str,
    ask: Callable[[str, str], str | None] | None = None,
) -> tuple[RootInputs, Diagnostics]:
    """Root input values (final and as given) from -var/-var-file (in order), files and
    TF_VAR_ variables.

    With `ask` (terraform's `-input=true`), each required variable without a value is asked
    for, in name order, and the answer taken as if given with -var; when `ask` returns None
    (end of input) the missing values stay errors."""
    module = config.module
    inputs, diags = collect_root_inputs(module, ordered, dict(environ), working_dir)
    missing = [name for name, var in sorted(module.variables.items())
               if var.default is None and name not in inputs.values]
    if ask is None or not missing:
        return inputs, diags
    answers: list[tuple[str, str]] = []
    for name in missing:
        answer = ask(name, getattr(module.variables[name], "description", "") or "")
        if answer is None:
            return inputs, diags
        answers.append(("var", f"{name}={answer}"))
    return collect_root_inputs(module, [*ordered, *answers], dict(environ), working_dir)


def prepare_inputs(
    config: Config,
    *,
    command: str,
    mode: PlanMode,
    working_dir: str,
    environ: Mapping[str, str],
    ordered_vars: list[tuple[str, str]],
    ask: Callable[[str, str], str | None] | None,
    in_automation: bool,
    registry: ProviderRegistry,
) -> tuple[Inputs | None, Diagnostics]:
    """The configuration's inputs, checked: "No configuration files", the dependency lock
    file against the configuration and the installed plugins, the root input values, then
    the validation terraform's validate walk does before planning (references, resource
    attribute references against their schemas, provisioner blocks; for a configuration
    without resources the whole walk, expressions evaluated with unknown inputs, as the
    planner then has nothing to validate with providers). None with errors."""
    diags = Diagnostics()
    if not config.module.files and mode is not PlanMode.DESTROY:
        detail = NO_CONFIG_DETAIL["plan" if command == "plan" else "apply"]
        diags.append(error("No configuration files", detail))
        return None, diags
    from engine.operations.lock_file import check_before_plan

    diags.extend(check_before_plan(working_dir, config, in_automation))
    if diags.has_errors:
        return None, diags
    given, more = root_inputs(config, ordered_vars, environ, working_dir, ask)
    more = Diagnostics([d for d in more if d.summary != VALIDATION_FAILED])
    if more.has_errors:
        diags.extend(more)
        return None, diags
    if not declares_resources(config):
        # terraform's whole validate walk: references, then every expression evaluated with
        # unknown inputs (problems of both kinds are reported together)
        from engine.operations.validate import check_config

        checked = check_config(config, working_dir)
        if checked.has_errors:
            return None, Diagnostics([*diags, *more, *checked])
        return Inputs(config, given.values, given.given, validated=True, warnings=more), diags
    static = validate_statically(config, registry, working_dir)
    if static.has_errors:
        return None, Diagnostics([*diags, *more, *(d for d in static if d.is_error)])
    from engine.plans.validate import ignore_changes_problems

    lifecycle = ignore_changes_problems(config, registry)
    if lifecycle.has_errors:
        return None, Diagnostics([*diags, *more, *lifecycle])
    return Inputs(config, given.values, given.given, warnings=more,
                  validate_warnings=lifecycle), diags


def encryption_checked(encryption: OperationEncryption | None, config: Config) -> Diagnostics:
    """The problems of the configuration's `encryption` block (none without an operation
    encryption), found before any state is read."""
    return encryption.check_encryption(config) if encryption is not None else Diagnostics()


def record_encryption_inputs(encryption: OperationEncryption | None,
                             values: Mapping[str, Value]) -> None:
    """Give the operation's encryption the root input values it is configured from."""
    if encryption is not None:
        encryption.record_encryption_inputs(values)


def plan_codec(encryption: OperationEncryption | None) -> PlanEncryption:
    """What the operation's saved plans are encrypted with (plaintext without encryption)."""
    return encryption.plan_encryption() if encryption is not None else PASSTHROUGH


def declares_resources(config: Config) -> bool:
    """Whether any module of the configuration declares a resource or data source."""
    return any(node.module.all_resources() for node in config.walk())


def validate_statically(config: Config, registry: ProviderRegistry,
                        working_dir: str = ".") -> Diagnostics:
    """The part of terraform's validate walk that needs no resource values: import blocks
    whose target module does not exist (alone, as terraform finds them building its graph),
    references (resource attributes against their schemas), then the import blocks'
    targets (engine.plans.validate_imports) and provisioner blocks."""
    from engine.configs.refcheck import check_references
    from engine.plans.validate import resource_ref_check
    from engine.plans.validate_imports import validate_imports

    imports = validate_imports(config, working_dir)
    if imports.graph_errors:
        return imports.diags
    static = check_references(config, resource_ref_check(registry))
    if not static.has_errors:
        from engine.provisioners import validate_config_provisioners

        static.extend(imports.diags)
        static.extend(validate_config_provisioners(config))
    return static


__all__ = [
    "Inputs",
    "encryption_checked",
    "plan_codec",
    "record_encryption_inputs",
    "go_error_text",
    "load_configuration",
    "prepare_inputs",
    "root_inputs",
    "validate_statically",
]
