"""`fmt`: rewrite configuration files in the canonical style, as `terraform fmt` does.

`fmt [options] [target...]` formats `.tf`, `.tfvars`, `.tftest.hcl` and `.tfmock.hcl` files
in the current directory (or the given directories and files; `-recursive` descends into
subdirectories, skipping ignored names such as `.hidden`, `x~`, `#x#`), or standard input
with `-`. Changed files are listed (`-list`), rewritten (`-write`) and diffed (`-diff`, with
the system `diff -u` as terraform uses it). `-check` writes nothing and exits 3 when any
input is not formatted, printing its list (and diffs) only when `-list` stays on. A file
that does not parse is reported with terraform's syntax diagnostics and nothing is written;
any error makes the exit code 2. A bad flag prints the help and Go's flag error (exit 1).
"""

from __future__ import annotations

import difflib
import os
import shutil
import subprocess
import sys
import tempfile
from io import StringIO

from engine.cli.args import FlagError, FlagSet
from engine.cli.meta import Meta
from engine.diags import Diagnostic, error, render_diagnostic
from engine.diags.presentation import for_people
from engine.hcl.format_rewrite import format_terraform

SUPPORTED_EXTS = (".tf", ".tfvars", ".tftest.hcl", ".tfmock.hcl")

HELP = """Usage: groundplan [global options] fmt [options] [target...]

  Rewrites all groundplan configuration files to a canonical format. All
  configuration files (.tf), variables files (.tfvars), and testing files\x20
  (.tftest.hcl) are updated. JSON files (.tf.json, .tfvars.json, or\x20
  .tftest.json) are not modified.

  By default, fmt scans the current directory for configuration files. If you
  provide a directory for the target argument, then fmt will scan that
  directory instead. If you provide a file, then fmt will process just that
  file. If you provide a single dash ("-"), then fmt will read from standard
  input (STDIN).

  The content must be in the Terraform language native syntax; JSON is not
  supported.

Options:

  -list=false    Don't list files whose formatting differs
                 (always disabled if using STDIN)

  -write=false   Don't write to source files
                 (always disabled if using STDIN or -check)

  -diff          Display diffs of formatting changes

  -check         Check if the input is formatted. Exit status will be 0 if all
                 input is properly formatted and non-zero otherwise.

  -no-color      If specified, output won't contain any color.

  -recursive     Also process files in subdirectories. By default, only the
                 given directory (or current directory) is processed."""


def is_ignored_name(name: str) -> bool:
    """Names terraform skips in a configuration directory (editor and hidden files)."""
    return name.startswith(".") or name.endswith("~") or (name.startswith("#") and name.endswith("#"))


def unified_diff(old: str, new: str, path: str) -> str:
    """`diff --label=old/PATH --label=new/PATH -u` of the two texts (the system `diff`, as
    terraform runs it; difflib when there is none)."""
    diff = shutil.which("diff")
    if diff is None:
        return "".join(
            difflib.unified_diff(
                old.splitlines(True), new.splitlines(True), f"old/{path}", f"new/{path}"
            )
        )
    with tempfile.TemporaryDirectory() as tmp:
        a, b = os.path.join(tmp, "a"), os.path.join(tmp, "b")
        with open(a, "w", encoding="utf-8", newline="") as fa:
            fa.write(old)
        with open(b, "w", encoding="utf-8", newline="") as fb:
            fb.write(new)
        proc = subprocess.run(
            [diff, f"--label=old/{path}", f"--label=new/{path}", "-u", a, b],
            capture_output=True,
        )
    return proc.stdout.decode("utf-8", "replace")


class _Fmt:
    """One run of the command: options, where output goes, and the diagnostics so far."""

    def __init__(self, list_: bool, write: bool, diff: bool, recursive: bool) -> None:
        self.list = list_
        self.write = write
        self.diff = diff
        self.recursive = recursive
        self.out = StringIO()
        self.diags: list[Diagnostic] = []

    def file(self, path: str, src: str) -> None:
        from engine.hcl import parse_file

        _, diags = parse_file(src, path)
        if diags.has_errors:
            self.diags.extend(diags)
            return
        result = format_terraform(src)
        if result != src:
            if self.list:
                self.out.write(path + "\n")
            if self.write:
                try:
                    with open(path, "w", encoding="utf-8", newline="") as f:
                        f.write(result)
                except OSError:
                    self.diags.append(error(f"Failed to write {path}"))
                    return
            if self.diff:
                self.out.write(unified_diff(src, result, path))
        if not self.list and not self.write and not self.diff:
            self.out.write(result)

    def read_and_format(self, path: str) -> None:
        try:
            with open(path, encoding="utf-8", newline="") as f:
                src = f.read()
        except (OSError, UnicodeDecodeError):
            self.diags.append(error(f"Failed to read file {path}"))
            return
        self.file(normalize_path(path), src)

    def directory(self, path: str) -> None:
        try:
            names = sorted(os.listdir(path))
        except FileNotFoundError:
            self.diags.append(error(f"There is no configuration directory at {path}"))
            return
        except OSError:
            self.diags.append(error(f"Cannot read directory {path}"))
            return
        for name in names:
            if is_ignored_name(name):
                continue
            sub = os.path.join(path, name)
            # as terraform (a directory entry's own type): a symbolic link to a directory
            # is not followed, so a link loop cannot make -recursive run forever
            if os.path.isdir(sub) and not os.path.islink(sub):
                if self.recursive:
                    self.directory(sub)
                continue
            if name.endswith(SUPPORTED_EXTS):
                self.read_and_format(sub)

    def paths(self, paths: list[str]) -> None:
        for given in paths:
            path = normalize_path(given)
            if not os.path.exists(path):
                self.diags.append(error(f"No file or directory at {path}"))
                return
            if os.path.isdir(path):
                self.directory(path)
            elif path.endswith(SUPPORTED_EXTS):
                self.read_and_format(path)
            else:
                self.diags.append(
                    error(
                        "Only .tf, .tfvars, and .tftest.hcl files can be processed with "
                        "groundplan fmt"
                    )
                )


def normalize_path(path: str) -> str:
    """A path as terraform names it: relative to the working directory."""
    return os.path.relpath(os.path.abspath(path), os.getcwd())


def _flag_error(meta: Meta, exc: FlagError) -> int:
    for text in (HELP, f"Error parsing command-line flags: {exc}\n"):
        meta.ui.legacy_error(text)
    return 1


def _show(meta: Meta, diags: list[Diagnostic]) -> None:
    # Unlike other commands, fmt registers its inputs (stdin too) as configuration sources,
    # so every diagnostic shows its source line.
    import dataclasses

    from engine.cli.ui import wrap_detail

    ui = meta.ui
    for diag, _ in for_people(diags):
        if diag.detail:
            diag = dataclasses.replace(diag, detail=wrap_detail(diag.detail, 75 if ui.color else 77))
        text = render_diagnostic(diag, color=ui.color, box=ui.color)
        # terraform's legacy Ui.Error: the message in red, then a newline.
        text = f"\x1b[31m{text}\x1b[0m\x1b[0m\n" if ui.color else text + "\n"
        stream = ui.stderr if diag.is_error else ui.stdout
        stream.write(text)
        stream.flush()


def run_fmt(meta: Meta, args: list[str]) -> int:
    fs = (
        FlagSet()
        .boolean("list", True)
        .boolean("write", True)
        .boolean("diff")
        .boolean("check")
        .boolean("recursive")
        .boolean("no-color")
    )
    try:
        rest = fs.parse(args)
    except FlagError as exc:
        return _flag_error(meta, exc)
    if fs.get("no-color"):
        meta.ui.color = False
    list_, write = bool(fs.get("list")), bool(fs.get("write"))
    stdin = bool(rest) and rest[0] == "-"
    if stdin:
        list_ = write = False
    paths = [] if stdin else (rest or ["."])
    check = bool(fs.get("check"))
    show_list = list_
    if check:
        list_, write = True, False
    run = _Fmt(list_, write, bool(fs.get("diff")), bool(fs.get("recursive")))
    if stdin:
        data = sys.stdin.buffer.read() if meta.ui.stdin is sys.stdin else meta.ui.stdin.read().encode()
        run.file("<stdin>", data.decode("utf-8", "replace"))
    else:
        run.paths(paths)
    if not check:
        meta.ui.raw(run.out.getvalue())
    _show(meta, run.diags)
    if any(d.is_error for d in run.diags):
        return 2
    if check:
        listed = run.out.getvalue()
        if show_list:
            meta.ui.raw(listed)
        return 0 if not listed else 3
    return 0
