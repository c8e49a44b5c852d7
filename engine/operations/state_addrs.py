"""Addresses given on the command line of the `state` commands, read as terraform reads them.

`parse_target_str` is terraform's `addrs.ParseTargetStr`: the text is lexed as an HCL
expression and parsed as an absolute traversal (hclsyntax's `ParseTraversalAbs`, with its
"Index value required", "Invalid character", ... errors), then interpreted as a module
instance, a whole resource (no instance key) or one resource instance (`addrs.ParseTarget`).
Errors are diagnostics whose range lies in a nameless pseudo-file, which terraform renders
as `on  line 1:` and "(source code not available)".

`parse_provider_source` is `addrs.ParseProviderSourceString` (terraform-registry-address's
`ParseProviderSource` with the default namespace `hashicorp`), with its summaries and details.
"""

from __future__ import annotations

from engine.addrs import (
    AbsResource,
    AbsResourceInstance,
    ModuleInstance,
    ModuleInstanceStep,
    Resource,
    ResourceMode,
)
from engine.addrs.keys import NO_KEY, InstanceKey
from engine.addrs.providers import Provider
from engine.configs import registry_addrs as registry
from engine.diags import Diagnostic, Diagnostics, error
from engine.hcl import lexer as lx
from engine.hcl.template_literal import decode_literal
from engine.source import Range, SourceFile

Target = ModuleInstance | AbsResource | AbsResourceInstance

# A traversal step: ("name", text, range) or ("index", key, range).
_Step = tuple[str, "str | int | float", Range]

_RESERVED = (
    "count", "each", "local", "module", "path", "self", "terraform", "var", "template", "lazy",
    "arg",
)
_SKIP = (lx.NEWLINE, lx.COMMENT)
# gocty's message for a number that does not fit a Go int.
_WHOLE = "value must be a whole number, between -9223372036854775808 and 9223372036854775807"


def _span(steps: list[_Step]) -> Range:
    return steps[0][2].to(steps[-1][2])


def parse_traversal(text: str) -> tuple[list[_Step], Diagnostics]:
    """hclsyntax's ParseTraversalAbs over `text` (a pseudo-file with no name)."""
    file = SourceFile("", text)
    tokens = lx.lex(file, stop=len(text.rstrip()))  # trailing blanks make no token in HCL
    diags = lx.check_invalid_tokens(tokens)
    kinds = [k for k in range(len(tokens)) if tokens.kinds[k] not in _SKIP]
    pos = 0

    def kind(i: int) -> int:
        return tokens.kinds[kinds[min(i, len(kinds) - 1)]]

    def rng(i: int) -> Range:
        return tokens.range(kinds[min(i, len(kinds) - 1)])

    steps: list[_Step] = []
    if kind(pos) != lx.IDENT:
        diags.append(error("Variable name required", "Must begin with a variable name.", rng(pos)))
        return steps, diags
    root = rng(pos)
    steps.append(("name", root.text(), root))
    pos += 1
    while kind(pos) != lx.EOF:
        k = kind(pos)
        if k == lx.DOT:
            dot = rng(pos)
            pos += 1
            if kind(pos) != lx.IDENT:
                detail = ("Splat expressions (.*) may not be used here." if kind(pos) == lx.STAR
                          else "Dot must be followed by attribute name.")
                diags.append(error("Attribute name required", detail, rng(pos)))
                return steps, diags
            steps.append(("name", rng(pos).text(), dot.to(rng(pos))))
            pos += 1
        elif k == lx.OBRACK:
            open_ = rng(pos)
            pos += 1
            key: str | int | float
            if kind(pos) == lx.NUMBER_LIT:
                literal = rng(pos).text()
                pos += 1
                key = float(literal) if any(c in literal for c in ".eE") else int(literal)
            elif kind(pos) == lx.OQUOTE:
                pos += 1
                parts: list[str] = []
                problems: list[Diagnostic] = []
                while kind(pos) == lx.QUOTED_LIT:
                    r = rng(pos)
                    parts.append(decode_literal(file, r.start_offset, r.end_offset, True, problems))
                    pos += 1
                diags.extend(problems)
                if kind(pos) != lx.CQUOTE:
                    diags.append(error(
                        "Invalid string literal",
                        "Template sequences are not allowed in this string. To include a literal "
                        '"$", double it (as "$$") to escape it.', rng(pos)))
                    return steps, diags
                pos += 1
                key = "".join(parts)
            else:
                if kind(pos) == lx.STAR:
                    diags.append(error("Attribute name required",
                                       "Splat expressions ([*]) may not be used here.", rng(pos)))
                else:
                    diags.append(error(
                        "Index value required",
                        "Index brackets must contain either a literal number or a literal string.",
                        rng(pos)))
                return steps, diags
            close = rng(pos)
            if kind(pos) != lx.CBRACK:
                diags.append(error("Unclosed index brackets",
                                   "Index key must be followed by a closing bracket.", close))
            pos += 1
            steps.append(("index", key, open_.to(close)))
            if diags.has_errors:
                return steps, diags
        else:
            diags.append(error("Invalid character",
                               "Expected an attribute access or an index operator.", rng(pos)))
            return steps, diags
    return steps, diags


def _whole(value: str | int | float) -> int | None:
    """`value` as a Go int, or None when it is not a whole number that fits one."""
    if isinstance(value, float):
        if not value.is_integer():
            return None
        value = int(value)
    if isinstance(value, str) or not -(2**63) <= value < 2**63:
        return None
    return value


def _module_prefix(steps: list[_Step]) -> tuple[ModuleInstance, list[_Step], Diagnostics]:
    """terraform's parseModuleInstancePrefix."""
    diags = Diagnostics()
    path: list[ModuleInstanceStep] = []
    remain = steps
    while remain:
        kind, value, r = remain[0]
        if kind != "name":
            diags.append(error("Invalid address operator",
                               "Module address prefix must be followed by dot and then a name.", r))
            break
        if value != "module":
            break
        kw = r
        remain = remain[1:]
        if not remain or remain[0][0] != "name":
            diags.append(error("Invalid address operator",
                               'Prefix "module." must be followed by a module name.',
                               kw if not remain else remain[0][2]))
            break
        name = str(remain[0][1])
        remain = remain[1:]
        key: InstanceKey = NO_KEY
        if remain and remain[0][0] == "index":
            idx, ir = remain[0][1], remain[0][2]
            remain = remain[1:]
            if isinstance(idx, str):
                key = idx
            elif _whole(idx) is None:
                diags.append(error(
                    "Invalid address operator",
                    f"Invalid module index: {_WHOLE}.", ir))
            else:
                key = _whole(idx)
        path.append(ModuleInstanceStep(name, key))
    return ModuleInstance(tuple(path)), remain, diags


def _resource_under_module(
    module: ModuleInstance, remain: list[_Step]
) -> tuple[AbsResourceInstance | None, Diagnostics]:
    """terraform's parseResourceInstanceUnderModule (ParseTarget's second half)."""
    diags = Diagnostics()
    mode = ResourceMode.MANAGED
    # An ephemeral resource is never in state: its type keeps the "ephemeral." prefix, so
    # the address prints as terraform prints it and matches nothing.
    type_prefix = ""
    root = remain[0][1] if remain[0][0] == "name" else ""
    if root == "data":
        mode, remain = ResourceMode.DATA, remain[1:]
    elif root in ("ephemeral", "resource"):
        type_prefix = "ephemeral." if root == "ephemeral" else ""
        remain = remain[1:]
    elif root in _RESERVED:
        diags.append(error(
            "Invalid address",
            f'The keyword "{root}" is reserved and cannot be used to target a resource address. '
            "If you are targeting a resource type that uses a reserved keyword, please prefix "
            'your address with "resource.".', _span(remain)))
        return None, diags
    if len(remain) < 2:
        diags.append(error("Invalid address",
                           "Resource specification must include a resource type and name.",
                           _span(remain) if remain else None))
        return None, diags
    if remain[0][0] != "name":
        what = ("A data source name is required." if mode is ResourceMode.DATA
                else "A resource type name is required.")
        diags.append(error("Invalid address", what, remain[0][2]))
        return None, diags
    if remain[1][0] != "name":
        diags.append(error("Invalid address", "A resource name is required.", remain[1][2]))
        return None, diags
    resource = Resource(mode, type_prefix + str(remain[0][1]), str(remain[1][1]))
    remain = remain[2:]
    if not remain:
        return AbsResourceInstance(module, resource, NO_KEY), diags
    if len(remain) > 1:
        diags.append(error("Invalid address", "Unexpected extra operators after address.",
                           remain[1][2]))
        return None, diags
    kind, value, r = remain[0]
    if kind != "index":
        diags.append(error("Invalid address",
                           "Resource instance key must be given in square brackets.", r))
        return None, diags
    if not isinstance(value, str) and _whole(value) is None:
        diags.append(error(
            "Invalid address",
            f"Invalid resource instance key: {_WHOLE}.", r))
        return None, diags
    key: InstanceKey = value if isinstance(value, str) else _whole(value)
    return AbsResourceInstance(module, resource, key), diags


def parse_target_str(text: str) -> tuple[Target | None, Diagnostics]:
    """terraform's ParseTargetStr: a module instance, a whole resource or an instance."""
    steps, diags = parse_traversal(text)
    if diags.has_errors:
        return None, diags
    module, remain, more = _module_prefix(steps)
    diags.extend(more)
    if diags.has_errors:
        return None, diags
    if not remain:
        return module, diags
    inst, more = _resource_under_module(module, remain)
    diags.extend(more)
    if inst is None or diags.has_errors:
        return None, diags
    if inst.key is NO_KEY:
        return inst.abs_resource, diags
    return inst, diags


def parse_abs_resource_instance_str(text: str) -> tuple[AbsResourceInstance | None, Diagnostics]:
    """terraform's ParseAbsResourceInstanceStr (the module path, then one instance)."""
    steps, diags = parse_traversal(text)
    if diags.has_errors:
        return None, diags
    module, remain, more = _module_prefix(steps)
    diags.extend(more)
    if diags.has_errors:
        return None, diags
    if not remain:
        diags.append(error("Invalid address", "Module address must be followed by a resource "
                           "instance address.", _span(steps)))
        return None, diags
    inst, more = _resource_under_module(module, remain)
    diags.extend(more)
    return (None if diags.has_errors else inst), diags


# ------------------------------------------------------------------------------ providers
def parse_provider_source(text: str) -> tuple[Provider | None, Diagnostics]:
    """terraform's ParseProviderSourceString: the provider (namespace `hashicorp` when none is
    given), or one error diagnostic."""
    diags = Diagnostics()
    try:
        return registry.parse_provider_source_string(text), diags
    except registry.ParserError as exc:
        diags.append(error(exc.summary, exc.detail))
        return None, diags


__all__ = [
    "Target",
    "parse_abs_resource_instance_str",
    "parse_provider_source",
    "parse_target_str",
    "parse_traversal",
]
