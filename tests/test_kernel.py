"""The kernel knows no game: a toy game built on it gets legality checks, events, clones,
records and replay for free. This is also the example of docs/architecture.md."""

import random

import pytest

from matanui import games
from matanui.engine import Event, Game, IllegalAction, State, replay


class RaceGame(Game):
    """A race to ten by adding 1 or 2."""

    name, title = "race", "Race to ten"

    def characters(self):
        return ["a", "b"]

    def options_schema(self):
        return {}


class RaceState(State):
    def _set_up(self, arrangement):
        self.total, self.turn_seat, self.setup_events = 0, 0, []

    current_player = property(lambda s: None if s.is_over else s.turn_seat)
    is_over = property(lambda s: s.total >= 10)
    winners = property(lambda s: [1 - s.turn_seat] if s.is_over else [])

    def _generate_moves(self):
        return {"add:1": 1, "add:2": 2}

    def _perform(self, n):
        self.total += n
        self.turn_seat = 1 - self.turn_seat
        return [Event("add", f"Player {2 - self.turn_seat} adds {n}.", {"n": n})]

    def describe(self, action):
        return f"Add {action[4:]}"

    def _observe(self, seat):
        return {"total": self.total, "seat": seat}

    def _determinize(self, seat, rng):
        return self.clone()

    def audit(self):
        assert 0 <= self.total <= 11

    def _copy_into(self, other):
        other.total, other.turn_seat, other.setup_events = self.total, self.turn_seat, []


RaceGame.state_class = RaceState


@pytest.fixture
def race(monkeypatch):
    game = RaceGame()
    monkeypatch.setitem(games._MODULES, "race", "tests.test_kernel")
    monkeypatch.setitem(games._loaded, "race", game)
    return game


def test_a_toy_game_gets_the_whole_contract(race):
    state = race.new_game(1, ["a", "b"])
    assert state.legal_actions() == ["add:1", "add:2"]
    assert [e.text for e in state.apply("add:2")] == ["Player 1 adds 2."]
    with pytest.raises(IllegalAction) as error:
        state.apply("add:3")
    assert str(error.value) == "'add:3' is not legal for b now. Legal actions: add:1, add:2."
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
    state = race.new_game(42, ["a", "b"])
    copy = state.clone()
    assert state.rng.random() == copy.rng.random()
    assert random.Random(42).random() == race.new_game(42, ["a", "b"]).rng.random()
