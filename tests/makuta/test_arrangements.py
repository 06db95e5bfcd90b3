"""Quest for Makuta arrangements: anything thrown at any key is either refused with BadSetup
before a game exists, or sets up a game that plays on without an error."""

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from matanui.engine import BadSetup
from matanui.games.makuta.components import KIND_IDS
from tests.makuta.scenario import GAME, arranged, play

MAKUTA_NORTH = ["makuta", 2, -4, -10]
SPACES = [*sorted(set(arranged(boards=[MAKUTA_NORTH]).island.names)), "9,9", "", "start "]
VIEWS = [*sorted(set(GAME.views)), "kanohi:vahi", "rahi", ""]
BOARDS = [*GAME.parts.boards, "nowhere"]

JUNK = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 30) | st.floats(allow_nan=False) | st.text(max_size=4),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=2),
    max_leaves=6,
)
SPACE = st.sampled_from(SPACES)
TOKEN = st.sampled_from(VIEWS)
TOKENS = st.lists(TOKEN, max_size=4)
BY_SPACE = st.dictionaries(SPACE, TOKEN | TOKENS, max_size=4)
BOARD = st.lists(st.sampled_from(BOARDS) | st.integers(-12, 12), min_size=4, max_size=4) | \
    st.sampled_from([MAKUTA_NORTH, ["ta-lava-fields", 0, 10, 10], ["ta-lava-fields", 1, 3, -2]])

KEYS = {
    "first_player": st.integers(-1, 3),
    "dice": st.lists(st.integers(0, 14), max_size=8),
    "pile": st.lists(st.sampled_from(BOARDS), max_size=3),
    "boards": st.just([MAKUTA_NORTH]) | st.lists(BOARD, max_size=2),
    "tokens": BY_SPACE,
    "under": BY_SPACE,
    "start_pile": TOKENS,
    "cards": st.lists(TOKENS, min_size=2, max_size=2) | st.lists(TOKENS, max_size=3),
    "bags": st.dictionaries(st.sampled_from([*KIND_IDS, "mask"]), TOKENS, max_size=2),
    "pawns": st.lists(SPACE, min_size=2, max_size=2) | st.lists(SPACE, max_size=3),
    "revealed": st.lists(SPACE, max_size=2),
    "temple": st.integers(-8, 8),
}
ARRANGEMENTS = st.fixed_dictionaries({}, optional={
    **{key: plausible | JUNK for key, plausible in KEYS.items()}, "hands": JUNK})


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(arrangement=ARRANGEMENTS, seed=st.integers(0, 2**16))
def test_any_arrangement_is_refused_with_bad_setup_or_plays_on(arrangement, seed):
    try:
        state = GAME.new_game(seed, ["tahu", "lewa"], None, arrangement)
    except BadSetup:
        return
    state.audit()
    rng = random.Random(seed)
    for _ in range(80):
        if state.is_over:
            break
        before = state.observation(None), list(state.history)
        try:
            state.apply(rng.choice(state.legal_actions()))
        except BadSetup as error:  # an arranged roll larger than the die it met
            assert "more than" in str(error)
            assert (state.observation(None), state.history) == before
            return
        state.audit()


@pytest.mark.parametrize(("arrangement", "message"), [
    ({"tokens": None}, r"arrangement 'tokens' is None; allowed: a mapping \{space: token or \[tokens\]\} "
                       r"\(tokens look like kanohi:pakari"),
    ({"tokens": ["kanohi:hau"]}, r"arrangement 'tokens' is \['kanohi:hau'\]; allowed: a mapping"),
    ({"tokens": {"2,0": "kanohi:vahi"}}, r"arrangement 'tokens' at '2,0' is 'kanohi:vahi'; allowed: "),
    ({"dice": 3}, r"arrangement 'dice' is 3; allowed: a list of whole numbers from 1 to 12"),
    ({"dice": [13]}, r"'dice' entry 0 is 13; allowed: a list of whole numbers from 1 to 12 \(the faces "
                     r"of the largest die\)"),
    ({"dice": [2.0]}, r"arrangement 'dice' entry 0 is 2.0; allowed: a list of whole numbers"),
    ({"first_player": 1.0}, r"'first_player' is 1.0; allowed: a seat number from 0 to 1"),
    ({"pawns": ["start"]}, r"'pawns' \(one per seat, 2 seats\) is \['start'\]; allowed: a list of 2 "
                           r"spaces, one per seat"),
    ({"boards": [["nowhere", 0, 1, 1]]}, r"'boards' entry 0 is \['nowhere', 0, 1, 1\]; allowed: a list "
                                        r"of \[board id, rot 0-3, x, y\] with board ids start, makuta, "),
    ({"boards": [["makuta", 4, 1, 1]]}, r"'boards' entry 0 is \['makuta', 4, 1, 1\]"),
    ({"bags": {"mask": []}}, r"arrangement 'bags' has key 'mask'; allowed: a mapping \{kind: \[tokens\]\} "
                             r"with kinds "),
    ({"hands": []}, r"makuta has no arrangement 'hands'; its arrangement keys are: first_player: .*; dice: "),
    ({"start_pile": ["lock:fire-water-air"]}, r"lock:fire-water-air is arranged on the start "
                                              r"space, where only Kanohi, Turaga and keys"),
    ({"start_pile": ["rahi:muaka:18"]}, r"rahi:muaka:18 is arranged on the start space"),
    ({"tokens": {"2,0": "rahi:muaka:18"}, "under": {"2,0": ["rahi:nui-rama:1"]}},
     r"rahi:nui-rama:1 is arranged under the Rahi on 2,0"),
    ({"tokens": {"start": "kanohi:hau"}}, r"Toa Landing, which holds only returned tokens"),
    ({"tokens": {"5,5": "kanohi:hau"}}, r"arranged space '5,5' is not a space of the boards laid"),
    ({"boards": [MAKUTA_NORTH], "tokens": {"0,-5": ["lock:fire-water-air", "lock:fire-ice-earth"]}},
     r"two locks arranged on the gate 0,-5"),
    ({"boards": [MAKUTA_NORTH], "tokens": {"0,-5": "rahi:muaka:18"}},
     r"rahi:muaka:18 is arranged on the gate 0,-5, which holds only its lock"),
])
def test_a_bad_arrangement_is_refused_naming_the_key_and_what_is_allowed(arrangement, message):
    with pytest.raises(BadSetup, match=message):
        arranged(**arrangement)


def test_an_arranged_roll_larger_than_the_die_it_meets_undoes_the_action():
    # 8 fits the red die but not the white one Tahu rolls.
    state = arranged(dice=[8])
    before = state.observation(None), list(state.history)
    with pytest.raises(BadSetup, match="the arranged die roll 8 is more than the 6 faces of the "
                                       "die being rolled; the action is undone"):
        state.apply("roll")
    assert (state.observation(None), state.history) == before
    state = arranged(dice=[8], cards=[["kanohi:kakama"], []])
    play(state, "roll")
    assert state.observation(None)["roll"] == 8
