"""Provider source addresses and provider configuration addresses."""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.addrs.parse import AddressSyntaxError
from engine.addrs.resources import ROOT_MODULE, Module

DEFAULT_REGISTRY = "registry.terraform.io"
BUILTIN_HOST = "terraform.io"
_PART = re.compile(r"^[0-9A-Za-z](?:[0-9A-Za-z_-]*[0-9A-Za-z])?$")


@dataclass(frozen=True, slots=True, order=True)
class Provider:
    """A provider source address: `registry.terraform.io/hashicorp/aws`."""

    hostname: str
    namespace: str
    type: str

    def __str__(self) -> str:
        return f"{self.hostname}/{self.namespace}/{self.type}"

    def for_display(self) -> str:
        """The short form terraform shows: `hashicorp/aws` for the public registry."""
        if self.hostname == DEFAULT_REGISTRY:
            return f"{self.namespace}/{self.type}"
        return str(self)

    @property
    def is_builtin(self) -> bool:
        return self.hostname == BUILTIN_HOST and self.namespace == "builtin"


BUILTIN_TERRAFORM = Provider(BUILTIN_HOST, "builtin", "terraform")


def parse_provider_source(text: str) -> Provider:
    """Parse `aws`, `hashicorp/aws` or `host/ns/aws` (lower-cased); raises AddressSyntaxError."""
    parts = text.strip().split("/")
    if len(parts) == 1:
        parts = [DEFAULT_REGISTRY, "hashicorp", parts[0]]
    elif len(parts) == 2:
        parts = [DEFAULT_REGISTRY, *parts]
    elif len(parts) != 3:
        raise AddressSyntaxError(
            "The \"source\" attribute must be in the format \"[hostname/][namespace/]name\"."
        )
    host, ns, ptype = (p.lower() for p in parts)
    for part in (ns, ptype):
        if not _PART.match(part):
            raise AddressSyntaxError(f'Invalid provider source string "{text}".')
    return Provider(host, ns, ptype)


def implied_provider(resource_type: str) -> Provider:
    """The provider terraform assumes for a resource type with no explicit provider."""
    local = resource_type.split("_", 1)[0]
    if local == "terraform":
        return BUILTIN_TERRAFORM
    return Provider(DEFAULT_REGISTRY, "hashicorp", local)


@dataclass(frozen=True, slots=True)
class AbsProviderConfig:
    """A provider configuration in a module: `provider["registry.terraform.io/hashicorp/aws"].west`."""

    module: Module
    provider: Provider
    alias: str | None = None

    def __str__(self) -> str:
        prefix = f"{self.module}." if self.module.names else ""
        alias = f".{self.alias}" if self.alias else ""
        return f'{prefix}provider["{self.provider}"]{alias}'


_ABS_PROVIDER = re.compile(r'^((?:module\.[^\W\d][\w-]*\.)*)provider\["([^"]+)"\](?:\.([^\W\d][\w-]*))?$')


def parse_abs_provider_config(text: str) -> AbsProviderConfig:
    """Parse the form state files use; raises AddressSyntaxError."""
    m = _ABS_PROVIDER.match(text)
    if not m:
        raise AddressSyntaxError(f"Invalid provider configuration address {text!r}.")
    names = tuple(p for p in m.group(1).split(".") if p and p != "module")
    module = Module(names) if names else ROOT_MODULE
    return AbsProviderConfig(module, _state_provider(m.group(2)), m.group(3))


def _state_provider(text: str) -> Provider:
    """A provider source as state files name it: also terraform's legacy namespace ("-"),
    which states upgraded from before v0.13 use (`registry.terraform.io/-/aws`)."""
    parts = text.split("/")
    if len(parts) == 3 and parts[1] == "-" and _PART.match(parts[2].lower()):
        return Provider(parts[0].lower(), "-", parts[2].lower())
    return parse_provider_source(text)
