"""The contract under bad input, for every game: whatever a caller passes, the only errors
are the library's own (each saying what was wrong and what is allowed), and nothing changes.

Values come from outside (a network message, a saved file, a researcher's script), so these
tests throw arbitrary Python values and strings at `apply`, `observation`, `determinize`,
`new_game`'s players and options, and arrangements.
"""

import json
import random

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from matanui import games
from matanui.engine import BadSeat, BadSetup, Event, IllegalAction, MatanuiError, Record, replay
from matanui.engine.untrusted import SHORT
from tests.play import advance, new_random_game, observations, under_way

GAMES = games.names()
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=10), inner, max_size=5),
    max_leaves=20,
)
PYTHON_VALUES = JSON_VALUES | st.binary(max_size=10) | st.tuples(JSON_VALUES, JSON_VALUES) \
    | st.sets(st.integers(), max_size=3) | st.just(object()) | st.just(float("nan")) | st.just(...)


def state_after(name: str, seed: int, steps: int):
    """A game `steps` random actions in (fewer if it ends), so bad input meets every phase."""
    return advance(new_random_game(name, seed), random.Random(seed), steps)


def fingerprint(state) -> tuple:
    """All a caller could see change: every seat's view, the history, the generator and the
    legal actions."""
    return (json.dumps(observations(state), sort_keys=True), list(state.history),
            state.rng.getstate(), state.legal_actions())


@pytest.mark.parametrize("name", GAMES)
@SETTINGS
@given(seed=st.integers(0, 10**6), steps=st.integers(0, 60), action=PYTHON_VALUES)
def test_apply_refuses_anything_that_is_not_an_action_string_and_changes_nothing(name, seed, steps, action):
    state = state_after(name, seed, steps)
    before = fingerprint(state)
    with pytest.raises(IllegalAction, match="legal"):
        state.apply(action)
    assert fingerprint(state) == before


@pytest.mark.parametrize("name", GAMES)
@SETTINGS
@given(seed=st.integers(0, 10**6), steps=st.integers(0, 60),
       action=st.text(max_size=40) | st.sampled_from(["", " ", "\n", "pass ", " pass", "move:", "play:1:",
                                                        "move:-1", "move:99999999999999999999", ":::"]))
def test_apply_refuses_any_string_that_is_not_legal_now_and_changes_nothing(name, seed, steps, action):
    state = state_after(name, seed, steps)
    assume(not state.is_legal(action))
    before = fingerprint(state)
    with pytest.raises(IllegalAction) as error:
        state.apply(action)
    assert str(error.value)
    assert fingerprint(state) == before


@pytest.mark.parametrize("name", GAMES)
@SETTINGS
@given(seed=st.integers(0, 10**6), seat=PYTHON_VALUES | st.integers(-10, 10))
def test_observation_and_determinize_take_only_a_real_seat(name, seed, seat):
    state = state_after(name, seed, 5)
    real = type(seat) is int and 0 <= seat < state.num_players
    before = fingerprint(state)
    if real or seat is None:
        assert state.observation(seat)["seat"] == seat
        return
    with pytest.raises(BadSeat, match=f"from 0 to {state.num_players - 1}"):
        state.observation(seat)
    with pytest.raises(BadSeat):
        state.determinize(seat, random.Random(0))
    assert fingerprint(state) == before


@pytest.mark.parametrize("name", GAMES)
def test_a_negative_seat_never_reaches_the_last_seats_hand(name):
    state = state_after(name, 1, 3)
    with pytest.raises(BadSeat, match="not -1"):
        state.observation(-1)
    with pytest.raises(BadSeat, match="not True"):
        state.observation(True)


@pytest.mark.parametrize("name", GAMES)
@SETTINGS
@given(players=PYTHON_VALUES)
def test_new_game_refuses_players_that_are_not_a_list_of_names(name, players):
    game = games.get(name)
    try:
        state = game.new_game(1, players)
    except BadSetup as error:
        assert str(error)
        return
    assert list(state.players) == list(players)


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("players", [None, 3, [["tahu"], ["kopaka"]], "tahukopaka", b"ab", [None, None]])
def test_players_of_the_wrong_type_name_the_field(name, players):
    with pytest.raises(BadSetup, match="players must"):
        games.get(name).new_game(1, players)


@pytest.mark.parametrize("name", GAMES)
@SETTINGS
@given(options=st.dictionaries(
    st.text(max_size=12) | st.sampled_from(["first_player", "turn_limit", "advanced", "short", "side"]),
    JSON_VALUES, max_size=3))
def test_new_game_refuses_bad_options_with_bad_setup(name, options):
    game = games.get(name)
    players = game.characters()[: game.min_players]
    try:
        game.new_game(1, players, options)
    except BadSetup as error:
        assert str(error)


@pytest.mark.parametrize("name", GAMES)
@SETTINGS
@given(data=st.data())
def test_arrangements_are_checked_whole_before_anything_is_set_up(name, data):
    """Any arrangement either sets up a game that then plays on, or is refused with BadSetup
    naming what is wrong; never a crash, now or a few moves later."""
    game = games.get(name)
    keys = list(game.arrangement_keys)
    assert keys, f"{name} says which arrangement keys it takes"
    arrangement = data.draw(st.dictionaries(st.sampled_from(keys), JSON_VALUES, max_size=3))
    players = game.characters()[: game.min_players]
    try:
        state = game.new_game(1, players, None, arrangement)
    except BadSetup as error:
        assert str(error)
        return
    advance(state, random.Random(1), 30).audit()


@pytest.mark.parametrize("name", GAMES)
def test_unknown_arrangement_keys_are_named_with_those_allowed(name):
    game = games.get(name)
    with pytest.raises(BadSetup, match="arrangement 'bogus'") as error:
        game.arrange(game.characters()[: game.min_players], bogus=1)
    for key in game.arrangement_keys:
        assert key in str(error.value)


@pytest.mark.parametrize("name", GAMES)
def test_an_action_that_fails_part_way_leaves_state_history_and_record_unchanged(name, monkeypatch):
    state = under_way(new_random_game(name, 3), random.Random(3), 10)
    before, record = fingerprint(state), state.record().to_dict()
    action = state.legal_actions()[0]
    real_perform = type(state)._perform
    crashed = []

    def perform_then_crash(self, move):
        real_perform(self, move)  # the whole action happens, then something breaks
        if self is state and not crashed:
            crashed.append(move)
            raise RuntimeError("a bug after the state changed")

    monkeypatch.setattr(type(state), "_perform", perform_then_crash)
    with pytest.raises(RuntimeError):
        state.apply(action)
    monkeypatch.undo()
    assert fingerprint(state) == before
    assert state.record().to_dict() == record
    state.apply(action)  # and the game goes on as if nothing had happened
    assert replay(Record.from_dict(state.record().to_dict())).observation(None) == state.observation(None)


def test_an_events_own_kind_is_never_hidden_by_a_field_of_that_name():
    event = Event("collect", "Player 1 collects a key.", {"kind": "key", "seat": 0},
                  seat=0, secret={"kind": "secret"}, secret_text="Player 1 collects the red key.")
    assert event.view(None) == {"kind": "collect", "text": "Player 1 collects a key.", "seat": 0}
    assert event.view(0)["kind"] == "collect"
    assert event.view(0)["text"] == "Player 1 collects the red key."


def test_errors_are_the_librarys_own():
    for error in (BadSeat, BadSetup, IllegalAction):
        assert issubclass(error, MatanuiError)


@pytest.mark.parametrize("name", GAMES)
def test_a_megabyte_action_id_is_refused_with_a_short_quote_and_changes_nothing(name):
    state = state_after(name, 3, 5)
    before = fingerprint(state)
    with pytest.raises(IllegalAction) as refused:
        state.apply("\x1b[2J" + "x" * 1_000_000)
    message = str(refused.value)
    assert len(message) < 2_000 and "1,000,004 characters" in message and "\x1b" not in message
    assert "Legal actions:" in message
    assert fingerprint(state) == before


@pytest.mark.parametrize("name", GAMES)
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 80))
@SETTINGS
def test_every_legal_action_id_is_short_enough_to_be_quoted_whole(name, seed, steps):
    assert all(len(action) <= SHORT for action in state_after(name, seed, steps).legal_actions())
