"""Generated configurations for the benchmarks: N `terraform_data` resource blocks, each with
about six arguments, interpolations, function calls, a for-expression and a nested block."""

from __future__ import annotations

from pathlib import Path

HEADER = """\
variable "prefix" {
  type    = string
  default = "bench"
}

locals {
  tags = { team = "core", env = "dev" }
}
"""

BLOCK = """
resource "terraform_data" "r{i}" {{
  # resource number {i}
  input = {{
    name    = "${{var.prefix}}-item-{i}"
    index   = {i} * 2 + 1
    enabled = {i} % 2 == 0 ? true : false
    tags    = merge(local.tags, {{ id = "{i}" }})
    list    = [for s in ["a", "b", "c"] : upper(s)]
  }}
  triggers_replace = ["${{var.prefix}}/{i}"]

  lifecycle {{
    ignore_changes = [input]
  }}
}}
"""


def write_blocks_config(directory: Path, count: int) -> Path:
    """Write main.tf with `count` resource blocks into `directory`; returns the file."""
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / "main.tf"
    path.write_text(HEADER + "".join(BLOCK.format(i=i) for i in range(count)), encoding="utf-8")
    return path
