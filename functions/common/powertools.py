"""Powertools set-up shared by the handlers: one Logger/Tracer/Metrics per function, the
idempotency persistence layer, and a JSON error response for `ControlPlaneError`."""

from __future__ import annotations

import os

from aws_lambda_powertools import Logger, Metrics, Tracer
from aws_lambda_powertools.utilities.idempotency import (
    DynamoDBPersistenceLayer,
    IdempotencyConfig,
)

from functions.common.settings import settings

NAMESPACE = "groundplan"


def observability(service: str) -> tuple[Logger, Tracer, Metrics]:
    """Logger, Tracer and Metrics for `service` (module scope in each handler)."""
    os.environ.setdefault("POWERTOOLS_METRICS_NAMESPACE", NAMESPACE)
    logger = Logger(service=service)
    tracer = Tracer(service=service)
    metrics = Metrics(namespace=NAMESPACE, service=service)
    return logger, tracer, metrics


def idempotency(key_path: str, expires: int = 3600) -> tuple[DynamoDBPersistenceLayer,
                                                              IdempotencyConfig]:
    """The persistence layer and config for an idempotent handler keyed by `key_path`."""
    layer = DynamoDBPersistenceLayer(table_name=settings().idempotency_table)
    config = IdempotencyConfig(event_key_jmespath=key_path, expires_after_seconds=expires,
                               raise_on_no_idempotency_key=True)
    return layer, config
