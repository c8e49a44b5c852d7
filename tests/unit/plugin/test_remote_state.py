"""`terraform_remote_state` with the local backend, messages as terraform 1.11.4 gives them."""

from __future__ import annotations

from pathlib import Path

from engine.plugin.builtin import TerraformProvider
from engine.plugin.paths import AttributePath
from engine.plugin.protocol import (
    AttributeDiagnostic,
    ReadDataSourceRequest,
    ReadDataSourceResponse,
    ValidateDataResourceConfigRequest,
)
from engine.values import (
    DYNAMIC,
    EMPTY_OBJECT,
    STRING,
    MapType,
    Value,
    number,
    object_,
    string,
    tuple_,
    unknown,
)

DS = "terraform_remote_state"
# written by terraform 1.11.4 (outputs o = {a = "x", n = 1}, s = "secret" sensitive)
STATE = """{
  "version": 4,
  "terraform_version": "1.11.4",
  "serial": 3,
  "lineage": "423f888f-fdfe-f9fa-1ae3-ffd69237e6a1",
  "outputs": {
    "o": {"value": {"a": "x", "n": 1}, "type": ["object", {"a": "string", "n": "number"}]},
    "s": {"value": "secret", "type": "string", "sensitive": true}
  },
  "resources": [],
  "check_results": null
}
"""
NULL = Value(DYNAMIC, None)


def cfg(
    backend: Value | str = "local",
    config: Value = NULL,
    defaults: Value = NULL,
    workspace: Value | None = None,
) -> Value:
    return object_(
        {
            "backend": string(backend) if isinstance(backend, str) else backend,
            "config": config,
            "defaults": defaults,
            "outputs": NULL,
            "workspace": workspace if workspace is not None else Value(STRING, None),
        }
    )


def read(tmp: Path, c: Value) -> ReadDataSourceResponse:
    return TerraformProvider(working_dir=str(tmp)).read_data_source(ReadDataSourceRequest(DS, c))


def details(resp: ReadDataSourceResponse) -> list[str]:
    return [d.detail for d in resp.diagnostics]


def test_reads_outputs_with_defaults_underneath(tmp_path: Path) -> None:
    (tmp_path / "other.tfstate").write_text(STATE)
    c = cfg(
        config=object_({"path": string("other.tfstate")}),
        defaults=object_({"o": string("dflt"), "extra": number(5)}),
    )
    resp = read(tmp_path, c)
    assert not resp.diagnostics
    st = resp.state.v
    assert st["outputs"] == object_(
        {
            "extra": number(5),
            "o": object_({"a": string("x"), "n": number(1)}),
            "s": string("secret"),  # not marked sensitive, as terraform
        }
    )
    assert st["backend"] == string("local") and st["config"] == c.v["config"]
    assert st["defaults"] == c.v["defaults"] and st["workspace"].is_null
    assert set(st) == {"backend", "config", "defaults", "outputs", "workspace"}


def test_default_path_and_alias_and_map_config(tmp_path: Path) -> None:
    (tmp_path / "terraform.tfstate").write_text(STATE)
    resp = read(tmp_path, cfg(backend="_local"))
    assert not resp.diagnostics and resp.state.v["defaults"] == NULL
    mapped = Value(MapType(STRING), {"path": string("terraform.tfstate")})
    assert not read(tmp_path, cfg(config=mapped)).diagnostics


def test_workspace_state_lives_under_workspace_dir(tmp_path: Path) -> None:
    ws = tmp_path / "terraform.tfstate.d" / "dev"
    ws.mkdir(parents=True)
    (ws / "terraform.tfstate").write_text(STATE)
    resp = read(tmp_path, cfg(config=object_({"path": string("ignored")}), workspace=string("dev")))
    assert not resp.diagnostics
    assert resp.state.v["workspace"] == string("dev")
    (tmp_path / "wsd" / "dev").mkdir(parents=True)
    (tmp_path / "wsd" / "dev" / "terraform.tfstate").write_text(STATE)
    c = cfg(config=object_({"workspace_dir": string("wsd")}), workspace=string("dev"))
    assert not read(tmp_path, c).diagnostics


def test_missing_state_is_an_error_on_workspace(tmp_path: Path) -> None:
    resp = read(tmp_path, cfg(config=object_({"path": string("nope.tfstate")})))
    (d,) = resp.diagnostics
    assert d.summary == "Unable to find remote state"
    assert d.detail == "No stored state was found for the given workspace in the given backend."
    assert isinstance(d, AttributeDiagnostic)
    assert d.attribute_path == AttributePath.of("workspace")
    assert resp.state.v["outputs"] == Value(EMPTY_OBJECT, {})


def test_backend_configuration_errors(tmp_path: Path) -> None:
    bad = read(tmp_path, cfg(config=object_({"pathx": string("x")})))
    assert details(bad) == [
        'The given configuration is not valid for backend "local": unexpected attribute "pathx".'
    ]
    assert bad.diagnostics.errors[0].summary == "Invalid backend configuration"
    assert details(read(tmp_path, cfg(config=object_({"path": tuple_([string("x")])})))) == [
        'The given configuration is not valid for backend "local": .path: string required.'
    ]
    assert details(read(tmp_path, cfg(config=string("str")))) == [
        'The given configuration is not valid for backend "local": an object is required.'
    ]
    nob = read(tmp_path, cfg(backend="nosuch"))
    assert details(nob) == ['There is no backend type named "nosuch".']
    assert isinstance(nob.diagnostics.errors[0], AttributeDiagnostic)
    assert nob.diagnostics.errors[0].attribute_path == AttributePath.of("backend")
    empty = read(tmp_path, cfg(config=object_({"path": string("")})))
    assert [(d.summary, d.detail) for d in empty.diagnostics] == [
        ("Invalid local state file path", 'The "path" attribute value must not be empty.')
    ]
    wsd = read(tmp_path, cfg(config=object_({"workspace_dir": string("")})))
    assert [d.summary for d in wsd.diagnostics] == ["Invalid local workspace directory path"]


def test_number_path_converts_to_string(tmp_path: Path) -> None:
    (tmp_path / "5").write_text(STATE)
    assert not read(tmp_path, cfg(config=object_({"path": number(5)}))).diagnostics


def test_corrupt_state_is_reported(tmp_path: Path) -> None:
    (tmp_path / "terraform.tfstate").write_text("{not json")
    assert read(tmp_path, cfg()).diagnostics.has_errors


def test_validate(tmp_path: Path) -> None:
    p = TerraformProvider(working_dir=str(tmp_path))

    def validate(c: Value) -> list[tuple[str, str]]:
        diags = p.validate_data_resource_config(ValidateDataResourceConfigRequest(DS, c))
        return [(d.summary, d.detail) for d in diags.diagnostics]

    assert validate(cfg(defaults=tuple_([string("a")]))) == [
        ("Invalid default values", "Defaults must be given in an object value.")
    ]
    assert validate(cfg(config=unknown(STRING))) == [
        ("Invalid backend configuration", "The configuration must be an object value.")
    ]
    assert validate(cfg(config=unknown(DYNAMIC))) == []
    assert validate(cfg(config=object_({"pathx": string("x")})))[0][0] == (
        "Invalid backend configuration"
    )
    # the backend config is only checked once known; validation never reads the state
    assert validate(cfg(config=object_({"path": string("missing")}))) == []
