"""`groundplan <command> -help`: usage and the options each command accepts."""

from __future__ import annotations

_VAR_OPTIONS = """  -var 'foo=bar'       Set a value for one of the input variables in the root
                       module of the configuration. Use this option more than
                       once to set more than one variable.

  -var-file=filename   Load variable values from the given file, in addition
                       to the default files terraform.tfvars and *.auto.tfvars.
                       Use this option more than once to include more than one
                       variables file.
"""

_LOCK_OPTIONS = """  -input=true          Ask for input for variables if not directly set.

  -lock=false          Don't hold a state lock during the operation.

  -lock-timeout=0s     Duration to retry a state lock.

  -no-color            If specified, output won't contain any color.
"""

HELP: dict[str, str] = {
    "init": """Usage: groundplan [global options] init [options]

  Initialize a new or existing working directory: check that the configuration
  loads, record its local modules and create the .terraform directory.

Options:

  -input=true          Ask for input if necessary.

  -no-color            If specified, output won't contain any color.
""",
    "validate": """Usage: groundplan [global options] validate [options]

  Validate the configuration files in a directory, referring only to the
  configuration and not accessing any remote services such as remote state,
  provider APIs, etc.

Options:

  -json                Produce output in a machine-readable JSON format,
                       suitable for use in text editor integrations and other
                       automated systems. Always disables color.

  -no-color            If specified, output won't contain any color.
""",
    "plan": """Usage: groundplan [global options] plan [options]

  Generates a speculative execution plan, showing what actions would be taken
  to apply the current configuration.

Options:

  -detailed-exitcode   Return detailed exit codes when the command exits. This
                       will change the meaning of exit codes to:
                       0 - Succeeded, diff is empty (no changes)
                       1 - Errored
                       2 - Succeeded, there is a diff

"""
    + _LOCK_OPTIONS
    + "\n"
    + _VAR_OPTIONS,
    "apply": """Usage: groundplan [global options] apply [options]

  Creates or updates infrastructure according to the configuration files in the
  current directory, after showing the plan and asking for approval.

Options:

  -auto-approve        Skip interactive approval of plan before applying.

"""
    + _LOCK_OPTIONS
    + "\n"
    + _VAR_OPTIONS,
    "console": """Usage: groundplan [global options] console [options]

  Starts an interactive console for experimenting with expressions. Input read
  from a pipe is evaluated line by line; only the last result is printed.

Options:

"""
    + _VAR_OPTIONS,
    "output": """Usage: groundplan [global options] output [options] [NAME]

  Reads an output variable from the state file and prints the value. With no
  additional arguments, output will display all the outputs for the root module.

Options:

  -state=path      Path to the state file to read. Defaults to "terraform.tfstate".

  -no-color        If specified, output won't contain any color.

  -json            If specified, machine readable output will be printed in
                   JSON format.

  -raw             For value types that can be automatically converted to a
                   string, will print the raw string directly, rather than a
                   human-oriented representation of the value.
""",
    "show": """Usage: groundplan [global options] show [options]

  Reads and outputs the state in a human-readable form.

Options:

  -no-color           If specified, output won't contain any color.

  -json               If specified, output the state in a machine-readable form.
""",
    "version": """Usage: groundplan [global options] version [options]

  Displays the version of the Terraform language groundplan implements.

Options:

  -json       Output the version information as a JSON object.
""",
}


def command_help(name: str, summary: str) -> str:
    """The help text for command `name` (a short usage line when there is none)."""
    if name == "fmt":  # terraform's own text: fmt's flags are terraform's
        from engine.cli.cmd_fmt import HELP as FMT_HELP

        return FMT_HELP + "\n"
    return HELP.get(name, f"Usage: groundplan [global options] {name} [options]\n\n  {summary}.\n")
