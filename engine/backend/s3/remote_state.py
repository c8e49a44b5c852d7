"""One workspace's state object in S3: the `Storage` the state manager reads and writes.

Reading fetches the object (decrypting it with the configured `StateEncryption`), and with a
DynamoDB table checks it against the stored MD5 digest, retrying as terraform does (every 2 s
for up to 10 s) before terraform's "state data in S3 does not have the expected content"
error. It remembers the object's ETag.

Writing follows terraform's persistence policy (nothing written when the state is unchanged,
the serial incremented, a new lineage at serial 1 for a first state) and, beyond terraform,
is conditional: `If-Match: <ETag read>` when there was an object, `If-None-Match: *` when
there was none. A refused condition means someone else wrote the state since it was read;
nothing is written and the error says so (the state manager then saves `errored.tfstate`).
After every write the digest item is updated, as terraform does.

Bad input never becomes a traceback or a write: an object that is not a state, a newer
format, a bucket that does not exist, no access — each is a diagnostic naming bucket and key,
and after a failed read `write` refuses to replace what it could not read.
"""

from __future__ import annotations

import contextlib
import hashlib
import time
from collections.abc import Callable

from engine.backend.s3.client import Payload, PreconditionFailed, S3Client, S3Error
from engine.backend.s3.dynamo import DynamoError, LockTable
from engine.diags import Diagnostic, Diagnostics, error, warning
from engine.states.encryption import PASSTHROUGH, EncryptionError, StateEncryption
from engine.states.state import State, StateFile, new_lineage
from engine.states.statefile import read_state, states_equal, write_state

CONSISTENCY_TIMEOUT = 10.0
CONSISTENCY_POLL = 2.0

BAD_CHECKSUM = """state data in S3 does not have the expected content.

The checksum calculated for the state stored in S3 does not match the checksum
stored in DynamoDB.

Bucket: {bucket}
Key:    {key}
Calculated checksum: {digest}
Stored checksum:     {expected}

This may be caused by unusually long delays in S3 processing a previous state
update. Please wait for a minute or two and try again.

{resolution}
"""


def _resolution(digest: bytes) -> str:
    if digest:
        return ("If this problem persists, and neither S3 nor DynamoDB are experiencing an\n"
                "outage, you may need to manually verify the remote state and update the Digest\n"
                f"value stored in the DynamoDB table to the following value: {digest.hex()}")
    return ("If this problem persists, and neither S3 nor DynamoDB are experiencing an\n"
            "outage, you may need to manually verify the remote state and remove the Digest\n"
            "value stored in the DynamoDB table")


class RemoteState:
    """The state object `key` in the client's bucket (see the module docstring)."""

    def __init__(
        self,
        client: S3Client,
        key: str,
        *,
        table: LockTable | None = None,
        lock_id: str = "",
        encryption: StateEncryption | None = None,
        sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.client = client
        self.key = key
        self.table = table
        self.lock_id = lock_id
        self.encryption = encryption or PASSTHROUGH
        self.path = f"s3://{client.bucket}/{key}"
        self._sleep = sleep
        self._clock = clock
        self._read: StateFile | None = None
        self._etag = ""
        self._loaded = False
        self._unreadable = False

    @property
    def etag(self) -> str:
        """The ETag of the object last read or written ("" when there was none)."""
        return self._etag

    def _where(self, d: Diagnostic) -> Diagnostic:
        detail = d.detail + ("\n\n" if d.detail else "") + (
            f"Bucket: {self.client.bucket}\nKey:    {self.key}")
        return error(d.summary, detail) if d.is_error else warning(d.summary, detail)

    def _fetch(self) -> tuple[Payload | None, Diagnostics]:
        """The object, checked against the digest item (terraform's RemoteClient.Get)."""
        diags = Diagnostics()
        deadline = self._clock() + CONSISTENCY_TIMEOUT
        while True:
            try:
                payload = self.client.get(self.key)
            except S3Error as exc:
                diags.append(error("Failed to load state", str(exc)))
                return None, diags
            if payload is None:
                problem = self._directory_problem()
                if problem:
                    diags.append(error("Failed to load state", problem))
                    return None, diags
            if self.table is None:
                return payload, diags
            try:
                expected = self.table.get_digest(self.lock_id)
            except DynamoError:
                return payload, diags  # terraform only logs a failed digest read
            digest = payload.md5 if payload is not None else b""
            if expected is None or expected == digest:
                return payload, diags
            if self._clock() < deadline:
                self._sleep(CONSISTENCY_POLL)
                continue
            diags.append(error("Failed to load state", "Error refreshing state: " + BAD_CHECKSUM.format(
                bucket=self.client.bucket, key=self.key, digest=digest.hex(),
                expected=expected.hex(), resolution=_resolution(digest))))
            return None, diags

    def _directory_problem(self) -> str:
        """Why a missing key is not simply "no state": it names a "directory" of objects."""
        try:
            under = self.client.list_keys(self.key + "/")
        except S3Error:
            return ""
        if not under:
            return ""
        return (f'The key "{self.key}" in S3 bucket "{self.client.bucket}" is a directory '
                f'(there are objects under "{self.key}/", such as "{under[0]}"), not a state '
                "object. Choose a key that names an object.")

    def read(self) -> tuple[StateFile | None, Diagnostics]:
        """The current snapshot, or None when there is no state object yet (or it is empty)."""
        self._unreadable = False
        payload, diags = self._fetch()
        if diags.has_errors:
            self._unreadable = True
            return None, diags
        self._loaded = True
        if payload is None:
            self._read, self._etag = None, ""
            return None, diags
        try:
            plain = self.encryption.decrypt(payload.data)
        except EncryptionError as exc:
            self._unreadable = True
            diags.extend(self._where(d) for d in exc.diags)
            return None, diags
        sf, more = read_state(plain)
        if more.has_errors:
            self._unreadable = True
            diags.extend(self._where(d) if d.is_error else d for d in more)
            return None, diags
        diags.extend(more)
        self._read, self._etag = sf, payload.etag
        return sf, diags

    def write(self, state: State) -> tuple[StateFile | None, Diagnostics]:
        """Persist `state` under the persistence policy, conditionally (module docstring)."""
        diags = Diagnostics()
        if not self._loaded:
            _, more = self.read()
            diags.extend(more)
            if diags.has_errors:
                return None, diags
        if self._unreadable:
            diags.append(error("Failed to save state", (
                f"{self.path} holds a state that could not be read; it is left as it is rather "
                "than replaced.")))
            return None, diags
        prev = self._read
        if prev is not None and states_equal(prev.state, state):
            return prev, diags
        if prev is None:
            sf = StateFile(state=state, lineage=new_lineage(), serial=1)
        else:
            sf = StateFile(state=state, lineage=prev.lineage, serial=prev.serial + 1)
        return self.write_file(sf)

    def write_file(self, sf: StateFile) -> tuple[StateFile | None, Diagnostics]:
        """Store exactly `sf` (lineage and serial as given), conditionally on what was read."""
        diags = Diagnostics()
        try:
            text = write_state(sf)
        except Exception as exc:  # a value the codec cannot encode
            diags.append(error("Failed to serialize state", str(exc)))
            return None, diags
        try:
            data = self.encryption.encrypt(text.encode("utf-8"))
        except EncryptionError as exc:
            diags.extend(exc.diags)
            return None, diags
        try:
            etag = self.client.put(self.key, data, if_match=self._etag,
                                   if_none_match=not self._etag)
        except PreconditionFailed as exc:
            diags.append(error("Failed to save state", (
                f"The state in {self.path} was changed by someone else after this run read it "
                f"(it was read {'with ETag ' + self._etag if self._etag else 'as not existing'})"
                "; writing it would lose their update, so nothing was written.\n\n"
                f"{exc}")))
            return None, diags
        except S3Error as exc:
            diags.append(error("Failed to save state", str(exc)))
            return None, diags
        self._etag = etag
        self._read = sf
        if self.table is not None:
            try:
                self.table.put_digest(self.lock_id, hashlib.md5(data).digest())
            except DynamoError as exc:
                diags.append(warning("Failed to record the state checksum", str(exc)))
        return sf, diags

    def delete(self) -> Diagnostics:
        """Remove the state object and its digest item (workspace delete)."""
        diags = Diagnostics()
        try:
            self.client.delete(self.key)
        except S3Error as exc:
            diags.append(error("Failed to delete workspace", str(exc)))
            return diags
        if self.table is not None:
            with contextlib.suppress(DynamoError):  # terraform only logs this
                self.table.delete_digest(self.lock_id)
        return diags
