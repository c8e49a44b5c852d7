"""validate_provisioners: schema errors and unavailable types found before anything runs."""

from __future__ import annotations

from pathlib import Path

from engine.configs.loader import load_config
from engine.provisioners import validate_config_provisioners, validate_provisioners
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


def _config_diags(tmp_path: Path, text: str) -> list[tuple[str, str, int | None]]:
    (tmp_path / "main.tf").write_text(text)
    config, diags = load_config(str(tmp_path))
    assert not diags.has_errors, [d.summary for d in diags]
    return [(d.summary, d.detail, d.subject.start.line if d.subject else None)
            for d in validate_config_provisioners(config)]


def test_whole_configuration_in_terraforms_order(tmp_path: Path) -> None:
    found = _config_diags(tmp_path, """
resource "terraform_data" "a" {
  provisioner "file" {
    content = "x"
  }
}
resource "terraform_data" "b" {
  provisioner "remote-exec" {
    inline = ["a"]
    script = "b"
  }
}
resource "terraform_data" "c" {
  connection {
    user = var.u
  }
  provisioner "remote-exec" {
    inline = ["a"]
    connection {
      port  = "abc"
    }
  }
}
variable "u" {}
""")
    assert found == [
        ("Invalid remote-exec provisioner configuration",
         'Only one of "inline", "script", or "scripts" must be set', None),
        ("Missing required argument",
         'The argument "destination" is required, but no definition was found.', 3),
        ("Missing required argument",
         'The argument "host" is required, but no definition was found.', 14),
        ("Incorrect attribute value type",
         'Inappropriate value for attribute "port": a number is required.', 20),
    ]


def test_missing_plugins_are_reported_first_and_alone(tmp_path: Path) -> None:
    found = _config_diags(tmp_path, """
resource "terraform_data" "a" {
  provisioner "local-exec" {
  }
  provisioner "bogus" {
  }
}
resource "terraform_data" "b" {
  provisioner "bogus" {
  }
}
""")
    assert [f[0] for f in found] == ["Missing required provisioner plugin"]
