"""What every command shares: the UI, the working directory, configuration and variables.

`Meta` is built once per invocation by `main`; commands call `load_config`,
`collect_variables`, `backend` and `state_storage`, and print diagnostics through `meta.ui`.
Nothing here raises for bad input: results come with diagnostics.

Building a `Meta` selects the workspace (`.terraform/environment`, `TF_WORKSPACE`; see
engine.backend.workspaces) for the invocation: `state_storage` is that workspace's state and
`terraform.workspace` evaluates to its name.
"""

from __future__ import annotations

import dataclasses
import os
from typing import TYPE_CHECKING, Any

from engine.cli.args import FlagError, FlagSet
from engine.cli.meta_encryption import EncryptionMeta
from engine.cli.ui import Ui
from engine.diags import Diagnostics, error

if TYPE_CHECKING:
    from engine.backend import Backend, Storage
    from engine.backend.local import StateOverrides
    from engine.configs import Config
    from engine.configs.variable_values import RootInputs
    from engine.values import Value

STATE_FILE = "terraform.tfstate"


class Meta(EncryptionMeta):
    """The context of one command invocation."""

    def __init__(self, ui: Ui, environ: dict[str, str] | None = None) -> None:
        self.ui = ui
        self.environ = dict(os.environ if environ is None else environ)
        from engine.core.workspace import select_workspace

        name, _ = self.workspace()
        select_workspace(name or "default")
        self._backend: Backend | None = None
        self._state_overrides: StateOverrides | None = None

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
                f"\nFor more help on using this command, run:\n  groundplan {command} -help"
            )
            return None
        if flags.get("no-color"):
            self.ui.color = False
        return rest

    def load_config(self, directory: str = ".",
                    version_first: bool = False) -> tuple[Config | None, Diagnostics]:
        """The configuration rooted at `directory` (None when it could not be loaded), every
        module's `required_version` checked (engine.operations.prepare.load_configuration;
        `version_first`, as `init`: version errors win over load errors too)."""
        from engine.operations.prepare import load_configuration

        config, diags = load_configuration(self.cwd, directory, version_first=version_first)
        if config is not None and not diags.has_errors:
            diags.extend(self.check_encryption(config))  # before any state is read
            if diags.has_errors:
                return None, diags
        return config, diags

    def load_config_with_tests(self, directory: str = ".", test_dir: str = "tests",
                               version_first: bool = False
                               ) -> tuple[Config | None, list[Any], Diagnostics]:
        """`load_config` with the test files of `test_dir` (terraform's loadConfigWithTests):
        (configuration, test files, diagnostics); run blocks' modules come from the
        manifest (`init` installs them)."""
        from engine.operations.prepare import checked_load, config_path
        from engine.testing.loading import load_config_with_tests

        files: list[Any] = []

        def load() -> tuple[Config, Diagnostics]:
            config, found, diags = load_config_with_tests(config_path(self.cwd, directory),
                                                          test_dir)
            files.extend(found)
            return config, diags

        config, diags = checked_load(self.cwd, version_first, load)
        if config is not None and not diags.has_errors:
            diags.extend(self.check_encryption(config))
            if diags.has_errors:
                return None, files, diags
        return config, files, diags

    def collect_variables(
        self, config: Config, ordered: list[tuple[str, str]], prompt: bool = False
    ) -> tuple[dict[str, Value], Diagnostics]:
        """The final root input values of `collect_root_inputs` (same arguments)."""
        inputs, diags = self.collect_root_inputs(config, ordered, prompt)
        return inputs.values, diags

    def collect_root_inputs(
        self, config: Config, ordered: list[tuple[str, str]], prompt: bool = False
    ) -> tuple[RootInputs, Diagnostics]:
        """Root input values (final and as given) from -var/-var-file (in order), files and
        TF_VAR_ variables; with `prompt` (terraform's `-input=true`) a required variable
        without a value is asked for (`ask_variable`)."""
        from engine.operations.prepare import root_inputs

        inputs, diags = root_inputs(config, ordered, self.environ, self.cwd,
                                    self.ask_variable if prompt else None)
        self.record_encryption_inputs(inputs.values)
        return inputs, diags

    def ask_variable(self, name: str, description: str) -> str | None:
        """Terraform's prompt for a required variable ("var.name", its description, "Enter a
        value:"); None at end of input."""
        text = f"var.{name}\n"
        if description:
            text += f"  {description}\n\n"
        answer = self.ui.ask(text + "  Enter a value: ")
        if answer is not None:
            self.ui.out("")
        return answer

    def workspace(self) -> tuple[str, Diagnostics]:
        """The selected workspace; an invalid TF_WORKSPACE is an error (name "")."""
        from engine.backend import workspaces

        return workspaces.current(self.cwd, self.environ)

    def backend(self) -> Backend:
        """The working directory's configured backend (engine.backend.config_resolve): the
        local backend unless the root module's `backend` block, as recorded by `init`, says
        otherwise. A backend that cannot be used comes back as one whose every call returns
        the diagnostics saying why (never an exception)."""
        if self._backend is None:
            from engine.backend.config_resolve import UnusableBackend, resolve
            from engine.configs import load_module

            module, diags = load_module(".")
            if module.backend is None and diags.has_errors:
                return UnusableBackend(diags)
            backend = resolve(module.backend, self.cwd, self.environ,
                              encryption=self.current_state_encryption())
            from engine.backend.local import LocalBackend

            if self._state_overrides and isinstance(backend, LocalBackend):
                backend = dataclasses.replace(backend, overrides=self._state_overrides)
            self._backend = backend
        return self._backend

    def override_local_state(self, flags: FlagSet) -> None:
        """Take terraform's legacy `-state`, `-state-out` and `-backup` flags from `flags`
        (those it defines): the local backend reads and writes the files they name (see
        engine.backend.local.StateOverrides); other backends ignore them, as terraform's do."""
        from engine.backend.local import StateOverrides

        def given(name: str) -> str:
            return str(flags.get(name) or "") if name in flags.flags else ""

        self._state_overrides = StateOverrides(given("state"), given("state-out"),
                                               given("backup"))
        self._backend = None

    def state_storage(self, state_path: str = "") -> tuple[Storage | None, Diagnostics]:
        """The selected workspace's state in the configured backend (or the local state file
        `state_path`, `-state=FILE`); opening a workspace other than `default` creates it,
        as terraform's backends do."""
        if state_path:
            from engine.backend import LocalBackend

            return LocalBackend(self.cwd, path=state_path,
                                encryption=self.state_encryption()).storage("")
        name, _ = self.workspace()
        return self.backend().storage(name or "default")
