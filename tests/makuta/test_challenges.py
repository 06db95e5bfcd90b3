"""Quest for Makuta, challenging Rahi and Makuta, as the rulebook states it."""

import pytest

from matanui.engine import IllegalAction
from tests.ledger import rule
from tests.makuta.scenario import arranged, faces, play, texts

MAKUTA_NORTH = ["makuta", 2, -4, -10]


def challenge(cards=(), rahi="rahi:muaka:18", dice=(2,), **arrangement):
    """Tahu walks from 0,-2 towards Toa Landing; a Rahi waits on 2,0, reached in two
    steps (south onto Toa Landing counts one, then east)."""
    arrangement.setdefault("pawns", ["0,-2", "start"])
    tokens = {"2,0": rahi, **arrangement.pop("tokens", {})}
    state = arranged(cards=[list(cards), arrangement.pop("lewa", [])], dice=list(dice),
                     tokens=tokens, **arrangement)
    events = play(state, "roll", "move:S", "move:E")
    return state, events


@rule("MAKUTA-WORKED-EXAMPLE", "MAKUTA-CHALLENGE-DIE", "MAKUTA-CHALLENGE-BONUS")
def test_the_rulebooks_example_tahu_with_pakari_vakama_and_whenua_rolls_4_for_29():
    state, events = challenge(["kanohi:pakari", "turaga:vakama", "turaga:whenua"],
                              dice=[2, 4])
    assert texts(events)[-1] == "Tahu must challenge! The Rahi token is turned over: Rahi " \
                                "Muaka (18)."
    assert state.legal_actions() == ["roll"]
    assert state.describe("roll") == "Roll the white die against 18"
    assert texts(play(state, "roll")) == ["Tahu rolls the white die: 4 against the Rahi's 18."]
    assert state.legal_actions() == ["use:pakari", "use:vakama", "use:whenua", "settle"]
    events = play(state, "use:pakari", "use:vakama", "use:whenua")
    assert texts(events) == ["Tahu shows Kanohi Pakari: +10 (bonus 10).",
                             "Tahu shows Turaga Vakama: +10 (bonus 20).",
                             "Tahu shows Turaga Whenua: +5 (bonus 25)."]
    assert state.describe("settle") == "Add up: 4 + 25 = 29 against 18"
    events = play(state, "settle")
    assert texts(events)[0] == "Tahu's total: 4 + 25 = 29 against the Rahi's 18."
    assert events[0].fields["total"] == 29
    assert "Tahu beats the Rahi!" in texts(events)[1]


@rule("MAKUTA-CHALLENGE-BONUS")
def test_only_what_is_shown_counts_and_becomes_known_to_all():
    state, _ = challenge(["kanohi:pakari", "kanohi:hau"], rahi="rahi:nui-jaga:9", dice=[2, 6])
    play(state, "roll", "use:hau")
    assert faces(state, 0, viewer=1)["kanohi"] == ["kanohi", "kanohi:hau"]
    events = play(state, "settle")
    assert events[0].fields["total"] == 11


@rule("MAKUTA-RAHI-NO-PASS", "MAKUTA-RAHI-MUST-CHALLENGE")
def test_a_rahi_cannot_be_passed_and_must_be_challenged():
    state = arranged(dice=[6], tokens={"0,-2": "rahi:nui-rama:1"})
    play(state, "roll", "move:N")
    assert state.phase == "challenge" and state.observation(None)["steps_left"] == 0
    assert state.legal_actions() == ["roll"]


@rule("MAKUTA-CHALLENGE-REVEAL")
def test_the_rahi_is_turned_over_for_everyone_and_stays_known():
    state, _ = challenge(rahi="rahi:nui-jaga:9", dice=[2, 1])
    for seat in (None, 0, 1):
        assert state.observation(seat)["rahi"]["2,0"] == "rahi:nui-jaga:9"
    play(state, "roll")  # 1 against 9: lost, nothing to lose
    assert state.observation(1)["rahi"]["2,0"] == "rahi:nui-jaga:9"


@rule("MAKUTA-RAHI-WIN", "MAKUTA-RAHI-WIN-EXTRA-TURN")
def test_beating_a_rahi_removes_it_and_gives_another_turn():
    state, _ = challenge(rahi="rahi:nui-rama:3", dice=[2, 4])
    events = play(state, "roll")  # 4 against 3: the roll alone wins, nothing to add
    assert texts(events)[1:] == [
        "Tahu's total: 4 against the Rahi's 3.",
        "Tahu beats the Rahi! It is removed from the board; Tahu takes another turn.",
        "Tahu's turn (white die)."]
    obs = state.observation(None)
    assert "2,0" not in obs["rahi"] and obs["beaten"] == ["rahi:nui-rama:3"]
    assert state.current_player == 0 and state.phase == "roll" and state.turn == 2


@rule("MAKUTA-RAHI-LOSE-ITEM", "MAKUTA-LEFT-DECIDES", "MAKUTA-RAHI-LOSE-BACK")
def test_losing_gives_up_an_item_chosen_by_the_player_to_the_left():
    state, _ = challenge(["kanohi:pakari", "key:fire"], dice=[2, 3])
    events = play(state, "roll", "settle")  # 3 against 18: the Pakari would not save it
    assert texts(events)[-1] == "Tahu loses the challenge."
    assert state.phase == "take" and state.current_player == 1
    assert state.legal_actions() == ["take:kanohi:0", "take:key:0"]
    assert state.describe("take:key:0") == "Take key token #1 of Tahu (face down)"
    events = play(state, "take:kanohi:0")
    assert texts(events)[0] == "Lewa takes a kanohi token from Tahu and places it under the " \
                               "Rahi, which stays on the board face down."
    assert texts(events, 0)[0].startswith("Lewa takes your Kanohi Pakari")
    assert texts(events)[1] == "Tahu moves back to Toa Landing."
    obs = state.observation(1)
    assert obs["under"] == {"2,0": ["kanohi"]} and obs["rahi"]["2,0"] == "rahi:muaka:18"
    assert obs["pawns"][0] == "start" and faces(state, 0)["kanohi"] == []
    assert state.current_player == 1 and state.phase == "roll"


@rule("MAKUTA-RAHI-GUARDED")
def test_beating_a_rahi_collects_what_it_guarded():
    state, _ = challenge(rahi="rahi:nui-rama:2", dice=[2, 5],
                         under={"2,0": ["kanohi:pakari", "key:yellow"]})
    events = play(state, "roll")
    assert "what it guarded is collected" in texts(events)[2]
    assert faces(state, 0) == {"kanohi": ["kanohi:pakari"], "turaga": [], "key": ["key:yellow"]}
    assert state.current_player == 0  # then the extra turn


@rule("MAKUTA-RAHI-DRAW")
def test_a_draw_moves_back_and_loses_nothing():
    state, _ = challenge(["key:fire"], rahi="rahi:nui-rama:5", dice=[2, 5])
    events = play(state, "roll")
    assert texts(events)[2:4] == ["A draw: Tahu loses nothing.",
                                  "Tahu moves back to Toa Landing."]
    assert faces(state, 0)["key"] == ["key:fire"] and "2,0" in state.observation(0)["rahi"]
    assert state.current_player == 1


@rule("MAKUTA-MOVE-BACK-NO-LANDING")
def test_moving_back_is_no_landing():
    # Toa Landing holds a returned token; moving back onto it offers nothing.
    state, _ = challenge(rahi="rahi:nui-rama:5", dice=[2, 1], start_pile=["key:air"])
    play(state, "roll")
    assert state.phase == "roll" and state.current_player == 1
    assert state.observation(None)["start"] == ["key"]


def at_open_gate(keys, cards_extra=(), dice=(1,), lewa=(), **arrangement):
    """Tahu steps onto the gate 0,-5 of Makuta's board, its fire-water-air lock face up."""
    state = arranged(boards=[MAKUTA_NORTH], pawns=["0,-4", "start"], dice=list(dice),
                     tokens={"0,-5": "lock:fire-water-air"}, revealed=["0,-5"],
                     cards=[list(keys) + list(cards_extra), list(lewa)], **arrangement)
    play(state, "roll", "move:N")
    return state


@rule("MAKUTA-MAKUTA-CHALLENGE", "MAKUTA-KEYS-SHOWN", "MAKUTA-MAKUTA-STAGE-ONE")
def test_challenging_makuta_turns_the_temple_by_the_white_die():
    state = at_open_gate(["key:fire", "key:yellow", "key:air"], dice=[1, 2])
    assert state.phase == "gate" and state.legal_actions() == ["challenge", "skip"]
    events = play(state, "challenge")
    # Gate 0,-5 is gate 5, facing brown; two segments clockwise bring orange (from gate 3).
    assert texts(events) == [
        "Tahu shows three keys (fire key, yellow key (wild), air key) and challenges Makuta! "
        "The white die rolls 2: the temple turns 2 segments clockwise and the orange segment "
        "faces the gate: Makuta's power is 24."]
    obs = state.observation(1)
    assert obs["cards"][0]["key"] == ["key:fire", "key:yellow", "key:air"]
    assert obs["temple"][5] == "orange" and obs["challenge"]["strength"] == 24
    assert obs["temple"] == ["blue", "brown", "grey", "red", "green", "orange"]


@rule("MAKUTA-MAKUTA-STAGE-TWO", "MAKUTA-MAKUTA-WIN", "MAKUTA-OBJECT")
def test_beating_makutas_power_wins_the_game():
    state = at_open_gate(["key:fire", "key:water", "key:air"],
                         ["kanohi:kakama", "kanohi:pakari", "turaga:vakama"], dice=[1, 1, 8])
    assert texts(play(state, "challenge", "roll"))[-1] == \
        "Tahu rolls the red die: 8 against Makuta's 26."
    events = play(state, "use:pakari", "use:vakama", "settle")
    assert texts(events)[-2:] == ["Tahu's total: 8 + 20 = 28 against Makuta's 26.",
                                  "Tahu beats Makuta and WINS THE GAME!"]
    assert state.is_over and state.winners == [0] and state.returns() == [1.0, -1.0]
    assert state.current_player is None and state.legal_actions() == []


@rule("MAKUTA-MAKUTA-LOSE")
def test_a_draw_or_less_against_makuta_loses_an_item_and_the_pawn_is_moved():
    state = at_open_gate(["key:fire", "key:water", "key:air"], ["turaga:vakama"],
                         dice=[1, 5, 6])
    play(state, "challenge", "roll", "use:vakama")  # five segments on: grey, power 18
    events = play(state, "settle")  # 6 + 10 = 16
    assert texts(events)[-1] == "Tahu loses the challenge against Makuta."
    assert state.current_player == 1 and state.phase == "take"
    events = play(state, "take:key:1")
    assert texts(events)[0] == "Lewa takes a key token from Tahu and places it face down on " \
                               "the start space."
    assert state.phase == "put" and state.current_player == 1
    puts = state.legal_actions()
    assert "put:0,-5" not in puts  # the gate holds its lock
    assert "put:start" not in puts  # Toa Landing holds the lost key
    assert "put:0,-4" in puts
    events = play(state, "put:2,2")
    assert texts(events)[0] == "Lewa moves Tahu to 2,2."
    assert state.observation(None)["pawns"][0] == "2,2"
    assert state.current_player == 1 and state.phase == "roll"
    # Equal is not enough: 8 + 10 = 18 against grey's 18.
    state = at_open_gate(["key:fire", "key:water", "key:air"],
                         ["kanohi:kakama", "kanohi:pakari"], dice=[1, 5, 8])
    play(state, "challenge", "roll", "use:pakari", "settle")
    assert state.phase == "take" and not state.is_over


@rule("MAKUTA-BONUS-AFTER-ROLL", "MAKUTA-CHALLENGE-BONUS")
def test_kanohi_and_turaga_are_added_after_the_roll_with_minimum_power():
    # "Roll the die and add on points using your Kanohi and your Turaga." / "Use minimum
    # power so that you keep the contents of your collector card a secret."
    state, _ = challenge(["kanohi:pakari", "kanohi:hau"], rahi="rahi:nui-jaga:9", dice=[2, 5])
    with pytest.raises(IllegalAction, match="roll first: Kanohi and Turaga are added to the "
                                            "roll once it is seen"):
        state.apply("use:hau")
    play(state, "roll")
    assert state.observation(1)["challenge"]["roll"] == 5
    assert state.legal_actions() == ["use:pakari", "use:hau", "settle"]
    events = play(state, "use:hau", "settle")  # 5 + 5 = 10 beats 9: the Pakari stays secret
    assert "Tahu beats the Rahi!" in texts(events)[2]
    assert faces(state, 0, viewer=1)["kanohi"] == ["kanohi", "kanohi:hau"]
    # A roll that wins alone, or a card without Kanohi and Turaga, leaves nothing to choose.
    state, _ = challenge(["kanohi:pakari"], rahi="rahi:nui-rama:3", dice=[2, 4])
    events = play(state, "roll")
    assert texts(events)[1] == "Tahu's total: 4 against the Rahi's 3."
    assert faces(state, 0, viewer=1)["kanohi"] == ["kanohi"]
    # The same against Makuta: the power is known, then the roll, then what to add.
    state = at_open_gate(["key:fire", "key:water", "key:air"], ["kanohi:hau", "kanohi:pakari"],
                         dice=[1, 1, 4])
    play(state, "challenge")
    assert state.legal_actions() == ["roll"]
    play(state, "roll")  # 4 against blue's 26: even both masks (4 + 15 = 19) cannot win
    assert state.phase == "bonus" and state.legal_actions() == ["use:hau", "use:pakari", "settle"]
    play(state, "settle")
    assert state.phase == "take" and faces(state, 0, viewer=1)["kanohi"] == ["kanohi", "kanohi"]
