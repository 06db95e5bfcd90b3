"""Quest for the Masks, rule by rule, as the rulebook states it (side A of the map).

Side A, rows A (North) to I, columns 1 (West) to 14; W and E are the starts:

       1  2  3  4  5  6  7  8  9 10 11 12 13 14
    A  #  #  .  P  .  .  C  .  .  M  .  G  #  #
    B  #  .  .  G  C  .  .  .  G  .  C  .  .  #
    C  .  C  M  .  .  .  M  .  .  .  .  .  P  .
    D  .  .  C  .  G  .  . C2  .  M  G  .  C  .
    E  G  .  .  .  M  . G2  .  .  C  .  .  .  G
    F  .  .  .  C  .  .  .  P  .  .  M  .  C  .
    G  .  W  .  .  .  C  .  G  .  .  G  .  .  .
    H  #  .  M  .  G  .  .  .  E  .  .  .  C  .
    I  #  #  .  C  .  .  P  .  .  .  M  .  #  #

Cards: Challenge #1 Shielding, #2 Flight, #4 Strength, #5 Swimming; Missions #9 three spaces
West, #10 give up one card, #12 give up two, #13 skip a move, #15 three spaces East, #16 travel
to a Game Action space, #18 travel through a Portal; Game Action #21 Infected Mask, #27 Reward
(draw two), #30 Reward (move two), #33 Bonus (+200), #37 Penalty (skip), #39 Penalty (-200).
Pohatu: Strength 800, Swimming 600; Gali: Strength 500, Swimming 900; Tahu: Strength 800, as Pohatu.
"""

import pytest

from matanui.engine import BadSetup, IllegalAction
from matanui.games.masks.setup import HeldMission
from tests.ledger import rule
from tests.masks.helpers import GAME, arranged, far_apart, position, said, texts, unchanged_after_illegal

# -- moving -------------------------------------------------------------------------------


@rule("MASKS-MOVE-ONE-SPACE")
def test_a_toa_moves_one_space_north_east_south_or_west_never_diagonally():
    state = far_apart(at="E3")
    moves = [a for a in state.legal_actions() if a.startswith("move:")]
    assert moves == ["move:N", "move:E", "move:S", "move:W"]
    unchanged_after_illegal(state, "move:NE", "never diagonally")
    state.apply("move:S")
    assert position(state, 0) == "F3"


@rule("MASKS-MOVE-ONE-SPACE")
def test_the_sea_and_the_maps_edge_are_not_spaces():
    state = far_apart(at="G1")
    assert "move:W" not in state.legal_actions()  # the map's edge
    assert "move:S" not in state.legal_actions()  # H1 is sea
    unchanged_after_illegal(state, "move:W", "is off the map")


@rule("MASKS-MOVE-ICON", "MASKS-TURN-ORDER")
def test_a_blank_space_does_nothing_and_the_turn_passes():
    state = far_apart(at="E3")
    events = state.apply("move:S")
    assert texts(events) == ["Pohatu moves the Pohatu Mask one space to the South."]
    assert state.current_player == 1 and state.turn == 2


@rule("MASKS-GA-MOVE-TWO", "MASKS-Q-OCCUPIED")
def test_a_two_space_move_cannot_pass_through_the_other_toa():
    state = arranged(positions=["C4", "C3"], hands=[[30], []])
    moves = [a for a in state.legal_actions() if a.startswith("play:30:")]
    assert "play:30:WW" not in moves  # through Gali
    assert "play:30:NW" in moves  # round by B4 to B3
    unchanged_after_illegal(state, "play:30:WW", "no open path")


# -- Mission spaces -------------------------------------------------------------------------


@rule("MASKS-MISSION-DRAW", "MASKS-MISSION-BEFORE-CHALLENGE", "MASKS-MISSION-CARDS")
def test_a_mission_space_gives_a_mission_that_closes_the_challenge_spaces():
    state = far_apart(at="C4", mission_pile=[16])
    events = state.apply("move:W")  # C3 is a Mission space
    assert texts(events)[1:] == [
        "Pohatu lands on a Mission Space: this means they must complete a Mission.",
        "Pohatu flips over the top card in the Mission pile of cards. They reveal card #16. This card reads "
        "“You must travel to a Game Action space. The Mission is completed when your Toa enters one.”",
    ]
    assert state.missions[0] == [HeldMission(16, 1)]
    state.apply("move:N")
    # Player 1 on C3: C2 and D3 are Challenge spaces, closed while Mission #16 is uncompleted.
    assert "move:W" not in state.legal_actions() and "move:S" not in state.legal_actions()
    unchanged_after_illegal(state, "move:S", "Mission #16 must be completed first")


@rule("MASKS-MISSION-GIVE-UP", "MASKS-MISSION-DISCARD-PILE")
def test_give_up_one_card_asks_which_card_when_there_is_a_choice():
    state = far_apart(at="C4", mission_pile=[10], hands=[[27, 33], []])
    state.apply("move:W")
    assert state.current_player == 0 and state.legal_actions() == ["discard:27", "discard:33"]
    events = state.apply("discard:33")
    assert texts(events)[0] == ("Pohatu gives up Bonus (Card #33) for Mission #10: it is placed face up in "
                                "their Game Action Card discard pile.")
    assert said(events, "Pohatu has completed the Mission. Card #10 is placed face up in the Mission Card "
                        "discard pile.")
    assert state.hands[0] == [27] and state.action_discard[0] == [33]
    assert state.missions[0] == [] and state.mission_discard == [10]


@rule("MASKS-MISSION-GIVE-UP")
def test_give_up_one_card_without_a_card_waits_for_the_next_card():
    state = far_apart(at="C4", mission_pile=[10], action_piles=[[37], []])
    state.apply("move:W")  # C3: Mission #10, nothing in hand
    assert state.missions[0] == [HeldMission(10, 1)] and state.current_player == 1
    for action in ["move:N", "move:E", "move:S"]:  # Gali, Pohatu back to C4, Gali
        state.apply(action)
    events = state.apply("move:N")  # B4 is a Game Action space: the drawn card is given up at once
    assert said(events, "Pohatu gives up Penalty (Card #37) for Mission #10")
    assert state.hands[0] == [] and state.missions[0] == []


@rule("MASKS-MISSION-GIVE-UP")
def test_give_up_without_a_card_moves_towards_the_nearest_game_action_space():
    # "If you do not have any Game Action cards, you must start to move towards the nearest Game
    # Action space and collect a card that can be discarded. You still only move one space at a time"
    state = far_apart(at="E3", missions=[[10], []], action_piles=[[37], []])
    assert state.legal_actions() == ["move:W"]  # E2, next to the Game Action space E1
    unchanged_after_illegal(state, "move:E", "must move towards the nearest Game Action space")
    state.apply("move:W")
    state.apply("move:N")  # Gali
    events = state.apply("move:W")  # E1: draws #37 and gives it up
    assert said(events, "Pohatu gives up Penalty (Card #37) for Mission #10")
    assert state.missions[0] == []


@rule("MASKS-MISSION-GIVE-UP", "MASKS-Q-OCCUPIED")
def test_give_up_without_a_card_may_move_elsewhere_when_no_move_leads_closer():
    # Gali stands on E2, the only way closer to E1: no move leads towards it, so any move is open.
    state = arranged(positions=["E3", "E2"], missions=[[10], []])
    assert state.legal_actions() == ["move:E", "move:S"]


@rule("MASKS-MISSION-GIVE-UP")
def test_give_up_two_cards_takes_them_one_by_one():
    state = far_apart(at="C4", mission_pile=[12], hands=[[27], []], action_piles=[[33, 34], []])
    state.apply("move:W")  # one card given up without asking, one still owed
    assert state.missions[0] == [HeldMission(12, 1)] and state.hands[0] == []
    for action in ["move:N", "move:E", "move:S", "move:N"]:  # ... Pohatu to B4: draws #33, gives it up
        state.apply(action)
    assert state.missions[0] == [] and state.mission_discard == [12]


@rule("MASKS-MISSION-ORDER", "MASKS-MISSION-TRAVEL")
def test_missions_are_completed_in_the_order_they_were_collected():
    # Mission #16 (travel to a Game Action space) is older than #18 (travel through a Portal).
    state = far_apart(at="B3", missions=[[16, 18], []])
    state.apply("move:N")  # A3
    state.apply("move:N")  # Gali
    events = state.apply("move:E")  # A4 is a Portal: #18 is not the oldest, so it stays
    assert not said(events, "completed")
    assert [m.card for m in state.missions[0]] == [16, 18]
    assert state.current_player == 0 and state.phase == "jump"


@rule("MASKS-MISSION-TRAVEL", "MASKS-PORTAL-JUMP")
def test_a_travel_mission_is_completed_on_arrival_and_the_space_still_acts():
    state = far_apart(at="A3", missions=[[18], []])
    events = state.apply("move:E")
    assert said(events, "Pohatu lands on a Portal Space: they must jump to a different Portal space.")
    assert said(events, "Pohatu has completed the Mission. Card #18 is placed face up")
    assert state.legal_actions() == ["jump:C13", "jump:F8", "jump:I7"]
    assert state.describe("jump:F8") == "Jump to the Portal space at F8"
    events = state.apply("jump:F8")
    assert texts(events)[0] == "Pohatu jumps to the Portal space at F8."
    assert position(state, 0) == "F8" and state.current_player == 1


@rule("MASKS-MISSION-SKIP", "MASKS-Q-MUST-MOVE")
def test_a_skip_mission_takes_the_next_move():
    state = far_apart(at="E3", missions=[[13], []])
    # Mission #13 was collected earlier; Player 1's first turn is skipped at once.
    assert state.current_player == 1
    assert state.setup_events[-2].text == "Pohatu skips this move for Mission #13."
    assert state.missions[0] == [] and state.mission_discard == [13]
    state.apply("move:N")
    assert state.current_player == 0


@rule("MASKS-MISSION-SKIP")
def test_a_two_move_skip_mission_takes_two_turns():
    state = far_apart(at="E3", missions=[[20], []], first_player=1)
    state.apply("move:N")
    assert state.missions[0] == [HeldMission(20, 1)] and state.current_player == 1
    events = state.apply("move:S")
    # Seat 1 went first, so Gali's player is the rulebook's Player 1; narration names people.
    assert said(events, "Pohatu skips this move for Mission #20.")
    assert said(events, "Pohatu has completed the Mission. Card #20")
    assert state.current_player == 1


@rule("MASKS-MISSION-MOVE", "MASKS-DEMO-STOPPING-POINT")
def test_a_mission_move_stops_at_the_maps_edge():
    # From the Mission space A10, three spaces East: A11, A12 (Game Action), then the sea.
    state = far_apart(at="B10", mission_pile=[15], action_piles=[[33], []])
    events = state.apply("move:N")
    assert said(events, "Pohatu must move the Pohatu Mask three spaces to the East. They reach a stopping "
                        "point after two spaces.")
    assert position(state, 0) == "A12"
    assert said(events, "Pohatu lands on a Game Action Space")  # the end space counts
    assert state.hands[0] == [33]


@rule("MASKS-MISSION-MOVE", "MASKS-DEMO-STOPPING-POINT", "MASKS-Q-OCCUPIED")
def test_a_mission_move_stops_before_the_other_toa():
    # From the Mission space C7, three spaces East: C8, C9, and Gali stands on C10.
    state = arranged(positions=["C6", "C10"], mission_pile=[15])
    events = state.apply("move:E")
    assert said(events, "They reach a stopping point after two spaces.")
    assert position(state, 0) == "C9"


@rule("MASKS-MISSION-MOVE", "MASKS-Q-MOVE-THROUGH")
def test_a_mission_move_passes_spaces_without_their_icons_acting():
    # From the Mission space D10, East: D11 (Game Action) and D12 are passed, D13 (Challenge) counts.
    state = far_apart(at="C10", mission_pile=[15], challenge_pile=[4])
    events = state.apply("move:S")
    assert position(state, 0) == "D13" and state.hands[0] == []
    assert said(events, "Pohatu lands on a Challenge Space")


@rule("MASKS-MISSION-MOVE", "MASKS-MISSION-ORDER", "MASKS-MISSION-BEFORE-CHALLENGE")
def test_a_mission_move_ends_on_the_furthest_space_it_may_end_on():
    # #16 (travel to a Game Action space), then #9 (three spaces West), then #10 (give up a card).
    state = far_apart(at="D12", missions=[[16, 9, 10], []], action_piles=[[33], []])
    events = state.apply("move:W")  # D11: #16 done, a card drawn, #9 moves West: D10, D9, D8
    # D8 is a Challenge space, closed while #10 is uncompleted: the Toa stops on D9. Passing the
    # Mission space D10 does nothing.
    assert position(state, 0) == "D9"
    assert said(events, "They reach a stopping point after two spaces.")
    assert said(events, "Pohatu gives up Bonus (Card #33) for Mission #10")
    assert state.missions[0] == [] and sorted(state.mission_discard) == [9, 10, 16]


@rule("MASKS-MISSION-MOVE", "MASKS-CHALLENGE-PUSHED")
def test_the_end_space_of_a_mission_move_counts():
    state = far_apart(at="D12", missions=[[16, 9], []], challenge_pile=[4], action_piles=[[33], []])
    events = state.apply("move:W")  # D11, then #9: D10, D9, D8 (Challenge): he attempts it
    assert position(state, 0) == "D8"
    assert said(events, "Pohatu lands on a Challenge Space")
    assert state.phase == "window"  # Pohatu holds the card drawn on D11
    assert said(state.apply("pass"), "Pohatu has a higher score and has won the Great Mask Challenge.")


@rule("MASKS-MISSION-RESHUFFLE")
def test_an_empty_mission_pile_is_refilled_from_the_discard_pile():
    state = far_apart(at="C4", mission_discard=list(range(7, 21)))
    events = state.apply("move:W")
    assert said(events, "The Mission Card draw pile is depleted: the Mission Card discard pile is shuffled "
                        "and placed face down to start a new draw pile.")
    assert len(state.mission_pile) + len(state.mission_discard) + len(state.missions[0]) == 14


@rule("MASKS-MISSION-NONE-LEFT")
def test_no_mission_is_taken_when_every_mission_card_is_held():
    state = far_apart(at="C4", missions=[[16, 17, 18, 19, 10, 11, 12], [7, 8, 9, 15, 13, 14, 20]])
    events = state.apply("move:W")
    assert said(events, "Every Mission card is held by a player: there is no Mission to take.")
    assert len(state.missions[0]) == 7


# -- Great Mask Challenges ------------------------------------------------------------------


@rule("MASKS-CHALLENGE-TIE")
def test_a_tie_goes_to_the_toa_who_landed():
    # Tahu and Pohatu both have a Strength of 800 (both printed; Challenge #4).
    state = arranged(("tahu", "pohatu"), positions=["D2", "I10"], challenge_pile=[4])
    events = state.apply("move:E")
    assert said(events, "It's a tie, and the Toa who landed on the Challenge space wins: Tahu has won the "
                        "Great Mask Challenge.")
    assert state.phase == "claim" and state.current_player == 0


@rule("MASKS-CHALLENGE-TIE", "MASKS-CHALLENGE-LANDER-ONLY")
def test_a_tie_goes_to_player_2_when_he_landed():
    state = arranged(("tahu", "pohatu"), positions=["G2", "D2"], challenge_pile=[4], first_player=1)
    events = state.apply("move:E")
    assert said(events, "Pohatu has won the Great Mask Challenge.")
    assert state.current_player == 1 and state.phase == "claim" and state.won[0] == [] and state.won[1]


@rule("MASKS-CHALLENGE-LANDER-ONLY", "MASKS-CHALLENGE-COMPARE")
def test_the_higher_score_of_the_other_toa_only_stops_the_lander():
    # Swimming: Pohatu 600, Gali 900. Pohatu lands and loses; nobody gets a card.
    state = far_apart(at="D2", challenge_pile=[5])
    events = state.apply("move:E")
    assert said(events, "Gali has a higher score and has stopped Pohatu from winning the Great Mask "
                        "Challenge.")
    assert state.won == [[], []] and state.current_player == 1


@rule("MASKS-CHALLENGE-NOT-TWICE")
def test_the_same_challenge_space_is_closed_until_a_challenge_elsewhere():
    state = far_apart(at="D2", challenge_pile=[5, 1])
    for action in ["move:E", "move:N", "move:W", "move:S"]:  # D3: a challenge (lost); back to D2
        state.apply(action)
    assert "move:E" not in state.legal_actions()
    unchanged_after_illegal(state, "move:E", "the Challenge space last visited")
    state.apply("move:N")  # C2 is another Challenge space: the attempt there (won) reopens D3
    state.apply("keep")
    for action in ["move:N", "move:S", "move:S"]:  # Gali, Pohatu back to D2, Gali
        state.apply(action)
    assert "move:E" in state.legal_actions()


@rule("MASKS-CHALLENGE-RESHUFFLE")
def test_an_empty_challenge_pile_is_refilled_from_the_discard_pile():
    state = far_apart(at="D2", challenge_discard=[1, 2, 3, 4, 5, 6])
    events = state.apply("move:E")
    assert said(events, "The Great Mask Challenge Card draw pile is depleted")
    assert len(state.challenge_pile) == 5 and len(state.challenge_discard) == 1


@rule("MASKS-CHALLENGE-WINDOW", "MASKS-GA-BONUS", "MASKS-GA-ANY-TIME", "MASKS-GA-DISCARD")
def test_in_a_challenge_both_players_may_play_cards_in_turn_until_both_pass():
    # Strength: Tahu 800, Kopaka 700.
    state = arranged(("tahu", "kopaka"), positions=["D2", "I10"], challenge_pile=[4],
                     hands=[[21, 33], [34, 39]])
    state.apply("move:E")
    assert state.current_player == 0 and state.legal_actions() == ["pass", "play:33"]  # not Infected Mask
    state.apply("pass")
    assert state.current_player == 1 and state.legal_actions() == ["pass", "play:34", "play:39"]
    events = state.apply("play:39")
    assert said(events, "Tahu loses 200 points in this challenge.")
    assert state.observation(None)["challenge"]["scores"] == [600, 700]
    assert state.current_player == 0  # a card was played: Pohatu may answer
    state.apply("play:33")
    assert state.observation(None)["challenge"]["scores"] == [800, 700]
    state.apply("play:34")
    assert state.observation(0)["challenge"]["scores"] == [800, 900]
    assert state.current_player == 0
    events = state.apply("pass")  # Gali's hand is empty: he passes without being asked
    assert said(events, "Kopaka has a higher score and has stopped Tahu")
    assert state.action_discard == [[33], [39, 34]]


@rule("MASKS-CHALLENGE-COMPARE", "MASKS-CHALLENGE-REVEAL", "MASKS-ATTACH-BONUS-ONLY-ATTACHED")
def test_scores_count_the_attached_cards_only():
    # Pohatu wears Kanohi Pakari (+100 Strength) and keeps Onewa - Stone Hammer (+200) unattached.
    state = far_apart(at="D2", won=[[83, 89], []], attached=[[83], []], challenge_pile=[4])
    events = state.apply("move:E")
    assert said(events, "Pohatu has a Strength of 900")


@rule("MASKS-CHALLENGE-PUSHED", "MASKS-GA-INFECTED")
def test_a_toa_pushed_onto_a_challenge_space_attempts_the_challenge():
    state = arranged(positions=["I10", "D2"], hands=[[21], []], challenge_pile=[5])
    state.apply("play:21:E")  # Gali pushed onto D3: Swimming, Gali 900 against Pohatu 600
    assert state.won[1] and state.current_player == 1 and state.phase == "claim"


# -- Game Action spaces and cards -----------------------------------------------------------


@rule("MASKS-GA-DRAW", "MASKS-GA-HIDDEN")
def test_a_game_action_space_draws_a_card_told_only_to_its_owner():
    state = far_apart(at="E2", action_piles=[[33], []])
    events = state.apply("move:W")
    assert state.hands[0] == [33]
    assert said(events, "They draw Card #33 (Bonus).", seat=0)
    assert not said(events, "#33", seat=1) and not said(events, "#33", seat=None)
    assert events[-1].view(0)["cards"] == [33] and "cards" not in events[-1].view(1)
    assert state.observation(1)["toa"][0]["hand_size"] == 1 and state.observation(1)["hand"] == []


@rule("MASKS-GA-HAND-LIMIT")
def test_a_full_hand_draws_nothing():
    state = far_apart(at="E2", hands=[[21, 22, 27, 33, 37], []])
    events = state.apply("move:W")
    assert said(events, "They have five cards in their hand, so they do not pick up another Game Action "
                        "Card.")
    assert len(state.hands[0]) == 5


@rule("MASKS-GA-DRAW-TWO", "MASKS-GA-HAND-LIMIT", "MASKS-GA-DISCARD")
def test_draw_two_discards_the_card_then_draws_two_up_to_five():
    state = far_apart(at="E3", hands=[[27, 33], []], action_piles=[[34, 35, 36], []])
    events = state.apply("play:27")
    assert said(events, "They discard it and draw two new cards.")
    assert state.hands[0] == [33, 34, 35] and state.action_discard[0] == [27]
    assert state.current_player == 0 and state.phase == "turn"  # still before the move
    state = far_apart(at="E3", hands=[[21, 22, 27, 33, 37], []], action_piles=[[34, 35], []])
    events = state.apply("play:27")
    assert said(events, "They can draw only one: their hand is full.")
    assert len(state.hands[0]) == 5


@rule("MASKS-GA-NOT-TWICE")
def test_the_same_game_action_space_is_closed_until_another_or_a_challenge():
    state = far_apart(at="E2", challenge_pile=[5])
    for action in ["move:W", "pass", "move:N", "move:E", "move:S"]:  # E1 (draws), Gali, back to E2, Gali
        state.apply(action)
    assert "move:W" not in state.legal_actions()
    unchanged_after_illegal(state, "move:W", "the Game Action space last visited")
    for action in ["move:N", "move:N", "move:E", "pass"]:  # D2, Gali, D3: a Challenge attempt
        state.apply(action)
    for action in ["move:S", "move:W", "move:N", "move:S", "move:S"]:  # ... back to E2
        state.apply(action)
    assert position(state, 0) == "E2" and "move:W" in state.legal_actions()


@rule("MASKS-GA-RESHUFFLE", "MASKS-GA-KNOWN")
def test_an_empty_game_action_pile_is_refilled_and_the_hand_becomes_known():
    hand = [21, 22]
    discard = [n for n in range(23, 41)]
    state = far_apart(at="E2", hands=[hand, []], action_discards=[discard, []])
    events = state.apply("move:W")
    assert said(events, "Pohatu's Game Action Card draw pile is depleted: they shuffle their discard pile")
    obs = state.observation(1)
    assert obs["toa"][0]["known_in_hand"] == [21, 22]  # everyone saw the other 18 go back
    assert obs["toa"][0]["hand_size"] == 3
    state.apply("pass")  # nothing to play before the turn passes (Infected Mask replaces a move)
    state.apply("move:N")  # Gali
    state.apply("play:21:N")  # a known card is played: no longer in the hand
    assert state.observation(1)["toa"][0]["known_in_hand"] == [22]


@rule("MASKS-GA-INFECTED", "MASKS-GA-PUSH-TARGET")
def test_infected_mask_pushes_only_where_the_other_toa_could_go():
    # Gali on D2 with a Mission: C2 and D3 (Challenge) are closed to her; Pohatu stands on E2.
    state = arranged(positions=["E2", "D2"], hands=[[21], []], missions=[[], [16]])
    assert [a for a in state.legal_actions() if a.startswith("play:21")] == ["play:21:W"]
    error = unchanged_after_illegal(state, "play:21:S", "occupied by Pohatu's Toa Mask")
    assert "of Gali" in str(error.value)
    unchanged_after_illegal(state, "play:21:E", "Mission #16 must be completed first")
    events = state.apply("play:21:W")
    assert position(state, 1) == "D1"
    assert said(events, "Because Pohatu used their turn to move Gali's Toa Mask, it's now Gali's "
                        "turn to move.")
    assert state.current_player == 1 and state.action_discard[0] == [21]


@rule("MASKS-GA-SKIP", "MASKS-GA-ANY-TIME")
def test_a_penalty_makes_the_opponent_skip_his_next_move():
    state = far_apart(at="E3", hands=[[37], []])
    events = state.apply("play:37")
    assert said(events, "Gali will skip their next move.")
    assert state.current_player == 0  # the card does not end the turn
    events = state.apply("move:N")
    assert said(events, "Gali must skip this move (Penalty).")
    assert state.current_player == 0 and state.skips == [0, 0]


@rule("MASKS-GA-ANY-TIME", "MASKS-GA-SKIP")
def test_penalty_37_drawn_on_a_game_action_space_skips_the_move_the_opponent_is_about_to_make():
    # "Unless the card says otherwise, Game Action cards can be played at any time."
    state = far_apart(at="E2", action_piles=[[37], []])
    state.apply("move:W")  # E1: Pohatu draws Penalty #37
    assert state.current_player == 0 and state.phase == "anytime"
    assert state.legal_actions() == ["pass", "play:37"]
    assert state.response_window() == "pass"
    events = state.apply("play:37")
    assert said(events, "Gali will skip their next move.")
    assert said(events, "Gali must skip this move (Penalty).")  # the very next move
    assert state.current_player == 0 and state.phase == "turn" and position(state, 1) == "I10"


@rule("MASKS-GA-ANY-TIME", "MASKS-GA-DRAW-TWO")
def test_a_reward_drawn_after_a_move_may_draw_a_penalty_that_is_played_at_once():
    state = far_apart(at="E2", action_piles=[[27, 37, 33], []])
    state.apply("move:W")  # E1: Reward #27
    state.apply("play:27")  # draws Penalty #37 and Bonus #33: the window opens again
    assert state.hands[0] == [33, 37] and state.phase == "anytime"
    assert state.legal_actions() == ["pass", "play:37"]  # not the Bonus: no challenge is on
    unchanged_after_illegal(state, "play:33", "Bonus is played during a Great Mask Challenge, not now")
    state.apply("play:37")
    assert state.phase == "anytime" and state.legal_actions() == ["pass"]  # the Bonus is left
    assert state.describe("pass") == "Play no card now: the turn passes"
    events = state.apply("pass")
    assert texts(events)[0] == "Pohatu plays no Game Action Card now."
    assert said(events, "Gali must skip this move (Penalty).") and state.current_player == 0


@rule("MASKS-GA-ANY-TIME")
def test_a_move_that_draws_no_card_passes_the_turn_without_a_window():
    # A card held before the move was offered in the turn window; the same play now would
    # skip the same move of Gali's, so it is not offered twice.
    state = far_apart(at="E3", hands=[[37], []])
    state.apply("move:S")
    assert state.current_player == 1 and state.phase == "turn"
    state = far_apart(at="E2", hands=[[21, 22, 27, 33, 37], []])  # a full hand draws nothing on E1
    state.apply("move:W")
    assert state.current_player == 1 and state.phase == "turn"


@rule("MASKS-GA-ANY-TIME", "MASKS-MISSION-SKIP", "MASKS-GA-SKIP")
def test_a_player_whose_move_is_skipped_may_still_play_a_card_in_that_turn():
    state = far_apart(at="E3", missions=[[], [13]], hands=[[], [37]])
    events = state.apply("move:S")
    assert said(events, "Gali skips this move for Mission #13.")
    assert state.current_player == 1 and state.phase == "anytime"
    assert state.legal_actions() == ["pass", "play:37"]
    events = state.apply("play:37")
    assert said(events, "Pohatu must skip this move (Penalty).")
    assert state.current_player == 1 and state.phase == "turn"


@rule("MASKS-GA-ANY-TIME", "MASKS-GA-INFECTED")
def test_a_toa_pushed_onto_a_game_action_space_plays_the_card_drawn_in_his_own_turn():
    # Pohatu pushes Gali from E2 onto E1, where she draws Penalty #37; her turn comes next.
    state = arranged(positions=["E3", "E2"], hands=[[21, 33], []], action_piles=[[], [37]])
    state.apply("play:21:W")
    assert state.current_player == 1 and state.phase == "turn" and "play:37" in state.legal_actions()
    # The same with Gali's coming move skipped by a Mission: she plays it in that turn.
    state = arranged(positions=["E3", "E2"], hands=[[21, 33], []], action_piles=[[], [37]],
                     missions=[[], [13]])
    events = state.apply("play:21:W")
    assert said(events, "Gali skips this move for Mission #13.")
    assert state.current_player == 1 and state.phase == "anytime"
    events = state.apply("play:37")
    assert said(events, "Pohatu must skip this move (Penalty).")
    assert state.current_player == 0 and state.legal_actions() == ["pass"]  # his Bonus: asked all the same
    state.apply("pass")
    assert state.current_player == 1 and state.phase == "turn"


@rule("MASKS-GA-ANY-TIME", "MASKS-CHALLENGE-WINDOW")
def test_a_card_drawn_before_a_challenge_of_the_same_move_is_offered_in_the_challenge_only():
    # Pohatu owes a card (Mission #10) and must then go three spaces East (#15). On the double
    # Game Action space E7 he draws two, gives one up, and #15 ends him on the Challenge space E10.
    state = far_apart(at="E6", missions=[[10, 15], []], action_piles=[[37, 33], []], challenge_pile=[5])
    state.apply("move:E")
    state.apply("discard:33")
    assert position(state, 0) == "E10" and state.phase == "window"
    assert state.legal_actions() == ["pass", "play:37"]
    state.apply("pass")  # Gali's hand is empty; Swimming: Gali 900 stops Pohatu's 600
    assert state.current_player == 1 and state.phase == "turn"


@rule("MASKS-GA-ANY-TIME", "MASKS-GA-BONUS")
def test_challenge_cards_are_not_played_outside_a_challenge():
    state = far_apart(at="E3", hands=[[33, 39], []])
    assert not [a for a in state.legal_actions() if a.startswith("play:")]
    unchanged_after_illegal(state, "play:33", "this Bonus is played during a Great Mask Challenge")


@rule("MASKS-GA-WINDOW-INFO", "MASKS-CHALLENGE-WINDOW")
def test_a_player_with_cards_is_asked_in_a_challenge_even_when_he_cannot_play():
    state = arranged(positions=["D2", "I10"], hands=[[], [21]], challenge_pile=[4])
    state.apply("move:E")
    # Player 1's hand is empty (public): not asked. Player 2 holds only an Infected Mask: asked.
    assert state.current_player == 1 and state.legal_actions() == ["pass"]
    assert state.describe("pass") == "Play no card in this challenge"


# -- Portals and double spaces ------------------------------------------------------------


@rule("MASKS-PORTAL-JUMP")
def test_a_portal_jump_goes_to_another_free_portal():
    state = arranged(positions=["C12", "F8"])
    state.apply("move:E")
    assert state.legal_actions() == ["jump:A4", "jump:I7"]  # not C13 itself, not Gali's F8
    unchanged_after_illegal(state, "jump:F8", "not a free Portal space")
    events = state.apply("jump:I7")
    assert position(state, 0) == "I7" and len(events) == 1  # arriving sets off nothing


@rule("MASKS-DOUBLE")
def test_a_double_game_action_space_draws_two():
    state = far_apart(at="E6", action_piles=[[33, 34], []])
    events = state.apply("move:E")
    assert said(events, "this means they get to draw two cards from their Game Action pile of cards.")
    assert state.hands[0] == [33, 34]


@rule("MASKS-DOUBLE", "MASKS-ATTACH-AFTER-WIN")
def test_a_double_challenge_space_holds_two_challenges():
    state = far_apart(at="D7", challenge_pile=[4, 5], mask_piles=[[83], []])
    events = state.apply("move:E")
    assert said(events, "this means they get to attempt two Great Mask Challenges.")
    assert said(events, "Pohatu has a higher score and has won")  # Strength
    assert said(events, "reveal Card #5")
    assert said(events, "Gali has a higher score and has stopped Pohatu")  # Swimming
    assert state.phase == "claim" and state.legal_actions() == ["attach:83", "keep"]
    state.apply("keep")
    assert state.won == [[83], []] and state.current_player == 1


@rule("MASKS-DOUBLE", "MASKS-ATTACH-BEFORE-MOVE", "MASKS-ATTACH-AFTER-WIN", "MASKS-CHALLENGE-WINDOW")
def test_a_card_won_in_the_first_of_two_challenges_does_not_count_in_the_second():
    # "You must decide which Great Mask Card will be attached before you move your Toa." Pohatu
    # wins the Kanohi Hau (Shielding +100) in the first challenge (Strength, 800 to 500); the
    # second (Shielding) is 700 to Gali's 600 + a Bonus of 200: the Hau, won during the move,
    # is not attached yet, so Gali stops him (with it he would tie, and the lander wins ties).
    state = far_apart(at="D7", challenge_pile=[4, 1], mask_piles=[[86, 83], []], hands=[[], [33]])
    state.apply("move:E")
    events = state.apply("pass")  # Gali keeps his Bonus for the second challenge
    assert said(events, "Pohatu has a higher score and has won") and said(events, "reveal Card #1")
    assert state.phase == "window" and state.current_player == 1  # the second challenge: no claim between
    events = state.apply("play:33")
    assert said(events, "Pohatu has a Shielding of 700, and Gali has a Shielding of 800")
    assert said(events, "Gali has a higher score and has stopped Pohatu")
    assert state.phase == "claim" and state.claim == 86 and state.legal_actions() == ["attach:86", "keep"]
    state.apply("attach:86")
    assert state.observation(None)["toa"][0]["skills"][1] == 800 and state.current_player == 1


# -- Great Mask and Turaga cards -------------------------------------------------------------


@rule("MASKS-ATTACH-AFTER-WIN", "MASKS-ATTACH-OPTIONAL", "MASKS-ATTACH-PLACEMENT")
def test_a_won_card_may_be_kept_unattached():
    state = far_apart(at="D2", challenge_pile=[4], mask_piles=[[88], []])
    state.apply("move:E")
    assert state.legal_actions() == ["attach:88", "keep"]
    events = state.apply("keep")
    assert texts(events)[0] == "Pohatu places Onewa (Card #88) below their Toa card, unattached."
    toa = state.observation(None)["toa"][0]
    assert toa["won"] == [88] and toa["turaga"] is None and toa["skills"] == [300, 700, 900, 800, 600, 400]


@rule("MASKS-ATTACH-BEFORE-MOVE", "MASKS-ATTACH-ONE-EACH", "MASKS-ATTACH-BONUS-ONLY-ATTACHED",
      "MASKS-NEVER-DISCARDED")
def test_attachments_change_before_the_move_once_per_kind():
    state = far_apart(at="E3", won=[[86, 83, 88], []], attached=[[86], []])
    actions = state.legal_actions()
    assert "attach:83" in actions and "attach:88" in actions and "attach:86" not in actions
    events = state.apply("attach:83")
    assert texts(events)[0] == ("Pohatu decides to equip their Toa with Pohatu - Kanohi Pakari (Card #83): "
                                "“Add 100 points to Strength”. Pohatu - Kanohi Hau is no longer attached.")
    toa = state.observation(None)["toa"][0]
    assert toa["mask"] == 83 and toa["won"] == [86, 83, 88]
    assert toa["skills"][1] == 700 and toa["skills"][3] == 900
    actions = state.legal_actions()
    assert "attach:86" not in actions and "attach:88" in actions  # one mask change per turn
    unchanged_after_illegal(state, "attach:86", "one change of Great Mask")
    state.apply("attach:88")
    assert state.observation(None)["toa"][0]["skills"] == [300, 800, 900, 1000, 600, 400]
    state.apply("move:N")
    assert state.observation(None)["toa"][0]["won"] == [86, 83, 88]


@rule("MASKS-ATTACH-BEFORE-MOVE")
def test_nothing_is_attached_outside_ones_turn_window():
    state = arranged(positions=["D2", "I10"], won=[[], [93]], challenge_pile=[4], hands=[[], [33]])
    state.apply("move:E")
    assert state.current_player == 1 and "attach:93" not in state.legal_actions()
    unchanged_after_illegal(state, "attach:93", "before the move or right after winning")


# -- winning ---------------------------------------------------------------------------------


@rule("MASKS-OBJECT-WIN")
def test_the_sixth_great_mask_wins_at_once():
    state = far_apart(at="D2", won=[[82, 83, 84, 85, 87, 88, 89, 90], []], mask_piles=[[86], []],
                      challenge_pile=[4])
    events = state.apply("move:E")
    assert texts(events)[-1] == ("Pohatu has collected all six of Pohatu's Great Mask cards and wins the "
                                 "game!")
    assert state.is_over and state.winners == [0] and state.returns() == [1.0, -1.0]
    assert state.current_player is None and state.legal_actions() == []
    with pytest.raises(IllegalAction, match="the game is over"):
        state.apply("move:N")


@rule("MASKS-OBJECT-WIN")
def test_turaga_cards_do_not_count_towards_the_six_masks():
    state = far_apart(at="D2", won=[[82, 83, 84, 85, 86], []], mask_piles=[[88], []], challenge_pile=[4])
    state.apply("move:E")
    assert not state.is_over and state.phase == "claim"


@rule("MASKS-SHORT-GAME")
def test_the_shorter_game_is_won_with_three_great_masks():
    state = far_apart(at="D2", options={"short": True}, won=[[82, 83], []], mask_piles=[[84], []],
                      challenge_pile=[4])
    assert state.observation(None)["masks_to_win"] == 3
    events = state.apply("move:E")
    assert said(events, "Pohatu has collected three of Pohatu's Great Mask cards and wins the shorter "
                        "game!")
    assert state.winners == [0]


@rule("MASKS-TURN-LIMIT")
def test_the_turn_limit_draws_the_game():
    state = far_apart(at="E3", options={"turn_limit": 10})
    events = []
    while not state.is_over:
        events = state.apply(state.legal_actions()[0])
    assert texts(events)[-1] == "The turn limit (10) is reached: the game is drawn."
    assert state.is_over and state.winners == [] and state.returns() == [0.0, 0.0]
    assert state.turn == 11


@rule("MASKS-BOXED-IN")
def test_a_boxed_in_toa_waits():
    # Pohatu on B2: A2 and B1 are sea, Gali stands on B3, and C2 (Challenge) is closed by a Mission.
    # Boxed in with an empty hand: the turn passes without asking.
    state = arranged(positions=["B2", "B3"], missions=[[16], []])
    assert state.setup_events[0].text.startswith("The Pohatu Mask stands on B2 and the Gali Mask on B3, as "
                                                 "arranged.")
    assert state.current_player == 1
    assert state.setup_events[-1].text == ("Pohatu cannot move their Toa Mask and has no card to play: they "
                                           "wait.")
    # Boxed in with a card in hand: asked, and may only wait (or play what can be played).
    state = arranged(positions=["B2", "B3"], missions=[[16], []], hands=[[33], []])
    assert state.current_player == 0 and state.legal_actions() == ["wait"]
    events = state.apply("wait")
    assert texts(events)[0] == "Pohatu cannot move their Toa Mask: they wait."
    assert state.current_player == 1


# -- set-up ----------------------------------------------------------------------------------


@rule("MASKS-SETUP-MASK-PILES", "MASKS-SETUP-GA-PILES", "MASKS-SETUP-SHARED-PILES", "MASKS-SETUP-SEPARATE",
      "MASKS-CONTENTS")
def test_set_up_deals_each_player_his_own_piles_and_shares_two():
    state = GAME.new_game(3, ["tahu", "gali"])
    assert sorted(state.mask_pile[0]) == list(range(42, 51))
    assert sorted(state.mask_pile[1]) == list(range(92, 101))
    assert sorted(state.action_pile[0]) == sorted(state.action_pile[1]) == list(range(21, 41))
    assert sorted(state.challenge_pile) == list(range(1, 7))
    assert sorted(state.mission_pile) == list(range(7, 21))
    assert state.hands == [[], []] and state.won == [[], []]
    other = GAME.new_game(4, ["tahu", "gali"])
    # shuffled by seed
    assert other.mask_pile[0] != state.mask_pile[0] or other.action_pile[0] != state.action_pile[0]
    total = sum(len(p) for p in state.mask_pile + state.action_pile)
    total += len(state.challenge_pile) + len(state.mission_pile)
    assert total + len(state.players) == 80  # with the two Toa cards, a theme deck's 80 game cards
    state.audit()


@rule("MASKS-SETUP-FIRST")
def test_rock_paper_scissors_is_a_fair_seeded_choice_of_first_player():
    firsts = [GAME.new_game(seed, ["tahu", "kopaka"]).current_player for seed in range(400)]
    assert 150 < firsts.count(0) < 250
    assert firsts == [GAME.new_game(seed, ["tahu", "kopaka"]).current_player for seed in range(400)]

@rule("MASKS-SETUP-FIRST", "MASKS-SETUP-START-SPACES")
def test_whoever_goes_first_is_player_1_and_starts_west():
    # "Play Rock-Paper-Scissors to determine who goes first. Player 1 places his Toa Mask in the
    # Start Space to the West. Player 2 places his Toa Mask in the Start Space to the East."
    for options in ({"first_player": 1}, {}):
        state = GAME.new_game(1, ["tahu", "kopaka"], options)  # seed 1: Rock-Paper-Scissors picks seat 1
        assert state.current_player == 1 and state.observation(None)["positions"] == ["H9", "G2"]
        assert state.setup_events[0].text.startswith(
            "Kopaka places the Kopaka Mask on the Start Space to the West (G2). Tahu places the Tahu "
            "Mask on the Start Space to the East (H9).")
        assert state.setup_events[0].text.endswith("Kopaka goes first.")
        assert texts(state.apply("move:N")) == ["Kopaka moves the Kopaka Mask one space to the North."]
    state = GAME.new_game(1, ["tahu", "kopaka"], {"first_player": 0})
    assert state.current_player == 0 and state.observation(None)["positions"] == ["G2", "H9"]
    both = GAME.new_game(1, ["tahu", "gali"], {"map": "both", "first_player": 1})
    assert both.observation(None)["positions"] == ["E26", "G2"]


@rule("MASKS-SETUP-CHOOSE-TOA", "MASKS-SETUP-THEME-DECKS")
def test_each_player_chooses_a_different_toa():
    with pytest.raises(BadSetup, match="each player chooses a different Toa"):
        GAME.new_game(1, ["tahu", "tahu"])
    with pytest.raises(BadSetup, match="'vakama' is not a Toa of Quest for the Masks; choose from: tahu"):
        GAME.new_game(1, ["vakama", "tahu"])
    with pytest.raises(BadSetup, match="exactly 2 players"):
        GAME.new_game(1, ["tahu"])
    assert GAME.characters() == ["tahu", "kopaka", "onua", "lewa", "pohatu", "gali"]
    # Toa of different theme decks may meet.
    assert GAME.new_game(1, ["tahu", "gali"]).players == ("tahu", "gali")
    assert [deck.toa for deck in GAME.cards.theme_decks] == [("pohatu", "gali"), ("tahu", "kopaka"),
                                                             ("onua", "lewa")]


@rule("MASKS-SETUP-MAP", "MASKS-SETUP-BOTH-MATS")
def test_either_side_or_both_mats_can_be_played():
    first = {"first_player": 0}
    assert GAME.new_game(1, ["tahu", "gali"], first).observation(None)["positions"] == ["G2", "H9"]
    side_b = GAME.new_game(1, ["tahu", "gali"], {"map": "b", **first})
    assert side_b.observation(None)["positions"] == ["E3", "E12"] and side_b.board.width == 14
    both = GAME.new_game(1, ["tahu", "gali"], {"map": "both", **first})
    assert both.board.width == 28 and both.observation(None)["positions"] == ["G2", "E26"]
    # The two inner start spaces (side A's East, side B's West) are blank spaces.
    symbols = both.board.symbols
    assert symbols[both.board.cell("H9")] == symbols[both.board.cell("E17")] == "."
    with pytest.raises(BadSetup, match="option map must be 'a', 'b' or 'both', not 'c'"):
        GAME.new_game(1, ["tahu", "gali"], {"map": "c"})
    with pytest.raises(BadSetup, match="option map must be 'a', 'b' or 'both', not \\['a'\\]"):
        GAME.new_game(1, ["tahu", "gali"], {"map": ["a"]})


def test_bad_options_and_arrangements_say_what_is_allowed():
    with pytest.raises(BadSetup, match="masks has no option 'advanced'; its options are: map"):
        GAME.new_game(1, ["tahu", "gali"], {"advanced": True})
    with pytest.raises(BadSetup, match="option short must be true or false"):
        GAME.new_game(1, ["tahu", "gali"], {"short": "yes"})
    with pytest.raises(BadSetup, match="option turn_limit must be a whole number from 10 to 10000"):
        GAME.new_game(1, ["tahu", "gali"], {"turn_limit": 5})
    with pytest.raises(BadSetup, match="option first_player must be 'rps', 0 or 1"):
        GAME.new_game(1, ["tahu", "gali"], {"first_player": 2})
    with pytest.raises(BadSetup, match="masks has no arrangement 'draw_pile'; its arrangement keys are: "
                                       "first_player: "):
        arranged(draw_pile=[1])
    with pytest.raises(BadSetup, match="arrangement 'hands' for seat 0 is 7; allowed: "):
        arranged(hands=[[7], []])
    with pytest.raises(BadSetup, match="arrangement 'mask_piles' has card #42"):
        arranged(mask_piles=[[42], []])  # Tahu's card in Pohatu's pile
    with pytest.raises(BadSetup, match="places a card twice"):
        arranged(hands=[[21], []], action_discards=[[21], []])
    with pytest.raises(BadSetup, match="at most 5"):
        arranged(hands=[[21, 22, 23, 24, 25, 26], []])
    with pytest.raises(BadSetup, match="arrangement 'positions' must name two different spaces"):
        arranged(positions=["A1", "G2"])  # A1 is sea
    with pytest.raises(BadSetup, match="two cards of one kind"):
        arranged(won=[[82, 83], []], attached=[[82, 83], []])
    with pytest.raises(BadSetup, match="that game is already over"):
        arranged(won=[[82, 83, 84, 85, 86, 87], []])
    with pytest.raises(BadSetup, match="the seed must be a whole number"):
        GAME.new_game("1", ["tahu", "gali"])


def test_illegal_actions_say_why_and_change_nothing():
    state = far_apart(at="E3", hands=[[21], []])
    unchanged_after_illegal(state, "play:27", "card #27 is not in Pohatu's hand")
    unchanged_after_illegal(state, "play:99", "there is no Game Action card #99")
    unchanged_after_illegal(state, "play:21", "say which way to move the opponent's Toa Mask")
    unchanged_after_illegal(state, "jump:A4", "jumps are made from a Portal space just entered")
    unchanged_after_illegal(state, "keep", "'keep' answers a card just won")
    unchanged_after_illegal(state, "discard:21", "that card cannot be played now")
    unchanged_after_illegal(state, "wait", "must always move one space when it can")
    unchanged_after_illegal(state, "attach:86", "has not won a card #86")
    unchanged_after_illegal(state, "fly", "not legal for Pohatu now")
    assert state.history == []
