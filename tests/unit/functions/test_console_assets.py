"""The web console's assets: only the listed files are served, with their content types and a
content security policy; nothing in them loads from another origin (no CDN: no network)."""

from __future__ import annotations

import re

import pytest

from functions.common import console_assets
from functions.common.errors import NotFound


def test_only_listed_assets_are_served() -> None:
    for name, content_type in console_assets.ASSETS.items():
        assert console_assets.asset(name) == (
            content_type, (console_assets.CONSOLE_DIR / name).read_text())
    for name in ("../api/handler.py", "console.js/..", "missing.js", ""):
        with pytest.raises(NotFound):
            console_assets.asset(name)


def test_assets_load_nothing_from_elsewhere() -> None:
    for name in console_assets.ASSETS:
        text = console_assets.asset(name)[1]
        assert not re.search(r"https?://|//cdn|@import|innerHTML|eval\(", text), name
    page = console_assets.asset("index.html")[1]
    assert re.findall(r'(?:src|href)="([^"#]+)"', page) == ["console/console.css",
                                                            "console/console.js"]
    assert "script-src 'self'" in console_assets.HEADERS["Content-Security-Policy"]
