"""Test files: decoding `*.tftest.hcl` / `*.tftest.json` into `TestFile` and `Run` objects.

The shapes are terraform 1.11's (internal/configs/test_file.go): a file holds `run` blocks,
at most one `variables` block, `provider` and `mock_provider` blocks, and
`override_resource` / `override_data` / `override_module` blocks; a run holds `command`,
`providers`, `expect_failures`, `state_key`, `plan_options`, `assert`,
`variables`, `module` and its own overrides. Problems come back as terraform's diagnostics
(file and line); nothing here evaluates anything that is not static.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Any

from engine.configs.checks import CheckRule
from engine.configs.exprs import (
    abs_traversal,
    decode_bool,
    decode_string,
    expr_as_keyword,
    expr_list,
    valid_identifier,
)
from engine.configs.module_calls import is_local_source, is_registry_source, source_problem
from engine.configs.providers import ProviderConfig, decode_provider_block
from engine.configs.syntax import AttrSchema, BlockSchema, BodySchema, content, just_attributes
from engine.configs.versions import VersionConstraint, decode_version_constraint
from engine.diags import Diagnostics, error
from engine.hcl.ast import Attribute, Block, Body, Expr, Traversal
from engine.source import Range
from engine.testing.overrides import Override, decode_override

BAD_IDENTIFIER = (
    "A name must start with a letter or underscore and may contain only letters, digits, "
    "underscores, and dashes."
)

FILE_SCHEMA = BodySchema(
    blocks=(
        BlockSchema("run", ("name",)),
        BlockSchema("provider", ("name",)),
        BlockSchema("mock_provider", ("name",)),
        BlockSchema("variables"),
        BlockSchema("override_resource"),
        BlockSchema("override_data"),
        BlockSchema("override_module"),
    )
)
RUN_SCHEMA = BodySchema(
    # terraform 1.11 has no `parallel` argument yet (1.12 added it): it is unsupported here too
    attributes=(AttrSchema("command"), AttrSchema("providers"), AttrSchema("expect_failures"),
                AttrSchema("state_key")),
    blocks=(
        BlockSchema("plan_options"), BlockSchema("assert"), BlockSchema("variables"),
        BlockSchema("module"), BlockSchema("override_resource"), BlockSchema("override_data"),
        BlockSchema("override_module"),
    ),
)
PLAN_OPTIONS_SCHEMA = BodySchema(
    attributes=(AttrSchema("mode"), AttrSchema("refresh"), AttrSchema("replace"),
                AttrSchema("target")))
MODULE_SCHEMA = BodySchema(attributes=(AttrSchema("source"), AttrSchema("version")))
ASSERT_SCHEMA = BodySchema(attributes=(AttrSchema("condition", required=True),
                                       AttrSchema("error_message", required=True)))
MOCK_PROVIDER_SCHEMA = BodySchema(
    attributes=(AttrSchema("alias"), AttrSchema("source")),
    blocks=(BlockSchema("mock_resource", ("type",)), BlockSchema("mock_data", ("type",)),
            BlockSchema("override_resource"), BlockSchema("override_data")),
)
MOCK_TYPE_SCHEMA = BodySchema(attributes=(AttrSchema("defaults"),))


@dataclass(slots=True)
class PlanOptions:
    """A run's `plan_options` block."""

    mode: str = "normal"  # or "refresh-only"
    refresh: bool = True
    replace: list[Traversal] = field(default_factory=list)
    target: list[Traversal] = field(default_factory=list)


@dataclass(slots=True)
class ModuleRef:
    """A run's `module { source, version }`: the module it runs instead of the one tested."""

    source: str
    version: VersionConstraint | None
    decl_range: Range  # the block's header ("module")
    source_range: Range  # the whole `source` argument, as terraform's SourceDeclRange


@dataclass(slots=True)
class Run:
    """One `run "NAME"` block."""

    name: str
    decl_range: Range
    command: str = "apply"
    variables: dict[str, Attribute] = field(default_factory=dict)
    asserts: list[CheckRule] = field(default_factory=list)
    expect_failures: list[Traversal] = field(default_factory=list)
    options: PlanOptions = field(default_factory=PlanOptions)
    module: ModuleRef | None = None
    state_key: str = ""
    providers: dict[str, tuple[Traversal, Range]] = field(default_factory=dict)
    overrides: list[Override] = field(default_factory=list)
    #: the configuration a `module` block names, once loaded with the configuration
    #: (terraform's ConfigUnderTest; engine.testing.loading)
    config: Any = None


@dataclass(slots=True)
class MockType:
    """A `mock_resource "TYPE"` or `mock_data "TYPE"` block: its `defaults` expression."""

    type: str
    defaults: Expr | None
    decl_range: Range


@dataclass(slots=True)
class MockProvider:
    """A `mock_provider "NAME"` block."""

    name: str
    alias: str
    decl_range: Range
    source: str = ""  # a directory of .tfmock.hcl files
    resources: dict[str, MockType] = field(default_factory=dict)
    data: dict[str, MockType] = field(default_factory=dict)
    overrides: list[Override] = field(default_factory=list)

    @property
    def key(self) -> str:
        return f"{self.name}.{self.alias}" if self.alias else self.name


@dataclass(slots=True)
class TestFile:
    """One test file, named by its path relative to the module directory."""

    __test__ = False  # not a pytest test class

    name: str
    variables: dict[str, Attribute] = field(default_factory=dict)
    providers: dict[str, ProviderConfig] = field(default_factory=dict)
    mocks: dict[str, MockProvider] = field(default_factory=dict)
    overrides: list[Override] = field(default_factory=list)
    runs: list[Run] = field(default_factory=list)


def _variables_block(block: Block, diags: Diagnostics) -> dict[str, Attribute]:
    attrs, more = just_attributes(block.body)
    diags.extend(more)
    return dict(attrs)


def _keyword(attr: Attribute, allowed: tuple[str, ...], summary: str, detail: str,
             diags: Diagnostics) -> str | None:
    word = expr_as_keyword(attr.expr)
    if word not in allowed:
        diags.append(error(summary, detail, attr.expr.range))
        return None
    return word


def _traversals(attr: Attribute, diags: Diagnostics) -> list[Traversal]:
    exprs, more = expr_list(attr.expr)
    diags.extend(more)
    out: list[Traversal] = []
    for e in exprs:
        trav, more = abs_traversal(e, shim=False)
        diags.extend(more)
        if trav is not None:
            out.append(trav)
    return out


def _plan_options(block: Block, diags: Diagnostics) -> PlanOptions:
    got, more = content(block.body, PLAN_OPTIONS_SCHEMA, block)
    diags.extend(more)
    opts = PlanOptions()
    a = got.attributes
    if "mode" in a:
        mode = _keyword(a["mode"], ("normal", "refresh-only"), 'Invalid "mode" keyword',
                        'The "mode" argument requires one of the following keywords without '
                        "quotes: normal or refresh-only", diags)
        opts.mode = mode or "normal"
    if "refresh" in a:
        val, more = decode_bool(a["refresh"])
        diags.extend(more)
        opts.refresh = True if val is None else val
    if "replace" in a:
        opts.replace = _traversals(a["replace"], diags)
    if "target" in a:
        opts.target = _traversals(a["target"], diags)
    if not opts.refresh and opts.mode == "refresh-only":
        diags.append(error(
            "Incompatible plan options",
            'The "refresh" option cannot be set to false when running a test in '
            '"refresh-only" mode.', a["refresh"].range))
    return opts


def _module_block(block: Block, diags: Diagnostics) -> ModuleRef | None:
    """terraform's decodeTestRunModuleBlock: None when the block has errors (the run then
    tests the main configuration, and the errors stop everything)."""
    mine = Diagnostics()
    got, more = content(block.body, MODULE_SCHEMA, block)
    mine.extend(more)
    version: VersionConstraint | None = None
    if "version" in got.attributes:
        version, more = decode_version_constraint(got.attributes["version"])
        mine.extend(more)
    src_attr = got.attributes.get("source")
    source: str | None = None
    if src_attr is None:
        mine.append(error(
            'Missing "source" attribute for module block',
            "You must specify a source attribute when executing alternate modules during test "
            "executions.", block.def_range))
    else:
        source, more = decode_string(src_attr)
        mine.extend(more)
        have_version = "version" in got.attributes
        problem = source_problem(source, have_version) if source is not None else None
        if problem is not None:
            mine.append(error(problem[0], problem[1], src_attr.range))
        elif source is not None and not is_local_source(source) and not is_registry_source(source):
            mine.append(error(
                "Invalid module source address",
                "Only local or registry module sources are currently supported from within "
                "test run blocks.", src_attr.range))
    diags.extend(mine)
    if mine.has_errors or source is None or src_attr is None:
        return None
    return ModuleRef(source, version, block.def_range, src_attr.range)


def _assert_block(block: Block, diags: Diagnostics) -> CheckRule:
    got, more = content(block.body, ASSERT_SCHEMA, block)
    diags.extend(more)
    cond = got.attributes.get("condition")
    msg = got.attributes.get("error_message")
    return CheckRule("assert", cond.expr if cond else None, msg.expr if msg else None,
                     block.def_range)


def _add_override(target: list[Override], block: Block, diags: Diagnostics) -> None:
    ov, more = decode_override(block)
    diags.extend(more)
    if ov is None:
        return
    for prev in target:
        if prev.kind == ov.kind and prev.target_str == ov.target_str:
            diags.append(error(
                f"Duplicate {block.type} block",
                f"An {block.type} block targeting {ov.target_str} has already been defined at "
                f"{prev.decl_range}.", block.def_range))
            return
    target.append(ov)


def decode_run(block: Block, diags: Diagnostics) -> Run:
    """One `run` block."""
    name = block.labels[0]
    run = Run(name, block.def_range)
    if not valid_identifier(name):
        diags.append(error("Invalid run block name", BAD_IDENTIFIER, block.label_ranges[0]))
    got, more = content(block.body, RUN_SCHEMA, block)
    diags.extend(more)
    seen: dict[str, Range] = {}
    for b in got.blocks:
        if b.type in ("plan_options", "variables", "module"):
            if b.type in seen:
                what = "run block"
                diags.append(error(
                    f'Multiple "{b.type}" blocks',
                    f"This {what} already has a {b.type} block defined at {seen[b.type]}.",
                    b.def_range))
                continue
            seen[b.type] = b.def_range
        if b.type == "plan_options":
            run.options = _plan_options(b, diags)
        elif b.type == "assert":
            run.asserts.append(_assert_block(b, diags))
        elif b.type == "variables":
            run.variables = _variables_block(b, diags)
        elif b.type == "module":
            run.module = _module_block(b, diags)
        else:
            _add_override(run.overrides, b, diags)
    a = got.attributes
    if "command" in a:
        cmd = _keyword(a["command"], ("apply", "plan"), 'Invalid "command" keyword',
                       'The "command" argument requires one of the following keywords without '
                       "quotes: apply or plan.", diags)
        run.command = cmd or "apply"
    if "expect_failures" in a:
        run.expect_failures = _traversals(a["expect_failures"], diags)
    if "state_key" in a:
        key, more = decode_string(a["state_key"])
        diags.extend(more)
        run.state_key = key or ""
    if "providers" in a:
        run.providers = _providers_map(a["providers"], diags)
    return run


def _providers_map(attr: Attribute, diags: Diagnostics) -> dict[str, tuple[Traversal, Range]]:
    from engine.hcl.ast import ObjectConsExpr

    out: dict[str, tuple[Traversal, Range]] = {}
    inner = attr.expr
    if not isinstance(inner, ObjectConsExpr):
        diags.append(error("Invalid providers map",
                           "The providers argument requires a map of provider configurations.",
                           attr.expr.range))
        return out
    for item in inner.items:
        key, more = abs_traversal(item.key.wrapped, shim=False)
        diags.extend(more)
        val, more = abs_traversal(item.value, shim=False)
        diags.extend(more)
        if key is None or val is None:
            continue
        from engine.hcl.ast import traversal_str

        out[traversal_str(key)] = (val, item.value.range)
    return out


def _mock_provider(block: Block, diags: Diagnostics) -> MockProvider:
    got, more = content(block.body, MOCK_PROVIDER_SCHEMA, block)
    diags.extend(more)
    alias = ""
    if "alias" in got.attributes:
        text, more = decode_string(got.attributes["alias"])
        diags.extend(more)
        alias = text or ""
    mock = MockProvider(block.labels[0], alias, block.def_range)
    if "source" in got.attributes:
        text, more = decode_string(got.attributes["source"])
        diags.extend(more)
        mock.source = text or ""
    add_mock_blocks(mock, got.blocks, diags)
    return mock


def add_mock_blocks(mock: MockProvider, blocks: list[Block], diags: Diagnostics,
                    keep_existing: bool = False) -> None:
    """`mock_resource`, `mock_data` and override blocks into `mock`. With `keep_existing`
    (blocks from a `source` directory's .tfmock.hcl files) a type or target `mock` already
    has is left as it is: the test file's own blocks win, as in terraform."""
    for b in blocks:
        if b.type in ("mock_resource", "mock_data"):
            inner, more = content(b.body, MOCK_TYPE_SCHEMA, b)
            diags.extend(more)
            d = inner.attributes.get("defaults")
            table = mock.resources if b.type == "mock_resource" else mock.data
            kind = "mock_resource" if b.type == "mock_resource" else "mock_data"
            if b.labels[0] in table:
                if keep_existing:
                    continue
                diags.append(error(
                    f"Duplicate {kind} block",
                    f"A {kind} block for {b.labels[0]} has already been defined at "
                    f"{table[b.labels[0]].decl_range}.", b.def_range))
                continue
            table[b.labels[0]] = MockType(b.labels[0], d.expr if d else None, b.def_range)
        elif keep_existing:
            ov, more = decode_override(b)
            diags.extend(more)
            if ov is not None and not any(o.kind == ov.kind and o.target_str == ov.target_str
                                          for o in mock.overrides):
                ov.from_mock_file = True
                mock.overrides.append(ov)
        else:
            _add_override(mock.overrides, b, diags)


def decode_test_body(name: str, body: Body) -> tuple[TestFile, Diagnostics]:
    """A parsed test file's body as a `TestFile` (see the module docstring)."""
    diags = Diagnostics()
    tf = TestFile(name)
    got, more = content(body, FILE_SCHEMA)
    diags.extend(more)
    runs: dict[str, Range] = {}
    vars_at: Range | None = None
    for b in got.blocks:
        if b.type == "run":
            run = decode_run(b, diags)
            if run.name in runs:
                diags.append(error('Duplicate "run" block names',
                                   f"This test file already has a run named {run.name} block "
                                   f"defined at {runs[run.name]}.", b.def_range))
                continue
            runs[run.name] = b.def_range
            tf.runs.append(run)
        elif b.type == "variables":
            if vars_at is not None:
                diags.append(error('Multiple "variables" blocks',
                                   f"This test file already has a variables block defined at "
                                   f"{vars_at}.", b.def_range))
                continue
            vars_at = b.def_range
            tf.variables = _variables_block(b, diags)
        elif b.type in ("provider", "mock_provider"):
            _add_provider(b, tf, diags)
        else:
            _add_override(tf.overrides, b, diags)
    return tf, diags


def _add_provider(b: Block, tf: TestFile, diags: Diagnostics) -> None:
    """A `provider` or `mock_provider` block, unless one with its key exists already."""
    pc: ProviderConfig | None = None
    mock: MockProvider | None = None
    if b.type == "provider":
        pc, more = decode_provider_block(b)
        diags.extend(more)
        if pc is None:
            return
        key, rng = pc.key, pc.name_range
    else:
        mock = _mock_provider(b, diags)
        key, rng = mock.key, b.label_ranges[0]
    prev_at = _previous(tf, key)
    if prev_at is not None:
        diags.append(error("Duplicate provider block",
                           f"A provider for {key} is already defined at {prev_at}.", rng))
        return
    if pc is not None:
        tf.providers[key] = pc
    elif mock is not None:
        tf.mocks[key] = mock


def _previous(tf: TestFile, key: str) -> Range | None:
    if key in tf.providers:
        return tf.providers[key].name_range
    if key in tf.mocks:
        return tf.mocks[key].decl_range
    return None


def load_test_file(path: str, name: str) -> tuple[TestFile | None, Diagnostics]:
    """Parse and decode the test file at `path` (named `name` in messages)."""
    from engine.hcl import parse_file, parse_json_file

    try:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
    except OSError as exc:
        return None, Diagnostics([error("Failed to read file",
                                        f"The file {name!r} could not be read: {exc}.")])
    parsed, diags = (parse_json_file(text, name) if name.endswith(".json")
                     else parse_file(text, name))
    if parsed is None:
        return None, diags
    # as terraform, the body parsed so far is decoded even after a syntax error
    tf, more = decode_test_body(name, parsed.body)
    diags.extend(more)
    from engine.testing.mock_files import load_mock_sources

    base = path[: -len(name)] if path.endswith(name) else os.path.dirname(path)
    diags.extend(load_mock_sources(tf, base or "."))
    return tf, diags


def is_test_file(name: str) -> bool:
    return name.endswith(".tftest.hcl") or name.endswith(".tftest.json")
