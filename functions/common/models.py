"""The control plane's DynamoDB tables as pynamodb models.

Table names come from `Settings` (see `bind_models`); every model reads and writes through
botocore, so `AWS_ENDPOINT_URL` points them at a local endpoint as it does boto3.

- `Workspace`: a named state location with its approvers, notification target and credentials.
- `Run`: one plan/apply of a workspace, its status history and plan digest (no values).
- `WorkspaceLock`: the one active run of a workspace or lineage (conditional put; see `locks`).
- `TaskToken`: the Step Functions token an approval resumes (never put in a Slack button).
- `Node`: one graph node of an apply fan-out (range key: its index in topological order): its
  engine node id, dependencies and dependents, how many dependencies remain, the token its
  wait step parked, its status.
- `AuditEvent`: append-only record of state-changing actions.
"""

from __future__ import annotations

import json
from typing import Any

from pynamodb.attributes import (
    BinaryAttribute,
    BooleanAttribute,
    ListAttribute,
    MapAttribute,
    NumberAttribute,
    UnicodeAttribute,
)
from pynamodb.indexes import AllProjection, GlobalSecondaryIndex
from pynamodb.models import Model

from functions.common.settings import Settings, settings


class Transition(MapAttribute[str, Any]):
    """One entry of a run's status history."""

    status = UnicodeAttribute()
    at = UnicodeAttribute()
    by = UnicodeAttribute()
    reason = UnicodeAttribute(null=True)


class Credentials(MapAttribute[str, Any]):
    """How a workspace's provider credentials are obtained at execute time."""

    role_arn = UnicodeAttribute(null=True)
    secret_id = UnicodeAttribute(null=True)


class WorkspaceVersion(MapAttribute[str, Any]):
    """One version of a workspace: its own state key; `live` or `archived`."""

    number = NumberAttribute()
    state_key = UnicodeAttribute()
    status = UnicodeAttribute()
    created_at = UnicodeAttribute()
    created_by = UnicodeAttribute()


class Workspace(Model):
    class Meta:
        table_name = "groundplan-workspaces"

    name = UnicodeAttribute(hash_key=True)
    approvers = ListAttribute(of=UnicodeAttribute, default=list)
    notification_url = UnicodeAttribute(null=True)
    credentials = Credentials(null=True)
    state_key = UnicodeAttribute()
    lineage = UnicodeAttribute(null=True)
    created_at = UnicodeAttribute()
    created_by = UnicodeAttribute()
    drift_detection = BooleanAttribute(default=True)
    drift_interval = NumberAttribute(default=60)
    reconcile = BooleanAttribute(default=False)
    sns_topic_arn = UnicodeAttribute(null=True)
    drift_status = UnicodeAttribute(null=True)
    drift_checked_at = UnicodeAttribute(null=True)
    drift_run = UnicodeAttribute(null=True)
    applied_configuration_version = UnicodeAttribute(null=True)
    applied_run = UnicodeAttribute(null=True)
    versions = ListAttribute(of=WorkspaceVersion, default=list)

    def public(self) -> dict[str, Any]:
        """The workspace as the API shows it (no secrets: credentials by reference only)."""
        creds = self.credentials
        return {
            "drift": {"enabled": self.drift_detection, "status": self.drift_status,
                      "interval_minutes": int(self.drift_interval or 60),
                      "last_checked": self.drift_checked_at, "run": self.drift_run,
                      "reconcile": self.reconcile, "sns_topic_arn": self.sns_topic_arn},
            "name": self.name,
            "approvers": list(self.approvers or []),
            "notification_url": self.notification_url,
            "credentials": {
                "role_arn": creds.role_arn if creds else None,
                "secret_id": creds.secret_id if creds else None,
            },
            "state": {"bucket": settings().state_bucket, "key": self.state_key},
            "versions": [{"number": int(v.number), "state_key": v.state_key,
                          "status": v.status, "created_at": v.created_at,
                          "created_by": v.created_by} for v in self.versions or []],
            "created_at": self.created_at,
            "created_by": self.created_by,
        }


class WorkspaceRunsIndex(GlobalSecondaryIndex["Run"]):
    class Meta:
        index_name = "workspace-created"
        projection = AllProjection()

    workspace = UnicodeAttribute(hash_key=True)
    created_at = UnicodeAttribute(range_key=True)


class Run(Model):
    class Meta:
        table_name = "groundplan-runs"

    id = UnicodeAttribute(hash_key=True)
    workspace = UnicodeAttribute()
    operation = UnicodeAttribute()
    status = UnicodeAttribute()
    auto_apply = BooleanAttribute(default=False)
    configuration_version = UnicodeAttribute()
    targets = ListAttribute(of=UnicodeAttribute, default=list)
    source = UnicodeAttribute(default="api")
    created_by = UnicodeAttribute()
    created_at = UnicodeAttribute()
    updated_at = UnicodeAttribute()
    history = ListAttribute(of=Transition, default=list)
    variables_key = UnicodeAttribute(null=True)
    plan_digest = UnicodeAttribute(null=True)
    prior_serial = NumberAttribute(null=True)
    prior_lineage = UnicodeAttribute(null=True)
    has_changes = BooleanAttribute(null=True)
    resource_changes = MapAttribute[str, Any](null=True)
    approved_by = UnicodeAttribute(null=True)
    approved_digest = UnicodeAttribute(null=True)
    node_count = NumberAttribute(null=True)
    failed_nodes = ListAttribute(of=UnicodeAttribute, default=list)
    error = UnicodeAttribute(null=True)
    execution_arn = UnicodeAttribute(null=True)
    kind = UnicodeAttribute(default="run")
    state_key = UnicodeAttribute(null=True)
    version = NumberAttribute(null=True)
    drift = UnicodeAttribute(null=True)
    by_workspace = WorkspaceRunsIndex()

    def public(self) -> dict[str, Any]:
        """The run as the API shows it."""
        return {
            "id": self.id,
            "workspace": self.workspace,
            "operation": self.operation,
            "status": self.status,
            "auto_apply": self.auto_apply,
            "configuration_version": self.configuration_version,
            "targets": list(self.targets or []),
            "source": self.source,
            "created_by": self.created_by,
            "created_at": self.created_at,
            "updated_at": self.updated_at,
            "plan_digest": self.plan_digest,
            "has_changes": self.has_changes,
            "resource_changes": dict(self.resource_changes.as_dict())
            if self.resource_changes is not None else None,
            "approved_by": self.approved_by,
            "node_count": self.node_count,
            "failed_nodes": list(self.failed_nodes or []),
            "error": self.error,
            "kind": self.kind,
            "version": int(self.version) if self.version is not None else None,
            "drift": json.loads(self.drift) if self.drift else None,
            "status_history": [
                {"status": t.status, "at": t.at, "by": t.by, "reason": t.reason}
                for t in self.history or []
            ],
        }


class WorkspaceLock(Model):
    class Meta:
        table_name = "groundplan-locks"

    key = UnicodeAttribute(hash_key=True)
    run_id = UnicodeAttribute()
    holder = UnicodeAttribute()
    created_at = UnicodeAttribute()


class TaskToken(Model):
    class Meta:
        table_name = "groundplan-task-tokens"

    run_id = UnicodeAttribute(hash_key=True)
    token = UnicodeAttribute()
    digest = UnicodeAttribute(null=True)
    created_at = UnicodeAttribute()


class Node(Model):
    class Meta:
        table_name = "groundplan-nodes"

    run_id = UnicodeAttribute(hash_key=True)
    address = UnicodeAttribute(range_key=True)
    node_id = UnicodeAttribute()
    deps = ListAttribute(of=UnicodeAttribute, default=list)
    remaining = NumberAttribute(default=0)
    dependents = ListAttribute(of=UnicodeAttribute, default=list)
    # the control item's: nodes holding a slot (started, not settled), nodes queued for one,
    # nodes that wait for none (keys 0 .. roots - 1) and the first of them not started
    running = NumberAttribute(default=0)
    queued = NumberAttribute(default=0)
    roots = NumberAttribute(default=0)
    next_root = NumberAttribute(default=0)
    token = UnicodeAttribute(null=True)
    skip = BooleanAttribute(default=False)
    status = UnicodeAttribute(default="pending")
    attempt = UnicodeAttribute(null=True)
    result = BinaryAttribute(null=True, legacy_encoding=False)  # sealed (fanout.seal_result)
    result_in_s3 = BooleanAttribute(default=False)
    error = UnicodeAttribute(null=True)
    started_at = UnicodeAttribute(null=True)
    finished_at = UnicodeAttribute(null=True)


class AuditEvent(Model):
    class Meta:
        table_name = "groundplan-audit"

    id = UnicodeAttribute(hash_key=True)
    at = UnicodeAttribute()
    actor = UnicodeAttribute()
    action = UnicodeAttribute()
    source = UnicodeAttribute()
    workspace = UnicodeAttribute(null=True)
    run_id = UnicodeAttribute(null=True)
    plan_digest = UnicodeAttribute(null=True)
    detail = UnicodeAttribute(null=True)


MODELS: tuple[type[Model], ...] = (Workspace, Run, WorkspaceLock, TaskToken, Node, AuditEvent)


def bind_models(cfg: Settings | None = None) -> None:
    """Point every model at the tables `cfg` names (and drop cached connections)."""
    cfg = cfg or settings()
    names = {
        Workspace: cfg.workspaces_table,
        Run: cfg.runs_table,
        WorkspaceLock: cfg.locks_table,
        TaskToken: cfg.tokens_table,
        Node: cfg.nodes_table,
        AuditEvent: cfg.audit_table,
    }
    for model, name in names.items():
        model.Meta.table_name = name
        model.Meta.region = cfg.region
        model.Meta.max_pool_connections = 64  # as functions.common.aws.POOL_CONNECTIONS
        model._connection = None


bind_models()
