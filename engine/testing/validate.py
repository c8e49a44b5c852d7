"""The cursory checks of test files that `validate` (and `test`, before each run) makes:
terraform's TestFile.Validate and TestRun.Validate, and validate's loop over the test files.

- `validate_run(run, config)`: every `expect_failures` entry must name a checkable object
  (input variable, output value, check block, managed resource or data source: "Invalid
  `expect_failures` reference", at the reference), and every override of the run should
  target something of `config` (the run's own module, when it names one): "Invalid override
  target" warnings, at the override's `target` argument.
- `validate_file(file, config)`: the same warnings for the file's overrides and for those
  written in its `mock_provider` blocks (not those read from `.tfmock.hcl` files); a target
  counts when the main configuration or any run's module has it.
- `validate_test_files(config, files, validate_module)`: both, file by file and run by run,
  and `validate_module(cfg)` (a whole validation) once for each local module that run blocks
  name, by source address, as terraform's validate command does (registry modules are their
  authors' to validate).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from engine.addrs import AbsResource, AbsResourceInstance, ModuleInstance
from engine.configs import refs
from engine.configs.module_calls import clean_local_source, is_local_source
from engine.configs.refs import Reference, parse_ref, single_attr_ref
from engine.diags import Diagnostics, error, warning
from engine.hcl.ast import Traversal, TraverseRoot
from engine.testing.files import Run, TestFile
from engine.testing.overrides import Override

_CHECKABLE = (refs.VAR, refs.MANAGED, refs.DATA, "output", "check")
_TESTING_ROOTS = ("output", "check", "run")


def _testing_ref(trav: Traversal) -> tuple[Reference | None, Diagnostics]:
    """terraform's ParseRefFromTestingScope: `output.x`, `check.x` and `run.x` besides the
    references of the module scope."""
    root = trav[0]
    if isinstance(root, TraverseRoot) and root.name in _TESTING_ROOTS:
        diags = Diagnostics()
        got = single_attr_ref(trav, diags)
        if got is None:
            return None, diags
        return Reference(root.name, got[0], got[1], got[2]), diags
    if isinstance(root, TraverseRoot) and root.name in ("plan", "state"):
        return None, Diagnostics([error(
            "Reserved symbol name",
            f'The symbol name "{root.name}" is reserved for use in a future groundplan version. '
            "If you are using a provider that already uses this as a resource type name, add "
            'the prefix "resource." to force interpretation as a resource type name.',
            root.range)])
    return parse_ref(trav)


def _subject(ref: Reference) -> str:
    if ref.kind in (refs.MANAGED, refs.DATA, refs.EPHEMERAL):
        return ref.resource_key
    if ref.kind == refs.MODULE_CALL:
        return f"module.{ref.name}"
    if ref.kind == refs.MODULE_OUTPUT:
        return f"module.{ref.name}.{ref.output}"
    if ref.kind == refs.SELF:
        return "self"
    return f"{ref.kind}.{ref.name}"


def target_exists(config: Any, target: object) -> bool:
    """terraform's Config.TargetExists: the module (keys ignored) or the resource exists."""
    module = target if isinstance(target, ModuleInstance) else getattr(target, "module", None)
    if not isinstance(module, ModuleInstance):
        return False
    node = config.descendant(tuple(s.name for s in module.steps))
    if node is None:
        return False
    if isinstance(target, (AbsResource, AbsResourceInstance)):
        return node.module.resource(str(target.resource)) is not None
    return True


def _override_warning(ov: Override) -> Diagnostics:
    return Diagnostics([warning(
        "Invalid override target",
        f"The override target {ov.target_str} does not exist within the configuration under "
        "test. This could indicate a typo in the target address or an unnecessary override.",
        ov.target_range or ov.decl_range)])


def validate_run(run: Run, config: Any) -> Diagnostics:
    """See the module docstring."""
    diags = Diagnostics()
    for trav in run.expect_failures:
        ref, more = _testing_ref(trav)
        diags.extend(more)
        if ref is None or more.has_errors:
            continue
        if ref.kind not in _CHECKABLE:
            diags.append(error(
                "Invalid `expect_failures` reference",
                f"You cannot expect failures from {_subject(ref)}. You can only expect failures "
                "from checkable objects such as input variables, output values, check blocks, "
                "managed resources and data sources.", ref.range))
    for ov in run.overrides:
        if not target_exists(config, ov.target):
            diags.extend(_override_warning(ov))
    return diags


def validate_file(file: TestFile, config: Any) -> Diagnostics:
    """See the module docstring."""
    configs = [config, *(r.config for r in file.runs if r.module is not None and r.config)]
    diags = Diagnostics()
    written: Iterable[Override] = (
        ov for mock in file.mocks.values() for ov in mock.overrides if not ov.from_mock_file)
    for ov in [*written, *file.overrides]:
        if not any(target_exists(c, ov.target) for c in configs):
            diags.extend(_override_warning(ov))
    return diags


def validate_test_files(config: Any, files: list[TestFile],
                        validate_module: Callable[[Any], Diagnostics]) -> Diagnostics:
    """See the module docstring."""
    diags = Diagnostics()
    validated: set[str] = set()
    for tf in files:
        diags.extend(validate_file(tf, config))
        for run in tf.runs:
            if run.module is None or run.config is None:
                diags.extend(validate_run(run, config))
                continue
            if is_local_source(run.module.source):
                source = clean_local_source(run.module.source)
                if source not in validated:
                    validated.add(source)
                    diags.extend(validate_module(run.config))
            diags.extend(validate_run(run, run.config))
    return diags
