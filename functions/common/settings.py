"""The control plane's settings, read once from the environment of a function.

The SAM template sets these variables on every function; `groundplan cloud local` sets them
for the in-process handlers. Names of tables and buckets are the only deployment-specific
facts a handler needs."""

from __future__ import annotations

import os
from dataclasses import dataclass


@dataclass(frozen=True)
class Settings:
    runs_table: str
    workspaces_table: str
    locks_table: str
    tokens_table: str
    nodes_table: str
    idempotency_table: str
    audit_table: str
    config_bucket: str
    artifact_bucket: str
    state_bucket: str
    kms_key_id: str
    state_machine_arn: str
    apply_node_function: str
    apply_executions: int
    slack_secret_id: str
    api_token_secret_id: str
    plugin_dir: str
    work_root: str
    region: str
    approval_timeout: int
    max_upload_bytes: int

    @property
    def apply_parallelism(self) -> int:
        """Nodes an apply keeps applying at once: the apply-node function's executions
        (its reserved concurrency) less a twentieth of them (at least one), kept for node
        tasks that finish and start their dependents while the dependents' invocations
        begin: a full function would throttle those invocations until a finishing task
        returns (Lambda retries a throttled asynchronous invocation after a delay). A
        finish takes tens of milliseconds against a node's seconds, so few overlap."""
        if self.apply_executions <= 1:
            return 1
        return self.apply_executions - max(1, self.apply_executions // 20)

    @classmethod
    def from_env(cls) -> Settings:
        env = os.environ
        prefix = env.get("GROUNDPLAN_STACK", "groundplan")
        return cls(
            runs_table=env.get("GROUNDPLAN_RUNS_TABLE", f"{prefix}-runs"),
            workspaces_table=env.get("GROUNDPLAN_WORKSPACES_TABLE", f"{prefix}-workspaces"),
            locks_table=env.get("GROUNDPLAN_LOCKS_TABLE", f"{prefix}-locks"),
            tokens_table=env.get("GROUNDPLAN_TOKENS_TABLE", f"{prefix}-task-tokens"),
            nodes_table=env.get("GROUNDPLAN_NODES_TABLE", f"{prefix}-nodes"),
            idempotency_table=env.get("GROUNDPLAN_IDEMPOTENCY_TABLE", f"{prefix}-idempotency"),
            audit_table=env.get("GROUNDPLAN_AUDIT_TABLE", f"{prefix}-audit"),
            config_bucket=env.get("GROUNDPLAN_CONFIG_BUCKET", f"{prefix}-configuration"),
            artifact_bucket=env.get("GROUNDPLAN_ARTIFACT_BUCKET", f"{prefix}-artifacts"),
            state_bucket=env.get("GROUNDPLAN_STATE_BUCKET", f"{prefix}-state"),
            kms_key_id=env.get("GROUNDPLAN_KMS_KEY_ID", ""),
            state_machine_arn=env.get("GROUNDPLAN_STATE_MACHINE_ARN", ""),
            apply_node_function=env.get("GROUNDPLAN_APPLY_NODE_FUNCTION",
                                        f"{prefix}-apply-node"),
            apply_executions=max(1, int(env.get("GROUNDPLAN_APPLY_EXECUTIONS", "100"))),
            slack_secret_id=env.get("GROUNDPLAN_SLACK_SECRET_ID", f"{prefix}/slack-signing-secret"),
            api_token_secret_id=env.get("GROUNDPLAN_API_TOKEN_SECRET_ID", f"{prefix}/api-tokens"),
            plugin_dir=env.get("GROUNDPLAN_PLUGIN_DIR", "/opt/groundplan/plugins"),
            work_root=env.get("GROUNDPLAN_WORK_ROOT", "/tmp/groundplan"),
            region=env.get("AWS_REGION") or env.get("AWS_DEFAULT_REGION") or "us-east-1",
            approval_timeout=int(env.get("GROUNDPLAN_APPROVAL_TIMEOUT", "86400")),
            max_upload_bytes=int(env.get("GROUNDPLAN_MAX_UPLOAD_BYTES", str(50 * 1024 * 1024))),
        )


_settings: Settings | None = None


def settings() -> Settings:
    """The settings of this process (read from the environment on first use)."""
    global _settings
    if _settings is None:
        _settings = Settings.from_env()
    return _settings


def reset_settings() -> None:
    """Forget the cached settings (after the environment changed, as `cloud local` does)."""
    global _settings
    _settings = None
