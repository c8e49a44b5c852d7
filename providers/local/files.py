"""local_file and local_sensitive_file: a file on the local filesystem with given content.

As hashicorp/local 2.5: exactly one of `content`, `sensitive_content` (local_file only,
deprecated), `content_base64` and `source` gives the content; every argument forces
replacement; permissions are octal strings (default "0777" for local_file, "0700" for the
sensitive variant) applied to the file and to directories created for it. `id` is the SHA-1 of
the content in hex, and the content's MD5/SHA-1/SHA-256/SHA-512 (hex and base64) are exposed.
Reading a file that is gone or whose content changed removes it from state, so the next plan
creates it again. Deleting removes the file.
"""

from __future__ import annotations

import base64
import hashlib
import os
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from engine.plugin.sdk import Attr, Obj, ProviderError, Resource, error
from engine.values import STRING

_CONTENT_ARGS = ("content", "sensitive_content", "content_base64", "source")
_PERM = re.compile(r"^0?[0-7]{3}$")


def checksums(data: bytes) -> dict[str, str]:
    """The id and checksum attributes for file content `data`."""
    return {
        "id": hashlib.sha1(data).hexdigest(),
        "content_md5": hashlib.md5(data).hexdigest(),
        "content_sha1": hashlib.sha1(data).hexdigest(),
        "content_sha256": hashlib.sha256(data).hexdigest(),
        "content_base64sha256": base64.b64encode(hashlib.sha256(data).digest()).decode(),
        "content_sha512": hashlib.sha512(data).hexdigest(),
        "content_base64sha512": base64.b64encode(hashlib.sha512(data).digest()).decode(),
    }


def checksum_fields(what: str) -> dict[str, Attr]:
    def c(desc: str) -> Attr:
        return Attr(STRING, description=desc, computed=True, use_state_for_unknown=True)

    return {
        "id": c(f"The hexadecimal encoding of the SHA1 checksum of the {what} content."),
        "content_md5": c(f"MD5 checksum of {what} content."),
        "content_sha1": c(f"SHA1 checksum of {what} content."),
        "content_sha256": c(f"SHA256 checksum of {what} content."),
        "content_base64sha256": c(f"Base64 encoded SHA256 checksum of {what} content."),
        "content_sha512": c(f"SHA512 checksum of {what} content."),
        "content_base64sha512": c(f"Base64 encoded SHA512 checksum of {what} content."),
    }


def _permission(desc_default: str) -> Attr:
    return Attr(STRING, description="Permissions to set for the output file (before umask), "
                f"expressed as string in [numeric notation](https://en.wikipedia.org/wiki/"
                f"File-system_permissions#Numeric_notation). Default value is "
                f"`\"{desc_default}\"`.", optional=True, computed=True, default=desc_default,
                requires_replace=True)


class _FileBase(Resource):
    default_permission = "0777"
    content_args: tuple[str, ...] = _CONTENT_ARGS

    def validate(self, config: Obj) -> Iterable[Any]:
        given = [a for a in self.content_args if config.value(a).is_known
                 and not config.value(a).is_null]
        unknown = [a for a in self.content_args if not config.value(a).is_known]
        out = []
        if len(given) > 1 or (not given and not unknown):
            names = ", ".join(f"[{a}]" for a in self.content_args)
            out.append(error("Invalid Attribute Combination",
                             f"Exactly one of these attributes must be configured: [{names}]",
                             given[-1] if given else "filename"))
        for p in ("file_permission", "directory_permission"):
            v = config[p]
            if isinstance(v, str) and not _PERM.match(v):
                out.append(error("Invalid Attribute Value",
                                 "bad mode for file - string length should be 3 or 4 digits: "
                                 f"{v}", p))
        return out

    @staticmethod
    def content_of(planned: Obj) -> bytes:
        for a in ("content", "sensitive_content"):
            if a in planned and planned[a] is not None:
                return str(planned[a]).encode()
        if planned["content_base64"] is not None:
            try:
                return base64.b64decode(planned["content_base64"], validate=True)
            except ValueError as e:
                raise ProviderError("Create local file error",
                                    f"An unexpected error occurred while decoding the base64 "
                                    f"content.\n\nOriginal Error: {e}", "content_base64") from None
        if planned["source"] is not None:
            try:
                return Path(planned["source"]).read_bytes()
            except OSError as e:
                raise ProviderError("Create local file error",
                                    f"An unexpected error occurred while reading the source "
                                    f"file.\n\nOriginal Error: {e}", "source") from None
        raise ProviderError("Create local file error", "No content given.")

    def create(self, planned: Obj) -> dict[str, Any]:
        data = self.content_of(planned)
        path = Path(planned["filename"])
        dmode = int(planned["directory_permission"], 8)
        fmode = int(planned["file_permission"], 8)
        try:
            if path.parent and not path.parent.exists():
                path.parent.mkdir(mode=dmode, parents=True, exist_ok=True)
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, fmode)
            with os.fdopen(fd, "wb") as f:
                f.write(data)
        except OSError as e:
            raise ProviderError("Create local file error",
                                f"An unexpected error occurred while writing the file\n\n"
                                f"Original Error: {e}") from None
        return checksums(data)

    def read(self, state: Obj) -> dict[str, Any] | None:
        try:
            data = Path(state["filename"]).read_bytes()
        except OSError:
            return None
        if hashlib.sha1(data).hexdigest() != state["id"]:
            return None
        return {}

    def delete(self, state: Obj) -> None:
        try:
            os.remove(state["filename"])
        except FileNotFoundError:
            pass
        except OSError as e:
            raise ProviderError("Delete local file error", str(e)) from None


_FILENAME = Attr(STRING, description="The path to the file that will be created.\n Missing "
                 "parent directories will be created.\n If the file already exists, it will be "
                 "overridden with the given content.", required=True, requires_replace=True)
_SOURCE = Attr(STRING, description="Path to file to use as source for the one we are creating.",
               optional=True, requires_replace=True)


class LocalFile(_FileBase):
    type_name = "local_file"
    description = "Generates a local file with the given content."
    fields = {
        "filename": _FILENAME,
        "content": Attr(STRING, description="Content to store in the file, expected to be a "
                        "UTF-8 encoded string.", optional=True, requires_replace=True),
        "sensitive_content": Attr(STRING, description="Sensitive content to store in the file, "
                                  "expected to be an UTF-8 encoded string.", optional=True,
                                  sensitive=True, requires_replace=True,
                                  deprecated="Use the `local_sensitive_file` resource instead"),
        "content_base64": Attr(STRING, description="Content to store in the file, expected to "
                               "be binary encoded as base64 string.", optional=True,
                               requires_replace=True),
        "source": _SOURCE,
        "file_permission": _permission("0777"),
        "directory_permission": _permission("0777"),
        **checksum_fields("file"),
    }


class LocalSensitiveFile(_FileBase):
    type_name = "local_sensitive_file"
    description = ("Generates a local file with the given sensitive content.")
    default_permission = "0700"
    content_args = ("content", "content_base64", "source")
    fields = {
        "filename": _FILENAME,
        "content": Attr(STRING, description="Sensitive Content to store in the file, expected "
                        "to be a UTF-8 encoded string.", optional=True, sensitive=True,
                        requires_replace=True),
        "content_base64": Attr(STRING, description="Sensitive Content to store in the file, "
                               "expected to be binary encoded as base64 string.", optional=True,
                               sensitive=True, requires_replace=True),
        "source": _SOURCE,
        "file_permission": _permission("0700"),
        "directory_permission": _permission("0700"),
        **checksum_fields("file"),
    }
