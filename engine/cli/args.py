"""Command-line flags in Terraform's style (Go's `flag` package).

`-name=value`, `-name value` and `--name` all work; boolean flags take no separate value
(`-name`, `-name=false`); parsing stops at the first argument that is not a flag or after
`--`. Repeatable flags that must keep their relative order (`-var`, `-var-file`) are recorded
in `FlagSet.ordered` as (name, value) pairs in command-line order.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

_TRUE = {"1", "t", "T", "TRUE", "true", "True"}
_FALSE = {"0", "f", "F", "FALSE", "false", "False"}


class FlagError(Exception):
    """A command line that does not parse; the message is Go's wording."""


@dataclass(slots=True)
class _Flag:
    """One command-line flag a command takes: its name, kind and default."""

    name: str
    kind: str  # "bool", "string", "int", "multi"
    default: Any


@dataclass(slots=True)
class FlagSet:
    """The flags one command accepts, and after `parse` their values."""

    flags: dict[str, _Flag] = field(default_factory=dict)
    values: dict[str, Any] = field(default_factory=dict)
    ordered: list[tuple[str, str]] = field(default_factory=list)

    def boolean(self, name: str, default: bool = False) -> FlagSet:
        self.flags[name] = _Flag(name, "bool", default)
        return self

    def text(self, name: str, default: str = "") -> FlagSet:
        self.flags[name] = _Flag(name, "string", default)
        return self

    def integer(self, name: str, default: int = 0) -> FlagSet:
        self.flags[name] = _Flag(name, "int", default)
        return self

    def multi(self, name: str) -> FlagSet:
        """A repeatable string flag; every occurrence is kept, in order."""
        self.flags[name] = _Flag(name, "multi", None)
        return self

    def get(self, name: str) -> Any:
        if name in self.values:
            return self.values[name]
        flag = self.flags[name]
        return [] if flag.kind == "multi" else flag.default

    def was_set(self, name: str) -> bool:
        return name in self.values

    def parse(self, argv: list[str]) -> list[str]:
        """Consume the flags at the front of `argv`; the remaining positional arguments.

        Raises FlagError with Go's message for an unknown flag, a missing value or a bad
        boolean or integer.
        """
        i = 0
        while i < len(argv):
            arg = argv[i]
            if len(arg) < 2 or not arg.startswith("-"):
                break
            if arg == "--":
                i += 1
                break
            name = arg[2:] if arg.startswith("--") else arg[1:]
            if not name or name.startswith("-") or name.startswith("="):
                raise FlagError(f"bad flag syntax: {arg}")
            value: str | None = None
            if "=" in name:
                name, value = name.split("=", 1)
            flag = self.flags.get(name)
            if flag is None:
                raise FlagError(f"flag provided but not defined: -{name}")
            i += 1
            if flag.kind == "bool":
                if value is None or value in _TRUE:
                    self.values[name] = True
                elif value in _FALSE:
                    self.values[name] = False
                else:
                    raise FlagError(f'invalid boolean value "{value}" for -{name}: parse error')
                continue
            if value is None:
                if i >= len(argv):
                    raise FlagError(f"flag needs an argument: -{name}")
                value = argv[i]
                i += 1
            if flag.kind == "int":
                try:
                    self.values[name] = int(value, 0)
                except ValueError:
                    raise FlagError(
                        f'invalid value "{value}" for flag -{name}: parse error'
                    ) from None
            elif flag.kind == "multi":
                self.values.setdefault(name, []).append(value)
                self.ordered.append((name, value))
            else:
                self.values[name] = value
        return argv[i:]


def parse_duration(text: str) -> float:
    """Seconds in a flag's Go duration (`0s`, `500ms`, `1m30s`); FlagError with Go's message."""
    from engine.gocompat.duration import DurationError, parse_seconds

    if text == "":
        return 0.0
    try:
        return parse_seconds(text)
    except DurationError as exc:
        raise FlagError(str(exc)) from None
