"""`groundplan -help`, `groundplan <command> -help` and the unknown-command message.

The texts are terraform 1.11's (engine.cli.help_texts, engine.cli.state_help, the fmt and
workspace modules); the first usage line of the commands in `help_texts` names `groundplan`.
`usage()` is the top-level help: terraform's layout, listing the commands groundplan has.
`unknown_command()` is terraform's message, with its "Did you mean" suggestion.
"""

from __future__ import annotations

from engine.cli.help_texts.main_commands import HELP as MAIN_HELP
from engine.cli.help_texts.other_commands import HELP as OTHER_HELP

HELP: dict[str, str] = {**MAIN_HELP, **OTHER_HELP}

# The "Main commands" of terraform's top-level help; every other command follows them.
MAIN_COMMANDS = ("init", "validate", "plan", "apply", "destroy")

CONSOLE_HELP = """The groundplan console allows you to experiment with groundplan interpolations.
You may access resources in the state (if you have one) just as you would
from a configuration. For example: "aws_instance.foo.id" would evaluate
to the ID of "aws_instance.foo" if it exists in your state.

Type in the interpolation to test and hit <enter> to see the result.

To exit the console, type "exit" and hit <enter>, or use Control-C or
Control-D."""


def command_help(name: str, summary: str) -> str:
    """The `-help` text of command `name`, ending with its newline (a short usage line for a
    command terraform has no help text for)."""
    if name == "fmt":  # terraform's own text: fmt's flags are terraform's
        from engine.cli.cmd_fmt import HELP as FMT_HELP

        return FMT_HELP + "\n"
    if name == "remote":  # groundplan's own: its usage lists its subcommands
        from engine.cli.cmd_remote import USAGE

        return USAGE
    text = HELP.get(name)
    if text is None:
        return f"Usage: groundplan [global options] {name} [options]\n\n  {summary}.\n"
    return text if text.endswith("\n") else text + "\n"


def usage(summaries: dict[str, str]) -> str:
    """The top-level help: terraform's, over the commands in `summaries` (name -> summary)."""
    lines = [
        "Usage: groundplan [global options] <subcommand> [args]",
        "",
        "The available commands for execution are listed below.",
        "The primary workflow commands are given first, followed by",
        "less common or more advanced commands.",
        "",
        "Main commands:",
    ]
    lines += [f"  {name:<13} {summaries[name]}" for name in MAIN_COMMANDS if name in summaries]
    lines += ["", "All other commands:"]
    others = sorted(name for name in summaries if name not in MAIN_COMMANDS)
    lines += [f"  {name:<13} {summaries[name]}" for name in others]
    lines += [
        "",
        "Global options (use these before the subcommand, if any):",
        "  -chdir=DIR    Switch to a different working directory before executing the",
        "                given subcommand.",
        "  -help         Show this help output, or the help for a specified subcommand.",
        '  -version      An alias for the "version" subcommand.',
    ]
    return "\n".join(lines) + "\n"


def unknown_command(name: str, commands: list[str]) -> str:
    """terraform's message for a command that does not exist, suggesting the first command
    within edit distance 2 ("Did you mean "plan"?")."""
    from engine.configs.syntax import name_suggestion

    suggestion = name_suggestion(name, commands)
    hint = f' Did you mean "{suggestion}"?' if suggestion else ""
    return (
        f'groundplan has no command named "{name}".{hint}\n\n'
        "To see all of groundplan's top-level commands, run:\n  groundplan -help\n"
    )
