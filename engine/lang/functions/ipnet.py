"""Built-in functions: IP network arithmetic (cidrhost, cidrnetmask, cidrsubnet, cidrsubnets).

Addresses are handled as integers with the address length (32 or 128 bits), following
Terraform's `ipaddr.ParseCIDR` (Go's parser that accepts leading zeros in IPv4 octets) and
the `go-cidr` library's arithmetic, including its quirks for negative numbers.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Sequence
from dataclasses import dataclass

from engine.lang.functions.base import Function, FunctionError, Param, refine_results, static_return
from engine.values import NUMBER, STRING, ListType, Type, Value, list_, string

_V4 = re.compile(r"(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})")


@dataclass(frozen=True, slots=True)
class Network:
    """A parsed CIDR prefix: the masked address, its prefix length and the address length."""

    ip: int
    prefix: int
    bits: int

    def format_ip(self, ip: int) -> str:
        if self.bits == 32:
            return str(ipaddress.IPv4Address(ip & 0xFFFFFFFF))
        return str(ipaddress.IPv6Address(ip & ((1 << 128) - 1)))

    def format(self, ip: int, prefix: int) -> str:
        return f"{self.format_ip(ip)}/{prefix}"

    def mask(self, prefix: int) -> int:
        """The netmask for `prefix` bits as an integer."""
        prefix = max(0, min(prefix, self.bits))
        return ((1 << prefix) - 1) << (self.bits - prefix)

    def contains(self, ip: int) -> bool:
        m = self.mask(self.prefix)
        return ip & m == self.ip & m


def parse_cidr(text: str) -> Network:
    """Parse `a.b.c.d/n` or an IPv6 prefix; FunctionError with Terraform's text otherwise."""
    err = FunctionError(f"invalid CIDR expression: invalid CIDR address: {text}")
    addr, slash, plen = text.partition("/")
    if not slash or not plen.isdigit() or not plen.isascii():
        raise err
    m = _V4.fullmatch(addr)
    if m:
        octets = [int(g) for g in m.groups()]
        if any(o > 255 for o in octets):
            raise err
        ip = int.from_bytes(bytes(octets), "big")
        bits = 32
    else:
        if "%" in addr or ":" not in addr:
            raise err
        try:
            ip = int(ipaddress.IPv6Address(addr))
        except ValueError:
            raise err from None
        bits = 128
    prefix = int(plen)
    if prefix > bits:
        raise err
    net = Network(0, prefix, bits)
    return Network(ip & net.mask(prefix), prefix, bits)


_INT64 = 1 << 63


def whole(v: Value, arg_index: int | None = None, *, int64: bool = False) -> int:
    """The whole-number payload of a number Value, as gocty converts it to a Go `*big.Int`
    or (with `int64`) to an `int`, with gocty's error texts."""
    n = v.v
    if isinstance(n, float) and n == 0:
        n = 0
    in_range = isinstance(n, int) and (not int64 or -_INT64 <= n < _INT64)
    if in_range and not isinstance(n, bool):
        assert isinstance(n, int)
        return n
    if int64:
        raise FunctionError(
            "value must be a whole number, between -9223372036854775808 and 9223372036854775807",
            arg_index,
        )
    raise FunctionError("value must be a whole number", arg_index)


def _go_uint64(n: int) -> int:
    """big.Int.Uint64: the low 64 bits of |n|."""
    return abs(n) & ((1 << 64) - 1)


def _cidrhost(args: Sequence[Value], ret: Type) -> Value:
    num = whole(args[1])
    net = parse_cidr(args[0].v)
    host_len = net.bits - net.prefix
    max_host = (1 << host_len) - 1
    num_u = _go_uint64(num)
    if num < 0:
        num_u = -num - 1
        num = max_host - num_u
    if num_u > max_host:
        raise FunctionError(f"prefix of {net.prefix} does not accommodate a host numbered {num}")
    return string(net.format_ip(net.ip | num))


def _cidrnetmask(args: Sequence[Value], ret: Type) -> Value:
    net = parse_cidr(args[0].v)
    if net.bits != 32:
        raise FunctionError(f"IPv6 addresses cannot have a netmask: {args[0].v}")
    return string(net.format_ip(net.mask(net.prefix)))


def _cidrsubnet(args: Sequence[Value], ret: Type) -> Value:
    newbits = whole(args[1], int64=True)
    netnum = whole(args[2])
    net = parse_cidr(args[0].v)
    new_prefix = net.prefix + newbits
    if new_prefix > net.bits:
        raise FunctionError(
            f"insufficient address space to extend prefix of {net.prefix} by {newbits}"
        )
    max_net = ((1 << newbits) - 1) if 0 <= newbits < 64 else (1 << 64) - 1
    if _go_uint64(netnum) > max_net:
        raise FunctionError(
            f"prefix extension of {newbits} does not accommodate a subnet numbered {netnum}"
        )
    ip = net.ip | (netnum << (net.bits - new_prefix))
    return string(net.format(abs(ip), new_prefix))


def _cidrsubnets(args: Sequence[Value], ret: Type) -> Value:
    try:
        net = parse_cidr(args[0].v)
    except FunctionError as exc:
        raise FunctionError(exc.message, 0) from None
    lengths = args[1:]
    if not lengths:
        return list_([], STRING)
    modulus = 1 << net.bits
    first = whole(lengths[0], 1, int64=True) + net.prefix
    # go-cidr's PreviousSubnet: the subnet of `first` bits just below the base address
    cur_ip = ((net.ip - 1) % modulus) & net.mask(first)
    cur_prefix = first
    out: list[Value] = []
    for i, lv in enumerate(lengths, start=1):
        length = whole(lv, i, int64=True)
        if length < 1:
            raise FunctionError("must extend prefix by at least one bit", i)
        if length > 32:
            raise FunctionError("may not extend prefix by more than 32 bits", i)
        length += net.prefix
        if length > net.bits:
            proto = "IPv4" if net.bits == 32 else "IPv6"
            raise FunctionError(
                f"would extend prefix to {length} bits, which is too long for an {proto} address",
                i,
            )
        # go-cidr's NextSubnet
        last = cur_ip | (modulus - 1 - net.mask(cur_prefix))
        sub = last & net.mask(length)
        sub_last = sub | (modulus - 1 - net.mask(length))
        nxt = (sub_last + 1) % modulus
        rollover = nxt == 0
        nxt &= net.mask(length)
        if rollover or not net.contains(nxt):
            raise FunctionError(
                f"not enough remaining address space for a subnet with a prefix of {length} "
                f"bits after {net.format(cur_ip, cur_prefix)}",
                i,
            )
        cur_ip, cur_prefix = nxt, length
        out.append(string(net.format(cur_ip, cur_prefix)))
    return list_(out, STRING)


FUNCTIONS: list[Function] = refine_results([
    Function(
        "cidrhost",
        (Param("prefix", STRING), Param("hostnum", NUMBER)),
        _cidrhost,
        static_return(STRING),
    ),
    Function("cidrnetmask", (Param("prefix", STRING),), _cidrnetmask, static_return(STRING)),
    Function(
        "cidrsubnet",
        (Param("prefix", STRING), Param("newbits", NUMBER), Param("netnum", NUMBER)),
        _cidrsubnet,
        static_return(STRING),
    ),
    Function(
        "cidrsubnets",
        (Param("prefix", STRING),),
        _cidrsubnets,
        static_return(ListType(STRING)),
        var_param=Param("newbits", NUMBER),
    ),
])
