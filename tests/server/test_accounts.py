"""Optional accounts: creating one, signing in (wrong password, unknown user, throttling),
the password rules, and the seats an account holds: created or joined while signed in,
claimed from this browser, listed on any device and opened there by the session."""

from __future__ import annotations

import time

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, insert, select

from matanui.server import accounts
from matanui.server.app import create_app
from matanui.server.quotas import Limits, Throttled

from .conftest import ROOMY
from .devices import CHEAP, PASSWORD, Device, cheap_hashes  # noqa: F401  (the fixture)
from .helpers import HUMAN_VS_BOT, TEST_HOSTS, create, receive_view

PEOPLE = [{"kind": "human", "character": "tahu"}, {"kind": "human", "character": "gali"}]


@pytest.fixture
def device(client):
    return Device(client)


def test_creating_an_account_signs_in(device):
    answer = device.sign_up("Tahu_1")
    assert answer.json()["account"] == "Tahu_1" and device.csrf
    assert device.who() == "Tahu_1"


def test_a_user_name_is_taken_whatever_its_case(device, client):
    device.sign_up("Gali-2")
    answer = Device(client).call("POST", "/api/account", json={"name": "gALI-2", "password": PASSWORD})
    assert answer.status_code == 409 and answer.json()["error"] == "name_taken"


@pytest.mark.parametrize(("name", "password", "says"), [
    ("ab", PASSWORD, "3 to 24"),
    ("has space", PASSWORD, "letter"),
    ("x" * 25, PASSWORD, "3 to 24"),
    ("Lewa_3", "short", "8 to 256"),
    ("Lewa_3", "x" * 257, "8 to 256"),
    ("Lewa_3", "Password123", "most common"),
    ("Lewa_3", "bad\x00password", "control"),
])
def test_names_and_passwords_that_break_a_rule_are_refused_saying_which(device, name, password, says):
    answer = device.call("POST", "/api/account", json={"name": name, "password": password})
    assert answer.status_code == 422, answer.text
    assert says in answer.json()["message"]
    assert device.cookie is None


def test_accounts_are_throttled_per_address_with_retry_after(tmp_path):
    """Each account costs a password hash: one address creates at most accounts_per_hour."""
    limits = Limits(**{**vars(ROOMY), "accounts_per_hour": 2})
    with TestClient(create_app(f"sqlite:///{tmp_path / 'a.db'}", allowed_hosts=TEST_HOSTS,
                               limits=limits)) as client:
        for name in ("Onua_1", "Onua_2"):
            assert Device(client).sign_up(name).status_code == 201
        third = Device(client)
        answer = third.call("POST", "/api/account", json={"name": "Onua_3", "password": PASSWORD})
        assert answer.status_code == 429 and answer.json()["error"] == "too_many_accounts"
        assert int(answer.headers["Retry-After"]) > 0 and "in the last hour" in answer.json()["message"]
        assert third.cookie is None
        assert Device(client).call("POST", "/api/session", json={"name": "Onua_3", "password": PASSWORD}
                                   ).status_code == 401  # nothing was made


def test_a_password_that_is_the_user_name_is_refused(device):
    answer = device.call("POST", "/api/account", json={"name": "Lewa_3456", "password": "LEWA_3456"})
    assert answer.status_code == 409 and answer.json()["error"] == "password_is_name"
    assert device.cookie is None


def test_a_long_passphrase_of_any_characters_is_accepted(device):
    """No composition rules: spaces, Unicode, no digits."""
    device.sign_up("Kopaka_4", password="le toa de la glace ❄ kopaka")
    assert device.who() == "Kopaka_4"


def test_signing_in_on_another_device(device, client):
    device.sign_up("Onua_5")
    phone = Device(client)
    assert phone.sign_in("onua_5").status_code == 200
    assert phone.who() == "Onua_5" and phone.cookie != device.cookie


def test_a_wrong_password_and_an_unknown_user_answer_alike(device, client):
    device.sign_up("Pohatu_6")
    wrong = Device(client).sign_in("Pohatu_6", "not the password")
    unknown = Device(client).sign_in("Nobody_6", "not the password")
    assert wrong.status_code == unknown.status_code == 401
    assert wrong.json() == unknown.json()
    assert wrong.json()["error"] == "bad_credentials"


def test_an_unknown_user_costs_one_hash_verification_like_a_wrong_password(device, client, monkeypatch):
    device.sign_up("Nuju_7")
    verified = []

    class Counting:
        def verify(self, hashed, password):
            verified.append(hashed)
            return CHEAP.verify(hashed, password)

        def hash(self, password):
            return CHEAP.hash(password)

    monkeypatch.setattr(accounts, "HASHER", Counting())
    Device(client).sign_in("Nuju_7", "not the password")
    Device(client).sign_in("Nobody_7", "not the password")
    assert len(verified) == 2 and all(h.startswith("$argon2id$") for h in verified)


def test_sign_in_is_throttled_per_user_name_from_an_address_with_retry_after(device, client):
    device.sign_up("Whenua_8")
    for _ in range(accounts.FAILURES_PER_NAME):
        assert Device(client).sign_in("Whenua_8", "guess guess").status_code == 401
    answer = Device(client).sign_in("WHENUA_8")  # the right password, all the same
    assert answer.status_code == 429
    assert answer.json()["error"] == "too_many_sign_ins"
    assert 800 < int(answer.headers["retry-after"]) <= 900
    assert "try again in 15 minute" in answer.json()["message"]


def test_an_attempt_is_counted_before_its_password_is_checked_and_forgiven_when_right(device, client):
    """Guesses sent at once each count the others (none waits for another's check to be
    noted), and signing in rightly counts nothing: a player who signs in often is never held."""
    device.sign_up("Whenua_9")
    for _ in range(accounts.FAILURES_PER_NAME + 2):
        assert Device(client).sign_in("Whenua_9").status_code == 200
    storage = client.app.state.lobby.backends.storage
    keys = [f"name:{'whenua_9'}", "address:none"]
    for _ in range(accounts.FAILURES_PER_NAME):  # attempts noted, none of them checked yet
        client.portal.call(accounts._attempt, storage, keys, time.time())
    with pytest.raises(Throttled):
        client.portal.call(accounts._attempt, storage, keys, time.time())


def test_sign_in_is_throttled_per_address(tmp_path):
    from fastapi.testclient import TestClient

    from matanui.server import create_app

    from .conftest import ROOMY
    from .helpers import TEST_HOSTS
    app = create_app(f"sqlite:///{tmp_path / 'a.db'}", allowed_hosts=TEST_HOSTS, limits=ROOMY)
    with TestClient(app, client=("10.0.0.7", 5000)) as client:
        for number in range(accounts.FAILURES_PER_ADDRESS):
            assert Device(client).sign_in(f"name_{number}", "guess guess").status_code == 401
        answer = Device(client).sign_in("someone_else", "guess guess")
        assert answer.status_code == 429 and "from your address" in answer.json()["message"]
        assert int(answer.headers["retry-after"]) > 0


def failure_rows(client: TestClient) -> int:
    storage = client.app.state.lobby.backends.storage
    with storage.engine.connect() as db:
        return db.scalar(select(func.count()).select_from(accounts.failures_table))


def test_guesses_cannot_lock_the_owner_out_from_another_address(tmp_path):
    """The name is throttled for the address that guessed, never for everyone: the owner, from
    an address that has not failed, signs in with the right password at once."""
    app = create_app(f"sqlite:///{tmp_path / 'a.db'}", allowed_hosts=TEST_HOSTS, limits=ROOMY)
    with TestClient(app, client=("10.0.0.7", 5000)) as guesser:
        Device(guesser).sign_up("Whenua_10")
        for _ in range(accounts.FAILURES_PER_NAME):
            assert Device(guesser).sign_in("Whenua_10", "guess guess").status_code == 401
        assert Device(guesser).sign_in("Whenua_10").status_code == 429
        owner = TestClient(app, client=("10.0.0.8", 5000))  # the same server, another address
        assert Device(owner).sign_in("whenua_10").status_code == 200


def test_a_refused_attempt_does_no_work_and_counts_for_nothing(device, client, monkeypatch):
    device.sign_up("Whenua_11")
    for _ in range(accounts.FAILURES_PER_NAME):
        Device(client).sign_in("Whenua_11", "guess guess")
    rows = failure_rows(client)
    verified: list[str] = []

    class Counting:
        def verify(self, hashed, password):
            verified.append(hashed)
            return CHEAP.verify(hashed, password)

    monkeypatch.setattr(accounts, "HASHER", Counting())
    for _ in range(10):
        assert Device(client).sign_in("Whenua_11", "guess guess").status_code == 429
    assert failure_rows(client) == rows and not verified


def test_failures_older_than_the_window_leave_no_rows_whatever_their_key(device, client):
    storage = client.app.state.lobby.backends.storage
    rows = failure_rows(client)  # earlier tests' failures, inside the window
    old = time.time() - accounts.FAILURE_WINDOW - 60
    with storage.engine.begin() as db:
        db.execute(insert(accounts.failures_table),
                   [{"key": f"address:10.1.0.{n}", "at": old} for n in range(50)])
    Device(client).sign_in("Nobody_12", "guess guess")
    assert failure_rows(client) == rows + 2  # this failure's two keys; the 50 stale rows are gone


def test_the_lobbys_timer_drops_failures_older_than_the_window_with_nobody_signing_in(client):
    storage = client.app.state.lobby.backends.storage
    rows = failure_rows(client)
    old = time.time() - accounts.FAILURE_WINDOW - 60
    with storage.engine.begin() as db:
        db.execute(insert(accounts.failures_table),
                   [{"key": f"address:10.2.0.{n}", "at": old} for n in range(50)])
    client.portal.call(accounts.sweep_failures, storage, time.time())
    assert failure_rows(client) <= rows


def test_past_the_account_quota_a_taken_name_answers_like_any_other(tmp_path):
    """Names cannot be probed once the quota is spent: every creation is refused alike."""
    limits = Limits(**{**vars(ROOMY), "accounts_per_hour": 1})
    with TestClient(create_app(f"sqlite:///{tmp_path / 'a.db'}", allowed_hosts=TEST_HOSTS,
                               limits=limits)) as client:
        assert Device(client).sign_up("Onua_20").status_code == 201
        for name in ("Onua_20", "Onua_21"):  # taken, free
            answer = Device(client).call("POST", "/api/account",
                                         json={"name": name, "password": PASSWORD})
            assert answer.status_code == 429 and answer.json()["error"] == "too_many_accounts"


def test_a_hash_of_older_parameters_is_redone_at_sign_in(device, client, monkeypatch):
    device.sign_up("Vakama_9")
    stronger = type(CHEAP)(time_cost=2, memory_cost=2048, parallelism=1)
    monkeypatch.setattr(accounts, "HASHER", stronger)
    assert Device(client).sign_in("Vakama_9").status_code == 200
    storage = client.app.state.lobby.backends.storage
    user = accounts.Book(storage.engine).user("vakama_9")
    assert not stronger.check_needs_rehash(user.password_hash)


# -- seats ------------------------------------------------------------------------------


def test_a_game_created_while_signed_in_is_listed_on_another_device_your_turn_first(device, client):
    device.sign_up("Hahli_10")
    waiting = device.call("POST", "/api/games", json={"game": "reconstruct", "seats": PEOPLE}).json()
    mine = device.call("POST", "/api/games", json={"game": "reconstruct", "seats": HUMAN_VS_BOT}).json()
    phone = Device(client)
    phone.sign_in("Hahli_10")
    listed = phone.call("GET", "/api/account/games").json()
    assert {g["game_id"] for g in listed} == {waiting["id"], mine["id"]}
    assert all(g["seat"] == 0 and g["title"] and g["status"] == "running" for g in listed)
    turns = [g["your_turn"] for g in listed]
    assert turns == sorted(turns, reverse=True)


def test_a_seat_under_an_account_is_called_by_its_name_everywhere_unless_given_another(device, client):
    """One name for one player: the lobby, the table, the log and the chat all read the
    seat's name, so an account's seat takes the account's name (created, joined or claimed)."""
    device.sign_up("Jala_11")
    made = device.call("POST", "/api/games", json={"game": "reconstruct", "seats": PEOPLE}).json()
    assert client.get(f"/api/games/{made['id']}").json()["seats"][0]["name"] == "Jala_11"
    named = device.call("POST", "/api/games", json={"game": "reconstruct", "seats": [
        {**PEOPLE[0], "name": "Captain"}, PEOPLE[1]]}).json()
    assert client.get(f"/api/games/{named['id']}").json()["seats"][0]["name"] == "Captain"
    anonymous = create(client, seats=PEOPLE)
    device.call("POST", "/api/account/claim", json={"game_id": anonymous["id"],
                                                    "token": anonymous["seats"][1]["token"]})
    summary = client.get(f"/api/games/{anonymous['id']}").json()
    assert summary["seats"][1]["name"] == "Jala_11" and summary["seats"][0]["name"] is None


def test_the_account_games_need_a_session(device):
    answer = device.call("GET", "/api/account/games")
    assert answer.status_code == 401 and answer.json()["error"] == "not_signed_in"


def test_hello_by_account_opens_the_seat_on_another_device(device, client):
    device.sign_up("Jaller_11")
    game = device.call("POST", "/api/games", json={"game": "reconstruct", "seats": HUMAN_VS_BOT}).json()
    phone = Device(client)
    phone.sign_in("Jaller_11")
    with phone.socket(game["id"]) as ws:
        ws.send_json({"type": "hello", "account": True})
        view = receive_view(ws)
        assert view["seat"] == 0
        assert view["seats"][0]["account"] == "Jaller_11"


def test_hello_by_account_without_a_session_watches_and_says_why(client):
    game = create(client)
    with Device(client).socket(game["id"]) as ws:
        ws.send_json({"type": "hello", "account": True})
        error = ws.receive_json()
        assert error["type"] == "error" and error["code"] == "not_signed_in"
        assert receive_view(ws)["seat"] is None


def test_a_seat_taken_signed_out_is_claimed_into_the_account(device, client):
    game = create(client)  # anonymous, in this browser
    device.sign_up("Hewkii_12")
    body = {"game_id": game["id"], "token": game["seats"][0]["token"]}
    assert device.call("POST", "/api/account/claim", json=body).json() == {"game_id": game["id"], "seat": 0}
    assert [g["game_id"] for g in device.call("GET", "/api/account/games").json()] == [game["id"]]
    other = Device(client)
    other.sign_up("Macku_12")
    taken = other.call("POST", "/api/account/claim", json=body)
    assert taken.status_code == 409 and taken.json()["error"] == "held"


def test_a_claim_with_a_wrong_token_is_refused(device, client):
    game = create(client)
    device.sign_up("Nokama_13")
    answer = device.call("POST", "/api/account/claim", json={"game_id": game["id"], "token": "nope"})
    assert answer.status_code == 403 and answer.json()["error"] == "bad_token"


def test_joining_while_signed_in_puts_the_seat_under_the_account(device, client):
    host = create(client, seats=PEOPLE, public=True)
    device.sign_up("Matoro_14")
    joined = device.call("POST", f"/api/games/{host['id']}/join", json={}).json()
    assert [(g["game_id"], g["seat"]) for g in device.call("GET", "/api/account/games").json()] == \
        [(host["id"], joined["seat"])]


def test_rest_calls_that_take_a_seat_token_accept_the_session(device, client):
    device.sign_up("Nuparu_15")
    game = device.call("POST", "/api/games", json={"game": "reconstruct", "seats": PEOPLE}).json()
    named = device.call("POST", f"/api/games/{game['id']}/name", json={"name": "Nuparu"})
    assert named.status_code == 200 and named.json()["seat"] == 0
    replay = device.call("GET", f"/api/games/{game['id']}/replay?seat=0")
    assert replay.status_code == 200
    assert device.call("GET", f"/api/games/{game['id']}/replay?seat=1").status_code == 403
    anonymous = Device(client).call("POST", f"/api/games/{game['id']}/name", json={"name": "x"})
    assert anonymous.status_code == 403 and anonymous.json()["error"] == "bad_token"
