"""Applying a saved plan: the apply walk, the per-instance apply step and the stale check."""
