"""Ratings of accounts (server/ratings.py): a rated game moves both ratings by Glicko-2's
numbers, exactly once however many instances hear of it; games that are not rated stay
unrated; Makuta's many-player result; the leaderboard and the profile."""

from __future__ import annotations

import itertools
import random
import secrets
import time
from collections.abc import Iterator
from contextlib import ExitStack

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import insert, select

from matanui.arena.glicko2 import Rating, Result, rate
from matanui.server import create_app
from matanui.server.protocol import Rejected
from matanui.server.ratings import (
    is_rated,
    pairs,
    rated_games_table,
    ratings_table,
    record_game,
)
from matanui.server.rooms import Room
from matanui.server.storage import Storage
from matanui.server.users import users_table

from .conftest import ROOMY
from .helpers import TEST_HOSTS, create, postgres_url

PEOPLE = [{"kind": "human", "character": "tahu"}, {"kind": "human", "character": "gali"}]


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'ratings.db'}"
    return postgres_url()


def instance(stack: ExitStack, database: str) -> TestClient:
    return stack.enter_context(TestClient(create_app(database, allowed_hosts=TEST_HOSTS, limits=ROOMY)))


def storage_of(client: TestClient) -> Storage:
    return client.app.state.lobby.backends.storage


def room_of(client: TestClient, game_id: str) -> Room:
    return client.app.state.lobby.rooms[game_id]


def account(storage: Storage, name: str | None = None) -> tuple[str, str]:
    """A users row, inserted directly (signing in is server/accounts.py's): (id, name)."""
    user_id, name = secrets.token_hex(8), name or f"p{secrets.token_hex(5)}"
    with storage.engine.begin() as db:
        db.execute(insert(users_table).values(id=user_id, name=name, name_key=name.casefold(),
                                              password_hash="-", created=time.time(),
                                              password_changed=time.time()))
    return user_id, name


def held_by(client: TestClient, game_id: str, accounts: list[str | None]) -> Room:
    """The game's seats put under these accounts (what signing in and joining does)."""
    room = room_of(client, game_id)
    for seat, holder in zip(room.row.seats, accounts, strict=True):
        seat.account = holder
    storage_of(client).set_seats(game_id, room.row.seats)
    return room


def finish(client: TestClient, room: Room, seed: int = 1) -> None:
    """Play random legal moves for whoever is to decide until the game is over."""
    rng = random.Random(seed)
    while not room.state.is_over:
        state = room.state
        action = rng.choice(state.legal_actions())
        try:
            client.portal.call(room.act, state.current_player, action, len(state.history), True)
        except Rejected:  # the server's own turn (a window closing) came first: look again
            pass


def standing(storage: Storage, user_id: str, game: str) -> Rating | None:
    r = ratings_table.c
    with storage.engine.connect() as db:
        row = db.execute(select(r.rating, r.rd, r.volatility)
                         .where(r.account == user_id, r.game == game)).first()
    return None if row is None else Rating(*row)


def rated_count(storage: Storage, game_id: str) -> int:
    with storage.engine.connect() as db:
        return len(db.execute(select(rated_games_table).where(rated_games_table.c.game_id == game_id)).all())


@pytest.fixture
def client(tmp_path) -> Iterator[TestClient]:
    with ExitStack() as stack:
        yield instance(stack, f"sqlite:///{tmp_path / 'one.db'}")


def test_a_rated_game_moves_both_ratings_by_the_glicko2_numbers(client):
    storage = storage_of(client)
    (a, _), (b, _) = account(storage), account(storage)
    game = create(client, seats=PEOPLE, rated=True)
    room = held_by(client, game["id"], [a, b])
    finish(client, room)

    winners = room.state.winners
    newcomer = Rating()
    for seat, user in enumerate((a, b)):
        score = 0.5 if len(winners) != 1 else 1.0 if seat in winners else 0.0
        assert standing(storage, user, "reconstruct") == rate(newcomer, [Result(newcomer, score)])
    assert rated_count(storage, game["id"]) == 1


@pytest.mark.parametrize("case", ["anonymous seat", "one account twice", "hot-seat", "bot", "hints",
                                  "not created rated"])
def test_games_that_are_not_between_accounts_or_give_hints_stay_unrated(client, case):
    storage = storage_of(client)
    (a, _), (b, _) = account(storage), account(storage)
    seats = [PEOPLE[0], {"kind": "bot", "level": "easy", "character": "gali"}] if case == "bot" else PEOPLE
    game = create(client, seats=seats, hotseat=case == "hot-seat", hints=case == "hints",
                  rated=case != "not created rated")
    holders = {"anonymous seat": [a, None], "one account twice": [a, a], "hot-seat": [a, b], "bot": [a, b],
               "hints": [a, b], "not created rated": [a, b]}
    room = held_by(client, game["id"], holders[case])
    finish(client, room)
    assert not is_rated(room.row, room.state)
    assert rated_count(storage, game["id"]) == 0 and standing(storage, a, "reconstruct") is None


def test_a_seat_a_bot_took_over_counts_for_its_account_as_a_loss(client):
    """Its player left (their clock ran out): they lose whatever the bot did, as lichess
    scores an abandoned game, so timing out never dodges a loss and nobody farms the bot."""
    storage = storage_of(client)
    (a, _), (b, _) = account(storage), account(storage)
    room = held_by(client, create(client, seats=PEOPLE, rated=True)["id"], [a, b])
    room.row.seats[1].kind, room.row.seats[1].replaced, room.row.seats[1].level = "bot", True, "easy"
    finish(client, room)
    assert is_rated(room.row, room.state)
    assert standing(storage, b, "reconstruct").rating < 1500 < standing(storage, a, "reconstruct").rating


def test_seats_that_left_lose_to_those_that_stayed_even_in_a_draw():
    """Makuta of four drawn at the turn limit after seat 3 resigned: 3 loses to each of the
    others, who draw among themselves."""
    found = sorted(pairs([], 4, left={3}))
    assert (3, 0, 0.0) in found and (0, 3, 1.0) in found and (0, 1, 0.5) in found
    assert not any(a == 3 and score > 0 for a, _, score in found)
    assert sorted(pairs([0], 3, left={1, 2})) == sorted([(0, 1, 1.0), (1, 0, 0.0), (0, 2, 1.0), (2, 0, 0.0)])


def test_a_game_without_an_action_is_not_rated(client):
    storage = storage_of(client)
    (a, _), (b, _) = account(storage), account(storage)
    room = held_by(client, create(client, seats=PEOPLE, rated=True)["id"], [a, b])
    assert not room.state.history and not is_rated(room.row, room.state)


def test_makuta_with_four_the_winner_beats_each_other_toa_and_the_others_are_not_compared():
    assert sorted(pairs([2], 4)) == sorted([(2, 0, 1.0), (0, 2, 0.0), (2, 1, 1.0), (1, 2, 0.0),
                                            (2, 3, 1.0), (3, 2, 0.0)])
    assert sorted(pairs([], 2)) == [(0, 1, 0.5), (1, 0, 0.5)]  # a draw
    assert sorted(pairs([0, 1], 2)) == [(0, 1, 0.5), (1, 0, 0.5)]


def test_a_makuta_game_of_four_rates_the_winner_against_three(tmp_path):
    storage = Storage(f"sqlite:///{tmp_path / 'm.db'}")
    with ExitStack() as stack:
        client = instance(stack, storage.url)
        game = create(client, seats=[{"kind": "human", "character": c}
                                     for c in ("tahu", "gali", "pohatu", "onua")], game="makuta", rated=True)
    users = [account(storage)[0] for _ in range(4)]
    assert record_game(storage, game["id"], "makuta", users, [1], 1000.0)
    new = Rating()
    assert standing(storage, users[1], "makuta") == rate(new, [Result(new, 1)] * 3)
    for loser in (0, 2, 3):
        assert standing(storage, users[loser], "makuta") == rate(new, [Result(new, 0)])
    storage.close()


def test_a_game_is_rated_once_across_two_instances_and_a_restart(database):
    with ExitStack() as stack:
        a = instance(stack, database)
        b = instance(stack, database)
        storage = storage_of(a)
        (x, _), (y, _) = account(storage), account(storage)
        game = create(a, seats=PEOPLE, rated=True)
        room = held_by(a, game["id"], [x, y])
        b.portal.call(b.app.state.lobby.refresh, game["id"])  # B serves the game too
        finish(a, room)
        # B takes in the end (as a notification makes it do): its room sees the game finish
        # and tries to rate it, which changes nothing.
        b.portal.call(b.app.state.lobby.refresh, game["id"])
        assert room_of(b, game["id"]).state.is_over
        rated = standing(storage, x, "reconstruct")
        winners = room.state.winners
        score = 0.5 if len(winners) != 1 else 1.0 if 0 in winners else 0.0
        assert rated == rate(Rating(), [Result(Rating(), score)])
        assert not record_game(storage_of(b), game["id"], "reconstruct", [x, y], [0], time.time())
        assert rated_count(storage, game["id"]) == 1
    with ExitStack() as stack:  # a restart: the finished game is loaded, not rated again
        c = instance(stack, database)
        assert room_of(c, game["id"]).state.is_over
        assert rated_count(storage_of(c), game["id"]) == 1
        assert standing(storage_of(c), x, "reconstruct") == rated


def test_the_leaderboard_lists_accounts_best_first_with_the_bots_beside_them(client):
    league(client)
    board = client.get("/api/ratings/reconstruct").json()
    ratings = [p["rating"] for p in board["players"]]
    assert len(ratings) == 7 and ratings == sorted(ratings, reverse=True)
    assert [p["rank"] for p in board["players"]] == list(range(1, 8))
    assert all(p["games"] == 18 and not p["provisional"] for p in board["players"])
    assert {bot["level"] for bot in board["bots"]} == {"easy", "medium", "hard"}
    second = board["players"][1]["name"]
    assert client.get("/api/ratings/reconstruct?offset=1&limit=1").json()["players"][0]["name"] == second
    unknown = client.get("/api/ratings/chess")
    assert unknown.status_code == 404 and "the games are: reconstruct" in unknown.json()["message"]


def league(client: TestClient, players: int = 7, rounds: int = 3) -> list[str]:
    """Accounts that have played each other `rounds` times (a week apart), each a winner in turn."""
    storage = storage_of(client)
    users = [account(storage, f"Toa{i}")[0] for i in range(players)]
    for week in range(rounds):
        for first, second in itertools.combinations(range(players), 2):
            game = create(client, seats=PEOPLE, rated=True)
            winner = (first + second + week) % 2
            record_game(storage, game["id"], "reconstruct", [users[first], users[second]], [winner],
                        1000.0 + week * 8 * 86400 + first * 10 + second)
    return users


def test_a_profile_gives_each_rating_its_history_and_the_games_newest_first(client):
    storage = storage_of(client)
    (me, _), (other, other_name) = account(storage, "Onewa"), account(storage, "Nuju")
    first, second = create(client, seats=PEOPLE, rated=True), create(client, seats=PEOPLE, rated=True)
    record_game(storage, first["id"], "reconstruct", [me, other], [0], 1000.0)
    record_game(storage, second["id"], "reconstruct", [other, me], [0], 2000.0)

    profile = client.get("/api/players/onewa").json()  # any case
    assert profile["name"] == "Onewa" and profile["total"] == 2
    assert [g["game_id"] for g in profile["games"]] == [second["id"], first["id"]]
    assert [g["result"] for g in profile["games"]] == ["lost", "won"]
    assert profile["games"][0]["opponents"] == [other_name]
    history = profile["ratings"]["reconstruct"]["history"]
    assert [point["game_id"] for point in history] == [first["id"], second["id"]]
    assert history[-1]["rating"] == profile["ratings"]["reconstruct"]["rating"]
    assert client.get("/api/players/onewa?limit=1&offset=1").json()["games"][0]["game_id"] == first["id"]
    missing = client.get("/api/players/nobody")
    assert missing.status_code == 404 and missing.json()["error"] == "unknown_player"


def test_seats_show_their_accounts_name_and_rating(client):
    storage = storage_of(client)
    a, _ = account(storage, "Matau")
    game = create(client, seats=PEOPLE, rated=True)
    held_by(client, game["id"], [a, None])
    client.get(f"/api/games/{game['id']}")  # the first look reads the account in the background
    deadline = time.time() + 5
    while time.time() < deadline:
        seats = client.get(f"/api/games/{game['id']}").json()["seats"]
        if seats[0]["account"]:
            break
        time.sleep(0.05)
    assert seats[0]["account"] == "Matau" and seats[0]["rating"] == {"rating": 1500.0, "rd": 350.0,
                                                                   "provisional": True}
    assert seats[1]["account"] is None and seats[1]["rating"] is None


def test_the_pages_are_served(client):
    for path in ("/ratings/reconstruct", "/players/Onewa"):
        page = client.get(path)
        assert page.status_code == 200 and "ratings.js" in page.text
