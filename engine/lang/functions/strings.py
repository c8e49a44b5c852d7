"""Built-in string functions (Terraform 1.11).

chomp, endswith, format, formatlist, indent, join, lower, regex, regexall, replace, split,
startswith, strcontains, strrev, substr, title, trim, trimprefix, trimsuffix,
trimspace, upper. Characters are counted in grapheme clusters where Terraform does
(`strrev`, `substr`); regular expressions use RE2 syntax (see strings_regex).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Sequence

from engine.lang.functions.base import Function, FunctionError, Param, refine_results, static_return
from engine.lang.functions.numeric import whole_int
from engine.lang.functions.strings_format import FUNCTIONS as FORMAT_FUNCTIONS
from engine.lang.functions.strings_regex import (
    RE2Error,
    compile_re2,
    find_all,
    replace_all,
)
from engine.source.graphemes import graphemes
from engine.values import (
    BOOL,
    DYNAMIC,
    FALSE,
    NUMBER,
    STRING,
    TRUE,
    UNKNOWN,
    ListType,
    ObjectType,
    TupleType,
    Type,
    Value,
    boolean,
    list_,
    null,
    object_,
    string,
    tuple_,
    unknown,
)
from engine.values.refinement import value_range

_GO_SPACE = "\t\n\v\f\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000"


def _map_runes(text: str, fn: Callable[[str], str]) -> str:
    """Apply a per-character case mapping, keeping characters whose mapping is not one rune
    (Go's unicode.ToUpper/ToLower never expand a character)."""
    if text.isascii():
        return fn(text)
    out = []
    for ch in text:
        mapped = fn(ch)
        out.append(mapped if len(mapped) == 1 else ch)
    return "".join(out)


def _is_separator(ch: str) -> bool:
    """Go strings.Title's word-separator test."""
    if ord(ch) <= 0x7F:
        return not (ch.isalnum() or ch == "_")
    cat = unicodedata.category(ch)
    if cat.startswith("L") or cat == "Nd":
        return False
    return ch in _GO_SPACE


def go_title(text: str) -> str:
    prev = " "
    out = []
    for ch in text:
        if _is_separator(prev):
            mapped = ch.title()
            out.append(mapped if len(mapped) == 1 else ch)
        else:
            out.append(ch)
        prev = ch
    return "".join(out)


def _str_fn(name: str, params: tuple[str, ...], fn: Callable[..., object], ret: Type,
            description: str) -> Function:
    def impl(args: Sequence[Value], ret_type: Type) -> Value:
        result = fn(*(a.v for a in args))
        if isinstance(result, bool):
            return boolean(result)
        assert isinstance(result, str)
        return string(result)

    return Function(
        name=name,
        params=tuple(Param(p, STRING) for p in params),
        impl=impl,
        return_type=static_return(ret),
        description=description,
    )


def _startswith(args: Sequence[Value], ret: Type) -> Value:
    """terraform's startswith: an unknown str with a known prefix may still decide it."""
    text, prefix = args[0], args[1].v
    if text.v is not UNKNOWN:
        return boolean(text.v.startswith(prefix))
    if prefix == "":
        return TRUE
    known = value_range(text).string_prefix()
    if known:
        if known.startswith(prefix):
            return TRUE
        if len(known.encode()) >= len(prefix.encode()):
            return FALSE
    return Value(BOOL, UNKNOWN)


_CHOMP_RE = re.compile(r"(?:\r\n?|\n)*\Z")


def _chomp(s: str) -> str:
    return _CHOMP_RE.sub("", s, count=1)


def _indent(args: Sequence[Value], ret: Type) -> Value:
    spaces = whole_int(args[0])
    if spaces < 0:
        raise FunctionError("panic in function implementation: strings: negative Repeat count")
    return string(args[1].v.replace("\n", "\n" + " " * spaces))


def _join(args: Sequence[Value], ret: Type) -> Value:
    sep = args[0].v
    lists = args[1:]
    if not lists:
        raise FunctionError("at least one list is required")
    for lst in lists:
        if not lst.is_wholly_known():
            return unknown(STRING)
    items: list[str] = []
    marks: set[str] = set()
    for ai, lst in enumerate(lists):
        for ei, el in enumerate(lst.v):
            if el.v is None:
                if len(lists) > 1:
                    raise FunctionError(
                        f"element {ei} of list {ai + 1} is null; cannot concatenate null values",
                        ai + 1,
                    )
                raise FunctionError(
                    f"element {ei} is null; cannot concatenate null values", ai + 1
                )
            marks |= el.marks
            items.append(el.v)
    return string(sep.join(items)).with_marks(frozenset(marks))


def _split(args: Sequence[Value], ret: Type) -> Value:
    sep, s = args[0].v, args[1].v
    parts = list(s) if sep == "" else s.split(sep)
    return Value(ListType(STRING), [string(p) for p in parts])


def _strrev(args: Sequence[Value], ret: Type) -> Value:
    return string("".join(reversed(graphemes(args[0].v))))


def _substr(args: Sequence[Value], ret: Type) -> Value:
    text: str = args[0].v
    offset = whole_int(args[1])
    length = whole_int(args[2])
    clusters = graphemes(text)
    if offset < 0:
        offset += len(clusters)
    elif length == 0:
        return string("")
    if offset > 0:
        if offset >= len(clusters):
            return string("")
        clusters = clusters[offset:]
    if length < 0:
        return string("".join(clusters))
    return string("".join(clusters[:length]))


def _replace(args: Sequence[Value], ret: Type) -> Value:
    s, substr, repl = args[0].v, args[1].v, args[2].v
    if len(substr) > 1 and substr[0] == "/" and substr[-1] == "/":
        try:
            compiled = compile_re2(substr[1:-1])
        except RE2Error as exc:
            raise FunctionError(f"error parsing regexp: {exc}") from None
        return string(replace_all(compiled.regex, compiled.names, s, repl))
    if substr == "":
        return string(_go_replace_empty(s, repl))
    return string(s.replace(substr, repl))


def _go_replace_empty(s: str, repl: str) -> str:
    """Go's strings.Replace with an empty needle: the replacement around every rune."""
    return repl + "".join(ch + repl for ch in s)


# ------------------------------------------------------------------------------ regex
def _pattern_type(pattern: str) -> Type:
    try:
        compiled = compile_re2(pattern)
    except RE2Error as exc:
        raise FunctionError(f"invalid regexp pattern: {exc}", 0) from None
    names = compiled.names
    unnamed = sum(1 for n in names if not n)
    named = [n for n in names if n]
    if not names:
        return STRING
    if unnamed and named:
        raise FunctionError(
            "invalid regexp pattern: cannot mix both named and unnamed capture groups", 0
        )
    if unnamed:
        return TupleType([STRING] * unnamed)
    return ObjectType(dict.fromkeys(named, STRING))


def _match_value(m: re.Match[str], names: list[str], t: Type) -> Value:
    if t == STRING:
        return string(m.group(0))
    groups = [
        string(g) if g is not None else null(STRING) for g in m.groups()
    ]
    if isinstance(t, TupleType):
        return tuple_(groups)
    return object_(dict(zip(names, groups)))


def _regex_type(args: Sequence[Value]) -> Type:
    if not args[0].is_known:
        return DYNAMIC
    return _pattern_type(args[0].v)


def _regex(args: Sequence[Value], ret: Type) -> Value:
    if ret == DYNAMIC:
        return unknown(DYNAMIC)
    compiled = compile_re2(args[0].v)
    m = compiled.regex.search(args[1].v)
    if m is None:
        raise FunctionError("pattern did not match any part of the given string")
    return _match_value(m, compiled.names, ret)


def _regexall_type(args: Sequence[Value]) -> Type:
    if not args[0].is_known:
        return ListType(DYNAMIC)
    return ListType(_pattern_type(args[0].v))


def _regexall(args: Sequence[Value], ret: Type) -> Value:
    assert isinstance(ret, ListType)
    ety = ret.element
    if ety == DYNAMIC:
        return unknown(DYNAMIC)
    compiled = compile_re2(args[0].v)
    matches = find_all(compiled.regex, args[1].v)
    elems = [_match_value(m, compiled.names, ety) for m in matches]
    return list_(elems, ety)


_REGEX_PARAMS = (Param("pattern", STRING), Param("string", STRING))

FUNCTIONS: list[Function] = refine_results([
    _str_fn("chomp", ("str",), _chomp, STRING, "Removes newline characters at the end."),
    _str_fn("endswith", ("str", "suffix"), str.endswith, BOOL, "Whether str ends with suffix."),
    Function(
        name="startswith",
        params=(Param("str", STRING, allow_unknown=True), Param("prefix", STRING)),
        impl=_startswith,
        return_type=static_return(BOOL),
        description="Whether str starts with prefix.",
    ),
    _str_fn("strcontains", ("str", "substr"), str.__contains__, BOOL,
            "Whether str contains substr."),
    _str_fn("lower", ("str",), lambda s: _map_runes(s, str.lower), STRING,
            "Converts letters to lowercase."),
    _str_fn("upper", ("str",), lambda s: _map_runes(s, str.upper), STRING,
            "Converts letters to uppercase."),
    _str_fn("title", ("str",), go_title, STRING, "Capitalizes the first letter of each word."),
    _str_fn("trim", ("str", "cutset"), lambda s, c: s.strip(c), STRING,
            "Removes the given characters from both ends."),
    _str_fn("trimprefix", ("str", "prefix"), lambda s, p: s[len(p):] if s.startswith(p) else s,
            STRING, "Removes the prefix, if present."),
    _str_fn("trimsuffix", ("str", "suffix"),
            lambda s, x: s[: len(s) - len(x)] if x and s.endswith(x) else s,
            STRING, "Removes the suffix, if present."),
    _str_fn("trimspace", ("str",), lambda s: s.strip(_GO_SPACE), STRING,
            "Removes white space from both ends."),
    Function(
        name="indent",
        params=(Param("spaces", NUMBER), Param("str", STRING)),
        impl=_indent,
        return_type=static_return(STRING),
        description="Adds spaces to the beginning of all but the first line.",
    ),
    Function(
        name="join",
        params=(Param("separator", STRING),),
        var_param=Param("lists", ListType(STRING)),
        impl=_join,
        return_type=static_return(STRING),
        description="Concatenates the elements of the given lists with a separator.",
    ),
    Function(
        name="split",
        params=(Param("separator", STRING), Param("str", STRING)),
        impl=_split,
        return_type=static_return(ListType(STRING)),
        description="Divides a string at each occurrence of a separator.",
    ),
    Function(
        name="strrev",
        params=(Param("str", STRING),),
        impl=_strrev,
        return_type=static_return(STRING),
        description="Reverses the characters of a string.",
    ),
    Function(
        name="substr",
        params=(Param("str", STRING), Param("offset", NUMBER), Param("length", NUMBER)),
        impl=_substr,
        return_type=static_return(STRING),
        description="Extracts a substring by character offset and length.",
    ),
    Function(
        name="replace",
        params=(Param("str", STRING), Param("substr", STRING), Param("replace", STRING)),
        impl=_replace,
        return_type=static_return(STRING),
        description="Replaces each occurrence of a substring (or /regex/ match).",
    ),
    Function(
        name="regex",
        params=_REGEX_PARAMS,
        impl=_regex,
        return_type=_regex_type,
        description="Applies a regular expression and returns the first match.",
    ),
    Function(
        name="regexall",
        params=_REGEX_PARAMS,
        impl=_regexall,
        return_type=_regexall_type,
        description="Applies a regular expression and returns all matches.",
    ),
    *FORMAT_FUNCTIONS,
], unrefined=("strcontains",))
