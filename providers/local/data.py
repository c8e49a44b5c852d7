"""The local_file and local_sensitive_file data sources: read a file's content (as UTF-8 text
and as base64) and its checksums; the sensitive variant marks both contents sensitive."""

from __future__ import annotations

import base64
from pathlib import Path
from typing import Any

from engine.plugin.sdk import Attr, DataSource, Obj, ProviderError
from engine.values import STRING
from providers.local.files import checksum_fields, checksums


class _FileData(DataSource):
    def read(self, config: Obj) -> dict[str, Any]:
        try:
            data = Path(config["filename"]).read_bytes()
        except OSError as e:
            raise ProviderError("Read local file data source error",
                                f"The file at given path cannot be read.\n\n+Original Error: "
                                f"{e}", "filename") from None
        out = checksums(data)
        out.update(content=data.decode("utf-8", errors="replace"),
                   content_base64=base64.b64encode(data).decode())
        return out


def _fields(sensitive: bool) -> dict[str, Attr]:
    return {
        "filename": Attr(STRING, description="Path to the file that will be read. The data "
                         "source will return an error if the file does not exist.",
                         required=True),
        "content": Attr(STRING, description="Raw content of the file that was read, as UTF-8 "
                        "encoded string. Files that do not contain UTF-8 text will have "
                        "invalid UTF-8 sequences in `content`\n  replaced with the Unicode "
                        "replacement character.", computed=True, sensitive=sensitive),
        "content_base64": Attr(STRING, description="Base64 encoded version of the file content "
                               "(use this when dealing with binary data).", computed=True,
                               sensitive=sensitive),
        **checksum_fields("file"),
    }


class LocalFileData(_FileData):
    type_name = "local_file"
    description = "Reads a file from the local filesystem."
    fields = _fields(False)


class LocalSensitiveFileData(_FileData):
    type_name = "local_sensitive_file"
    description = "Reads a file that contains sensitive data, from the local filesystem."
    fields = _fields(True)
