"""Quest for Makuta, setting up and starting the game, as the rulebook states it."""

import pytest

from matanui.engine import BadSetup, IllegalAction
from tests.ledger import rule
from tests.makuta.scenario import GAME, arranged, play, texts


@rule("MAKUTA-SETUP-BOARDS")
def test_the_start_board_in_the_centre_and_nineteen_boards_shuffled_face_down():
    state = GAME.new_game(1, ["tahu", "lewa"])
    obs = state.observation(None)
    assert obs["boards"] == [["start", 0, -3, -3]]
    assert obs["pile"] == 19 and "makuta" in state.pile
    assert GAME.new_game(2, ["tahu", "lewa"]).pile != state.pile  # shuffled by the seed
    assert GAME.new_game(1, ["tahu", "lewa"]).pile == state.pile


@rule("MAKUTA-SETUP-TOKENS", "MAKUTA-SETUP-START-TOKENS")
def test_tokens_face_down_on_the_start_board_matching_its_icons():
    state = GAME.new_game(1, ["tahu", "lewa"])
    obs = state.observation(0)
    assert obs["tokens"] == {"-2,-3": ["kanohi"], "2,3": ["kanohi"], "-3,-1": ["turaga"],
                             "3,1": ["turaga"], "2,-3": ["key"], "-2,3": ["key"]}
    assert obs["rahi"] == {"3,-2": "rahi", "-3,2": "rahi"}
    assert obs["bags"] == {"kanohi": 22, "turaga": 10, "key": 22, "rahi": 55, "lock": 9}
    # The backs tell the kind, never the face.
    assert all(":" not in face for faces in obs["tokens"].values() for face in faces)


@rule("MAKUTA-SETUP-TOA")
def test_two_to_six_players_each_with_a_different_toa():
    with pytest.raises(BadSetup, match="each player chooses a different Toa"):
        GAME.new_game(1, ["tahu", "tahu"])
    with pytest.raises(BadSetup, match="2 to 6 players"):
        GAME.new_game(1, ["tahu"])
    with pytest.raises(BadSetup, match="'vakama' is not a Toa of this game; choose from: tahu"):
        GAME.new_game(1, ["tahu", "vakama"])
    assert GAME.new_game(1, GAME.characters()).num_players == 6


@rule("MAKUTA-SETUP-PAWNS", "MAKUTA-WHITE-DIE")
def test_every_toa_starts_on_toa_landing_with_the_white_die():
    obs = GAME.new_game(5, ["tahu", "lewa", "gali"]).observation(None)
    assert obs["pawns"] == ["start", "start", "start"]
    assert obs["dice"] == ["white", "white", "white"]


@rule("MAKUTA-FIRST-PLAYER")
def test_the_highest_green_die_roll_goes_first_and_ties_roll_again():
    state = arranged(first_player=None, dice=[9, 9, 4, 11])
    assert state.current_player == 1
    assert texts(state.setup_events)[-3:-1] == [
        "Rolling the green die (Tahu 9, Lewa 9): a tie for highest, those players roll again.",
        "Rolling the green die (Tahu 4, Lewa 11): Lewa goes first; play passes clockwise.",
    ]
    firsts = [GAME.new_game(seed, ["tahu", "lewa", "gali"]).current_player for seed in range(300)]
    assert all(firsts.count(seat) > 70 for seat in range(3))


@rule("MAKUTA-ORDER")
def test_play_passes_clockwise_and_the_player_to_the_left_is_the_next_seat():
    state = arranged(["tahu", "lewa", "gali"], first_player=2, dice=[1, 1, 1, 1],
                     tokens={"2,0": "rahi:muaka:18"})
    seen = []
    for _ in range(3):
        seen.append(state.current_player)
        play(state, "roll", "move:W")
    assert seen == [2, 0, 1]
    # Lewa (seat 1) challenges and loses; the player to Lewa's left, Gali, decides.
    state = arranged(["tahu", "lewa", "gali"], first_player=1, dice=[1, 1],
                     tokens={"2,0": "rahi:muaka:18"}, cards=[[], ["key:fire"], []])
    play(state, "roll", "move:E", "roll")
    assert state.phase == "take" and state.current_player == 2
    state = arranged(["tahu", "lewa", "gali"], first_player=2, dice=[1, 1],
                     tokens={"2,0": "rahi:muaka:18"}, cards=[[], [], ["key:fire"]])
    play(state, "roll", "move:E", "roll")
    assert state.current_player == 0  # to Gali's left sits Tahu


@rule("MAKUTA-ROLL-MOVE", "MAKUTA-ROLL-DECISION")
def test_a_turn_is_a_roll_then_that_many_spaces():
    state = arranged(dice=[3])
    assert state.legal_actions() == ["roll"]
    assert state.describe("roll") == "Roll the white die and move"
    events = play(state, "roll")
    assert texts(events) == ["Tahu rolls the white die: 3."]
    assert state.legal_actions() == ["move:N", "move:E", "move:S", "move:W"]
    play(state, "move:W", "move:W")  # to -2,0 then the portal -3,0 ...
    assert state.observation(None)["steps_left"] == 1
    assert state.current_player == 0
    events = play(state, "move:N")
    assert state.current_player == 1 and state.pawns[0] == state.island.by_name["-3,-1"]
    # The roll decision is there even when rolling is the only choice.
    assert state.legal_actions() == ["roll"]


@rule("MAKUTA-TURN-LIMIT")
def test_a_game_that_reaches_the_turn_limit_is_drawn():
    assert GAME.new_game(1, ["tahu", "lewa", "gali"]).options["turn_limit"] == 300
    state = arranged(options={"turn_limit": 10}, dice=[1] * 20)

    def to_and_fro():
        at_start = state.pawns[state.turn_player] == state.start_node
        return play(state, "roll", "move:W" if at_start else "move:E")

    while state.turn < 10:
        to_and_fro()
    events = to_and_fro()
    assert state.is_over and state.winners == [] and state.returns() == [0.0, 0.0]
    assert texts(events)[-1] == "The turn limit (10) is reached: the game is drawn."
    with pytest.raises(BadSetup, match="turn_limit must be a whole number from 10 to 10000"):
        GAME.new_game(1, ["tahu", "lewa"], {"turn_limit": 5})


@rule("MAKUTA-FLEXIBLE")
def test_the_only_option_is_the_turn_limit():
    with pytest.raises(BadSetup, match="makuta has no option 'younger'; its options are: "
                                       "turn_limit"):
        GAME.new_game(1, ["tahu", "lewa"], {"younger": True})
    assert list(GAME.option_help()) == ["turn_limit"]


def test_bad_arrangements_say_what_is_allowed():
    with pytest.raises(BadSetup, match="makuta has no arrangement 'hands'; its arrangement keys are: "
                                       "first_player: "):
        arranged(hands=[])
    with pytest.raises(BadSetup, match="arrangement 'cards' for seat 0 is 'kanohi:vahi'; allowed: a list of "
                                       "2 lists of tokens, one per seat \\(tokens look like kanohi:pakari"):
        arranged(cards=[["kanohi:vahi"], []])
    with pytest.raises(BadSetup, match="more 'kanohi:pakari' tokens than the game has"):
        arranged(cards=[["kanohi:pakari"] * 3, ["kanohi:pakari"] * 2])
    with pytest.raises(BadSetup, match="arranged space '9,9' is not a space"):
        arranged(pawns=["9,9", "start"])
    with pytest.raises(BadSetup, match="over a limit"):
        arranged(cards=[["key:fire", "key:air", "key:ice", "key:earth"], []])
    with pytest.raises(BadSetup, match="overlaps a board already laid"):
        arranged(boards=[["makuta", 0, 0, 0]])


def test_an_illegal_action_says_why_and_changes_nothing():
    state = arranged(dice=[2])
    play(state, "roll", "move:N")
    before = state.observation(None), list(state.history)
    with pytest.raises(IllegalAction, match=r"that space was already visited this turn: no "
                                            r"doubling back\. Legal actions: move:N"):
        state.apply("move:S")
    with pytest.raises(IllegalAction, match="never diagonally"):
        state.apply("move:NE")
    with pytest.raises(IllegalAction, match="stop early only on a token, a portal"):
        state.apply("stop")
    assert (state.observation(None), state.history) == before
