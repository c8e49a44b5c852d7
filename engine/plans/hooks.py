"""Hooks: how the engine tells a user interface what it is doing, instance by instance.

The planner and the applier call these as they walk (from worker threads: implementations must
be thread-safe); the CLI's human and `-json` views implement them to print terraform's progress
lines (`terraform_data.a: Creating...`, `Still creating... [10s elapsed]`, `Creation complete
after 2s [id=...]`). `Hooks` does nothing, so a view overrides only what it shows.

`action` is an engine.plans.Action; `addr` an engine.addrs.AbsResourceInstance; `id` is the
new object's `id` attribute when it has a known string one.
"""

from __future__ import annotations

from engine.addrs import AbsResourceInstance
from engine.diags import Diagnostic
from engine.plans.model import Action
from engine.values import Value


class Hooks:
    """Callbacks for progress; every method is optional and thread-safe in implementations."""

    # -- refresh (plan) --------------------------------------------------------------------
    def pre_refresh(self, addr: AbsResourceInstance, id: str | None) -> None:
        """Reading the instance's current object from its provider begins."""

    def post_refresh(self, addr: AbsResourceInstance, id: str | None) -> None:
        """Reading finished."""

    # -- plan --------------------------------------------------------------------------------
    def pre_plan_import(self, addr: AbsResourceInstance, id: str) -> None:
        """An `import` block's object is about to be imported (`Preparing import... [id=x]`)."""

    def pre_plan(self, addr: AbsResourceInstance) -> None:
        """Planning the instance's change begins."""

    def post_plan(self, addr: AbsResourceInstance, action: Action) -> None:
        """The instance's planned action is known."""

    # -- apply -------------------------------------------------------------------------------
    def pre_apply(self, addr: AbsResourceInstance, action: Action, id: str | None,
                  deposed: str = "") -> None:
        """A provider call applying `action` begins (`Creating...`, `Destroying... [id=x]`);
        `deposed` is the deposed key when the object is a deposed one, else ""."""

    def still_applying(self, addr: AbsResourceInstance, action: Action, elapsed: float) -> None:
        """Called about every 10 s while an apply call runs (`Still creating... [10s elapsed]`)."""

    def post_apply(
        self,
        addr: AbsResourceInstance,
        action: Action,
        id: str | None,
        elapsed: float,
        error: Diagnostic | None,
        deposed: str = "",
    ) -> None:
        """The provider call ended (`Creation complete after 2s [id=x]`), or failed;
        `deposed` as for pre_apply."""

    def pre_apply_import(self, addr: AbsResourceInstance, id: str) -> None:
        """An imported object is about to be recorded in state (`Importing... [id=x]`)."""

    def post_apply_import(self, addr: AbsResourceInstance, id: str) -> None:
        """The imported object is in state (`Import complete [id=x]`)."""

    # -- provisioners ----------------------------------------------------------------------
    def pre_provision(self, addr: AbsResourceInstance, type_name: str) -> None:
        """A provisioner of type `type_name` starts (`Provisioning with 'local-exec'...`)."""

    def provision_output(self, addr: AbsResourceInstance, type_name: str, line: str) -> None:
        """One line of provisioner output (`(local-exec): hello`)."""

    def post_provision(
        self, addr: AbsResourceInstance, type_name: str, error: Diagnostic | None
    ) -> None:
        """The provisioner finished."""

    # -- data sources and outputs --------------------------------------------------------------
    def pre_read_data(self, addr: AbsResourceInstance) -> None:
        """A data source read begins (`Reading...`)."""

    def post_read_data(self, addr: AbsResourceInstance, id: str | None, elapsed: float) -> None:
        """The read finished (`Read complete after 0s [id=x]`)."""

    def output_value(self, name: str, value: Value, sensitive: bool) -> None:
        """A root output got its final value during apply."""

    # -- stopping ----------------------------------------------------------------------------
    def stopping(self) -> None:
        """A stop was requested: no new work starts; running operations finish."""


NO_HOOKS = Hooks()
