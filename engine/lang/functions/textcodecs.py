"""The IANA character encodings that `textencodebase64`/`textdecodebase64` accept.

Names and aliases are matched case-insensitively as Go's `ianaindex.IANA` does; `name` is the
canonical IANA name used in error messages. Encoding fails on characters the target cannot
represent; decoding gives None or text with U+FFFD where the bytes are not defined.
"""

from __future__ import annotations

import codecs
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class TextEncoding:
    """A character encoding textencodebase64/textdecodebase64 accept: its name, Python codec and
    byte-order mark."""

    name: str
    codec: str
    bom: bytes = b""

    def encode(self, text: str) -> bytes:
        """`text` in this encoding; raises UnicodeError for unrepresentable characters."""
        return self.bom + codecs.encode(text, self.codec, "strict")

    def decode(self, data: bytes) -> str | None:
        """`data` decoded, invalid sequences as U+FFFD."""
        codec = self.codec
        if self.bom:
            if data.startswith(b"\xff\xfe"):
                codec, data = "utf-16-le", data[2:]
            elif data.startswith(b"\xfe\xff"):
                data = data[2:]
        try:
            return codecs.decode(data, codec, "replace")
        except (UnicodeError, LookupError):
            return None


_TABLE: list[tuple[str, str, tuple[str, ...]]] = [
    ("UTF-8", "utf-8", ("csUTF8",)),
    ("UTF-16BE", "utf-16-be", ("csUTF16BE",)),
    ("UTF-16LE", "utf-16-le", ("csUTF16LE",)),
    ("ISO-8859-1", "latin-1", ("iso-ir-100", "ISO_8859-1", "latin1", "l1", "IBM819", "CP819",
                               "csISOLatin1", "ISO_8859-1:1987")),
    ("ISO-8859-2", "iso8859-2", ("iso-ir-101", "ISO_8859-2", "latin2", "l2", "csISOLatin2",
                                 "ISO_8859-2:1987")),
    ("ISO-8859-3", "iso8859-3", ("iso-ir-109", "ISO_8859-3", "latin3", "l3", "csISOLatin3")),
    ("ISO-8859-4", "iso8859-4", ("iso-ir-110", "ISO_8859-4", "latin4", "l4", "csISOLatin4")),
    ("ISO-8859-5", "iso8859-5", ("iso-ir-144", "ISO_8859-5", "cyrillic", "csISOLatinCyrillic")),
    ("ISO-8859-6", "iso8859-6", ("iso-ir-127", "ISO_8859-6", "arabic", "csISOLatinArabic")),
    ("ISO-8859-7", "iso8859-7", ("iso-ir-126", "ISO_8859-7", "greek", "greek8",
                                 "csISOLatinGreek")),
    ("ISO-8859-8", "iso8859-8", ("iso-ir-138", "ISO_8859-8", "hebrew", "csISOLatinHebrew")),
    ("ISO-8859-9", "iso8859-9", ("iso-ir-148", "ISO_8859-9", "latin5", "l5", "csISOLatin5")),
    ("ISO-8859-10", "iso8859-10", ("iso-ir-157", "l6", "ISO_8859-10:1992", "csISOLatin6",
                                   "latin6")),
    ("ISO-8859-13", "iso8859-13", ("csISO885913",)),
    ("ISO-8859-14", "iso8859-14", ("iso-ir-199", "ISO_8859-14", "latin8", "l8",
                                   "csISO885914")),
    ("ISO-8859-15", "iso8859-15", ("ISO_8859-15", "Latin-9", "csISO885915")),
    ("ISO-8859-16", "iso8859-16", ("iso-ir-226", "ISO_8859-16", "latin10", "l10",
                                   "csISO885916")),
    ("KOI8-R", "koi8-r", ("csKOI8R",)),
    ("KOI8-U", "koi8-u", ("csKOI8U",)),
    ("IBM437", "cp437", ("cp437", "437", "csPC8CodePage437")),
    ("IBM850", "cp850", ("cp850", "850", "csPC850Multilingual")),
    ("IBM852", "cp852", ("852", "csPCp852")),
    ("IBM855", "cp855", ("cp855", "855", "csIBM855")),
    ("IBM866", "cp866", ("cp866", "866", "csIBM866")),
    ("macintosh", "mac-roman", ("mac", "csMacintosh")),
    ("windows-874", "cp874", ("cswindows874",)),
    ("windows-1250", "cp1250", ("cswindows1250",)),
    ("windows-1251", "cp1251", ("cswindows1251",)),
    ("windows-1252", "cp1252", ("cswindows1252",)),
    ("windows-1253", "cp1253", ("cswindows1253",)),
    ("windows-1254", "cp1254", ("cswindows1254",)),
    ("windows-1255", "cp1255", ("cswindows1255",)),
    ("windows-1256", "cp1256", ("cswindows1256",)),
    ("windows-1257", "cp1257", ("cswindows1257",)),
    ("windows-1258", "cp1258", ("cswindows1258",)),
    ("Shift_JIS", "shift_jis", ("MS_Kanji", "csShiftJIS")),
    ("EUC-JP", "euc_jp", ("csEUCPkdFmtJapanese", "Extended_UNIX_Code_Packed_Format_for_Japanese")),
    ("ISO-2022-JP", "iso2022_jp", ("csISO2022JP",)),
    ("EUC-KR", "euc_kr", ("csEUCKR",)),
    ("GBK", "gbk", ("CP936", "MS936", "windows-936", "csGBK")),
    ("GB18030", "gb18030", ("csGB18030",)),
    ("Big5", "big5", ("csBig5",)),
]

_INDEX: dict[str, TextEncoding] = {}
for _name, _codec, _aliases in _TABLE:
    _enc = TextEncoding(_name, _codec)
    for _alias in (_name, *_aliases):
        _INDEX[_alias.lower()] = _enc
_INDEX["utf-16"] = TextEncoding("UTF-16", "utf-16-be", b"\xfe\xff")
_INDEX["csutf16"] = _INDEX["utf-16"]


def lookup_encoding(name: str) -> TextEncoding | None:
    """The encoding named `name` (an IANA name or alias), or None when unsupported."""
    return _INDEX.get(name.lower())
