"""Arrangements (the piles, hands and places a test or a demo fixes) are checked whole before
anything is set up: whatever is thrown at them, the result is a BadSetup saying what is
allowed, or a game that plays on."""

import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from matanui.engine import BadSetup
from tests.ledger import rule
from tests.masks.helpers import GAME, arranged
from tests.play import random_action

card = st.integers(-2, 102)
anything = st.recursive(
    st.none() | st.booleans() | card | st.floats(allow_nan=True) | st.text(max_size=4),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=2),
    max_leaves=6)


def cards(low: int, high: int, size: int = 4) -> st.SearchStrategy:
    """Lists of cards of about the right kind, so that the deeper checks (duplicates, cards
    not won, too many in hand...) are reached."""
    return st.lists(st.integers(low, high), unique=True, max_size=size)


def per_seat(low: int, high: int, size: int = 4) -> st.SearchStrategy:
    return st.lists(cards(low, high, size), min_size=2, max_size=2)


space = st.sampled_from(["G2", "H9", "E3", "D8", "F4", "A4", "B2", "C3", "A1", "Z9", ""])
# For each key, a value of the right shape (which may still be wrong: cards of another seat,
# cards in two places, a space off the map...).
SHAPED = {
    "first_player": st.sampled_from([0, 1, "rps", 2, -1, 1.0, 0.0, True, None, "1"]),
    "positions": st.lists(space, min_size=2, max_size=2),
    "hands": per_seat(21, 40, 6),
    "action_piles": per_seat(21, 40),
    "action_discards": per_seat(21, 40),
    "mask_piles": per_seat(82, 100),
    "won": per_seat(82, 100, 7),
    "attached": per_seat(82, 100, 2),
    "missions": per_seat(7, 20, 3),
    "challenge_pile": cards(1, 6),
    "challenge_discard": cards(1, 6),
    "mission_pile": cards(7, 20),
    "mission_discard": cards(7, 20),
}
ARRANGEMENT_KEYS = GAME.arrangement_keys
assert set(SHAPED) == set(ARRANGEMENT_KEYS)


def set_up_or_refuse(seed: int, board: str, arrangement: dict) -> None:
    """The arrangement is refused with a BadSetup naming it, or the game plays on."""
    try:
        state = GAME.new_game(seed, ["pohatu", "gali"], {"map": board}, arrangement)
    except BadSetup as refusal:
        assert str(refusal).startswith(("masks has no arrangement", "arrangement "))
        return
    state.audit()
    rng = random.Random(seed)
    for _ in range(40):
        if state.is_over:
            break
        state.apply(random_action(state, rng))
        state.audit()


@rule("MASKS-DEMO-PILES")
@settings(max_examples=300, deadline=None)
@given(data=st.data(), key=st.sampled_from(sorted(ARRANGEMENT_KEYS)), seed=st.integers(0, 2**16))
def test_any_value_of_any_arrangement_key_is_refused_with_bad_setup_or_plays_on(data, key, seed):
    value = data.draw(SHAPED[key] | anything | st.lists(anything, max_size=3), label=key)
    set_up_or_refuse(seed, "a", {key: value})


@rule("MASKS-DEMO-PILES")
@settings(max_examples=300, deadline=None)
@given(arrangement=st.fixed_dictionaries({}, optional=SHAPED), seed=st.integers(0, 2**16),
       board=st.sampled_from(["a", "b", "both"]))
def test_any_arrangement_is_refused_with_bad_setup_or_plays_on(arrangement, seed, board):
    set_up_or_refuse(seed, board, arrangement)


@rule("MASKS-DEMO-PILES")
@pytest.mark.parametrize(("arrangement", "message"), [
    ({"draw_pile": [1]}, "masks has no arrangement 'draw_pile'; its arrangement keys are: first_player: "),
    ({"mask_piles": None}, "arrangement 'mask_piles' is None; allowed: two lists (seat 0, seat 1) of "
                           "Great Mask/Turaga card numbers"),
    ({"challenge_pile": 4}, "arrangement 'challenge_pile' is 4; allowed: a list of Great Mask Challenge "
                            "card numbers (#1 to #6)"),
    ({"hands": [{"cards": [21]}, []]}, "arrangement 'hands' for seat 0 is {'cards': [21]}; allowed: "),
    ({"hands": [[21.0], []]}, "arrangement 'hands' for seat 0 is 21.0; allowed: two lists (seat 0, seat 1) "
                              "of Game Action card numbers (#21 to #40)"),
    ({"attached": [[86], []]}, "arrangement 'attached' has card #86, which seat 0 has not won"),
    ({"won": [[86], []], "mask_piles": [[86], []]}, "'mask_piles' places a card twice: #86 is also in won"),
    ({"missions": [[10], [10]]}, "'missions' places a card twice: #10 is also in missions"),
    ({"missions": [[10], []], "mission_pile": [10]}, "'mission_pile' places a card twice: #10 is also in"),
    ({"challenge_pile": [7]}, "arrangement 'challenge_pile' entry 0 is 7; allowed: a list of Great Mask "
                              "Challenge card numbers (#1 to #6)"),
    ({"mask_piles": [[42], []]}, "arrangement 'mask_piles' has card #42, which does not belong there for "
                                 "seat 0 (allowed: #82 to #90)"),
    ({"first_player": 1.0}, "arrangement 'first_player' is 1.0; allowed: 0 or 1 (or 'rps'"),
    ({"first_player": True}, "arrangement 'first_player' is True; allowed: 0 or 1 (or 'rps'"),
    ({"positions": ["G2", 7]}, "arrangement 'positions' for seat 1 is 7; allowed: two different spaces"),
    ({"positions": ["G2", "Z99"]}, "arrangement 'positions' must name two different spaces of map 'a'"),
])
def test_a_bad_arrangement_names_the_key_and_what_is_allowed(arrangement, message):
    with pytest.raises(BadSetup, match=re.escape(message)):
        arranged(**{"first_player": 0, **arrangement})


def test_a_first_player_option_of_the_wrong_type_is_refused():
    with pytest.raises(BadSetup, match=re.escape("option first_player must be 'rps', 0 or 1, not 1.0")):
        GAME.new_game(1, ["tahu", "gali"], {"first_player": 1.0})
