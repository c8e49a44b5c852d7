"""The CLI configuration's `provider_installation` block and Terraform's implied defaults.

`load_cli_config(environ)` reads the file named by `TF_CLI_CONFIG_FILE`, else `~/.terraformrc`
(a missing default file is no configuration), and returns its provider installation methods:

    provider_installation {
      filesystem_mirror { path = "/srv/mirror"  include = ["example.com/*/*"] }
      direct { exclude = ["example.com/*/*"] }
    }

Each `InstallationMethod` has a kind (`filesystem_mirror`, `direct`, `network_mirror`), a
location (mirror path or URL) and include/exclude `ProviderPattern`s. Without a
`provider_installation` block, `implied_local_mirror_dirs(environ, cwd)` lists the directories
Terraform searches implicitly (`terraform.d/plugins`, `~/.terraform.d/plugins`, the XDG data
directories); the installer then treats each existing one as a filesystem mirror followed by
`direct` for every other provider. Problems are diagnostics, never exceptions.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from engine.addrs import Provider as ProviderAddr
from engine.configs.exprs import decode_string, expr_list, literal_string
from engine.configs.syntax import AttrSchema, BlockSchema, BodySchema, content, partial_content
from engine.diags import Diagnostics, error
from engine.hcl.ast import Attribute, Block

DEFAULT_REGISTRY = "registry.terraform.io"


@dataclass(frozen=True, slots=True)
class ProviderPattern:
    """`host/namespace/type` where any part may be `*` (`hashicorp/*` = default host)."""

    hostname: str
    namespace: str
    type: str

    def matches(self, addr: ProviderAddr) -> bool:
        return all(
            want == "*" or want == got
            for want, got in ((self.hostname, addr.hostname), (self.namespace, addr.namespace), (self.type, addr.type))
        )

    def __str__(self) -> str:
        return f"{self.hostname}/{self.namespace}/{self.type}"


def parse_pattern(text: str) -> ProviderPattern | None:
    """A provider pattern, or None when it is malformed."""
    parts = [p.strip().lower() for p in text.split("/")]
    if len(parts) == 2:
        parts = [DEFAULT_REGISTRY, *parts]
    if len(parts) != 3 or not all(parts):
        return None
    host, ns, ptype = parts
    if ns == "*" and ptype != "*":
        return None
    return ProviderPattern(host, ns, ptype)


@dataclass(slots=True)
class InstallationMethod:
    """One method of a `provider_installation` block."""

    kind: str
    location: str = ""
    include: list[ProviderPattern] = field(default_factory=list)
    exclude: list[ProviderPattern] = field(default_factory=list)

    def selects(self, addr: ProviderAddr) -> bool:
        """Whether this method may be asked for `addr` (include/exclude filters)."""
        if self.include and not any(p.matches(addr) for p in self.include):
            return False
        return not any(p.matches(addr) for p in self.exclude)


@dataclass(slots=True)
class CliConfig:
    """What groundplan uses from the CLI configuration file."""

    filename: str = ""
    provider_installation: list[InstallationMethod] | None = None
    dev_overrides: dict[ProviderAddr, str] = field(default_factory=dict)


_ROOT = BodySchema((), (BlockSchema("provider_installation"),))
_METHODS = ("filesystem_mirror", "direct", "network_mirror", "dev_overrides")
_INSTALL = BodySchema((), tuple(BlockSchema(k) for k in _METHODS))
_METHOD_ATTRS = {
    "filesystem_mirror": BodySchema((AttrSchema("path", True), AttrSchema("include"), AttrSchema("exclude"))),
    "network_mirror": BodySchema((AttrSchema("url", True), AttrSchema("include"), AttrSchema("exclude"))),
    "direct": BodySchema((AttrSchema("include"), AttrSchema("exclude"))),
}


def _patterns(attr: Attribute | None, diags: Diagnostics) -> list[ProviderPattern]:
    if attr is None:
        return []
    exprs, d = expr_list(attr.expr)
    diags.extend(d)
    out: list[ProviderPattern] = []
    for e in exprs:
        text = literal_string(e)
        pat = parse_pattern(text) if text is not None else None
        if pat is None:
            diags.append(
                error(
                    "Invalid provider_installation method",
                    f"Invalid {attr.name} pattern {text!r}: provider patterns must have the form "
                    '"[hostname/]namespace/type", with "*" wildcards.',
                    e.range,
                )
            )
            continue
        out.append(pat)
    return out


def _method(block: Block, cfg: CliConfig, diags: Diagnostics) -> InstallationMethod | None:
    if block.type == "dev_overrides":
        for name, attr in block.body.attributes.items():
            pat = parse_pattern(name)
            path, d = decode_string(attr)
            diags.extend(d)
            if pat is None or "*" in (pat.hostname, pat.namespace, pat.type) or path is None:
                continue
            cfg.dev_overrides[ProviderAddr(pat.hostname, pat.namespace, pat.type)] = path
        return None
    got, d = content(block.body, _METHOD_ATTRS[block.type], block)
    diags.extend(d)
    if d.has_errors:
        return None
    a = got.attributes
    location = ""
    key = "path" if block.type == "filesystem_mirror" else "url"
    if key in a:
        text, d = decode_string(a[key])
        diags.extend(d)
        location = os.path.expanduser(text or "")
    return InstallationMethod(block.type, location, _patterns(a.get("include"), diags), _patterns(a.get("exclude"), diags))


def parse_cli_config(text: str, filename: str) -> tuple[CliConfig, Diagnostics]:
    """The provider installation settings in the text of a CLI configuration file."""
    from engine.hcl import parse_file

    cfg = CliConfig(filename=filename)
    f, diags = parse_file(text, filename)
    if diags.has_errors:
        return cfg, diags
    got, _, d = partial_content(f.body, _ROOT)
    diags.extend(d)
    blocks = [b for b in got.blocks if b.type == "provider_installation"]
    if len(blocks) > 1:
        diags.append(
            error(
                "Multiple provider_installation blocks",
                "The CLI configuration may contain only one provider_installation block.",
                blocks[1].def_range,
            )
        )
    if not blocks:
        return cfg, diags
    inner, d = content(blocks[0].body, _INSTALL, blocks[0])
    diags.extend(d)
    methods: list[InstallationMethod] = []
    for blk in inner.blocks:
        m = _method(blk, cfg, diags)
        if m is not None:
            methods.append(m)
    cfg.provider_installation = methods
    return cfg, diags


def cli_config_path(environ: dict[str, str]) -> tuple[str, bool]:
    """The CLI configuration file to read and whether it was named explicitly."""
    explicit = environ.get("TF_CLI_CONFIG_FILE", "")
    if explicit:
        return explicit, True
    home = environ.get("HOME") or os.path.expanduser("~")
    return os.path.join(home, ".terraformrc"), False


def load_cli_config(environ: dict[str, str]) -> tuple[CliConfig, Diagnostics]:
    """The CLI configuration in effect; an absent file is an empty configuration."""
    path, _ = cli_config_path(environ)
    try:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
    except OSError:
        return CliConfig(), Diagnostics()
    return parse_cli_config(text, path)


def implied_local_mirror_dirs(environ: dict[str, str], cwd: str) -> list[str]:
    """The directories Terraform searches for providers without `provider_installation`."""
    home = environ.get("HOME") or os.path.expanduser("~")
    dirs = [os.path.join(cwd, "terraform.d", "plugins"), os.path.join(home, ".terraform.d", "plugins")]
    data_home = environ.get("XDG_DATA_HOME") or os.path.join(home, ".local", "share")
    dirs.append(os.path.join(data_home, "terraform", "plugins"))
    data_dirs = environ.get("XDG_DATA_DIRS") or "/usr/local/share:/usr/share"
    dirs.extend(os.path.join(d, "terraform", "plugins") for d in data_dirs.split(":") if d)
    out: list[str] = []
    for d in dirs:
        if d not in out:
            out.append(d)
    return out
