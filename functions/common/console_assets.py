"""The web console's static files (functions/console/), served by the `api` function itself
at `/console` (the page) and `/console/{asset}` (its script and style sheet), with no
authorizer in front: they hold no data. The page signs in with the API token and calls the
JSON API with it (see functions/console/console.js).

Only the files listed in `ASSETS` are served (no path from the request reaches the disk), each
with its content type and headers that keep the browser from sniffing, framing or sending the
page's address elsewhere, and a content security policy allowing only this origin's script,
style and API."""

from __future__ import annotations

from pathlib import Path

from functions.common.errors import NotFound

CONSOLE_DIR = Path(__file__).resolve().parent.parent / "console"

#: asset name → content type
ASSETS: dict[str, str] = {
    "index.html": "text/html; charset=utf-8",
    "console.js": "text/javascript; charset=utf-8",
    "console.css": "text/css; charset=utf-8",
}

HEADERS: dict[str, str] = {
    "Content-Security-Policy": ("default-src 'none'; script-src 'self'; style-src 'self'; "
                                "connect-src 'self'; img-src 'self'; base-uri 'none'; "
                                "form-action 'self'; frame-ancestors 'none'"),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-cache",
}


def asset(name: str) -> tuple[str, str]:
    """(content type, text) of console asset `name`; NotFound for anything else."""
    content_type = ASSETS.get(name)
    if content_type is None:
        raise NotFound(f"no console asset {name!r}", code="not_found")
    return content_type, (CONSOLE_DIR / name).read_text(encoding="utf-8")
