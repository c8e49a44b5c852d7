"""Custom condition rules: `precondition`, `postcondition`, variable `validation`, `assert`."""

from __future__ import annotations

from dataclasses import dataclass

from engine.configs.exprs import variables
from engine.configs.refs import DATA, EPHEMERAL, MANAGED, parse_ref
from engine.configs.syntax import AttrSchema, BodySchema, content
from engine.diags import Diagnostics, error
from engine.hcl.ast import Block, Expr
from engine.source import Range

CHECK_RULE_SCHEMA = BodySchema(
    attributes=(AttrSchema("condition", required=True), AttrSchema("error_message", required=True))
)


@dataclass(slots=True)
class CheckRule:
    """One condition with its error message; `kind` is the block type it came from."""

    kind: str
    condition: Expr | None
    error_message: Expr | None
    decl_range: Range


def decode_check_rule(block: Block, override: bool) -> tuple[CheckRule, Diagnostics]:
    """Decode a condition block; override files may not contain them, and a condition that
    refers to nothing is an error."""
    diags = Diagnostics()
    rule = CheckRule(block.type, None, None, block.def_range)
    if override:
        diags.append(
            error(
                f"Can't override {block.type} blocks",
                f'Override files cannot override "{block.type}" blocks.',
                block.def_range,
            )
        )
        return rule, diags
    got, cdiags = content(block.body, CHECK_RULE_SCHEMA, block)
    diags.extend(cdiags)
    cond = got.attributes.get("condition")
    if cond is not None:
        rule.condition = cond.expr
        if not variables(cond.expr):
            diags.append(
                error(
                    f"Invalid {block.type} expression",
                    "The condition expression must refer to at least one object from elsewhere "
                    "in the configuration, or else its result would not be checking anything.",
                    cond.expr.range,
                )
            )
    msg = got.attributes.get("error_message")
    if msg is not None:
        rule.error_message = msg.expr
    return rule, diags


def self_reference_errors(rule: CheckRule, mode: str, type_: str, name: str) -> Diagnostics:
    """Terraform's validateSelfReferences: a resource's condition or error message may not
    refer to the resource itself (by name or one of its instances; `self` is allowed). One
    error per expression, its range the whole expression. `mode` is "managed", "data" or
    "ephemeral"."""
    kind = {"managed": MANAGED, "data": DATA, "ephemeral": EPHEMERAL}[mode]
    addr = {MANAGED: f"{type_}.{name}", DATA: f"data.{type_}.{name}",
            EPHEMERAL: f"ephemeral.{type_}.{name}"}[kind]
    diags = Diagnostics()
    for expr in (rule.condition, rule.error_message):
        if expr is None:
            continue
        for t in variables(expr):
            ref, _ = parse_ref(t)
            if ref is not None and ref.kind == kind and ref.type == type_ and ref.name == name:
                diags.append(
                    error(
                        f"Invalid reference in {rule.kind}",
                        f"Configuration for {addr} may not refer to itself.",
                        expr.range,
                    )
                )
                break
    return diags
