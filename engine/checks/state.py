"""`ChecksState`: the thread-safe collector of one walk's check statuses (terraform's
internal/checks State).

Lifecycle, as in terraform:

1. `ChecksState(config)` registers every checkable configuration object of the module tree
   with how many conditions of each kind it declares: managed and data resources with at
   least one precondition or postcondition (kind "resource"), outputs with preconditions
   ("output"), `check` blocks (their `assert`s, plus one "data" rule when they scope a data
   source; kind "check") and input variables with validation rules ("var"). Its objects
   are not known yet.
2. `report_objects(config_addr, object_addrs)` records the expansion: each object starts with
   every condition "unknown". Reports add to what is known (an object already reported keeps
   its statuses), so a resource's instances may be reported module instance by module
   instance; the first report, even an empty one, establishes that the objects are known.
   `from_plan(config, results)` starts an apply with the objects the plan found.
3. `report(config_addr, object_addr, rule_type, index, status, message)` records one
   condition's status; a "fail" keeps its (author-written) message.
4. `results()` summarises: per object, and per configuration object over all its objects'
   conditions, any "error" gives "error", else any "fail" "fail", else any "unknown"
   "unknown", else "pass" (also for zero objects); a configuration object whose objects were
   never reported is "unknown" with no objects (`objects` None). Each failed object lists the
   messages of its failed conditions, sorted.

Addresses are terraform's strings: configuration addresses without instance keys
(`module.a.terraform_data.x`, `module.a.output.o`, `check.c`, `var.v`), object addresses with
them (`module.a[0].terraform_data.x[1]`). Reports about addresses that were not registered
are ignored, so callers need not know whether an object is checkable.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from engine.states.state import CheckObjectResult, CheckResult

# checkable kinds (as the state file's `object_kind`)
RESOURCE, OUTPUT, CHECK, VAR = "resource", "output", "check", "var"
# condition kinds (terraform's addrs.CheckRuleType)
PRECONDITION, POSTCONDITION = "precondition", "postcondition"
OUTPUT_PRECONDITION, ASSERTION, CHECK_DATA, VALIDATION = (
    "output_precondition", "assertion", "check_data", "validation")

PASS, FAIL, ERROR, UNKNOWN = "pass", "fail", "error", "unknown"

# (rule index, status, failure message) for one object and one kind of condition
Reporter = Callable[[int, str, str], None]


def in_module(module: str, local: str) -> str:
    """`local` (e.g. `var.v`) inside the module (instance) `module` ("" for the root)."""
    return f"{module}.{local}" if module else local


def summarize(statuses: Iterable[str]) -> str:
    """terraform's summarizeCheckStatuses over the given condition statuses."""
    errors = fails = unknowns = 0
    for s in statuses:
        if s == ERROR:
            errors += 1
        elif s == FAIL:
            fails += 1
        elif s != PASS:
            unknowns += 1
    if errors:
        return ERROR
    if fails:
        return FAIL
    if unknowns:
        return UNKNOWN
    return PASS


@dataclass(slots=True)
class _Object:
    """One checkable object's statuses per rule kind and the failure messages of its rules."""

    statuses: dict[str, list[str]]
    messages: dict[tuple[str, int], str] = field(default_factory=dict)

    def all_statuses(self) -> list[str]:
        return [s for rules in self.statuses.values() for s in rules]


@dataclass(slots=True)
class _ConfigObject:
    """One checkable configuration object: its kind, how many rules of each kind it has, and its
    expanded objects."""

    kind: str
    rule_counts: dict[str, int]
    objects: dict[str, _Object] | None = None


def _rule_count(rules: Any) -> int:
    return len(rules or [])


#: a registration: (configuration address, kind, rule counts) of each checkable object
_Registration = tuple[tuple[str, str, tuple[tuple[str, int], ...]], ...]

#: id(config) -> (the config, its registration), the most recent few: a plan's configuration
#: is registered once however many walks start from it (each node task of a fanned-out apply
#: is one, and the module tree may hold thousands of resources). The config is kept with its
#: id so the id cannot be reused while the entry exists.
_registered: OrderedDict[int, tuple[Any, _Registration]] = OrderedDict()
_registered_mu = threading.Lock()
_REGISTERED_KEPT = 8


def _registration(config: Any) -> _Registration:
    with _registered_mu:
        found = _registered.get(id(config))
        if found is not None and found[0] is config:
            _registered.move_to_end(id(config))
            return found[1]
    out: list[tuple[str, str, tuple[tuple[str, int], ...]]] = []
    _collect(config, out)
    registration = tuple(out)
    with _registered_mu:
        _registered[id(config)] = (config, registration)
        while len(_registered) > _REGISTERED_KEPT:
            _registered.popitem(last=False)
    return registration


def _collect(cfg: Any, out: list[tuple[str, str, tuple[tuple[str, int], ...]]]) -> None:
    module = cfg.path_str
    mod = cfg.module
    for res in [*mod.managed_resources.values(), *mod.data_resources.values()]:
        counts = {PRECONDITION: _rule_count(res.preconditions),
                  POSTCONDITION: _rule_count(res.postconditions)}
        counts = {k: n for k, n in counts.items() if n}
        if counts:
            local = f"data.{res.type}.{res.name}" if res.mode == "data" \
                else f"{res.type}.{res.name}"
            out.append((in_module(module, local), RESOURCE, tuple(counts.items())))
    for name, o in mod.outputs.items():
        if o.preconditions:
            out.append((in_module(module, f"output.{name}"), OUTPUT,
                        ((OUTPUT_PRECONDITION, len(o.preconditions)),)))
    for name, chk in mod.checks.items():
        counts = {ASSERTION: len(chk.asserts)}
        if chk.data_resource is not None:
            counts[CHECK_DATA] = 1
        out.append((in_module(module, f"check.{name}"), CHECK, tuple(counts.items())))
    for name, var in mod.variables.items():
        if var.validations:
            out.append((in_module(module, f"var.{name}"), VAR,
                        ((VALIDATION, len(var.validations)),)))
    for child in cfg.children.values():
        _collect(child, out)


class ChecksState:
    """See the module docstring."""

    def __init__(self, config: Any | None) -> None:
        self._mu = threading.Lock()
        self._configs: dict[str, _ConfigObject] = {}
        if config is not None:
            for addr, kind, counts in _registration(config):
                self._configs[addr] = _ConfigObject(kind, dict(counts))

    @classmethod
    def from_plan(cls, config: Any | None, results: Iterable[CheckResult] | None) -> ChecksState:
        """A new state for an apply: the objects the plan found are reported again (with
        unknown statuses), so objects the apply never reaches stay "unknown"."""
        out = cls(config)
        for r in results or []:
            if r.objects is not None:
                out.report_objects(r.config_addr, [o.object_addr for o in r.objects])
        return out

    def has(self, config_addr: str) -> bool:
        """Whether `config_addr` is a checkable configuration object."""
        with self._mu:
            return config_addr in self._configs

    # ------------------------------------------------------------------ reports
    def report_objects(self, config_addr: str, object_addrs: Iterable[str]) -> None:
        """Record objects of `config_addr` (see the module docstring)."""
        with self._mu:
            cfg = self._configs.get(config_addr)
            if cfg is None:
                return
            if cfg.objects is None:
                cfg.objects = {}
            for addr in object_addrs:
                if addr not in cfg.objects:
                    cfg.objects[addr] = _Object(
                        {k: [UNKNOWN] * n for k, n in cfg.rule_counts.items()})

    def report(self, config_addr: str, object_addr: str, rule_type: str, index: int,
               status: str, message: str = "") -> None:
        """Record the status of condition `index` of kind `rule_type` of one object (reported
        first with `report_objects` if it was not); `message` is kept for a "fail"."""
        with self._mu:
            cfg = self._configs.get(config_addr)
            if cfg is None or index >= cfg.rule_counts.get(rule_type, 0):
                return
            if cfg.objects is None:
                cfg.objects = {}
            obj = cfg.objects.get(object_addr)
            if obj is None:
                obj = cfg.objects[object_addr] = _Object(
                    {k: [UNKNOWN] * n for k, n in cfg.rule_counts.items()})
            obj.statuses[rule_type][index] = status
            if status == FAIL:
                obj.messages[(rule_type, index)] = message
            else:
                obj.messages.pop((rule_type, index), None)

    def reporter(self, config_addr: str, object_addr: str, rule_type: str) -> Reporter | None:
        """A `Reporter` for one object and kind of condition, the object reported (see
        `report_objects`); None when `config_addr` is not checkable."""
        if not self.has(config_addr):
            return None
        self.report_objects(config_addr, [object_addr])

        def report(index: int, status: str, message: str) -> None:
            self.report(config_addr, object_addr, rule_type, index, status, message)

        return report

    def variable_reporter(self, module: str, module_instance: str
                          ) -> Callable[[str], Reporter | None]:
        """`reporter` for the validation rules of the variables (by name) of one module
        instance (`module` its path without keys)."""
        def for_name(name: str) -> Reporter | None:
            local = f"var.{name}"
            return self.reporter(in_module(module, local), in_module(module_instance, local),
                                 VALIDATION)

        return for_name

    # ------------------------------------------------------------------ queries
    def object_status(self, config_addr: str, object_addr: str) -> str:
        """The summary of one object's conditions ("unknown" when not reported)."""
        with self._mu:
            cfg = self._configs.get(config_addr)
            obj = None if cfg is None or cfg.objects is None else cfg.objects.get(object_addr)
            return UNKNOWN if obj is None else summarize(obj.all_statuses())

    def aggregate(self, config_addr: str) -> str:
        """The summary of a configuration object ("unknown" while its objects are not)."""
        with self._mu:
            cfg = self._configs.get(config_addr)
            if cfg is None or cfg.objects is None:
                return UNKNOWN
            return summarize(s for o in cfg.objects.values() for s in o.all_statuses())

    def results(self) -> list[CheckResult]:
        """Every configuration object's result, sorted by address (see the module docstring)."""
        out: list[CheckResult] = []
        for addr in sorted(self._configs):
            cfg = self._configs[addr]
            objects: list[CheckObjectResult] | None = None
            with self._mu:
                if cfg.objects is not None:
                    objects = [
                        CheckObjectResult(
                            oaddr, summarize(obj.all_statuses()),
                            sorted(m for k, m in obj.messages.items()
                                   if obj.statuses[k[0]][k[1]] == FAIL and m))
                        for oaddr, obj in sorted(cfg.objects.items())
                    ]
            out.append(CheckResult(cfg.kind, addr, self.aggregate(addr), objects))
        return out
