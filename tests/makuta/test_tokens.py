"""Quest for Makuta, tokens: collecting, the limits, the Kanohi and the start space."""

import pytest

from matanui.engine import IllegalAction
from tests.ledger import rule
from tests.makuta.scenario import arranged, faces, play, texts
from tests.makuta.test_movement import LAVA_FIELDS

THREE_KEYS = ["key:fire", "key:water", "key:air"]


def land_north(cards, token, **arrangement):
    """Tahu (holding `cards`) steps north from Toa Landing onto 0,-2 holding `token`."""
    arrangement.setdefault("dice", [1])
    state = arranged(cards=[cards, []], tokens={"0,-2": token}, **arrangement)
    events = play(state, "roll", "move:N")
    return state, events


@rule("MAKUTA-TOKEN-LOOK-ALIKE", "MAKUTA-CARD-SECRET")
def test_a_collected_token_is_seen_by_its_collector_only():
    state, events = land_north([], "kanohi:pakari")
    assert texts(events)[-2] == "Tahu collects a kanohi token."
    assert texts(events, 0)[-2] == "Tahu collects a kanohi token: Kanohi Pakari."
    assert faces(state, 0) == {"kanohi": ["kanohi:pakari"], "turaga": [], "key": []}
    assert faces(state, 0, viewer=1) == {"kanohi": ["kanohi"], "turaga": [], "key": []}
    assert state.observation(None)["cards"][0]["kanohi"] == ["kanohi"]


@rule("MAKUTA-KEY-LIMIT")
def test_a_fourth_key_is_looked_at_and_one_of_four_goes_to_the_start_space():
    state, _ = land_north(THREE_KEYS, "key:ice")
    assert state.phase == "return" and state.current_player == 0
    assert faces(state, 0)["key"] == [*THREE_KEYS, "key:ice"]
    assert state.legal_actions() == ["return:key:0", "return:key:1", "return:key:2",
                                     "return:key:3"]
    assert state.describe("return:key:1") == "Place your key token #2 (water key) face down on " \
                                             "the start space"
    events = play(state, "return:key:1")
    assert texts(events)[0] == "Tahu places a key token face down on the start space."
    assert texts(events, 0)[0] == "Tahu places water key face down on the start space."
    assert faces(state, 0)["key"] == ["key:fire", "key:air", "key:ice"]
    assert state.observation(1)["start"] == ["key"] and state.observation(0)["start"] == ["key:water"]
    assert state.current_player == 1


@rule("MAKUTA-TURAGA-LIMIT")
def test_a_third_turaga_is_looked_at_and_one_is_given_up():
    state, _ = land_north(["turaga:vakama", "turaga:nuju"], "turaga:matau")
    assert state.legal_actions() == ["return:turaga:0", "return:turaga:1", "return:turaga:2"]
    play(state, "return:turaga:2")
    assert faces(state, 0)["turaga"] == ["turaga:vakama", "turaga:nuju"]
    assert faces(state, 0)["key"] == []


@rule("MAKUTA-KANOHI-LIMIT")
def test_at_most_four_kanohi_and_only_one_kakama_or_kaukau():
    four = ["kanohi:hau", "kanohi:pakari", "kanohi:akaku", "kanohi:miru"]
    state, _ = land_north(four, "kanohi:hau")
    assert len(state.legal_actions()) == 5
    play(state, "return:kanohi:0")
    assert faces(state, 0)["kanohi"] == [*four[1:], "kanohi:hau"]
    # A second speed mask: one of the two must go back, whatever the count.
    state, _ = land_north(["kanohi:kakama", "kanohi:hau"], "kanohi:kaukau")
    assert state.phase == "return"
    assert state.legal_actions() == ["return:kanohi:0", "return:kanohi:2"]
    play(state, "return:kanohi:0")
    assert state.observation(1)["dice"][0] == "green"
    state, _ = land_north(["kanohi:kakama"], "kanohi:kakama")
    assert state.legal_actions() == ["return:kanohi:0", "return:kanohi:1"]


@rule("MAKUTA-DIE-PUBLIC", "MAKUTA-KAKAMA")
def test_a_kakama_brings_the_red_die_and_everyone_sees_it():
    state, events = land_north([], "kanohi:kakama", dice=[1, 1, 8])
    assert texts(events)[-2] == "Tahu collects Kanohi Kakama: everyone sees the red die come " \
                                "into play."
    assert faces(state, 0, viewer=1)["kanohi"] == ["kanohi:kakama"]
    assert state.observation(None)["dice"] == ["red", "white"]
    play(state, "roll", "move:W")  # Lewa
    events = play(state, "roll")
    assert texts(events) == ["Tahu rolls the red die: 8."]


@rule("MAKUTA-KAUKAU")
def test_a_kaukau_brings_the_green_die():
    state = arranged(cards=[["kanohi:kaukau"], []], dice=[12])
    assert state.describe("roll") == "Roll the green die and move"
    assert texts(play(state, "roll")) == ["Tahu rolls the green die: 12."]
    assert state.observation(None)["steps_left"] == 12


@rule("MAKUTA-MIRU")
def test_a_miru_levitates_to_any_other_space_once():
    state = arranged(cards=[["kanohi:miru"], []], tokens={"2,3": "kanohi:hau"})
    assert state.legal_actions() == ["roll", "levitate"]
    play(state, "levitate")
    targets = state.legal_actions()
    assert "to:start" not in targets and len(targets) == len(state.island) - 1
    assert state.describe("to:2,3") == "Levitate to the space at 2,3 with a face-down Kanohi token"
    events = play(state, "to:2,3")
    assert texts(events)[0] == "Tahu uses the Kanohi Miru to levitate to 2,3; the Miru is " \
                               "placed face down on the start space."
    assert faces(state, 0)["kanohi"] == ["kanohi:hau"]  # landed and collected
    assert state.observation(1)["start"] == ["kanohi:miru"]  # everyone saw it used
    # Losing to a Rahi reached by levitation sends the Toa back where it flew from.
    state = arranged(cards=[["kanohi:miru"], []], tokens={"2,3": "rahi:muaka:20"},
                     pawns=["-3,0", "start"], dice=[1])
    play(state, "levitate", "to:2,3", "roll")
    assert state.observation(None)["pawns"][0] == "-3,0"


def meet_lewa(tahu, lewa, dice, tokens=None):
    """Tahu walks north from Toa Landing to Lewa, who stands on 0,-2."""
    state = arranged(cards=[tahu, lewa], pawns=["start", "0,-2"], dice=dice,
                     tokens=tokens or {})
    play(state, "roll", "move:N")
    return state


@rule("MAKUTA-AKAKU", "MAKUTA-AKAKU-REROLL")
def test_an_akaku_sees_another_toas_tokens_takes_one_and_rolls_again():
    state = meet_lewa(["kanohi:akaku"], ["key:fire", "turaga:nuju"], dice=[3, 2])
    assert "stop" in state.legal_actions()  # no exact roll needed to meet another Toa
    play(state, "stop")
    assert state.phase == "akaku" and state.legal_actions() == ["akaku:lewa", "skip"]
    events = play(state, "akaku:lewa")
    assert texts(events) == ["Tahu uses the Kanohi Akaku to see Lewa's tokens; the Akaku is "
                             "placed face down on the start space."]
    assert faces(state, 1, viewer=0) == {"kanohi": [], "turaga": ["turaga:nuju"],
                                         "key": ["key:fire"]}
    assert state.legal_actions() == ["steal:turaga:0", "steal:key:0"]
    events = play(state, "steal:key:0")
    assert texts(events, 0)[:2] == ["Tahu takes fire key from Lewa and rolls again to escape.",
                                    "Tahu collects a key token: fire key."]
    assert texts(events)[-1] == "Tahu rolls the white die: 2."
    assert state.phase == "move" and state.observation(None)["path"] == ["start", "0,-2"]
    assert faces(state, 0)["key"] == ["key:fire"] and faces(state, 1)["key"] == []
    assert state.observation(1)["start"] == ["kanohi:akaku"]


@rule("MAKUTA-MOVE-NO-DOUBLE-BACK", "MAKUTA-AKAKU-REROLL")
def test_the_escape_roll_may_not_double_back_on_the_same_turn():
    # "You may move in any direction, but you may NOT double back on the same turn." /
    # "Roll the die again to escape!": the spaces walked before the steal still count.
    state = meet_lewa(["kanohi:akaku"], ["key:fire"], dice=[3, 2])
    play(state, "stop", "akaku:lewa", "steal:key:0")
    assert state.legal_actions() == ["move:N"]  # not back south onto Toa Landing
    with pytest.raises(IllegalAction, match="no doubling back"):
        state.apply("move:S")


@rule("MAKUTA-MOVE-NO-DOUBLE-BACK", "MAKUTA-AKAKU-REROLL", "MAKUTA-MOVE-BLOCKED")
def test_an_escape_roll_with_only_walked_spaces_around_is_lost():
    # 15,10 on the lava fields is a dead end reached only from 15,11, where Tahu came from.
    state = arranged(boards=[LAVA_FIELDS], pawns=["15,11", "15,10"], dice=[1, 4],
                     cards=[["kanohi:akaku"], ["key:fire"]])
    play(state, "roll", "move:N", "akaku:lewa")
    events = play(state, "steal:key:0")
    assert texts(events)[-3:] == ["Tahu rolls the white die: 4.",
                                  "Tahu can go no further without doubling back: the roll is "
                                  "lost.", "Lewa's turn (white die)."]
    assert state.observation(None)["pawns"][0] == "15,10"


@rule("MAKUTA-AKAKU-PHASE")
def test_every_kanohi_holder_meeting_a_toa_is_asked_so_the_akaku_stays_secret():
    state = meet_lewa(["kanohi:hau"], ["key:fire"], dice=[1])
    assert state.phase == "akaku" and state.legal_actions() == ["skip"]
    assert state.describe("skip") == "Do not use the Kanohi Akaku"
    state = meet_lewa([], ["key:fire"], dice=[1])
    assert state.phase == "roll" and state.current_player == 1
    state = meet_lewa(["kanohi:akaku"], [], dice=[1])  # nothing to take from Lewa
    assert state.phase == "roll"


@rule("MAKUTA-MASKS-ANY-TOA", "MAKUTA-MASK-STACK", "MAKUTA-HAU", "MAKUTA-PAKARI",
      "MAKUTA-TURAGA-OWN", "MAKUTA-TURAGA-OTHER")
def test_bonus_points_of_kanohi_and_turaga():
    # Lewa holds two Pakari, a Hau, her own Turaga Matau and Tahu's Vakama.
    state = arranged(cards=[[], ["kanohi:pakari", "kanohi:pakari", "kanohi:hau", "turaga:matau",
                                 "turaga:vakama"]], first_player=1, dice=[1, 1],
                     tokens={"2,0": "rahi:muaka:20"})
    play(state, "roll", "move:E", "roll")
    assert state.legal_actions() == ["use:pakari", "use:hau", "use:matau", "use:vakama",
                                     "settle"]
    assert [state.describe(a) for a in state.legal_actions()[:4]] == [
        "Show Kanohi Pakari (+10)", "Show Kanohi Hau (+5)", "Show Turaga Matau (+10)",
        "Show Turaga Vakama (+5)"]
    play(state, "use:pakari")
    assert "use:pakari" not in state.legal_actions()  # the second Pakari adds nothing
    play(state, "use:hau", "use:matau", "use:vakama")
    assert state.observation(0)["challenge"]["bonus"] == 30
    # Two of one's own Turaga count twice.
    state = arranged(cards=[["turaga:vakama", "turaga:vakama"], []], dice=[1, 1],
                     tokens={"2,0": "rahi:muaka:20"})
    play(state, "roll", "move:E", "roll", "use:vakama")
    assert state.legal_actions() == ["use:vakama", "settle"]
    play(state, "use:vakama")
    assert state.observation(1)["challenge"]["bonus"] == 20


@rule("MAKUTA-START-FACE-DOWN", "MAKUTA-START-TAKE")
def test_landing_on_the_start_space_takes_a_returned_token_without_looking():
    state = arranged(pawns=["0,-2", "start"], start_pile=["key:fire", "kanohi:hau"], dice=[3])
    assert state.observation(1)["start"] == ["key", "kanohi"]  # face down
    play(state, "roll", "move:S")
    assert "stop" in state.legal_actions()  # tokens lie there: an exact roll is not needed
    play(state, "stop")
    assert state.phase == "start-token" and state.legal_actions() == ["take-start", "skip"]
    events = play(state, "take-start")
    assert texts(events)[0] == "Tahu takes a token from the start space without looking."
    card = faces(state, 0)
    assert len(card["key"]) + len(card["kanohi"]) == 1
    assert len(state.observation(1)["start"]) == 1
    state = arranged(pawns=["0,-2", "start"], start_pile=["key:fire"], dice=[1])
    play(state, "roll", "move:S", "skip")
    assert state.observation(0)["start"] == ["key"] and state.current_player == 1


@rule("MAKUTA-START-TAKE")
def test_a_blind_draw_leaves_nobody_knowing_which_alike_token_stayed():
    state = arranged(pawns=["0,-2", "start"], first_player=0, dice=[1],
                     start_pile=["kanohi:akaku", "kanohi:miru", "key:fire"])
    for token in state.start:
        state.seen_by[token] = (1 << 7) - 1  # as if everyone saw them used
    play(state, "roll", "move:S", "take-start")
    seen = state.observation(1)["start"]
    if len(faces(state, 0)["kanohi"]) == 1:
        assert seen == ["kanohi", "key:fire"]
    else:
        assert seen == ["kanohi:akaku", "kanohi:miru"]


@rule("MAKUTA-LANDING-ORDER")
def test_a_landing_collects_first_then_meets_the_other_toa():
    state = meet_lewa(["kanohi:akaku"], ["turaga:nuju"], dice=[1],
                      tokens={"0,-2": "key:air"})
    assert faces(state, 0)["key"] == ["key:air"]
    assert state.phase == "akaku"
