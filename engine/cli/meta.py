"""What every command shares: the UI, the working directory, configuration and variables.

`Meta` is built once per invocation by `main`; commands call `load_config`,
`collect_variables` and `local_state`, and print diagnostics through `meta.ui`. Nothing
here raises for bad input: results come with diagnostics.
"""

from __future__ import annotations

import os
from typing import Any

from engine.cli.args import FlagError, FlagSet
from engine.cli.ui import Ui
from engine.diags import Diagnostics, error
from engine.states import LocalState
from engine.values import Value

STATE_FILE = "terraform.tfstate"


class Meta:
    """The context of one command invocation."""

    def __init__(self, ui: Ui, environ: dict[str, str] | None = None) -> None:
        self.ui = ui
        self.environ = dict(os.environ if environ is None else environ)

    @property
    def cwd(self) -> str:
        return os.getcwd()

    @property
    def in_automation(self) -> bool:
        return bool(self.environ.get("TF_IN_AUTOMATION"))

    def parse_flags(self, command: str, flags: FlagSet, args: list[str]) -> list[str] | None:
        """Parse `args`; on a bad flag print Terraform's message and return None.

        `-no-color` is accepted by every command and turns colour off at once.
        """
        if "no-color" not in flags.flags:
            flags.boolean("no-color")  # already removed by main; accepted when called directly
        try:
            rest = flags.parse(args)
        except FlagError as exc:
            if any(a in ("-no-color", "--no-color") for a in args):
                self.ui.color = False
            self.ui.diagnostics([error("Failed to parse command-line flags", str(exc))])
            self.ui.err(
                f"\nFor more help on using this command, run:\n  terraform {command} -help"
            )
            return None
        if flags.get("no-color"):
            self.ui.color = False
        return rest

    def load_config(self, directory: str = ".") -> tuple[Any, Diagnostics]:
        """The configuration rooted at `directory` (None when it could not be loaded)."""
        from engine.configs import load_config

        config, diags = load_config(directory)
        return config, diags

    def collect_variables(
        self, config: Any, ordered: list[tuple[str, str]], prompt: bool = False
    ) -> tuple[dict[str, Value], Diagnostics]:
        """Root input values from -var/-var-file (in order), files and TF_VAR_ variables.

        With `prompt` (Terraform's default `-input=true`), a required variable that has no
        value is asked for ("var.name ... Enter a value:"), in name order, and the answer is
        taken as if given with -var; at end of input the missing values stay errors."""
        from engine.configs.variable_values import collect_variable_values

        module = config.module
        values, diags = collect_variable_values(module, ordered, self.environ, self.cwd)
        missing = [
            name
            for name, var in sorted(module.variables.items())
            if var.default is None and name not in values
        ]
        if not prompt or not missing:
            return dict(values), diags
        answers: list[tuple[str, str]] = []
        for name in missing:
            var = module.variables[name]
            text = f"var.{name}\n"
            if getattr(var, "description", ""):
                text += f"  {var.description}\n\n"
            answer = self.ui.ask(text + "  Enter a value: ")
            if answer is None:
                return dict(values), diags
            self.ui.out("")
            answers.append(("var", f"{name}={answer}"))
        values, diags = collect_variable_values(
            module, [*ordered, *answers], self.environ, self.cwd
        )
        return dict(values), diags

    def local_state(self) -> LocalState:
        return LocalState(os.path.join(self.cwd, STATE_FILE))
