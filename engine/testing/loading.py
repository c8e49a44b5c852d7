"""The configuration loaded with its test files: terraform's LoadConfigWithTests.

- `list_test_files(root, test_dir, shown_root)`: the test files terraform's dirFiles finds,
  as paths relative to `root`, sorted: the `*.tftest.hcl` / `*.tftest.json` files directly in
  the module directory and directly in `test_dir` (not below it), skipping hidden and editor
  files. A missing test directory other than the default `tests` is a warning ("Test
  directory does not exist", naming `shown_root` joined with it); another failure to read it
  is an error. An empty `test_dir` means no test files (not even the module directory's).
- `run_module_path(file_name, run_name)`: where `init` installs a run block's module and the
  loader finds it in modules.json: `test.<dirs of the file>.<file name without
  .tftest.hcl>.<run>` (terraform trims only `.tftest.hcl`, so `a.tftest.json`'s runs live
  under `test.a.tftest.json.<run>`).
- `module_requests(files)`: the run blocks' modules as `engine.configs.loader.ModuleRequest`s.
- `install_modules_with_tests(root_dir, say, test_dir, upgrade, environ)`: `init`'s and
  `get`'s install (engine.initwd.install_modules) of the module tree and of the modules the
  test files' run blocks name; the test files' problems are the install's early ones.
- `load_config_with_tests(root_dir, test_dir, manifest)`: the configuration, the test files
  and the diagnostics of both. The test files load with the root module (an error in one
  stops loading there); each run block with a `module` gets that module's configuration as
  `run.config` (terraform's ConfigUnderTest).
"""

from __future__ import annotations

import contextlib
import os
import posixpath
from collections.abc import Callable

from engine.configs.loader import Config, Manifest, ModuleRequest, load_config
from engine.diags import Diagnostics, error, warning
from engine.initwd.modules import ModuleInstall, display_dir, install_modules
from engine.testing.files import TestFile, is_test_file, load_test_file

DEFAULT_TEST_DIRECTORY = "tests"


def _ignored(name: str) -> bool:
    return name.startswith(".") or name.endswith("~") or (name.startswith("#") and name.endswith("#"))


def _files_in(directory: str) -> list[str]:
    out = []
    for name in sorted(os.listdir(directory)):
        if _ignored(name) or not is_test_file(name):
            continue
        if not os.path.isdir(os.path.join(directory, name)):
            out.append(name)
    return out


def list_test_files(root: str, test_dir: str = DEFAULT_TEST_DIRECTORY,
                    shown_root: str = ".") -> tuple[list[str], Diagnostics]:
    """See the module docstring."""
    diags = Diagnostics()
    found: set[str] = set()
    if not test_dir:
        return [], diags  # as terraform: no test directory, no test files at all
    if test_dir:
        shown = posixpath.join(shown_root, test_dir) if shown_root != "." else posixpath.normpath(test_dir)
        base = os.path.join(root, test_dir)
        try:
            found.update(os.path.relpath(os.path.join(base, n), root) for n in _files_in(base))
        except FileNotFoundError:
            if test_dir != DEFAULT_TEST_DIRECTORY:
                diags.append(warning("Test directory does not exist",
                                     f"Requested test directory {shown} does not exist."))
        except OSError as exc:
            diags.append(error("Failed to read test directory",
                               f"Test directory {shown} could not be read: "
                               f"{exc.strerror or exc}."))
            return [], diags
    with contextlib.suppress(OSError):  # the module loader reports an unreadable directory
        found.update(_files_in(root))
    return sorted(n.replace(os.sep, "/") for n in found), diags


def run_module_path(file_name: str, run_name: str) -> tuple[str, ...]:
    """See the module docstring."""
    directory, base = posixpath.split(file_name.replace(os.sep, "/"))
    dirs = [] if directory in ("", ".") else directory.split("/")
    return ("test", *dirs, base.removesuffix(".tftest.hcl"), run_name)


def module_requests(files: list[TestFile]) -> list[ModuleRequest]:
    """See the module docstring."""
    out = []
    for tf in files:
        for run in tf.runs:
            if run.module is not None:
                out.append(ModuleRequest(run.name, run_module_path(tf.name, run.name),
                                         run.module.source, run.module.decl_range,
                                         run.module.source_range, run.module.version))
    return out


def load_test_files(root: str, test_dir: str = DEFAULT_TEST_DIRECTORY,
                    shown_root: str = ".") -> tuple[list[TestFile], Diagnostics]:
    """Every test file of the module at `root` (`list_test_files`), decoded, in name order;
    file names in diagnostics are relative to `root` joined onto `shown_root`."""
    names, diags = list_test_files(root, test_dir, shown_root)
    files = []
    for name in names:
        shown = name if shown_root == "." else posixpath.join(shown_root, name)
        tf, more = load_test_file(os.path.join(root, name), shown)
        diags.extend(more)
        if tf is not None:
            tf.name = name
            files.append(tf)
    return files, diags


def load_config_with_tests(
    root_dir: str, test_dir: str = DEFAULT_TEST_DIRECTORY, manifest: Manifest | None = None,
) -> tuple[Config, list[TestFile], Diagnostics]:
    """See the module docstring."""
    files, diags = load_test_files(root_dir, test_dir, root_dir)
    config, diags = load_config(root_dir, manifest, (module_requests(files), diags))
    for tf in files:
        for run in tf.runs:
            if run.module is not None:
                run.config = config.test_modules.get(".".join(run_module_path(tf.name, run.name)))
    return config, files, diags


def install_modules_with_tests(
    root_dir: str, say: Callable[[str], None], test_dir: str = DEFAULT_TEST_DIRECTORY,
    upgrade: bool = False, environ: dict[str, str] | None = None,
) -> ModuleInstall:
    """See the module docstring."""
    shown = display_dir(root_dir)
    files, diags = load_test_files(shown, test_dir, shown)
    return install_modules(shown, say, upgrade, environ, module_requests(files), diags)
