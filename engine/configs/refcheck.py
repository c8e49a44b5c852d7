"""Static reference checking: what `terraform validate` reports about the references in every
expression of a module, without evaluating anything.

`check_references(config)` walks every module of a `Config` tree; for each expression it
knows the context (whether `count`, `each` and `self` are available) and reports undeclared
variables, locals, resources, modules and module outputs, misuse of `count`/`each`/`self`,
invalid `path`/`terraform` attributes, malformed references, bad `depends_on` entries, and
module call arguments that the child module does not declare (or required ones it misses).
With `resource_refs`, the attribute steps after each reference to a resource are checked too
(against the resource type's schema, by the caller: "Unsupported attribute"), when the
reference's instance key matches the resource's repetition. Diagnostics come out in source
order.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from engine.configs.exprs import expr_as_keyword, variables
from engine.configs.loader import Config
from engine.configs.module import Module
from engine.configs.refs import DATA, EPHEMERAL, MANAGED, Reference, parse_ref
from engine.configs.resources import Resource
from engine.configs.syntax import missing_item_range
from engine.diags import Diagnostic, Diagnostics, error
from engine.gocompat.levenshtein import name_suggestion
from engine.hcl.ast import Block, Body, Expr, Traversal, TraverseAttr
from engine.source import Range


@dataclass(frozen=True, slots=True)
class Ctx:
    """What an expression may refer to besides module-level objects."""

    count: bool = False
    each: bool = False
    self_: bool = False
    in_check: str | None = None


_NONE = Ctx()

# (module config, resource, traversal steps after the resource or instance) -> problems
ResourceRefCheck = Callable[[Config, Resource, Traversal], Diagnostics]


class _Checker:
    def __init__(self, node: Config, failed: set[tuple[str, ...]] | None = None,
                 resource_refs: ResourceRefCheck | None = None) -> None:
        self.node = node
        self.resource_refs = resource_refs
        # module paths whose own checks (or whose call's arguments) failed: terraform does not
        # get as far as evaluating their outputs, so it reports nothing about them
        self.failed: set[tuple[str, ...]] = failed if failed is not None else set()
        self.mod: Module = node.module
        self.out: list[Diagnostic] = []
        self.where = "the root module" if not node.path else node.path_str

    # ------------------------------------------------------------------ references
    def expr(self, expr: Expr | None, ctx: Ctx, bound: frozenset[str] = frozenset()) -> None:
        if expr is None:
            return
        for t in variables(expr, bound):
            self.traversal(t, ctx)

    def traversal(self, t: Traversal, ctx: Ctx) -> None:
        ref, diags = parse_ref(t)
        self.out.extend(diags)
        if ref is not None:
            self.reference(ref, ctx)

    def _err(self, summary: str, detail: str, rng: Range) -> None:
        self.out.append(error(summary, detail, rng))

    def reference(self, ref: Reference, ctx: Ctx) -> None:
        k = ref.kind
        m = self.mod
        if k == "var":
            if ref.name not in m.variables:
                self._err(
                    "Reference to undeclared input variable",
                    f'An input variable with the name "{ref.name}" has not been declared. This '
                    f'variable can be declared with a variable "{ref.name}" {{}} block.',
                    ref.range,
                )
        elif k == "local":
            if ref.name not in m.locals:
                sugg = name_suggestion(ref.name, list(m.locals))
                hint = f' Did you mean "{sugg}"?' if sugg else ""
                self._err(
                    "Reference to undeclared local value",
                    f'A local value with the name "{ref.name}" has not been declared.{hint}',
                    ref.range,
                )
        elif k in ("module", "module_output"):
            self.module_ref(ref)
        elif k in (MANAGED, DATA, EPHEMERAL):
            self.resource_ref(ref, ctx)
        elif k == "count":
            if ref.name != "index":
                self._err(
                    'Invalid "count" attribute',
                    f'The "count" object does not have an attribute named "{ref.name}". The only '
                    "supported attribute is count.index, which is the index of each instance of a "
                    'resource block that has the "count" argument set.',
                    ref.range,
                )
            elif not ctx.count:
                self._err(
                    'Reference to "count" in non-counted context',
                    'The "count" object can only be used in "module", "resource", and "data" '
                    'blocks, and only when the "count" argument is set.',
                    ref.range,
                )
        elif k == "each":
            if ref.name not in ("key", "value"):
                self._err(
                    'Invalid "each" attribute',
                    f'The "each" object does not have an attribute named "{ref.name}". The '
                    "supported attributes are each.key and each.value, the current key and value "
                    'pair of the "for_each" attribute set.',
                    ref.range,
                )
            elif not ctx.each and ref.name == "value":
                self._err(
                    "each.value cannot be used in this context",
                    'A reference to "each.value" has been used in a context in which it is '
                    'unavailable, such as when the configuration no longer contains the value in '
                    'its "for_each" expression. Remove this reference to each.value in your '
                    "configuration to work around this error.",
                    ref.range,
                )
            elif not ctx.each:
                self._err(
                    'Reference to "each" in context without for_each',
                    'The "each" object can be used only in "module" or "resource" blocks, and only '
                    'when the "for_each" argument is set.',
                    ref.range,
                )
        elif k == "self":
            if not ctx.self_:
                self._err(
                    'Invalid "self" reference',
                    'The "self" object is not available in this context. This object can be used '
                    "only in resource provisioner, connection, and postcondition blocks.",
                    ref.range,
                )
        elif k == "path":
            if ref.name not in ("cwd", "module", "root"):
                sugg = name_suggestion(ref.name, ["cwd", "module", "root"])
                hint = f' Did you mean "{sugg}"?' if sugg else ""
                self._err(
                    'Invalid "path" attribute',
                    f'The "path" object does not have an attribute named "{ref.name}".{hint}',
                    ref.range,
                )
        elif k == "terraform" and ref.name not in ("workspace", "applying", "env"):
            self._err(
                'Invalid "terraform" attribute',
                f'The "terraform" object does not have an attribute named "{ref.name}". The only '
                "supported attributes are terraform.workspace, the name of the currently-selected "
                "workspace, and terraform.applying, a boolean which is true only during apply.",
                ref.range,
            )

    def module_ref(self, ref: Reference) -> None:
        call = self.mod.module_calls.get(ref.name)
        if call is None:
            sugg = name_suggestion(ref.name, list(self.mod.module_calls))
            hint = f' Did you mean "{sugg}"?' if sugg else ""
            self._err(
                "Reference to undeclared module",
                f'No module call named "{ref.name}" is declared in {self.where}.{hint}',
                ref.range,
            )
            return
        if ref.kind != "module_output":
            return
        child = self.node.children.get(ref.name)
        if child is None or child.path in self.failed:
            return
        if (call.count is not None or call.for_each is not None) and not ref.has_key:
            return  # module.m.x on a multi-instance call: an evaluation-time error
        if ref.output not in child.module.outputs:
            start = ref.range.end_offset - len(ref.output) - 1
            self._err(
                "Unsupported attribute",
                f'This object does not have an attribute named "{ref.output}".',
                Range(ref.range.file, start, ref.range.end_offset),
            )

    def resource_ref(self, ref: Reference, ctx: Ctx) -> None:
        r = self.mod.resource(ref.resource_key)
        adjective = {MANAGED: "managed", DATA: "data", EPHEMERAL: "ephemeral"}[ref.kind]
        if r is None:
            hint = ""
            if ref.kind == MANAGED and self.mod.resource(f"data.{ref.type}.{ref.name}") is not None:
                hint = f"\n\nDid you mean the data resource data.{ref.type}.{ref.name}?"
            self._err(
                "Reference to undeclared resource",
                f'A {adjective} resource "{ref.type}" "{ref.name}" has not been declared in '
                f"{self.where}.{hint}",
                ref.range,
            )
            return
        if r.container is not None and ctx.in_check != r.container:
            self._err(
                "Reference to scoped resource",
                f'The referenced data resource "{ref.type}" "{ref.name}" is not available from '
                "this context.",
                ref.range,
            )
            return
        if self.resource_refs is not None:
            self.resource_instance_ref(ref, r)

    def resource_instance_ref(self, ref: Reference, r: Resource) -> None:
        """terraform's evaluation-time static checks of a resource reference: the instance
        key against the resource's repetition, the removed `count` attribute, and the
        remaining steps against the schema (`resource_refs`)."""
        addr = ref.resource_key
        if ref.has_key:
            if r.count is None and r.for_each is None:
                self._err(
                    "Unexpected resource instance key",
                    f'Because {addr} does not have "count" or "for_each" set, references to it '
                    "must not include an index key. Remove the bracketed index to refer to the "
                    "single instance of this resource.", ref.range)
        elif ref.remaining:
            for meta, example in (("count", "count.index"), ("for_each", "each.key")):
                if getattr(r, meta) is not None:
                    self._err(
                        "Missing resource instance key",
                        f'Because {addr} has "{meta}" set, its attributes must be accessed on '
                        "specific instances.\n\nFor example, to correlate with indices of a "
                        f"referring resource, use:\n    {addr}[{example}]", ref.range)
        first = ref.remaining[0] if ref.remaining else None
        if isinstance(first, TraverseAttr) and first.name == "count":
            self._err(
                "Invalid resource count attribute",
                'The special "count" attribute is no longer supported after Terraform v0.12. '
                f"Instead, use length({addr}) to inspect the number of instances.", ref.range)
            return
        assert self.resource_refs is not None
        self.out.extend(self.resource_refs(self.node, r, ref.remaining))

    def output_condition(self, expr: Expr | None) -> None:
        """An output precondition: besides the usual checks, evaluating `self` there finds no
        such variable, which terraform also reports."""
        if expr is None:
            return
        for t in variables(expr):
            self.traversal(t, _NONE)
            if t[0].name == "self":  # type: ignore[union-attr]
                self._err("Unknown variable", 'There is no variable named "self".', t[0].range)

    def depends_on(self, deps: list[Traversal], ctx: Ctx) -> None:
        for t in deps:
            ref, diags = parse_ref(t)
            self.out.extend(diags)
            if ref is None:
                continue
            if ref.remaining:
                rem = ref.remaining
                self._err(
                    "Invalid depends_on reference",
                    "References in depends_on must be to a whole object (resource, etc), not to an "
                    "attribute of an object.",
                    rem[0].range.to(rem[-1].range),
                )
            self.reference(ref, ctx)

    # ------------------------------------------------------------------------ bodies
    def body(self, body: Body, ctx: Ctx, bound: frozenset[str] = frozenset()) -> None:
        for attr in body.attributes.values():
            self.expr(attr.expr, ctx, bound)
        for blk in body.blocks:
            self.block(blk, ctx, bound)

    def block(self, blk: Block, ctx: Ctx, bound: frozenset[str]) -> None:
        if blk.type != "dynamic" or not blk.labels:
            self.body(blk.body, ctx, bound)
            return
        name = blk.labels[0]
        it = blk.body.attributes.get("iterator")
        if it is not None:
            name = expr_as_keyword(it.expr) or name
        for aname, attr in blk.body.attributes.items():
            if aname == "for_each":
                self.expr(attr.expr, ctx, bound)
            elif aname != "iterator":
                self.expr(attr.expr, ctx, bound | {name})
        for inner in blk.body.blocks:
            self.block(inner, ctx, bound | {name})

    def resource(self, r: Resource) -> None:
        meta = Ctx(in_check=r.container)
        inst = Ctx(count=r.count is not None, each=r.for_each is not None, in_check=r.container)
        self.expr(r.count, meta)
        self.expr(r.for_each, meta)
        self.depends_on(r.depends_on, meta)
        self.body(r.config, inst)
        for rule in r.preconditions:
            self.expr(rule.condition, inst)
            self.expr(rule.error_message, inst)
        post = Ctx(inst.count, inst.each, True, r.container)
        for rule in r.postconditions:
            self.expr(rule.condition, post)
            self.expr(rule.error_message, post)
        for e in r.lifecycle.replace_triggered_by:
            self.expr(e, inst)
        with_self = Ctx(inst.count, inst.each, True, r.container)
        if r.connection is not None:
            self.body(r.connection.config, with_self)
        for pv in r.provisioners:
            self.body(pv.config, with_self)
            if pv.connection is not None:
                self.body(pv.connection.config, with_self)

    def module(self) -> None:
        m = self.mod
        for mc in m.module_calls.values():
            before = len(self.out)
            self.module_arguments(mc.name)
            if len(self.out) > before:
                self.failed.add((*self.node.path, mc.name))
        for v in m.variables.values():
            for rule in v.validations:
                self.expr(rule.condition, _NONE)
                self.expr(rule.error_message, _NONE)
        for lv in m.locals.values():
            self.expr(lv.expr, _NONE)
        for o in m.outputs.values():
            if o.ephemeral and not self.node.path:
                self._err(
                    "Ephemeral output not allowed",
                    "Ephemeral outputs are not allowed in context of a root module",
                    o.decl_range,
                )
            self.expr(o.expr, _NONE)
            self.depends_on(o.depends_on, _NONE)
            for rule in o.preconditions:
                for e in (rule.condition, rule.error_message):
                    self.output_condition(e)
        for pc in m.provider_configs.values():
            self.body(pc.config, _NONE)
        for r in m.all_resources():
            self.resource(r)
        for mc in m.module_calls.values():
            # terraform validate evaluates module arguments with unknown instance data, so it
            # reports no misuse of count/each there (plan does)
            inst = Ctx(count=True, each=True)
            self.expr(mc.count, _NONE)
            self.expr(mc.for_each, _NONE)
            self.depends_on(mc.depends_on, _NONE)
            self.body(mc.config, inst)
        for chk in m.checks.values():
            for rule in chk.asserts:
                self.expr(rule.condition, Ctx(in_check=chk.name))
                self.expr(rule.error_message, Ctx(in_check=chk.name))
        for imp in m.imports:
            ctx = Ctx(each=imp.for_each is not None)
            self.expr(imp.for_each, _NONE)
            self.expr(imp.id, ctx)
            if imp.to is not None:
                for t in variables(imp.to)[1:]:
                    self.traversal(t, ctx)

    def module_arguments(self, name: str) -> None:
        """Arguments of a module call against the child's variables."""
        child = self.node.children.get(name)
        call = self.mod.module_calls[name]
        if child is None:
            return
        declared = child.module.variables
        for aname, attr in call.config.attributes.items():
            if aname not in declared:
                sugg = name_suggestion(aname, [v for v in declared if v not in call.config.attributes])
                hint = f' Did you mean "{sugg}"?' if sugg else ""
                self._err(
                    "Unsupported argument",
                    f'An argument named "{aname}" is not expected here.{hint}',
                    attr.name_range,
                )
        for blk in call.config.blocks:
            self._err(
                "Unsupported block type",
                f'Blocks of type "{blk.type}" are not expected here.',
                blk.type_range,
            )
        for vname, var in declared.items():
            if var.required and vname not in call.config.attributes:
                self._err(
                    "Missing required argument",
                    f'The argument "{vname}" is required, but no definition was found.',
                    missing_item_range(call.config),
                )


def check_module_references(node: Config, failed: set[tuple[str, ...]] | None = None,
                            resource_refs: ResourceRefCheck | None = None) -> Diagnostics:
    """Reference problems in one module of the tree, in source order. `failed` holds the
    paths of modules already known to have errors (their outputs are not checked)."""
    checker = _Checker(node, failed, resource_refs)
    checker.module()
    return Diagnostics(sorted(checker.out, key=_position))


def _position(d: Diagnostic) -> tuple[str, int]:
    if d.subject is None:
        return ("", -1)
    return (d.subject.filename, d.subject.start_offset)


def check_references(config: Config, resource_refs: ResourceRefCheck | None = None
                     ) -> Diagnostics:
    """Reference problems in every module of the configuration tree (see the module
    docstring for `resource_refs`)."""
    diags = Diagnostics()
    failed: set[tuple[str, ...]] = set()

    def visit(node: Config) -> None:
        for name in sorted(node.children):
            visit(node.children[name])
        found = check_module_references(node, failed, resource_refs)
        if found.has_errors:
            failed.add(node.path)
        diags.extend(found)

    visit(config)
    from engine.configs.import_checks import check_import_blocks

    diags.extend(check_import_blocks(config))
    return diags


