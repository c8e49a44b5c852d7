"""Registry source addresses: the messages are terraform 1.11's for the same inputs."""

from __future__ import annotations

import pytest

from engine.addrs import Provider
from engine.configs.registry_addrs import (
    ParserError,
    RegistryModule,
    host_for_comparison,
    parse_module_registry_source,
    parse_provider_source,
)


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ("---.com/HashiCorp/Consul/aws", 'invalid module registry hostname "---.com"; '
         "internationalized domain names must be given as direct unicode characters, not in "
         "punycode"),
        ("github.com/a/b/c", "can't use \"github.com\" as a module registry host, because it's "
         "reserved for installing directly from version control repositories"),
        ("a/b", "a module registry source address must have either three or four "
         "slash-separated components"),
        ("a/b/c//../x", 'subdirectory path "../x" leads outside of the module package'),
        ("ex_ample.com/a/b/c", 'invalid module registry hostname "ex_ample.com"'),
        ("foo.com:99999/a/b/c", 'invalid module registry hostname "foo.com:99999"'),
        ("example.com/a/b", "source address must have three more components after the "
         "hostname: the namespace, the name, and the target system"),
        ("localhost/a/b/c", "invalid module registry hostname: must contain at least one dot"),
        ("a/b/c-d", 'invalid target system "c-d": must be between one and 64 ASCII letters or '
         "digits"),
    ],
)
def test_invalid_module_registry_sources(raw: str, message: str) -> None:
    with pytest.raises(ValueError) as got:
        parse_module_registry_source(raw)
    assert str(got.value) == message


def test_module_registry_source_with_subdir_and_host() -> None:
    assert parse_module_registry_source("Example.com:443/ns/name/aws//mods/./x") == RegistryModule(
        "example.com", "ns", "name", "aws", "mods/x")
    assert parse_module_registry_source("hashicorp/consul/aws").host == "registry.terraform.io"


@pytest.mark.parametrize(
    ("raw", "summary", "detail"),
    [
        ("a/b/c/d", "Invalid provider source string",
         'The "source" attribute must be in the format "[hostname/][namespace/]name"'),
        ("foo/bar--baz", "Invalid provider type", 'Invalid provider type "bar--baz" in source '
         '"foo/bar--baz": cannot use multiple consecutive dashes"'),
        ("h_x.com/a/b", "Invalid provider source hostname", 'Invalid provider source hostname '
         'namespace "" in source "h_x.com/a/b": idna: disallowed rune U+005F"'),
        ("ex.com/-/aws", "Invalid provider namespace", 'The legacy provider namespace "-" can '
         "be used only with hostname registry.terraform.io."),
        ("foo/terraform-foo", "Invalid provider type", 'Provider source '
         '"registry.terraform.io/foo/terraform-foo" has a type with the prefix "terraform-", '
         "which isn't allowed because it would be redundant to name a Terraform provider with "
         "that prefix. If you are the author of this provider, rename it to not include the "
         "prefix."),
    ],
)
def test_invalid_provider_sources(raw: str, summary: str, detail: str) -> None:
    with pytest.raises(ParserError) as got:
        parse_provider_source(raw)
    assert (got.value.summary, got.value.detail) == (summary, detail)


def test_provider_sources_are_normalized() -> None:
    assert parse_provider_source("Foo.com:443/X/Y") == Provider("foo.com", "x", "y")
    assert parse_provider_source("aws") == Provider("registry.terraform.io", "?", "aws")
    assert host_for_comparison("example.com:8443") == "example.com:8443"
