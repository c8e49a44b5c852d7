"""`console`: evaluate expressions typed (or piped) on stdin in the root module's scope.

Interactive (a terminal): a `> ` prompt, each result printed, `exit` to leave. Piped (as
Terraform): every line is evaluated in turn; the first error is printed and exits 1;
otherwise only the last result is printed. Values are shown in console format; `var`,
`local`, `module`, `path` and `terraform` are in scope.
"""

from __future__ import annotations

from engine.cli.args import FlagSet
from engine.cli.meta import Meta
from engine.cli.ui import Ui, colorize, wrap_detail
from engine.core import root_instance
from engine.core.modules import ModuleInstance
from engine.diags import Diagnostic, Diagnostics, render_diagnostic

CONSOLE_FILE = "<console-input>"


def _strip_snippet(text: str) -> str:
    """Replace the source lines under `on <console-input> line N:` with Terraform's
    "(source code not available)": console input is not kept as a source file."""
    out: list[str] = []
    skipping = False
    for line in text.split("\n"):
        body = line[2:] if line.startswith("│ ") else line
        if skipping:
            stripped = body.strip()
            if stripped and stripped != "│" and (stripped[0].isdigit() or stripped[0] in "├│"):
                continue
            skipping = False
        out.append(line)
        if body.startswith(f"  on {CONSOLE_FILE} line"):
            out.append(("│ " if line.startswith("│ ") else "") + "  (source code not available)")
            skipping = True
    return "\n".join(out)


def show_console_diagnostics(ui: Ui, diags: Diagnostics) -> None:
    """Diagnostics as `terraform console` prints them (no source for console input)."""
    import dataclasses

    for diag in diags:
        d: Diagnostic = diag
        width = 75 if ui.color else 77
        if d.detail:
            d = dataclasses.replace(d, detail=wrap_detail(d.detail, width))
        text = _strip_snippet(render_diagnostic(d, color=ui.color, box=ui.color))
        stream = ui.stderr if d.is_error else ui.stdout
        stream.write(colorize(text, False))
        stream.flush()
    if diags.has_errors:
        ui.stderr.write("\n")
        ui.stderr.flush()


def evaluate_line(inst: ModuleInstance, line: str) -> tuple[str | None, Diagnostics]:
    """The console text for one input line (None for nothing to print)."""
    from engine.hcl import parse_expression
    from engine.values.format import format_value

    diags = Diagnostics()
    text = line.strip()
    if not text:
        return None, diags
    expr, more = parse_expression(text, CONSOLE_FILE)
    diags.extend(more)
    if more.has_errors or expr is None:
        return None, diags
    val, more = inst.scope.evaluate(expr)
    diags.extend(more)
    if more.has_errors:
        return None, diags
    return format_value(val), diags


def run_console(meta: Meta, args: list[str]) -> int:
    fs = FlagSet().multi("var").multi("var-file").text("state").boolean("plan")
    rest = meta.parse_flags("console", fs, args)
    if rest is None:
        return 1
    ui = meta.ui
    config, diags = meta.load_config()
    if diags.has_errors or config is None:
        ui.diagnostics(diags)
        return 1
    values, more = meta.collect_variables(config, fs.ordered)
    diags.extend(more)
    if diags.has_errors:
        ui.diagnostics(diags)
        return 1
    inst, more = root_instance(config, values, meta.cwd)
    diags.extend(more)
    ui.diagnostics(diags)
    if diags.has_errors:
        return 1
    interactive = hasattr(ui.stdin, "isatty") and ui.stdin.isatty()
    if interactive:
        return _interactive(meta, inst)
    last: str | None = ""
    for line in ui.stdin:
        if line.strip() == "exit":
            return 0
        result, ldiags = evaluate_line(inst, line)
        if ldiags.has_errors:
            show_console_diagnostics(ui, ldiags)
            return 1
        show_console_diagnostics(ui, ldiags)
        last = result if result is not None else ""
    ui.raw((last or "") + "\n")
    return 0


def _interactive(meta: Meta, inst: ModuleInstance) -> int:
    ui = meta.ui
    while True:
        ui.raw("> ")
        line = ui.stdin.readline()
        if not line:
            ui.raw("\n")
            return 0
        if line.strip() == "exit":
            return 0
        result, diags = evaluate_line(inst, line)
        show_console_diagnostics(ui, diags)
        if result is not None:
            ui.raw(result + "\n\n")
