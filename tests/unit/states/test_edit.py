"""Editing a state by address (engine.states.edit), as the state commands use it."""

from __future__ import annotations

from engine.addrs import (
    AbsResource,
    AbsResourceInstance,
    ModuleInstance,
    ModuleInstanceStep,
    Provider,
    Resource,
    ResourceMode,
)
from engine.states import edit
from engine.states.state import (
    Resource as StateResource,
)
from engine.states.state import (
    ResourceInstance,
    ResourceInstanceObject,
    State,
)

BUILTIN = 'provider["terraform.io/builtin/terraform"]'
ROOT = ModuleInstance()


def _mod(*steps: tuple[str, object]) -> ModuleInstance:
    return ModuleInstance(tuple(ModuleInstanceStep(n, k) for n, k in steps))  # type: ignore[arg-type]


def _res(module: str, name: str, keys: list[object], deps: list[str] | None = None,
         provider: str = BUILTIN, rtype: str = "terraform_data") -> StateResource:
    return StateResource(
        mode="managed", type=rtype, name=name, provider=provider, module=module,
        instances=[ResourceInstance(k, ResourceInstanceObject(  # type: ignore[arg-type]
            attributes={"id": f"{module}{name}{k}"}, dependencies=list(deps or [])))
            for k in keys])


def _state() -> State:
    return State(resources=[
        _res("", "a", [None]),
        _res("", "c", [0, 1]),
        _res("", "dep", [None], deps=["terraform_data.a"]),
        _res("", "on_m", [None], deps=["module.m.terraform_data.r"]),
        _res("module.m", "r", [None]),
        _res("module.m.module.inner", "i", [None]),
        _res("module.n[0]", "r", [None]),
        _res("module.n[1]", "r", [None]),
        _res("", "p", [None], provider='provider["registry.terraform.io/hashicorp/random"].x',
             rtype="random_pet"),
    ])


def _addr(text_module: ModuleInstance, name: str, key: object = None) -> AbsResourceInstance:
    return AbsResourceInstance(text_module, Resource(ResourceMode.MANAGED, "terraform_data", name),
                               key)  # type: ignore[arg-type]


def test_module_instances_in_terraforms_order() -> None:
    got = [str(m) for m in edit.module_instances(_state())]
    assert got == ["", "module.m", "module.n[0]", "module.n[1]", "module.m.module.inner"]


def test_instance_order_is_terraforms() -> None:
    state = _state()
    state.resources.append(StateResource("data", "terraform_data", "z", BUILTIN, "",
                                         instances=[ResourceInstance(None)]))
    addrs = [a for rs in state.resources for a in edit.resource_instances(rs)]
    got = [str(a) for a in sorted(addrs, key=edit.instance_order)]
    assert got[:4] == ["data.terraform_data.z", "random_pet.p", "terraform_data.a",
                       "terraform_data.c[0]"]
    assert got[-1] == "module.m.module.inner.terraform_data.i"


def test_module_containment() -> None:
    n, n0 = _mod(("n", None)), _mod(("n", 0))
    assert edit.module_contains(n, n0) and edit.module_contains(n, _mod(("n", 1), ("x", None)))
    assert not edit.module_contains(n0, _mod(("n", 1)))
    assert not edit.is_ancestor(n, n0) and edit.is_ancestor(n0, _mod(("n", 0), ("x", None)))


def test_forget_instance_drops_an_empty_resource() -> None:
    state = _state()
    edit.forget_instance(state, _addr(ROOT, "c", 0))
    assert edit.find_instance(state, _addr(ROOT, "c", 0)) is None
    assert edit.find_instance(state, _addr(ROOT, "c", 1)) is not None
    edit.forget_instance(state, _addr(ROOT, "c", 1))
    assert edit.find_resource(state, AbsResource(ROOT, Resource(ResourceMode.MANAGED,
                                                                 "terraform_data", "c"))) is None


def test_keys_of_different_kinds_are_different_instances() -> None:
    state = State(resources=[_res("", "x", [0, "0"])])
    edit.forget_instance(state, _addr(ROOT, "x", "0"))
    assert [i.index_key for i in state.resources[0].instances] == [0]


def test_moving_a_module_keeps_its_objects() -> None:
    state = _state()
    m, z = _mod(("m", None)), _mod(("z", None))
    edit.put_module(state, z, edit.take_module(state, m))
    assert not edit.has_module(state, m) and edit.has_module(state, z)
    inst = edit.find_instance(state, _addr(z, "r"))
    assert inst is not None and inst.current is not None
    assert inst.current.attributes == {"id": "module.mrNone"}
    # the nested module is its own module instance: it stays until moved itself
    assert edit.has_module(state, _mod(("m", None), ("inner", None)))


def test_moving_an_instance_creates_the_resource_with_its_provider() -> None:
    state = _state()
    src = AbsResourceInstance(ROOT, Resource(ResourceMode.MANAGED, "random_pet", "p"), None)
    dst = AbsResourceInstance(_mod(("k", 2)), Resource(ResourceMode.MANAGED, "random_pet", "q"),
                              "a")
    inst = edit.find_instance(state, src)
    assert inst is not None
    edit.forget_instance(state, src)
    edit.put_instance(state, dst, inst, 'provider["registry.terraform.io/hashicorp/random"].x')
    moved = edit.find_resource(state, dst.abs_resource)
    assert moved is not None and moved.module == "module.k[2]"
    assert moved.provider.endswith(".x") and moved.instances[0].index_key == "a"
    assert edit.find_resource(state, src.abs_resource) is None


def test_dependencies_on_what_moved_are_forgotten() -> None:
    state = _state()
    edit.clear_dependencies(state, _addr(ROOT, "a"))
    dep = edit.find_instance(state, _addr(ROOT, "dep"))
    on_m = edit.find_instance(state, _addr(ROOT, "on_m"))
    assert dep is not None and dep.current is not None and dep.current.dependencies == []
    assert on_m is not None and on_m.current is not None and on_m.current.dependencies
    # a keyed module instance does not contain the static module path a dependency names
    edit.clear_dependencies(state, _mod(("m", 0)))
    assert on_m.current.dependencies
    edit.clear_dependencies(state, _mod(("m", None)))
    assert on_m.current.dependencies == []


def test_replace_provider_keeps_module_and_alias() -> None:
    state = _state()
    random = Provider("registry.terraform.io", "hashicorp", "random")
    found = edit.resources_using(state, random)
    assert [r.name for r in found] == ["p"]
    edit.replace_provider(found[0], Provider("example.com", "acme", "random"))
    assert found[0].provider == 'provider["example.com/acme/random"].x'
    assert edit.resources_using(state, random) == []
