"""terraform's SSH communicator for the `file` and `remote-exec` provisioners, over paramiko.

- `communicator`: `Communicator` (connect directly, through a bastion or a proxy; run
  commands; upload files, directories and scripts), `CommError`, `RemoteCmd`.
- `auth`: client keys, certificates, the SSH agent, the host key check and x/crypto's
  authentication loop.
- `hostcert`: host certificates checked against `host_key` as x/crypto's CertChecker does.
- `scp`: the sending side of the SCP protocol, and the path and quoting rules terraform uses.
- `wire`: the protocol details paramiko drops that terraform's messages show (exit signals,
  the reason a channel was refused).

Importing this package imports paramiko; `engine.provisioners.remote` does so only when a
provisioner actually connects over SSH. paramiko's own log records go nowhere unless logging
is configured (its warnings would otherwise land on the terminal).
"""

import logging

logging.getLogger("paramiko").addHandler(logging.NullHandler())
