"""The diagnostic value type and the list that collects them."""

from __future__ import annotations

import enum
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from engine.source import Range


class Severity(enum.Enum):
    ERROR = "error"
    WARNING = "warning"


@dataclass(frozen=True, slots=True)
class ExpressionValue:
    """One `│ var.x is "a"` line: a traversal shown with the value it had."""

    traversal: str
    statement: str


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """An error or warning as Terraform reports it.

    `subject` is the range the message is about (underlined in a snippet); `context` is an
    optional wider range around it (for example the whole expression). `address` names the
    object the message concerns (a resource instance such as `aws_s3_bucket.b[0]`, or a
    provider configuration), as terraform attaches it to provider diagnostics: it is printed
    as `with ADDRESS,` above the source location and emitted as `"address"` in JSON.
    """

    severity: Severity
    summary: str
    detail: str = ""
    subject: Range | None = None
    context: Range | None = None
    values: tuple[ExpressionValue, ...] = ()
    # Diagnostics raised from deep inside evaluation whose effect must be reported once
    # (for example an unknown count) carry an extra tag here.
    extra: str | None = None
    address: str | None = None

    @property
    def is_error(self) -> bool:
        return self.severity is Severity.ERROR

    def with_subject(self, subject: Range | None, context: Range | None = None) -> Diagnostic:
        """This diagnostic pointed at `subject`, unless it already points somewhere."""
        if self.subject is not None or subject is None:
            return self
        return Diagnostic(
            self.severity, self.summary, self.detail, subject, context, self.values, self.extra,
            self.address,
        )

    def located(self, subject: Range | None, address: str | None) -> Diagnostic:
        """A plain Diagnostic like this one with `subject` and `address` (either may be None);
        the context range is kept only when the subject is unchanged."""
        context = self.context if subject is self.subject else None
        return Diagnostic(
            self.severity, self.summary, self.detail, subject, context, self.values, self.extra,
            address,
        )


def error(
    summary: str,
    detail: str = "",
    subject: Range | None = None,
    context: Range | None = None,
    values: tuple[ExpressionValue, ...] = (),
) -> Diagnostic:
    return Diagnostic(Severity.ERROR, summary, detail, subject, context, values)


def warning(
    summary: str, detail: str = "", subject: Range | None = None, context: Range | None = None
) -> Diagnostic:
    return Diagnostic(Severity.WARNING, summary, detail, subject, context)


@dataclass(slots=True)
class Diagnostics:
    """An ordered collection of diagnostics."""

    items: list[Diagnostic] = field(default_factory=list)

    def append(self, diag: Diagnostic) -> None:
        self.items.append(diag)

    def extend(self, diags: Iterable[Diagnostic]) -> None:
        self.items.extend(diags)

    def __iter__(self) -> Iterator[Diagnostic]:
        return iter(self.items)

    def __len__(self) -> int:
        return len(self.items)

    def __bool__(self) -> bool:
        return bool(self.items)

    @property
    def has_errors(self) -> bool:
        return any(d.is_error for d in self.items)

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.items if d.is_error]

    @property
    def warnings(self) -> list[Diagnostic]:
        return [d for d in self.items if not d.is_error]

    def raise_if_errors(self) -> None:
        if self.has_errors:
            raise DiagnosticsError(self)


def hcl_error_text(diags: Iterable[Diagnostic]) -> str:
    """HCL's `Diagnostics.Error()`, as terraform quotes diagnostics inside another message:
    `<range>: <summary>; <detail>` of the first, then ", and N other diagnostic(s)"."""
    items = list(diags)
    if not items:
        return "no diagnostics"
    first = items[0]
    subject = str(first.subject) if first.subject is not None else "<nil>"
    text = f"{subject}: {first.summary}; {first.detail}"
    if len(items) > 1:
        text += f", and {len(items) - 1} other diagnostic(s)"
    return text


class DiagnosticsError(Exception):
    """Raised at an edge (or to unwind evaluation) carrying diagnostics."""

    def __init__(self, diags: Diagnostics | Iterable[Diagnostic] | Diagnostic) -> None:
        if isinstance(diags, Diagnostic):
            diags = Diagnostics([diags])
        elif not isinstance(diags, Diagnostics):
            diags = Diagnostics(list(diags))
        self.diags = diags
        first = diags.items[0].summary if diags.items else "error"
        super().__init__(first)
