"""The local provider, schema-compatible with hashicorp/local 2.5.x."""

from __future__ import annotations

from engine.plugin.sdk import Provider
from providers.local.data import LocalFileData, LocalSensitiveFileData
from providers.local.files import LocalFile, LocalSensitiveFile


class LocalProvider(Provider):
    name = "local"
    version = "2.5.2"
    resources = (LocalFile, LocalSensitiveFile)
    data_sources = (LocalFileData, LocalSensitiveFileData)
