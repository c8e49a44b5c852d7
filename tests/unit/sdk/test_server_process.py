"""The provider process: handshake, plaintext gRPC calls, Shutdown (grpcio client)."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
from pathlib import Path

import grpc

from engine.plugin import msgpack_codec
from engine.plugin.proto import grpc_controller_pb2, grpc_controller_pb2_grpc
from engine.plugin.proto import tfplugin6_pb2 as pb
from engine.plugin.proto import tfplugin6_pb2_grpc as pb_grpc
from engine.plugin.sdk import to_value
from engine.plugin.sdk.server import MAGIC_COOKIE_KEY, MAGIC_COOKIE_VALUE
from providers.random.integer import RandomInteger

ROOT = Path(__file__).resolve().parents[3]


def _start(env_extra: dict[str, str]) -> subprocess.Popen[str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("PLUGIN_CLIENT_CERT", MAGIC_COOKIE_KEY)}
    env.update(env_extra, PYTHONPATH=str(ROOT))
    return subprocess.Popen([sys.executable, "-m", "providers.random"], env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def test_without_the_cookie_it_refuses() -> None:
    proc = _start({})
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 1
    assert "This binary is a plugin" in err


def test_serves_and_shuts_down() -> None:
    proc = _start({MAGIC_COOKIE_KEY: MAGIC_COOKIE_VALUE, "PLUGIN_PROTOCOL_VERSIONS": "5,6"})
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline().strip()
        core, version, net, path, kind, cert = line.split("|")
        assert (core, version, net, kind, cert) == ("1", "6", "unix", "grpc", "")
        assert os.stat(os.path.dirname(path)).st_mode & 0o777 == 0o700
        t = RandomInteger.object_type()
        null = pb.DynamicValue(msgpack=msgpack_codec.encode(to_value(None, t), t))
        dv = pb.DynamicValue(msgpack=msgpack_codec.encode(to_value({"min": 5, "max": 5}, t), t))
        with grpc.insecure_channel(f"unix:{path}") as ch:
            stub = pb_grpc.ProviderStub(ch)
            schema = stub.GetProviderSchema(pb.GetProviderSchema.Request(), timeout=10)
            assert "random_integer" in schema.resource_schemas
            planned = stub.PlanResourceChange(pb.PlanResourceChange.Request(
                type_name="random_integer", prior_state=null, proposed_new_state=dv,
                config=dv), timeout=10)
            assert not planned.diagnostics
            applied = stub.ApplyResourceChange(pb.ApplyResourceChange.Request(
                type_name="random_integer", prior_state=null,
                planned_state=planned.planned_state, config=dv), timeout=10)
            state = msgpack_codec.decode(applied.new_state.msgpack, t)
            assert state.v["result"].v == 5 and state.v["id"].v == "5"
            ctl = grpc_controller_pb2_grpc.GRPCControllerStub(ch)
            # the process may go away before the answer arrives
            with contextlib.suppress(grpc.RpcError):
                ctl.Shutdown(grpc_controller_pb2.Empty(), timeout=10)
        assert proc.wait(timeout=15) == 0
        assert not os.path.exists(path)
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.communicate()
