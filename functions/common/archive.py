"""Configuration versions: a `.tar.gz` of a configuration directory, unpacked safely.

`unpack` refuses members that would land outside the target (absolute paths, `..`, links
pointing out), device files, and archives larger than the limits, before writing anything.
The CI client (engine.cli.remote_client.pack) makes such archives.
"""

from __future__ import annotations

import io
import os
import tarfile

from functions.common.errors import Unprocessable

MAX_MEMBERS = 10_000


def unpack(data: bytes, target: str, max_bytes: int) -> list[str]:
    """Unpack the tarball `data` into `target` (created); the member names written.

    Raises `Unprocessable` (code `invalid_configuration_version`) for an archive that is not
    a gzipped tar, escapes `target`, holds links or devices, or exceeds `max_bytes` unpacked."""
    try:
        with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:
            members = tar.getmembers()
    except (tarfile.TarError, OSError, EOFError) as exc:
        raise Unprocessable(f"configuration version is not a .tar.gz archive: {exc}",
                            code="invalid_configuration_version") from None
    if len(members) > MAX_MEMBERS:
        raise Unprocessable(f"configuration version has more than {MAX_MEMBERS} files",
                            code="invalid_configuration_version")
    total = 0
    root = os.path.realpath(target)
    for m in members:
        name = m.name
        dest = os.path.realpath(os.path.join(root, name))
        if os.path.isabs(name) or not (dest == root or dest.startswith(root + os.sep)):
            raise Unprocessable(f"configuration version member {name!r} escapes the archive",
                                code="invalid_configuration_version")
        if not (m.isfile() or m.isdir()):
            raise Unprocessable(
                f"configuration version member {name!r} is not a regular file or directory",
                code="invalid_configuration_version")
        total += m.size
        if total > max_bytes:
            raise Unprocessable(f"configuration version unpacks to more than {max_bytes} bytes",
                                code="invalid_configuration_version")
    os.makedirs(root, exist_ok=True)
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:
        tar.extractall(root, filter="data")
    return [m.name for m in members if m.isfile()]
