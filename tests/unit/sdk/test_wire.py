from __future__ import annotations

import json

from engine.diags import Severity
from engine.plugin.paths import AttributePath
from engine.plugin.proto import tfplugin6_pb2 as pb
from engine.plugin.protocol import AttributeDiagnostic
from engine.plugin.sdk.wire import (
    diagnostic_to_proto,
    dynamic_value,
    path_from_proto,
    path_to_proto,
    schema_to_proto,
    value_of,
)
from engine.values import UNKNOWN, Value
from providers.random import RandomProvider
from providers.random.strings import RandomPassword


def test_schema_to_proto_carries_flags_and_type_json() -> None:
    msg = schema_to_proto(RandomPassword.schema())
    assert msg.version == 3
    attrs = {a.name: a for a in msg.block.attributes}
    assert [a.name for a in msg.block.attributes] == sorted(attrs)
    assert attrs["length"].required and not attrs["length"].optional
    assert attrs["result"].computed and attrs["result"].sensitive
    assert attrs["special"].optional and attrs["special"].computed
    assert json.loads(attrs["keepers"].type) == ["map", "string"]
    assert attrs["number"].deprecated


def test_dynamic_value_round_trip_with_unknowns() -> None:
    t = RandomPassword.object_type()
    v = Value(t, {k: Value(at, None) for k, at in t.attrs.items()})
    v.v["result"] = Value(t.attrs["result"], UNKNOWN)
    v.v["length"] = Value(t.attrs["length"], 12)
    dv = dynamic_value(v, t)
    assert isinstance(dv, pb.DynamicValue) and dv.msgpack
    back = value_of(dv, t)
    assert back.v["length"].v == 12
    assert not back.v["result"].is_known
    assert back.v["keepers"].is_null


def test_paths_and_diagnostics() -> None:
    path = AttributePath.of("keepers").index("k").attr("x").index(2)
    assert path_from_proto(path_to_proto(path)) == path
    d = diagnostic_to_proto(AttributeDiagnostic(Severity.ERROR, "bad", "worse",
                                                attribute_path=AttributePath.of("length")))
    assert d.severity == pb.Diagnostic.ERROR
    assert [s.attribute_name for s in d.attribute.steps] == ["length"]


def test_every_provider_schema_serialises() -> None:
    from engine.plugin.sdk import SDKProvider
    from providers.local import LocalProvider
    from providers.null import NullProvider
    from providers.time import TimeProvider

    for spec in (RandomProvider(), NullProvider(), LocalProvider(), TimeProvider()):
        s = SDKProvider(spec).get_provider_schema()
        for schema in [*s.resource_types.values(), *s.data_sources.values()]:
            assert schema_to_proto(schema).block.attributes
