"""random_string and random_password: random strings from chosen character classes.

As hashicorp/random 3.6: every argument forces replacement; booleans default to true and the
`min_*` counts to 0; `number` is the deprecated spelling of `numeric` (setting one plans the
other to the same value). The result takes `min_*` characters from each class, fills up to
`length` from the union of enabled classes, and is shuffled. `random_string`'s id is the
result; `random_password`'s result is sensitive, its id is `"none"` and `bcrypt_hash` holds a
bcrypt hash of the result.

Import takes the result itself; the other arguments take their defaults and `length` the
result's length.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from typing import Any

from engine.plugin.sdk import Attr, Obj, Plan, ProviderError, Resource, error
from engine.values import BOOL, NUMBER, STRING
from providers.random.bcrypt_ import bcrypt_hash
from providers.random.common import KEEPERS

NUMERIC = "0123456789"
LOWER = "abcdefghijklmnopqrstuvwxyz"
UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
SPECIAL = "!@#$%&*()-_=+[]{}<>:?"
_MINS = ("min_upper", "min_lower", "min_numeric", "min_special")
_DEFAULTS: dict[str, Any] = {
    "special": True, "upper": True, "lower": True, "number": True, "numeric": True,
    "min_numeric": 0, "min_upper": 0, "min_lower": 0, "min_special": 0,
}


def generate(length: int, *, upper: bool = True, lower: bool = True, numeric: bool = True,
             special: bool = True, min_upper: int = 0, min_lower: int = 0, min_numeric: int = 0,
             min_special: int = 0, override_special: str | None = None) -> str:
    """A random string as the original generates it (see the module docstring)."""
    specials = override_special or SPECIAL
    pool = (UPPER if upper else "") + (LOWER if lower else "") + \
        (NUMERIC if numeric else "") + (specials if special else "")
    chars: list[str] = []
    for charset, count in ((NUMERIC, min_numeric), (LOWER, min_lower), (UPPER, min_upper),
                           (specials, min_special)):
        chars.extend(secrets.choice(charset) for _ in range(count))
    if len(chars) < length and not pool:
        raise ProviderError("Random string generation error",
                            "No character classes are enabled to draw characters from.")
    chars.extend(secrets.choice(pool) for _ in range(length - len(chars)))
    order = [secrets.randbits(8) for _ in chars]
    return "".join(c for _, c in sorted(zip(order, chars), key=lambda p: p[0]))


def _fields(sensitive: bool) -> dict[str, Attr]:
    def flag(desc: str) -> Attr:
        return Attr(BOOL, description=desc, optional=True, computed=True, default=True,
                    requires_replace=True)

    def minimum(what: str) -> Attr:
        return Attr(NUMBER, description=f"Minimum number of {what} in the result. Default "
                    "value is `0`.", optional=True, computed=True, default=0,
                    requires_replace=True)

    fields: dict[str, Attr] = {
        "keepers": KEEPERS,
        "length": Attr(NUMBER, description="The length of the string desired. The minimum "
                       "value for length is 1 and, length must also be >= (`min_upper` + "
                       "`min_lower` + `min_numeric` + `min_special`).", required=True,
                       requires_replace=True),
        "special": flag("Include special characters in the result. These are "
                        "`!@#$%&*()-_=+[]{}<>:?`. Default value is `true`."),
        "upper": flag("Include uppercase alphabet characters in the result. Default value is "
                      "`true`."),
        "lower": flag("Include lowercase alphabet characters in the result. Default value is "
                      "`true`."),
        "number": Attr(BOOL, description="Include numeric characters in the result. Default "
                       "value is `true`. If `number`, `upper`, `lower`, and `special` are all "
                       "configured, at least one of them must be set to `true`.",
                       deprecated="**NOTE**: This is deprecated, use `numeric` instead.",
                       optional=True, computed=True, requires_replace=True),
        "numeric": Attr(BOOL, description="Include numeric characters in the result. Default "
                        "value is `true`. If `numeric`, `upper`, `lower`, and `special` are all "
                        "configured, at least one of them must be set to `true`.",
                        optional=True, computed=True, requires_replace=True),
        "min_numeric": minimum("numeric characters"),
        "min_upper": minimum("uppercase alphabet characters"),
        "min_lower": minimum("lowercase alphabet characters"),
        "min_special": minimum("special characters"),
        "override_special": Attr(STRING, description="Supply your own list of special "
                                 "characters to use for string generation.  This overrides the "
                                 "default character list in the special argument.  The "
                                 "`special` argument must still be set to true for any "
                                 "overwritten characters to be used in generation.",
                                 optional=True, requires_replace=True),
        "result": Attr(STRING, description="The generated random string.", computed=True,
                       sensitive=sensitive, use_state_for_unknown=True),
        "id": Attr(STRING, description="A static value used internally by Terraform, this "
                   "should not be referenced in configurations." if sensitive else
                   "The generated random string.", computed=True,
                   use_state_for_unknown=True),
    }
    return fields


class _RandomStringBase(Resource):
    sensitive = False

    def validate(self, config: Obj) -> Iterable[Any]:
        length = config["length"]
        if not isinstance(length, int):
            return []
        if length < 1:
            return [error("Invalid Attribute Value",
                          f"Attribute length value must be at least 1, got: {length}", "length")]
        mins = [0 if config[m] is None else config[m] for m in _MINS]
        if all(isinstance(m, int) for m in mins) and length < sum(mins):
            return [error("Invalid Attribute Value",
                          f"Attribute length value must be at least sum of min_upper + "
                          f"min_lower + min_numeric + min_special, got: {length}", "length")]
        return []

    def modify_plan(self, plan: Plan) -> Iterable[Any]:
        number, numeric = plan.config.value("number"), plan.config.value("numeric")
        if numeric.is_null and not number.is_null:
            plan.set("numeric", plan["number"])
        elif number.is_null and not numeric.is_null:
            plan.set("number", plan["numeric"])
        elif number.is_null and numeric.is_null:
            for name in ("number", "numeric"):
                prior = plan.prior.value(name) if plan.prior is not None else None
                plan.set(name, prior if prior is not None and not prior.is_null else True)
        return []

    def _result(self, planned: Obj) -> str:
        return generate(
            int(planned["length"]), upper=planned["upper"], lower=planned["lower"],
            numeric=planned["numeric"], special=planned["special"],
            min_upper=int(planned["min_upper"]), min_lower=int(planned["min_lower"]),
            min_numeric=int(planned["min_numeric"]), min_special=int(planned["min_special"]),
            override_special=planned["override_special"])

    def create(self, planned: Obj) -> dict[str, Any]:
        result = self._result(planned)
        return {"result": result, "id": result}

    def import_state(self, id: str) -> dict[str, Any]:
        out = dict(_DEFAULTS)
        out.update(id=id, result=id, length=len(id))
        return out

    def upgrade_state(self, version: int, state: dict[str, Any]) -> dict[str, Any]:
        out = dict(state)
        for k, v in _DEFAULTS.items():
            if out.get(k) is None:
                out[k] = out.get("number", v) if k == "numeric" else v
        return out


class RandomString(_RandomStringBase):
    type_name = "random_string"
    schema_version = 2
    description = (
        "The resource `random_string` generates a random permutation of alphanumeric "
        "characters and optionally special characters.\n\nThis resource *does* use a "
        "cryptographic random number generator.\n\nHistorically this resource's intended "
        "usage has been ambiguous as the original example used it in a password. For backwards "
        "compatibility it will continue to exist. For unique ids please use "
        "[random_id](id.html), for sensitive random values please use "
        "[random_password](password.html)."
    )
    fields = _fields(sensitive=False)


class RandomPassword(_RandomStringBase):
    type_name = "random_password"
    schema_version = 3
    sensitive = True
    description = (
        "Identical to [random_string](string.html) with the exception that the result is "
        "treated as sensitive and, thus, _not_ displayed in console output. Read more about "
        "sensitive data handling in the [Terraform documentation](https://developer.hashicorp."
        "com/terraform/language/state/sensitive-data).\n\nThis resource *does* use a "
        "cryptographic random number generator."
    )
    fields = {
        **_fields(sensitive=True),
        "bcrypt_hash": Attr(STRING, description="A bcrypt hash of the generated random "
                            "string. **NOTE**: If the generated random string is greater than "
                            "72 bytes in length, `bcrypt_hash` will contain a hash of the first "
                            "72 bytes.", computed=True, sensitive=True,
                            use_state_for_unknown=True),
    }

    def create(self, planned: Obj) -> dict[str, Any]:
        result = self._result(planned)
        return {"result": result, "id": "none", "bcrypt_hash": bcrypt_hash(result)}

    def import_state(self, id: str) -> dict[str, Any]:
        out = super().import_state(id)
        out.update(id="none", bcrypt_hash=bcrypt_hash(id))
        return out

    def upgrade_state(self, version: int, state: dict[str, Any]) -> dict[str, Any]:
        out = super().upgrade_state(version, state)
        if not out.get("bcrypt_hash") and isinstance(out.get("result"), str):
            out["bcrypt_hash"] = bcrypt_hash(out["result"])
        return out
