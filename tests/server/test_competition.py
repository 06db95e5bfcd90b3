"""Competition one person cannot bend (docs/ratings.md): each way found to farm a rating, to
choose to be rated after the fact or to expel a late friend fails, on SQLite and on two
instances sharing PostgreSQL where the rule is stored (aborts, rated, counted games)."""

from __future__ import annotations

import secrets
import time
from contextlib import ExitStack

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from matanui.server import create_app
from matanui.server.aborts import aborted
from matanui.server.quotas import Limits
from matanui.server.ratings import PROVEN_GAMES, PROVEN_OPPONENTS, counted, record_game
from matanui.server.users import users_table

from .conftest import ROOMY
from .devices import PASSWORD, Device, cheap_hashes  # noqa: F401  (the fixture)
from .helpers import TEST_HOSTS, create, from_address, postgres_url
from .test_ratings import PEOPLE, account, finish, held_by, league, room_of, standing, storage_of


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'competition.db'}"
    return postgres_url()


def instance(stack: ExitStack, url: str, limits: Limits = ROOMY) -> TestClient:
    return stack.enter_context(TestClient(create_app(url, allowed_hosts=TEST_HOSTS, limits=limits)))


def test_a_puppet_that_resigns_as_the_first_action_aborts_the_game_and_nobody_gains(database):
    """The farm found: one account, a puppet that takes seat 1 and resigns at once, twelve
    times in a minute. Each game is aborted, unrated, on both instances; the farmer has no
    rating and no place."""
    with ExitStack() as stack:
        a, b = instance(stack, database), instance(stack, database)
        storage = storage_of(a)
        (farmer, farmer_name), (puppet, _) = account(storage), account(storage)
        for _ in range(12):
            game = create(a, seats=PEOPLE, rated=True)
            room = held_by(a, game["id"], [farmer, puppet])
            a.portal.call(room.forfeit, 1, "resign")
            assert aborted(room.state.history) and room.state.winners == [] and not room.rated()
            b.portal.call(b.app.state.lobby.refresh, game["id"])
            seen = b.get(f"/api/games/{game['id']}").json()
            assert seen["aborted"] and seen["status"] == "finished" and seen["winners"] == []
        assert standing(storage, farmer, "reconstruct") is None
        assert farmer_name not in [p["name"] for p in a.get("/api/ratings/reconstruct").json()["players"]]


def test_a_game_can_no_longer_be_aborted_once_both_players_have_made_two_moves(tmp_path):
    with ExitStack() as stack:
        client = instance(stack, f"sqlite:///{tmp_path / 'a.db'}")
        game = create(client, seats=PEOPLE)
        with client.websocket_connect(f"/ws/games/{game['id']}") as ws:
            ws.send_json({"type": "hello"})
            ws.receive_json()
        room = room_of(client, game["id"])
        made = [0, 0]
        while min(made) < 2:
            state = room.state
            seat, window = state.current_player, state.response_window() is not None
            client.portal.call(room.act, seat, state.legal_actions()[0], len(state.history), True)
            made[seat] += 0 if window or state.automatic_action() else 1
        assert not room.abortable()
        with pytest.raises(Exception, match="can no longer be aborted"):
            client.portal.call(room.forfeit, 0, "abort")
        client.portal.call(room.forfeit, 0, "resign")
        assert room.state.winners == [1] and not aborted(room.state.history)


def users_named(client: TestClient, *names: str) -> list[str]:
    with storage_of(client).engine.connect() as db:
        return [db.scalar(select(users_table.c.id).where(users_table.c.name == name)) for name in names]


def test_accounts_created_from_one_address_do_not_rate_each_other(tmp_path):
    url = f"sqlite:///{tmp_path / 'one.db'}"
    with ExitStack() as stack:
        client = instance(stack, url)
        for name in ("Farmer", "Puppet"):
            Device(client).sign_up(name)
        Device(from_address(client, "10.0.0.7")).sign_up("Stranger")
        farmer, puppet, stranger = users_named(client, "Farmer", "Puppet", "Stranger")
        for pair in ([farmer, puppet], [farmer, stranger]):
            game = create(client, seats=PEOPLE, rated=True)
            room = held_by(client, game["id"], pair)
            finish(client, room)
            assert counted(storage_of(client), game["id"]) == (stranger in pair)
            assert room.rated() == (stranger in pair)
        assert standing(storage_of(client), puppet, "reconstruct") is None
    with ExitStack() as stack:  # a club behind one address may allow it
        client = instance(stack, url, Limits(**{**vars(ROOMY), "rated_one_address": 1}))
        game = create(client, seats=PEOPLE, rated=True)
        finish(client, held_by(client, game["id"], [farmer, puppet]))
        assert counted(storage_of(client), game["id"])


def test_a_pair_counts_at_most_three_rated_games_a_week(database):
    with ExitStack() as stack:
        a, b = instance(stack, database), instance(stack, database)
        storage = storage_of(a)
        (one, _), (two, _) = account(storage), account(storage)
        now = time.time()
        for number in range(5):
            game = create(a, seats=PEOPLE, rated=True)
            by = (a, b)[number % 2]  # the games end on either instance
            assert record_game(storage_of(by), game["id"], "reconstruct", [one, two], [0], now + number)
            assert counted(storage, game["id"]) == (number < 3)
        week_later = create(a, seats=PEOPLE, rated=True)
        record_game(storage, week_later["id"], "reconstruct", [one, two], [0], now + 8 * 86400)
        assert counted(storage, week_later["id"])


def test_the_leaderboard_lists_only_ratings_that_are_no_longer_provisional(tmp_path):
    with ExitStack() as stack:
        client = instance(stack, f"sqlite:///{tmp_path / 'board.db'}")
        league(client)
        newcomer, _ = account(storage_of(client), "Newcomer")
        game = create(client, seats=PEOPLE, rated=True)
        record_game(storage_of(client), game["id"], "reconstruct", [newcomer, users_named(client, "Toa0")[0]],
                    [0], 1000.0 + 30 * 86400)
        board = client.get("/api/ratings/reconstruct").json()
        assert board["total"] == 7 and "Newcomer" not in [p["name"] for p in board["players"]]
        assert all(not p["provisional"] and p["games"] >= PROVEN_GAMES for p in board["players"])
        assert board["proven_games"] == PROVEN_GAMES and board["proven_opponents"] == PROVEN_OPPONENTS
        profile = client.get("/api/players/Newcomer").json()["ratings"]["reconstruct"]
        assert profile["provisional"] and profile["games"] == 1


def test_two_accounts_alone_never_reach_the_leaderboard_however_long_they_play(tmp_path):
    with ExitStack() as stack:
        client = instance(stack, f"sqlite:///{tmp_path / 'two.db'}")
        storage = storage_of(client)
        (one, _), (two, _) = account(storage), account(storage)
        for week in range(10):  # three counted games a week for ten weeks: thirty games
            for game_number in range(3):
                game = create(client, seats=PEOPLE, rated=True)
                record_game(storage, game["id"], "reconstruct", [one, two], [0],
                            1000.0 + week * 8 * 86400 + game_number)
        assert client.get("/api/ratings/reconstruct").json()["players"] == []


def test_a_seat_put_under_an_account_once_the_game_has_begun_leaves_it_unrated(database):
    """Choosing to be rated after seeing the game: the claim is taken (the seat opens from the
    account's other devices), but a game whose seats were not all accounts' at its first
    action stays unrated for good, on both instances."""
    with ExitStack() as stack:
        a, b = instance(stack, database), instance(stack, database)
        signed = Device(a)
        signed.sign_up(f"Late{secrets.token_hex(3)}")  # PostgreSQL keeps the accounts of earlier runs
        other, _ = account(storage_of(a))
        game = create(a, seats=PEOPLE, rated=True)
        room = held_by(a, game["id"], [other, None])
        state = room.state
        a.portal.call(room.act, state.current_player, state.legal_actions()[0], 0, True)
        assert not room.rated()
        claimed = Device(b)
        claimed.cookie, claimed.csrf = signed.cookie, signed.csrf
        b.portal.call(b.app.state.lobby.refresh, game["id"])
        answer = claimed.call("POST", "/api/account/claim",
                              json={"game_id": game["id"], "token": game["seats"][1]["token"]})
        assert answer.status_code == 200, answer.text
        b.portal.call(b.app.state.lobby.refresh, game["id"])  # as the claim's notification does
        later = room_of(b, game["id"])
        assert later.row.seats[1].account and not later.rated()
        finish(b, later)
        assert not later.rated() and not b.get(f"/api/games/{game['id']}").json()["rated"]
        assert standing(storage_of(b), other, "reconstruct") is None
