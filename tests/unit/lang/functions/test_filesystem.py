"""Filesystem functions and templatefile. Expected values and messages were produced by the
real terraform v1.11.4 (`terraform console` in a directory laid out like `module` below)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from engine.lang import EvalContext
from engine.lang.functions import function_table
from engine.lang.functions.doublestar import GlobSyntaxError, compile_component, glob
from engine.lang.functions.filesystem import go_base, go_clean, go_dir, go_join
from tests.unit.lang.helpers import default_vars, only_error, show, value


@pytest.fixture
def module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> EvalContext:
    files = tmp_path / "files"
    (files / "sub" / "deep").mkdir(parents=True)
    (files / ".hid").mkdir()
    (files / "a.txt").write_text("hello\n")
    (files / "sub" / "b.txt").write_text("x")
    (files / "sub" / "deep" / "c.md").write_text("y")
    (files / ".hid" / "h.txt").write_text("z")
    (files / "bin.dat").write_bytes(b"\xff\xfe")
    (files / "t.tmpl").write_text("Hi ${name}!%{ for x in list } [${x}]%{ endfor }")
    (files / "raw.tmpl").write_text("${x}")
    (files / "bad.tmpl").write_text("v=${x + 1}")
    (files / "rec.tmpl").write_text('v=${templatefile("files/raw.tmpl", {x=1})}')
    (files / "syn.tmpl").write_text("v=${x")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("HOME", "/root")
    return EvalContext(default_vars(), function_table("."))


CASES = [
    ('file("files/a.txt")', "<<EOT\nhello\n\nEOT"),
    ('filebase64("files/bin.dat")', '"//4="'),
    ('filemd5("files/a.txt")', '"b1946ac92492d2347c6235b4d2611184"'),
    ('filesha256("files/a.txt")', '"5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03"'),
    ('filebase64sha256("files/a.txt")', '"WJG1tSLV3whtD/CxEPvZ0hu0/HFjrzTQgoai6Eb2vgM="'),
    ('fileexists("files/a.txt")', "true"),
    ('fileexists("nope")', "false"),
    ('fileset("files", "*.txt")', 'toset([\n  "a.txt",\n])'),
    ('fileset("files", "**/*.txt")', 'toset([\n  ".hid/h.txt",\n  "a.txt",\n  "sub/b.txt",\n])'),
    ('fileset("files", "sub/*")', 'toset([\n  "sub/b.txt",\n])'),
    ('fileset("files/", "/sub/**")', 'toset([\n  "sub/b.txt",\n  "sub/deep/c.md",\n])'),
    ('fileset(".", "files/*.txt")', 'toset([\n  "files/a.txt",\n])'),
    ('fileset("nope", "*")', "toset([])"),
    ('basename("/a/b/")', '"b"'),
    ('basename("")', '"."'),
    ('basename("/")', '"/"'),
    ('dirname("/a/b/")', '"/a/b"'),
    ('dirname("a//b/../c")', '"a"'),
    ('pathexpand("~/x/../y")', '"/root/y"'),
    ('pathexpand("a/~")', '"a/~"'),
    ('templatefile("files/t.tmpl", {name="Bob", list=[1,2]})', '"Hi Bob! [1] [2]"'),
    ('templatefile("files/raw.tmpl", {x=[1]})', "[\n  1,\n]"),
    ('templatefile("files/raw.tmpl", {x=1, "a-b"=2})', "1"),
    ('templatefile("files/raw.tmpl", {x=sensitive(1)})', "(sensitive value)"),
]


@pytest.mark.parametrize(("src", "want"), CASES)
def test_filesystem_values(module: EvalContext, src: str, want: str) -> None:
    assert show(src, module) == want


NO_FILE = ("; this function works only with files that are distributed as part of the configuration "
           "source code, so if this file will be created by a resource in this configuration you must "
           "instead obtain this result from an attribute of that resource.")
ERRORS = [
    ('file("nope.txt")', "Invalid function argument",
     'Invalid value for "path" parameter: no file exists at "nope.txt"' + NO_FILE),
    ('file(sensitive("nope.txt"))', "Invalid function argument",
     'Invalid value for "path" parameter: no file exists at (sensitive value)' + NO_FILE),
    ('file("files")', "Invalid function argument",
     'Invalid value for "path" parameter: failed to read file: read files: is a directory.'),
    ('file("files/bin.dat")', "Error in function call",
     'Call to function "file" failed: contents of "files/bin.dat" are not valid UTF-8; use the filebase64 '
     "function to obtain the Base64 encoded contents or the other file functions (e.g. filemd5, "
     "filesha256) to obtain file hashing results instead."),
    ('filemd5("nope.txt")', "Error in function call",
     'Call to function "filemd5" failed: open nope.txt: no such file or directory.'),
    ('filemd5("files")', "Error in function call", 'Call to function "filemd5" failed: read files: is a directory.'),
    ('fileexists("files")', "Error in function call",
     'Call to function "fileexists" failed: "files" is a directory, not a file.'),
    ('fileset("files", "{a,sub/b}.txt")', "Error in function call",
     'Call to function "fileset" failed: failed to glob pattern "files/{a,sub/b}.txt": syntax error in pattern.'),
    ('fileset("files", "[")', "Error in function call",
     'Call to function "fileset" failed: failed to glob pattern "files/[": syntax error in pattern.'),
    ('pathexpand("~root/x")', "Error in function call",
     'Call to function "pathexpand" failed: cannot expand user-specific home dir.'),
    ('templatefile("files/t.tmpl", {name="Bob"})', "Invalid function argument",
     'Invalid value for "vars" parameter: vars map does not contain key "list", referenced at files/t.tmpl:1,24-28.'),
    ('templatefile("files/t.tmpl", [1])', "Invalid function argument",
     'Invalid value for "vars" parameter: invalid vars value: must be a map.'),
    ('templatefile("files/raw.tmpl", {x=1, "1a"=2})', "Invalid function argument",
     'Invalid value for "vars" parameter: invalid template variable name "1a": must start with a letter, '
     "followed by zero or more letters, digits, and underscores."),
    ('templatefile("nope.tmpl", {})', "Invalid function argument",
     'Invalid value for "path" parameter: no file exists at "nope.tmpl"' + NO_FILE),
    ('templatefile("files/bad.tmpl", {x="a"})', "Error in function call",
     'Call to function "templatefile" failed: files/bad.tmpl:1,5-6: Invalid operand; Unsuitable value for '
     "left operand: a number is required.."),
    ('templatefile("files/rec.tmpl", {})', "Error in function call",
     'Call to function "templatefile" failed: files/rec.tmpl:1,5-18: Error in function call; Call to function '
     '"templatefile" failed: cannot recursively call templatefile from inside another template function..'),
    ('templatefile("files/syn.tmpl", {x=1})', "Error in function call",
     'Call to function "templatefile" failed: files/syn.tmpl:1,1-3: Unclosed template interpolation sequence; '
     "There is no closing brace for this interpolation sequence before the end of the file. This might be "
     "caused by incorrect nesting inside the given expression.."),
]


@pytest.mark.parametrize(("src", "summary", "detail"), ERRORS)
def test_filesystem_errors(module: EvalContext, src: str, summary: str, detail: str) -> None:
    d = only_error(src, module)
    assert (d.summary, d.detail) == (summary, detail)


def test_paths_are_relative_to_the_module_directory(module: EvalContext, tmp_path: Path) -> None:
    other = tmp_path / "elsewhere"
    other.mkdir()
    os.chdir(other)
    c = EvalContext(default_vars(), function_table(str(tmp_path)))
    assert value('file("files/sub/b.txt")', c).v == "x"
    assert value('fileexists("files/a.txt")', c).v is True
    assert [e.v for e in value('fileset("files", "**/*.md")', c).v] == ["sub/deep/c.md"]
    # abspath works from the working directory, as in terraform
    assert value('abspath("x/../y")', c).v == f"{other}/y"


def test_unknown_and_sensitive_propagate(module: EvalContext) -> None:
    assert show("file(var.us)", module) == "(known after apply)"
    assert show('templatefile(var.us, {})', module) == "(known after apply)"
    assert value('fileset("files", sensitive("*.txt"))', module).is_sensitive
    assert value('filemd5(sensitive("files/a.txt"))', module).is_sensitive


def test_go_path_helpers() -> None:
    assert go_clean("a//b/./../c/") == "a/c"
    assert go_clean("") == "."
    assert go_join("a", "", "/b") == "a/b"
    assert go_base("a/b//") == "b"
    assert go_dir("/x") == "/"


def test_doublestar_components(tmp_path: Path) -> None:
    assert compile_component("[!a-c]?.{txt,md}").fullmatch("dx.md")
    assert not compile_component("[!a-c]?.{txt,md}").fullmatch("ax.md")
    assert compile_component("\\*").fullmatch("*")
    with pytest.raises(GlobSyntaxError):
        compile_component("{a,b")
    (tmp_path / "d" / "e").mkdir(parents=True)
    (tmp_path / "d" / "e" / "f.txt").write_text("")
    assert glob(f"{tmp_path}/**/f.txt") == [f"{tmp_path}/d/e/f.txt"]
    assert glob(f"{tmp_path}/d/**") == [f"{tmp_path}/d", f"{tmp_path}/d/e", f"{tmp_path}/d/e/f.txt"]


def test_templatefile_result_carries_every_mark_in_vars(module: EvalContext) -> None:
    # terraform 1.11.4 refuses this as an unmarked output ("Output refers to sensitive values")
    v = value('templatefile("files/raw.tmpl", {x = 2, y = sensitive(1)})', module)
    assert v.v == 2 and v.is_sensitive
