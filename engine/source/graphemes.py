"""Splitting text into user-perceived characters (extended grapheme clusters).

Terraform measures strings in grapheme clusters (`length`, `substr`, `strrev`, `format` widths),
following Unicode's UAX #29. This module implements the rules that matter in practice: CR LF,
controls, combining marks and other extenders, zero-width joiner emoji sequences, emoji
modifiers, regional-indicator flag pairs and Hangul syllable sequences.
"""

from __future__ import annotations

import unicodedata

_ZWJ = "\u200d"


def _is_control(ch: str) -> bool:
    if ch in "\r\n":
        return True
    cat = unicodedata.category(ch)
    if cat in ("Cc", "Zl", "Zp"):
        return True
    return cat == "Cf" and ch not in (_ZWJ, "\u200c") and not 0xE0020 <= ord(ch) <= 0xE007F


def _is_extend(ch: str) -> bool:
    cp = ord(ch)
    if ch in (_ZWJ, "\u200c"):
        return True
    if 0xFE00 <= cp <= 0xFE0F or 0xE0100 <= cp <= 0xE01EF:  # variation selectors
        return True
    if 0x1F3FB <= cp <= 0x1F3FF or 0xE0020 <= cp <= 0xE007F:  # skin tones, tags
        return True
    return unicodedata.category(ch) in ("Mn", "Me", "Mc")


def _is_regional(ch: str) -> bool:
    return 0x1F1E6 <= ord(ch) <= 0x1F1FF


def _is_pictographic(ch: str) -> bool:
    cp = ord(ch)
    return (
        0x1F000 <= cp <= 0x1FAFF
        or 0x2600 <= cp <= 0x27BF
        or 0x2300 <= cp <= 0x23FF
        or 0x2B00 <= cp <= 0x2BFF
        or cp in (0x00A9, 0x00AE, 0x203C, 0x2049, 0x2122, 0x2139, 0x3030, 0x303D)
    )


def _hangul(ch: str) -> str:
    cp = ord(ch)
    if 0x1100 <= cp <= 0x115F or 0xA960 <= cp <= 0xA97C:
        return "L"
    if 0x1160 <= cp <= 0x11A7 or 0xD7B0 <= cp <= 0xD7C6:
        return "V"
    if 0x11A8 <= cp <= 0x11FF or 0xD7CB <= cp <= 0xD7FB:
        return "T"
    if 0xAC00 <= cp <= 0xD7A3:
        return "LV" if (cp - 0xAC00) % 28 == 0 else "LVT"
    return ""


def _joins(prev: str, ch: str, cluster: str, ri_count: int) -> bool:
    """Whether `ch` continues the cluster that ends with `prev`."""
    if prev == "\r" and ch == "\n":
        return True
    if _is_control(prev) or _is_control(ch):
        return False
    hp, hc = _hangul(prev), _hangul(ch)
    if hp and hc:
        if hp == "L" and hc in ("L", "V", "LV", "LVT"):
            return True
        if hp in ("LV", "V") and hc in ("V", "T"):
            return True
        if hp in ("LVT", "T") and hc == "T":
            return True
    if _is_extend(ch):
        return True
    if unicodedata.category(ch) == "Mc":
        return True
    if prev == _ZWJ and _is_pictographic(ch) and any(_is_pictographic(c) for c in cluster):
        return True
    return _is_regional(prev) and _is_regional(ch) and ri_count % 2 == 1


def graphemes(text: str) -> list[str]:
    """The grapheme clusters of `text`, in order; joining them gives back `text`."""
    out: list[str] = []
    cluster = ""
    ri = 0
    for ch in text:
        if cluster and _joins(cluster[-1], ch, cluster, ri):
            cluster += ch
        else:
            if cluster:
                out.append(cluster)
            cluster = ch
            ri = 0
        ri = ri + 1 if _is_regional(ch) else 0
    if cluster:
        out.append(cluster)
    return out


def grapheme_count(text: str) -> int:
    """Number of grapheme clusters in `text` (fast path for ASCII)."""
    if text.isascii() and "\r\n" not in text:
        return len(text)
    return len(graphemes(text))
