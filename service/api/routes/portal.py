"""The search portal: static HTML, CSS and JavaScript shipped in ``service/portal/``.

``GET /`` is the page; ``GET /portal/<file>`` its assets. There is no build step and nothing is
fetched from elsewhere. Every portal response carries a strict Content-Security-Policy (no
inline script or style, no foreign origin), so even a document whose text slipped into the page
as markup could not run a script. The API key lives in the browser's ``sessionStorage`` and is
sent as a bearer token by the page's own ``fetch`` calls; these routes need no key.
"""

from __future__ import annotations

from functools import lru_cache
from importlib import resources
from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse

from service.api.errors import NotFound

router = APIRouter(include_in_schema=False)

CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
SECURITY_HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cache-Control": "no-cache",
}
MEDIA_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".svg": "image/svg+xml",
    ".txt": "text/plain; charset=utf-8",
}


@lru_cache(maxsize=1)
def portal_files() -> dict[str, Path]:
    """Relative name -> path of every asset shipped in the package (read once). Serving only
    names from this table means no request path can reach outside the portal directory."""
    root = Path(str(resources.files("service") / "portal"))
    return {
        p.relative_to(root).as_posix(): p
        for p in sorted(root.rglob("*"))
        if p.is_file() and p.suffix in MEDIA_TYPES
    }


def _asset(name: str) -> FileResponse:
    path = portal_files().get(name)
    if path is None:
        raise NotFound("no such portal file")
    return FileResponse(path, media_type=MEDIA_TYPES[path.suffix], headers=SECURITY_HEADERS)


@router.get("/")
def index() -> FileResponse:
    return _asset("index.html")


@router.get("/portal/{name:path}")
def asset(name: str) -> FileResponse:
    return _asset(name)
