"""Splitting address strings into steps: names and bracketed keys.

`module.a["k"].aws_s3_bucket.b[0]` becomes `[("name","module"), ("name","a"), ("key","k"),
("name","aws_s3_bucket"), ("name","b"), ("key",0)]`. Used by every `parse_*` function in
this package; errors are returned as messages for the caller to turn into diagnostics.
"""

from __future__ import annotations

import json
import re

from engine.addrs.keys import InstanceKey

_NAME = re.compile(r"[^\W\d][\w-]*")
_INT = re.compile(r"-?[0-9]+")
_STR = re.compile(r'"(?:[^"\\]|\\.)*"')

Step = tuple[str, "str | InstanceKey"]


class AddressSyntaxError(ValueError):
    """An address string that does not parse; the message says why, as terraform does."""


def split_steps(text: str) -> list[Step]:
    steps: list[Step] = []
    pos = 0
    n = len(text)
    expect_name = True
    while pos < n:
        ch = text[pos]
        if ch == "[":
            if not steps:
                raise AddressSyntaxError("An address must start with a name.")
            pos += 1
            m = _INT.match(text, pos)
            key: InstanceKey
            if m:
                key = int(m.group())
            else:
                m = _STR.match(text, pos)
                if not m:
                    raise AddressSyntaxError(
                        "Index key must be a number or a quoted string."
                    )
                key = json.loads(m.group())
            pos = m.end()
            if pos >= n or text[pos] != "]":
                raise AddressSyntaxError("Missing close bracket on index.")
            pos += 1
            steps.append(("key", key))
            expect_name = False
            continue
        if ch == ".":
            if expect_name:
                raise AddressSyntaxError("Dot must be followed by an attribute name.")
            pos += 1
            expect_name = True
            continue
        if not expect_name:
            raise AddressSyntaxError(f"Unexpected character {ch!r} in address.")
        m = _NAME.match(text, pos)
        if not m:
            raise AddressSyntaxError(f"Unexpected character {ch!r} in address.")
        steps.append(("name", m.group()))
        pos = m.end()
        expect_name = False
    if expect_name:
        raise AddressSyntaxError("An address must not be empty or end with a dot.")
    return steps
