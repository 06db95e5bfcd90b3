"""Who is who: narration, words and results name each player the same way, by display name,
else by their Toa, whichever seat went first (the rulebook's "Player 1" is a position at the
table, not a name)."""

from matanui.engine import replay
from tests.ledger import rule

from .helpers import arranged, texts


def gali_first_about_to_win(names=None):
    """Gali's player (seat 1) went first and is one Great Mask short, on D2 beside the
    Challenge space D3; the Swimming challenge (#5) is on top, which Gali wins."""
    return arranged(positions=["I10", "D2"], first_player=1, names=names,
                    won=[[], [92, 93, 94, 95, 96]], mask_piles=[[], [97]], challenge_pile=[5])


@rule("MASKS-SETUP-FIRST", "MASKS-OBJECT-WIN")
def test_when_seat_1_goes_first_the_winner_is_named_the_same_everywhere():
    state = gali_first_about_to_win()
    assert state.setup_events[0].text.endswith("Gali goes first.")
    assert state.describe("move:E").startswith("Move east to the Challenge space at D3")
    events = state.apply("move:E")
    assert texts(events)[0] == "Gali moves the Gali Mask one space to the East."
    assert texts(events)[-1] == "Gali has collected all six of Gali's Great Mask cards and wins the game!"
    assert events[-1].fields["seat"] == 1
    assert state.observation(None)["winners"] == [1] == state.winners
    assert not any("Player" in text for text in texts(state.setup_events + events))


@rule("MASKS-GA-INFECTED")
def test_display_names_reach_narration_describe_and_the_record():
    state = arranged(positions=["E2", "D2"], hands=[[21], []], names=["Ana", "Kai"])
    assert state.setup_events[0].text.startswith("The Pohatu Mask stands on E2")
    assert state.describe("play:21:W").startswith("Play Infected Mask (Card #21): give up your turn and "
                                                  "move Kai's Toa Mask west")
    events = state.apply("play:21:W")
    assert texts(events)[0].endswith("Ana moves the Gali Mask one space to the West. Card #21 is placed "
                                     "face up in Ana's Game Action Card discard pile.")
    assert "Because Ana used their turn to move Kai's Toa Mask, it's now Kai's turn to move." in texts(events)
    record = state.record()
    assert record.names == ["Ana", "Kai"]
    again = replay(record)
    assert again.names == ("Ana", "Kai") and again.observation(0) == state.observation(0)


def test_names_change_no_rule_no_chance_and_no_observation():
    plain, named = gali_first_about_to_win(), gali_first_about_to_win(["Ana", "Kai"])
    assert plain.legal_actions() == named.legal_actions()
    for seat in (None, 0, 1):
        assert plain.observation(seat) == named.observation(seat)
    assert plain.apply("move:E")[-1].fields == named.apply("move:E")[-1].fields
    assert plain.rng.getstate() == named.rng.getstate()
