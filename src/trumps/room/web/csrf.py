"""Cross-site request refusal, as an ASGI middleware.

The session cookie is SameSite=Lax, which already keeps it off most
cross-site requests; this is the second, explicit guard, the one OWASP
calls "verifying origin with standard headers":

- a state-changing HTTP request (not GET/HEAD/OPTIONS) whose ``Origin`` (or,
  without one, ``Referer``) names another site, or that the browser marks
  ``Sec-Fetch-Site: cross-site``, is refused with 403;
- such a request with a body must be JSON (``Content-Type:
  application/json``): an HTML form on another site cannot send that
  without a CORS preflight, which this server never grants;
- a WebSocket handshake from a page of another origin is refused (browsers
  send ``Origin`` on every WebSocket; cross-site WebSocket hijacking would
  otherwise act with the victim's cookie).

Requests without any of these headers (command-line clients, the test
client) are not cross-site requests from a browser and pass.
"""

from __future__ import annotations

import json
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Receive, Scope, Send

__all__ = ["CrossSiteGuard"]

SAFE = frozenset({"GET", "HEAD", "OPTIONS"})


def _origin_of(url: str) -> str | None:
    parts = urlsplit(url)
    if not parts.scheme or not parts.netloc:
        return None
    return f"{parts.scheme}://{parts.netloc}".lower()


def _own_origins(scope: Scope, headers: dict[str, str]) -> set[str]:
    host = headers.get("host", "")
    scheme = str(scope.get("scheme", "http"))
    http = {"ws": "http", "wss": "https"}.get(scheme, scheme)
    forwarded = headers.get("x-forwarded-proto", "")
    return {f"{s}://{host}".lower() for s in {http, forwarded or http}}


class CrossSiteGuard:
    """Refuses cross-site state-changing requests and WebSocket handshakes."""

    def __init__(self, app: ASGIApp, trusted_origins: tuple[str, ...] = ()) -> None:
        self.app = app
        self.trusted = {o.lower().rstrip("/") for o in trusted_origins}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        if kind == "http" and scope.get("method", "GET") in SAFE:
            await self.app(scope, receive, send)
            return
        reason = self._refusal(scope, headers)
        if reason is None and kind == "http" and not self._json_or_empty(headers):
            reason = "send JSON (Content-Type: application/json)"
            status = 415
        else:
            status = 403
        if reason is None:
            await self.app(scope, receive, send)
            return
        if kind == "websocket":
            await send({"type": "websocket.close", "code": 4403, "reason": reason})
            return
        body = json.dumps({"error": reason}).encode()
        await send(
            {
                "type": "http.response.start",
                "status": status,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})

    def _refusal(self, scope: Scope, headers: dict[str, str]) -> str | None:
        own = _own_origins(scope, headers) | self.trusted
        origin = headers.get("origin")
        if origin is not None:
            if origin.lower().rstrip("/") not in own:
                return "cross-site request refused"
            return None
        if headers.get("sec-fetch-site") == "cross-site":
            return "cross-site request refused"
        referer = headers.get("referer")
        if referer:
            ref = _origin_of(referer)
            if ref is not None and ref not in own:
                return "cross-site request refused"
        return None

    @staticmethod
    def _json_or_empty(headers: dict[str, str]) -> bool:
        length = headers.get("content-length")
        if length == "0" or (length is None and "transfer-encoding" not in headers):
            return True
        ctype = str(headers.get("content-type", "")).split(";")[0].strip().lower()
        return ctype == "application/json"
