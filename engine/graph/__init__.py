"""Dependency graphs: cycle checks and helpers (dag), the concurrent walk (walker), and stop
requests from signals (signals)."""
