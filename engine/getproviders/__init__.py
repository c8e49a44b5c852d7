"""Where providers come from: versions and constraints (go-versions semantics), filesystem
mirrors and their sources, and package hashes (`h1:`, `zh:`). The installer that uses them
and the lock file is `engine.providercache`."""

from __future__ import annotations
