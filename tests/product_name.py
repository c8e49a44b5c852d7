"""The product name in what a person reads: the one substitution tests apply to terraform.

groundplan prints terraform's texts with its own name (as OpenTofu prints them with
"OpenTofu"): "groundplan has been successfully initialized!", `Try running "groundplan plan"`.
Tests that compare groundplan with terraform therefore pass terraform's human output through
`as_groundplan` first, and nothing else new. The substitution is:

- the word "Terraform" becomes "groundplan", except in `ALLOWED_PHRASES` (phrases about
  terraform itself or its ecosystem: "HCP Terraform", "Terraform v1.11", "Terraform Core
  version", "a newer version of Terraform", "Terraform provider", ...), which stay;
- the command name in advice, "terraform <command>" (`terraform init`, `terraform -help`,
  `terraform [global options]`), becomes "groundplan <command>".

It spares user data: the source lines diagnostics quote (`  12:   Terraform = "true"`), the
`├`/`│` value lines under them, and text inside double quotes (map keys and string values in
a plan, `"managed by Terraform"`) unless the quoted text is itself a command line
(`"terraform init"`). Identifiers are words of their own (`terraform_data`,
`terraform_remote_state`, `.terraform`, `terraform.tfstate`) and the `terraform {}` block
keyword is not followed by a command name, so neither matches.

Text terraform word-wraps as it prints it is wrapped again where the substitution pushes a line
past terraform's width (77 columns, 75 inside a diagnostic's box), as terraform would have
wrapped it had its name been "groundplan" (one character longer): the paragraphs of a
diagnostic (from its `Error:`/`Warning:` line to its box's end, or without colour to the next
of terraform's own lines after diagnostics: "Terraform has been successfully initialized!",
"Success! ", "Apply complete!", "Plan: ", ...) and the notes that open with "Terraform " (plan
and test summaries). A
paragraph is a run of lines that each fit the width and are full (the next line's first word
would not have fit on it), as greedy wrapping leaves them. Fixed texts (help, init's messages)
keep terraform's line breaks.

Machine formats are not substituted: text that is JSON, or JSON lines (`-json` UI output),
comes back unchanged, and so do files (state, plans, lock files). A test that compares the
human fields inside JSON (a diagnostic's `summary` and `detail`) passes each field through
`as_groundplan(field, message=True)`.
"""

from __future__ import annotations

import json
import re

COMMANDS = (
    "init", "validate", "plan", "apply", "destroy", "console", "fmt", "force-unlock", "get",
    "graph", "import", "login", "logout", "metadata", "modules", "output", "providers",
    "refresh", "show", "state", "taint", "test", "untaint", "version", "workspace",
)

#: Phrases in which "Terraform" names terraform itself and stays as it is.
ALLOWED_PHRASES: tuple[str, ...] = (
    r"HCP Terraform",
    r"Terraform (?:Cloud|Enterprise|Enteprise|Registry|Core)\b",
    r"Terraform v?\d[0-9A-Za-z.\-]*",
    r"Terraform versions?\b",
    r"(?:version|versions|release) of Terraform\b",
    r"Terraform providers?\b",
    r"Terraform language\b",
    r"Terraform template\b",
)
_ALLOWED = re.compile("|".join(f"(?:{p})" for p in ALLOWED_PHRASES))
_WORD = re.compile(r"\bTerraform\b")
_COMMAND = re.compile(
    r"\bterraform(?= (?:(?:" + "|".join(re.escape(c) for c in COMMANDS)
    + r")\b|-help\b|\[global options\]))"
)
_COMMAND_AT_END = re.compile(r"(?:^|[\s\"`'])(terraform)(?:\x1b\[[0-9;]*m)*$")
_COMMAND_WORD = re.compile(r"(?:" + "|".join(re.escape(c) for c in COMMANDS) + r")\b")
_QUOTED = re.compile(r'"[^"\n]*"')
_SOURCE_LINE = re.compile(r"^(?:│ )?(?:\s*\d+: |    [├│] )")
_ANSI = re.compile(r"\x1b\[[0-9;]*m")
_ANSI_SPLIT = re.compile(r"(\x1b\[[0-9;]*m)")
_BOX = re.compile(r"^(?:\x1b\[[0-9;]*m)*│(?:\x1b\[[0-9;]*m)* (?:\x1b\[[0-9;]*m)*")
_DIAGNOSTIC_HEADER = re.compile(r"^(?:│ )?(?:Error|Warning): ")
# What terraform prints after diagnostics without colour (no box marks their end there).
_AFTER_DIAGNOSTICS = re.compile(
    r"^(?:Terraform has been successfully initialized!|Terraform initialized in an empty "
    r"directory!|Success! |Apply complete!|Destroy complete!|No changes\. |Plan: |Changes to "
    r"Outputs:|Terraform used the selected providers|Terraform will perform|Initializing )")
_WIDTH = 77  # terraform's wrapping width without colour; 75 inside a diagnostic's box


def _substitute_span(text: str) -> str:
    keep = [m.span() for m in _ALLOWED.finditer(text)]

    def word(m: re.Match[str]) -> str:
        if any(a <= m.start() and m.end() <= b for a, b in keep):
            return m.group(0)
        return "groundplan"

    return _COMMAND.sub("groundplan", _WORD.sub(word, text))


def _substitute_line(line: str) -> str:
    if _SOURCE_LINE.match(_visible(line)):
        return line
    if _ANSI.search(line):  # colour codes end in a letter: substitute between them
        pieces = _ANSI_SPLIT.split(line)
        return "".join(p if i % 2 else _substitute_text(p) for i, p in enumerate(pieces))
    return _substitute_text(line)


def _substitute_text(line: str) -> str:
    out: list[str] = []
    pos = 0
    for m in _QUOTED.finditer(line):
        out.append(_substitute_span(line[pos:m.start()]))
        quoted = m.group(0)
        if _COMMAND.match(quoted, 1):
            quoted = '"groundplan' + quoted[len('"terraform'):]
        out.append(quoted)
        pos = m.end()
    out.append(_substitute_span(line[pos:]))
    return "".join(out)


def _is_json(text: str) -> bool:
    stripped = text.strip()
    if not stripped or stripped[0] not in "{[":
        return False
    try:
        json.loads(stripped)
        return True
    except ValueError:
        pass
    try:
        return all(isinstance(json.loads(line), dict) for line in stripped.splitlines() if line)
    except ValueError:
        return False


def _visible(text: str) -> str:
    return _ANSI.sub("", text)


def _split_box(line: str) -> tuple[str, str, int]:
    """(the box's left rule with its colour codes, the text, the width that text wraps at)."""
    m = _BOX.match(line)
    if m:
        return m.group(0), line[m.end():], _WIDTH - 2
    return "", line, _WIDTH


def _first_word(body: str) -> str:
    return _visible(body).split(" ", 1)[0]


def _continues(prev: str, nxt: str) -> bool:
    """Whether `nxt` is the wrapped continuation of `prev` (both in their original form)."""
    p_prefix, p_body, width = _split_box(prev)
    n_prefix, n_body, _ = _split_box(nxt)
    p_text, n_text = _visible(p_body), _visible(n_body)
    if _visible(p_prefix) != _visible(n_prefix) or not p_text or not n_text:
        return False
    if p_text.startswith(" ") or n_text.startswith(" ") or _SOURCE_LINE.match(_visible(prev)):
        return False
    return len(p_text) <= width < len(p_text) + 1 + len(_first_word(n_body))


def _wrap(body: str, width: int) -> list[str]:
    lines: list[str] = []
    cur, cur_len = "", 0
    for w in body.split(" "):
        w_len = len(_visible(w))
        if cur and cur_len + 1 + w_len > width:
            lines.append(cur)
            cur, cur_len = w, w_len
        elif cur:
            cur, cur_len = f"{cur} {w}", cur_len + 1 + w_len
        else:
            cur, cur_len = w, w_len
    lines.append(cur)
    return lines


_KEPT = "\x00kept\x00"


def _protect_across_lines(lines: list[str]) -> list[str]:
    """`lines` with each "Terraform" that an allowed phrase broken across two lines covers
    ("supported by Terraform" / "1.11.4.") replaced by a placeholder the substitution skips."""
    out = list(lines)
    for k in range(len(lines) - 1):
        tail, head = _visible(lines[k]), _visible(_split_box(lines[k + 1])[1])
        joined = f"{tail} {head}"
        for m in _ALLOWED.finditer(joined):
            if not (m.start() < len(tail) < m.end()):
                continue
            for w in _WORD.finditer(joined, m.start(), m.end()):
                if w.end() <= len(tail) and tail.endswith("Terraform") and w.end() == len(tail):
                    out[k] = out[k][: out[k].rfind("Terraform")] + _KEPT + out[k][
                        out[k].rfind("Terraform") + len("Terraform"):]
                elif w.start() > len(tail) and w.start() == len(tail) + 1:
                    i = out[k + 1].find("Terraform")
                    out[k + 1] = out[k + 1][:i] + _KEPT + out[k + 1][i + len("Terraform"):]
    return out


def as_groundplan(text: str, *, message: bool = False) -> str:
    """terraform's human output `text` as groundplan prints it: the product name substituted
    (see the module's docstring for exactly what changes and what is spared), wrapped
    paragraphs wrapped again where that pushed a line past the width. JSON text is returned
    unchanged, unless `message` says `text` is a human field of a JSON document (a `-json`
    diagnostic's summary or detail, a UI message's `@message`), which is substituted too."""
    if not message and _is_json(text):
        return text
    original = text.split("\n")
    changed = [_substitute_line(line) for line in _protect_across_lines(original)]
    changed = [line.replace(_KEPT, "Terraform") for line in changed]
    for k in range(len(changed) - 1):  # advice broken across lines: `"terraform` / `init"`
        m = _COMMAND_AT_END.search(changed[k])
        if m and _COMMAND_WORD.match(_visible(_split_box(original[k + 1])[1])):
            changed[k] = changed[k][:m.start(1)] + "groundplan" + changed[k][m.end(1):]
    in_diagnostic: list[bool] = []
    inside = False
    for line in original:
        if _DIAGNOSTIC_HEADER.match(_visible(line)):
            inside = True
        elif _visible(line).startswith("╵") or _AFTER_DIAGNOSTICS.match(line):
            inside = False
        in_diagnostic.append(inside)
    out: list[str] = []
    i = 0
    while i < len(original):
        j = i
        while j + 1 < len(original) and _continues(original[j], original[j + 1]):
            j += 1
        first_prefix, first, width = _split_box(original[i])
        eligible = in_diagnostic[i] or _visible(first).startswith("Terraform ")
        fitted = all(len(_visible(_split_box(ln)[1])) <= width for ln in original[i:j + 1])
        if j > i and eligible and fitted and any(
                len(_visible(_split_box(ln)[1])) > width for ln in changed[i:j + 1]):
            rest_prefix = _split_box(original[i + 1])[0]
            body = " ".join(_split_box(line)[1] for line in changed[i:j + 1])
            parts = _wrap(body, width)
            out.append(first_prefix + parts[0])
            out.extend(rest_prefix + part for part in parts[1:])
        else:
            out.extend(changed[i:j + 1])
        i = j + 1
    return "\n".join(out)


def unnamed_mentions(text: str) -> list[str]:
    """The places in `text` (groundplan's output for a person) that still name terraform:
    "Terraform" outside `ALLOWED_PHRASES`, and "terraform <command>" advice; each with some
    context. Empty when groundplan speaks as itself."""
    found: list[str] = []
    text = _visible(text)
    keep = [m.span() for m in _ALLOWED.finditer(text)]
    for m in _WORD.finditer(text):
        if not any(a <= m.start() and m.end() <= b for a, b in keep):
            found.append(text[max(0, m.start() - 40):m.end() + 40])
    for m in _COMMAND.finditer(text):
        found.append(text[max(0, m.start() - 40):m.end() + 40])
    return found
