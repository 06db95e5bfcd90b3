"""What every response carries to defend the pages, and which Host names the server answers.

- Security headers on every HTTP response: a Content-Security-Policy that allows only the
  server's own scripts, styles and connections (no inline script, no framing), nosniff, and
  no Referer (seat tokens live in page URLs' fragments, but never risk one leaking).
- The Host check, against DNS rebinding: a page on another site that makes its own name
  resolve to 127.0.0.1 would otherwise reach a server on the player's machine. Requests
  and WebSockets naming any other host are refused in the service's error shape.

Both are plain ASGI middleware, so they cover static files and WebSockets alike.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
from collections.abc import Iterable

from starlette.types import ASGIApp, Message, Receive, Scope, Send

DEFAULT_ALLOWED_HOSTS = ("localhost", "127.0.0.1", "[::1]")

CONTENT_SECURITY_POLICY = "; ".join((
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
))
HEADERS = {
    b"x-content-type-options": b"nosniff",
    b"x-frame-options": b"DENY",
    b"referrer-policy": b"no-referrer",
}


def policy_allowing_inline_scripts(html: str) -> str:
    """The policy, with the inline scripts of one page of ours allowed by their hashes (the
    API documentation's start-up script); any other inline script stays blocked."""
    hashes = [
        "'sha256-" + base64.b64encode(hashlib.sha256(body.encode("utf-8")).digest()).decode() + "'"
        for body in re.findall(r"<script>(.*?)</script>", html, flags=re.S)
    ]
    return CONTENT_SECURITY_POLICY.replace("script-src 'self'", " ".join(["script-src 'self'", *hashes]))


class SecurityHeaders:
    """Adds the headers above to every HTTP response; a response that sets its own
    Content-Security-Policy (the API documentation page) keeps it."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                present = {name.lower() for name, _ in headers}
                headers += [(name, value) for name, value in HEADERS.items() if name not in present]
                if b"content-security-policy" not in present:
                    headers.append((b"content-security-policy", CONTENT_SECURITY_POLICY.encode()))
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, send_with_headers)


def host_name(header: str) -> str:
    """The name in a Host header, without its port: 'localhost:8000' -> 'localhost',
    '[::1]:8000' -> '[::1]'."""
    header = header.strip().lower()
    if header.startswith("["):
        return header[: header.find("]") + 1] if "]" in header else header
    return header.rsplit(":", 1)[0] if header.count(":") == 1 else header


class HostCheck:
    """Refuses requests and WebSockets whose Host header names no allowed host."""

    def __init__(self, app: ASGIApp, allowed_hosts: Iterable[str]) -> None:
        self.app = app
        self.allowed = {host_name(h) for h in allowed_hosts}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket") or "*" in self.allowed:
            await self.app(scope, receive, send)
            return
        header = dict(scope.get("headers", [])).get(b"host", b"").decode("latin-1")
        if host_name(header) in self.allowed:
            await self.app(scope, receive, send)
            return
        message = (f"this server answers to {', '.join(sorted(self.allowed))}, not {header[:100]!r}; "
                   "start it with --allowed-host NAME to add a name")
        if scope["type"] == "websocket":
            # Closing before accepting refuses the handshake (the client sees HTTP 403).
            await send({"type": "websocket.close", "code": 1008, "reason": "host not allowed"})
            return
        body = json.dumps({"error": "bad_host", "message": message}).encode()
        await send({"type": "http.response.start", "status": 400, "headers": [
            (b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
            *HEADERS.items(), (b"content-security-policy", CONTENT_SECURITY_POLICY.encode())]})
        await send({"type": "http.response.body", "body": body})
