"""The pages defend themselves: security headers everywhere, only our own Host names, API
documentation that needs no internet, and every error in the documented shape."""

from __future__ import annotations

import re
import socket

import pytest
from starlette.websockets import WebSocketDisconnect
from typer.testing import CliRunner

from matanui.cli import app as cli
from matanui.server.security import host_name, origin_host

from .helpers import create, receive_view
from .process import free_port, start_server

PAGES = ["/", "/games/abc", "/games/abc/replay", "/static/js/game.js", "/static/css/style.css",
         "/api/catalog", "/docs", "/api/games/nope"]


@pytest.mark.parametrize("path", PAGES)
def test_every_page_and_file_carries_the_security_headers(client, path):
    headers = client.get(path).headers
    policy = headers["content-security-policy"]
    assert "frame-ancestors 'none'" in policy and "object-src 'none'" in policy
    script = re.search(r"script-src ([^;]*)", policy).group(1)
    assert "'unsafe-inline'" not in script and "'unsafe-eval'" not in script and "http" not in script
    assert headers["x-frame-options"] == "DENY"
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["referrer-policy"] == "no-referrer"


def test_the_api_documentation_works_without_the_internet(client):
    page = client.get("/docs").text
    sources = re.findall(r'(?:src|href)="([^"]+)"', page)
    assert sources and all(s.startswith("/") for s in sources), sources  # no CDN
    for source in sources:
        assert client.get(source).status_code == 200, source
    # Its one inline start-up script is allowed by its hash, nothing else inline.
    policy = client.get("/docs").headers["content-security-policy"]
    assert re.search(r"script-src 'self' 'sha256-[A-Za-z0-9+/=]+'", policy)


@pytest.mark.parametrize("host", ["evil.example", "evil.example:8000", "127.0.0.1.nip.io", "", "[::2]"])
def test_other_host_names_are_refused_against_dns_rebinding(client, host):
    response = client.get("/api/catalog", headers={"host": host})
    assert response.status_code == 400
    assert response.json()["error"] == "bad_host" and "--allowed-host" in response.json()["message"]
    with pytest.raises(WebSocketDisconnect), client.websocket_connect(
            "/ws/games/abc", headers={"host": host}) as ws:
        ws.receive_json()


@pytest.mark.parametrize("host", ["localhost:8000", "127.0.0.1", "[::1]:8000", "LOCALHOST"])
def test_loopback_names_are_answered(client, host):
    assert client.get("/api/catalog", headers={"host": host}).status_code == 200


@pytest.mark.parametrize("origin", [
    "http://evil.example", "https://localhost.evil.example", "http://127.0.0.1.nip.io:8000",
    "null", "file://", "ws://localhost", "http://", "http://[::1", "https://evil.example@localhost.x",
])
def test_websockets_opened_by_pages_of_other_sites_are_refused(client, origin):
    """Cross-site WebSocket hijacking: a page elsewhere must not play a seat from the player's
    browser. The handshake is closed before it is accepted (a real server answers HTTP 403:
    test_a_real_server_refuses_other_sites_handshakes_without_a_log_line)."""
    game = create(client)
    with pytest.raises(WebSocketDisconnect) as refused, client.websocket_connect(
            f"/ws/games/{game['id']}", headers={"origin": origin}) as ws:
        ws.send_json({"type": "hello"})
        ws.receive_json()  # a welcome, were the handshake accepted
    assert refused.value.code == 1008 and refused.value.reason == "origin not allowed"


@pytest.mark.parametrize("origin", [
    "http://localhost:8000", "https://127.0.0.1", "http://[::1]:9000", "HTTP://LOCALHOST", "http://testserver",
    None,  # not a browser: the CLI, scripts, tests
])
def test_pages_of_allowed_hosts_and_clients_without_an_origin_may_play(client, origin):
    game = create(client)
    with client.websocket_connect(f"/ws/games/{game['id']}",
                                  headers={"origin": origin} if origin else {}) as ws:
        ws.send_json({"type": "hello", "token": game["seats"][0]["token"]})
        assert receive_view(ws)["seat"] == 0


def test_origins_are_read_as_their_host_without_scheme_or_port():
    assert origin_host("https://Games.Example.org:8443") == "games.example.org"
    assert origin_host("http://[::1]:8000") == "[::1]"
    assert origin_host("null") is None and origin_host("file:///x") is None


def test_host_names_are_read_without_their_port():
    assert host_name("localhost:8000") == "localhost"
    assert host_name("[::1]:8000") == "[::1]"
    assert host_name("Example.ORG") == "example.org"


def test_serve_refuses_an_allowed_host_that_is_not_a_name():
    result = CliRunner().invoke(cli, ["serve", "--allowed-host", "http://x/"])
    assert result.exit_code == 2 and "is not a host name" in " ".join(result.output.split())


@pytest.mark.parametrize("proxy", ["proxy.internal", "10.0.0.1/8", "", "*"])
def test_serve_refuses_a_trusted_proxy_that_is_not_an_address_or_a_network(proxy):
    result = CliRunner().invoke(cli, ["serve", "--trusted-proxy", proxy])
    assert result.exit_code == 2 and "is not an address or a network" in " ".join(result.output.split())


@pytest.mark.parametrize(("body", "status"), [
    (b'{"game": "reconstruct", "seats": [], "seed": ' + b"9" * 5000 + b"}", 400),  # past Python's int limit
    (b"[" * 3000 + b"]" * 3000, 400),                  # nested deeper than the parser goes
    (b'{"game": ', 422),                               # not JSON
    (b'{"game": "reconstruct", "seats": [{}, {}], "seed": ' + b"9" * 300 + b"}", 422),  # out of range
    (b"\xff\xfe", 422),                                 # not UTF-8
])
def test_every_malformed_body_gets_the_documented_error_shape(client, body, status):
    response = client.post("/api/games", content=body, headers={"content-type": "application/json"})
    assert response.status_code == status, response.text
    assert set(response.json()) == {"error", "message"} and response.json()["message"]


@pytest.mark.parametrize(("method", "path", "status"), [
    ("GET", "/no/such/page", 404), ("DELETE", "/api/games", 405), ("GET", "/static/nope.js", 404),
    ("GET", "/api/games/x/replay?seat=" + "9" * 5000, 422),
])
def test_framework_errors_get_the_documented_error_shape_too(client, method, path, status):
    response = client.request(method, path)
    assert response.status_code == status
    assert set(response.json()) == {"error", "message"}


@pytest.mark.parametrize("method", ["OPTIONS", "DELETE", "PUT", "PATCH"])
def test_a_405_names_every_method_of_the_path_not_only_the_first_routes(client, method):
    response = client.request(method, "/api/games")
    assert response.status_code == 405
    assert response.headers["allow"] == "GET, POST"
    assert response.json() == {"error": "method_not_allowed", "message": f"{method} is not a method of "
                               "this path; its methods are GET, POST"}
    assert client.request(method, "/api/games/x/join").headers["allow"] == "POST"


def _raw_request(port: int, request: bytes) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=10) as connection:
        connection.sendall(request)
        return connection.recv(200)


def test_a_real_server_refuses_other_sites_handshakes_without_a_log_line(tmp_path):
    """What any client can repeat thousands of times a second never fills the log: a handshake
    from another site's page is refused (403) without a line, and uvicorn's own lines about
    requests that are not HTTP, or upgrades it does not speak, come at most once a minute."""
    port = free_port()
    server = start_server(f"sqlite:///{tmp_path / 'o.db'}", port)
    try:
        handshake = (b"GET /ws/games/x HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: http://evil.example\r\n"
                     b"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
                     b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n")
        h2c = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade\r\nUpgrade: h2c\r\n\r\n"
        for _ in range(20):
            assert _raw_request(port, handshake).startswith(b"HTTP/1.1 403")
            assert _raw_request(port, b"GARBAGE \x00\r\n\r\n").startswith(b"HTTP/1.1 400")
            _raw_request(port, h2c)
    finally:
        server.terminate()
        output = server.communicate(timeout=30)[0].decode()
    lines = [line for line in output.splitlines() if "WARNING" in line or "ERROR" in line]
    assert len(lines) <= 2, output
    assert "handshake" not in output, output
