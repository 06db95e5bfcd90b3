"""Choosing on the map in real games: the cursor is drawn the moment a decision appears and
wherever the list's highlight leads, the board scrolls to what matters (a placement's new
squares, the mover's piece, your own piece), and a space with several actions narrows the
list to them."""

from __future__ import annotations

from matanui.tui.board import Board
from matanui.tui.decisions import Decisions
from matanui.tui.play import PlayApp

from .screens import drawn_cursor, resumed, run, session, settle


def cursor_at(app: PlayApp) -> tuple[int, int]:
    cursor = app.query_one(Board).cursor
    return cursor.line, cursor.column


async def to_a_walk(app: PlayApp, pilot) -> None:
    """Play on (first decision each time) until the person walks their pawn."""
    for _ in range(40):
        await settle(app, pilot)
        if app.deciding is not None and app.picture.targets:
            return
        await pilot.press("1")
    raise AssertionError("no walk in 40 decisions")


def test_the_cursor_is_drawn_when_a_walk_first_appears_and_where_the_highlight_leads(tmp_path):
    app = PlayApp(session(tmp_path, "makuta"), pause=0)

    async def play() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await to_a_walk(app, pilot)
            assert drawn_cursor(app) == cursor_at(app)
            decisions = app.query_one(Decisions)
            first = cursor_at(app)
            await pilot.press("down")
            await pilot.pause()
            assert decisions.highlighted == 1
            assert drawn_cursor(app) == cursor_at(app) != first
            await pilot.press("up")
            await pilot.pause()
            assert drawn_cursor(app) == cursor_at(app) == first

    run(play())


# -- a six-player island grown wide (a random game played by the engine) -------------------

def wide_island(phase: str, after: int = 1500):
    """The first state in `phase` after `after` actions of a random six-player game whose
    island grows 50 squares wide, and the seat deciding it."""
    from tests.test_regions import FAR_APART_SEED, MAKUTA, SIX, playout

    for step, state in enumerate(playout(MAKUTA, FAR_APART_SEED, SIX)):
        if step >= after and state.phase == phase and len(state.legal_actions()) > 1:
            return state, state.current_player
    raise AssertionError(f"no {phase} after {after} actions")


def in_view(app: PlayApp, line: int, column: int, lines: int = 1, columns: int = 2) -> bool:
    """Whether the board's visible part holds the box at (line, column) of the drawing."""
    board = app.query_one(Board)
    region = board.scrollable_content_region
    x, y = board.scroll_offset
    return (x <= column and column + columns <= x + region.width
            and y <= line and line + lines <= y + region.height)


def new_squares(preview: list[str]) -> tuple[int, int, int, int]:
    """(line, column, lines, columns) of a preview's new board, by its highlight."""
    from rich.text import Text

    from matanui.games.makuta.render import NEW_BOARD

    found = [(n, span.start, span.end) for n, line in enumerate(preview)
             for span in Text.from_markup(line).spans if str(span.style) == NEW_BOARD]
    top, bottom = min(f[0] for f in found), max(f[0] for f in found)
    left, right = min(f[1] for f in found), max(f[2] for f in found)
    return top, left, bottom - top + 1, right - left


def test_each_placement_previewed_has_its_new_board_in_view_and_is_then_chosen(tmp_path):
    state, seat = wide_island("place")
    placements = state.legal_actions()
    app = PlayApp(resumed(tmp_path, state, seat), pause=0)

    async def play() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            decisions = app.query_one(Decisions)
            for number, action in enumerate(placements):
                assert decisions.shown[decisions.highlighted] == action
                await pilot.pause()
                assert in_view(app, *new_squares(app.picture.preview(action))), action
                if number < len(placements) - 1:
                    await pilot.press("down")
            done = len(app.state.record().actions)
            await pilot.press("enter")
            await settle(app, pilot)
            assert app.state.record().actions[done] == placements[-1]

    run(play())


def test_in_a_wide_island_your_piece_and_each_bots_move_are_in_view_and_c_m_centre_on_them(tmp_path):
    state, seat = wide_island("move")
    app = PlayApp(resumed(tmp_path, state, seat), pause=60)  # each bot's move stays until space

    async def play() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert app.deciding == seat and in_view(app, *app.picture.regions.pieces[seat])
            while app.deciding == seat:  # walk on as the list's first says
                await pilot.press("1")
                await pilot.pause()
                if app.deciding == seat:
                    assert in_view(app, *app.picture.regions.pieces[seat])
            seen = set()
            for _ in range(200):
                await pilot.pause(0.05)
                if app.last_seat not in (None, seat) and app.deciding is None:
                    pieces = app.picture.regions.pieces
                    assert in_view(app, *pieces[app.last_seat]), app.last_seat
                    seen.add(app.last_seat)
                    app.query_one(Board).scroll_to(0, 0, animate=False)
                    await pilot.press("c")
                    await pilot.pause()
                    assert in_view(app, *pieces[seat])
                    await pilot.press("m")
                    await pilot.pause()
                    assert in_view(app, *pieces[app.last_seat])
                    if len(seen) >= 2:
                        break
                    await pilot.press("space")
            assert len(seen) >= 2

    run(play())


# -- Masks of Power: a space two actions lead to ---------------------------------------------

def sharing_a_space():
    """A Masks turn of 9 actions where a step north and a card lead to one space."""
    from tests.test_regions import MASKS, playout

    state = next(state for step, state in enumerate(playout(MASKS, 1, ["tahu", "gali"])) if step == 256)
    assert len(state.legal_actions()) == 9
    return state, state.current_player


def test_enter_on_a_space_of_several_actions_narrows_even_a_short_list_to_them_first_highlighted(tmp_path):
    state, seat = sharing_a_space()
    app = PlayApp(resumed(tmp_path, state, seat), pause=0)

    async def play() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            board, decisions = app.query_one(Board), app.query_one(Decisions)
            assert board.here() == ["move:N", "play:25:W"]  # the cursor starts on the first's space
            board.focus()
            await pilot.press("enter")
            await pilot.pause()
            assert decisions.shown == ["move:N", "play:25:W"] and decisions.highlighted == 0
            assert decisions.has_focus and len(app.state.record().actions) == len(state.record().actions)
            await pilot.press("down", "enter")
            await settle(app, pilot)
            assert app.state.record().actions[len(state.record().actions)] == "play:25:W"

    run(play())


# -- Kanohi Miru: a levitation's space chosen on the map -----------------------------------

def levitating():
    """A random four-player game's first Kanohi Miru levitation, and the seat deciding it."""
    from tests.test_regions import MAKUTA, SIX, playout

    state = next(state for state in playout(MAKUTA, 7, SIX[:4], limit=300) if state.phase == "levitate")
    return state, state.current_player


def test_a_miru_levitation_is_chosen_on_the_map_with_the_arrows_and_enter(tmp_path):
    state, seat = levitating()
    app = PlayApp(resumed(tmp_path, state, seat), pause=0)
    done = len(state.record().actions)

    async def play() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            board, decisions = app.query_one(Board), app.query_one(Decisions)
            assert len(decisions.shown) < len(decisions.choices)  # only what is near the cursor
            board.focus()
            start = board.here()
            await pilot.press("right", "right", "down")
            await pilot.pause()
            chosen = board.here()
            assert chosen != start and len(chosen) == 1 and chosen[0].startswith("to:")
            assert drawn_cursor(app) == cursor_at(app) and in_view(app, *cursor_at(app))
            assert decisions.shown[decisions.highlighted] == chosen[0]  # the list follows the map
            await pilot.press("enter")
            await settle(app, pilot)
            assert app.state.record().actions[done] == chosen[0]

    run(play())


def test_the_board_is_as_wide_as_the_widest_placement_it_previews(tmp_path):
    from matanui import games
    from matanui.tui.layout import widest

    state = games.get("makuta").new_game(3, ["tahu", "lewa"], {})
    for action in ("roll", "move:N", "move:N"):  # Tahu walks onto the start board's north portal
        state.apply(action)
    placements = state.legal_actions()
    assert all(action.startswith("place:") for action in placements)
    app = PlayApp(resumed(tmp_path, state, 0), pause=0)

    async def play() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(app, pilot)
            needed = max(widest(app.picture.preview(action)) for action in placements)
            assert needed > widest(app.picture.regions.board)  # the new board sticks out sideways
            assert app.query_one(Board).scrollable_content_region.width >= needed

    run(play())
