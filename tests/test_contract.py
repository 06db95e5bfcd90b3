"""The contract (docs/architecture.md, "The contract"), checked over random games of every
registered game.

These properties hold for any game: nothing lost or duplicated, legal actions never empty
before the end, every game ends, replay rebuilds the same game, clones are independent,
observations are JSON-safe and `determinize` agrees with the seat's observation (so an
observation cannot depend on anything that seat may not see).
"""

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from matanui import games
from matanui.engine import IllegalAction, Record, replay
from tests.play import STEP_CAP, advance, new_random_game, observations, random_action

GAMES = games.names()
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize("name", GAMES)
@SETTINGS
@given(seed=SEEDS)
def test_every_step_keeps_every_card_and_token_in_one_place_and_the_game_ends(name, seed):
    state = new_random_game(name, seed)
    rng = random.Random(seed)
    state.audit()
    for _ in range(STEP_CAP):
        if state.is_over:
            break
        assert state.current_player in range(state.num_players)
        state.apply(random_action(state, rng))
        state.audit()
    assert state.is_over, "the game did not end"
    assert state.current_player is None and state.legal_actions() == []
    assert len(state.returns()) == state.num_players


@pytest.mark.parametrize("name", GAMES)
@SETTINGS
@given(seed=SEEDS)
def test_replay_of_the_record_rebuilds_the_same_game(name, seed):
    state = new_random_game(name, seed)
    rng = random.Random(seed)
    while not state.is_over:
        state.apply(random_action(state, rng))
    record = Record.from_json(state.record().to_json())
    again = replay(record)
    assert again.history == state.history
    assert observations(again) == observations(state)
    assert again.returns() == state.returns()


@pytest.mark.parametrize("name", GAMES)
@SETTINGS
@given(seed=SEEDS, split=st.integers(min_value=0, max_value=400))
def test_clones_are_independent(name, seed, split):
    rng = random.Random(seed)
    state = advance(new_random_game(name, seed), rng, split)
    copy = state.clone()
    before = observations(state)
    for _ in range(50):
        if copy.is_over:
            break
        copy.apply(random_action(copy, rng))
    assert observations(state) == before
    frozen = observations(copy)
    for _ in range(50):
        if state.is_over:
            break
        state.apply(random_action(state, rng))
    assert observations(copy) == frozen


@pytest.mark.parametrize("name", GAMES)
@SETTINGS
@given(seed=SEEDS)
def test_observations_are_json_and_determinize_agrees_with_them(name, seed):
    state = new_random_game(name, seed)
    rng = random.Random(seed)
    step = 0
    while not state.is_over:
        if step % 7 == 0:
            for seat in range(state.num_players):
                obs = state.observation(seat)
                json.dumps(obs)
                sampled = state.determinize(seat, random.Random(step))
                sampled.audit()
                assert sampled.observation(seat) == obs
                if seat == state.current_player:
                    assert sampled.legal_actions() == state.legal_actions()
            json.dumps(state.observation(None))
        state.apply(random_action(state, rng))
        step += 1


@pytest.mark.parametrize("name", GAMES)
@SETTINGS
@given(seed=SEEDS, junk=st.sampled_from(["", "pass:1", "move", "add:999:head", "x" * 300, "stop:-1"]))
def test_an_illegal_action_raises_and_changes_nothing(name, seed, junk):
    state = new_random_game(name, seed)
    if junk in state.legal_actions():
        return
    before = observations(state)
    with pytest.raises(IllegalAction) as error:
        state.apply(junk)
    assert "Legal actions" in str(error.value) or "not legal" in str(error.value)
    assert observations(state) == before and state.history == []


@pytest.mark.parametrize("name", GAMES)
def test_the_same_seed_and_actions_give_the_same_game(name):
    first, second = new_random_game(name, 11), new_random_game(name, 11)
    rng1, rng2 = random.Random(5), random.Random(5)
    while not first.is_over:
        first.apply(random_action(first, rng1))
        second.apply(random_action(second, rng2))
    assert observations(first) == observations(second)


@pytest.mark.parametrize("name", GAMES)
@SETTINGS
@given(seed=SEEDS, split=st.integers(min_value=0, max_value=300))
def test_determinize_depends_only_on_what_the_seat_sees(name, seed, split):
    """Two states that differ only in what a seat cannot see determinize alike for that seat
    (same rng): so nothing an agent computes from samples can reveal the truth."""
    state = new_random_game(name, seed)
    rng = random.Random(seed)
    for _ in range(split):
        if state.is_over:
            return
        state.apply(random_action(state, rng))
    seat = state.current_player
    if seat is None:
        return
    other = state.determinize(seat, random.Random(seed + 1))  # same view, other hidden truth
    a = state.determinize(seat, random.Random(99))
    b = other.determinize(seat, random.Random(99))
    moves = random.Random(seed)
    for _ in range(60):
        assert observations(a) == observations(b)
        if a.is_over:
            break
        action = random_action(a, moves)
        a.apply(action)
        b.apply(action)


@pytest.mark.parametrize("name", GAMES)
@SETTINGS
@given(seed=SEEDS)
def test_every_legal_action_says_what_it_acts_on_as_json(name, seed):
    """docs/architecture.md, "The contract": every legal action can say what it acts on beside
    its words (`targets`), so that no interface parses an action id. Targets are JSON objects
    and the same when asked twice."""
    state = new_random_game(name, seed)
    rng = random.Random(seed)
    for _ in range(60):
        if state.is_over:
            break
        legal = state.legal_actions()
        for action in legal:
            targets = state.targets(action)
            assert isinstance(targets, dict)
            assert json.loads(json.dumps(targets)) == targets == state.targets(action)
        # What an interface may take for a person is one of the legal actions, and only ever
        # the only one; a response window's pass is legal; gestures are JSON.
        automatic = state.automatic_action()
        assert automatic is None or legal == [automatic]
        assert state.response_window() in (None, *legal)
        gestures = state.gestures(state.current_player)
        assert json.loads(json.dumps(gestures)) == gestures
        state.apply(random_action(state, rng))
