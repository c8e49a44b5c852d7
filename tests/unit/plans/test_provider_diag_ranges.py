"""Diagnostics a provider returns during plan, apply, refresh and configuration point into the
configuration they are about and name the object, as terraform's InConfigBody does."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from engine.diags import Diagnostic, error
from engine.plugin import protocol as p
from engine.plugin.paths import AttributePath
from engine.source import Range
from tests.unit.planner import fakes
from tests.unit.planner.fakes import TEST_PROVIDER, Harness

CONFIG = """\
terraform {
  required_providers {
    test = { source = "hashicorp/test" }
  }
}

provider "test" {
  region = "nowhere"
}

resource "test_thing" "a" {
  count = 2
  value = "v${count.index}"
}
"""


class Picky(fakes.TestProvider):
    """Complains at the step named by `fail` (an attribute error about `value` / `region`,
    or an error about the whole object)."""

    def __init__(self, fail: str, whole: bool = False) -> None:
        super().__init__()
        self.fail = fail
        self.whole = whole

    def _diags(self, step: str, attr: str) -> list[Diagnostic]:
        if step != self.fail:
            return []
        if self.whole:
            return [error(f"{step} failed", "about the object")]
        return [p.attribute_error(f"{step} failed", "about one argument",
                                  AttributePath.of(attr))]

    def validate_resource_config(self, req: Any) -> p.ValidateResourceConfigResponse:
        value = req.config.v["value"]
        if value.is_known and value.v == "v1":
            return p.ValidateResourceConfigResponse(diagnostics=p.Diagnostics(
                self._diags("validate", "value")))
        return p.ValidateResourceConfigResponse()

    def plan_resource_change(self, req: p.PlanResourceChangeRequest) -> Any:
        resp = super().plan_resource_change(req)
        resp.diagnostics.extend(self._diags("plan", "value"))
        return resp

    def apply_resource_change(self, req: p.ApplyResourceChangeRequest) -> Any:
        resp = super().apply_resource_change(req)
        resp.diagnostics.extend(self._diags("apply", "value"))
        return resp

    def read_resource(self, req: p.ReadResourceRequest) -> p.ReadResourceResponse:
        resp = super().read_resource(req)
        resp.diagnostics.extend(self._diags("read", "value"))
        return resp

    def configure_provider(self, req: Any) -> p.ConfigureProviderResponse:
        resp = super().configure_provider(req)
        resp.diagnostics.extend(self._diags("configure", "region"))
        return resp


def harness(tmp_path: Path, fail: str, whole: bool = False) -> Harness:
    h = Harness(str(tmp_path), {"main.tf": CONFIG})
    h.provider = Picky(fail, whole)
    h.registry.register(TEST_PROVIDER, lambda: h.provider)
    return h


def where(d: Diagnostic) -> tuple[str | None, int | None, str]:
    rng: Range | None = d.subject
    if rng is None:
        return d.address, None, ""
    return d.address, rng.start.line, rng.file.text[rng.start_offset : rng.end_offset]


def errors(diags: Any) -> list[tuple[str | None, int | None, str]]:
    return [where(d) for d in diags if d.is_error]


def test_validate_at_plan_points_at_the_argument_of_the_instance(tmp_path: Path) -> None:
    res = harness(tmp_path, "validate").plan()
    assert errors(res.diagnostics) == [("test_thing.a[1]", 13, '"v${count.index}"')]


def test_plan_error_points_at_the_argument(tmp_path: Path) -> None:
    res = harness(tmp_path, "plan").plan()
    assert errors(res.diagnostics) == [("test_thing.a[0]", 13, '"v${count.index}"'),
                                       ("test_thing.a[1]", 13, '"v${count.index}"')]


def test_plan_error_about_the_whole_object_points_at_the_opening_brace(tmp_path: Path) -> None:
    res = harness(tmp_path, "plan", whole=True).plan()
    assert errors(res.diagnostics)[0] == ("test_thing.a[0]", 11, "{")


def test_apply_error_points_at_the_argument(tmp_path: Path) -> None:
    h = harness(tmp_path, "apply")
    planned = h.plan()
    assert not planned.diagnostics.has_errors
    applied = h.apply(planned)
    assert sorted(errors(applied.diagnostics)) == [
        ("test_thing.a[0]", 13, '"v${count.index}"'),
        ("test_thing.a[1]", 13, '"v${count.index}"')]


def test_refresh_error_points_at_the_argument(tmp_path: Path) -> None:
    h = harness(tmp_path, "none")
    _, applied = h.plan_apply()
    assert not applied.diagnostics.has_errors
    assert isinstance(h.provider, Picky)
    h.provider.fail = "read"
    res = h.plan()
    assert sorted(errors(res.diagnostics)) == [
        ("test_thing.a[0]", 13, '"v${count.index}"'),
        ("test_thing.a[1]", 13, '"v${count.index}"')]


def test_configure_error_points_into_the_provider_block(tmp_path: Path) -> None:
    res = harness(tmp_path, "configure").plan()
    assert errors(res.diagnostics) == [
        ('provider["registry.terraform.io/hashicorp/test"]', 8, '"nowhere"')]


def test_provider_inconsistency_errors_of_our_own_have_no_address(tmp_path: Path) -> None:
    h = harness(tmp_path, "none")
    h.provider.corrupt_apply = True
    _, applied = h.plan_apply()
    own = [d for d in applied.diagnostics if d.is_error]
    assert own and all(d.address is None for d in own)
