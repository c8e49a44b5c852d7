"""The DynamoDB lock table, as terraform's S3 backend uses it, modelled with pynamodb.

Items, keyed by the string attribute `LockID`:

- the lock: `LockID = "<bucket>/<state key>"`, `Info` = the lock info JSON; created with the
  condition `attribute_not_exists(LockID)` and deleted on unlock;
- the digest: `LockID = "<bucket>/<state key>-md5"`, `Digest` = hex MD5 of the state object,
  written after every state write and compared with what is read (terraform's consistency
  check for S3's old eventual consistency).

`LockTable` turns pynamodb's exceptions into `DynamoError`s worded as terraform's.
"""

from __future__ import annotations

from typing import Any

from pynamodb.attributes import UnicodeAttribute
from pynamodb.exceptions import DeleteError, DoesNotExist, GetError, PutError, UpdateError
from pynamodb.models import Model

from engine.backend.s3.client import go_quote
from engine.backend.s3.settings import S3Settings

DIGEST_SUFFIX = "-md5"


class DynamoError(Exception):
    """A DynamoDB request failed; `str()` is the message (names the table)."""


class ConditionFailed(DynamoError):
    """The conditional put or delete was refused (the lock exists, or is not ours)."""


class LockItem(Model):
    """An item of the lock table (the lock, or a state's digest)."""

    LockID = UnicodeAttribute(hash_key=True)
    Info = UnicodeAttribute(null=True)
    Digest = UnicodeAttribute(null=True)


def _model(settings: S3Settings, credentials: Any) -> type[LockItem]:
    class TableItem(LockItem):
        class Meta:
            table_name = settings.dynamodb_table
            region = settings.region
            host = settings.endpoints.get("dynamodb")
            aws_access_key_id = credentials.access_key if credentials else None
            aws_secret_access_key = credentials.secret_key if credentials else None
            aws_session_token = credentials.token if credentials else None
            max_retry_attempts = settings.max_retries
            connect_timeout_seconds = 10
            read_timeout_seconds = 60

    return TableItem


def _cause(exc: Exception) -> str:
    code = getattr(exc, "cause_response_code", "") or ""
    msg = getattr(exc, "cause_response_message", "") or str(exc)
    return f"{code}: {msg}" if code else msg


class LockTable:
    """The lock table named by `dynamodb_table` (see the module docstring)."""

    def __init__(self, settings: S3Settings, credentials: Any) -> None:
        self.table = settings.dynamodb_table
        self.model = _model(settings, credentials)
        self.faults: dict[str, list[Exception]] = {}

    def _fault(self, op: str) -> None:
        queue = self.faults.get(op)
        if queue:
            raise queue.pop(0)

    def _condition_failed(self, exc: Exception) -> bool:
        return getattr(exc, "cause_response_code", "") == "ConditionalCheckFailedException"

    def get_info(self, lock_id: str) -> str | None:
        """The `Info` of the lock item; None when there is no lock."""
        self._fault("get")
        try:
            item = self.model.get(lock_id, consistent_read=True)
        except DoesNotExist:
            return None
        except GetError as exc:
            raise DynamoError(f"Unable to retrieve item from DynamoDB table "
                              f"{go_quote(self.table)}: {_cause(exc)}") from None
        return str(item.Info or "")

    def put_lock(self, lock_id: str, info: str) -> None:
        """Create the lock item unless one exists (`ConditionFailed` then)."""
        self._fault("put")
        item = self.model(lock_id, Info=info)
        try:
            item.save(condition=self.model.LockID.does_not_exist())
        except PutError as exc:
            if self._condition_failed(exc):
                raise ConditionFailed(f"ConditionalCheckFailedException: {_cause(exc)}") from None
            raise DynamoError(f"Unable to put item in DynamoDB table {go_quote(self.table)}: "
                              f"{_cause(exc)}") from None

    def replace_lock(self, lock_id: str, old_info: str, new_info: str) -> None:
        """Rewrite the lock's `Info` only if it is still `old_info` (a lease renewal)."""
        self._fault("update")
        item = self.model(lock_id)
        try:
            item.update(actions=[self.model.Info.set(new_info)],
                        condition=self.model.Info == old_info)
        except UpdateError as exc:
            if self._condition_failed(exc):
                raise ConditionFailed("the lock item changed") from None
            raise DynamoError(f"Unable to update item in DynamoDB table "
                              f"{go_quote(self.table)}: {_cause(exc)}") from None

    def delete_lock(self, lock_id: str, info: str | None = None) -> None:
        """Delete the lock item (only if its `Info` is still `info`, when given)."""
        self._fault("delete")
        item = self.model(lock_id)
        try:
            if info is None:
                item.delete()
            else:
                item.delete(condition=self.model.Info == info)
        except DeleteError as exc:
            if self._condition_failed(exc):
                raise ConditionFailed("the lock item changed") from None
            raise DynamoError(f"Unable to delete item from DynamoDB table "
                              f"{go_quote(self.table)}: {_cause(exc)}") from None

    def get_digest(self, lock_id: str) -> bytes | None:
        """The stored MD5 of the state; None when absent or not 16 bytes of hex."""
        self._fault("get_digest")
        try:
            item = self.model.get(lock_id + DIGEST_SUFFIX, consistent_read=True)
        except DoesNotExist:
            return None
        except GetError as exc:
            raise DynamoError(f"Unable to retrieve item from DynamoDB table "
                              f"{go_quote(self.table)}: {_cause(exc)}") from None
        try:
            digest = bytes.fromhex(str(item.Digest or ""))
        except ValueError:
            return None
        return digest if len(digest) == 16 else None

    def put_digest(self, lock_id: str, digest: bytes) -> None:
        self._fault("put_digest")
        try:
            self.model(lock_id + DIGEST_SUFFIX, Digest=digest.hex()).save()
        except PutError as exc:
            raise DynamoError(f"Unable to put item in DynamoDB table {go_quote(self.table)}: "
                              f"{_cause(exc)}") from None

    def delete_digest(self, lock_id: str) -> None:
        try:
            self.model(lock_id + DIGEST_SUFFIX).delete()
        except DeleteError as exc:
            raise DynamoError(f"Unable to delete item from DynamoDB table "
                              f"{go_quote(self.table)}: {_cause(exc)}") from None
