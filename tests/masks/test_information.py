"""What each seat may see of a Quest for the Masks game, and what it may not."""

import json
import random

from tests.ledger import rule
from tests.masks.helpers import GAME, arranged, far_apart, said


@rule("MASKS-GA-HIDDEN", "MASKS-ATTACH-PLACEMENT")
def test_an_observation_shows_own_hand_and_public_cards_but_no_hidden_card():
    state = arranged(positions=["E3", "I10"], hands=[[21, 33], [27, 37, 39]], won=[[86, 88], []],
                     attached=[[86], []], action_discards=[[40], [22]], missions=[[], [16]])
    mine = state.observation(0)
    json.dumps(mine)
    assert mine["hand"] == [21, 33]
    toa = mine["toa"]
    assert [t["hand_size"] for t in toa] == [2, 3]
    assert toa[0]["won"] == [86, 88] and toa[0]["mask"] == 86 and toa[0]["turaga"] is None
    assert toa[0]["action_discard"] == [40] and toa[1]["action_discard"] == [22]
    assert toa[1]["missions"] == [[16, 1]]
    assert "hand" not in toa[1] and toa[1]["known_in_hand"] == []  # Gali's cards: only their number
    assert state.observation(None)["hand"] is None
    assert state.observation(1)["hand"] == [27, 37, 39]
    for key in ("challenge_pile", "mission_pile"):
        assert isinstance(mine[key], int)  # sizes only: the order of a face-down pile is hidden
    assert isinstance(toa[0]["mask_pile"], int) and isinstance(toa[0]["action_pile"], int)


def test_states_that_differ_only_in_hidden_cards_look_the_same_to_the_seat():
    state = GAME.new_game(5, ["tahu", "kopaka"], {"first_player": 0})
    rng = random.Random(5)
    for _ in range(60):
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])
    for seat in (0, 1):
        for i in range(10):
            sampled = state.determinize(seat, random.Random(i))
            sampled.audit()
            assert sampled.observation(seat) == state.observation(seat)
            assert sampled.hands[seat] == state.hands[seat]


@rule("MASKS-GA-HIDDEN")
def test_determinize_resamples_the_opponents_hand_and_every_pile_order():
    state = arranged(positions=["E3", "I10"], hands=[[], [21, 27, 33, 37]])
    hands = {tuple(state.determinize(0, random.Random(i)).hands[1]) for i in range(30)}
    piles = {tuple(state.determinize(0, random.Random(i)).mask_pile[0][-3:]) for i in range(30)}
    challenges = {tuple(state.determinize(0, random.Random(i)).challenge_pile) for i in range(30)}
    assert len(hands) > 20 and len(piles) > 20 and len(challenges) > 20
    a = state.determinize(0, random.Random(1))
    assert a.rng.getstate() != state.rng.getstate() and a.history == [] and a.seed == -1


@rule("MASKS-GA-KNOWN")
def test_determinize_keeps_the_cards_known_to_be_in_a_hand():
    state = arranged(positions=["I10", "E2"], first_player=1, hands=[[], [21, 22]],
                     action_discards=[[], list(range(23, 41))])
    state.apply("move:W")  # Gali draws on E1 after his pile is shuffled back
    assert state.observation(0)["toa"][1]["known_in_hand"] == [21, 22]
    for i in range(20):
        sampled = state.determinize(0, random.Random(i))
        assert {21, 22} <= set(sampled.hands[1]) and len(sampled.hands[1]) == 3


def test_determinize_depends_only_on_what_the_seat_sees():
    state = GAME.new_game(9, ["onua", "lewa"], {"first_player": 1})
    rng = random.Random(9)
    for _ in range(40):
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])
    other = state.determinize(0, random.Random(3))  # the same view, another hidden truth
    a, b = state.determinize(0, random.Random(7)), other.determinize(0, random.Random(7))
    assert a.hands == b.hands and a.action_pile == b.action_pile and a.mask_pile == b.mask_pile
    assert a.challenge_pile == b.challenge_pile and a.mission_pile == b.mission_pile


@rule("MASKS-GA-WINDOW-INFO")
def test_whether_a_window_opens_does_not_depend_on_what_a_hidden_hand_holds():
    # The same public position; Player 2 holds a Bonus in one game and an Infected Mask in the other.
    views = []
    for hand in ([33], [21]):
        state = arranged(positions=["D2", "I10"], hands=[[], hand], challenge_pile=[4])
        state.apply("move:E")
        views.append(state.observation(0))
    assert views[0] == views[1]
    assert views[0]["current_player"] == 1 and views[0]["phase"] == "window"
    # Boxed in: a hand of cards that cannot be played still opens the window (to wait).
    views = []
    for hand in ([33], [37]):
        state = arranged(positions=["B2", "B3"], missions=[[16], []], hands=[hand, []])
        views.append((state.observation(1), state.legal_actions()))
    assert views[0][0] == views[1][0]
    assert views[0][1] == ["wait"] and views[1][1] == ["play:37", "wait"]


@rule("MASKS-GA-WINDOW-INFO", "MASKS-GA-ANY-TIME")
def test_the_window_after_a_draw_opens_and_closes_alike_whatever_card_was_drawn():
    # Pohatu draws a Bonus in one game (nothing to play now) and a Penalty in the other.
    views = []
    for card in (33, 37):
        state = far_apart(at="E2", action_piles=[[card], []])
        state.apply("move:W")
        assert state.response_window() == "pass"  # an interface closes it the same way in both
        views.append((state.observation(1), state.legal_actions()))
    assert views[0][0] == views[1][0] and views[0][0]["phase"] == "anytime"
    assert views[0][1] == ["pass"] and views[1][1] == ["pass", "play:37"]
    state = far_apart(at="E3", hands=[[37], []])
    assert state.response_window() is None  # the turn window is no response window


def test_secret_parts_of_events_reach_their_owner_only():
    state = arranged(positions=["E3", "I10"], hands=[[27], []], action_piles=[[33, 34], []])
    events = state.apply("play:27")
    assert said(events, "They draw Card #33 (Bonus), Card #34 (Bonus).", seat=0)
    assert not said(events, "#33", seat=1) and not said(events, "#33", seat=None)
    draw = events[-1]
    assert draw.view(0)["cards"] == [33, 34] and draw.view(1)["drawn"] == 2 and "cards" not in draw.view(1)
