"""The gRPC provider client against the real hashicorp/aws 3.39.0 binary and a moto server.

Covers: the handshake and schema (with the on-disk cache), configuring the provider against
moto, the full lifecycle (plan, apply, read, import, destroy) of an S3 bucket and an SQS queue
with boto3 checking moto after each step, the start/crash error messages, and that a provider
never outlives a groundplan process that is SIGKILLed. Timings are printed (run with -s) and
bounded loosely.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path

import boto3
import pytest

from engine.diags import Severity
from engine.plugin.grpc_client import (
    GrpcProvider,
    HandshakeError,
    PluginStartError,
    SchemaCache,
    parse_handshake,
)
from engine.plugin.paths import AttributePath
from engine.plugin.protocol import (
    ApplyResourceChangeRequest,
    AttributeDiagnostic,
    ConfigureProviderRequest,
    GetProviderSchemaResponse,
    ImportResourceStateRequest,
    PlanResourceChangeRequest,
    Provider,
    ReadResourceRequest,
    ValidateProviderConfigRequest,
    ValidateResourceConfigRequest,
)
from engine.plugin.schema import Nesting
from engine.values import BOOL, STRING, TRUE, MapType, Value, null, number, set_, string

pytestmark = pytest.mark.slow

NAME = "registry.terraform.io/hashicorp/aws"
ENDPOINTS = ("s3", "sqs", "sts", "iam", "dynamodb", "sns", "ssm", "kms")


def _clean_env(tmp: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("AWS_", "TF_"))}
    env["HOME"] = str(tmp)
    return env


def _provider_config(schema: GetProviderSchemaResponse, url: str) -> Value:
    block = schema.provider.block
    endpoints = block.block_types["endpoints"]
    ep = endpoints.block.with_attributes({k: string(url) for k in ENDPOINTS})
    return block.with_attributes(
        {
            "region": string("us-east-1"),
            "access_key": string("test"),
            "secret_key": string("test"),
            "skip_credentials_validation": TRUE,
            "skip_metadata_api_check": TRUE,
            "skip_requesting_account_id": TRUE,
            "skip_region_validation": TRUE,
            "skip_get_ec2_platforms": TRUE,
            "s3_force_path_style": TRUE,
            "endpoints": set_([ep]),
        }
    )


def _boto(service: str, url: str):  # type: ignore[no-untyped-def]
    return boto3.client(
        service, endpoint_url=url, region_name="us-east-1",
        aws_access_key_id="test", aws_secret_access_key="test",
    )


@pytest.fixture(scope="module")
def schema_cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("schema-cache")


@pytest.fixture(scope="module")
def aws(
    aws_provider_binary: Path, moto_server: str, schema_cache_dir: Path,
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[GrpcProvider]:
    """One configured provider process for the lifecycle tests of this module."""
    home = tmp_path_factory.mktemp("home")
    p = GrpcProvider.start(
        NAME, aws_provider_binary, schema_cache=SchemaCache(schema_cache_dir),
        env=_clean_env(home),
    )
    schema = p.get_provider_schema()
    assert not schema.diagnostics.has_errors
    config = _provider_config(schema, moto_server)
    v = p.validate_provider_config(ValidateProviderConfigRequest(config))
    assert not v.diagnostics.has_errors, v.diagnostics.items
    c = p.configure_provider(ConfigureProviderRequest("1.11.4", v.prepared_config))
    assert not c.diagnostics.has_errors, c.diagnostics.items
    yield p
    p.close()


# ------------------------------------------------------------------------- schema & start
def test_start_schema_and_cache(
    aws_provider_binary: Path, tmp_path: Path
) -> None:
    cache = SchemaCache(tmp_path / "cache")
    t0 = time.perf_counter()
    p = GrpcProvider.start(NAME, aws_provider_binary, schema_cache=cache,
                           env=_clean_env(tmp_path))
    t_start = time.perf_counter() - t0
    try:
        assert isinstance(p, Provider)
        assert p.protocol_version == 5
        t1 = time.perf_counter()
        cache.binary_digest(aws_provider_binary)  # hashing the binary, on the first run only
        t_hash = time.perf_counter() - t1
        t1 = time.perf_counter()
        schema = p.get_provider_schema()
        t_schema = time.perf_counter() - t1
        assert not p.schema_from_cache
        assert not schema.diagnostics
        assert len(schema.resource_types) == 711 and len(schema.data_sources) == 246

        bucket = schema.resource_types["aws_s3_bucket"]
        attr = bucket.block.attributes["bucket"]
        assert attr.type == STRING and attr.optional and attr.computed and not attr.required
        assert bucket.block.attributes["force_destroy"].type == BOOL
        assert bucket.block.attributes["tags"].type == MapType(STRING)
        assert bucket.block.block_types["versioning"].nesting is Nesting.LIST
        assert bucket.block.block_types["versioning"].max_items == 1
        assert bucket.block.block_types["cors_rule"].nesting is Nesting.LIST
        queue = schema.resource_types["aws_sqs_queue"]
        assert queue.block.attributes["arn"].computed and not queue.block.attributes["arn"].optional
        assert schema.resource_types["aws_iam_access_key"].block.attributes["secret"].sensitive
        assert schema.resource_types["aws_db_instance"].block.attributes["password"].sensitive
        assert schema.resource_types["aws_instance"].version == 1
        assert schema.provider.block.attributes["region"].required
        assert schema.provider.block.block_types["endpoints"].nesting is Nesting.SET
        assert "aws_caller_identity" in schema.data_sources
        # a deprecated attribute keeps its flag
        assert any(a.deprecated for s in schema.resource_types.values()
                   for a in s.block.attributes.values())
    finally:
        p.close()
    assert p.process.exited() == 0  # GRPCController.Shutdown: a clean exit
    assert not Path(p.process.tmpdir).exists()  # private socket dir removed

    # a second run: the schema comes from the disk cache, no GetProviderSchema call
    t2 = time.perf_counter()
    q = GrpcProvider.start(NAME, aws_provider_binary, schema_cache=cache,
                           env=_clean_env(tmp_path))
    try:
        cached = q.get_provider_schema()
        t_cached = time.perf_counter() - t2
        assert q.schema_from_cache
        assert cached.resource_types["aws_s3_bucket"] == bucket
        assert cached.provider == schema.provider
    finally:
        q.close()
    print(f"\n[measure] provider start {t_start * 1000:.0f} ms, GetProviderSchema + convert "
          f"{t_schema * 1000:.0f} ms, hashing the binary once {t_hash * 1000:.0f} ms; "
          f"second run start + schema from cache {t_cached * 1000:.0f} ms")


# ---------------------------------------------------------------------------- lifecycle
def test_s3_bucket_lifecycle(aws: GrpcProvider, moto: str) -> None:
    s3 = _boto("s3", moto)
    schema = aws.get_provider_schema().resource_types["aws_s3_bucket"]
    t = schema.block.implied_type()
    config = schema.block.with_attributes(
        {"bucket": string("gp-bucket"), "force_destroy": TRUE,
         "tags": Value(MapType(STRING), {"team": string("core")})}
    )
    val = aws.validate_resource_config(ValidateResourceConfigRequest("aws_s3_bucket", config))
    assert not val.diagnostics.has_errors

    t0 = time.perf_counter()
    plan = aws.plan_resource_change(
        PlanResourceChangeRequest("aws_s3_bucket", null(t), config, config))
    assert not plan.diagnostics.has_errors, plan.diagnostics.items
    assert plan.legacy_type_system
    assert not plan.planned_state.v["arn"].is_known
    assert plan.planned_state.v["bucket"] == string("gp-bucket")
    assert AttributePath.of("bucket") in plan.requires_replace
    applied = aws.apply_resource_change(ApplyResourceChangeRequest(
        "aws_s3_bucket", null(t), plan.planned_state, config, plan.planned_private))
    round_trip = time.perf_counter() - t0
    assert not applied.diagnostics.has_errors, applied.diagnostics.items
    state = applied.new_state
    assert state.is_wholly_known()
    assert state.v["id"] == string("gp-bucket")
    assert state.v["arn"] == string("arn:aws:s3:::gp-bucket")
    assert [b["Name"] for b in s3.list_buckets()["Buckets"]] == ["gp-bucket"]
    assert s3.get_bucket_tagging(Bucket="gp-bucket")["TagSet"] == [
        {"Key": "team", "Value": "core"}]
    print(f"\n[measure] aws_s3_bucket plan+apply round trip {round_trip * 1000:.0f} ms")

    # read: unchanged; after an out-of-band tag change, the drift shows
    read = aws.read_resource(ReadResourceRequest("aws_s3_bucket", state, applied.private))
    assert not read.diagnostics.has_errors
    assert read.new_state.v["tags"] == state.v["tags"]
    s3.put_bucket_tagging(Bucket="gp-bucket", Tagging={"TagSet": [{"Key": "x", "Value": "y"}]})
    drift = aws.read_resource(ReadResourceRequest("aws_s3_bucket", state, applied.private))
    assert drift.new_state.v["tags"].v == {"x": string("y")}

    # import by id, then read, as terraform import does
    imp = aws.import_resource_state(ImportResourceStateRequest("aws_s3_bucket", "gp-bucket"))
    assert not imp.diagnostics.has_errors, imp.diagnostics.items
    [obj] = imp.imported_resources
    assert obj.type_name == "aws_s3_bucket" and obj.state.v["id"] == string("gp-bucket")
    full = aws.read_resource(ReadResourceRequest("aws_s3_bucket", obj.state, obj.private))
    assert full.new_state.v["arn"] == string("arn:aws:s3:::gp-bucket")

    # destroy
    dplan = aws.plan_resource_change(PlanResourceChangeRequest(
        "aws_s3_bucket", drift.new_state, null(t), null(t), drift.private))
    assert not dplan.diagnostics.has_errors and dplan.planned_state.is_null
    gone = aws.apply_resource_change(ApplyResourceChangeRequest(
        "aws_s3_bucket", drift.new_state, null(t), null(t), dplan.planned_private))
    assert not gone.diagnostics.has_errors, gone.diagnostics.items
    assert gone.new_state.is_null
    assert s3.list_buckets()["Buckets"] == []
    after = aws.read_resource(ReadResourceRequest("aws_s3_bucket", state, applied.private))
    assert after.new_state.is_null  # no longer exists


def test_sqs_queue_lifecycle_with_update_and_replace(aws: GrpcProvider, moto: str) -> None:
    sqs = _boto("sqs", moto)
    schema = aws.get_provider_schema().resource_types["aws_sqs_queue"]
    t = schema.block.implied_type()
    config = schema.block.with_attributes({"name": string("gp-queue")})
    plan = aws.plan_resource_change(
        PlanResourceChangeRequest("aws_sqs_queue", null(t), config, config))
    assert plan.planned_state.v["visibility_timeout_seconds"] == number(30)  # default filled
    applied = aws.apply_resource_change(ApplyResourceChangeRequest(
        "aws_sqs_queue", null(t), plan.planned_state, config, plan.planned_private))
    assert not applied.diagnostics.has_errors, applied.diagnostics.items
    state = applied.new_state
    url = state.v["id"].v
    assert url.endswith("/gp-queue")
    assert sqs.list_queues()["QueueUrls"] == [url]

    # update in place
    config2 = schema.block.with_attributes(
        {"name": string("gp-queue"), "visibility_timeout_seconds": number(45)})
    proposed = Value(t, {**state.v, "visibility_timeout_seconds": number(45)})
    up = aws.plan_resource_change(PlanResourceChangeRequest(
        "aws_sqs_queue", state, proposed, config2, applied.private))
    assert not up.diagnostics.has_errors and up.requires_replace == []
    done = aws.apply_resource_change(ApplyResourceChangeRequest(
        "aws_sqs_queue", state, up.planned_state, config2, up.planned_private))
    assert not done.diagnostics.has_errors, done.diagnostics.items
    attrs = sqs.get_queue_attributes(QueueUrl=url, AttributeNames=["VisibilityTimeout"])
    assert attrs["Attributes"]["VisibilityTimeout"] == "45"
    state = done.new_state

    # a new name forces replacement
    proposed3 = Value(t, {**state.v, "name": string("gp-queue-2")})
    rep = aws.plan_resource_change(PlanResourceChangeRequest(
        "aws_sqs_queue", state, proposed3, proposed3, done.private))
    assert AttributePath.of("name") in rep.requires_replace

    # import and read back, then destroy
    imp = aws.import_resource_state(ImportResourceStateRequest("aws_sqs_queue", url))
    [obj] = imp.imported_resources
    read = aws.read_resource(ReadResourceRequest("aws_sqs_queue", obj.state, obj.private))
    assert read.new_state.v["name"] == string("gp-queue")
    assert read.new_state.v["visibility_timeout_seconds"] == number(45)
    gone = aws.apply_resource_change(ApplyResourceChangeRequest(
        "aws_sqs_queue", state, null(t), null(t), done.private))
    assert not gone.diagnostics.has_errors and gone.new_state.is_null
    assert sqs.list_queues().get("QueueUrls", []) == []


def test_provider_diagnostics_carry_attribute_paths(aws: GrpcProvider) -> None:
    schema = aws.get_provider_schema().resource_types["aws_s3_bucket"]
    bad = schema.block.with_attributes(
        {"bucket": string("b"), "request_payer": string("Nobody")})
    resp = aws.validate_resource_config(ValidateResourceConfigRequest("aws_s3_bucket", bad))
    errs = resp.diagnostics.errors
    assert errs, "an invalid request_payer must be refused"
    assert any(isinstance(d, AttributeDiagnostic)
               and d.attribute_path == AttributePath.of("request_payer") for d in errs)
    unknown_type = aws.validate_resource_config(
        ValidateResourceConfigRequest("aws_nope", bad))
    assert "aws_nope" in unknown_type.diagnostics.errors[0].detail


# ------------------------------------------------------------------------------- errors
def test_missing_binary(tmp_path: Path) -> None:
    with pytest.raises(PluginStartError, match=r"provider example/missing: .*does not exist"):
        GrpcProvider.start("example/missing", tmp_path / "terraform-provider-missing")


def _script(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "terraform-provider-fake"
    path.write_text("#!/bin/sh\n" + textwrap.dedent(body))
    path.chmod(0o755)
    return path


def test_binary_that_exits_is_not_a_plugin(tmp_path: Path) -> None:
    fake = _script(tmp_path, "echo 'This binary is a plugin. Do not run it directly.' >&2\nexit 3\n")
    with pytest.raises(PluginStartError) as ei:
        GrpcProvider.start("example/fake", fake)
    msg = str(ei.value)
    assert "provider example/fake" in msg and "exited with status 3 before the handshake" in msg
    assert "This binary is a plugin" in msg


def test_binary_without_handshake_times_out(tmp_path: Path) -> None:
    """The start gives up after start_timeout and does not leave the silent process behind
    (it would otherwise sleep on for 30 s)."""
    pidfile = tmp_path / "pid"
    fake = _script(tmp_path, f"echo $$ > {pidfile}\nexec sleep 30\n")
    with pytest.raises(PluginStartError, match=r"example/silent: the plugin printed no handshake "
                                               r"within 0.5s"):
        GrpcProvider.start("example/silent", fake, start_timeout=0.5)
    assert _gone(int(pidfile.read_text()))


def test_garbage_handshake_line(tmp_path: Path) -> None:
    fake = _script(tmp_path, "echo 'hello world'\nexec sleep 30\n")
    with pytest.raises(PluginStartError,
                       match=r"example/garbage: invalid plugin handshake: unrecognized remote "
                             r"plugin message: 'hello world'"):
        GrpcProvider.start("example/garbage", fake)


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("2|5|unix|/tmp/x|grpc|", "incompatible core API version"),
        ("1|4|unix|/tmp/x|grpc|", "protocol version 4"),
        ("1|5|pipe|/tmp/x|grpc|", "unknown address type"),
        ("1|5|unix|/tmp/x|netrpc|", "only grpc"),
        ("1|5|unix|/tmp/x|grpc|!!", "not valid base64"),
    ],
)
def test_handshake_line_errors(line: str, message: str) -> None:
    with pytest.raises(HandshakeError, match=message):
        parse_handshake(line, (5, 6))


def test_handshake_line_with_certificate() -> None:
    hs = parse_handshake("1|6|unix|/tmp/plugin1|grpc|MIIB\n", (5, 6))
    assert hs.protocol_version == 6 and hs.grpc_target == "unix:/tmp/plugin1"
    assert hs.server_cert_der == bytes([0x30, 0x82, 0x01])


def test_crash_mid_call_names_the_provider(aws_provider_binary: Path, tmp_path: Path) -> None:
    # Without credentials Configure fails; PlanResourceChange then makes the SDK panic.
    p = GrpcProvider.start(NAME, aws_provider_binary, env=_clean_env(tmp_path))
    try:
        schema = p.get_provider_schema()
        cfg = schema.provider.block.with_attributes({
            "region": string("us-east-1"), "skip_credentials_validation": TRUE,
            "skip_metadata_api_check": TRUE, "skip_requesting_account_id": TRUE,
            "skip_get_ec2_platforms": TRUE})
        conf = p.configure_provider(ConfigureProviderRequest("1.11.4", cfg))
        assert "no valid credential sources" in conf.diagnostics.errors[0].summary
        rs = schema.resource_types["aws_sqs_queue"]
        q = rs.block.with_attributes({"name": string("q")})
        t = rs.block.implied_type()
        resp = p.plan_resource_change(PlanResourceChangeRequest("aws_sqs_queue", null(t), q, q))
        [d] = resp.diagnostics.items
        assert d.severity is Severity.ERROR and d.summary == "Plugin did not respond"
        assert d.detail.startswith(
            "The plugin encountered an error, and failed to respond to the "
            "plugin.(*GRPCProvider).PlanResourceChange call.")
        assert NAME in d.detail and "exited with status 2" in d.detail
        assert "panic: " in d.detail
        # later calls fail the same way instead of hanging
        again = p.read_resource(ReadResourceRequest("aws_sqs_queue", null(t)))
        assert again.diagnostics.errors[0].summary == "Plugin did not respond"
    finally:
        assert not p.close().has_errors


def test_provider_killed_between_calls(aws_provider_binary: Path, tmp_path: Path) -> None:
    p = GrpcProvider.start(NAME, aws_provider_binary, env=_clean_env(tmp_path))
    try:
        os.kill(p.process.pid, signal.SIGKILL)
        resp = p.get_provider_schema()
        [d] = resp.diagnostics.errors
        assert d.summary == "Plugin did not respond"
        assert "plugin.(*GRPCProvider).GetSchema call" in d.detail and NAME in d.detail
    finally:
        p.close()
    assert not Path(p.process.tmpdir).exists()


# ------------------------------------------------------------------------------ lifetime
def _gone(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(") ", 1)[1].startswith(("Z", "X"))  # zombie: dead
    except FileNotFoundError:
        return True


def test_provider_dies_with_sigkilled_parent(aws_provider_binary: Path, tmp_path: Path) -> None:
    code = textwrap.dedent(f"""
        import sys, threading, time
        from engine.plugin.grpc_client import GrpcProvider
        holder = []
        # launched from a short-lived worker thread: the provider must survive that thread
        th = threading.Thread(target=lambda: holder.append(
            GrpcProvider.start("{NAME}", {str(aws_provider_binary)!r})))
        th.start(); th.join()
        p = holder[0]
        print(p.process.pid, p.process.tmpdir, flush=True)
        time.sleep(60)
    """)
    parent = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE,
                              cwd=Path(__file__).resolve().parents[2], text=True)
    assert parent.stdout is not None
    line = parent.stdout.readline().split()
    pid, sockdir = int(line[0]), line[1]
    time.sleep(0.3)
    assert not _gone(pid), "the provider must outlive the thread that launched it"
    parent.send_signal(signal.SIGKILL)
    parent.wait()
    deadline = time.monotonic() + 10
    while not _gone(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _gone(pid), "the provider outlived its SIGKILLed parent"
    # the next start in another process removes the dead process's private socket directory
    p = GrpcProvider.start(NAME, aws_provider_binary)
    p.close()
    assert not Path(sockdir).exists()
