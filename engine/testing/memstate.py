"""`MemoryStorage`: a state kept in memory, for the state manager of a test run.

Terraform's test command keeps each run's state in memory only; the state manager still
journals each change (under a temporary directory) so an apply works exactly as elsewhere.
"""

from __future__ import annotations

from engine.diags import Diagnostics
from engine.states.state import State, StateFile, new_lineage


class MemoryStorage:
    """A `Storage` (engine.states.manager) whose snapshots never leave memory."""

    def __init__(self, path: str, initial: StateFile | None = None) -> None:
        self.path = path
        self.current = initial

    def read(self) -> tuple[StateFile | None, Diagnostics]:
        return self.current, Diagnostics()

    def write(self, state: State) -> tuple[StateFile | None, Diagnostics]:
        prev = self.current
        self.current = StateFile(state=state, lineage=prev.lineage if prev else new_lineage(),
                                 serial=(prev.serial + 1) if prev else 1)
        return self.current, Diagnostics()
