"""State format versions 1 to 3 (Terraform before v0.12), upgraded to version 4 as terraform
reads them: `upgrade_legacy(raw, version)` turns the decoded document into a version 4
document (still JSON-shaped, numbers as `RawNumber`) that the version 4 reader then reads.

What terraform's statefile upgraders do, step by step:

- v1 -> v2: outputs (plain strings) become string outputs; a module without a path is the
  root; instance `meta` keeps its values; no lineage.
- v2 -> v3: in each object's flat attributes, a collection count `x.#` whose keys are not
  all numbers is a map's (`x.%`); the count of an empty collection is dropped.
- v3 -> v4: each legacy address `type.name[.N]`/`data.type.name[.N]` becomes a resource with
  instances; the first instance's provider
  (`provider.aws.alias`, `module.m.provider.aws`, or the old module-local `aws.alias`, or
  implied by the type) is the resource's, in the legacy namespace
  (`provider["registry.terraform.io/-/aws"]`; `terraform` is the built-in provider); the
  primary object is the current one, deposed ones get keys 00000001, 00000002, ...; the
  attributes stay flat (`attributes_flat`), upgraded by the provider on first use; a
  `schema_version` in `meta` becomes the object's, the rest of `meta` its private data;
  `tainted` is the status; only the root module's outputs are kept, each typed as its JSON
  value implies (a tuple of one element type is a list, an object of one is a map);
  dependencies are dropped; a missing `terraform_version` is "0.0.0".

A document that does not have the structure of its version is "Invalid state file format",
naming the field as Go's JSON decoder does; an upgrade that cannot be done is "State format
upgrade failed".
"""

from __future__ import annotations

import base64
import re
from typing import Any

from engine.diags import Diagnostics, error
from engine.gocompat import json as gojson

_UPGRADE_FAILED = "State format upgrade failed"
_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_-]*$")
_BUILTIN = "terraform.io/builtin/terraform"

# Go's decoding targets of the legacy structures: a kind name, or a dict (struct fields),
# ("list", elem) or ("map", elem). "any" takes everything.
_INSTANCE: dict[str, Any] = {"id": "string", "attributes": ("map", "string"),
                             "meta": ("map", "any"), "tainted": "bool"}
_INSTANCE_V1: dict[str, Any] = {"id": "string", "attributes": ("map", "string"),
                                "meta": ("map", "string")}
_RESOURCE: dict[str, Any] = {"type": "string", "depends_on": ("list", "string"),
                             "primary": _INSTANCE, "deposed": ("list", _INSTANCE),
                             "provider": "string"}
_OUTPUT: dict[str, Any] = {"sensitive": "bool", "type": "string", "value": "any"}
_MODULE: dict[str, Any] = {"path": ("list", "string"), "outputs": ("map", _OUTPUT),
                           "resources": ("map", _RESOURCE), "depends_on": ("list", "string")}
_STATE: dict[str, Any] = {
    "version": "int", "terraform_version": "string", "serial": "int", "lineage": "string",
    "remote": {"type": "string", "config": ("map", "string")},
    "backend": {"type": "string", "config": "any", "hash": "uint"},
    "modules": ("list", _MODULE),
}
_STATE_V1: dict[str, Any] = {
    "version": "int", "serial": "int",
    "remote": {"type": "string", "config": ("map", "string")},
    "modules": ("list", {
        "path": ("list", "string"), "outputs": ("map", "string"),
        "resources": ("map", {"type": "string", "depends_on": ("list", "string"),
                              "primary": _INSTANCE_V1, "deposed": ("list", _INSTANCE_V1),
                              "provider": "string"}),
        "depends_on": ("list", "string")}),
}


def _kind(v: Any) -> str:
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, gojson.RawNumber):
        return "number " + v
    if isinstance(v, str):
        return "string"
    if isinstance(v, list):
        return "array"
    return "object"


def _mismatch(v: Any, schema: Any, path: str) -> tuple[str, str] | None:
    """(field path, value kind) of the first UnmarshalTypeError decoding `v` into `schema`."""
    if v is None or schema == "any":
        return None
    if isinstance(schema, dict):
        if not isinstance(v, dict):
            return path, _kind(v).split(" ")[0]
        lower = {k.lower(): k for k in schema}  # Go matches field names case-insensitively
        for key, item in v.items():
            field = lower.get(key.lower())
            if field is not None:
                found = _mismatch(item, schema[field], f"{path}.{field}" if path else field)
                if found:
                    return found
        return None
    if isinstance(schema, tuple):
        container, elem = schema
        if not isinstance(v, list if container == "list" else dict):
            return path, _kind(v).split(" ")[0]
        for item in (v if isinstance(v, list) else v.values()):
            found = _mismatch(item, elem, path)
            if found:
                return found
        return None
    kind = _kind(v)
    if schema in ("int", "uint"):
        if not isinstance(v, gojson.RawNumber):
            return path, kind.split(" ")[0]
        if not re.fullmatch(r"-?\d+" if schema == "int" else r"\d+", v):
            return path, kind
        return None
    return None if kind.split(" ")[0] == schema else (path, kind.split(" ")[0])


def upgrade_legacy(raw: dict[str, Any], version: int) -> tuple[dict[str, Any] | None,
                                                                Diagnostics]:
    """The version 4 document that the version `version` (1, 2 or 3) document `raw` stands
    for (see the module docstring); None with terraform's diagnostics."""
    diags = Diagnostics()
    found = _mismatch(raw, _STATE_V1 if version == 1 else _STATE, "")
    if found is not None:
        diags.append(error("Invalid state file format",
                           f"The state file field {gojson.quote(found[0])} has invalid value "
                           f"{found[1]}"))
        return None, diags
    modules = [m for m in raw.get("modules") or [] if isinstance(m, dict)]
    if version == 1:
        modules = [_module_v1(m) for m in modules]
        raw = {"serial": raw.get("serial"), "modules": modules}
    if version <= 2:
        for m in modules:
            for rs in (m.get("resources") or {}).values():
                for inst in [rs.get("primary"), *(rs.get("deposed") or [])]:
                    if isinstance(inst, dict) and inst.get("attributes"):
                        inst["attributes"] = _attributes_v2_to_v3(inst["attributes"])
    try:
        return _v3_to_v4(raw, modules), diags
    except ValueError as exc:
        diags.append(error(_UPGRADE_FAILED, "Error upgrading state file format from version 3 "
                           f"to version 4: {exc}."))
        return None, diags


def _module_v1(m: dict[str, Any]) -> dict[str, Any]:
    outputs = {k: {"type": "string", "value": v, "sensitive": False}
               for k, v in (m.get("outputs") or {}).items()}
    return {"path": list(m.get("path") or []) or ["root"], "outputs": outputs,
            "resources": {k: dict(v or {}) for k, v in (m.get("resources") or {}).items()}}


def _attributes_v2_to_v3(attrs: dict[str, str]) -> dict[str, str]:
    """terraform's upgradeAttributesV2ToV3: map counts become `%`, empty counts go."""
    attrs = dict(attrs)
    prefixes = sorted(k[:-1] for k in attrs if k.endswith(".#"))
    for prefix in prefixes:
        keys: set[str] = set()
        for key in attrs:
            if key.startswith(prefix):
                rest = key[len(prefix):]
                if "." in rest and not rest.startswith("."):
                    keys.add(rest.split(".", 1)[0])
                elif rest != "#":
                    keys.add(rest)
        count = prefix + "#"
        if any(not re.fullmatch(r"[+-]?\d+", k) for k in keys):
            attrs[prefix + "%"] = attrs.pop(count, "")
        if not keys:
            attrs.pop(count, None)
    return attrs


def _legacy_key(addr: str) -> tuple[str, str, str, int | None]:
    """(mode, type, name, count index) of a legacy resource address."""
    parts = addr.split(".")
    if len(parts) < 2 or len(parts) > 4:
        raise ValueError(f"invalid internal resource address format: {addr}")
    mode = "managed"
    if len(parts) > 2 and parts[0] == "data":
        mode, parts = "data", parts[1:]
    if len(parts) > 3:
        raise ValueError(f"invalid internal resource address format: {addr}")
    index = None
    if len(parts) > 2:
        try:
            index = int(parts[2], 0)
        except ValueError:
            raise ValueError(f'error parsing resource address "{addr}": strconv.ParseInt: '
                             f'parsing "{parts[2]}": invalid syntax') from None
    return mode, parts[0], parts[1], index


def _provider(old: str, module: str, type_: str, addr: str) -> str:
    """The version 4 provider configuration address of a legacy one (see the docstring)."""
    mod, name, alias = module, "", ""
    if "provider." in old:
        steps = old.split(".")
        mods: list[str] = []
        while len(steps) >= 2 and steps[0] == "module":
            mods.append(steps[1])
            steps = steps[2:]
        if not steps or steps[0] != "provider" or len(steps) not in (2, 3):
            raise ValueError(f'invalid provider config reference "{old}" for {addr}')
        mod = ".".join(f"module.{m}" for m in mods)
        name, alias = steps[1], (steps[2] if len(steps) == 3 else "")
    elif old:
        name, _, alias = old.partition(".")
        if not _IDENT.match(name) or (alias and not _IDENT.match(alias)):
            raise ValueError(f'invalid legacy provider config reference "{old}" for {addr}')
    else:
        name = type_.split("_", 1)[0]
    fqn = _BUILTIN if name == "terraform" else f"registry.terraform.io/-/{name}"
    text = f'provider["{fqn}"]' + (f".{alias}" if alias else "")
    return f"{mod}.{text}" if mod else text


def _instance(inst: dict[str, Any], index: int | None, deposed: str) -> dict[str, Any]:
    meta = dict(inst.get("meta") or {})
    schema_version = 0
    raw_version = meta.get("schema_version")
    if isinstance(raw_version, str) and re.fullmatch(r"\d+", raw_version):
        schema_version = int(raw_version)
        del meta["schema_version"]
    attrs = dict(inst.get("attributes") or {}) if inst.get("attributes") is not None else None
    if inst.get("id"):
        attrs = attrs if attrs is not None else {}
        if not attrs.get("id"):
            attrs["id"] = inst["id"]
    out: dict[str, Any] = {}
    if index is not None:
        out["index_key"] = gojson.RawNumber(str(index))
    if inst.get("tainted"):
        out["status"] = "tainted"
    if deposed:
        out["deposed"] = deposed
    out["schema_version"] = gojson.RawNumber(str(schema_version))
    out["attributes_flat"] = attrs
    if meta:
        text = gojson.dumps(gojson.sort_keys(meta), indent=None)
        out["private"] = base64.b64encode(text.encode("utf-8")).decode("ascii")
    return out


def _v3_to_v4(raw: dict[str, Any], modules: list[dict[str, Any]]) -> dict[str, Any]:
    serial = raw.get("serial")
    if isinstance(serial, str) and serial.startswith("-"):
        raise ValueError("state has serial less than zero, which is invalid")
    resources: list[dict[str, Any]] = []
    outputs: dict[str, Any] = {}
    for m in modules:
        path = list(m.get("path") or [])
        if not path or path[0] != "root":
            raise ValueError(f"state contains invalid module path {_go_strings(path)}")
        for name in path[1:]:
            if not _IDENT.match(name):
                raise ValueError(
                    f"state contains invalid module path {_go_strings(path)}: "
                    f'"{name}" is not a valid identifier; rename it in Terraform 0.11 before '
                    "upgrading to Terraform 0.12")
        module = ".".join(f"module.{n}" for n in path[1:])
        by_addr: dict[tuple[str, str, str], dict[str, Any]] = {}
        for legacy, rs in (m.get("resources") or {}).items():
            rs = rs or {}
            mode, type_, name, index = _legacy_key(legacy)
            inst_addr = f"{'data.' if mode == 'data' else ''}{type_}.{name}" + (
                f"[{index}]" if index is not None else "")
            res = by_addr.get((mode, type_, name))
            if res is None:
                res = {"module": module, "mode": mode, "type": type_, "name": name,
                       "provider": _provider(str(rs.get("provider") or ""), module, type_,
                                             inst_addr),
                       "instances": []}
                by_addr[(mode, type_, name)] = res
                resources.append(res)
            if isinstance(rs.get("primary"), dict):
                res["instances"].append(_instance(rs["primary"], index, ""))
            for i, dep in enumerate(rs.get("deposed") or []):
                if isinstance(dep, dict):
                    res["instances"].append(_instance(dep, index, f"{i + 1:08x}"))
        if len(path) == 1:
            for name, out in (m.get("outputs") or {}).items():
                out = out or {}
                value = out.get("value")
                outputs[name] = {"value": value, "type": _simplified(_implied(value)),
                                 "sensitive": bool(out.get("sensitive"))}
    resources.sort(key=lambda r: (r["module"], r["mode"], r["type"], r["name"]))
    for res in resources:
        res["instances"].sort(key=lambda i: (int(i.get("index_key") or -1), i.get("deposed", "")))
    return {"version": gojson.RawNumber("4"),
            "terraform_version": raw.get("terraform_version") or "0.0.0",
            "serial": serial if serial is not None else gojson.RawNumber("0"),
            "lineage": raw.get("lineage") or "", "outputs": outputs, "resources": resources}


def _go_strings(items: list[str]) -> str:
    """Go's %#v of a []string."""
    return "[]string{" + ", ".join(gojson.quote(s) for s in items) + "}"


def _implied(v: Any) -> Any:
    """cty's ImpliedType of a JSON value, as a type in its JSON form."""
    if v is None:
        return "dynamic"
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, gojson.RawNumber):
        return "number"
    if isinstance(v, str):
        return "string"
    if isinstance(v, list):
        return ["tuple", [_implied(x) for x in v]]
    return ["object", {k: _implied(x) for k, x in v.items()}]


def _simplified(ty: Any) -> Any:
    """terraform's simplifyImpliedValueType: a tuple or object whose elements all have one
    type is a list or map of it."""
    if isinstance(ty, list) and ty[0] == "tuple" and ty[1]:
        first = ty[1][0]
        if all(t == first for t in ty[1]):
            return ["list", _simplified(first)]
    if isinstance(ty, list) and ty[0] == "object" and ty[1]:
        types = list(ty[1].values())
        if all(t == types[0] for t in types):
            return ["map", _simplified(types[0])]
    return ty
