"""Decoding template literal text: escapes in quoted strings, `$${`/`%%{` everywhere.

Mirrors HCL's ParseStringLiteralToken: in a quoted string, `\\n \\r \\t \\" \\\\`, `\\uXXXX`
and `\\UXXXXXXXX` are escapes and any other backslash sequence is an error; in heredocs and
bare templates backslashes are literal. In both, `$${` and `%%{` stand for `${` and `%{`.
"""

from __future__ import annotations

import re

from engine.diags import Diagnostic, error
from engine.gocompat.strconv import quote as go_quote
from engine.source import Range, SourceFile

_QUOTED_SEQ = re.compile(r"\\(?:u[0-9a-fA-F]{0,4}|U[0-9a-fA-F]{0,8}|[\s\S])?|\$\$\{|%%\{")
_BARE_SEQ = re.compile(r"\$\$\{|%%\{")
_SIMPLE = {"n": "\n", "r": "\r", "t": "\t", '"': '"', "\\": "\\"}


def decode_literal(
    file: SourceFile, start: int, end: int, quoted: bool, diags: list[Diagnostic]
) -> str:
    """The string a literal token (text[start:end]) stands for; errors go to `diags`."""
    text = file.text
    raw = text[start:end]
    if "\\" not in raw and "$${" not in raw and "%%{" not in raw:
        return raw
    pattern = _QUOTED_SEQ if quoted else _BARE_SEQ
    out: list[str] = []
    pos = 0
    for m in pattern.finditer(raw):
        seq = m.group(0)
        out.append(raw[pos : m.start()])
        pos = m.end()
        if seq[0] != "\\":
            out.append(seq[0] + "{")
            continue
        rng = Range(file, start + m.start(), start + m.end())
        if len(seq) < 2:
            diags.append(
                error(
                    "Invalid escape sequence",
                    "Backslash must be followed by an escape sequence selector character.",
                    rng,
                )
            )
            out.append(seq)
            continue
        sel = seq[1]
        if sel in _SIMPLE:
            out.append(_SIMPLE[sel])
        elif sel in "uU":
            want = 4 if sel == "u" else 8
            if len(seq) != want + 2:
                which = "four" if sel == "u" else "eight"
                diags.append(
                    error(
                        "Invalid escape sequence",
                        f"The \\{sel} escape sequence must be followed by {which} hexadecimal "
                        "digits.",
                        rng,
                    )
                )
                out.append(seq)
                continue
            num = int(seq[2:], 16)
            if num > 0x10FFFF or 0xD800 <= num <= 0xDFFF:
                diags.append(
                    error(
                        "Invalid escape sequence",
                        f"Cannot encode character U+{num:04x} in UTF-8.",
                        rng,
                    )
                )
                out.append(seq)
                continue
            out.append(chr(num))
        else:
            diags.append(
                error(
                    "Invalid escape sequence",
                    f"The symbol {go_quote(seq[1:])} is not a valid escape sequence selector.",
                    rng,
                )
            )
            out.append(seq[1:])
    out.append(raw[pos:])
    return "".join(out)
