from __future__ import annotations

import pytest

from engine.addrs import (
    BUILTIN_TERRAFORM,
    AbsResource,
    AbsResourceInstance,
    AddressSyntaxError,
    ModuleInstance,
    ResourceMode,
    implied_provider,
    parse_abs_provider_config,
    parse_abs_resource,
    parse_abs_resource_instance,
    parse_module_instance,
    parse_provider_source,
    parse_target,
)


@pytest.mark.parametrize(
    "text",
    [
        "aws_s3_bucket.b",
        "aws_s3_bucket.b[0]",
        'aws_s3_bucket.b["k"]',
        'aws_s3_bucket.b["with \\"quote\\""]',
        "data.aws_iam_policy_document.p",
        "data.x.y[3]",
        'module.a["k"].aws_s3_bucket.b[0]',
        "module.a.module.b[2].terraform_data.x",
        "terraform_data.with-dash",
    ],
)
def test_resource_instance_round_trip(text: str) -> None:
    addr = parse_abs_resource_instance(text)
    assert str(addr) == text
    assert parse_abs_resource_instance(str(addr)) == addr


def test_parts() -> None:
    addr = parse_abs_resource_instance('module.a["k"].data.x.y[1]')
    assert addr.module == ModuleInstance().child("a", "k")
    assert addr.resource.mode is ResourceMode.DATA
    assert (addr.resource.type, addr.resource.name, addr.key) == ("x", "y", 1)
    assert str(addr.abs_resource) == 'module.a["k"].data.x.y'


@pytest.mark.parametrize(
    "text",
    ["", "aws_s3_bucket", "aws_s3_bucket.", ".a.b", "a.b[", "a.b[x]", "a.b.c", "module.", "a.b[0"],
)
def test_bad_addresses(text: str) -> None:
    with pytest.raises(AddressSyntaxError):
        parse_abs_resource_instance(text)


def test_resource_address_refuses_key() -> None:
    assert str(parse_abs_resource("a.b")) == "a.b"
    with pytest.raises(AddressSyntaxError):
        parse_abs_resource("a.b[0]")


def test_ordering_and_hashing() -> None:
    addrs = [parse_abs_resource_instance(t) for t in ['a.b["x"]', "a.b[10]", "a.b[2]", "a.b"]]
    assert [str(a) for a in sorted(addrs)] == ["a.b", "a.b[2]", "a.b[10]", 'a.b["x"]']
    assert len({parse_abs_resource_instance("a.b[0]"), parse_abs_resource_instance("a.b[0]")}) == 1


def test_targets() -> None:
    assert isinstance(parse_target("a.b"), AbsResource)
    assert isinstance(parse_target("a.b[0]"), AbsResourceInstance)
    assert isinstance(parse_target("module.m"), ModuleInstance)
    assert str(parse_module_instance("module.m[1]")) == "module.m[1]"


def test_provider_sources() -> None:
    assert str(parse_provider_source("hashicorp/aws")) == "registry.terraform.io/hashicorp/aws"
    assert str(parse_provider_source("aws")) == "registry.terraform.io/hashicorp/aws"
    assert parse_provider_source("Example.com/Ns/Thing").for_display() == "example.com/ns/thing"
    assert implied_provider("terraform_data") == BUILTIN_TERRAFORM
    assert implied_provider("aws_s3_bucket").for_display() == "hashicorp/aws"
    with pytest.raises(AddressSyntaxError):
        parse_provider_source("a/b/c/d")


def test_provider_config_round_trip() -> None:
    for text in [
        'provider["registry.terraform.io/hashicorp/aws"]',
        'provider["registry.terraform.io/hashicorp/aws"].west',
        'module.a.provider["registry.terraform.io/hashicorp/aws"]',
    ]:
        assert str(parse_abs_provider_config(text)) == text
