"""`console`: evaluate expressions typed (or piped) on stdin in the root module's scope.

Interactive (a terminal): a `> ` prompt, each result printed, `exit` to leave. Piped (as
Terraform): every line is evaluated in turn; the first error is printed and exits 1;
otherwise only the last result is printed. Values are shown in console format; `var`,
`local`, `module`, `path` and `terraform` are in scope.
"""

from __future__ import annotations

from engine.cli.args import FlagSet
from engine.cli.meta import Meta
from engine.cli.ui import Ui
from engine.core import root_instance
from engine.core.modules import ModuleInstance
from engine.diags import Diagnostics

CONSOLE_FILE = "<console-input>"


def show_console_diagnostics(ui: Ui, diags: Diagnostics) -> None:
    """Diagnostics as `terraform console` prints them: a blank line follows errors."""
    ui.diagnostics(diags)
    if diags.has_errors:
        ui.stderr.write("\n")
        ui.stderr.flush()


def evaluate_line(inst: ModuleInstance, line: str) -> tuple[str | None, Diagnostics]:
    """The console text for one input line (None for nothing to print); `help` answers with
    terraform's console help."""
    from engine.hcl import parse_expression
    from engine.values.format import format_value

    diags = Diagnostics()
    text = line.strip()
    if not text:
        return None, diags
    if text == "help":
        from engine.cli.help import CONSOLE_HELP

        return CONSOLE_HELP, diags
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
    fs.boolean("input", True).boolean("compact-warnings")
    rest = meta.parse_flags("console", fs, args)
    if rest is None:
        return 1
    ui = meta.ui
    ui.compact_warnings = ui.compact_warnings or bool(fs.get("compact-warnings"))
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
