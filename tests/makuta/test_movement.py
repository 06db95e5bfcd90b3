"""Quest for Makuta, moving around the island, as the rulebook states it."""

import pytest

from matanui.engine import IllegalAction
from tests.ledger import rule
from tests.makuta.scenario import arranged, play, texts

# A land board laid apart from the start board for movement tests: ta-lava-fields at 10,10,
#     x: 10 11 12 13 14 15
#  y=10   .  .  #  P  #  .      15,10 is a dead end, reached only from 15,11.
#  y=11   R  Y  .  .  .  .
LAVA_FIELDS = ["ta-lava-fields", 0, 10, 10]


@rule("MAKUTA-MOVE-ORTHOGONAL")
def test_moves_are_north_east_south_or_west_one_space_each():
    state = arranged(dice=[1])
    play(state, "roll")
    assert state.legal_actions() == ["move:N", "move:E", "move:S", "move:W"]
    assert state.describe("move:E") == "Move east to the space at 2,0 (0 steps left)"
    play(state, "move:E")
    assert state.observation(None)["pawns"][0] == "2,0"


@rule("MAKUTA-MOVE-NO-DOUBLE-BACK")
def test_no_space_is_entered_twice_in_one_move():
    state = arranged(dice=[4], pawns=["-1,-3", "start"])
    play(state, "roll", "move:E")  # onto the portal 0,-3
    assert "move:W" not in state.legal_actions()
    play(state, "move:S")  # 0,-2
    assert state.legal_actions() == ["move:S"]  # back north is where it came from
    with pytest.raises(IllegalAction, match="no doubling back"):
        state.apply("move:N")


@rule("MAKUTA-MOVE-STOP-EARLY", "MAKUTA-COLLECT")
def test_an_exact_roll_is_not_needed_to_land_on_a_token_or_a_portal():
    state = arranged(dice=[5], tokens={"-1,-3": "key:fire"})
    play(state, "roll", "move:N")
    assert "stop" not in state.legal_actions()  # 0,-2 is a plain space
    play(state, "move:N")
    assert "stop" in state.legal_actions()  # the portal 0,-3 ...
    play(state, "move:W")
    assert "stop" in state.legal_actions()  # ... and the key may be landed on
    assert state.describe("stop") == ("Stop on the space at -1,-3 with a face-down key token "
                                      "(2 of the roll unused)")
    events = play(state, "stop")
    assert texts(events)[:2] == ["Tahu stops with 2 spaces of the roll unused.",
                                 "Tahu collects a key token."]
    assert texts(events, 0)[1] == "Tahu collects a key token: fire key."
    assert state.observation(0)["cards"][0]["key"] == ["key:fire"]


@rule("MAKUTA-MOVE-STOPPED")
def test_once_stopped_the_rest_of_the_roll_is_lost():
    state = arranged(dice=[5], tokens={"-1,-3": "key:fire"})
    play(state, "roll", "move:N", "move:N", "move:W", "stop")
    assert state.current_player == 1 and state.phase == "roll"
    assert state.observation(None)["pawns"][0] == "-1,-3"


@rule("MAKUTA-MOVE-BLOCKED")
def test_a_dead_end_ends_the_move_there():
    state = arranged(boards=[LAVA_FIELDS], pawns=["15,11", "start"], dice=[3])
    events = play(state, "roll", "move:N")
    assert texts(events)[-2:] == [
        "Tahu can go no further: the other 2 spaces of the roll are lost.", "Lewa's turn (white die)."]
    assert state.observation(None)["pawns"][0] == "15,10"


@rule("MAKUTA-PAWN-SHARE")
def test_toa_share_spaces_and_never_block_each_other():
    state = arranged(dice=[2], pawns=["start", "0,-2"])
    play(state, "roll", "move:N", "move:N")
    assert state.observation(None)["path"] == ["start", "0,-2", "0,-3"]


@rule("MAKUTA-START-COUNTS-ONE")
def test_toa_landing_is_one_space_to_cross():
    state = arranged(dice=[2], pawns=["0,-2", "start"])
    play(state, "roll", "move:S")
    assert state.observation(None)["steps_left"] == 1
    play(state, "move:S")
    assert state.observation(None)["pawns"][0] == "0,2"  # straight across the large space


@rule("MAKUTA-PORTAL-PASSAGE")
def test_boards_are_crossed_only_portal_to_portal():
    # Makuta's board laid north of the start board, joined at the portal 0,-3.
    state = arranged(boards=[["makuta", 2, -4, -10]], pawns=["-1,-3", "start"], dice=[2, 1])
    island = state.island
    assert island.by_name["-1,-4"] in island.cell.values()  # a space just across the seam
    play(state, "roll")
    assert "move:N" not in state.legal_actions()
    with pytest.raises(IllegalAction, match="boards are crossed only portal to portal"):
        state.apply("move:N")
    play(state, "move:E", "move:N")  # through the joined portals 0,-3 and 0,-4
    assert state.observation(None)["pawns"][0] == "0,-4"
