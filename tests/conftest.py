"""Suite-wide test settings.

Property-based tests (hypothesis) run derandomized by default: the examples a test tries are
the same on every run, so CI's verdict on a change depends on the change, not on the seed.
`HYPOTHESIS_PROFILE=explore` runs them with fresh random examples (and hypothesis' example
database), to look for new failures on purpose; a failure found that way becomes a fixed
regression case."""

from __future__ import annotations

import os

from hypothesis import settings

settings.register_profile("deterministic", derandomize=True, database=None)
settings.register_profile("explore", derandomize=False)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "deterministic"))
