"""Quest for Makuta at the table: what the engine tells a board view so that a player acts in
one gesture per intention (walk to a space, lay a board where its preview shows it), is never
asked where there is nothing to decide, and reads one numbering of portals everywhere."""

import random

from tests.ledger import rule
from tests.makuta.scenario import GAME, arranged, play, texts
from tests.makuta.test_boards import to_north_portal


@rule("MAKUTA-MOVE-STOP-EARLY", "MAKUTA-ROLL-MOVE")
def test_a_walk_to_a_token_is_its_steps_and_the_stop_one_click_for_one_move():
    state = arranged(dice=[5], tokens={"-1,-3": "key:fire"})
    play(state, "roll")
    walks = state.gestures(0).get("walks", {})
    assert walks["-1,-3"] == ["move:N", "move:N", "move:W", "stop"]
    assert walks["0,-3"] == ["move:N", "move:N", "stop"]  # the portal: no exact roll needed
    assert "0,-2" not in walks  # a plain space on the way: the move cannot end there
    play(state, *walks["-1,-3"])
    assert state.observation(0)["pawns"][0] == "-1,-3" and state.phase == "roll"
    assert state.observation(0)["path"] == ["start", "0,-2", "0,-3", "-1,-3"]


@rule("MAKUTA-MOVE-NO-DOUBLE-BACK", "MAKUTA-RAHI-NO-PASS", "MAKUTA-MOVE-BLOCKED")
def test_every_walk_offered_is_legal_step_by_step_and_ends_the_move_where_it_says():
    for seed in range(6):
        state = GAME.new_game(seed, ["tahu", "lewa", "gali"])
        rng = random.Random(seed)
        for _ in range(300):
            if state.is_over:
                break
            if state.phase == "move":
                me = state.turn_player
                for space, actions in state.gestures(me).get("walks", {}).items():
                    trial = state.clone()
                    play(trial, *actions)  # IllegalAction if any step were not legal
                    assert trial.steps == 0 and trial.island.names[trial.pawns[me]] == space
            actions = state.legal_actions()
            state.apply(actions[rng.randrange(len(actions))])


@rule("MAKUTA-CARD-SECRET")
def test_walks_and_previews_go_to_the_seat_to_decide_only():
    state = arranged(dice=[5])
    play(state, "roll")
    assert state.gestures(0).get("walks", {}) and not state.gestures(1).get("walks", {})
    assert not state.gestures(None).get("walks", {})
    state, _ = to_north_portal(pile=["ko-ice-plain"])
    assert set(state.gestures(0).get("previews", {})) == set(state.legal_actions())
    assert not state.gestures(1).get("previews", {})


@rule("MAKUTA-ROLL-DECISION")
def test_a_roll_is_never_taken_for_the_player():
    state = arranged(dice=[4])
    assert state.legal_actions() == ["roll"] and state.automatic_action() is None


@rule("MAKUTA-MOVE-NO-DOUBLE-BACK")
def test_a_lone_step_is_taken_for_the_player():
    state = arranged(dice=[4], pawns=["-1,-3", "start"])
    play(state, "roll", "move:E", "move:S")
    assert state.legal_actions() == ["move:S"] and state.automatic_action() == "move:S"


@rule("MAKUTA-AKAKU")
def test_a_lone_step_beside_another_toa_is_asked_of_a_kanohi_holder():
    # With an Akaku Tahu could stop on Lewa's space: being asked or not would tell the table.
    state = arranged(dice=[4], pawns=["-1,-3", "0,-2"], cards=[["kanohi:hau"], []])
    play(state, "roll", "move:E", "move:S")
    assert state.legal_actions() == ["move:S"] and state.automatic_action() is None


@rule("MAKUTA-LEFT-DECIDES", "MAKUTA-CHALLENGE-BONUS")
def test_the_only_token_to_lose_is_taken_but_a_lone_settle_is_asked():
    state = arranged(dice=[1, 1], tokens={"0,-2": "rahi:muaka:18"}, cards=[["key:fire"], []])
    play(state, "roll", "move:N", "roll")  # 1 against 18, and nothing to add: lost
    assert state.current_player == 1 and state.legal_actions() == ["take:key:0"]
    assert state.automatic_action() == "take:key:0"
    assert state.targets("take:key:0") == {"seat": 0, "kind": "key", "slot": 0, "token": "key"}
    # A Miru adds nothing: only `settle` is left, but asking hides that it is no Hau.
    state = arranged(dice=[1, 1], tokens={"0,-2": "rahi:muaka:18"}, cards=[["kanohi:miru"], []])
    play(state, "roll", "move:N", "roll")
    assert state.legal_actions() == ["settle"] and state.automatic_action() is None


@rule("MAKUTA-BOARD-ORIENTATION")
def test_one_numbering_of_portals_in_the_words_the_targets_and_the_log():
    state, _ = to_north_portal(pile=["ko-ice-plain"])
    assert "with its portal 2 against yours" in state.describe("place:1:1")
    assert state.targets("place:1:1") == {"placement": [1, -2, -9], "portal": 2, "space": "0,-3"}
    assert state.gestures(0).get("previews", {})["place:1:1"]["portal"] == 2
    events = play(state, "place:1:1")
    assert "by its portal 2" in texts(events)[0] and events[0].fields["portal"] == 2


@rule("MAKUTA-BOARD-ORIENTATION", "MAKUTA-BOARD-TOKENS")
def test_a_placement_preview_shows_the_tokens_and_portals_as_they_will_lie():
    state, _ = to_north_portal(pile=["ko-ice-plain"])
    preview = state.gestures(0).get("previews", {})["place:1:1"]
    assert preview["portals"]["0,-4"] == "joined"  # the new board's portal 2, across the seam
    play(state, "place:1:1")
    obs = state.observation(0)
    new = {n for n in preview["portals"]} | set(preview["tokens"]) | set(preview["rahi"])
    assert {k: v for k, v in obs["tokens"].items() if k in new} == preview["tokens"]
    assert {k: v for k, v in obs["rahi"].items() if k in new} == preview["rahi"]
    assert {k: obs["portals"][k] for k in preview["portals"]} == preview["portals"]


@rule("MAKUTA-BOARD-NO-ROOM")
def test_a_portal_with_no_room_beyond_is_closed_and_said_so():
    state = arranged(dice=[2], boards=[["ta-lava-fields", 0, 1, -9]])
    assert state.observation(None)["portals"]["0,-3"] == "dead"
    assert state.observation(None)["portals"]["3,0"] == "open"
    play(state, "roll", "move:N")
    assert state.describe("move:N") == ("Move north to the closed portal (no room for a board "
                                        "beyond it) at 0,-3 (0 steps left)")


@rule("MAKUTA-MOVE-ORTHOGONAL")
def test_every_action_says_what_it_acts_on():
    state = arranged(dice=[5], tokens={"-1,-3": "key:fire"})
    assert state.targets("roll") == {}
    play(state, "roll")
    assert state.targets("move:N") == {"space": "0,-2"}
    play(state, "move:N", "move:N")
    assert state.targets("stop") == {"space": "0,-3"}
    assert state.targets("move:S") == {}  # not legal: no doubling back
