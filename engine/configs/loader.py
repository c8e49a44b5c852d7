"""Loading configuration from disk: one module directory, or the whole module tree.

- `module_files(dir)`: the `.tf` / `.tf.json` files of a directory in lexical order, split
  into primary and override files (`override.tf`, `*_override.tf`, and their `.tf.json`).
- `load_module(dir)`: parse and decode them into a `Module`.
- `load_config(root_dir, manifest=None, tests=None)`: the root module and, recursively, every
  child module, each from the directory `init` recorded for it in
  `.terraform/modules/modules.json` (or in `manifest`: module key -> (directory relative to
  `root_dir`, source address)), as terraform's loader does: local sources (`./x`, `../x`)
  too. A call without a record gives "Module not installed", a record whose directory cannot
  be read gives "Module not installed" naming the directory, and a local source that differs
  from the recorded one gives "Module source has changed" (`init` installs them). When the
  root module itself has errors, they are all that is returned: no child is loaded,
  providers are not checked.
- `tests` (terraform's LoadConfigWithTests): the test files' diagnostics (they load with the
  root module: an error stops loading as one in the root module does) and the modules their
  run blocks name (`ModuleRequest`, manifest key `test.<dirs>.<file>.<run>`); each is loaded
  after the children, as terraform's buildTestModules does, with the same checks and its own
  children under its key, into `Config.test_modules` (key -> a tree rooted at that module).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from engine.configs.files import FileContents, decode_file_body
from engine.configs.merge import build_module
from engine.configs.module import Module
from engine.configs.module_calls import ModuleCall, SourcedCall, clean_local_source, is_local_source
from engine.configs.versions import VersionConstraint, check_core_version
from engine.diags import Diagnostic, Diagnostics, error
from engine.hcl.gcpause import paused_cyclic_gc
from engine.source import Range


def _ignored(name: str) -> bool:
    return name.startswith(".") or name.endswith("~") or (name.startswith("#") and name.endswith("#"))


def _is_override(name: str) -> bool:
    base = name[: -len(".tf.json")] if name.endswith(".tf.json") else name[: -len(".tf")]
    return base == "override" or base.endswith("_override")


def _join(directory: str, name: str) -> str:
    return os.path.normpath(os.path.join(directory, name))


def module_files(directory: str) -> tuple[list[str], list[str], Diagnostics]:
    """(primary paths, override paths, diagnostics) for a module directory."""
    diags = Diagnostics()
    try:
        names = sorted(os.listdir(directory))
    except OSError:
        diags.append(
            error(
                "Failed to read module directory",
                f"Module directory {directory} does not exist or cannot be read.",
            )
        )
        return [], [], diags
    primary: list[str] = []
    override: list[str] = []
    for name in names:
        if _ignored(name) or not (name.endswith(".tf") or name.endswith(".tf.json")):
            continue
        path = _join(directory, name)
        if not os.path.isfile(path):
            continue
        (override if _is_override(name) else primary).append(path)
    return primary, override, diags


_SURROGATE = re.compile("[\udc80-\udcff]")


def _bad_encoding(text: str, path: str, reported: Diagnostics) -> Diagnostics:
    """terraform's "Invalid character encoding" at the first byte that is not UTF-8, unless
    the parser reported it already (it does outside quoted strings)."""
    out = Diagnostics()
    m = _SURROGATE.search(text)
    if m is None or any(d.summary == "Invalid character encoding" for d in reported):
        return out
    from engine.source import Range, SourceFile

    out.append(error(
        "Invalid character encoding",
        "All input files must be UTF-8 encoded. Ensure that UTF-8 encoding is selected in "
        "your editor.", Range(SourceFile(path, text), m.start(), m.end())))
    return out


def parse_config_file(path: str, override: bool) -> tuple[FileContents | None, Diagnostics]:
    """Read, parse and decode one configuration file."""
    diags = Diagnostics()
    try:
        # bytes that are not UTF-8 survive as lone surrogates: the lexer reports them as
        # terraform does ("Invalid character encoding" at their line)
        # (JSON files keep their carriage returns: HCL's JSON positions count their bytes)
        newline = "" if path.endswith(".json") else None
        with open(path, encoding="utf-8", errors="surrogateescape", newline=newline) as fh:
            text = fh.read()
    except OSError:
        diags.append(error("Failed to read file", f'The file "{path}" could not be read.'))
        return None, diags
    from engine import hcl

    if path.endswith(".json"):
        parsed, pdiags = hcl.parse_json_file(text, path)
    else:
        parsed, pdiags = hcl.parse_file(text, path)
    diags.extend(pdiags)
    # in JSON, bytes that are not UTF-8 are no error: strings decode them as U+FFFD (Go's
    # encoding/json), and outside strings the parser reports them as invalid tokens
    encoding = Diagnostics() if path.endswith(".json") else _bad_encoding(text, path, pdiags)
    diags.extend(encoding)
    if parsed is None or encoding.has_errors:
        return None, diags
    fc, ddiags = decode_file_body(parsed.body, path, override)
    diags.extend(ddiags)
    return fc, diags


def load_module(directory: str) -> tuple[Module, Diagnostics]:
    """The module in `directory` (file names in diagnostics are joined onto `directory`)."""
    primary_paths, override_paths, diags = module_files(directory)
    primary: list[FileContents] = []
    overrides: list[FileContents] = []
    for paths, out, is_override in ((primary_paths, primary, False), (override_paths, overrides, True)):
        for p in paths:
            fc, d = parse_config_file(p, is_override)
            diags.extend(d)
            if fc is not None:
                out.append(fc)
    mod, mdiags = build_module(os.path.normpath(directory), primary, overrides)
    diags.extend(mdiags)
    return mod, diags


@dataclass(eq=False)
class Config:
    """A node of the module tree: a module, where it sits, and the call that brought it in."""

    module: Module
    path: tuple[str, ...] = ()
    parent: Config | None = field(default=None, repr=False)
    call: ModuleCall | None = None
    children: dict[str, Config] = field(default_factory=dict, repr=False)
    #: the modules test files' run blocks name, by manifest key (only on a root loaded with
    #: its tests): each the root of its own tree, as terraform's rebased ConfigUnderTest
    test_modules: dict[str, Config] = field(default_factory=dict, repr=False)

    @property
    def root(self) -> Config:
        node = self
        while node.parent is not None:
            node = node.parent
        return node

    @property
    def source_dir(self) -> str:
        return self.module.source_dir

    @property
    def path_str(self) -> str:
        """`module.a.module.b` ("" for the root)."""
        return ".".join(f"module.{p}" for p in self.path)

    def descendant(self, path: tuple[str, ...]) -> Config | None:
        """The module at a path below this one (by call names), or None."""
        node: Config | None = self
        for name in path:
            if node is None:
                return None
            node = node.children.get(name)
        return node

    def walk(self) -> Iterator[Config]:
        """This node and all descendants, depth-first, children in call-name order."""
        yield self
        for name in sorted(self.children):
            yield from self.children[name].walk()

    def module_paths(self) -> list[tuple[str, ...]]:
        return [c.path for c in self.walk()]

    def check_core_versions(self) -> Diagnostics:
        """Terraform's `CheckCoreVersionRequirements`: an error for every `required_version`
        in this module or below that the implemented Terraform version does not satisfy."""
        diags = Diagnostics()
        for node in self.walk():
            name = ""
            if node.call is not None:
                src = node.call.source
                shown = clean_local_source(src) if node.call.is_local else src
                name = f"{node.path_str} (from {shown})"
            diags.extend(check_core_version(node.module.required_versions, module=name))
        return diags


Manifest = dict[str, tuple[str, str]]


def _manifest(root_dir: str) -> Manifest:
    """module key -> (Dir, Source) from `root_dir`'s modules.json ({} when absent)."""
    path = os.path.join(root_dir, ".terraform", "modules", "modules.json")
    try:
        with open(path, encoding="utf-8") as fh:
            data = json.load(fh)
    except (OSError, ValueError):
        return {}
    out: Manifest = {}
    modules = data.get("Modules", []) if isinstance(data, dict) else []
    for rec in modules if isinstance(modules, list) else []:
        if isinstance(rec, dict) and "Key" in rec and "Dir" in rec:
            out[str(rec["Key"])] = (str(rec["Dir"]), str(rec.get("Source", "")))
    return out


_MAX_DEPTH = 64
_INIT_HINT = 'Run "groundplan init" to install all modules required by this configuration.'


def source_changed(source: str, recorded: str) -> bool:
    """Whether a call's source is not the one `init` installed. Only local sources are
    compared (remote addresses are recorded in a normalised form groundplan does not
    reproduce)."""
    local, rec_local = is_local_source(source), is_local_source(recorded)
    if not local and not rec_local:
        return False
    if local != rec_local:
        return True
    return clean_local_source(source) != clean_local_source(recorded)


def _not_installed(mc: ModuleCall, detail: str) -> Diagnostic:
    return error("Module not installed", detail, mc.decl_range)


def recursive_call(name: str, mc: SourcedCall, where: str) -> Diagnostic:
    """The error for a local module call whose directory is that of a module calling it
    (itself, or through other modules): its tree would never end. terraform has no check
    of its own and fails when the nested paths become too long for the file system."""
    return error(
        "Module calls itself",
        f'The module call "{name}" at {where} has source "{mc.source}", the directory of a '
        "module that contains this call (directly or through other module calls), so the "
        "module tree would never end. A module cannot call itself.",
        mc.source_range or mc.decl_range,
    )


def _load_children(node: Config, root_dir: str, manifest: Manifest, diags: Diagnostics,
                   ancestors: tuple[str, ...] = (), prefix: tuple[str, ...] = ()) -> None:
    """Load `node`'s children; `prefix` is the manifest key path of the tree's root (a test
    run's module: `("test", "main", "setup")`), () for the configuration's root."""
    if len(node.path) + len(prefix) >= _MAX_DEPTH:
        return
    ancestors = (*ancestors, os.path.realpath(node.source_dir or root_dir))
    for name in sorted(node.module.module_calls):
        mc = node.module.module_calls[name]
        if not mc.source_ok:
            continue
        path = (*node.path, name)
        record = manifest.get(".".join((*prefix, *path)))
        if record is None:
            diags.append(_not_installed(mc, "This module is not yet installed. " + _INIT_HINT))
            continue
        rec_dir, rec_source = record
        directory = os.path.normpath(os.path.join(root_dir, rec_dir))
        if not rec_dir or not os.path.isdir(directory):
            # As terraform: an unreadable directory is the only problem reported for the call.
            diags.append(_not_installed(
                mc, f"This module's local cache directory {rec_dir} could not be read. "
                + _INIT_HINT))
            continue
        if source_changed(mc.source, rec_source):
            diags.append(error(
                "Module source has changed",
                "The source address was changed since this module was installed. "
                + _INIT_HINT, mc.source_range or mc.decl_range))
        if os.path.realpath(directory) in ancestors:
            where = f"{os.path.basename(mc.decl_range.filename)}:{mc.decl_range.start.line}"
            diags.append(recursive_call(name, mc, where))
            continue
        mod, mdiags = load_module(directory)
        diags.extend(mdiags)
        child = Config(mod, path, node, mc)
        node.children[name] = child
        _load_children(child, root_dir, manifest, diags, ancestors, prefix)


@dataclass(frozen=True, slots=True)
class ModuleRequest:
    """The module a test file's run block names (`module { source = ... }`), as terraform's
    buildTestModules asks its module walker for it."""

    name: str  # the run's name
    path: tuple[str, ...]  # its manifest key path: ("test", *dirs, file stem, run name)
    source: str
    decl_range: Range  # the `module` block's header
    source_range: Range  # the `source` argument
    version: VersionConstraint | None = None  # the `version` argument (registry sources)

    @property
    def key(self) -> str:
        return ".".join(self.path)


def _load_test_module(root: Config, root_dir: str, manifest: Manifest, req: ModuleRequest,
                      diags: Diagnostics) -> None:
    record = manifest.get(req.key)
    if record is None:
        diags.append(error("Module not installed",
                           "This module is not yet installed. " + _INIT_HINT, req.decl_range))
        return
    rec_dir, rec_source = record
    directory = os.path.normpath(os.path.join(root_dir, rec_dir))
    if not rec_dir or not os.path.isdir(directory):
        diags.append(error(
            "Module not installed",
            f"This module's local cache directory {rec_dir} could not be read. " + _INIT_HINT,
            req.decl_range))
        return
    if source_changed(req.source, rec_source):
        diags.append(error("Module source has changed",
                           "The source address was changed since this module was installed. "
                           + _INIT_HINT, req.source_range))
    mod, mdiags = load_module(directory)
    diags.extend(mdiags)
    if mod.imports:
        # terraform loads the module as a child (at its key path) before rebasing it
        where = ".".join(f"module.{p}" for p in req.path)
        diags.append(error(
            "Invalid import configuration",
            f'An import block was detected in "{where}". Import blocks are only allowed in '
            "the root module.", mod.imports[0].decl_range))
    node = Config(mod)
    _load_children(node, root_dir, manifest, diags, prefix=req.path)
    root.test_modules[req.key] = node


TestRequests = tuple[list[ModuleRequest], Diagnostics]


def load_config(root_dir: str, manifest: Manifest | None = None,
                tests: TestRequests | None = None) -> tuple[Config, Diagnostics]:
    """The whole configuration rooted at `root_dir` (see the module docstring); `manifest`
    replaces the working directory's modules.json (a saved plan's configuration snapshot);
    `tests` are the test files' module requests and diagnostics (engine.testing.loading)."""
    # Pause cyclic GC while the (acyclic) syntax trees are built: with hundreds of thousands
    # of new nodes its repeated passes would double the loading time.
    with paused_cyclic_gc():
        mod, diags = load_module(root_dir)
        if tests is not None:
            diags.extend(tests[1])
        root = Config(mod)
        if diags.has_errors:
            # as terraform's loader: a root module with errors is returned alone (its
            # required_version can still be checked), no child module is loaded
            return root, diags
        if manifest is None:
            manifest = _manifest(root_dir)
        _load_children(root, root_dir, manifest, diags)
        for req in tests[0] if tests is not None else ():
            _load_test_module(root, root_dir, manifest, req, diags)
    from engine.configs.provider_validation import validate_provider_configs

    diags.extend(validate_provider_configs(root))
    return root, diags
