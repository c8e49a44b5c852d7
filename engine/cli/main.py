"""The `groundplan` command line: global options, dispatch, and the crash guard.

`main(argv)` returns the process exit code as Terraform would: 0 success, 1 error, 2 for
`plan -detailed-exitcode` with changes, 127 for a missing command. Global options come
before the command: `-chdir=DIR`, `-help`, `-version`, `-install-autocomplete`,
`-uninstall-autocomplete` (see `autocomplete`). No Python traceback reaches the
user: an internal error prints a short crash message and exits 1.
"""

from __future__ import annotations

import importlib
import os
import shlex
import sys
import traceback
from collections.abc import Callable
from typing import TYPE_CHECKING

from engine.cli.help import command_help, unknown_command
from engine.cli.help import usage as help_usage
from engine.cli.ui import Ui
from engine.diags import error

if TYPE_CHECKING:
    from engine.cli.meta import Meta

Command = Callable[["Meta", list[str]], int]

# name -> (module, function, summary); modules are imported when the command runs, so even a
# failing import is caught by the crash guard instead of surfacing as a traceback.
COMMANDS: dict[str, tuple[str, str, str]] = {
    "init": ("cmd_init", "run_init", "Prepare your working directory for other commands"),
    "validate": ("cmd_validate", "run_validate", "Check whether the configuration is valid"),
    "fmt": ("cmd_fmt", "run_fmt", "Reformat your configuration in the standard style"),
    "plan": ("cmd_plan_apply", "run_plan", "Show changes required by the current configuration"),
    "apply": ("cmd_plan_apply", "run_apply", "Create or update infrastructure"),
    "destroy": ("cmd_plan_apply", "run_destroy", "Destroy previously-created infrastructure"),
    "console": (
        "cmd_console",
        "run_console",
        "Try groundplan expressions at an interactive command prompt",
    ),
    "modules": ("cmd_modules", "run_modules", "Show all declared modules in a working directory"),
    "output": ("cmd_output", "run_output", "Show output values from your root module"),
    "show": ("cmd_show", "run_show", "Show the current state or a saved plan"),
    "version": ("cmd_version", "run_version", "Show the current Terraform version"),
    "force-unlock": ("cmd_force_unlock", "run_force_unlock", "Release a stuck lock on the current workspace"),
    "get": ("cmd_get", "run_get", "Install or upgrade remote groundplan modules"),
    "graph": ("cmd_graph", "run_graph", "Generate a Graphviz graph of the steps in an operation"),
    "providers": ("cmd_providers", "run_providers", "Show the providers required for this configuration"),
    "refresh": ("cmd_plan_apply", "run_refresh", "Update the state to match remote systems"),
    "state": ("cmd_state", "run_state", "Advanced state management"),
    "taint": ("cmd_taint", "run_taint", "Mark a resource instance as not fully functional"),
    "untaint": ("cmd_taint", "run_untaint", "Remove the 'tainted' state from a resource instance"),
    "import": ("cmd_import", "run_import", "Associate existing infrastructure with a groundplan resource"),
    "workspace": ("cmd_workspace", "run_workspace", "Workspace management"),
    "test": ("cmd_test", "run_test", "Execute integration tests for groundplan modules"),
    "remote": ("cmd_remote", "run_remote", "Run plans and applies on a groundplan control plane"),
}


#: Commands whose output terraform renders through a view: they take `-compact-warnings`
#: anywhere in their arguments (terraform's arguments.ParseView).
VIEW_COMMANDS = frozenset({"apply", "destroy", "modules", "output", "plan", "refresh", "show",
                           "test", "validate"})


#: Entry-point group through which installed packages add commands (the control plane's
#: `cloud` command lives in `functions`, which the engine never imports by name).
PLUGIN_GROUP = "groundplan.commands"


def plugin_command(name: str) -> Command | None:
    """The command `name` an installed package registers in PLUGIN_GROUP, if any."""
    from importlib.metadata import entry_points

    for ep in entry_points(group=PLUGIN_GROUP):
        if ep.name == name:
            fn: Command = ep.load()
            return fn
    return None


def load_command(name: str) -> Command:
    """The function that runs command `name`."""
    module, func, _ = COMMANDS[name]
    mod = importlib.import_module(f"engine.cli.{module}")
    fn: Command = getattr(mod, func)
    return fn


def usage() -> str:
    """The top-level help text."""
    return help_usage({name: entry[2] for name, entry in COMMANDS.items()})


def env_args(command: str, args: list[str]) -> list[str]:
    """Extra arguments from TF_CLI_ARGS and TF_CLI_ARGS_<command>, put before the command's
    own arguments as Terraform does (shell-style quoting)."""
    extra: list[str] = []
    for var in ("TF_CLI_ARGS", f"TF_CLI_ARGS_{command}"):
        value = os.environ.get(var, "")
        if value.strip():
            extra.extend(shlex.split(value))
    return [*extra, *args]


def _wants_color(argv: list[str]) -> bool:
    return not any(a in ("-no-color", "--no-color") for a in argv)


def run(argv: list[str], ui: Ui) -> int:
    """Parse the global options and run the command (exceptions propagate)."""
    if os.environ.get("COMP_LINE"):  # the shell asks for completions (see autocomplete)
        from engine.cli.autocomplete import complete

        return complete(ui, os.environ["COMP_LINE"], COMMANDS)
    args = list(argv)
    chdir: str | None = None
    while args and args[0].startswith("-"):
        opt = args[0].lstrip("-")
        if opt in ("install-autocomplete", "uninstall-autocomplete"):
            from engine.cli import autocomplete

            return (autocomplete.install if opt.startswith("install") else autocomplete.uninstall)(ui)
        if opt.startswith("chdir="):
            chdir = opt.split("=", 1)[1]
        elif opt == "chdir" and len(args) > 1:
            chdir = args[1]
            args.pop(0)
        elif opt in ("help", "h"):
            if len(args) == 1:
                ui.raw(usage())
                return 0
            args = [*args[1:], "-help"]  # `-help plan` is `plan -help`, as terraform has it
            break
        elif opt in ("version", "v"):
            args = ["version", *args[1:]]
            break
        else:
            ui.err(f"Unknown global option: {args[0]}")
            return 1
        args.pop(0)
    if chdir is not None:
        try:
            os.chdir(chdir)
        except OSError as exc:
            ui.err(f"Error handling -chdir option: chdir {chdir}: {(exc.strerror or str(exc)).lower()}")
            return 1
    if not args:
        ui.raw(usage())
        return 127
    name, rest = args[0], args[1:]
    rest = env_args(name, rest)
    if name in VIEW_COMMANDS and "-compact-warnings" in rest:
        # terraform's arguments.ParseView takes the flag out wherever it appears
        ui.compact_warnings = True
        rest = [a for a in rest if a != "-compact-warnings"]
    entry = COMMANDS.get(name)
    plugin = plugin_command(name) if entry is None else None
    if plugin is not None:
        from engine.cli.meta import Meta

        return plugin(Meta(ui), rest)
    if entry is None:
        ui.err(unknown_command(name, list(COMMANDS)))
        return 1
    if any(a in ("-help", "-h", "--help") for a in rest):
        if name == "workspace":  # each subcommand has its own help
            from engine.cli.cmd_workspace import workspace_help

            ui.raw(workspace_help(rest))
            return 0
        if name == "state":
            from engine.cli.cmd_state import state_help_text

            ui.raw(state_help_text(rest))
            return 0
        ui.raw(command_help(name, entry[2]))
        return 0
    from engine.cli.meta import Meta
    from engine.cli.workspace_guard import guard_workspace

    meta = Meta(ui)
    refused = guard_workspace(meta, name)
    return refused if refused is not None else load_command(name)(meta, rest)


# Deeply nested configuration (thousands of nested parentheses, lists, objects,
# conditionals or templates; a 10,000-term `1 + 1 + ...` chain) is parsed, evaluated and
# formatted by recursive code, as terraform's own parser is. terraform's goroutine stacks grow
# to 1 GB; these give Python room of the same order: the main thread's stack may grow to
# _MAIN_STACK (Linux keeps at least 128 MB free below it), every other thread gets
# _THREAD_STACK, and the recursion limit is raised to what those stacks hold. Deeper input
# than that is a clear error (see main), never a crash.
_MAIN_STACK = 112 * 2**20
_THREAD_STACK = 112 * 2**20
_RECURSION_LIMIT = 150_000


def allow_deep_nesting() -> None:
    """Raise the stack and recursion limits as described above (where the system lets)."""
    import resource
    import threading

    try:
        soft, hard = resource.getrlimit(resource.RLIMIT_STACK)
        if soft != resource.RLIM_INFINITY and soft < _MAIN_STACK:
            target = _MAIN_STACK if hard == resource.RLIM_INFINITY else min(_MAIN_STACK, hard)
            resource.setrlimit(resource.RLIMIT_STACK, (target, hard))
        threading.stack_size(_THREAD_STACK)
    except (ValueError, OSError):  # a system that refuses: keep its limits
        return
    sys.setrecursionlimit(max(sys.getrecursionlimit(), _RECURSION_LIMIT))


def main(argv: list[str] | None = None) -> int:
    """The console-script entry point."""
    if argv is None:
        argv = sys.argv[1:]
    allow_deep_nesting()
    ui = Ui(color=_wants_color(argv))
    if not ui.color:
        # Terraform takes -no-color out of the arguments wherever it appears.
        argv = [a for a in argv if a not in ("-no-color", "--no-color")]
    try:
        return run(argv, ui)
    except KeyboardInterrupt:
        ui.err("\nInterrupted.")
        return 130
    except BrokenPipeError:
        return 1
    except RecursionError:
        ui.diagnostics([error(
            "Configuration nested too deeply",
            "An expression, block or template in this configuration is nested more deeply "
            "than groundplan can process (tens of thousands of levels). Simplify the "
            "nesting, for example by moving parts of it into local values.")])
        return 1
    except Exception as exc:
        frame = traceback.extract_tb(exc.__traceback__)[-1] if exc.__traceback__ else None
        where = f" ({os.path.basename(frame.filename)}:{frame.lineno})" if frame else ""
        ui.err(
            "\ngroundplan crashed! This is always a bug in groundplan, not in your "
            f"configuration.\n\n  {type(exc).__name__}: {exc}{where}\n\n"
            "Set GROUNDPLAN_TRACEBACK=1 to see the full traceback."
        )
        if os.environ.get("GROUNDPLAN_TRACEBACK"):
            traceback.print_exc()
        return 1


if __name__ == "__main__":
    sys.exit(main())
