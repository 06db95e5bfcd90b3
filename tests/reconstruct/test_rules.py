"""Toa Nuva Reconstruct, rule by rule, as the rulebook states it.

Card numbers refer to our reconstructed deck (data/actions.toml): #1 adds Left Leg, Right Leg
or Tool (the rulebook's pictured example), #6 removes Head or Kanohi Nuva (its other example),
#8, #15 and #22 are stop cards, #2 adds Right Leg, Left Arm or Right Arm, #13 removes Left
Arm or Right Arm.
"""

import random

import pytest

from matanui import games
from matanui.engine import BadSetup, IllegalAction
from tests.ledger import rule

GAME = games.get("reconstruct")
ALL = ["left-leg", "right-leg", "left-arm", "right-arm", "head", "kanohi-nuva", "tool"]


def arranged(**arrangement):
    options = arrangement.pop("options", {})
    arrangement.setdefault("first_player", 0)
    # Unless a test says otherwise, the first draws are stop cards, harmless on one's own turn.
    arrangement.setdefault("draw_pile", [35, 36])
    return GAME.arrange(["tahu", "kopaka"], options, **arrangement)


@rule("RECON-SETUP-PARTS", "RECON-SETUP-SHUFFLE", "RECON-SETUP-DEAL")
def test_set_up_gives_empty_mats_a_shared_pile_and_three_cards_each():
    state = GAME.new_game(3, ["tahu", "kopaka"])
    obs = state.observation(None)
    assert obs["built"] == [[], []]
    # The first player has already drawn for the first turn (Step 1).
    first = state.current_player
    assert obs["hand_sizes"][first] == 4 and obs["hand_sizes"][1 - first] == 3
    assert obs["draw_pile_size"] == 36 - 7
    assert GAME.new_game(4, ["tahu", "kopaka"]).draw != state.draw  # shuffled by the seed


@rule("RECON-SETUP-DEAL")
def test_the_deal_takes_the_top_three_cards_for_each_player_in_turn():
    state = arranged(draw_pile=[1, 2, 3, 11, 12, 13, 24])
    assert sorted(state.hands[0]) == [1, 2, 3, 24]  # 3 dealt, then Step 1 draws #24
    assert sorted(state.hands[1]) == [11, 12, 13]


@rule("RECON-SETUP-SAME-TOA")
def test_two_players_cannot_build_the_same_toa_nuva():
    with pytest.raises(BadSetup, match="only one player can build each Toa Nuva"):
        GAME.new_game(1, ["tahu", "tahu"])


@rule("RECON-SETUP-FIRST")
def test_rock_paper_scissors_is_a_fair_seeded_choice_of_first_player():
    firsts = [GAME.new_game(seed, ["tahu", "kopaka"]).current_player for seed in range(400)]
    assert 150 < firsts.count(0) < 250
    assert firsts == [GAME.new_game(seed, ["tahu", "kopaka"]).current_player for seed in range(400)]
    assert GAME.new_game(1, ["tahu", "kopaka"], {"first_player": 1}).current_player == 1


@rule("RECON-DRAW", "RECON-TURN-ORDER")
def test_each_turn_starts_with_one_card_drawn_and_turns_alternate():
    state = arranged(hands=[[1], [2]], draw_pile=[11, 12, 13])
    assert sorted(state.hands[0]) == [1, 11]
    events = state.apply("pass")
    assert state.current_player == 1
    assert sorted(state.hands[1]) == [2, 12]
    assert [e.text for e in events] == [
        "Tahu Nuva plays no Game Action Card this turn.",
        "Kopaka Nuva draws 1 Game Action Card.",
    ]


@rule("RECON-DRAW")
def test_the_drawn_card_is_told_only_to_its_drawer():
    state = arranged(hands=[[1], [2]], draw_pile=[11, 12])
    draw_event = state.apply("pass")[-1]
    assert draw_event.view(1)["cards"] == [12]
    assert "#12" in draw_event.view(1)["text"]
    assert "cards" not in draw_event.view(0) and "#12" not in draw_event.view(0)["text"]
    assert "cards" not in draw_event.view(None)


@rule("RECON-ADD", "RECON-PLAY-ONE", "RECON-DISCARD")
def test_an_add_card_adds_one_of_its_parts_then_is_discarded_face_up():
    state = arranged(hands=[[1], [22]], draw_pile=[30, 31])
    assert [a for a in state.legal_actions() if a.startswith("add:1:")] == [
        "add:1:left-leg", "add:1:right-leg", "add:1:tool"]
    state.apply("add:1:left-leg")
    assert state.current_player == 1  # the opponent may answer with a stop card
    events = state.apply("allow")
    assert events[0].text == "Tahu Nuva adds their Left Leg (1 of 7)."
    assert state.observation(None)["built"][0] == ["left-leg"]
    assert state.discard == [1]
    assert state.current_player == 1 and state.turn_player == 1


@rule("RECON-ADD")
def test_a_part_already_built_is_not_offered_again():
    state = arranged(hands=[[1], []], built=[["left-leg", "tool"], []])
    assert [a for a in state.legal_actions() if a.startswith("add:")] == ["add:1:right-leg"]
    with pytest.raises(IllegalAction, match="Left Leg is already built"):
        state.apply("add:1:left-leg")


@rule("RECON-PLAY-ONE")
def test_only_one_card_is_played_per_turn():
    state = arranged(hands=[[1, 2], [31]], draw_pile=[30])
    state.apply("add:1:left-leg")
    state.apply("allow")
    assert state.turn_player == 1  # the second add card waits for a later turn
    assert 2 in state.hands[0]


@rule("RECON-ADD-ANY-TOA")
def test_kanohi_and_tool_icons_build_any_toa_nuva():
    state = GAME.arrange(["pohatu", "gali"], {"first_player": 0}, hands=[[4], []])
    state.apply("add:4:kanohi-nuva")
    state.apply("allow")
    assert state.observation(0)["built"][0] == ["kanohi-nuva"]


@rule("RECON-REMOVE")
def test_a_remove_card_makes_the_opponent_put_back_the_chosen_part():
    state = arranged(hands=[[6], []], built=[[], ["head", "kanohi-nuva"]])
    assert [a for a in state.legal_actions() if a.startswith("remove:")] == [
        "remove:6:head", "remove:6:kanohi-nuva"]
    state.apply("remove:6:kanohi-nuva")
    events = state.apply("allow")
    assert events[0].text == "Kopaka Nuva puts back their Kanohi Nuva."
    assert state.observation(None)["built"][1] == ["head"]


@rule("RECON-REMOVE-ONLY-MATCHING")
def test_a_remove_card_needs_a_matching_part_on_the_opponents_mat():
    state = arranged(hands=[[6], []], built=[[], ["tool"]])
    assert state.legal_actions() == ["pass"]
    before = state.observation(0)
    with pytest.raises(IllegalAction, match="has no Head to remove"):
        state.apply("remove:6:head")
    assert state.observation(0) == before


@rule("RECON-STOP", "RECON-STOP-DRAW-TWO")
def test_a_stop_card_ends_the_turn_and_its_player_starts_by_drawing_two():
    state = arranged(hands=[[1], [8]], draw_pile=[30, 31, 32, 33])
    state.apply("add:1:tool")
    assert state.legal_actions() == ["allow", "stop:8"]
    events = state.apply("stop:8")
    assert events[0].text == ("Kopaka Nuva plays stop card #8: Tahu Nuva's card #1 does nothing "
                              "and the turn is over.")
    assert events[1].text == "Kopaka Nuva draws 2 Game Action Cards."
    assert state.observation(None)["built"][0] == []
    assert state.discard == [1, 8]  # the stopped card, then the stop card
    assert state.turn_player == 1 and sorted(state.hands[1]) == [31, 32]


@rule("RECON-STOP")
def test_a_remove_card_can_be_stopped_too():
    state = arranged(hands=[[6], [15]], built=[[], ["head"]])
    state.apply("remove:6:head")
    state.apply("stop:15")
    assert state.observation(None)["built"][1] == ["head"]


@rule("RECON-STOP-ONLY-OPPONENT")
def test_a_stop_card_cannot_be_played_on_your_own_turn_nor_stopped():
    state = arranged(hands=[[8, 1], [15, 22]])
    with pytest.raises(IllegalAction, match="a stop card answers the opponent's played card"):
        state.apply("stop:8")
    state.apply("add:1:tool")
    state.apply("stop:15")
    assert state.phase == "play" and state.current_player == 1  # no answer to a stop


@rule("RECON-STOP-WINDOW-ALWAYS")
def test_the_answer_step_is_offered_even_without_a_stop_card():
    state = arranged(hands=[[1], [2]])
    state.apply("add:1:tool")
    assert state.current_player == 1 and state.legal_actions() == ["allow"]


@rule("RECON-PLAY-OPTIONAL", "RECON-HAND-SIZE")
def test_a_player_may_play_no_card_and_keeps_the_whole_hand():
    state = arranged(hands=[[8, 15, 22, 29, 35], []], draw_pile=[36])
    assert state.legal_actions() == ["pass"]
    state.apply("pass")
    assert len(state.hands[0]) == 6


@rule("RECON-WIN")
def test_the_seventh_part_wins_at_once():
    state = arranged(hands=[[1], [2]], built=[ALL[:6], []])
    state.apply("add:1:tool")
    events = state.apply("allow")
    assert events[-1].text == "Tahu Nuva has built all 7 parts of their Toa Nuva and wins the game!"
    assert state.is_over and state.winners == [0] and state.returns() == [1.0, -1.0]
    assert state.current_player is None and state.legal_actions() == []
    with pytest.raises(IllegalAction, match="the game is over"):
        state.apply("pass")


@rule("RECON-WIN", "RECON-STOP")
def test_a_stopped_seventh_part_does_not_win():
    state = arranged(hands=[[1], [8]], built=[ALL[:6], []])
    state.apply("add:1:tool")
    state.apply("stop:8")
    assert not state.is_over


@rule("RECON-ADVANCED-TRADE")
def test_advanced_trade_swaps_a_card_for_a_same_coloured_one_and_ends_the_turn():
    # Discard holds #3 (red) and #12 (blue); Player 1 holds #2 (red).
    state = arranged(options={"advanced": True}, hands=[[2], [9]], discard=[3, 12],
                     draw_pile=[30, 31])
    assert state.phase == "start"
    assert state.legal_actions() == ["draw", "trade:2:3"]
    events = state.apply("trade:2:3")
    assert events[0].text == ("Tahu Nuva discards card #2 and takes red card #3 from the discard "
                              "pile instead of playing.")
    assert state.hands[0] == [3] and state.discard == [12, 2]
    assert state.turn_player == 1


@rule("RECON-ADVANCED-TRADE")
def test_advanced_players_may_still_draw_and_play():
    state = arranged(options={"advanced": True}, hands=[[2], [9]], discard=[3], draw_pile=[30])
    state.apply("draw")
    assert state.phase == "play" and 30 in state.hands[0]


@rule("RECON-ADVANCED-TRADE-COLOUR")
def test_only_same_coloured_cards_other_than_the_one_discarded_can_be_taken():
    state = arranged(options={"advanced": True}, hands=[[2], []], discard=[12, 17])
    assert state.phase == "play"  # no red card to take: the draw happens without asking
    with pytest.raises(IllegalAction):
        state.apply("trade:2:12")


@rule("RECON-ADVANCED-TRADE")
def test_a_trade_is_not_part_of_the_basic_game():
    state = arranged(hands=[[2], []], discard=[3])
    assert not any(a.startswith("trade:") for a in state.legal_actions())


@rule("RECON-KNOWN-CARDS")
def test_a_card_taken_from_the_discard_pile_is_known_to_both_players():
    state = arranged(options={"advanced": True}, hands=[[2], [9]], discard=[3])
    state.apply("trade:2:3")
    assert state.observation(1)["known_in_hands"][0] == [3]
    for seed in range(20):
        assert 3 in state.determinize(1, random.Random(seed)).hands[0]


@rule("RECON-EMPTY-PILE")
def test_an_empty_draw_pile_is_remade_from_the_shuffled_discard_pile():
    deck = list(range(1, 37))
    state = arranged(hands=[deck[:17], deck[17:34]], discard=[35, 36], draw_pile=[])
    assert state.setup_events[1].text.startswith("The draw pile is empty")
    # Player 1's first draw found the pile empty and reshuffled the discard pile.
    assert state.draw == [] or len(state.draw) == 1
    assert state.discard == []
    assert len(state.hands[0]) == 18


@rule("RECON-EMPTY-PILE")
def test_with_both_piles_empty_no_card_is_drawn():
    deck = list(range(1, 37))
    state = arranged(hands=[deck[:18], deck[18:]], draw_pile=[])
    events = state.setup_events
    assert events[-1].text == "Tahu Nuva cannot draw: the draw and discard piles are empty."


@rule("RECON-TURN-LIMIT")
def test_the_turn_limit_draws_the_game():
    state = arranged(options={"turn_limit": 10}, hands=[[], []])
    for _ in range(9):
        state.apply("pass")
    events = state.apply("pass")
    assert events[-1].text == "The turn limit (10) is reached: the game is drawn."
    assert state.is_over and state.winners == [] and state.returns() == [0.0, 0.0]


@rule("RECON-DECK")
def test_the_deck_holds_36_cards_in_five_colours_and_three_kinds():
    cards = GAME.deck.cards.values()
    assert len(cards) == 36
    assert len({c.colour for c in cards}) == 5
    kinds = [c.kind for c in cards]
    assert (kinds.count("add"), kinds.count("remove"), kinds.count("stop")) == (21, 9, 6)
    offers = {p: sum(p in c.parts for c in cards if c.kind == "add") for p in range(7)}
    assert set(offers.values()) == {9}
    for colour in {c.colour for c in cards}:
        assert {c.kind for c in cards if c.colour == colour} == {"add", "remove", "stop"}
    assert GAME.deck.cards[1].parts == (0, 1, 6)  # pictured: Left Leg, Right Leg, Tool
    assert GAME.deck.cards[6].kind == "remove" and GAME.deck.cards[6].parts == (4, 5)
