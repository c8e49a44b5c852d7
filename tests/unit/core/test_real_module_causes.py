"""The general causes behind two real-module failures (issue #12), one test per cause.

1. Local roots (a `dynamic` block's iterator, `count`, `each`) shadow the module's names when
   an expression is evaluated: `versioning.value` inside `dynamic "versioning"` is the
   iterator, not "Reference to undeclared resource" (terraform-aws-s3-bucket).
2. A function argument whose type is not known yet (cty's DynamicPseudoType) makes the call's
   result unknown before any type check: `concat(<unknown>, [""])` is unknown, not "all
   arguments must be lists or tuples".
3. In a destroy plan every instance is planned for deletion and no longer counts, as in
   terraform's evaluator: a resource with `count` is an empty tuple, `for_each` an empty
   object, so `concat(aws_x.this.*.id, [""])[0]` in a module output is "" while everything is
   destroyed (terraform-aws-vpc).
4. Reference analysis (graph edges, relevant attributes) leaves a `dynamic` block's iterator
   out, as terraform's does.
"""

from __future__ import annotations

from pathlib import Path

from engine.addrs import ModuleInstance
from engine.configs import load_config
from engine.core.instances import InstanceTree
from engine.core.scope import ModuleScope
from engine.graph.steps import body_traversals, resource_traversals
from engine.hcl import parse_expression
from engine.hcl.ast import traversal_str
from engine.lang.functions.base import FunctionError, call
from engine.lang.functions.collections_seq import FUNCTIONS as SEQ_FUNCTIONS
from engine.values import (
    DYNAMIC,
    STRING,
    UNKNOWN_DYNAMIC,
    ListType,
    Value,
    object_,
    string,
    tuple_,
    unknown,
)
from tests.modules_init import init_modules

CONCAT = next(f for f in SEQ_FUNCTIONS if f.name == "concat")

MODULE = """
variable "versioning" {
  type    = map(string)
  default = { enabled = "true" }
}

resource "terraform_data" "this" {
  count = 1
}

resource "terraform_data" "each" {
  for_each = toset(["a"])
}

resource "terraform_data" "one" {}

output "first_id" {
  value = concat(terraform_data.this.*.id, [""])[0]
}

output "each_ids" {
  value = values(terraform_data.each)
}
"""


def _load(tmp_path: Path, files: dict[str, str]):  # type: ignore[no-untyped-def]
    for rel, text in files.items():
        p = tmp_path / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text, encoding="utf-8")
    init_modules(tmp_path)
    config, diags = load_config(str(tmp_path))
    assert not diags.has_errors, [d.summary for d in diags]
    return config


def _expr(src: str):  # type: ignore[no-untyped-def]
    expr, diags = parse_expression(src, "main.tf")
    assert not diags.has_errors
    return expr


# ------------------------------------------------------------------ 1. local roots shadow
def test_iterator_root_is_not_a_resource_reference(tmp_path: Path) -> None:
    config = _load(tmp_path, {"main.tf": MODULE})
    scope = ModuleScope(config.module, ".", ".", str(tmp_path), {},
                        resource_value=lambda mode, t, n: UNKNOWN_DYNAMIC)
    iterator = object_({"key": string("enabled"), "value": object_({"enabled": string("true")})})
    val, diags = scope.evaluate(_expr('lookup(versioning.value, "enabled", null)'),
                                {"versioning": iterator})
    assert not diags.has_errors, [(d.summary, d.detail) for d in diags]
    assert val == string("true")


def test_undeclared_resource_still_reported_without_the_iterator(tmp_path: Path) -> None:
    config = _load(tmp_path, {"main.tf": MODULE})
    scope = ModuleScope(config.module, ".", ".", str(tmp_path), {},
                        resource_value=lambda mode, t, n: UNKNOWN_DYNAMIC)
    _val, diags = scope.evaluate(_expr('lookup(versioning.value, "enabled", null)'))
    assert [d.summary for d in diags.errors] == ["Reference to undeclared resource"]


# ------------------------------------------------------------------ 2. unknown-typed arguments
def test_concat_of_unknown_dynamic_is_unknown() -> None:
    result = call(CONCAT, [UNKNOWN_DYNAMIC, tuple_([string("")])])
    assert not result.is_known
    assert result.type == DYNAMIC


def test_concat_type_errors_remain_for_known_types() -> None:
    try:
        call(CONCAT, [string("x"), tuple_([string("")])])
    except FunctionError as exc:
        assert "all arguments must be lists or tuples" in exc.message
    else:
        raise AssertionError("concat of a string must fail")


def test_unknown_of_known_type_keeps_its_return_type() -> None:
    result = call(CONCAT, [unknown(ListType(STRING)), Value(ListType(STRING), [string("")])])
    assert not result.is_known
    assert result.type == ListType(STRING)


def test_unknown_dynamic_keeps_marks() -> None:
    result = call(CONCAT, [UNKNOWN_DYNAMIC.mark("sensitive"), tuple_([])])
    assert not result.unmark()[0].is_known
    assert "sensitive" in result.unmark()[1]


# ------------------------------------------------------------------ 3. destroy-plan values
def test_destroying_tree_sees_deleted_instances_as_gone(tmp_path: Path) -> None:
    config = _load(tmp_path, {"main.tf": MODULE})
    tree = InstanceTree(config, {}, str(tmp_path), plan_phase=True, destroying=True)
    root = ModuleInstance()
    assert not tree.eval_output(root.module(), "first_id").has_errors
    assert not tree.eval_output(root.module(), "each_ids").has_errors
    first = tree.output(root, "first_id")
    each = tree.output(root, "each_ids")
    assert first is not None and first.value == string("")
    assert each is not None and each.value == tuple_([])
    scope = tree.scope(root)
    val, diags = scope.evaluate(_expr("terraform_data.one"))
    assert not diags.has_errors and not val.is_known


def test_normal_tree_still_waits_for_values(tmp_path: Path) -> None:
    config = _load(tmp_path, {"main.tf": MODULE})
    tree = InstanceTree(config, {}, str(tmp_path), plan_phase=True)
    root = ModuleInstance()
    assert not tree.eval_output(root.module(), "first_id").has_errors
    first = tree.output(root, "first_id")
    assert first is not None and not first.value.is_known


def test_destroying_tree_prefers_recorded_values(tmp_path: Path) -> None:
    config = _load(tmp_path, {"main.tf": MODULE})
    tree = InstanceTree(config, {}, str(tmp_path), plan_phase=True, destroying=True)
    root = ModuleInstance()
    tree.values.expand(root, "managed", "terraform_data", "this", "count")
    tree.values.set(root, "managed", "terraform_data", "this", 0, object_({"id": string("x")}))
    assert not tree.eval_output(root.module(), "first_id").has_errors
    first = tree.output(root, "first_id")
    assert first is not None and first.value == string("x")


# ------------------------------------------------------------------ 4. reference analysis
DYNAMIC_RESOURCE = """
resource "terraform_data" "r" {
  count = length(var.rules)
  dynamic "rule" {
    for_each = var.rules
    iterator = it
    content {
      name = it.value.name
      dynamic "inner" {
        for_each = it.value.inner
        content {
          x = inner.value
          y = terraform_data.other.id
        }
      }
    }
  }
  dynamic "versioning" {
    for_each = [var.versioning]
    content {
      enabled = lookup(versioning.value, "enabled", null)
    }
  }
}
"""


def test_reference_analysis_leaves_iterators_out(tmp_path: Path) -> None:
    config = _load(tmp_path, {"main.tf": 'variable "rules" {}\nvariable "versioning" {}\n'
                              'resource "terraform_data" "other" {}\n' + DYNAMIC_RESOURCE})
    res = config.module.managed_resources["terraform_data.r"]
    refs = sorted(traversal_str(t) for t in resource_traversals(res))
    assert refs == ["terraform_data.other.id", "var.rules", "var.rules", "var.versioning"]
    body_refs = sorted(traversal_str(t) for t in body_traversals(res.config))
    assert "it.value.name" not in body_refs and "versioning.value" not in body_refs
