"""The full-screen game (`matanui play`), driven by key presses through Textual's pilot."""

from __future__ import annotations

import json
import os

import pytest

from matanui.tui.app import MIN_HEIGHT, MIN_WIDTH
from matanui.tui.overlays import Handover
from matanui.tui.play import PlayApp

from .screens import plain, run, screen_text, session, settle

SHORT = {"reconstruct": [], "masks": ["turn_limit=10"], "makuta": ["turn_limit=10"]}


def saved_actions(path) -> int:
    return len(json.loads(path.read_text())["actions"])


@pytest.mark.parametrize("game", list(SHORT))
def test_a_game_against_bots_is_played_to_its_end_by_key_presses_with_each_region_on_screen(tmp_path, game):
    game_session = session(tmp_path, game, options=SHORT[game])
    app = PlayApp(game_session, pause=0)

    async def play() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            presses = 0
            while not app.state.is_over:
                assert presses < 400
                text = screen_text(app)
                assert "Board" in text and "Last move" in text and "Log" in text
                assert "Choose" in text and " 1. " in text  # the decisions, numbered
                assert plain(app.picture.regions.title) in text
                if app.picture.regions.mine:  # what you hold (the drawing's own region)
                    assert "You hold" in text and plain(app.picture.regions.mine[0])[:20] in text
                await pilot.press("1")
                await settle(app, pilot)
                presses += 1
                # saved after every move, the bots' too
                assert saved_actions(game_session.save_path) == len(app.state.record().actions)
            assert "The game is over" in screen_text(app)
            await pilot.press("q")
        assert "matanui replay" in app.return_value

    run(play())


def test_the_bots_move_is_on_the_last_move_line_with_its_name_and_level(tmp_path):
    app = PlayApp(session(tmp_path, "reconstruct", vs="medium"), pause=0)

    async def play() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            for _ in range(20):
                await pilot.press("1")
                await settle(app, pilot)
                if app.last_seat == 1:
                    break
            assert app.last_seat == 1
            assert "Last move, Onua Nuva (medium):" in screen_text(app)

    run(play())


def test_enter_takes_the_highlighted_decision(tmp_path):
    app = PlayApp(session(tmp_path, "reconstruct"), pause=0)

    async def play() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            await pilot.press("down", "enter")
            await settle(app, pilot)
            assert len(app.state.record().actions) >= 1

    run(play())


def test_an_illegal_action_is_told_in_the_app_and_changes_nothing(tmp_path):
    app = PlayApp(session(tmp_path, "reconstruct"), pause=0)

    async def play() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            before = list(app.state.record().actions)
            app.take("no-such-action")
            await pilot.pause()
            assert "no-such-action" in screen_text(app)
            assert list(app.state.record().actions) == before

    run(play())


def test_hotseat_shows_the_handover_with_nothing_of_the_hand_between_people(tmp_path):
    app = PlayApp(session(tmp_path, "reconstruct", vs=None, hotseat=True), pause=0)

    async def play() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            handovers = 0
            while handovers < 4:
                if isinstance(app.screen, Handover):
                    handovers += 1
                    assert "your turn: press Enter" in screen_text(app)
                    # nor under it: the game beneath is drawn as the public sees it
                    assert "Your hand" not in screen_text(app) + screen_text(app, app.screen_stack[0])
                    await pilot.press("enter")
                    await settle(app, pilot)
                    assert "Your hand" in screen_text(app)
                else:
                    await pilot.press("1")
                    await settle(app, pilot)

    run(play())


def test_q_at_the_handover_saves_and_tells_the_resume_command(tmp_path):
    game_session = session(tmp_path, "reconstruct", vs=None, hotseat=True)
    app = PlayApp(game_session, pause=0)

    async def play() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            await pilot.press("q")
        assert f"matanui play --resume {game_session.save_path}" in app.return_value
        assert game_session.save_path.exists()

    run(play())


def test_how_to_play_and_the_log_open_over_the_game_and_escape_closes_them(tmp_path):
    app = PlayApp(session(tmp_path, "masks"), pause=0)

    async def play() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            await pilot.press("question_mark")
            await pilot.pause()
            assert "How to play" in screen_text(app) and "Last move" not in screen_text(app)
            await pilot.press("escape")
            await pilot.pause()
            assert "Last move" in screen_text(app)
            await pilot.press("l")
            await pilot.pause()
            assert "The whole log" in screen_text(app)
            await pilot.press("escape")
            await pilot.pause()
            assert "Last move" in screen_text(app)

    run(play())


def test_below_80x24_it_says_the_size_it_needs_until_resized(tmp_path):
    app = PlayApp(session(tmp_path, "reconstruct"), pause=0)

    async def play() -> None:
        async with app.run_test(size=(70, 20)) as pilot:
            await settle(app, pilot)
            text = screen_text(app)
            assert f"at least {MIN_WIDTH}x{MIN_HEIGHT}; this one is 70x20" in text
            assert "Last move" not in text
            await pilot.resize_terminal(MIN_WIDTH, MIN_HEIGHT)
            await settle(app, pilot)
            assert "Last move" in screen_text(app) and "at least" not in screen_text(app)

    run(play())


def test_a_save_that_fails_is_told_in_the_app_and_the_game_goes_on(tmp_path):
    app = PlayApp(session(tmp_path, "reconstruct", save=tmp_path / "missing" / "game.json"), pause=0)

    async def play() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            assert "Could not save the game" in screen_text(app)
            await pilot.press("1")
            await settle(app, pilot)
            assert len(app.state.record().actions) >= 1

    run(play())


def test_a_resumed_game_goes_on_from_its_save(tmp_path):
    first = session(tmp_path, "reconstruct")
    app = PlayApp(first, pause=0)

    async def play(app: PlayApp) -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            await pilot.press("1")
            await settle(app, pilot)
            await pilot.press("q")

    run(play(app))
    done = saved_actions(first.save_path)
    again = PlayApp(session(tmp_path, None, vs=None, seed=None, resume=first.save_path), pause=0)

    async def resume() -> None:
        async with again.run_test(size=(80, 24)) as pilot:
            await settle(again, pilot)
            assert f"Resumed after {done} actions." in screen_text(again)

    run(resume())


def test_under_no_color_every_region_is_still_there(tmp_path, monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    app = PlayApp(session(tmp_path, "masks"), pause=0)

    async def play() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            assert app.no_color
            text = screen_text(app)
            assert all(region in text for region in ("Board", "Last move", "Log", "Choose", " 1. "))

    run(play())


def test_in_hotseat_c_centres_on_the_piece_of_whoever_took_the_screen(tmp_path):
    app = PlayApp(session(tmp_path, "makuta", vs=None, hotseat=True), pause=0)

    async def play() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            for _ in range(2):  # each person in turn
                assert isinstance(app.screen, Handover)
                await pilot.press("enter")
                await settle(app, pilot)
                seat = app.deciding
                await pilot.press("c")
                await pilot.pause()
                assert "no piece" not in screen_text(app) and app.me == seat
                while app.deciding == seat:
                    await pilot.press("1")
                    await settle(app, pilot)

    run(play())


class Slow:
    """A bot that takes `seconds` to answer (its first legal action)."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds

    def act(self, view) -> str:
        import time

        time.sleep(self.seconds)
        return view.legal_actions()[0]


def slow_bots(game_session, seconds: float):
    """The session with each bot taking `seconds` to answer."""
    for seat in game_session.seats:
        if not seat.human:
            seat.agent = Slow(seconds)
    return game_session


def test_a_save_problem_stays_on_screen_while_the_bots_think_and_move_until_a_save_succeeds(tmp_path):
    folder = tmp_path / "missing"
    app = PlayApp(slow_bots(session(tmp_path, "reconstruct", save=folder / "game.json"), 0.3), pause=0)

    async def play() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            thought = False
            for _ in range(100):  # until a bot has thought and moved, the problem staying
                await pilot.pause(0.05)
                text = screen_text(app)
                assert "Could not save the game" in text
                thought = thought or "is thinking" in text
                if app.deciding is not None:
                    if app.last_seat == 1 and thought:
                        break
                    await pilot.press("1")
            assert thought and app.last_seat == 1
            folder.mkdir()
            await pilot.press("1")
            await settle(app, pilot)
            assert "Could not save the game" not in screen_text(app)

    run(play())


def leave_while_thinking(tmp_path, key: str, seconds: float):
    """Press `key` while a bot takes `seconds` to think: the app, its session, what was
    played when the key was pressed and how long the leaving took."""
    import time

    game_session = slow_bots(session(tmp_path, "reconstruct"), seconds)
    app = PlayApp(game_session, pause=0)
    left = {}

    async def play() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            for _ in range(20):
                await pilot.pause(0.05)
                if "is thinking" in screen_text(app):
                    break
                if app.deciding is not None:
                    await pilot.press("1")
            assert "is thinking" in screen_text(app)
            left["actions"] = list(app.state.record().actions)
            left["at"] = time.monotonic()
            await pilot.press(key)
        left["took"] = time.monotonic() - left["at"]

    run(play())
    return app, game_session, left


@pytest.mark.parametrize("key", ["q", "ctrl+q"])
def test_leaving_while_a_bot_thinks_is_at_once_with_the_resume_hint_and_its_late_answer_is_never_applied(
        tmp_path, key):
    import time

    app, game_session, left = leave_while_thinking(tmp_path, key, 2.0)
    assert left["took"] < 1.0
    assert f"matanui play --resume {game_session.save_path}" in app.return_value
    time.sleep(2.5)  # the bot has answered by now
    assert list(app.state.record().actions) == left["actions"] == json.loads(
        game_session.save_path.read_text())["actions"]


def test_below_80x24_the_keys_take_nothing(tmp_path):
    app = PlayApp(session(tmp_path, "reconstruct"), pause=0)

    async def play() -> None:
        async with app.run_test(size=(70, 20)) as pilot:
            await settle(app, pilot)
            before = list(app.state.record().actions)
            await pilot.press("1", "enter", "down", "enter", "s")
            await settle(app, pilot)
            assert list(app.state.record().actions) == before
            await pilot.resize_terminal(MIN_WIDTH, MIN_HEIGHT)
            await settle(app, pilot)
            await pilot.press("enter")  # the decision list has the keys again
            await settle(app, pilot)
            assert len(app.state.record().actions) > len(before)

    run(play())


def test_the_program_ends_at_once_when_left_while_a_bot_thinks_for_long(tmp_path):
    """In a process of its own: a thread still thinking must not hold the program's exit."""
    import subprocess
    import sys
    import time

    script = ("import sys, pathlib; from tests.tui.test_play import leave_while_thinking; "
              "app, _, _ = leave_while_thinking(pathlib.Path(sys.argv[1]), 'q', 60.0); "
              "print(app.return_value)")
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-c", script, str(tmp_path)], capture_output=True, text=True,
                          timeout=120, env={**os.environ, "PYTHONPATH": os.pathsep.join(["src", "."])})
    assert time.monotonic() - started < 40, "the program waited for the bot"
    assert "Resume with: matanui play --resume" in done.stdout, done.stderr


def test_h_tells_a_hint_and_highlights_its_move_which_enter_then_takes(tmp_path):
    app = PlayApp(session(tmp_path, "reconstruct"), pause=0)

    async def play() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            while len(app.state.legal_actions()) < 2:
                await pilot.press("1")
                await settle(app, pilot)
            await pilot.press("h")
            await settle(app, pilot)
            text, _ = app.message
            decisions = app.query_one("#decisions")
            hinted = decisions.shown[decisions.highlighted]
            assert text.startswith(f"Hint: {decisions.highlighted + 1} (highlighted). ")
            assert "% to win with it" in text
            before = len(app.state.history)
            await pilot.press("enter")
            await settle(app, pilot)
            assert app.state.record().actions[before] == hinted

    run(play())
