"""`groundplan test`: test files, runs, assertions, mock providers and overrides.

`files` decodes test files, `runner` executes them (plan/apply through engine.plans and
engine.apply), `expectations` holds assertions and `expect_failures`, `providers` the mocked
providers and the per-file registry, `overrides` / `module_overrides` the override blocks,
`views` terraform's human and JSON output.
"""
