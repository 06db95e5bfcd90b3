"""Quest for Makuta, boards and portals, Makuta's board, gates and locks."""

import pytest

from matanui.engine import IllegalAction
from matanui.games.makuta.island import DX, DY
from tests.ledger import rule
from tests.makuta.scenario import GAME, arranged, play, texts

ALL_KANOHI = [f"kanohi:{m}" for m in ("akaku", "hau", "kakama", "kaukau", "miru", "pakari")] * 4
MAKUTA_NORTH = ["makuta", 2, -4, -10]  # Makuta's board joined to the start board's north portal


def to_north_portal(**arrangement):
    """Tahu walks from Toa Landing onto the unjoined portal 0,-3."""
    arrangement.setdefault("dice", [2])
    state = arranged(**arrangement)
    events = play(state, "roll", "move:N", "move:N")
    return state, events


@rule("MAKUTA-PORTAL-LAND")
def test_landing_on_a_portal_takes_the_next_board():
    state, events = to_north_portal(pile=["ko-ice-plain"])
    assert texts(events)[-1] == "Tahu lands on a portal and takes the next board: Ko-Wahi: " \
                                "Ko-Koro Ice Plain."
    obs = state.observation(1)
    assert obs["phase"] == "place" and obs["placing"] == "ko-ice-plain" and obs["pile"] == 18
    assert state.current_player == 0


@rule("MAKUTA-BOARD-ORIENTATION", "MAKUTA-BOARD-STRATEGIC")
def test_the_lander_lays_the_board_by_any_of_its_portals():
    state, _ = to_north_portal(pile=["ko-ice-plain"])
    board = GAME.parts.boards["ko-ice-plain"]
    assert state.legal_actions() == ["place:2:0", "place:1:1", "place:0:2"]
    assert len(board.portals()) == 3
    assert state.describe("place:1:1") == ("Lay Ko-Wahi: Ko-Koro Ice Plain with its portal 2 against "
                                           "yours, turned 90 degrees clockwise: it covers -2,-9 to 3,-4")
    play(state, "place:1:1")
    island = state.island
    landed = island.by_name["0,-3"]
    across = island.adj[4 * landed + 0]  # north of the landed portal
    assert island.names[across] == "0,-4" and island.out[across] == 2  # a portal facing south
    assert island.placed[-1][:2] == ("ko-ice-plain", 1)


@rule("MAKUTA-BOARD-NO-OVERLAP", "MAKUTA-BOARD-FIXED")
def test_boards_never_overlap_and_never_move():
    # A board already lies north-east: the placement that would overlap it is not offered.
    free, _ = to_north_portal(pile=["ko-ice-plain"])
    crowded, _ = to_north_portal(pile=["ko-ice-plain"], boards=[["ta-lava-fields", 0, 4, -9]])
    assert free.legal_actions() == ["place:2:0", "place:1:1", "place:0:2"]
    assert free.placements["place:2:0"][3:] == (-1, -9)  # would cover x -1 to 4
    assert crowded.legal_actions() == ["place:1:1", "place:0:2"]
    before = list(crowded.island.placed)
    play(crowded, crowded.legal_actions()[0])
    assert crowded.island.placed[:2] == before


@rule("MAKUTA-BOARD-EVERY-PORTAL")
def test_a_joined_portal_adds_no_board():
    state, events = to_north_portal(boards=[MAKUTA_NORTH])
    assert state.phase == "roll" and state.observation(None)["pile"] == 18
    assert "takes the next board" not in " ".join(texts(events))


@rule("MAKUTA-BOARD-NO-ROOM")
def test_a_board_that_cannot_be_laid_stays_on_the_pile():
    # ta-lava-fields lies right beyond the north portal without joining it.
    state, events = to_north_portal(boards=[["ta-lava-fields", 0, 1, -9]], pile=["onu-mine"])
    assert "Tahu lands on a portal, but there is no room beyond it for a board." in texts(events)
    assert state.pile[-1] == "onu-mine" and state.phase == "roll"
    state = arranged(dice=[2])
    state.pile.clear()  # every board already laid
    events = play(state, "roll", "move:N", "move:N")
    assert "Tahu lands on a portal, but every board is already on the table." in texts(events)


@rule("MAKUTA-PORTAL-CHANCE-LINK", "MAKUTA-MAKUTA-LOCKS")
def test_portals_that_come_face_to_face_are_joined_and_makuta_gets_a_lock():
    state = arranged(boards=[["po-desert", 0, -2, 11], ["makuta", 2, -9, 16]],
                     pawns=["0,15", "start"], dice=[1], pile=["ko-drifts"])
    play(state, "roll", "move:S")
    assert state.legal_actions() == ["place:0:0", "place:3:2"]
    events = play(state, "place:0:0")
    island = state.island
    for a, b in (("0,17", "0,16"), ("-2,19", "-3,19")):
        assert island.by_name[a] in island.joined and island.by_name[b] in island.joined
    gate = island.gate_portal[island.by_name["-3,19"]]
    assert state.observation(1)["locks"] == {island.names[gate]: "lock"}
    assert f"A Temple Lock token is placed face down on the gate at {island.names[gate]}." in \
        texts(events)


@rule("MAKUTA-BOARD-TOKENS", "MAKUTA-MAKUTA-LOCKS", "MAKUTA-TEMPLE-PLACE")
def test_a_new_board_gets_its_tokens_and_makutas_board_its_first_lock():
    state, _ = to_north_portal(pile=["makuta"])
    events = play(state, "place:2:0")
    obs = state.observation(1)
    assert texts(events)[1:4] == [
        "Tokens are added face down: 1 rahi.",
        "Makuta's temple is placed in the centre of its board, a coloured segment at each gate "
        "(grey, red, green, orange, blue, brown, clockwise).",
        "A Temple Lock token is placed face down on the gate at 0,-5."]
    assert obs["locks"] == {"0,-5": "lock"} and obs["bags"]["lock"] == 8
    assert obs["temple"] == ["grey", "red", "green", "orange", "blue", "brown"]
    assert state.island.gate[state.island.by_name["0,-5"]] == 5  # brown faces this gate
    state, _ = to_north_portal(pile=["ko-ice-plain"])
    play(state, "place:0:2")
    spaces = [n for n in range(len(state.island)) if state.island.board_of[n] == 1]
    icons = {state.island.names[n]: state.island.icon[n] for n in spaces}
    obs = state.observation(0)
    for name, icon in icons.items():
        if icon in "KTY":
            assert obs["tokens"][name] == [{"K": "kanohi", "T": "turaga", "Y": "key"}[icon]]
        if icon == "R":
            assert obs["rahi"][name] == "rahi"


@rule("MAKUTA-BAG-EMPTY")
def test_a_token_space_stays_empty_when_its_supply_is_gone():
    state, _ = to_north_portal(pile=["ko-ice-plain"], start_pile=ALL_KANOHI)
    play(state, "place:0:2")
    obs = state.observation(0)
    assert obs["bags"]["kanohi"] == 0
    assert all(faces != ["kanohi"] for faces in obs["tokens"].values())
    assert len(obs["tokens"]) == 2  # the Turaga and the key


@rule("MAKUTA-TEMPLE-ANY-DIRECTION")
def test_gates_face_every_side_of_the_temple():
    state = arranged(boards=[MAKUTA_NORTH])
    island = state.island
    _, rot, x0, y0 = MAKUTA_NORTH
    temple = {(x0 + x, y0 + y) for x, y in GAME.shapes["makuta"][rot].temple}
    assert len(temple) == 9
    assert all(island.cell.get(cell) is None for cell in temple)  # the temple is no space
    sides = set()
    for gate in island.gate:
        x, y = island.xy[gate]
        for d in range(4):
            if (x + DX[d], y + DY[d]) in temple:
                sides.add(d)
    assert sides == {0, 1, 2, 3} and len(island.gate) == 6


def at_gate(**arrangement):
    """Tahu one step south of the gate 0,-5 on Makuta's board (joined to the start board)."""
    arrangement.setdefault("dice", [1])
    state = arranged(boards=[MAKUTA_NORTH], pawns=["0,-4", "start"], **arrangement)
    play(state, "roll", "move:N")
    return state


@rule("MAKUTA-GATE-REVEAL")
def test_a_lock_may_be_turned_over_and_stays_face_up_for_everyone():
    state = at_gate(tokens={"0,-5": "lock:fire-water-air"})
    assert state.legal_actions() == ["reveal", "skip"]
    events = play(state, "reveal")
    assert texts(events)[0] == "Tahu turns over the lock on the gate: its code is fire / " \
                               "water / air."
    for seat in (None, 0, 1):
        assert state.observation(seat)["locks"] == {"0,-5": "lock:fire-water-air"}
    state = at_gate(tokens={"0,-5": "lock:fire-water-air"})
    play(state, "skip")
    assert state.observation(0)["locks"] == {"0,-5": "lock"} and state.current_player == 1


@rule("MAKUTA-LOCK-CODE", "MAKUTA-KEY-YELLOW", "MAKUTA-GATE-CHALLENGE-PHASE")
def test_three_keys_matching_the_lock_yellow_standing_for_any_symbol():
    lock = {"0,-5": "lock:fire-water-air"}
    cases = [
        (["key:fire", "key:water", "key:air"], True),
        (["key:air", "key:yellow", "key:fire"], True),
        (["key:yellow", "key:yellow", "key:yellow"], True),
        (["key:fire", "key:fire", "key:air"], False),
        (["key:fire", "key:water", "key:ice"], False),
    ]
    for keys, opens in cases:
        state = at_gate(tokens=lock, revealed=["0,-5"], cards=[keys, []])
        assert state.phase == "gate"  # asked whether the keys fit or not
        assert ("challenge" in state.legal_actions()) == opens, keys
        if not opens:
            with pytest.raises(IllegalAction, match="your three keys do not match this lock"):
                state.apply("challenge")
    # Fewer than three keys: no question at all.
    state = at_gate(tokens=lock, revealed=["0,-5"], cards=[["key:fire", "key:water"], []])
    assert state.phase == "roll" and state.current_player == 1


def test_the_observation_says_where_each_choice_lies_on_the_island():
    """A board view draws the choices in place from the observation, never from a rule: the
    space each step leads to, the spaces the roll can reach, and the turn and corner of each
    legal placement."""
    state = arranged(dice=[2])
    play(state, "roll")
    obs = state.observation(None)
    assert obs["leads_to"] == {"move:N": "0,-2", "move:E": "2,0", "move:S": "0,2", "move:W": "-2,0"}
    # Two steps from Toa Landing: the four spaces beside it and the four portals beyond them.
    assert sorted(obs["reach"]) == sorted(["0,-2", "2,0", "0,2", "-2,0", "0,-3", "3,0", "0,3", "-3,0"])
    state, _ = to_north_portal(pile=["ko-ice-plain"])
    obs = state.observation(None)
    assert obs["placements"] == {"place:2:0": [2, -1, -9], "place:1:1": [1, -2, -9],
                                 "place:0:2": [0, -2, -9]}
    assert obs["leads_to"] == {} and obs["reach"] == []
