"""Source files and positions: the floor under `engine.hcl` and `engine.diags`.

Every syntax node carries a `Range` into the `SourceFile` it came from. Offsets are kept as
character offsets into the decoded text; line, column (1-based, counted in characters) and byte
offsets are derived on demand, so parsing pays for positions only when a message needs them.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass, field


@dataclass(eq=False, slots=True, weakref_slot=True)
class SourceFile:
    """One configuration file's name and decoded text."""

    filename: str
    text: str
    _line_starts: list[int] | None = field(default=None, repr=False)
    _ascii: bool | None = field(default=None, repr=False)

    @property
    def line_starts(self) -> list[int]:
        if self._line_starts is None:
            starts = [0]
            find = self.text.find
            i = find("\n")
            while i >= 0:
                starts.append(i + 1)
                i = find("\n", i + 1)
            self._line_starts = starts
        return self._line_starts

    def line_col(self, offset: int) -> tuple[int, int]:
        """1-based line and column (in characters) of a character offset."""
        starts = self.line_starts
        idx = bisect_right(starts, offset) - 1
        return idx + 1, offset - starts[idx] + 1

    def byte_offset(self, offset: int) -> int:
        """UTF-8 byte offset of a character offset."""
        if self._ascii is None:
            self._ascii = self.text.isascii()
        if self._ascii:
            return offset
        # bytes that were not UTF-8 are kept as lone surrogates: one byte each
        return len(self.text[:offset].encode("utf-8", "surrogateescape"))

    def snippet_file(self) -> SourceFile:
        """The file whose lines a diagnostic in this one shows (itself)."""
        return self

    def char_at_byte(self, byte: int) -> int:
        """The character offset at a byte offset (of the character holding that byte)."""
        if self._ascii is None:
            self._ascii = self.text.isascii()
        if self._ascii:
            return min(byte, len(self.text))
        seen = 0
        for i, c in enumerate(self.text):
            seen += 1 if c < "\x80" or "\udc80" <= c <= "\udcff" else len(c.encode("utf-8", "surrogatepass"))
            if seen > byte:
                return i
        return len(self.text)

    def line_text(self, line: int) -> str:
        """The text of a 1-based line, without its newline."""
        starts = self.line_starts
        if line < 1 or line > len(starts):
            return ""
        start = starts[line - 1]
        end = self.text.find("\n", start)
        text = self.text[start:] if end < 0 else self.text[start:end]
        if not text.isascii():
            # bytes that were not UTF-8 (kept as lone surrogates) show as terraform shows them
            text = "".join("\ufffd" if "\udc80" <= c <= "\udcff" else c for c in text)
        return text.rstrip("\r")


class JSONSourceFile(SourceFile):
    """A `.json` file: columns counted as HCL's JSON scanner counts them.

    That scanner counts a tab as two columns, a carriage return as none, each other byte
    outside strings as one, and each grapheme cluster inside a string as one (a quote and
    a backslash always on their own)."""

    __slots__ = ()

    def line_col(self, offset: int) -> tuple[int, int]:
        starts = self.line_starts
        idx = bisect_right(starts, offset) - 1
        start = starts[idx]
        if self._ascii is None:
            self._ascii = self.text.isascii()
        text = self.text
        if self._ascii or text[start:offset].isascii():
            width = offset - start + text.count("\t", start, offset) - text.count("\r", start, offset)
            return idx + 1, width + 1
        return idx + 1, json_columns(text[start:offset]) + 1


class EmbeddedSourceFile(SourceFile):
    """Text decoded from a piece of another file (a JSON string with escapes, read as a
    template), positioned as HCL positions it: its first character at `base` in `outer`,
    then lines and columns (grapheme clusters) advancing over the decoded text, and bytes
    counted in it. Diagnostics show the outer file's lines."""

    __slots__ = ("outer", "base")
    outer: SourceFile
    base: Pos

    def __init__(self, filename: str, text: str, outer: SourceFile, base: Pos) -> None:
        SourceFile.__init__(self, filename, text)
        self.outer = outer
        self.base = base

    def line_col(self, offset: int) -> tuple[int, int]:
        from engine.source.graphemes import grapheme_count

        starts = self.line_starts
        idx = bisect_right(starts, offset) - 1
        width = grapheme_count(self.text[starts[idx]:offset])
        return self.base.line + idx, (self.base.column if idx == 0 else 1) + width

    def byte_offset(self, offset: int) -> int:
        return self.base.byte + len(self.text[:offset].encode("utf-8", "surrogateescape"))

    def snippet_file(self) -> SourceFile:
        return self.outer.snippet_file()

    def line_text(self, line: int) -> str:
        return self.outer.line_text(line)


_JSON_RUN = re.compile(r'[^"\\\t\r]+|.', re.S)


def json_columns(segment: str) -> int:
    """The columns HCL's JSON scanner counts for `segment` (text from a line's start)."""
    from engine.source.graphemes import grapheme_count

    width = 0
    for m in _JSON_RUN.finditer(segment):
        run = m.group(0)
        if run == "\t":
            width += 2
        elif run == "\r":
            pass
        elif len(run) == 1:
            width += 1
        else:
            width += grapheme_count(run)
    return width


@dataclass(frozen=True, slots=True)
class Pos:
    """A position: 1-based line and column (characters), 0-based byte offset."""

    line: int
    column: int
    byte: int


@dataclass(frozen=True, slots=True)
class Range:
    """A half-open span [start, end) of character offsets in one source file."""

    file: SourceFile
    start_offset: int
    end_offset: int

    def __init__(self, file: SourceFile, start_offset: int, end_offset: int) -> None:
        # The parser makes hundreds of thousands of ranges: setting the slots through their
        # descriptors is about a third faster than the object.__setattr__ calls that
        # dataclass generates for a frozen class (which would not replace this __init__).
        _set_file(self, file)
        _set_start(self, start_offset)
        _set_end(self, end_offset)

    @property
    def filename(self) -> str:
        return self.file.filename

    @property
    def start(self) -> Pos:
        line, col = self.file.line_col(self.start_offset)
        return Pos(line, col, self.file.byte_offset(self.start_offset))

    @property
    def end(self) -> Pos:
        line, col = self.file.line_col(self.end_offset)
        return Pos(line, col, self.file.byte_offset(self.end_offset))

    def text(self) -> str:
        return self.file.text[self.start_offset : self.end_offset]

    def to(self, other: Range) -> Range:
        """The range from the start of this one to the end of `other` (same file)."""
        return Range(self.file, self.start_offset, other.end_offset)

    def __str__(self) -> str:
        s, e = self.start, self.end
        if s.line == e.line:
            return f"{self.filename}:{s.line},{s.column}-{e.column}"
        return f"{self.filename}:{s.line},{s.column}-{e.line},{e.column}"

    def __repr__(self) -> str:
        return f"Range({self})"


class FixedRange(Range):
    """A range whose line, column and byte positions are given rather than derived from
    its character offsets: HCL reports some positions (a byte inside a multi-byte
    character, a column counted in bytes) that no character offset has. The offsets are
    the characters at or after those positions, for the code that needs offsets."""

    __slots__ = ("_start_pos", "_end_pos")
    _start_pos: Pos
    _end_pos: Pos

    def __init__(
        self, file: SourceFile, start_offset: int, end_offset: int, start: Pos, end: Pos
    ) -> None:
        Range.__init__(self, file, start_offset, end_offset)
        _set_fixed_start(self, start)
        _set_fixed_end(self, end)

    @property
    def start(self) -> Pos:
        return self._start_pos

    @property
    def end(self) -> Pos:
        return self._end_pos


_set_fixed_start = vars(FixedRange)["_start_pos"].__set__
_set_fixed_end = vars(FixedRange)["_end_pos"].__set__
_set_file = vars(Range)["file"].__set__
_set_start = vars(Range)["start_offset"].__set__
_set_end = vars(Range)["end_offset"].__set__


def synthetic_range(filename: str = "<generated>", text: str = "") -> Range:
    """A range for values that do not come from a file (command-line variables, defaults)."""
    return Range(SourceFile(filename, text), 0, len(text))
