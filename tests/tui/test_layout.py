"""How the screen is shared out at 80x24 and larger: the board at its drawing's width, lines
wrapped to the width they get (continuations hung under the words), no row wasted."""

from __future__ import annotations

from rich.text import Text
from textual.app import App, ComposeResult
from textual.geometry import Region

from matanui.tui.app import MIN_HEIGHT, MIN_WIDTH
from matanui.tui.board import Board
from matanui.tui.decisions import Decisions
from matanui.tui.layout import SIDE_MIN, share
from matanui.tui.log import Log
from matanui.tui.play import PlayApp
from matanui.tui.wrapping import wrap_line

from .screens import plain, run, screen_text, session, settle


def words(text: str) -> str:
    """Text with its wrapping undone (runs of spaces and line ends as one space)."""
    return " ".join(text.split())


def log_text(app: App) -> str:
    return "\n".join(strip.text for strip in app.query_one(Log).lines)


def test_the_masks_map_opens_whole_with_its_row_letters_and_column_numbers_at_80x24(tmp_path):
    app = PlayApp(session(tmp_path, "masks"), pause=0)

    async def look() -> None:
        async with app.run_test(size=(MIN_WIDTH, MIN_HEIGHT)) as pilot:
            await settle(app, pilot)
            board = app.query_one(Board)
            assert (board.scroll_x, board.scroll_y) == (0, 0)
            assert "more" not in board.border_title + board.border_subtitle
            text = screen_text(app)
            for line in app.picture.regions.board:  # every line whole: the ruler, each row's letter
                assert plain(line) in text
            assert app.query_one("#side").size.width >= SIDE_MIN

    run(look())


def test_a_log_line_written_before_the_log_had_its_width_is_wrapped_not_cut_and_rewrapped_on_resize(tmp_path):
    app = PlayApp(session(tmp_path, "masks"), pause=0)

    async def look() -> None:
        async with app.run_test(size=(MIN_WIDTH, MIN_HEIGHT)) as pilot:
            await settle(app, pilot)
            setup = app.log_lines[0]  # written at mount, before the log had a width
            log = app.query_one(Log)
            assert words(setup) in words(log_text(app))
            assert all(strip.cell_length <= log.scrollable_content_region.width for strip in log.lines)
            narrow = len(log.lines)
            await pilot.resize_terminal(120, 40)
            await settle(app, pilot)
            assert words(setup) in words(log_text(app))
            assert len(log.lines) < narrow  # wider: fewer rows

    run(look())


class Choosing(App):
    CSS = "Decisions { width: 40; height: 10; }"

    def compose(self) -> ComposeResult:
        yield Decisions()


def test_a_long_decision_wraps_under_its_words_not_under_its_number():
    app = Choosing()

    async def look() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            app.query_one(Decisions).offer([("a", "Play your stop card #35 (purple): Onua Nuva's card "
                                                   "#24 does nothing")])
            await pilot.pause()
            rows = screen_text(app).splitlines()
            first = next(n for n, row in enumerate(rows) if "1. Play your stop card" in row)
            under = rows[first].index("Play")
            continued = rows[first + 1][1:under + 8]  # inside the list's border
            assert continued[:under - 1].strip() == "" and continued[under - 1] != " "

    run(look())


def test_many_decisions_take_the_logs_room_and_a_few_leave_it():
    few = share(80, 24, ["x" * 40] * 10, [], [], [f"{n}. a move" for n in range(4)], "last")
    many = share(80, 24, ["x" * 40] * 10, [], [], [f"{n}. a move" for n in range(11)], "last")
    assert not few.many_choices and many.many_choices


def test_what_you_hold_wraps_at_the_side_columns_width_with_its_parts_kept_together():
    pieces = [p.plain for p in wrap_line(Text("  Flight 400  Shielding 700  Speed 800"), 29)]
    assert pieces == ["  Flight 400  Shielding 700", "    Speed 800"]
    makuta = Text("Tahu (you): white die, at Toa Landing; Kanohi -; Turaga -")
    pieces = [p.plain for p in wrap_line(makuta, 30)]
    assert pieces[0] == "Tahu (you): white die, at Toa" and pieces[1].startswith("  Landing;")


def test_the_side_column_shows_your_first_line_whole_and_no_row_is_left_blank_under_last_move(tmp_path):
    app = PlayApp(session(tmp_path, "masks"), pause=0)

    async def look() -> None:
        async with app.run_test(size=(MIN_WIDTH, MIN_HEIGHT)) as pilot:
            await pilot.press("1")
            await settle(app, pilot)
            mine = app.query_one("#mine")
            shown = mine.render_lines(Region(0, 0, mine.size.width, mine.size.height))
            assert words(plain(app.picture.regions.mine[0])) in words(" ".join(s.text for s in shown))
            assert mine.size.width >= SIDE_MIN - 3  # inside its border and scroll bar
            rows = screen_text(app).splitlines()
            last = next(n for n, row in enumerate(rows) if row.startswith(" Last move"))
            assert rows[last + 1].startswith("╭─ Log")

    run(look())


MASKS_MAP = ["x" * 47] * 10


def test_a_two_line_last_move_or_title_costs_the_decision_list_a_row_not_the_board():
    short = share(80, 24, MASKS_MAP, [], [], ["1. a move"], "Last move: short")
    long = share(80, 24, MASKS_MAP, [], [], ["1. a move"], "Last move: " + "word " * 30, "result " * 20)
    assert short.middle == long.middle == len(MASKS_MAP) + 2
    assert (long.last, long.title) == (2, 2)


def test_your_masks_hand_comes_right_after_your_name_line(tmp_path):
    app = PlayApp(session(tmp_path, "masks"), pause=0)

    async def look() -> None:
        async with app.run_test(size=(MIN_WIDTH, MIN_HEIGHT)) as pilot:
            await settle(app, pilot)
            assert plain(app.picture.regions.mine[1]).startswith("Hand (")

    run(look())


def test_at_the_end_the_result_is_on_screen_whole_and_the_empty_list_gives_the_log_its_room(tmp_path):
    app = PlayApp(session(tmp_path, "reconstruct"), pause=0)

    async def play() -> None:
        async with app.run_test(size=(MIN_WIDTH, MIN_HEIGHT)) as pilot:
            await settle(app, pilot)
            while not app.state.is_over:
                await pilot.press("1")
                await settle(app, pilot)
            title = words(screen_text(app).split("╭")[0])
            assert words(plain(app.picture.regions.title)) in title
            assert not app.query_one(Decisions).display

    run(play())
