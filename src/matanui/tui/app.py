"""The full-screen layout every mode shares, and its keys: fixed regions that never scroll
away (title; the board; what you hold; the table; the last move; the log; the decisions;
a message line), the overlays, and the minimum size. The modes (play.py, lesson.py,
replay.py) fill the regions; this module knows no game."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.geometry import Size
from textual.widget import Widget
from textual.widgets import Footer, Static

from matanui.engine import State
from matanui.games.guide import page_markdown
from matanui.games.text import literal

from .board import Board
from .decisions import Decisions
from .drawing import Picture
from .keys import keys_table
from .layout import share, widest
from .log import Log
from .overlays import Page
from .wrapping import Hanging

MIN_WIDTH, MIN_HEIGHT = 80, 24
PLAIN = ("`matanui play --plain` (and `tutorial`, `replay`) keep the line-by-line mode for screen "
         "readers, pipes and scripts.\n")

# The regions (in the module, not a .tcss file: the package data ships only the games' data).
LAYOUT = """
/* The full-screen game's regions. Their sizes are set by GameApp.arrange from what each
   holds now: the board at its drawing's width where the screen has it. */
#title { height: 1; background: $primary-background; padding: 0 1; }
#middle { height: 12; }
#middle.-stacked { layout: vertical; }
#middle.-stacked #side { layout: horizontal; width: 1fr; height: 1fr; }
#middle.-stacked #mine-box, #middle.-stacked #table-box { width: 1fr; height: 1fr; max-height: 100%; }
#board { width: 1fr; border: round $primary; scrollbar-size: 1 1; }
#board:focus { border: round $accent; }
#side { width: 1fr; }
#mine-box { height: auto; max-height: 65%; border: round $secondary; scrollbar-size-vertical: 1; }
#table-box { height: 1fr; min-height: 3; border: round $secondary; scrollbar-size-vertical: 1; }
#last { height: 1; padding: 0 1; }
#bottom { height: 1fr; }
#log { width: 2fr; border: round $secondary; scrollbar-gutter: stable; scrollbar-size-vertical: 1; }
#decisions { width: 3fr; height: 100%; max-height: 100%; border: round $primary; scrollbar-size-vertical: 1; }
#decisions:focus { border: round $accent; }
#bottom.-many-choices #log { display: none; }
#message { height: 1; padding: 0 1; }
#too-small { display: none; }
.-too-small #game { display: none; }
.-too-small #too-small { display: block; width: 100%; height: 100%; content-align: center middle; }
.-no-decisions #decisions { display: none; }
"""


def too_small(width: int, height: int) -> bool:
    return width < MIN_WIDTH or height < MIN_HEIGHT


class GameApp(App[str]):
    """The shared layout. `exit` returns the words to print after the screen closes."""

    CSS = LAYOUT
    MODE: ClassVar[str]  # which keys act (keys.py)
    ENABLE_COMMAND_PALETTE = False
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("question_mark", "help", "How to play"),
        Binding("l", "log", "Log"),
        Binding("c", "centre_on_me", "Centre on you", show=False),
        Binding("m", "centre_on_last", "Last move", show=False),
        Binding("z", "fit", "Fit board", show=False),
        Binding("a", "all_decisions", "All", show=False),
        Binding("q", "leave", "Quit"),
        Binding("ctrl+q", "leave", show=False, priority=True),  # not Textual's quit: the hint is told
    ]

    def __init__(self, game_name: str) -> None:
        super().__init__()
        self.game_name = game_name
        self.picture: Picture | None = None
        self.previews: list[list[str]] = []  # the board as each placement offered would draw it
        self.me: int | None = None  # the seat whose piece 'c' centres on
        self.last_seat: int | None = None  # the seat that made the last move
        self.last_text = ""
        self.table_lines: list[str] = []
        self.title_text = ""
        self.message: tuple[str, str] = ("", "")  # the message line's words and style
        self.thinking = ""  # "… is thinking…" while a bot searches
        self.save_problem = ""  # why the last save failed, until one succeeds
        self.focused_before: Widget | None = None  # focus while the screen was too small

    def compose(self) -> ComposeResult:
        with Vertical(id="game"):
            yield Static(id="title")
            with Horizontal(id="middle"):
                yield Board(id="board")
                with Vertical(id="side"):
                    with VerticalScroll(id="mine-box"):
                        yield Static(id="mine")
                    with VerticalScroll(id="table-box"):
                        yield Static(id="table")
            yield Static(id="last")
            with Horizontal(id="bottom"):
                yield Log(id="log")
                yield Decisions(id="decisions")
            yield Static(id="message")
            yield Footer()
        yield Static(id="too-small")

    def on_mount(self) -> None:
        self.query_one("#mine-box").border_title = "You hold"
        self.query_one("#table-box").border_title = "Table"
        self.query_one("#log").border_title = "Log"
        self.query_one("#decisions", Decisions).border_title = "Choose"
        self.last_text = "[bold]Last move[/]: none yet"
        self.query_one("#last", Static).update(self.last_text)
        self.check_size()

    def on_resize(self, event: events.Resize) -> None:
        self.check_size(event.size)
        self.arrange(event.size)

    def arrange(self, size: Size | None = None) -> None:
        """Share the screen out by what the regions hold now (see layout.py)."""
        width, height = size or self.size
        regions = self.picture.regions if self.picture else None
        decisions = self.query_one(Decisions)
        # the board is sized to hold the largest of its drawing and the placements' previews
        board = max([regions.board, *self.previews], key=widest) if regions else []
        sizes = share(width, height, board, regions.mine if regions else [],
                      self.table_lines,
                      decisions.prompts() if decisions.display else [], self.last_text, self.title_text,
                      self.message_markup())
        middle = self.query_one("#middle")
        middle.styles.height = sizes.middle
        middle.set_class(sizes.stacked, "-stacked")
        board = self.query_one(Board)
        board.styles.width = "100%" if sizes.board_width is None else sizes.board_width
        board.styles.height = "auto" if sizes.stacked else "100%"
        board.styles.max_height = "70%" if sizes.stacked else None
        self.query_one("#last").styles.height = sizes.last
        self.query_one("#title").styles.height = sizes.title
        self.query_one("#message").styles.height = sizes.message
        self.query_one("#bottom").set_class(sizes.many_choices, "-many-choices")

    def check_size(self, size: Size | None = None) -> None:
        """Below the minimum, only the size needed is shown and no key but q takes anything."""
        width, height = size or self.size
        small = too_small(width, height)
        if small and not self.has_class("-too-small"):
            self.focused_before = self.screen.focused
        self.query_one("#game").disabled = small  # nothing in it is focused, nor takes a key or click
        if not small and self.has_class("-too-small"):
            decisions = self.query_one(Decisions)
            again = self.focused_before or (decisions if decisions.display else self.query_one(Board))
            self.screen.set_focus(again)
        self.set_class(small, "-too-small")
        self.query_one("#too-small", Static).update(
            f"This needs a terminal of at least {MIN_WIDTH}x{MIN_HEIGHT}; this one is {width}x{height}. "
            f"Make it larger (or run with --plain)." if small else "")

    # -- filling the regions ---------------------------------------------------------------

    def show(self, picture: Picture, extra: Sequence[str] = (), title: str | None = None,
             seat: int | None = None) -> None:
        """Draw a picture: its title, board (`seat`'s piece in view, if it has one),
        your pieces and the table (with `extra` lines, e.g. a tutorial's step, on top)."""
        self.picture = picture
        self.previews = []  # until offer() says what the decision's placements would draw
        regions = picture.regions
        self.title_text = title if title is not None else regions.title
        self.query_one("#title", Static).update(Hanging([self.title_text], indent=2))
        self.query_one(Board).show(regions.board, picture.targets, self.piece_of(seat))
        table = [*extra, *regions.table]
        self.query_one("#mine", Static).update(Hanging(regions.mine))
        self.query_one("#table", Static).update(Hanging(table or ["[dim](nothing)[/]"]))
        self.table_lines = table
        self.query_one("#mine-box").display = bool(regions.mine)
        self.arrange()

    def say(self, text: str, style: str = "") -> None:
        """The message line (markup escaped): errors in red, hints in yellow, or "… is
        thinking…" while nothing else is said; then a save problem, until a save succeeds
        (two rows when they need them)."""
        self.message = (text, style)
        self.tell()

    def tell(self) -> None:
        self.query_one("#message", Static).update(Hanging([self.message_markup()]))
        self.arrange()

    def message_markup(self) -> str:
        text, style = self.message
        parts = [(text, style) if text else (self.thinking, ""), (self.save_problem, "red")]
        return "  ".join(f"[{style}]{literal(words)}[/]" if style else literal(words)
                         for words, style in parts if words)

    def show_last(self, who: str, texts: Sequence[str]) -> None:
        said = " ".join(texts) or "(nothing anyone may see)"
        self.last_text = f"[bold]Last move[/], {literal(who)}: {literal(said)}"
        self.query_one("#last", Static).update(Hanging([self.last_text], indent=2))
        self.arrange()

    def offer(self, state: State, actions: Sequence[str]) -> None:
        """The decision list: `actions` in the engine's words, narrowed to what is near the
        board's cursor when they target spaces, and the room it needs."""
        decisions = self.query_one(Decisions)
        targeted = set(self.picture.targets) if self.picture else set()
        decisions.offer([(a, state.describe(a)) for a in actions], targeted)
        if targeted:
            decisions.narrow(self.query_one(Board).near())
        previews = [self.picture.preview(a) for a in actions] if self.picture else []
        self.previews = [lines for lines in previews if lines is not None]
        self.arrange()

    # -- deciding (play and tutorial) ------------------------------------------------------

    def deciding_now(self) -> bool:
        """Whether a decision of the person at the screen is on it (play and tutorial say)."""
        return False

    def take(self, action: str) -> None:
        """Take a decision chosen on the list or the map (play and tutorial say how)."""

    def on_decisions_picked(self, event: Decisions.Picked) -> None:
        self.take(event.action)

    def on_board_chosen(self, event: Board.Chosen) -> None:
        if len(event.actions) == 1:
            self.take(event.actions[0])
        else:  # several actions on one space: the list, narrowed to them, chooses
            decisions = self.query_one(Decisions)
            decisions.narrow_to(event.actions)
            self.arrange()
            decisions.focus()

    def action_number(self, number: int) -> None:
        if not self.deciding_now():
            return
        action = self.query_one(Decisions).pick_number(number)
        if action is None:
            self.say(f"There is no decision {number} on the list.", "red")
        else:
            self.take(action)

    @property
    def log_lines(self) -> list[str]:
        return self.query_one(Log).said

    def add_log(self, lines: Sequence[str]) -> None:
        # a tutorial's intro runs over several lines
        self.query_one(Log).add([literal(line, keep="\n") for line in lines])

    def clear_log(self) -> None:
        self.query_one(Log).forget()

    # -- keys ------------------------------------------------------------------------------

    def action_help(self) -> None:
        keys = f"\n## Keys of the full screen\n\n{keys_table(self.MODE)}\n{PLAIN}"
        self.push_screen(Page("How to play", markdown=page_markdown(self.game_name) + keys))

    def action_log(self) -> None:
        self.push_screen(Page("The whole log", lines=self.log_lines))

    def piece_of(self, seat: int | None) -> tuple[int, int] | None:
        """Where `seat`'s piece is on the board drawn now (None: it has none there)."""
        pieces = self.picture.regions.pieces if self.picture else ()
        return pieces[seat] if seat is not None and seat < len(pieces) else None

    def _centre_on(self, seat: int | None) -> None:
        piece = self.piece_of(seat)
        if piece is not None:
            self.query_one(Board).centre(*piece)
        else:
            self.say("That has no piece on the board.")

    def action_centre_on_me(self) -> None:
        self._centre_on(self.me)

    def action_centre_on_last(self) -> None:
        self._centre_on(self.last_seat)

    def action_fit(self) -> None:
        if self.screen.maximized is not None:
            self.screen.minimize()
        else:
            self.screen.maximize(self.query_one(Board))

    def action_all_decisions(self) -> None:
        self.query_one(Decisions).narrow(None)
        self.arrange()

    def on_board_cursor_moved(self) -> None:
        board, decisions = self.query_one(Board), self.query_one(Decisions)
        decisions.narrow(board.near())
        decisions.highlight_action(board.here())
        self.arrange()

    def on_option_list_option_highlighted(self, event: Decisions.OptionHighlighted) -> None:
        """The highlighted decision is shown on the board: the cursor on the space it leads
        to, or the board as a placement would leave it."""
        action = event.option.id
        if self.picture is None or action is None:
            return
        board = self.query_one(Board)
        preview = self.picture.preview(action)
        board.show_preview(preview)
        if preview is None:
            board.follow(action)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Below the minimum size, or under a page, only leaving acts (no decision is taken
        unseen)."""
        return action == "leave" or not (self.has_class("-too-small") or isinstance(self.screen, Page))

    def action_leave(self) -> None:
        self.exit("")
