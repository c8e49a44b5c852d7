"""`terraform_remote_state` with `backend = "s3"`: the root outputs of a state in S3.

The `config` object takes the arguments of a `backend "s3"` block (terraform 1.11's schema,
engine.backend.schema); it is checked as the backend checks its block, the S3 backend is
configured from it (credentials from the usual AWS chain), and the workspace's state object
is read — decrypted and checked against a DynamoDB digest when configured — without taking
the lock, as terraform reads remote state.
"""

from __future__ import annotations

import os

from engine.backend.config import BackendConfig
from engine.backend.schema import S3_SCHEMA
from engine.diags import Diagnostics
from engine.values import Value


def prepare_s3(cfg: dict[str, Value]) -> Diagnostics:
    """The S3 backend's PrepareConfig on the data source's `config`."""
    from engine.backend.s3.settings import prepare

    return prepare(BackendConfig("s3", dict(cfg), S3_SCHEMA), os.environ)


def read_s3(cfg: dict[str, Value], workspace: str, workdir: str) -> tuple[object, Diagnostics]:
    """The workspace's root outputs (LoadedOutputs); None outputs when there is no state."""
    from engine.backend.s3 import S3Backend
    from engine.plugin.builtin.remote_state import LoadedOutputs

    config = BackendConfig("s3", dict(cfg), S3_SCHEMA)
    backend, diags = S3Backend.configure(config, os.environ, os.path.join(workdir, ".terraform"))
    if backend is None:
        return LoadedOutputs(None), diags
    sf, more = backend.remote_state(workspace).read()
    diags.extend(more)
    if sf is None:
        return LoadedOutputs(None), diags
    return LoadedOutputs({k: o.value for k, o in sf.state.outputs.items()}), diags
