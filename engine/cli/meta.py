"""What every command shares: the UI, the working directory, configuration and variables.

`Meta` is built once per invocation by `main`; commands call `load_config`,
`collect_variables` and `local_state`, and print diagnostics through `meta.ui`. Nothing
here raises for bad input: results come with diagnostics.

Building a `Meta` selects the workspace (`.terraform/environment`, `TF_WORKSPACE`; see
engine.states.workspaces) for the invocation: `local_state` is that workspace's state and
`terraform.workspace` evaluates to its name.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from engine.backend import LocalBackend
from engine.cli.args import FlagError, FlagSet
from engine.cli.meta_encryption import EncryptionMeta
from engine.cli.ui import Ui
from engine.diags import Diagnostic, Diagnostics, error
from engine.states import LocalState, workspaces
from engine.states.workspaces import DEFAULT_WORKSPACE
from engine.values import Value

if TYPE_CHECKING:
    from engine.configs.variable_values import RootInputs

STATE_FILE = "terraform.tfstate"


def go_error_text(diags: Iterable[Diagnostic]) -> str:
    """Diagnostics as Terraform's `diags.Err().Error()` text: "Summary: Detail" for one,
    "N problems:" and a "- Summary: Detail" line each for several (warnings included)."""
    items = list(diags)

    def one(d: Diagnostic) -> str:
        return f"{d.summary}: {d.detail}" if d.detail else d.summary

    if len(items) == 1:
        return one(items[0])
    return f"{len(items)} problems:\n" + "".join(f"\n- {one(d)}" for d in items)


class Meta(EncryptionMeta):
    """The context of one command invocation."""

    def __init__(self, ui: Ui, environ: dict[str, str] | None = None) -> None:
        self.ui = ui
        self.environ = dict(os.environ if environ is None else environ)
        from engine.core.scope import select_workspace

        name, _ = self.workspace()
        select_workspace(name or DEFAULT_WORKSPACE)

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
        from engine.initwd import check_manifest

        diags = check_manifest(self.cwd)
        if diags.has_errors:
            return None, diags
        config, diags = load_config(directory)
        if diags.has_errors:
            return config, diags
        diags.extend(self.check_encryption(config))  # before any state is read
        if diags.has_errors:
            return None, diags
        # As Terraform (Meta.providerFactories), every command that loads the configuration
        # refuses a dependency lock file it cannot read.
        from engine.depsfile import LOCK_FILE, load_locks

        _, ldiags = load_locks(os.path.join(self.cwd, LOCK_FILE))
        if ldiags.has_errors:
            diags.append(error(f"failed to read dependency lock file: {go_error_text(ldiags)}"))
            return None, diags
        return config, diags

    def collect_variables(
        self, config: Any, ordered: list[tuple[str, str]], prompt: bool = False
    ) -> tuple[dict[str, Value], Diagnostics]:
        """The final root input values of `collect_root_inputs` (same arguments)."""
        inputs, diags = self.collect_root_inputs(config, ordered, prompt)
        return inputs.values, diags

    def collect_root_inputs(
        self, config: Any, ordered: list[tuple[str, str]], prompt: bool = False
    ) -> tuple[RootInputs, Diagnostics]:
        """Root input values (final and as given) from -var/-var-file (in order), files and
        TF_VAR_ variables.

        With `prompt` (Terraform's default `-input=true`), a required variable that has no
        value is asked for ("var.name ... Enter a value:"), in name order, and the answer is
        taken as if given with -var; at end of input the missing values stay errors."""
        from engine.configs.variable_values import collect_root_inputs

        module = config.module
        inputs, diags = collect_root_inputs(module, ordered, self.environ, self.cwd)
        self.record_encryption_inputs(inputs.values)
        missing = [
            name
            for name, var in sorted(module.variables.items())
            if var.default is None and name not in inputs.values
        ]
        if not prompt or not missing:
            return inputs, diags
        answers: list[tuple[str, str]] = []
        for name in missing:
            var = module.variables[name]
            text = f"var.{name}\n"
            if getattr(var, "description", ""):
                text += f"  {var.description}\n\n"
            answer = self.ui.ask(text + "  Enter a value: ")
            if answer is None:
                return inputs, diags
            self.ui.out("")
            answers.append(("var", f"{name}={answer}"))
        inputs, diags = collect_root_inputs(module, [*ordered, *answers], self.environ, self.cwd)
        self.record_encryption_inputs(inputs.values)
        return inputs, diags

    def workspace(self) -> tuple[str, Diagnostics]:
        """The selected workspace; an invalid TF_WORKSPACE is an error (name "")."""
        return workspaces.current(self.cwd, self.environ)

    def backend(self) -> LocalBackend:
        """The working directory's backend (the local backend until others are configured)."""
        return LocalBackend(self.cwd, encryption=self.state_encryption())

    def local_state(self) -> LocalState:
        """The selected workspace's state; opening a workspace other than `default` creates
        its directory, as terraform's local backend does."""
        name, _ = self.workspace()
        layout = workspaces.LocalWorkspaces(self.cwd)
        layout.ensure(name or DEFAULT_WORKSPACE)
        return LocalState(layout.state_path(name), encryption=self.state_encryption())
