"""The three printed demo rounds, step by step, on side A of the map.

All three walk the same way; they differ in the Toa, the Challenge cards and the Kanohi Hau
card. The demo text is quoted where the engine's narration says the same thing.
"""

import pytest

from tests.ledger import rule
from tests.masks.helpers import arranged, position, said, texts

# Theme deck -> (Player 1, Player 2, arranged Challenge pile top first, Hau card,
#                first challenge (card, skill, P1 score, P2 score),
#                second challenge (card, skill, P1 score, P2 score)).
DECKS = {
    "one": ("pohatu", "gali", [4, 1], 86, (4, "Strength", 800, 500), (1, "Shielding", 800, 600)),
    "two": ("tahu", "kopaka", [2, 4], 46, (2, "Flight", 500, 400), (4, "Strength", 800, 700)),
    "three": ("onua", "lewa", [4, 5], 66, (4, "Strength", 900, 700), (5, "Swimming", 500, 400)),
}
NAMES = {toa: toa.capitalize() for toa in ("pohatu", "gali", "tahu", "kopaka", "onua", "lewa")}


def set_up(deck):
    p1, p2, pile, hau, _, _ = DECKS[deck]
    # "Place Card #15 face down in the Mission Card draw pile. Place Card #1 face down in the
    # Great Mask Challenge Card draw pile. Place Card #4 ... (on top of Card #1). Place Pohatu -
    # Kanohi Hau (Card #86) face down in Player 1's Great Mask/Turaga Card draw pile. ... Place
    # Reward (Card #27) face down in Player 1's Game Action Card draw pile. Place Infected Mask
    # (Card #21) face down in Player 2's Game Action Card draw pile."
    return arranged((p1, p2), mission_pile=[15], challenge_pile=pile, mask_piles=[[hau], []],
                    action_piles=[[27], [21]])


def walk(state, moves, where):
    """Apply moves, checking after each where the Toa that moved stands."""
    events = []
    for action, (seat, space) in zip(moves, where, strict=True):
        assert state.current_player == seat
        events = state.apply(action)
        assert position(state, seat) == space, (action, space)
    return events


@pytest.mark.parametrize("deck", ["one", "two", "three"])
@rule("MASKS-DEMO-ONE", "MASKS-DEMO-TWO", "MASKS-DEMO-THREE", "MASKS-DEMO-MAP", "MASKS-DEMO-PILES",
      "MASKS-DEMO-TOHUNGA", "MASKS-SETUP-START-SPACES", "MASKS-MOVE-ONE-SPACE", "MASKS-TURN-ORDER",
      "MASKS-GA-ANY-TIME")
def test_the_demo_round_walks_to_the_spaces_the_text_names(deck):
    p1, p2 = (NAMES[n] for n in DECKS[deck][:2])
    state = set_up(deck)
    # "Player 1 places the Pohatu Mask on the Start Space to the West. Player 2 places the
    # Gali Mask on the Start Space to the East."
    assert state.observation(None)["positions"] == ["G2", "H9"]
    assert f"{p1} places the {p1} Mask on the Start Space to the West" in texts(state.setup_events)[0]
    events = walk(state, ["move:W", "move:E"], [(0, "G1"), (1, "H10")])
    assert texts(events) == [f"{p2} moves the {p2} Mask one space to the East."]
    walk(state, ["move:N", "move:E"], [(0, "F1"), (1, "H11")])
    # "Player 1 moves the Pohatu Mask one space to the North. Player 1 lands on a Game Action
    # Space: this means he gets to draw one card from his Game Action pile of cards. In our
    # example, this is Card #27 (Reward). He holds this card in his hand."
    events = walk(state, ["move:N"], [(0, "E1")])
    assert texts(events)[:2] == [
        f"{p1} moves the {p1} Mask one space to the North.",
        f"{p1} lands on a Game Action Space: this means they get to draw one card from their Game "
        "Action pile of cards.",
    ]
    assert said(events, "They draw Card #27 (Reward).", seat=0)
    assert not said(events, "#27", seat=1)
    assert state.hands[0] == [27]
    # The card may be played at once (MASKS-GA-ANY-TIME); "He holds this card in his hand."
    assert state.phase == "anytime" and state.legal_actions() == ["pass", "play:27"]
    walk(state, ["pass"], [(0, "E1")])
    events = walk(state, ["move:N"], [(1, "G11")])
    assert said(events, f"{p2} lands on a Game Action Space")
    assert state.hands[1] == [21]
    assert state.legal_actions() == ["pass"]  # Infected Mask is played instead of a move
    walk(state, ["pass"], [(1, "G11")])
    walk(state, ["move:E", "move:S", "move:N", "move:E"], [(0, "E2"), (1, "H11"), (0, "D2"), (1, "H12")])


@pytest.mark.parametrize("deck", ["one", "two", "three"])
@rule("MASKS-DEMO-ONE", "MASKS-DEMO-TWO", "MASKS-DEMO-THREE", "MASKS-DEMO-MISPRINT-TWO",
      "MASKS-DEMO-SKILLS", "MASKS-DEMO-EQUIP", "MASKS-CHALLENGE-REVEAL", "MASKS-CHALLENGE-COMPARE",
      "MASKS-ATTACH-AFTER-WIN", "MASKS-CHALLENGE-CARDS")
def test_the_demo_round_first_challenge_is_won_by_player_1(deck):
    p1_id, p2_id, _, hau, (card, skill, mine, theirs), _ = DECKS[deck]
    p1, p2 = NAMES[p1_id], NAMES[p2_id]
    state = set_up(deck)
    for action in ["move:W", "move:E", "move:N", "move:E", "move:N", "pass", "move:N", "pass", "move:E",
                   "move:S", "move:N", "move:E"]:
        state.apply(action)
    # "Player 1 moves the Pohatu Mask one space to the East. Player 1 lands on a Challenge Space:
    # this means he gets to attempt a Great Mask Challenge. He flips over the top card in the
    # Great Mask Challenge draw pile to reveal Card #4. This Great Mask Challenge Card uses Strength."
    events = state.apply("move:E")
    assert position(state, 0) == "D3"
    assert texts(events)[1:] == [
        f"{p1} lands on a Challenge Space: this means they get to attempt a Great Mask Challenge.",
        f"{p1} flips over the top card in the Great Mask Challenge draw pile to reveal Card #{card}. "
        f"This Great Mask Challenge Card uses {skill}.",
    ]
    # Before the scores are compared each player may play a card (both hold one): both pass.
    assert state.current_player == 0 and "pass" in state.legal_actions()
    state.apply("pass")
    events = state.apply("pass")
    # "Both players check their Toa's Strength score. Player 1 discovers that Pohatu has a
    # Strength of 800, and Player 2 sees that Gali has a Strength of 500. Pohatu has a higher
    # score and has won the Great Mask Challenge. Card #4 is placed face up in the Great Mask
    # Challenge Card discard pile."
    result = texts(events)[1]
    assert f"{p1} has a {skill} of {mine}" in result and f"{p2} has a {skill} of {theirs}" in result
    assert f"{p1} has a higher score and has won the Great Mask Challenge." in result
    assert f"Card #{card} is placed face up in the Great Mask Challenge Card discard pile." in result
    assert state.challenge_discard == [card]
    # "he gets to draw a card from the top of his Great Mask/Turaga Card pile. He does this and
    # reveals Pohatu - Kanohi Hau (Card #86). Player 1 decides to equip his Toa with this mask"
    assert f"reveal {p1} - Kanohi Hau (Card #{hau})" in texts(events)[2]
    assert state.legal_actions() == [f"attach:{hau}", "keep"]
    events = state.apply(f"attach:{hau}")
    assert texts(events) == [f"{p1} decides to equip their Toa with {p1} - Kanohi Hau (Card #{hau}): "
                             "“Add 100 points to Shielding”."]
    # "Because Player 1 now wears the Kanohi Hau mask, he can add 100 points to his Shielding score."
    shielding = state.game.cards.toa[p1_id].skills[1]
    assert state.observation(None)["toa"][0]["skills"][1] == shielding + 100
    assert state.observation(None)["toa"][0]["mask"] == hau


@pytest.mark.parametrize("deck", ["one", "two", "three"])
@rule("MASKS-DEMO-ONE", "MASKS-DEMO-TWO", "MASKS-DEMO-THREE", "MASKS-DEMO-MISPRINT-ONE",
      "MASKS-DEMO-STOPPING-POINT", "MASKS-GA-INFECTED", "MASKS-MISSION-DRAW", "MASKS-MISSION-MOVE",
      "MASKS-MISSION-DISCARD-PILE", "MASKS-CHALLENGE-LANDER-ONLY", "MASKS-DEMO-SKILLS")
def test_the_demo_round_infected_mask_mission_and_second_challenge(deck):
    p1_id, p2_id, _, hau, _, (card, skill, mine, theirs) = DECKS[deck]
    p1, p2 = NAMES[p1_id], NAMES[p2_id]
    state = set_up(deck)
    for action in ["move:W", "move:E", "move:N", "move:E", "move:N", "pass", "move:N", "pass", "move:E",
                   "move:S", "move:N", "move:E", "move:E", "pass", "pass", f"attach:{hau}"]:
        state.apply(action)
    # "Player 2 decides to play the Game Action Card in his hand, Infected Mask (card #21). This
    # card reads "You can give up your turn and move your opponent's Toa Mask one space. Discard
    # after use." Player 2 moves Player 1's Pohatu Mask one space to the North. Card #21 is placed
    # face up in Player 2's Game Action Card discard pile."
    assert state.current_player == 1 and "play:21:N" in state.legal_actions()
    events = texts(state.apply("play:21:N"))
    assert events[0] == (
        f"{p2} plays Infected Mask (Card #21): “You can give up your turn and move your opponent’s "
        f"Toa Mask one space. Discard after use.” {p2} moves the {p1} Mask one space to the "
        f"North. Card #21 is placed face up in {p2}'s Game Action Card discard pile.")
    assert state.action_discard[1] == [21]
    # "Player 1 has now been forced into a Mission Space: this means he must complete a Mission.
    # Player 1 flips over the top card in the Mission pile of cards. He reveals card #15. This card
    # reads ... Player 1 must move the Pohatu Mask three spaces to the East. He has completed the
    # Mission. Card #15 is placed faced up in the Mission Card discard pile."
    assert events[1] == (f"{p1} has now been forced into a Mission Space: this means they must complete a "
                         "Mission.")
    assert events[2].startswith(f"{p1} flips over the top card in the Mission pile of cards. They reveal "
                                "card #15. This card reads “You must move three spaces to the East.")
    assert events[3] == f"{p1} must move the {p1} Mask three spaces to the East."
    assert events[4] == (f"{p1} has completed the Mission. Card #15 is placed face up in the Mission Card "
                         "discard pile.")
    assert position(state, 0) == "C6" and state.mission_discard == [15] and state.missions == [[], []]
    # "Because Player 2 used his turn to move Player 1's Toa Mask, it's now Player 1's turn to move."
    assert events[5] == (f"Because {p2} used their turn to move {p1}'s Toa Mask, it's now {p1}'s "
                         "turn to move.")
    assert state.current_player == 0
    # "Player 1 moves the Pohatu Mask one space to the West. Player 2 moves the Gali Mask one
    # space to the East. Player 2 lands on a Challenge Space ... reveal Card #2 [read: #1]. This
    # Great Mask Challenge Card uses Shielding."
    state.apply("move:W")
    assert position(state, 0) == "C5"
    events = texts(state.apply("move:E"))
    assert position(state, 1) == "H13"
    assert events[1] == (f"{p2} lands on a Challenge Space: this means they get to attempt a Great Mask "
                         "Challenge.")
    assert events[2].endswith(f"to reveal Card #{card}. This Great Mask Challenge Card uses {skill}.")
    # Player 2's hand is empty, so only Player 1 (holding Reward) is asked.
    assert state.current_player == 0
    events = texts(state.apply("pass"))
    # "Player 1 sees that Pohatu has a Shielding of 800. Player 2 discovers that Gali has a
    # Shielding of 600. Pohatu has a higher score and has stopped Gali from winning the Great Mask
    # Challenge. Pohatu does not get a Great Mask Card. ... Card #1 is placed faced up in the
    # Great Mask Challenge Card discard pile."
    assert f"{p1} has a {skill} of {mine}" in events[1] and f"{p2} has a {skill} of {theirs}" in events[1]
    assert f"{p1} has a higher score and has stopped {p2} from winning the Great Mask Challenge." in events[1]
    assert f"Card #{card} is placed face up" in events[1]
    assert state.won == [[hau], []]
    assert state.current_player == 0 and state.phase == "turn"
