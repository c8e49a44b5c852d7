"""IP network functions. Expected values and messages were produced by the real terraform
v1.11.4 (`terraform console`)."""

from __future__ import annotations

import pytest

from engine.lang import EvalContext
from engine.lang.functions import function_table
from engine.values import STRING, ListType
from tests.unit.lang.helpers import default_vars, only_error, show, value


def fctx() -> EvalContext:
    return EvalContext(default_vars(), function_table("."))


CASES = [
    ('cidrhost("10.0.0.0/8", -1)', '"10.255.255.255"'),
    ('cidrhost("10.12.112.0/20", 268)', '"10.12.113.12"'),
    ('cidrhost("fd00:fd12:3456:7890::/56", 16)', '"fd00:fd12:3456:7800::10"'),
    ('cidrhost("010.0.0.0/8", 1)', '"10.0.0.1"'),
    ('cidrnetmask("172.16.0.0/12")', '"255.240.0.0"'),
    ('cidrsubnet("10.0.0.1/8", 8, 2)', '"10.2.0.0/16"'),
    ('cidrsubnet("fe80::/64", 16, 3)', '"fe80::3:0:0:0/80"'),
    ('cidrsubnet("10.0.0.0/8", -1, 0)', '"10.0.0.0/7"'),
    ('cidrsubnet("10.0.0.0/8", 4, -1)', '"0.16.0.0/12"'),
    ('cidrsubnets("10.1.0.0/16", 4, 4, 8, 4)',
     'tolist([\n  "10.1.0.0/20",\n  "10.1.16.0/20",\n  "10.1.32.0/24",\n  "10.1.48.0/20",\n])'),
    ('cidrsubnets("fe80::/64", 16, 16)', 'tolist([\n  "fe80::/80",\n  "fe80::1:0:0:0/80",\n])'),
    ('cidrsubnets("10.0.0.0/8")', "tolist([])"),
]


@pytest.mark.parametrize(("src", "want"), CASES)
def test_ipnet_values(src: str, want: str) -> None:
    assert show(src, fctx()) == want


ERRORS = [
    ('cidrhost("10.0.0.0/30", 5)', "Error in function call",
     'Call to function "cidrhost" failed: prefix of 30 does not accommodate a host numbered 5.'),
    ('cidrhost("10.0.0.0/8", -16777217)', "Error in function call",
     'Call to function "cidrhost" failed: prefix of 8 does not accommodate a host numbered -1.'),
    ('cidrhost("10.0.0.0/8", 1.5)', "Error in function call",
     'Call to function "cidrhost" failed: value must be a whole number.'),
    ('cidrhost("10.0.0.0/33", 3)', "Error in function call",
     'Call to function "cidrhost" failed: invalid CIDR expression: invalid CIDR address: 10.0.0.0/33.'),
    ('cidrhost("1.2.3.4.5/8", 3)', "Error in function call",
     'Call to function "cidrhost" failed: invalid CIDR expression: invalid CIDR address: 1.2.3.4.5/8.'),
    ('cidrsubnet("10.0.0.0/8", 30, 1)', "Error in function call",
     'Call to function "cidrsubnet" failed: insufficient address space to extend prefix of 8 by 30.'),
    ('cidrsubnet("10.0.0.0/8", 8, 300)', "Error in function call",
     'Call to function "cidrsubnet" failed: prefix extension of 8 does not accommodate a subnet numbered 300.'),
    ('cidrsubnet("10.0.0.0/8", 1.5, 1)', "Error in function call",
     'Call to function "cidrsubnet" failed: value must be a whole number, between -9223372036854775808 and 9223372036854775807.'),
    ('cidrnetmask("fe80::/64")', "Error in function call",
     'Call to function "cidrnetmask" failed: IPv6 addresses cannot have a netmask: fe80::/64.'),
    ('cidrnetmask("10.0.0.0")', "Error in function call",
     'Call to function "cidrnetmask" failed: invalid CIDR expression: invalid CIDR address: 10.0.0.0.'),
    ('cidrsubnets("10.0.0.0/30", 1, 1, 1)', "Invalid function argument",
     'Invalid value for "newbits" parameter: not enough remaining address space for a subnet with a prefix of 31 bits after 10.0.0.2/31.'),
    ('cidrsubnets("10.0.0.0/8", 0)', "Invalid function argument",
     'Invalid value for "newbits" parameter: must extend prefix by at least one bit.'),
    ('cidrsubnets("10.0.0.0/8", 33)', "Invalid function argument",
     'Invalid value for "newbits" parameter: may not extend prefix by more than 32 bits.'),
    ('cidrsubnets("10.0.0.0/8", 25)', "Invalid function argument",
     'Invalid value for "newbits" parameter: would extend prefix to 33 bits, which is too long for an IPv4 address.'),
    ('cidrsubnets("10.0.0.0/8", 1.5)', "Invalid function argument",
     'Invalid value for "newbits" parameter: value must be a whole number, between -9223372036854775808 and 9223372036854775807.'),
]


@pytest.mark.parametrize(("src", "summary", "detail"), ERRORS)
def test_ipnet_errors(src: str, summary: str, detail: str) -> None:
    d = only_error(src, fctx())
    assert (d.summary, d.detail) == (summary, detail)


def test_unknown_and_sensitive_propagate() -> None:
    c = fctx()
    assert show("cidrhost(var.us, 1)", c) == "(known after apply)"
    assert value("cidrsubnets(var.us, 1)", c).type == ListType(STRING)
    assert show('cidrhost("10.0.0.0/8", var.sn)', c) == "(sensitive value)"
