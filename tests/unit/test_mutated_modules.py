"""Property test: mutated real-world configurations through the parser, evaluator and formatter.

The corpus is the community modules vendored for the real-modules conformance suite
(`tests/conformance/modules/`, terraform-aws-modules at tags that accept aws 3.39.0). Each
example takes one module directory, picks one of its `.tf` files and mutates it a few times:
a token deleted, duplicated or swapped with its neighbour, the text truncated, or a brace,
quote, interpolation opener, heredoc opener, or a piece of unusual unicode (BOM, zero-width
space, NUL, an astral-plane character, a lone surrogate's replacement) inserted. The mutated
directory then goes through what `validate` and `fmt` do:

- the parser (`parse_file`) and, when the file parses, the formatter (`format_terraform`,
  whose result must parse again and format to itself);
- configuration loading (`load_config`), the static reference check, and the evaluation of
  the module with unknown inputs (`evaluate_root(for_validation=True)`).

Every step must end with a value and/or diagnostics: an exception escaping is a failure.
Inputs are bounded (the largest vendored file is ~1,200 lines, mutations add a few
characters), examples are few, and no deadline is set: the property is about crashing, not
about time.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.configs import load_config
from engine.configs.refcheck import check_references
from engine.core import evaluate_root
from engine.diags import Diagnostics
from engine.hcl import parse_file
from engine.hcl.format_rewrite import format_terraform

MODULES = Path(__file__).resolve().parents[1] / "conformance" / "modules"
CORPUS: dict[str, dict[str, str]] = {
    d.name: {f.name: f.read_text(encoding="utf-8") for f in sorted(d.glob("*.tf"))}
    for d in sorted(MODULES.iterdir())
    if d.is_dir() and d.name != "roots" and any(d.glob("*.tf"))
}
# Words, numbers, strings' pieces, operators and single punctuation: what a mutation moves.
TOKEN = re.compile(r"[A-Za-z_][A-Za-z0-9_-]*|\d+(?:\.\d+)?|\$\{|%\{|<<-?|==|!=|<=|>=|&&|\|\||=>|"
                   r"\.\.\.|\s+|.", re.S)
INSERTS = ["{", "}", "[", "]", "(", ")", '"', "'", "${", "%{", "}\n", "\n", "<<EOT\n",
           "\nEOT\n", "#", "/*", "*/", "=", ",", ".", "*", "\\", "\ufeff", "\u200b", "\x00",
           "\U0001f600", "\ufffd", "é", "\u202e", "\t", "\r", "dynamic", "for", "in", "if"]
MUTATIONS = ("delete", "duplicate", "swap", "truncate", "insert")


@st.composite
def mutated_module(draw: st.DrawFn) -> tuple[str, str, str]:
    """(module name, file name, mutated text)."""
    name = draw(st.sampled_from(sorted(CORPUS)))
    fname = draw(st.sampled_from(sorted(CORPUS[name])))
    tokens = TOKEN.findall(CORPUS[name][fname])
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(MUTATIONS))
        if not tokens:
            tokens = [draw(st.sampled_from(INSERTS))]
            continue
        i = draw(st.integers(0, len(tokens) - 1))
        if kind == "delete":
            del tokens[i]
        elif kind == "duplicate":
            tokens.insert(i, tokens[i])
        elif kind == "swap" and i + 1 < len(tokens):
            tokens[i], tokens[i + 1] = tokens[i + 1], tokens[i]
        elif kind == "truncate":
            tokens = tokens[:i]
        else:
            tokens.insert(i, draw(st.sampled_from(INSERTS)))
    return name, fname, "".join(tokens)


def _parse_and_format(fname: str, text: str) -> None:
    _file, diags = parse_file(text, fname)
    assert isinstance(diags, Diagnostics)
    if diags.has_errors:
        return
    formatted = format_terraform(text)
    _again, more = parse_file(formatted, fname)
    assert not more.has_errors, [(d.summary, d.detail) for d in more]
    assert format_terraform(formatted) == formatted


def _validate(directory: Path) -> None:
    config, diags = load_config(str(directory))
    assert isinstance(diags, Diagnostics)
    if config is None or diags.has_errors:
        return
    refs = check_references(config)
    assert isinstance(refs, Diagnostics)
    _outputs, evaluated = evaluate_root(config, {}, str(directory), for_validation=True)
    assert isinstance(evaluated, Diagnostics)


@settings(max_examples=60, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                 HealthCheck.function_scoped_fixture])
@given(mutated_module())
def test_mutated_modules_never_crash(tmp_path: Path, case: tuple[str, str, str]) -> None:
    name, fname, text = case
    _parse_and_format(fname, text)
    work = tmp_path / "m"
    if work.exists():
        shutil.rmtree(work)
    work.mkdir()
    for other, src in CORPUS[name].items():
        (work / other).write_text(text if other == fname else src, encoding="utf-8",
                                  newline="")
    _validate(work)


def test_unmutated_modules_load_and_evaluate(tmp_path: Path) -> None:
    """The corpus itself: every vendored module parses, formats to itself where terraform's
    fmt would leave it, loads and evaluates without errors from the loader."""
    assert len(CORPUS) >= 10
    for name, files in CORPUS.items():
        work = tmp_path / name
        work.mkdir()
        for fname, src in files.items():
            _file, diags = parse_file(src, fname)
            assert not diags.has_errors, (name, fname, [d.summary for d in diags])
            (work / fname).write_text(src, encoding="utf-8")
        config, diags = load_config(str(work))
        assert config is not None and not diags.has_errors, (name, [d.summary for d in diags])
