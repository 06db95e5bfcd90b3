"""The kernel knows no game: a toy game built on it (Race to ten, tests/example_game, the
example of docs/architecture.md) gets legality checks, events, clones, records and replay
for free."""

import random

import pytest

from matanui import games
from matanui.engine import IllegalAction, replay
from tests.example_game import RUNNERS


def test_a_toy_game_gets_the_whole_contract(race):
    state = race.new_game(1, RUNNERS)
    assert state.legal_actions() == ["add:1", "add:2"]
    assert [e.text for e in state.apply("add:2")] == ["Hare adds 2."]
    with pytest.raises(IllegalAction) as error:
        state.apply("add:3")
    assert str(error.value) == "'add:3' is not legal for Tortoise now. Legal actions: add:1, add:2."
    copy = state.clone()
    copy.apply("add:1")
    assert state.observation(None)["total"] == 2
    while not state.is_over:
        state.apply("add:2")
    assert state.winners == [0] and state.returns() == [1.0, -1.0]
    assert replay(state.record()).observation(None) == state.observation(None)


def test_registry_lists_games_and_refuses_unknown_ones():
    assert {"reconstruct"} <= set(games.names())
    with pytest.raises(games.UnknownGame, match="no game named 'chess'; the games are: reconstruct"):
        games.get("chess")


def test_seeded_generator_is_part_of_the_state(race):
    state = race.new_game(42, RUNNERS)
    copy = state.clone()
    assert state.rng.random() == copy.rng.random()
    assert random.Random(42).random() == race.new_game(42, RUNNERS).rng.random()
