"""The `terraform_remote_state` data source of the built-in `terraform` provider.

Reads the root module outputs of another configuration's latest state snapshot, as Terraform's
data_source_state.go does: `backend` names the backend ("_local" is an old spelling of
"local"), `config` is that backend's configuration as an object (or map), `workspace` picks a
workspace ("default" when null), `defaults` supplies values for outputs the state lacks. The
result's `outputs` is an object of every output (defaults first, then the state's outputs over
them); output values are not marked sensitive, as in Terraform.

Backends: "s3" (engine.plugin.builtin.remote_state_s3: the arguments of a `backend "s3"`
block), "local" (`path`, default "terraform.tfstate"; non-default workspaces live at
`<workspace_dir or terraform.tfstate.d>/<name>/terraform.tfstate`), relative paths resolved
against the provider's working directory. Other backends can be plugged in as
`Backend`s keyed by backend name.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from engine.diags import Diagnostics, error
from engine.gocompat.strconv import quote as go_quote
from engine.plugin.paths import AttributePath
from engine.plugin.protocol import (
    ReadDataSourceRequest,
    ReadDataSourceResponse,
    ValidateDataResourceConfigRequest,
    ValidateDataResourceConfigResponse,
    attribute_error,
)
from engine.plugin.schema import Attribute, Block, Schema
from engine.values import (
    BOOL,
    DYNAMIC,
    EMPTY_OBJECT,
    NUMBER,
    STRING,
    MapType,
    ObjectType,
    Type,
    Value,
    object_,
)

TYPE_NAME = "terraform_remote_state"
DEFAULT_WORKSPACE = "default"

SCHEMA = Schema(
    Block(
        attributes={
            "backend": Attribute(
                type=STRING,
                required=True,
                description="The remote backend to use, e.g. `remote` or `http`.",
                description_kind="markdown",
            ),
            "config": Attribute(
                type=DYNAMIC,
                optional=True,
                description="The configuration of the remote backend. Although this is "
                "optional, most backends require some configuration.\n\nThe object can use "
                "any arguments that would be valid in the equivalent `terraform { backend "
                '"<TYPE>" { ... } }` block.',
                description_kind="markdown",
            ),
            "defaults": Attribute(
                type=DYNAMIC,
                optional=True,
                description="Default values for outputs, in case the state file is empty or "
                "lacks a required output.",
                description_kind="markdown",
            ),
            "outputs": Attribute(
                type=DYNAMIC,
                computed=True,
                description="An object containing every root-level output in the remote state.",
                description_kind="markdown",
            ),
            "workspace": Attribute(
                type=STRING,
                optional=True,
                description="The groundplan workspace to use, if the backend supports workspaces.",
                description_kind="markdown",
            ),
        }
    )
)

# Backends Terraform 1.11 knows; only those with a reader can be read here.
KNOWN_BACKENDS = frozenset(
    {
        "azurerm",
        "consul",
        "cos",
        "gcs",
        "http",
        "inmem",
        "kubernetes",
        "local",
        "oss",
        "pg",
        "remote",
        "s3",
        "cloud",
    }
)


@dataclass(frozen=True, slots=True)
class LoadedOutputs:
    """What a backend found: None when no state exists for the workspace."""

    outputs: dict[str, Value] | None


# (backend config as {name: Value}, workspace, working directory) -> outputs and diagnostics
StateReader = Callable[[dict[str, Value], str, str], tuple[LoadedOutputs, Diagnostics]]


def _invalid_config(backend: str, msg: str) -> Diagnostics:
    return Diagnostics(
        [
            attribute_error(
                "Invalid backend configuration",
                f'The given configuration is not valid for backend "{backend}": {msg}.',
                AttributePath.of("config"),
            )
        ]
    )


def _coerce_strings(
    backend: str, cfg: Value, names: frozenset[str]
) -> tuple[dict[str, Value] | None, Diagnostics]:
    """`cfg` (null, object or map) as {attribute: string Value}; errors worded as cty's."""
    if cfg.is_null:
        return {name: Value(STRING, None) for name in names}, Diagnostics()
    if not isinstance(cfg.type, (ObjectType, MapType)) or not isinstance(cfg.v, dict):
        return None, _invalid_config(backend, "an object is required")
    for name in sorted(cfg.v):
        if name not in names:
            return None, _invalid_config(backend, f'unexpected attribute "{name}"')
    out: dict[str, Value] = {}
    for name in sorted(names):
        v = cfg.v.get(name)
        if v is None or v.is_null:
            out[name] = Value(STRING, None)
        elif v.type == STRING:
            out[name] = v
        elif v.type == BOOL and v.is_known:
            out[name] = Value(STRING, "true" if v.v else "false")
        elif v.type == NUMBER and v.is_known:
            from engine.values.numbers import format_number

            out[name] = Value(STRING, format_number(v.v))
        else:
            return None, _invalid_config(backend, f".{name}: string required")
    return out, Diagnostics()


def prepare_local(cfg: dict[str, Value]) -> Diagnostics:
    """The local backend's checks: `path` and `workspace_dir` must not be empty strings."""
    diags = Diagnostics()
    if cfg["path"].v == "":
        diags.append(
            error("Invalid local state file path", 'The "path" attribute value must not be empty.')
        )
    if cfg["workspace_dir"].v == "":
        diags.append(
            error(
                "Invalid local workspace directory path",
                'The "workspace_dir" attribute value must not be empty.',
            )
        )
    return diags


def read_local(
    cfg: dict[str, Value], workspace: str, workdir: str
) -> tuple[LoadedOutputs, Diagnostics]:
    """The local backend: read the workspace's state file; None when it does not exist."""
    from engine.states.statefile import read_state

    diags = Diagnostics()
    path_v, wsdir_v = cfg["path"], cfg["workspace_dir"]
    if workspace == DEFAULT_WORKSPACE:
        path = path_v.v if isinstance(path_v.v, str) else "terraform.tfstate"
    else:
        wsdir = wsdir_v.v if isinstance(wsdir_v.v, str) else "terraform.tfstate.d"
        path = os.path.join(wsdir, workspace, "terraform.tfstate")
    full = os.path.join(workdir, path)
    try:
        with open(full, encoding="utf-8") as f:
            text = f.read()
    except FileNotFoundError:
        return LoadedOutputs(None), diags
    except OSError as exc:
        diags.append(
            error("Error loading state", f"Failed to read state file {path}: {exc.strerror}")
        )
        return LoadedOutputs(None), diags
    if not text.strip():
        return LoadedOutputs(None), diags
    sf, rdiags = read_state(text)
    diags.extend(rdiags)
    if sf is None:
        return LoadedOutputs(None), diags
    return LoadedOutputs({k: o.value for k, o in sf.state.outputs.items()}), diags


@dataclass(frozen=True, slots=True)
class Backend:
    """A backend usable by the data source: its config attribute names (all strings unless
    `types` gives each one's type), its config checks, and its state reader."""

    attributes: frozenset[str]
    prepare: Callable[[dict[str, Value]], Diagnostics]
    read: StateReader
    types: Mapping[str, Type] | None = None


LOCAL_BACKEND = Backend(frozenset({"path", "workspace_dir"}), prepare_local, read_local)


def _s3_backend() -> Backend:
    from engine.backend.schema import S3_SCHEMA
    from engine.plugin.builtin.remote_state_s3 import prepare_s3, read_s3

    return Backend(frozenset(S3_SCHEMA.attributes), prepare_s3, read_s3,  # type: ignore[arg-type]
                   S3_SCHEMA.attributes)


def _coerce_typed(
    backend: str, cfg: Value, types: Mapping[str, Type]
) -> tuple[dict[str, Value] | None, Diagnostics]:
    """`cfg` (null, object or map) as {attribute: Value of its schema type}."""
    from engine.values.convert import ConversionError, convert

    out = {name: Value(t, None) for name, t in types.items()}
    if cfg.is_null:
        return out, Diagnostics()
    if not isinstance(cfg.type, (ObjectType, MapType)) or not isinstance(cfg.v, dict):
        return None, _invalid_config(backend, "an object is required")
    for name in sorted(cfg.v):
        if name not in types:
            return None, _invalid_config(backend, f'unexpected attribute "{name}"')
        try:
            out[name] = convert(cfg.v[name].unmark()[0], types[name])
        except ConversionError as exc:
            return None, _invalid_config(backend, f".{name}: {exc.message}")
    return out, Diagnostics()


class RemoteStateSource:
    """The data source, with its backends and the directory relative paths start from."""

    def __init__(
        self,
        working_dir: str | None = None,
        backends: Mapping[str, Backend] | None = None,
    ) -> None:
        self.working_dir = working_dir
        self.backends = (dict(backends) if backends is not None
                         else {"local": LOCAL_BACKEND, "s3": _s3_backend()})

    def _backend(
        self, cfg: Value
    ) -> tuple[tuple[str, dict[str, Value], StateReader] | None, Diagnostics]:
        backend = cfg.v["backend"].v
        if backend == "_local":
            backend = "local"
        if backend not in self.backends:
            detail = f"There is no backend type named {go_quote(backend)}."
            if backend in KNOWN_BACKENDS:
                detail = (
                    f'The backend "{backend}" is not supported for reading remote state here; '
                    f"supported: {', '.join(sorted(self.backends))}."
                )
            return None, Diagnostics(
                [
                    attribute_error(
                        "Invalid backend configuration", detail, AttributePath.of("backend")
                    )
                ]
            )
        chosen = self.backends[backend]
        if chosen.types is not None:
            conf, diags = _coerce_typed(backend, cfg.v["config"], chosen.types)
        else:
            conf, diags = _coerce_strings(backend, cfg.v["config"], chosen.attributes)
        if conf is None:
            return None, diags
        diags.extend(chosen.prepare(conf))
        if diags.has_errors:
            return None, diags
        return (backend, conf, chosen.read), diags

    def validate(
        self, req: ValidateDataResourceConfigRequest
    ) -> ValidateDataResourceConfigResponse:
        """Check the backend configuration when it is known, else only its type; check that
        `defaults` is an object or map."""
        resp = ValidateDataResourceConfigResponse()
        cfg = req.config
        if cfg.is_null or not isinstance(cfg.v, dict):
            return resp
        config, backend = cfg.v["config"], cfg.v["backend"]
        if config.is_wholly_known() and backend.is_known and not backend.is_null:
            _, diags = self._backend(cfg)
            resp.diagnostics.extend(diags)
        elif config.type != DYNAMIC and not isinstance(config.type, (ObjectType, MapType)):
            resp.diagnostics.append(
                attribute_error(
                    "Invalid backend configuration",
                    "The configuration must be an object value.",
                    AttributePath.of("config"),
                )
            )
        dtype = cfg.v["defaults"].type
        if dtype != DYNAMIC and not isinstance(dtype, (ObjectType, MapType)):
            resp.diagnostics.append(
                attribute_error(
                    "Invalid default values",
                    "Defaults must be given in an object value.",
                    AttributePath.of("defaults"),
                )
            )
        return resp

    def read(self, req: ReadDataSourceRequest) -> ReadDataSourceResponse:
        """Load the state and shape the result object."""
        resp = ReadDataSourceResponse()
        cfg = req.config
        found, diags = self._backend(cfg)
        resp.diagnostics.extend(diags)
        if found is None or diags.has_errors:
            return resp
        _, conf, reader = found
        ws = cfg.v["workspace"]
        workspace = ws.v if isinstance(ws.v, str) else DEFAULT_WORKSPACE
        loaded, ldiags = reader(conf, workspace, self.working_dir or os.getcwd())
        resp.diagnostics.extend(ldiags)
        if ldiags.has_errors:
            return resp
        new: dict[str, Value] = {
            "backend": cfg.v["backend"],
            "config": cfg.v["config"],
            "workspace": ws,
        }
        outputs: dict[str, Value] = {}
        defaults = cfg.v["defaults"]
        if not defaults.is_null:
            new["defaults"] = defaults
            if isinstance(defaults.v, dict):
                outputs.update(defaults.v)
        else:
            new["defaults"] = Value(DYNAMIC, None)
        if loaded.outputs is None:
            resp.diagnostics.append(
                attribute_error(
                    "Unable to find remote state",
                    "No stored state was found for the given workspace in the given backend.",
                    AttributePath.of("workspace"),
                )
            )
            new["outputs"] = Value(EMPTY_OBJECT, {})
            resp.state = object_(dict(sorted(new.items())))
            return resp
        outputs.update(loaded.outputs)
        new["outputs"] = object_(dict(sorted(outputs.items())))
        resp.state = object_(dict(sorted(new.items())))
        return resp


