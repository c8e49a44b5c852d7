"""Loading configuration from disk: one module directory, or the whole module tree.

- `module_files(dir)`: the `.tf` / `.tf.json` files of a directory in lexical order, split
  into primary and override files (`override.tf`, `*_override.tf`, and their `.tf.json`).
- `load_module(dir)`: parse and decode them into a `Module`.
- `load_config(root_dir, manifest=None)`: the root module and, recursively, every child
  module, each from the directory `init` recorded for it in `.terraform/modules/modules.json`
  (or in `manifest`: module key -> (directory relative to `root_dir`, source address)), as
  terraform's loader does: local sources (`./x`, `../x`) too. A call without a record gives
  "Module not installed", a record whose directory cannot be read gives "Module not
  installed" naming the directory, and a local source that differs from the recorded one
  gives "Module source has changed" (`init` installs them). When the root module itself has
  errors, they are all that is returned: no child is loaded, providers are not checked.
"""

from __future__ import annotations

import json
import os
import posixpath
import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from engine.configs.files import FileContents, decode_file_body
from engine.configs.merge import build_module
from engine.configs.module import Module
from engine.configs.module_calls import ModuleCall, is_local_source
from engine.configs.versions import check_core_version
from engine.diags import Diagnostic, Diagnostics, error
from engine.hcl.gcpause import paused_cyclic_gc


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
                shown = _clean_local(src) if node.call.is_local else src
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


def _clean_local(source: str) -> str:
    """A local module source as terraform normalises it (`./a/../b/` -> `./b`)."""
    clean = posixpath.normpath(source.replace("\\", "/"))
    if not clean.startswith("../") and clean not in (".", ".."):
        clean = "./" + clean
    return clean


def _source_changed(mc: ModuleCall, recorded: str) -> bool:
    """Whether the call's source is not the one `init` installed. Only local sources are
    compared (remote addresses are recorded in a normalised form groundplan does not
    reproduce)."""
    rec_local = is_local_source(recorded)
    if not mc.is_local and not rec_local:
        return False
    if mc.is_local != rec_local:
        return True
    return _clean_local(mc.source) != _clean_local(recorded)


def _not_installed(mc: ModuleCall, detail: str) -> Diagnostic:
    return error("Module not installed", detail, mc.decl_range)


def recursive_call(name: str, mc: ModuleCall, where: str) -> Diagnostic:
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
                   ancestors: tuple[str, ...] = ()) -> None:
    if len(node.path) >= _MAX_DEPTH:
        return
    ancestors = (*ancestors, os.path.realpath(node.source_dir or root_dir))
    for name in sorted(node.module.module_calls):
        mc = node.module.module_calls[name]
        if not mc.source_ok:
            continue
        path = (*node.path, name)
        record = manifest.get(".".join(path))
        if record is None:
            diags.append(_not_installed(mc, "This module is not yet installed. " + _INIT_HINT))
            continue
        rec_dir, rec_source = record
        directory = os.path.normpath(os.path.join(root_dir, rec_dir))
        if not os.path.isdir(directory):
            # As terraform: an unreadable directory is the only problem reported for the call.
            diags.append(_not_installed(
                mc, f"This module's local cache directory {rec_dir} could not be read. "
                + _INIT_HINT))
            continue
        if _source_changed(mc, rec_source):
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
        _load_children(child, root_dir, manifest, diags, ancestors)


def load_config(root_dir: str, manifest: Manifest | None = None) -> tuple[Config, Diagnostics]:
    """The whole configuration rooted at `root_dir` (see the module docstring); `manifest`
    replaces the working directory's modules.json (a saved plan's configuration snapshot)."""
    # Pause cyclic GC while the (acyclic) syntax trees are built: with hundreds of thousands
    # of new nodes its repeated passes would double the loading time.
    with paused_cyclic_gc():
        mod, diags = load_module(root_dir)
        root = Config(mod)
        if diags.has_errors:
            # as terraform's loader: a root module with errors is returned alone (its
            # required_version can still be checked), no child module is loaded
            return root, diags
        _load_children(root, root_dir, _manifest(root_dir) if manifest is None else manifest,
                       diags)
    from engine.configs.provider_validation import validate_provider_configs

    diags.extend(validate_provider_configs(root))
    return root, diags
