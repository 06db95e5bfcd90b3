"""The full-screen replay and tutorial, driven by key presses through Textual's pilot."""

from __future__ import annotations

import asyncio

import pytest
from rich.console import Console

from matanui.engine import Record, replay
from matanui.games.packs import game_for
from matanui.games.tutorial import Walk, tutorials
from matanui.terminal.game import PERSON
from matanui.terminal.session import play_on_session
from matanui.tui.lesson import PLAY_ON, LessonApp
from matanui.tui.play import PlayApp
from matanui.tui.replay import ReplayApp

from .screens import run, screen_text, session, settle


@pytest.fixture
def record(tmp_path) -> Record:
    """A short game against bots, played by the app and saved."""
    game = session(tmp_path, "reconstruct")
    app = PlayApp(game, pause=0)

    async def play() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            for _ in range(4):
                await pilot.press("1")
                await settle(app, pilot)

    run(play())
    return Record.load(game.save_path)


def test_replay_steps_forwards_back_and_to_a_number_with_the_board_and_last_move(record):
    app = ReplayApp(record, game_for(record.game, None))
    total = len(record.actions)

    async def watch() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert f"after action 0 of {total}" in screen_text(app)
            await pilot.press("n")
            await pilot.pause()
            text = screen_text(app)
            assert f"after action 1 of {total}" in text and "Last move, action 1" in text
            await pilot.press("b")
            await pilot.pause()
            assert f"after action 0 of {total}" in screen_text(app)
            await pilot.press("3", "enter")
            await pilot.pause()
            assert f"after action 3 of {total}" in screen_text(app)
            state = replay(record, 3)
            assert state.names[0] in screen_text(app)

    run(watch())


def test_replay_says_so_at_the_last_action_instead_of_closing(record):
    app = ReplayApp(record, game_for(record.game, None))
    total = len(record.actions)

    async def watch() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press(*str(total), "enter")
            await pilot.pause()
            await pilot.press("enter")
            await pilot.pause()
            assert "That was the last action" in screen_text(app)
            assert app.is_running

    run(watch())


@pytest.mark.parametrize("game", ["reconstruct", "masks", "makuta"])
def test_a_tutorial_is_played_to_its_end_with_hints_and_the_opponents_steps_explained(game):
    lesson = tutorials(game)[0]
    app = LessonApp(lesson)

    async def learn() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press("1")  # under the intro, no decision is taken
            await pilot.press("enter")  # the intro closes
            await pilot.pause()
            assert app.walk.done == 0
            hinted = False
            while not app.walk.finished:
                step = app.walk.next_step
                text = screen_text(app)
                assert f"Step {app.walk.done + 1} of {len(lesson.steps)}" in text
                shown = app.query_one("#decisions").shown
                if not hinted and len(shown) > 1:  # another legal move gets a hint, changes nothing
                    wrong = next(a for a in shown if a != step.action)
                    done = app.walk.done
                    app.take(wrong)
                    await pilot.pause()
                    assert app.walk.done == done
                    said = " ".join(screen_text(app).split())
                    assert " ".join(app.walk.hint(wrong).split())[:60] in said
                    hinted = True
                number = shown.index(step.action) + 1
                if number <= 9:
                    await pilot.press(str(number))
                else:
                    await pilot.press(*["down"] * (number - 1), "enter")
                await pilot.pause()
            assert "The tutorial is over" in screen_text(app)
            await pilot.press("q")
        assert app.return_value == ""

    run(learn())


def test_a_tutorial_narrows_the_list_to_a_spaces_several_actions_chosen_on_the_map_not_the_first():
    from matanui.tui.board import Board

    app = LessonApp(tutorials("masks")[0])

    async def learn() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("escape")  # the intro
            await pilot.pause()
            done, shown = app.walk.done, app.query_one("#decisions").shown
            app.query_one(Board).post_message(Board.Chosen(shown[:2]))  # as the map says of a space
            await pilot.pause()
            assert app.walk.done == done and app.query_one("#decisions").shown == shown[:2]

    run(learn())


@pytest.mark.parametrize("game", ["reconstruct", "masks", "makuta"])
def test_a_tutorials_title_and_intro_are_on_screen_at_its_start(game):
    lesson = tutorials(game)[0]
    app = LessonApp(lesson)

    async def learn() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            text = screen_text(app)
            assert lesson.title[:25] in text
            assert " ".join(lesson.intro.split()[:3]) in text
            await pilot.press("enter")
            await pilot.pause()
            assert f"Step 1 of {len(lesson.steps)}" in screen_text(app)

    run(learn())


def help_page(app, *before: str) -> str:
    """The `?` page's markdown, after pressing `before`."""

    async def look() -> str:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press(*before, "question_mark")
            await pilot.pause()
            return app.screen.markdown

    return asyncio.run(look())


def test_the_help_page_lists_only_the_keys_of_the_mode_it_is_in(tmp_path, record):
    play = help_page(PlayApp(session(tmp_path, "reconstruct", save=tmp_path / "other.json"), pause=0))
    tutorial = help_page(LessonApp(tutorials("reconstruct")[0]), "escape")
    watch = help_page(ReplayApp(record, game_for(record.game, None)))
    assert "| 1-9 |" in play and "| s | save |" in play and "| b |" not in play
    assert "| 1-9 |" in tutorial and "| s |" not in tutorial and "| space |" not in tutorial
    assert "| b |" in watch and "| 1-9 |" not in watch and "| s |" not in watch and "| a |" not in watch


def test_the_docs_hold_the_same_keys_as_the_screen_mode_by_mode():
    from pathlib import Path

    from matanui.tui.keys import MODES, keys_table

    docs = (Path(__file__).parents[2] / "docs" / "terminal.md").read_text()
    for mode in MODES:
        assert keys_table(mode) in docs, mode


def test_at_a_tutorials_end_p_plays_on_against_a_bot_from_that_position(tmp_path, monkeypatch):
    lesson = tutorials("masks")[0]
    early, ended = LessonApp(lesson), LessonApp(lesson)
    ended.walk = Walk.to(lesson, len(lesson.steps))[0]

    async def press_p(app: LessonApp) -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("escape")  # the intro
            await pilot.pause()
            await pilot.press("p")
            await pilot.pause()
            if app.is_running:
                assert "p plays on against a bot" not in screen_text(app)
                await pilot.press("q")

    run(press_p(early))
    assert early.return_value != PLAY_ON
    run(press_p(ended))
    assert ended.return_value == PLAY_ON
    monkeypatch.chdir(tmp_path)
    game = play_on_session(lesson, "medium", Console(), input)
    assert game.state.history == ended.walk.state.history and not game.state.is_over
    assert [seat.kind for seat in game.seats] == [PERSON if i == lesson.learner else "medium"
                                                  for i in range(len(game.seats))]
    assert not game.save_path.exists()  # a new game's file, written when it is first saved
