"""Quest for Makuta: a Toa who resigns or whose time ran out (MAKUTA-FORFEIT, a reconstructed
reading: the rulebook is silent). With three or more Toa the game goes on without them."""

from matanui.engine import replay
from tests.ledger import rule
from tests.makuta.scenario import arranged, faces, play, texts

THREE = ["tahu", "lewa", "gali"]


@rule("MAKUTA-FORFEIT")
def test_with_three_toa_the_game_goes_on_and_the_resigned_toas_tokens_go_face_down_to_the_start():
    state = arranged(THREE, cards=[[], ["kanohi:pakari", "key:fire"], []], dice=[3])
    events = play(state, "resign:1")
    assert texts(events) == ["Lewa resigns: the game goes on without Lewa, whose tokens are "
                             "placed face down on the start space."]
    assert not state.is_over and state.out == [1] and state.current_player == 0
    obs = state.observation(None)
    assert obs["out"] == [1] and obs["start"] == ["kanohi", "key"]
    assert faces(state, 1) == {"kanohi": [], "turaga": [], "key": []}
    state.audit()


@rule("MAKUTA-FORFEIT")
def test_the_turn_passes_over_a_resigned_toa_who_never_decides_again():
    state = arranged(THREE, dice=[1, 1])
    play(state, "resign:1", "roll", "move:N")
    assert state.current_player == 2 and state.turn_player == 2


@rule("MAKUTA-FORFEIT")
def test_a_toa_resigning_in_the_middle_of_their_turn_hands_the_turn_to_the_next_toa():
    state = arranged(THREE, dice=[2])
    play(state, "roll")
    assert state.phase == "move" and state.current_player == 0
    events = play(state, "timeout:0")
    assert texts(events) == ["Tahu's time ran out: the game goes on without Tahu.",
                             "Lewa's turn (white die)."]
    assert state.current_player == 1 and state.phase == "roll"


@rule("MAKUTA-FORFEIT")
def test_a_board_drawn_but_not_laid_goes_back_on_top_of_the_pile():
    state = arranged(THREE, dice=[2], pile=["ko-ice-plain"])
    play(state, "roll", "move:N", "move:N")
    assert state.phase == "place"
    play(state, "resign:0")
    obs = state.observation(None)
    assert obs["pile"] == 19 and obs["placing"] is None and state.current_player == 1
    state.audit()


@rule("MAKUTA-FORFEIT", "MAKUTA-LEFT-DECIDES")
def test_when_the_player_to_the_left_resigns_before_choosing_the_next_one_chooses():
    state = arranged(THREE, cards=[["key:fire"], [], []], dice=[2, 1],
                     pawns=["0,-2", "start", "start"], tokens={"2,0": "rahi:muaka:18"})
    play(state, "roll", "move:S", "move:E", "roll")
    assert state.phase == "take" and state.current_player == 1
    play(state, "resign:1")
    assert state.phase == "take" and state.current_player == 2
    events = play(state, "take:key:0")
    assert texts(events)[0].startswith("Gali takes a key token from Tahu")


@rule("MAKUTA-FORFEIT", "MAKUTA-AKAKU-REROLL")
def test_when_the_toa_being_robbed_resigns_the_thief_takes_nothing_and_rolls_again_to_escape():
    state = arranged(THREE, cards=[["kanohi:akaku"], ["key:fire"], []], dice=[3, 2],
                     pawns=["start", "0,-2", "start"])
    play(state, "roll", "move:N", "stop", "akaku:lewa")
    assert state.phase == "steal"
    events = play(state, "resign:1")
    assert texts(events)[-1] == "Tahu rolls the white die: 2."
    assert state.phase == "move" and state.current_player == 0
    assert faces(state, 0)["key"] == []


@rule("MAKUTA-FORFEIT")
def test_when_one_toa_is_left_in_play_it_wins():
    state = arranged(THREE)
    play(state, "resign:0")
    events = play(state, "timeout:2")
    assert texts(events) == ["Gali's time ran out: Lewa wins the game."]
    assert state.is_over and state.winners == [1] and state.current_player is None
    assert replay(state.record()).winners == [1]


@rule("MAKUTA-FORFEIT")
def test_with_two_toa_a_resignation_ends_the_game():
    state = arranged()
    play(state, "resign:1")
    assert state.is_over and state.winners == [0] and state.out == [1]


@rule("MAKUTA-FORFEIT", "MAKUTA-AKAKU")
def test_a_resigned_toas_pawn_is_no_longer_met_on_the_island():
    # Tahu, with an Akaku, may stop early on another Toa's space, but not on a pawn left behind.
    state = arranged(THREE, cards=[["kanohi:akaku"], [], ["key:fire"]], dice=[3],
                     pawns=["start", "start", "0,-2"])
    play(state, "resign:2")
    play(state, "roll", "move:N")
    assert "stop" not in state.legal_actions()
