"""The terminal user interface: output streams, colour, and diagnostics.

Text written through `Ui` may contain Terraform's colour tags (`[green]`, `[bold]`,
`[reset]`, ...); they become ANSI escapes when colour is on and vanish with `-no-color`.
Error diagnostics go to stderr and warnings to stdout, as Terraform sends them.
"""

from __future__ import annotations

import dataclasses
import re
import sys
import textwrap
from collections.abc import Iterable
from typing import TextIO

from engine.diags import Diagnostic, render_diagnostic
from engine.diags.presentation import compact_warnings, for_people

_CODES = {
    "reset": "0",
    "bold": "1",
    "dim": "2",
    "underline": "4",
    "red": "31",
    "green": "32",
    "yellow": "33",
    "blue": "34",
    "magenta": "35",
    "cyan": "36",
    "dark_gray": "90",
    "light_gray": "37",
}
_TAG = re.compile(r"\[(" + "|".join(_CODES) + r")\]")


def wrap_detail(detail: str, width: int) -> str:
    """Word-wrap a diagnostic's detail as Terraform does: each line that does not start with
    a space is wrapped at `width`; indented (preformatted) lines are left alone."""
    out: list[str] = []
    for line in detail.split("\n"):
        if not line or line.startswith(" ") or len(line) <= width:
            out.append(line)
            continue
        out.extend(
            textwrap.wrap(line, width, break_long_words=False, break_on_hyphens=False)
            or [line]
        )
    return "\n".join(out)


_ANSI = r"(?:\x1b\[[0-9;]*m)*"
_RULE = re.compile(f"^({_ANSI}│{_ANSI} (?:\x1b\\[[0-9;]*m)?)")
_ANSI_CODE = re.compile(r"\x1b\[[0-9;]*m")


def strip_unavailable_source(text: str) -> str:
    """Replace the source lines under `on <name> line N:` with "(source code not available)"
    for pseudo-files (`<console-input>`, `<value for var.x>`, the nameless one of a
    command-line address): Terraform keeps no source for text that did not come from a
    configuration file."""
    out: list[str] = []
    skipping = False
    for line in text.split("\n"):
        rule = _RULE.match(line)
        prefix = rule.group(1) if rule else ""
        body = _ANSI_CODE.sub("", line[len(prefix):])
        if skipping:
            stripped = body.strip()
            if stripped and stripped != "│" and (stripped[0].isdigit() or stripped[0] in "├│"):
                continue
            skipping = False
        out.append(line)
        if body.startswith("  on <") or body.startswith("  on  line "):
            out.append(prefix + "  (source code not available)")
            skipping = True
    return "\n".join(out)


def colorize(text: str, color: bool) -> str:
    """Replace colour tags with ANSI escapes (colour on) or remove them (colour off)."""
    if not color:
        return _TAG.sub("", text)
    out, n = _TAG.subn(lambda m: f"\x1b[{_CODES[m.group(1)]}m", text)
    return out + "\x1b[0m" if n else out


def _write_raw(stream: TextIO, text: str) -> None:
    """Write `text`, whose lone surrogates stand for bytes of a source line that were not
    UTF-8: as those bytes (terraform prints a snippet's bytes as they are) where the stream
    has a byte buffer, else as U+FFFD."""
    if _SURROGATE.search(text) is not None:
        buffer = getattr(stream, "buffer", None)
        if buffer is not None:
            stream.flush()
            buffer.write(text.encode(getattr(stream, "encoding", None) or "utf-8", "surrogateescape"))
            buffer.flush()
            return
        text = _SURROGATE.sub("\ufffd", text)
    stream.write(text)
    stream.flush()


_SURROGATE = re.compile("[\udc80-\udcff]")


class Ui:
    """Where a command writes: `out`/`err` text, optionally coloured, plus diagnostics."""

    def __init__(
        self,
        stdout: TextIO | None = None,
        stderr: TextIO | None = None,
        stdin: TextIO | None = None,
        color: bool = True,
    ) -> None:
        self.stdout = stdout if stdout is not None else sys.stdout
        self.stderr = stderr if stderr is not None else sys.stderr
        self.stdin = stdin if stdin is not None else sys.stdin
        self.color = color
        # -compact-warnings: warnings without errors are listed by summary only
        self.compact_warnings = False

    def out(self, text: str = "", newline: bool = True) -> None:
        """Write `text` (colour tags allowed) to stdout."""
        self.stdout.write(colorize(text, self.color) + ("\n" if newline else ""))
        self.stdout.flush()

    def raw(self, text: str) -> None:
        """Write `text` to stdout exactly as given."""
        self.stdout.write(text)
        self.stdout.flush()

    def err(self, text: str = "", newline: bool = True) -> None:
        """Write `text` (colour tags allowed) to stderr."""
        self.stderr.write(colorize(text, self.color) + ("\n" if newline else ""))
        self.stderr.flush()

    def diagnostics(self, diags: Iterable[Diagnostic]) -> None:
        """Render the diagnostics as terraform's views do: sorted and with repeated warnings
        consolidated (engine.diags.presentation), errors to stderr, warnings to stdout."""
        groups = for_people(diags)
        if self.compact_warnings and groups and not any(d.is_error for d, _ in groups):
            # terraform: warnings alone, with -compact-warnings, are listed by summary
            self.stdout.write("\n" + colorize("[bold][yellow]Warnings:[reset]\n\n", self.color)
                              + compact_warnings(groups) + "\nTo see the full warning notes, "
                              "run groundplan without -compact-warnings.\n")
            self.stdout.flush()
            return
        for diag, _ in groups:
            width = 75 if self.color else 77
            if diag.detail:
                diag = dataclasses.replace(diag, detail=wrap_detail(diag.detail, width))
            text = render_diagnostic(diag, color=self.color, box=self.color, raw_bytes=True)
            if diag.subject is not None and (
                diag.subject.filename.startswith("<") or not diag.subject.filename
            ):
                text = strip_unavailable_source(text)
            _write_raw(self.stderr if diag.is_error else self.stdout, text)

    def legacy_error(self, text: str) -> None:
        """terraform's cli.Ui.Error for older commands' messages: `text` in red (colour on),
        then a newline, on stderr."""
        self.stderr.write(f"\x1b[31m{text}\x1b[0m\x1b[0m\n" if self.color else text + "\n")
        self.stderr.flush()

    def legacy_diagnostics(self, diags: Iterable[Diagnostic]) -> None:
        """Diagnostics as terraform's older commands print them (`state`, `taint`, ...):
        each passed through cli.Ui (errors in red when colour is on), so followed by one more
        line break on its stream (errors in red on stderr, warnings in yellow on stdout, when
        colour is on); sorted and consolidated as `diagnostics`."""
        diags = list(diags)
        if self.compact_warnings and diags and not any(d.is_error for d in diags):
            self.diagnostics(diags)
            self.out("")
            return
        for diag, _ in for_people(diags):
            if self.color:
                (self.stderr if diag.is_error else self.stdout).write(
                    "\x1b[31m" if diag.is_error else "\x1b[33m")
            self.diagnostics([diag])
            if diag.is_error:
                self.err("\x1b[0m\x1b[0m" if self.color else "")
            else:
                self.out("\x1b[0m\x1b[0m" if self.color else "")

    def ask(self, prompt: str) -> str | None:
        """Print `prompt` and read one line; None at end of input (as in Terraform, a last
        line without its newline is end of input too)."""
        self.out(prompt, newline=False)
        line = self.stdin.readline()
        if not line.endswith("\n"):
            return None
        return line.rstrip("\r\n")
