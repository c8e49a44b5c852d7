"""Registry addresses as terraform parses them: service hostnames (terraform-svchost's
`ForComparison`), provider source strings and provider name parts, and module registry source
addresses (terraform-registry-address's `ParseProviderSource`, `ParseProviderPart` and
`ParseModuleSource`), with their error messages.

Hostnames and name parts follow IDNA's lookup rules for ASCII input exactly (lower-cased;
letters, digits and dashes; no leading or trailing dash); other input is normalized with
Python's IDNA 2003 codec, close to what Go's `idna.Lookup` does.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass

from engine.addrs.providers import DEFAULT_REGISTRY, Provider
from engine.gocompat.strconv import quote

DEFAULT_MODULE_HOST = "registry.terraform.io"
LEGACY_NAMESPACE = "-"
UNKNOWN_NAMESPACE = "?"

_ATOI = re.compile(r"^[+-]?[0-9]+$")
_LDH = re.compile(r"^[a-z0-9-]+$")
_MODULE_NAME = re.compile(r"^[0-9A-Za-z](?:[0-9A-Za-z_-]{0,62}[0-9A-Za-z])?$")
_MODULE_SYSTEM = re.compile(r"^[0-9a-z]{1,64}$")


class ParserError(ValueError):
    """A provider source string terraform refuses: its diagnostic's summary and detail."""

    def __init__(self, summary: str, detail: str) -> None:
        super().__init__(detail)
        self.summary = summary
        self.detail = detail


def _lookup_label(label: str) -> str:
    """One label through IDNA's lookup profile (lower-cased); raises ValueError."""
    if not label.isascii():
        try:
            label = label.encode("idna").decode("ascii")
        except UnicodeError:
            raise ValueError(f"idna: invalid label {quote(label)}") from None
        if label.startswith("xn--"):
            return label
    low = label.lower()
    for ch in low:
        if not ("a" <= ch <= "z" or "0" <= ch <= "9" or ch == "-"):
            raise ValueError(f"idna: disallowed rune U+{ord(ch):04X}")
    if low.startswith("-") or low.endswith("-") or low[2:4] == "--":
        raise ValueError(f"idna: invalid label {quote(label)}")
    return low


def _port(portion: str) -> str:
    if not portion:
        return ""
    digits = portion[1:]
    if not _ATOI.match(digits):
        raise ValueError("port portion contains non-digit characters")
    num = int(digits)
    if num == 443:
        return ""
    if num > 65535:
        raise ValueError("port number is greater than 65535")
    return f":{num}"


def host_for_comparison(given: str) -> str:
    """svchost.ForComparison: the normalized hostname (`:443` dropped); raises ValueError
    with terraform's message."""
    host, colon, rest = given.partition(":")
    try:
        port = _port(colon + rest)
    except ValueError:
        if host.lower() in ("https", "http"):
            raise ValueError("need just a hostname and optional port number, not a full URL") from None
        raise
    if host == "":
        raise ValueError("empty string is not a valid hostname")
    labels = host.split(".")
    for label in labels:
        if label == "":
            raise ValueError("hostname contains empty label (two consecutive periods)")
        if label.startswith("xn--"):
            raise ValueError(
                f"hostname label {quote(label)} specified in punycode format; service hostnames "
                "must be given in unicode"
            )
    return ".".join(_lookup_label(label) for label in labels) + port


def parse_provider_part(given: str) -> str:
    """tfaddr.ParseProviderPart: a provider namespace or type, lower-cased; raises ValueError."""
    if given == "":
        raise ValueError("must have at least one character")
    if "." in given:
        raise ValueError("dots are not allowed")
    if "--" in given:
        raise ValueError("cannot use multiple consecutive dashes")
    problem = ValueError(
        "must contain only letters, digits, and dashes, and may not use leading or trailing dashes"
    )
    try:
        low = _lookup_label(given)
    except ValueError:
        raise problem from None
    if low.startswith("xn--"):
        return given.lower()
    if not _LDH.match(low):
        raise problem
    return low


_FORMAT = 'The "source" attribute must be in the format "[hostname/][namespace/]name"'


def parse_provider_source(text: str) -> Provider:
    """tfaddr.ParseProviderSource; raises ParserError with terraform's summary and detail."""
    parts = text.split("/")
    if len(parts) > 3 or any(p == "" for p in parts):
        raise ParserError("Invalid provider source string", _FORMAT)
    given_name = parts[-1]
    try:
        ptype = parse_provider_part(given_name)
    except ValueError as exc:
        raise ParserError(
            "Invalid provider type",
            f"Invalid provider type {quote(given_name)} in source {quote(text)}: {exc}\"",
        ) from None
    if len(parts) == 1:
        return Provider(DEFAULT_REGISTRY, UNKNOWN_NAMESPACE, ptype)
    given_ns = parts[-2]
    if given_ns == LEGACY_NAMESPACE:
        namespace = LEGACY_NAMESPACE
    else:
        try:
            namespace = parse_provider_part(given_ns)
        except ValueError as exc:
            raise ParserError(
                "Invalid provider namespace",
                f'Invalid provider namespace "" in source {quote(text)}: {exc}"',
            ) from None
    hostname = DEFAULT_REGISTRY
    if len(parts) == 3:
        try:
            hostname = host_for_comparison(parts[0])
        except ValueError as exc:
            raise ParserError(
                "Invalid provider source hostname",
                f'Invalid provider source hostname namespace "" in source {quote(text)}: {exc}"',
            ) from None
    if namespace == LEGACY_NAMESPACE and hostname != DEFAULT_REGISTRY:
        raise ParserError(
            "Invalid provider namespace",
            'The legacy provider namespace "-" can be used only with hostname '
            f"{DEFAULT_REGISTRY}.",
        )
    got = Provider(hostname, namespace, ptype)
    if ptype.startswith("terraform-"):
        suggested = ptype[len("terraform-provider-"):]
        if ptype.startswith("terraform-provider-"):
            try:
                parse_provider_part(suggested)
            except ValueError:
                pass
            else:
                better = Provider(hostname, namespace, suggested)
                raise ParserError(
                    "Invalid provider type",
                    f"Provider source {quote(got.for_display())} has a type with the prefix "
                    '"terraform-provider-", which isn\'t valid. Although that prefix is often used '
                    "in the names of version control repositories for Terraform providers, "
                    "provider source strings should not include it.\n\nDid you mean "
                    f"{quote(better.for_display())}?",
                )
        raise ParserError(
            "Invalid provider type",
            f"Provider source {quote(str(got))} has a type with the prefix \"terraform-\", which "
            "isn't allowed because it would be redundant to name a Terraform provider with that "
            "prefix. If you are the author of this provider, rename it to not include the prefix.",
        )
    return got


def parse_provider_source_string(text: str) -> Provider:
    """tfaddr.ParseProviderSource with the namespace `hashicorp` when none is given (terraform's
    ParseProviderSourceString); raises ParserError as `parse_provider_source` does."""
    got = parse_provider_source(text)
    if got.namespace == UNKNOWN_NAMESPACE:
        return Provider(got.hostname, "hashicorp", got.type)
    return got


@dataclass(frozen=True, slots=True)
class RegistryModule:
    """A module registry source: host, namespace, name, target system and sub-directory."""

    host: str
    namespace: str
    name: str
    target_system: str
    subdir: str = ""


def split_package_subdir(given: str) -> tuple[str, str]:
    """go-getter's SourceDirSubdir with the sub-directory cleaned: (package, subdir)."""
    stop = given.find("?")
    if stop < 0:
        stop = len(given)
    scheme = given[:stop].find("://")
    offset = scheme + 3 if scheme >= 0 else 0
    idx = given[offset:stop].find("//")
    if idx < 0:
        return given, ""
    idx += offset
    subdir, src = given[idx + 2:], given[:idx]
    q = subdir.find("?")
    if q >= 0:
        src += subdir[q:]
        subdir = subdir[:q]
    return src, posixpath.normpath(subdir) if subdir else ""


def parse_module_registry_source(raw: str) -> RegistryModule:
    """tfaddr.ParseModuleSource: NAMESPACE/NAME/SYSTEM or HOST/NAMESPACE/NAME/SYSTEM with an
    optional `//subdir`; raises ValueError with terraform's message."""
    raw, subdir = split_package_subdir(raw)
    if subdir.startswith("../"):
        raise ValueError(f"subdirectory path {quote(subdir)} leads outside of the module package")
    parts = raw.split("/")
    if len(parts) not in (3, 4):
        raise ValueError(
            "a module registry source address must have either three or four slash-separated "
            "components"
        )
    host = DEFAULT_MODULE_HOST
    if len(parts) == 4:
        try:
            host = host_for_comparison(parts[0])
        except ValueError:
            if "--" in parts[0]:
                raise ValueError(
                    f"invalid module registry hostname {quote(parts[0])}; internationalized "
                    "domain names must be given as direct unicode characters, not in punycode"
                ) from None
            raise ValueError(f"invalid module registry hostname {quote(parts[0])}") from None
        if "." not in host:
            raise ValueError("invalid module registry hostname: must contain at least one dot")
        parts = parts[1:]
    if host in ("github.com", "bitbucket.org"):
        raise ValueError(
            f"can't use {quote(host)} as a module registry host, because it's reserved for "
            "installing directly from version control repositories"
        )
    name_problem = (
        "must be between one and 64 characters, including ASCII letters, digits, dashes, and "
        "underscores, where dashes and underscores may not be the prefix or suffix"
    )
    if not _MODULE_NAME.match(parts[0]):
        if "." in parts[0]:
            raise ValueError(
                "source address must have three more components after the hostname: the "
                "namespace, the name, and the target system"
            )
        raise ValueError(f"invalid namespace {quote(parts[0])}: {name_problem}")
    if not _MODULE_NAME.match(parts[1]):
        raise ValueError(f"invalid module name {quote(parts[1])}: {name_problem}")
    if not _MODULE_SYSTEM.match(parts[2]):
        if "?" in parts[2]:
            raise ValueError("module registry addresses may not include a query string portion")
        raise ValueError(
            f"invalid target system {quote(parts[2])}: must be between one and 64 ASCII letters "
            "or digits"
        )
    return RegistryModule(host, parts[0], parts[1], parts[2], subdir)
