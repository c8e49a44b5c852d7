"""run_provisioners: scopes, ordering, hooks, on_failure, sensitive output, unknown types."""

from __future__ import annotations

import threading

from engine.diags import Diagnostics
from engine.provisioners import SUPPRESSED_LINE, run_provisioners
from engine.values import SENSITIVE, Value, number, object_, string
from tests.unit.provisioners.conftest import Loaded, LoadFn

SELF = object_({"input": string("hello"), "id": string("i-1")})


def _run(cfg: Loaded, when: str = "create", **names: Value) -> Diagnostics:
    return run_provisioners(
        cfg.provisioners, when, SELF, cfg.ctx(**names), cfg.addr, cfg.hooks, threading.Event()
    )


def test_runs_in_order_with_self_and_module_scope(load: LoadFn) -> None:
    cfg = load(
        """
resource "terraform_data" "a" {
  provisioner "local-exec" {
    command = "echo one ${self.input} ${var.v} ${upper("x")}"
  }
  provisioner "local-exec" {
    when    = destroy
    command = "echo never"
  }
  provisioner "local-exec" {
    command = "echo two"
  }
}
"""
    )
    diags = _run(cfg, var=object_({"v": string("vv")}))
    assert not diags
    assert cfg.hooks.events == [
        ("pre", "local-exec", "terraform_data.a"),
        ("out", "local-exec", 'Executing: ["/bin/sh" "-c" "echo one hello vv X"]'),
        ("out", "local-exec", "one hello vv X"),
        ("post", "local-exec", None),
        ("pre", "local-exec", "terraform_data.a"),
        ("out", "local-exec", 'Executing: ["/bin/sh" "-c" "echo two"]'),
        ("out", "local-exec", "two"),
        ("post", "local-exec", None),
    ]


def test_failure_stops_and_points_at_the_block(load: LoadFn) -> None:
    cfg = load(
        """
resource "terraform_data" "a" {
  provisioner "local-exec" {
    command = "echo failing; exit 1"
  }
  provisioner "local-exec" {
    command = "echo after"
  }
}
"""
    )
    diags = _run(cfg)
    (d,) = diags.errors
    assert d.summary == "local-exec provisioner error"
    assert d.detail == "Error running command 'echo failing; exit 1': exit status 1. Output: failing\n"
    assert d.subject is not None
    assert (d.subject.start.line, d.subject.start.column, d.subject.end.column) == (3, 28, 29)
    assert "after" not in cfg.hooks.lines
    assert cfg.hooks.events[-1] == ("post", "local-exec", d)


def test_on_failure_continue_drops_the_error_and_goes_on(load: LoadFn) -> None:
    cfg = load(
        """
resource "terraform_data" "a" {
  provisioner "local-exec" {
    command    = "echo failing; exit 3"
    on_failure = continue
  }
  provisioner "local-exec" {
    command = "echo after"
  }
}
"""
    )
    diags = _run(cfg)
    assert not diags
    assert cfg.hooks.lines[-1] == "after"
    post = [e for e in cfg.hooks.events if e[0] == "post"]
    assert post[0][2] is not None and post[1][2] is None


def test_sensitive_value_suppresses_every_line(load: LoadFn) -> None:
    cfg = load(
        """
resource "terraform_data" "a" {
  provisioner "local-exec" {
    command = "echo sens ${var.secret}; exit 2"
  }
}
"""
    )
    diags = _run(cfg, var=object_({"secret": string("s3cr3t").mark(SENSITIVE)}))
    assert cfg.hooks.lines == [SUPPRESSED_LINE, SUPPRESSED_LINE]
    # Terraform's error detail still shows the command and its output.
    assert diags.errors[0].detail == (
        "Error running command 'echo sens s3cr3t; exit 2': exit status 2. Output: sens s3cr3t\n"
    )


def test_sensitive_environment_also_suppresses(load: LoadFn) -> None:
    cfg = load(
        """
resource "terraform_data" "a" {
  provisioner "local-exec" {
    command     = "echo $X"
    environment = { X = var.secret }
  }
}
"""
    )
    assert not _run(cfg, var=object_({"secret": string("s").mark(SENSITIVE)}))
    assert cfg.hooks.lines == [SUPPRESSED_LINE, SUPPRESSED_LINE]


def test_config_errors_stop_before_anything_runs(load: LoadFn) -> None:
    cfg = load(
        """
resource "terraform_data" "a" {
  provisioner "local-exec" {
    command = "echo first"
  }
  provisioner "local-exec" {
    command = ["bad"]
  }
}
"""
    )
    diags = _run(cfg)
    assert [d.summary for d in diags.errors] == ["Incorrect attribute value type"]
    assert [e[0] for e in cfg.hooks.events].count("pre") == 1


def test_unknown_provisioner_type(load: LoadFn) -> None:
    cfg = load(
        """
resource "terraform_data" "a" {
  provisioner "bogus" {
    command = "x"
  }
}
"""
    )
    (d,) = _run(cfg).errors
    assert d.summary == "Missing required provisioner plugin"
    assert d.detail.startswith('This configuration requires provisioner plugin "bogus", which')
    assert cfg.hooks.events == []


def test_destroy_scope_sees_self_and_count(load: LoadFn) -> None:
    cfg = load(
        """
resource "terraform_data" "a" {
  count = 2
  provisioner "local-exec" {
    when    = destroy
    command = "echo ${self.id} ${count.index} ${upper("f")}"
  }
}
""",
        addr="terraform_data.a[1]",
    )
    diags = _run(
        cfg,
        "destroy",
        count=object_({"index": number(1)}),
        path=object_({"module": string(".")}),
        terraform=object_({"workspace": string("default")}),
        var=object_({"v": string("hidden")}),
    )
    assert not diags
    assert cfg.hooks.lines[1:] == ["i-1 1 F"]
    assert cfg.hooks.events[0][2] == "terraform_data.a[1]"


def test_destroy_scope_each_key_only(load: LoadFn) -> None:
    cfg = load(
        """
resource "terraform_data" "a" {
  for_each = toset(["k"])
  provisioner "local-exec" {
    when    = destroy
    command = "echo ${each.key}"
  }
}
"""
    )
    each = object_({"key": string("k"), "value": string("v")})
    assert not _run(cfg, "destroy", each=each)
    assert cfg.hooks.lines[1:] == ["k"]


def test_destroy_scope_rejects_other_references() -> None:
    from engine.hcl import parse_file
    from engine.lang import EvalContext
    from engine.provisioners.scope import destroy_scope

    parsed, _ = parse_file(
        'command = "${self.id} ${local.x} ${aws_instance.web.id} ${data.d.n.x}"\n', "main.tf"
    )
    ctx = EvalContext({"local": object_({"x": string("y")})}, {})
    _, diags = destroy_scope(ctx, SELF, parsed.body)
    assert [d.detail for d in diags.errors] == [
        'The reference to "local.x" is not valid in this context',
        'The reference to "aws_instance.web" is not valid in this context',
        'The reference to "data.d.n" is not valid in this context',
    ]
    assert {d.summary for d in diags.errors} == {"Invalid reference"}


def test_destroy_scope_allows_path_and_terraform() -> None:
    # Terraform 1.11 accepts these in destroy-time provisioners (EvalSelfBlock).
    from engine.hcl import parse_file
    from engine.lang import EvalContext
    from engine.provisioners import LOCAL_EXEC_SCHEMA, decode_config
    from engine.provisioners.scope import destroy_scope

    parsed, _ = parse_file('command = "${path.module} ${terraform.workspace}"\n', "main.tf")
    ctx = EvalContext(
        {
            "path": object_({"module": string(".")}),
            "terraform": object_({"workspace": string("default")}),
        },
        {},
    )
    scope, diags = destroy_scope(ctx, SELF, parsed.body)
    assert not diags
    val, diags = decode_config(parsed.body, LOCAL_EXEC_SCHEMA, scope)
    assert not diags
    assert val.v["command"].v == ". default"
