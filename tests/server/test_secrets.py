"""No message to a seat carries what that seat may not see, checked on recorded message
streams of whole games: every observation and event a connection received is compared with
the true state at that point, and for Reconstruct with the opponent's hidden cards."""

from __future__ import annotations

import random
from typing import Any

import pytest

from matanui import games
from matanui.engine import Record, replay

from .helpers import create, play_out, receive_view

CARD_KEYS = {"hand", "cards", "card", "known_in_hands", "discard", "stopped", "gave", "took"}


def card_ids(value: Any, key: str = "") -> set[int]:
    """Every card id a message names (numbers under card-bearing keys, at any depth)."""
    if isinstance(value, dict):
        return set().union(*(card_ids(v, k) for k, v in value.items())) if value else set()
    if isinstance(value, list):
        return set().union(*(card_ids(v, key) for v in value)) if value else set()
    return {value} if key in CARD_KEYS and isinstance(value, int) and not isinstance(value, bool) else set()


def record_whole_game(client, game: str, seats: list[dict[str, Any]], seed: int, **options: Any):
    """Seat 0 plays at random against bots while a spectator watches; both streams are kept."""
    created = create(client, seats=seats, game=game, seed=seed, options=options)
    streams: dict[Any, list[dict[str, Any]]] = {0: [], None: []}
    with client.websocket_connect(f"/ws/games/{created['id']}") as spectator, \
            client.websocket_connect(f"/ws/games/{created['id']}") as player:
        spectator.send_json({"type": "hello"})
        player.send_json({"type": "hello", "token": created["seats"][0]["token"]})
        final = play_out(player, random.Random(seed), log=streams[0])
        view = receive_view(spectator, streams[None])
        while view["at"] < final["at"]:
            view = receive_view(spectator, streams[None])
    record = Record.from_dict(client.get(f"/api/games/{created['id']}/replay").json()["record"])
    return record, streams


def check_stream(record: Record, seat: int | None, stream: list[dict[str, Any]]) -> None:
    """Walk the game forwards once, comparing each received view with the true state then."""
    views = [m for m in stream if m["type"] in ("welcome", "update")]
    assert views and views[-1]["over"]
    state = replay(record, views[0]["at"])
    events: list[Any] = []
    for message in views:
        while len(state.history) < message["at"]:
            events = state.apply(record.actions[len(state.history)])
        assert message["observation"] == state.observation(seat)
        if message["type"] == "update":
            assert message["events"] == [e.view(seat) for e in events]
        # A decision the server takes for a person (an automatic action) is offered to no one.
        asked = state.current_player == seat and state.automatic_action() is None
        assert bool(message["legal"]) == (seat is not None and asked)


@pytest.mark.parametrize("game", games.names())
def test_each_connection_receives_exactly_its_own_view_over_a_whole_game(client, game):
    characters = games.get(game).characters()
    seats = [{"kind": "human", "character": characters[0]},
             {"kind": "bot", "level": "easy", "character": characters[1]}]
    # A whole game, kept quick where the game has a turn limit to set.
    short = {"turn_limit": 40} if "turn_limit" in games.get(game).options_schema() else {}
    record, streams = record_whole_game(client, game, seats, seed=17, **short)
    for seat, stream in streams.items():
        check_stream(record, seat, stream)


def test_no_message_names_a_card_hidden_from_its_seat(client):
    seats = [{"kind": "human", "character": "tahu"}, {"kind": "bot", "level": "medium", "character": "onua"}]
    for seed in (1, 2, 3):
        record, streams = record_whole_game(client, "reconstruct", seats, seed=seed)
        for seat, stream in streams.items():
            for message in stream:
                if "at" not in message:
                    continue
                state = replay(record, message["at"])
                hidden = set().union(*(set(state.hands[h]) - state.known[h] for h in (0, 1) if h != seat))
                # Events are checked only where they name hand cards (draws): earlier events
                # rightly name cards that have since been shuffled back into the pile.
                named = card_ids({k: v for k, v in message.items() if k != "events"})
                named |= card_ids([e for e in message.get("events", []) if e["kind"] == "draw"])
                assert not named & hidden, (seat, message)
                if seat is None:
                    assert message["observation"]["hand"] is None
