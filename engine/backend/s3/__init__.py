"""The S3 backend: terraform's state layout and locks on an S3 bucket, with conditional writes.

- `settings`: terraform 1.11's argument checks and the settings in effect;
- `client`: the dumb object client (boto3 is imported here and in `dynamo` only);
- `dynamo`: the DynamoDB lock table (pynamodb);
- `remote_state`: one workspace's state object as the state manager's `Storage`;
- `locks`: the lock object / lock item, in terraform's order, with leases;
- `backend`: `S3Backend`, the `Backend` interface.
"""

from __future__ import annotations

from engine.backend.s3.backend import S3Backend

__all__ = ["S3Backend"]
