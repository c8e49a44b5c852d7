"""terraform's ParseTargetStr and ParseProviderSourceString as the state commands use them."""

from __future__ import annotations

import pytest

from engine.addrs import (
    AbsResource,
    AbsResourceInstance,
    ModuleInstance,
    ModuleInstanceStep,
    Provider,
    Resource,
    ResourceMode,
)
from engine.operations.state_addrs import (
    parse_abs_resource_instance_str,
    parse_provider_source,
    parse_target_str,
)

ROOT = ModuleInstance()
MANAGED = ResourceMode.MANAGED


@pytest.mark.parametrize(("text", "expected"), [
    ("module.m", ModuleInstance((ModuleInstanceStep("m"),))),
    ('module.m["k"].module.n[2]',
     ModuleInstance((ModuleInstanceStep("m", "k"), ModuleInstanceStep("n", 2)))),
    ("a.b", AbsResource(ROOT, Resource(MANAGED, "a", "b"))),
    ("data.a.b", AbsResource(ROOT, Resource(ResourceMode.DATA, "a", "b"))),
    ("resource.var.x", AbsResource(ROOT, Resource(MANAGED, "var", "x"))),
    ("a.b[0]", AbsResourceInstance(ROOT, Resource(MANAGED, "a", "b"), 0)),
    ("a.b[1e3]", AbsResourceInstance(ROOT, Resource(MANAGED, "a", "b"), 1000)),
    ('module.m[1].a.b["x\\ny"]', AbsResourceInstance(
        ModuleInstance((ModuleInstanceStep("m", 1),)), Resource(MANAGED, "a", "b"), "x\ny")),
    (" a.b ", AbsResource(ROOT, Resource(MANAGED, "a", "b"))),
])
def test_targets_parse(text: str, expected: object) -> None:
    got, diags = parse_target_str(text)
    assert not diags.has_errors
    assert got == expected


@pytest.mark.parametrize(("text", "summary", "detail"), [
    ("foo", "Invalid address", "Resource specification must include a resource type and name."),
    ("module.x[", "Index value required",
     "Index brackets must contain either a literal number or a literal string."),
    ("a.b.c", "Invalid address", "Resource instance key must be given in square brackets."),
    ("module.", "Attribute name required", "Dot must be followed by attribute name."),
    ("a.b[*]", "Attribute name required", "Splat expressions ([*]) may not be used here."),
    ("1abc", "Variable name required", "Must begin with a variable name."),
    ("a.b c", "Invalid character", "Expected an attribute access or an index operator."),
    ("a.b[-1]", "Index value required",
     "Index brackets must contain either a literal number or a literal string."),
    ('a["x"]', "Invalid address", "A resource name is required."),
    ("a.b[0][1]", "Invalid address", "Unexpected extra operators after address."),
    ("a.b[1.5]", "Invalid address", "Invalid resource instance key: value must be a whole "
     "number, between -9223372036854775808 and 9223372036854775807."),
    ("module.m[1.5]", "Invalid address operator", "Invalid module index: value must be a "
     "whole number, between -9223372036854775808 and 9223372036854775807."),
    ("a.b[99999999999999999999]", "Invalid address", "Invalid resource instance key: value "
     "must be a whole number, between -9223372036854775808 and 9223372036854775807."),
    ('a.b["${x}"]', "Invalid string literal", "Template sequences are not allowed in this "
     'string. To include a literal "$", double it (as "$$") to escape it.'),
])
def test_bad_targets_get_terraforms_diagnostics(text: str, summary: str, detail: str) -> None:
    got, diags = parse_target_str(text)
    assert got is None
    errors = list(diags.errors)
    assert (errors[-1].summary, errors[-1].detail) == (summary, detail)
    # terraform's ranges lie in a nameless pseudo-file, rendered "on  line 1:"
    assert errors[-1].subject is not None and errors[-1].subject.filename == ""


def test_reserved_root_names_need_the_resource_prefix() -> None:
    got, diags = parse_target_str("var.x")
    assert got is None
    assert 'The keyword "var" is reserved' in diags.errors[0].detail


def test_instance_addresses_need_a_resource() -> None:
    assert parse_abs_resource_instance_str("module.m")[0] is None
    inst, diags = parse_abs_resource_instance_str("module.m.a.b[2]")
    assert not diags.has_errors and str(inst) == "module.m.a.b[2]"


@pytest.mark.parametrize(("text", "expected"), [
    ("aws", Provider("registry.terraform.io", "hashicorp", "aws")),
    ("Acme/AWS", Provider("registry.terraform.io", "acme", "aws")),
    ("example.com/acme/x", Provider("example.com", "acme", "x")),
    ("terraform.io/builtin/terraform", Provider("terraform.io", "builtin", "terraform")),
    ("-/aws", Provider("registry.terraform.io", "-", "aws")),
])
def test_provider_sources_parse(text: str, expected: Provider) -> None:
    got, diags = parse_provider_source(text)
    assert not diags.has_errors and got == expected


@pytest.mark.parametrize(("text", "summary", "detail_start"), [
    ("a/b/c/d", "Invalid provider source string", 'The "source" attribute must be in'),
    ("a//b", "Invalid provider source string", 'The "source" attribute must be in'),
    ("x y", "Invalid provider type", 'Invalid provider type "x y" in source "x y": must'),
    ("a.b/c", "Invalid provider namespace", 'Invalid provider namespace "" in source "a.b/c": '
     "dots are not allowed"),
    ("a--b/c", "Invalid provider namespace", 'Invalid provider namespace "" in source '
     '"a--b/c": cannot use multiple consecutive dashes'),
    ("acme/terraform-provider-x", "Invalid provider type", 'Provider source "acme/terraform-'
     'provider-x" has a type with the prefix "terraform-provider-"'),
    ("acme/terraform-x", "Invalid provider type", 'Provider source "registry.terraform.io/'
     'acme/terraform-x" has a type with the prefix "terraform-"'),
    ("example.com/-/x", "Invalid provider namespace", 'The legacy provider namespace "-"'),
])
def test_bad_provider_sources(text: str, summary: str, detail_start: str) -> None:
    got, diags = parse_provider_source(text)
    assert got is None
    assert diags.errors[0].summary == summary
    assert diags.errors[0].detail.startswith(detail_start)
