"""Sessions: the cookie's flags, CSRF on every write the cookie authenticates, a fresh
session at each sign-in (fixation), sign-out and a password change ending sessions, and two
instances on one PostgreSQL accepting each other's sessions."""

from __future__ import annotations

import os
from contextlib import ExitStack

import pytest
from fastapi.testclient import TestClient

from matanui.server import accounts, create_app

from .conftest import ROOMY
from .devices import PASSWORD, Device, cheap_hashes  # noqa: F401  (the fixture)
from .helpers import HUMAN_VS_BOT, TEST_HOSTS, postgres_url

NEW_GAME = {"game": "reconstruct", "seats": HUMAN_VS_BOT}


@pytest.fixture
def device(client):
    return Device(client)


def cookie_line(answer) -> str:
    return next(line for line in answer.headers.get_list("set-cookie") if line.startswith(accounts.COOKIE))


# -- the cookie -------------------------------------------------------------------------


def test_the_session_cookie_is_httponly_lax_for_the_whole_site_and_not_secure_over_http(device):
    flags = cookie_line(device.sign_up("Tahu_s1")).lower()
    assert "httponly" in flags and "samesite=lax" in flags and "path=/" in flags
    assert "secure" not in flags


@pytest.mark.parametrize(("peer", "secure"), [("10.0.0.9", True), ("10.0.0.8", False)])
def test_the_cookie_is_secure_over_https_named_by_a_trusted_proxy_only(tmp_path, peer, secure):
    app = create_app(f"sqlite:///{tmp_path / 's.db'}", allowed_hosts=TEST_HOSTS, limits=ROOMY,
                     trusted_proxies=("10.0.0.9",))
    with TestClient(app, client=(peer, 5000)) as client:
        answer = Device(client).call("POST", "/api/account", headers={"x-forwarded-proto": "https"},
                                     json={"name": "Gali_s2", "password": PASSWORD})
        assert answer.status_code == 201
        assert ("secure" in cookie_line(answer).lower()) is secure


# -- CSRF -------------------------------------------------------------------------------


def test_a_write_with_the_cookie_but_no_csrf_header_is_refused_saying_what_is_missing(device):
    device.sign_up("Lewa_s3")
    answer = device.call("POST", "/api/games", csrf=False, json=NEW_GAME)
    assert answer.status_code == 403 and answer.json()["error"] == "csrf"
    assert "X-CSRF-Token" in answer.json()["message"] and "no" in answer.json()["message"]
    assert device.call("GET", "/api/account/games").json() == []  # nothing was made


def test_a_write_with_a_wrong_csrf_header_is_refused(device):
    device.sign_up("Onua_s4")
    answer = device.call("DELETE", "/api/session", csrf=False, headers={"x-csrf-token": "forged"})
    assert answer.status_code == 403 and answer.json()["error"] == "csrf"
    assert "not this session's token" in answer.json()["message"]
    assert device.who() == "Onua_s4"  # still signed in


def test_writes_without_the_cookie_are_untouched(device):
    assert device.call("POST", "/api/games", json=NEW_GAME).status_code == 201


def test_a_write_with_the_right_csrf_header_goes_through(device):
    device.sign_up("Kopaka_s5")
    assert device.call("POST", "/api/games", json=NEW_GAME).status_code == 201


def test_the_session_tells_its_csrf_token(device):
    csrf = device.sign_up("Pohatu_s6").json()["csrf"]
    assert device.call("GET", "/api/session").json() == {"account": "Pohatu_s6", "csrf": csrf}


# -- fixation and ending sessions ----------------------------------------------------------


def test_a_cookie_sent_before_sign_in_is_never_promoted(device, client):
    device.sign_up("Nuju_s7")
    attacker = Device(client)
    attacker.cookie = "chosen-by-the-attacker"
    attacker.sign_in("Nuju_s7")
    assert attacker.cookie != "chosen-by-the-attacker"
    planted = Device(client)
    planted.cookie = "chosen-by-the-attacker"
    assert planted.who() is None


def test_signing_in_again_replaces_the_session_it_came_with(device):
    device.sign_up("Whenua_s8")
    before = device.cookie
    device.sign_in("Whenua_s8")
    assert device.cookie != before
    old = Device(device.client)
    old.cookie = before
    assert old.who() is None


def test_sign_out_ends_the_session(device):
    device.sign_up("Vakama_s9")
    cookie = device.cookie
    answer = device.call("DELETE", "/api/session")
    assert answer.json() == {"account": None, "csrf": None}
    assert device.cookie is None  # the cookie is cleared
    stolen = Device(device.client)
    stolen.cookie = cookie
    assert stolen.who() is None


def test_a_password_change_ends_every_other_session_and_rotates_this_one(device, client):
    device.sign_up("Hahli_s10")
    phone = Device(client)
    phone.sign_in("Hahli_s10")
    before, csrf = device.cookie, device.csrf
    answer = device.call("POST", "/api/account/password", json={"old": PASSWORD, "new": "a new long secret"})
    assert answer.status_code == 200
    assert device.cookie != before and device.csrf != csrf and device.who() == "Hahli_s10"
    assert phone.who() is None
    old = Device(client)
    old.cookie = before
    assert old.who() is None
    assert Device(client).sign_in("Hahli_s10").status_code == 401
    assert Device(client).sign_in("Hahli_s10", "a new long secret").status_code == 200


def test_a_password_change_needs_the_old_password(device):
    device.sign_up("Jaller_s11")
    answer = device.call("POST", "/api/account/password",
                         json={"old": "wrong one", "new": "a new long secret"})
    assert answer.status_code == 403 and answer.json()["error"] == "wrong_password"
    assert device.who() == "Jaller_s11"


# -- several instances ----------------------------------------------------------------------


def test_two_instances_on_postgresql_accept_each_others_sessions():
    url = postgres_url()
    with ExitStack() as stack:
        a, b = (stack.enter_context(TestClient(create_app(url, allowed_hosts=TEST_HOSTS, limits=ROOMY)))
                for _ in range(2))
        laptop = Device(a)
        name = f"Toa_{os.urandom(4).hex()}"
        laptop.sign_up(name)
        game = laptop.call("POST", "/api/games", json=NEW_GAME).json()
        phone = Device(b)
        phone.cookie, phone.csrf = laptop.cookie, laptop.csrf
        assert phone.who() == name
        with phone.socket(game["id"]) as ws:
            ws.send_json({"type": "hello", "account": True})
            while (message := ws.receive_json())["type"] != "welcome":
                assert message["type"] != "error", message
            assert message["seat"] == 0
        assert phone.call("DELETE", "/api/session").status_code == 200
        assert laptop.who() is None  # signed out on B: over on A too


# -- sockets end with their session -------------------------------------------------------


def until_closed(ws) -> tuple[list[dict], int]:
    """The messages a socket gets until it is closed, and its close code."""
    from starlette.websockets import WebSocketDisconnect

    seen = []
    try:
        while True:
            seen.append(ws.receive_json())
    except WebSocketDisconnect as closed:
        return seen, closed.code


def seated_by_account(stack: ExitStack, device: Device, game_id: str):
    ws = stack.enter_context(device.socket(game_id))
    ws.send_json({"type": "hello", "account": True})
    while (message := ws.receive_json())["type"] != "welcome":
        assert message["type"] != "error", message
    assert message["seat"] == 0
    return ws


@pytest.mark.parametrize("how", ["sign-out", "password change"])
def test_a_socket_opened_by_a_session_closes_when_it_ends(device, client, how):
    """A thief signed in as the owner plays from an open socket; the owner signs out that
    session, or changes the password: the thief's socket is told and closed at once."""
    name = f"Toa_{os.urandom(3).hex()}"
    device.sign_up(name)
    game = device.call("POST", "/api/games", json=NEW_GAME).json()
    thief = Device(client)
    assert thief.sign_in(name).status_code == 200
    with ExitStack() as stack:
        ws = seated_by_account(stack, thief, game["id"])
        if how == "sign-out":
            assert thief.call("DELETE", "/api/session").status_code == 200  # its own session ends
        else:
            changed = device.call("POST", "/api/account/password",
                                  json={"old": PASSWORD, "new": "a new long passphrase"})
            assert changed.status_code == 200
        seen, code = until_closed(ws)
    assert code == accounts.SESSION_ENDED
    assert any(m["type"] == "error" and m["code"] == "session_ended" for m in seen)


def test_a_socket_whose_session_ended_elsewhere_is_refused_at_its_next_move(device, client):
    """Another instance ended the session (here: the database row is gone, no socket closed):
    the socket's next message is refused and it closes."""
    name = f"Toa_{os.urandom(3).hex()}"
    device.sign_up(name)
    game = device.call("POST", "/api/games", json=NEW_GAME).json()
    storage = client.app.state.lobby.backends.storage
    with ExitStack() as stack:
        ws = seated_by_account(stack, device, game["id"])
        accounts.Book(storage.engine).close_session(device.cookie)  # as another instance would
        ws.send_json({"type": "resign"})
        seen, code = until_closed(ws)
    assert code == accounts.SESSION_ENDED
    assert [m["code"] for m in seen if m["type"] == "error"] == ["session_ended"]
    assert client.get(f"/api/games/{game['id']}").json()["status"] != "finished"  # no resign


def test_a_seat_opened_by_its_token_is_not_the_sessions(device, client):
    name = f"Toa_{os.urandom(3).hex()}"
    device.sign_up(name)
    game = device.call("POST", "/api/games", json=NEW_GAME).json()
    with device.socket(game["id"]) as ws:
        ws.send_json({"type": "hello", "token": game["seats"][0]["token"]})
        while ws.receive_json()["type"] != "welcome":
            pass
        assert device.call("DELETE", "/api/session").status_code == 200
        ws.send_json({"type": "resign"})  # the token is the seat's key, whoever is signed in
        while not (message := ws.receive_json()).get("over"):
            assert message["type"] != "error", message
