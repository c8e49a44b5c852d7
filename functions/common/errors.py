"""Typed errors of the control plane, each with the HTTP status and the stable `code` the API
answers with (`{"error": {"code": ..., "message": ...}}`)."""

from __future__ import annotations

from typing import Any


class ControlPlaneError(Exception):
    """A refusal the caller should see: `status`, a stable `code`, a human `message`."""

    status = 400
    code = "invalid_request"

    def __init__(self, message: str, *, code: str | None = None, **details: Any) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code
        self.details = details

    def body(self) -> dict[str, Any]:
        """The JSON error document of this error."""
        err: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.details:
            err["details"] = self.details
        return {"error": err}


class InvalidRequest(ControlPlaneError):
    status = 400
    code = "invalid_request"


class Unauthorized(ControlPlaneError):
    status = 401
    code = "unauthorized"


class Forbidden(ControlPlaneError):
    status = 403
    code = "forbidden"


class NotFound(ControlPlaneError):
    status = 404
    code = "not_found"


class Conflict(ControlPlaneError):
    status = 409
    code = "conflict"


class Unprocessable(ControlPlaneError):
    status = 422
    code = "unprocessable"


def condition_failed(exc: Exception) -> bool:
    """Whether a pynamodb write error is DynamoDB refusing the write's condition
    (`ConditionalCheckFailedException`), as opposed to any other failure."""
    return getattr(exc, "cause_response_code", None) == "ConditionalCheckFailedException"
