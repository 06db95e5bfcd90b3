"""Forfeits in every game: `resign:<seat>` and `timeout:<seat>`, outside the legal actions,
accepted from any seat still in play while the game is not over (engine/forfeits.py), and
`abort:<seat>`, which ends any game with no result."""

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from matanui import games
from matanui.engine import ABORT, FORFEIT_KINDS, IllegalAction, forfeit_action, replay
from tests.ledger import rule
from tests.play import new_random_game, random_action, under_way

GAMES = games.names()


def a_game_under_way(name: str, seed: int = 1, steps: int = 10):
    return under_way(new_random_game(name, seed), random.Random(seed), steps)


@rule("RECON-FORFEIT", "MASKS-FORFEIT")
@pytest.mark.parametrize("name", ["reconstruct", "masks"])
@pytest.mark.parametrize("kind", FORFEIT_KINDS)
def test_a_forfeit_in_a_two_player_game_ends_it_and_the_other_seat_wins(name, kind):
    state = a_game_under_way(name)
    waiting = 1 - state.current_player  # the seat not to decide may resign too
    events = state.apply(forfeit_action(kind, waiting))
    assert state.is_over and state.winners == [1 - waiting] and state.out == [waiting]
    assert state.current_player is None and state.legal_actions() == []
    assert state.returns()[waiting] == -1.0
    words = "resigns" if kind == "resign" else "time ran out"
    assert words in events[0].text and state.names[1 - waiting] in events[0].text
    assert events[0].kind == kind and events[0].fields == {"seat": waiting, "winners": [1 - waiting]}
    assert state.history[-1] == f"{kind}:{waiting}"


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("seats", [2, 3])
def test_an_abort_ends_any_game_at_once_with_no_winner_and_nobody_out(name, seats):
    if seats == 3 and name != "makuta":
        pytest.skip("two-player game")
    state = new_random_game(name, 1, seats) if seats == 3 else a_game_under_way(name)
    events = state.apply(forfeit_action(ABORT, 0))
    assert state.is_over and state.winners == [] and state.out == [] and state.legal_actions() == []
    assert events[0].kind == ABORT and "aborts the game: it ends without a result" in events[0].text
    assert replay(state.record()).winners == [] and replay(state.record()).is_over


@pytest.mark.parametrize("name", GAMES)
def test_forfeits_are_never_among_the_legal_actions(name):
    state = a_game_under_way(name)
    assert not [a for a in state.legal_actions() if a.split(":")[0] in (*FORFEIT_KINDS, ABORT)]
    assert not state.is_legal("resign:0")


@pytest.mark.parametrize("name", GAMES)
def test_the_observation_says_who_is_out(name):
    state = a_game_under_way(name)
    assert state.observation(None)["out"] == []
    state.apply("resign:0")
    assert all(state.observation(seat)["out"] == [0] for seat in (None, 0, 1))


@pytest.mark.parametrize("action, words", [
    ("resign:7", "names no seat of this game"),
    ("resign:01", "names no seat of this game"),
    ("timeout:-1", "names no seat of this game"),
    ("resign:", "names no seat of this game"),
    ("concede:0", "not legal"),
])
def test_a_forfeit_of_no_seat_is_refused_and_changes_nothing(action, words):
    state = a_game_under_way("masks")
    before = state.record()
    with pytest.raises(IllegalAction, match=words):
        state.apply(action)
    assert state.record() == before and state.out == []


def test_a_forfeit_after_the_end_or_by_a_seat_out_already_is_refused():
    state = a_game_under_way("masks")
    state.apply("resign:0")
    with pytest.raises(IllegalAction, match="the game is over"):
        state.apply("timeout:1")
    three = games.get("makuta").new_game(1, ["tahu", "lewa", "gali"])
    three.apply("resign:1")
    with pytest.raises(IllegalAction, match="out of this game already"):
        three.apply("resign:1")
    assert not three.may_forfeit(1) and three.may_forfeit(0)


def test_forfeit_action_writes_the_id_and_refuses_an_unknown_kind():
    assert forfeit_action("resign", 2) == "resign:2"
    assert forfeit_action("timeout", 0) == "timeout:0"
    with pytest.raises(IllegalAction, match="resign, timeout, abort"):
        forfeit_action("concede", 0)


@pytest.mark.parametrize("name", GAMES)
def test_clones_and_determinizations_keep_who_is_out(name):
    state = a_game_under_way(name)
    state.apply("resign:1")
    assert state.clone().out == [1]
    assert state.determinize(0, random.Random(0)).out == [1]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(GAMES), seed=st.integers(0, 10_000), data=st.data())
def test_random_games_with_random_forfeits_keep_every_promise(name, seed, data):
    state = new_random_game(name, seed)
    rng = random.Random(seed)
    for _ in range(300):
        if state.is_over:
            break
        if data.draw(st.integers(0, 40)) == 0:
            seat = data.draw(st.sampled_from(state.in_play()))
            state.apply(forfeit_action(data.draw(st.sampled_from(FORFEIT_KINDS)), seat))
        else:
            state.apply(random_action(state, rng))
        state.audit()
        assert state.current_player is None or state.current_player not in state.out
    assert not set(state.winners) & set(state.out)
    again = replay(state.record())
    assert again.observation(None) == state.observation(None)
    assert again.out == state.out and again.winners == state.winners
