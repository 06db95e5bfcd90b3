"""WebSocket input the server cannot read gets a clear error frame and the connection stays
open: nesting too deep for its size, text that is not Unicode (a lone surrogate escape), and
random text, bytes and JSON. No client input gives a traceback in the log; a fault of the
server's own is one rate-limited log line and a close with 1011."""

from __future__ import annotations

import json
import logging
import urllib.request
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.websockets import WebSocketDisconnect
from websockets.sync.client import connect

from matanui.server import rooms
from matanui.server.protocol import MAX_MESSAGE_BYTES

from .helpers import create, receive_view
from .process import free_port, start_server

DEEP_LIST = "[" * 1500 + "]" * 1500  # 3,000 bytes: under the size limit
DEEP_OBJECT = '{"type": "hello", "token": ' + '{"a":' * 600 + "1" + "}" * 600 + "}"
SURROGATES = [
    r'{"type": "hello", "token": "\ud800"}',
    r'{"type": "\udc00"}',
    r'{"type": "hello", "\ud800": 1}',
    r'{"type": "act", "action": "pass\udfff"}',
]
FUZZ = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
# JSON of any shape, with any text (lone surrogates too: json.dumps writes them as \u escapes).
ANY_TEXT = st.text(st.characters(exclude_categories=()), max_size=30)
# Hello tokens of odd text: lone surrogates (a high one, a low one), a control character, an escape.
TOKENS = st.text(st.sampled_from(["a", "\ud800", "\udfff", "\x00", "\\", "é"]), max_size=12)
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | ANY_TEXT,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(ANY_TEXT, inner, max_size=4),
    max_leaves=30)
MESSAGES = st.one_of(
    st.builds(json.dumps, JSON_VALUES),
    st.builds(lambda depth, shape: shape[0] * depth + shape[1] + shape[2] * depth,
              st.integers(1, 10) | st.integers(900, 2000),  # shallow, or deeper than Python decodes
              st.sampled_from([("[", "", "]"), ('{"a":', "1", "}")])),
    st.builds(lambda token: json.dumps({"type": "hello", "token": token}), TOKENS),
    st.builds(lambda fields: json.dumps({"type": "act", **fields}), st.dictionaries(
        st.sampled_from(["action", "at", "before"]), JSON_VALUES, max_size=3)),
    st.builds(lambda fields: json.dumps({"type": "history", **fields}), st.dictionaries(
        st.sampled_from(["before"]), JSON_VALUES, max_size=1)),
    st.text(max_size=200),
    st.binary(max_size=200),
)


def send(ws: Any, raw: str | bytes) -> None:
    if isinstance(raw, bytes):
        ws.send_bytes(raw)
    else:
        ws.send_text(raw)


def answer(ws: Any) -> dict[str, Any]:
    """The next message that answers this connection (seat announcements are skipped); its
    text must be valid Unicode, as a real socket would have to send it."""
    while (message := json.loads(ws.receive_text().encode("utf-8")))["type"] == "seats":
        pass
    return message


def no_traceback(caplog: pytest.LogCaptureFixture) -> None:
    assert [r.getMessage() for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR] == []


@pytest.fixture(scope="module")
def game(client) -> dict[str, Any]:
    return create(client, seats=[{"kind": "human", "character": "tahu"},
                                 {"kind": "human", "character": "lewa"}], seed=11, hotseat=True)


def test_deep_nesting_under_the_size_limit_is_refused_before_decoding(client, game, caplog):
    assert len(DEEP_LIST) < MAX_MESSAGE_BYTES and len(DEEP_OBJECT) < MAX_MESSAGE_BYTES
    with client.websocket_connect(f"/ws/games/{game['id']}") as ws:
        for raw in (DEEP_LIST, DEEP_OBJECT):  # before the hello
            send(ws, raw)
            refused = answer(ws)
            assert refused["code"] == "too_deep" and "nested" in refused["message"]
        ws.send_json({"type": "hello"})
        assert receive_view(ws)["type"] == "welcome"  # the connection stayed open
        send(ws, DEEP_LIST)  # and after it
        assert answer(ws)["code"] == "too_deep"
        ws.send_json({"type": "hello"})
        assert answer(ws)["code"] == "already_hello"
    no_traceback(caplog)


@pytest.mark.parametrize("raw", SURROGATES)
def test_a_lone_surrogate_is_refused_and_not_echoed(client, game, caplog, raw):
    with client.websocket_connect(f"/ws/games/{game['id']}") as ws:
        send(ws, raw)
        refused = answer(ws)
        assert refused["code"] == "bad_message" and "surrogate" in refused["message"]
        refused["message"].encode("utf-8")  # nothing of it came back unencodable
        ws.send_json({"type": "hello", "token": game["seats"][0]["token"]})
        assert receive_view(ws)["seat"] == 0  # the connection stayed open, the seat opens
    assert client.get(f"/api/games/{game['id']}").json()["at"] == 0
    no_traceback(caplog)


def reaction(ws: Any, raw: str | bytes) -> dict[str, Any]:
    """Send one message; its answer must be an error frame or a valid reaction, and the
    connection must still answer afterwards."""
    send(ws, raw)
    first = answer(ws)
    assert first["type"] in ("error", "history", "welcome", "update"), first
    if first["type"] == "error":
        assert set(first) == {"type", "code", "message"} and first["message"]
    ws.send_json({"type": "hello"})
    assert answer(ws)["type"] in ("error", "welcome")  # still open
    return first


@FUZZ
@given(raw=MESSAGES)
def test_any_message_before_the_hello_gets_an_answer_and_the_connection_stays(client, game, caplog, raw):
    with client.websocket_connect(f"/ws/games/{game['id']}") as ws:
        reaction(ws, raw)
    no_traceback(caplog)


@FUZZ
@given(raw=MESSAGES)
def test_any_message_after_the_hello_gets_an_answer_and_the_connection_stays(client, game, caplog, raw):
    with client.websocket_connect(f"/ws/games/{game['id']}") as ws:
        ws.send_json({"type": "hello", "token": game["seats"][1]["token"]})  # not to move: nothing applies
        receive_view(ws)
        reaction(ws, raw)
    assert client.get(f"/api/games/{game['id']}").json()["at"] == 0
    no_traceback(caplog)


def test_a_fault_of_the_server_is_one_logged_line_and_a_1011_close(client, game, caplog, monkeypatch):
    async def broken(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(rooms.Room, "act", broken)
    for _ in range(5):
        with client.websocket_connect(f"/ws/games/{game['id']}") as ws:
            ws.send_json({"type": "hello", "token": game["seats"][0]["token"]})
            receive_view(ws)
            ws.send_json({"type": "act", "action": "pass"})
            failed = answer(ws)
            assert failed["code"] == "internal" and "a bug" not in failed["message"]
            with pytest.raises(WebSocketDisconnect) as closed:
                answer(ws)
            assert closed.value.code == 1011
    lines = [r for r in caplog.records if "RuntimeError" in r.getMessage()]
    assert len(lines) == 1 and lines[0].exc_info is None  # one line, no traceback
    assert "a bug" in lines[0].getMessage()


def test_a_real_server_writes_no_traceback_for_hostile_messages(tmp_path):
    port = free_port()
    server = start_server(f"sqlite:///{tmp_path / 'm.db'}", port)
    try:
        request = json.dumps({"game": "reconstruct", "seats": [{}, {}]}).encode()
        created = json.load(urllib.request.urlopen(urllib.request.Request(
            f"http://127.0.0.1:{port}/api/games", data=request,
            headers={"content-type": "application/json"}), timeout=10))
        for _ in range(3):
            with connect(f"ws://127.0.0.1:{port}/ws/games/{created['id']}") as ws:
                for raw in (DEEP_LIST, DEEP_OBJECT, *SURROGATES):
                    ws.send(raw)
                    assert json.loads(ws.recv(timeout=10))["type"] == "error"
                ws.send(json.dumps({"type": "hello"}))
                assert json.loads(ws.recv(timeout=10))["type"] == "welcome"
    finally:
        server.terminate()
        output = server.communicate(timeout=30)[0].decode()
    assert "Traceback" not in output and "Error" not in output, output
