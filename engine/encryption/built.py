"""The built encryption of an invocation: one encryption per target. Kept apart from the
builder (engine.encryption.build), so that a configuration without encryption costs no
import of key providers and methods."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.states.encryption import PASSTHROUGH, StateEncryption


@dataclass
class Encryption:
    """The built encryption: one object per target (PASSTHROUGH where none is configured)."""

    state: StateEncryption = PASSTHROUGH
    plan: StateEncryption = PASSTHROUGH
    remote_default: StateEncryption = PASSTHROUGH
    remotes: dict[str, StateEncryption] = field(default_factory=dict)

    def remote_state(self, name: str) -> StateEncryption:
        """The encryption of `terraform_remote_state.NAME`'s source state."""
        return self.remotes.get(name, self.remote_default)


DISABLED = Encryption()
