"""Object change rules: the proposed new state, and checks of what providers return.

As terraform's internal/plans/objchange:

- `proposed_new(block, prior, config)`: what the core proposes to the provider: the
  configuration, with each computed attribute the configuration leaves null taken from the
  prior object (null when there is none). Nested blocks are merged element by element.
- `assert_plan_valid(block, prior, config, planned)`: problems with a provider's planned state
  (a non-computed attribute planned differently from its configuration).
- `assert_object_compatible(block, planned, actual)`: problems with a final plan or an apply
  result (a value that was known in the plan and changed).

Checks return lists of messages (`.attr: planned value ... does not match config value ...`);
callers build terraform's diagnostics around them. All values must be unmarked.
"""

from __future__ import annotations

from engine.plugin.schema import Attribute, Block, Nesting
from engine.values import NUMBER, Value, unknown
from engine.values.refinement import MAX_LENGTH, includes, value_range
from engine.values.types import ListType, MapType, ObjectType, SetType, TupleType
from engine.values.value import UNKNOWN


def proposed_new(block: Block, prior: Value, config: Value) -> Value:
    """The proposed new object for planning `config` over `prior` (null prior: create)."""
    if config.is_null:
        return config
    if not config.is_known or not isinstance(config.v, dict):
        return config
    prior_attrs = prior.v if (prior.is_known and isinstance(prior.v, dict)) else None
    out: dict[str, Value] = {}
    for name, cv in config.v.items():
        pv = prior_attrs.get(name) if prior_attrs is not None else None
        attr = block.attributes.get(name)
        if attr is not None:
            out[name] = _proposed_attr(attr, pv, cv)
            continue
        nb = block.block_types.get(name)
        if nb is None:
            out[name] = cv
            continue
        out[name] = _proposed_blocks(nb.block, nb.nesting, pv, cv)
    return Value(ObjectType({k: v.type for k, v in out.items()}), out)


def planned_data_object(block: Block, config: Value) -> Value:
    """terraform's PlannedDataResourceObject: a data source read deferred to apply is planned
    as its configuration with every computed attribute it leaves null unknown (proposedNew
    over an entirely unknown prior), nested blocks likewise."""
    if config.is_null or not config.is_known or not isinstance(config.v, dict):
        return config
    out: dict[str, Value] = {}
    for name, cv in config.v.items():
        attr = block.attributes.get(name)
        nb = block.block_types.get(name)
        if attr is not None:
            out[name] = unknown(cv.type) if attr.computed and cv.is_null else cv
        elif nb is None or not cv.is_known or cv.is_null:
            out[name] = cv
        elif nb.nesting in (Nesting.SINGLE, Nesting.GROUP):
            out[name] = planned_data_object(nb.block, cv)
        elif isinstance(cv.v, list):
            out[name] = _rebuild(cv, [planned_data_object(nb.block, e) for e in cv.v])
        elif isinstance(cv.v, dict):
            out[name] = _rebuild(cv, {k: planned_data_object(nb.block, e)
                                      for k, e in cv.v.items()})
        else:
            out[name] = cv
    return Value(ObjectType({k: v.type for k, v in out.items()}), out)


def _proposed_attr(attr: Attribute, prior: Value | None, config: Value) -> Value:
    if not attr.computed:
        return config
    if not config.is_null:
        return config
    # a computed attribute the configuration leaves null keeps its prior value (null when
    # creating: the provider decides what is unknown)
    return prior if prior is not None else config


def _proposed_blocks(block: Block, nesting: Nesting, prior: Value | None, config: Value) -> Value:
    if not config.is_known or config.is_null:
        return config
    null_prior = prior is None or prior.is_null or not prior.is_known
    if nesting in (Nesting.SINGLE, Nesting.GROUP):
        empty = block.empty_value()
        return proposed_new(block, empty if null_prior else prior or empty, config)
    empty = block.empty_value()
    if isinstance(config.v, list):
        pitems: list[Value] = (
            list(prior.v) if prior is not None and isinstance(prior.v, list) and not null_prior
            else []
        )
        items: list[Value] = []
        for i, cv in enumerate(config.v):
            if nesting is Nesting.SET:
                pv = _matching_set_element(block, pitems, cv)
            else:
                pv = pitems[i] if i < len(pitems) else None
            items.append(proposed_new(block, pv if pv is not None else empty, cv))
        return _rebuild(config, items)
    if isinstance(config.v, dict):
        pmap: dict[str, Value] = (
            prior.v if prior is not None and isinstance(prior.v, dict) and not null_prior else {}
        )
        entries = {
            k: proposed_new(block, pmap.get(k, empty), cv) for k, cv in config.v.items()
        }
        return _rebuild(config, entries)
    return config


def _matching_set_element(block: Block, prior: list[Value], config: Value) -> Value | None:
    """The prior element whose non-computed attributes equal the config element's."""
    if not isinstance(config.v, dict):
        return None
    for pv in prior:
        if not isinstance(pv.v, dict):
            continue
        if all(
            pv.v.get(n) == cv
            for n, cv in config.v.items()
            if not (n in block.attributes and block.attributes[n].computed)
        ):
            return pv
    return None


def _rebuild(like: Value, payload: list[Value] | dict[str, Value]) -> Value:
    t = like.type
    if isinstance(t, (ListType, SetType, MapType)):
        if isinstance(payload, list) and payload:
            et = payload[0].type
            return Value(SetType(et) if isinstance(t, SetType) else ListType(et), payload)
        if isinstance(payload, dict) and payload:
            return Value(MapType(next(iter(payload.values())).type), payload)
        return Value(t, payload)
    if isinstance(t, TupleType) and isinstance(payload, list):
        return Value(TupleType(e.type for e in payload), payload)
    if isinstance(t, ObjectType) and isinstance(payload, dict):
        return Value(ObjectType({k: e.type for k, e in payload.items()}), payload)
    return Value(t, payload)


# ------------------------------------------------------------------------ value display
def cty_string(v: Value) -> str:
    """A value in cty's GoString notation, as terraform's messages quote them."""
    import json

    if v.v is UNKNOWN:
        if v.refinement is not None:
            return f"cty.UnknownVal({_cty_type(v)}).Refine(){_cty_refinement(v)}.NewValue()"
        return f"cty.UnknownVal({_cty_type(v)})"
    if v.is_null:
        return f"cty.NullVal({_cty_type(v)})"
    if isinstance(v.v, bool):
        return "cty.True" if v.v else "cty.False"
    if isinstance(v.v, str):
        return f"cty.StringVal({json.dumps(v.v)})"
    if isinstance(v.v, int):
        return f"cty.NumberIntVal({v.v})"
    if isinstance(v.v, dict):
        kind = "Map" if isinstance(v.type, MapType) else "Object"
        inner = ", ".join(f"{json.dumps(k)}:{cty_string(e)}" for k, e in v.v.items())
        return f"cty.{kind}Val(map[string]cty.Value{{{inner}}})"
    if isinstance(v.v, list):
        kind = {ListType: "List", SetType: "Set", TupleType: "Tuple"}.get(type(v.type), "List")
        return f"cty.{kind}Val([]cty.Value{{{', '.join(cty_string(e) for e in v.v)}}})"
    return f"cty.NumberFloatVal({v.v})"


def _cty_refinement(v: Value) -> str:
    """The RefinementBuilder calls that make `v`'s refinements (cty's GoString of them)."""
    import json

    r = v.refinement
    assert r is not None
    calls = [".NotNull()"] if r.not_null else []
    if r.prefix:
        calls.append(f".StringPrefixFull({json.dumps(r.prefix)})")
    for bound, inc, name in ((r.lower, r.lower_inclusive, "Lower"),
                             (r.upper, r.upper_inclusive, "Upper")):
        if bound is not None:
            n = cty_string(Value(NUMBER, bound))
            calls.append(f".NumberRange{name}Bound({n}, {str(inc).lower()})")
    if r.min_length:
        calls.append(f".CollectionLengthLowerBound({r.min_length})")
    if r.max_length != MAX_LENGTH:
        calls.append(f".CollectionLengthUpperBound({r.max_length})")
    return "".join(calls)


def _cty_type(v: Value) -> str:
    name = v.type.friendly_name()
    return {"string": "cty.String", "number": "cty.Number", "bool": "cty.Bool",
            "dynamic": "cty.DynamicPseudoType"}.get(name, f"cty.{name}")


# ------------------------------------------------------------------------------- checks
def assert_plan_valid(block: Block, prior: Value, config: Value, planned: Value) -> list[str]:
    """Problems with `planned` for `config` (terraform's AssertPlanValid, top level and
    nested blocks): a non-computed attribute must be planned as configured."""
    errs: list[str] = []
    if planned.is_null:
        if not config.is_null:
            errs.append("planned for non-existence but config wants existence")
        return errs
    if config.is_null:
        errs.append("planned for existence but config wants absence")
        return errs
    _check_planned(block, config, planned, "", errs)
    return errs


def _check_planned(block: Block, config: Value, planned: Value, path: str, errs: list[str]) -> None:
    if not isinstance(config.v, dict) or not isinstance(planned.v, dict):
        return
    for name, attr in block.attributes.items():
        cv = config.v.get(name)
        pv = planned.v.get(name)
        if cv is None or pv is None:
            continue
        apath = f"{path}.{name}"
        if attr.computed:
            if not cv.is_null and cv.is_wholly_known() and pv != cv and pv.is_known:
                errs.append(
                    f"{apath}: planned value {cty_string(pv)} does not match config value "
                    f"{cty_string(cv)}"
                )
            continue
        if pv != cv and not (not cv.is_wholly_known() and not pv.is_known):
            if not cv.is_wholly_known():
                continue
            errs.append(
                f"{apath}: planned value {cty_string(pv)} for a non-computed attribute"
                if cv.is_null
                else f"{apath}: planned value {cty_string(pv)} does not match config value "
                f"{cty_string(cv)}"
            )
    for name, nb in block.block_types.items():
        cv = config.v.get(name)
        pv = planned.v.get(name)
        if cv is None or pv is None or not cv.is_known or not pv.is_known:
            continue
        if nb.nesting in (Nesting.SINGLE, Nesting.GROUP):
            _check_planned(nb.block, cv, pv, f"{path}.{name}", errs)
        elif nb.nesting is Nesting.LIST and isinstance(cv.v, list) and isinstance(pv.v, list):
            if len(cv.v) != len(pv.v):
                errs.append(f"{path}.{name}: block count in plan ({len(pv.v)}) disagrees "
                            f"with count in config ({len(cv.v)})")
                continue
            for i, (c, p) in enumerate(zip(cv.v, pv.v)):
                _check_planned(nb.block, c, p, f"{path}.{name}[{i}]", errs)


def assert_object_compatible(block: Block, planned: Value, actual: Value) -> list[str]:
    """Problems with `actual` given `planned`: every value known in the plan must be kept."""
    errs: list[str] = []
    _compatible(planned, actual, "", errs, block)
    return errs


def _compatible(planned: Value, actual: Value, path: str, errs: list[str], block: Block | None) -> None:
    if not planned.is_known:
        # the final value must be one the planned placeholder's refinements allow
        if planned.refinement is not None and includes(value_range(planned), actual) is False:
            errs.append(f"{path or 'root object'}: final value {cty_string(actual)} does not "
                        f"conform to planning placeholder {cty_string(planned)}")
        return
    if not actual.is_known:
        errs.append(f"{path or 'root object'}: was known, but now unknown")
        return
    if planned.is_null or actual.is_null:
        if planned.is_null != actual.is_null:
            what = "absent" if planned.is_null and not path else cty_string(planned)
            if not path:
                errs.append(
                    "root object was present, but now absent"
                    if actual.is_null
                    else f"root object: was {what}, but now present"
                )
            else:
                errs.append(f"{path}: was {cty_string(planned)}, but now {cty_string(actual)}")
        return
    if isinstance(planned.v, dict) and isinstance(actual.v, dict) and isinstance(
        planned.type, ObjectType
    ):
        for name, pv in planned.v.items():
            av = actual.v.get(name)
            if av is None:
                continue
            nested = None
            if block is not None and name in block.block_types:
                nested = block.block_types[name].block
            _compatible(pv, av, f"{path}.{name}", errs, nested)
        return
    if isinstance(planned.v, list) and isinstance(actual.v, list):
        if isinstance(planned.type, SetType):
            if planned.is_wholly_known() and planned != actual:
                errs.append(f"{path}: planned set element values changed")
            return
        if len(planned.v) != len(actual.v):
            errs.append(f"{path}: length changed from {len(planned.v)} to {len(actual.v)}")
            return
        for i, (p, a) in enumerate(zip(planned.v, actual.v)):
            _compatible(p, a, f"{path}[{i}]", errs, block)
        return
    if isinstance(planned.v, dict) and isinstance(actual.v, dict):
        for k, pv in planned.v.items():
            av = actual.v.get(k)
            if av is None:
                errs.append(f"{path}: element {k!r} has vanished")
                continue
            _compatible(pv, av, f"{path}[{k!r}]", errs, block)
        return
    if planned != actual:
        errs.append(f"{path}: was {cty_string(planned)}, but now {cty_string(actual)}")
