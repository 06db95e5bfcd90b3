"""The terminal view of a seat's observation."""

import random
import re

from matanui.games.masks.render import render
from tests.ledger import rule
from tests.masks.helpers import GAME, arranged


def plain(markup: str) -> str:
    return re.sub(r"\[/?[a-z_ ]*\]", "", markup).replace("\\[", "[")


@rule("MASKS-ATTACH-PLACEMENT")
def test_the_view_shows_the_map_both_masks_skills_cards_hand_and_missions():
    state = arranged(positions=["E3", "I10"], hands=[[21, 33], [27]], won=[[86, 88], []], attached=[[86], []],
                     missions=[[16], []])
    text = plain(render(GAME, state.observation(0)))
    lines = text.splitlines()
    assert lines[0].startswith("Quest for the Masks: Side A: the western half of Mata Nui")
    assert " Po " in text and " Ga " in text  # both Toa Masks on the map
    assert "Challenge" in text and "Portal" in text and "Mission" in text  # the legend
    assert "Shielding 800 (+100)" in text
    words = " ".join(text.split())  # long lines are wrapped to fit 80 columns
    assert "Attached Great Mask: Pohatu - Kanohi Hau (#86: Add 100 points to Shielding)" in words
    assert "Attached Turaga: none" in text
    assert "Unattached: Onewa (#88: Add 100 points to Shielding and 100 points to Strength)" in words
    assert "Hand (2/5):\n    #21 Infected Mask" in text
    assert "Mission #16: You must travel to a Game Action space." in words
    assert "Hand: 1 card" in text and "#27" not in text  # the other hand stays hidden
    assert max(len(line) for line in lines) <= 76


@rule("MASKS-GA-ANY-TIME")
def test_the_view_says_who_may_play_a_card_before_the_turn_passes():
    state = arranged(positions=["E2", "I10"], action_piles=[[37], []])
    state.apply("move:W")
    views = [plain(render(GAME, state.observation(seat))) for seat in (0, 1)]
    assert "You may play a Game Action card before the turn passes." in views[0]
    assert "Pohatu may play a Game Action card before the turn passes." in views[1]


def test_a_whole_game_ends_with_the_game_over_line():
    state = GAME.new_game(4, ["lewa", "onua"], {"map": "both"})
    rng = random.Random(4)
    while not state.is_over:
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])
    assert "Game over" in render(GAME, state.observation(None))
