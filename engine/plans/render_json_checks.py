"""The `checks` array of the JSON state and plan documents (terraform's jsonchecks).

`checks_json(results)` renders recorded check results (engine.states CheckResult: one per
checkable configuration object, i.e. a resource with conditions, an output with
preconditions, a `check` block or a variable with validation rules) as terraform does: each
static object's `address` (`kind` = resource / output_value / check / var, with `mode`,
`type`, `name`, `module` where they apply, and `to_display`), its aggregate `status`, and its
`instances`, each with a dynamic `address` (`to_display`, `module` below the root,
`instance_key` for a keyed resource instance), a `status` and, for failures, the `problems`
(error messages, sorted). Objects and instances are sorted by `to_display`.
"""

from __future__ import annotations

from typing import Any

from engine.addrs import AddressSyntaxError, parse_abs_resource_instance
from engine.states.state import CheckObjectResult, CheckResult

_KINDS = {"resource": "resource", "output": "output_value", "check": "check", "var": "var"}


def _split_module(addr: str) -> tuple[str, str]:
    """(`module.a[0]` part, `kind.name` part) of a non-resource checkable address."""
    parts = addr.rsplit(".", 2)
    if len(parts) == 3:
        return parts[0], f"{parts[1]}.{parts[2]}"
    return "", addr


def _static_address(result: CheckResult) -> dict[str, Any]:
    kind = _KINDS.get(result.object_kind, result.object_kind)
    out: dict[str, Any] = {"kind": kind, "to_display": result.config_addr}
    if kind == "resource":
        try:
            inst = parse_abs_resource_instance(result.config_addr)
        except AddressSyntaxError:
            return out
        res = inst.resource
        out["mode"] = res.mode.value
        out["type"] = res.type
        out["name"] = res.name
        if inst.module.steps:
            out["module"] = str(inst.module)
        return out
    module, local = _split_module(result.config_addr)
    out["name"] = local.split(".", 1)[-1]
    if module:
        out["module"] = module
    return out


def _dynamic_address(kind: str, obj: CheckObjectResult) -> dict[str, Any]:
    out: dict[str, Any] = {"to_display": obj.object_addr}
    if kind == "resource":
        try:
            inst = parse_abs_resource_instance(obj.object_addr)
        except AddressSyntaxError:
            return out
        if inst.module.steps:
            out["module"] = str(inst.module)
        if inst.key is not None:
            out["instance_key"] = inst.key
        return out
    module, _ = _split_module(obj.object_addr)
    if module:
        out["module"] = module
    return out


def checks_json(results: list[CheckResult] | None) -> list[dict[str, Any]]:
    """The `checks` array for recorded results (empty when there are none)."""
    out: list[dict[str, Any]] = []
    for result in results or []:
        instances = []
        for obj in result.objects or []:
            entry: dict[str, Any] = {
                "address": _dynamic_address(result.object_kind, obj),
                "status": obj.status,
            }
            if obj.failure_messages:
                entry["problems"] = [{"message": m} for m in sorted(obj.failure_messages)]
            instances.append(entry)
        instances.sort(key=lambda i: i["address"]["to_display"])
        static: dict[str, Any] = {"address": _static_address(result), "status": result.status}
        if instances:
            static["instances"] = instances
        out.append(static)
    out.sort(key=lambda r: r["address"]["to_display"])
    return out
