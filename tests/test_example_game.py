"""A fourth game added by following docs/architecture.md alone, "Adding a game": Race to ten
(tests/example_game), registered with one line. The kernel's whole contract holds for it,
and the interfaces play it without knowing it: the terminal's drawing and `matanui rules`,
`matanui games`, the full-screen terminal game, the arena, data packs, and the service with
its catalog and a hot-seat game played over the websocket (and, in tests/browser, two people
in two browsers). The `race` fixture (tests/conftest.py) registers it."""

from __future__ import annotations

import random
import re
from contextlib import ExitStack

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from matanui import games
from matanui.ai import make_agent
from matanui.arena.match import play_match
from matanui.cli import app
from matanui.engine import FORFEIT_KINDS, MatanuiError, forfeit_action, replay
from matanui.games import packs
from matanui.server import create_app
from matanui.tui.overlays import Handover
from matanui.tui.play import PlayApp
from tests import test_contract as contract
from tests import test_help as help_text
from tests.example_game import RUNNERS
from tests.server import test_rules_page as rules_page
from tests.server.conftest import ROOMY
from tests.server.helpers import TEST_HOSTS, receive_view
from tests.test_packs import pack
from tests.tui.screens import run, screen_text, session, settle


@pytest.mark.parametrize("check", [
    contract.test_every_step_keeps_every_card_and_token_in_one_place_and_the_game_ends,
    contract.test_replay_of_the_record_rebuilds_the_same_game,
    contract.test_clones_are_independent,
    contract.test_observations_are_json_and_determinize_agrees_with_them,
    contract.test_an_illegal_action_raises_and_changes_nothing,
    contract.test_the_same_seed_and_actions_give_the_same_game,
    contract.test_determinize_depends_only_on_what_the_seat_sees,
    contract.test_every_legal_action_says_what_it_acts_on_as_json,
], ids=lambda check: check.__name__)
def test_the_kernels_contract_holds_for_the_new_game(race, check):
    check(name="race")


@pytest.mark.parametrize("kind", FORFEIT_KINDS)
def test_a_runner_who_forfeits_loses_and_the_other_wins(race, kind):
    state = race.new_game(1, RUNNERS)
    state.apply("add:2")
    events = state.apply(forfeit_action(kind, 0))
    assert state.is_over and state.winners == [1] and state.out == [0] and state.legal_actions() == []
    assert events[0].kind == kind and "Tortoise wins the game" in events[0].text
    assert replay(state.record()).winners == [1]


@pytest.mark.parametrize("check", [
    help_text.test_rules_prints_how_to_play_and_the_key_to_every_symbol,
    rules_page.test_the_terminal_keeps_its_own_words,
], ids=lambda check: check.__name__)
def test_its_how_to_play_text_says_what_every_game_says(race, check):
    check(game="race")


def test_the_kernel_checks_its_players_and_says_why_an_action_is_not_legal(race):
    with pytest.raises(MatanuiError, match=re.escape("race is for exactly 2 players; name two runners from")):
        race.new_game(1, ["hare"])
    state = race.new_game(1, RUNNERS)
    why = "'add:3' is not legal for Hare now. Legal actions: add:1, add:2."
    with pytest.raises(MatanuiError, match=re.escape(why)):
        state.apply("add:3")


def test_the_terminal_draws_it_and_the_command_line_lists_it_and_its_rules(race):
    state = race.new_game(1, RUNNERS)
    state.apply("add:2")
    drawing = games.renderer("race").render(race, state.observation(0), state.names)
    assert "Race to 10" in drawing and "■■········" in drawing
    runner = CliRunner()
    assert "race" in runner.invoke(app, ["games"], terminal_width=200).output
    page = " ".join(runner.invoke(app, ["rules", "race"], terminal_width=200).output.split())
    assert "Whoever brings it to ten wins" in page and "Still to run" in page  # the rules and the key


def test_the_arena_plays_it_and_a_bot_it_has_no_heuristic_for_is_refused(race):
    agents = [make_agent("random", "race", seed) for seed in (1, 2)]
    result = play_match("race", RUNNERS, agents, seed=3)
    assert len(result.winners) == 1 and result.steps >= 5
    with pytest.raises(MatanuiError, match="no heuristic agent for 'race'"):
        make_agent("heuristic", "race")


def test_a_data_pack_changes_its_numbers(race, tmp_path):
    folder = pack(tmp_path / "short", "race",
                  race='[race]\ntarget = 5\nsteps = [1, 2]\nprovenance = "reconstructed"\nwhy = "a test"\n')
    short = packs.load_game(folder)
    assert short.target == 5 and short.new_game(1, RUNNERS).observation(None)["target"] == 5


def test_the_full_screen_terminal_plays_it_hot_seat_to_the_end_by_key_presses(race, tmp_path):
    app = PlayApp(session(tmp_path, "race", vs=None, hotseat=True), pause=0)

    async def play() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            presses = 0
            while not app.state.is_over:
                assert presses < 40
                if isinstance(app.screen, Handover):  # between the two people
                    await pilot.press("enter")
                else:
                    assert "Choose" in screen_text(app) and " 1. Add 1" in screen_text(app)
                    await pilot.press("1")
                await settle(app, pilot)
                presses += 1
            assert "The game is over" in screen_text(app)
            await pilot.press("q")

    run(play())


def test_the_service_offers_it_and_two_people_play_it_to_the_end_hot_seat(race, tmp_path):
    with TestClient(create_app(f"sqlite:///{tmp_path / 'race.db'}", allowed_hosts=TEST_HOSTS,
                               limits=ROOMY)) as client:
        book = client.get("/api/catalog/race").json()
        assert book["view"] == "plain" and [s["id"] for s in book["legend"]] == ["counted", "to-run"]
        assert book["introduction"]["summary"].startswith("Take turns adding")
        assert book["levels"] == ["easy", "hard"]  # no sensible player of its own: no medium
        assert book["character_names"] == {"hare": "Hare", "tortoise": "Tortoise"}
        seats = [{"kind": "human", "character": runner} for runner in RUNNERS]
        created = client.post("/api/games", json={"game": "race", "seats": seats, "seed": 4,
                                                  "hotseat": True}).json()
        tokens = [seat["token"] for seat in created["seats"]]
        with ExitStack() as stack:
            sockets = [stack.enter_context(client.websocket_connect(f"/ws/games/{created['id']}"))
                       for _ in tokens]
            for ws, token in zip(sockets, tokens, strict=True):
                ws.send_json({"type": "hello", "token": token})
            views = [receive_view(ws) for ws in sockets]
            rng = random.Random(2)
            while not views[0]["over"]:
                seat = views[0]["current_player"]
                sockets[seat].send_json({"type": "act", "action": rng.choice(views[seat]["legal"])["id"]})
                views = [receive_view(ws) for ws in sockets]
        assert client.get(f"/api/games/{created['id']}").json()["status"] == "finished"
