"""The rulebook's four Questions, each as a scenario on side A (see the map in test_rules.py)."""

from tests.ledger import rule
from tests.masks.helpers import arranged, far_apart, position, said, texts, unchanged_after_illegal


@rule("MASKS-Q-START-SPACES", "MASKS-SETUP-START-SPACES")
def test_a_toa_may_move_back_onto_a_start_space_which_is_blank():
    state = arranged()
    assert state.observation(None)["positions"] == ["G2", "H9"]
    state.apply("move:W")
    state.apply("move:W")
    events = state.apply("move:E")  # back onto the West start
    assert position(state, 0) == "G2"
    assert texts(events) == ["Pohatu moves the Pohatu Mask one space to the East."]
    events = state.apply("move:E")  # and Gali back onto the East start
    assert position(state, 1) == "H9" and len(events) == 1


@rule("MASKS-Q-OCCUPIED")
def test_a_toa_cannot_enter_the_space_of_the_other_toa():
    state = arranged(positions=["G3", "G4"])
    assert "move:E" not in state.legal_actions()
    error = unchanged_after_illegal(state, "move:E", "occupied by Gali's Toa Mask")
    assert "wait for Gali to move" in str(error.value)
    state.apply("move:N")
    state.apply("move:E")  # Gali moves away...
    state.apply("move:S")  # ...Pohatu comes back to G3
    assert "move:E" in state.legal_actions()  # and now G4 is free


@rule("MASKS-Q-MUST-MOVE")
def test_a_turn_cannot_be_passed_without_moving():
    state = far_apart(at="E3", hands=[[27, 33], []])
    actions = state.legal_actions()
    assert "pass" not in actions and "wait" not in actions
    assert "play:27" in actions  # a card may be played first, but the move still comes
    state.apply("play:27")
    assert state.current_player == 0 and any(a.startswith("move:") for a in state.legal_actions())
    unchanged_after_illegal(state, "pass", "'pass' is for a Great Mask Challenge")


@rule("MASKS-Q-MOVE-THROUGH", "MASKS-GA-MOVE-TWO")
def test_moving_two_spaces_through_a_mission_space_onto_a_challenge_space_takes_no_mission():
    state = far_apart(at="C4", hands=[[30], []], challenge_pile=[4], mission_pile=[15])
    assert "play:30:WW" in state.legal_actions()
    assert state.describe("play:30:WW") == ("Play Reward (Card #30): move two spaces West to the "
                                            "Challenge space at C2: a Great Mask Challenge")
    events = state.apply("play:30:WW")
    assert position(state, 0) == "C2"
    assert not said(events, "Mission")
    assert said(events, "Pohatu lands on a Challenge Space")
    assert state.missions == [[], []] and state.mission_pile[-1] == 15
    assert state.action_discard[0] == [30]
