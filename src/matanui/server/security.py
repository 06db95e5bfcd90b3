"""The front door: what every response carries to defend the pages, which Host names and
page origins the server answers, and how much of a request body it reads.

- Security headers on every HTTP response: a Content-Security-Policy that allows only the
  server's own scripts, styles and connections (no inline script, no framing), nosniff, and
  no Referer (seat tokens live in page URLs' fragments, but never risk one leaking).
- The Host check, against DNS rebinding: a page on another site that makes its own name
  resolve to 127.0.0.1 would otherwise reach a server on the player's machine. Requests
  and WebSockets naming any other host are refused in the service's error shape.
- The Origin check, against cross-site WebSocket hijacking: a browser names the page that
  opens a WebSocket in its Origin header, and cookies or not, a page of another site must not
  play a seat from the player's browser. A handshake whose Origin names a host other than an
  allowed one (any port, http or https) is refused with 403; one without an Origin (not a
  browser: the CLI, scripts) is let through.
- The body limit: a request body is counted while it is read, whatever its transfer
  encoding (Content-Length or chunked), and refused with 413 at the first byte past the
  limit, so no client can make the server hold more than the limit and one chunk.

All are plain ASGI middleware, so they cover static files and WebSockets alike.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
from collections.abc import Iterable
from urllib.parse import urlsplit

from starlette.exceptions import HTTPException
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


def origin_host(origin: str) -> str | None:
    """The host an Origin header names, without its port ('https://Example.org:8443' ->
    'example.org'); None for an origin that names no web page's host ('null', 'file://')."""
    try:
        parts = urlsplit(origin.strip())
        hostname = parts.hostname
    except ValueError:
        return None
    if parts.scheme not in ("http", "https") or not hostname:
        return None
    return f"[{hostname}]" if ":" in hostname else hostname


def _refusal(status: int, error: str, message: str) -> tuple[Message, Message]:
    """An HTTP answer in the service's error shape, with the security headers."""
    body = json.dumps({"error": error, "message": message}).encode()
    start = {"type": "http.response.start", "status": status, "headers": [
        (b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
        *HEADERS.items(), (b"content-security-policy", CONTENT_SECURITY_POLICY.encode())]}
    return start, {"type": "http.response.body", "body": body}


class HostCheck:
    """Refuses requests and WebSockets whose Host header names no allowed host, and WebSocket
    handshakes from a page whose Origin names none (nor the host asked for)."""

    def __init__(self, app: ASGIApp, allowed_hosts: Iterable[str]) -> None:
        self.app = app
        self.allowed = {host_name(h) for h in allowed_hosts}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers", []))
        header = headers.get(b"host", b"").decode("latin-1")
        if "*" not in self.allowed and host_name(header) not in self.allowed:
            message = (f"this server answers to {', '.join(sorted(self.allowed))}, not {header[:100]!r}; "
                       "start it with --allowed-host NAME to add a name")
            if scope["type"] == "websocket":
                # Closing before accepting refuses the handshake (the client sees HTTP 403).
                await send({"type": "websocket.close", "code": 1008, "reason": "host not allowed"})
                return
            for message_out in _refusal(400, "bad_host", message):
                await send(message_out)
            return
        origin = headers.get(b"origin")
        if scope["type"] == "websocket" and origin is not None:
            named = origin_host(origin.decode("latin-1"))
            if named is None or named not in self.allowed | {host_name(header)}:
                await self._refuse_origin(send)
                return
        await self.app(scope, receive, send)

    @staticmethod
    async def _refuse_origin(send: Send) -> None:
        """Refuse the handshake: closing before accepting answers HTTP 403 (a browser sees the
        socket fail to open and learns nothing more of it; nor does the page). Not with a body
        (`websocket.http.response`): uvicorn logs an ERROR line for each handshake refused so,
        and a client could fill the log with them."""
        await send({"type": "websocket.close", "code": 1008, "reason": "origin not allowed"})


class BodyLimit:
    """Refuses a request body of more than `limit` bytes with 413: at once when its
    Content-Length says so, else while it is read, at the first chunk past the limit."""

    def __init__(self, app: ASGIApp, limit: int) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = dict(scope.get("headers", [])).get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.limit):
            for message in _refusal(413, "too_large", self.words):
                await send(message)
            return
        read = 0

        async def counted() -> Message:
            nonlocal read
            message = await receive()
            if message["type"] == "http.request":
                read += len(message.get("body", b""))
                if read > self.limit:
                    # Raised where the app reads the body: it answers in its own error shape.
                    raise HTTPException(413, self.words)
            return message

        await self.app(scope, counted, send)

    @property
    def words(self) -> str:
        return f"request bodies are at most {self.limit} bytes"
