"""validate_provisioners: schema errors and unavailable types found before anything runs."""

from __future__ import annotations

from engine.provisioners import validate_provisioners
from tests.unit.provisioners.conftest import LoadFn


def test_stops_after_the_first_block_with_errors_without_running_anything(load: LoadFn) -> None:
    cfg = load(
        """
resource "terraform_data" "a" {
  provisioner "local-exec" {
    command = "echo ${self.output} > should-not-exist"
  }
  provisioner "local-exec" {
    working_dir = "/tmp"
  }
  provisioner "bogus" {
  }
  provisioner "local-exec" {
    when    = destroy
    command = ["x"]
  }
}
"""
    )
    diags = validate_provisioners(cfg.provisioners, cfg.ctx())
    # as terraform's validate walk: the second block has errors, so the rest is not checked
    assert [d.summary for d in diags.errors] == ["Missing required argument"]
    assert not (cfg.directory / "should-not-exist").exists()
    assert cfg.hooks.events == []


def test_valid_blocks_give_nothing(load: LoadFn) -> None:
    cfg = load(
        """
resource "terraform_data" "a" {
  provisioner "local-exec" {
    command     = "echo ${self.id}"
    interpreter = ["/bin/bash", "-c"]
    environment = { A = "1" }
    quiet       = true
  }
}
"""
    )
    assert not validate_provisioners(cfg.provisioners, cfg.ctx())
