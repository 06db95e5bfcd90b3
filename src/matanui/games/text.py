"""Text for the terminal. Line fitting the games' terminal renderings share: a rendering is
Rich console markup, drawn inside a panel, and every line of it must fit an 80-column
terminal without Rich breaking it (a broken map row is unreadable). Prose lines longer than
that are wrapped here, at spaces, with a hanging indent; lines that fit are left as they are.
And `literal`, through which every surface puts a string it did not write into markup.

A drawing is also given in `Regions` (the board, its key, what the seat holds, the table),
for a full-screen view to lay out in panels of its own, and the spaces a decision's actions
act on as `Target`s on that board, so the view can choose them with a cursor. Each game's
render module gives them as `targets(game, obs, spaces: Mapping[str, str]) -> dict[str,
Target]`: `spaces` is {action id: space name} as the engine names it (`State.targets(action)
["space"]`, worked out by the caller), and the renderer only places those names on its
board (a name not on it is absent); which space an action acts on is the rules' to say."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rich.markup import escape
from rich.text import Text

from matanui.engine.untrusted import printable

if TYPE_CHECKING:
    from matanui.engine import Game

def literal(text: str, keep: str = "") -> str:
    """`text` for Rich markup, shown exactly as it is: markup escaped (a name "[bold]Ana" is
    printed so) and every control character written as its escape (engine/untrusted.py), so
    that no name, card text, record field or message can drive the terminal. `keep`: hidden
    characters left as they are ("\n" for a message of several lines)."""
    return escape(printable(text, keep))


@dataclass(frozen=True)
class Regions:
    """One seat's view of the table in parts, each a list of Rich markup lines."""

    title: str  # one line: game, turn, who decides / the result
    board: list[str]  # the board as lines of any width, never cropped
    key: list[str]  # the key to the board's symbols (lines of at most 80 columns)
    mine: list[str]  # what the viewing seat holds; [] in a public view (seat None)
    table: list[str]  # everyone's public state and the decision in progress
    # Per seat: (line, column) of its piece in `board` (column: a character of the
    # markup-free line), None where it has none on the board.
    pieces: tuple[tuple[int, int] | None, ...]


@dataclass(frozen=True)
class Target:
    """Where on `Regions.board` the space an action names is drawn."""

    line: int  # index into Regions.board
    column: int  # first character (markup-free text) of the space in that line
    width: int  # characters the space takes
    space: str  # the space as the story names it ("0,-3", "F2", "Toa Landing")


def plain(line: str) -> str:
    """A markup line as it shows, markup removed."""
    return Text.from_markup(line).plain


def compose(regions: Regions, board: list[str] | None = None) -> str:
    """The one rendering the line-by-line mode prints: title, board (`board`: its lines as
    printed when they differ from `regions.board`, e.g. in bands), key, what the seat holds,
    then the table, fitted to the panel."""
    drawn = regions.board if board is None else board
    return fit([regions.title, *drawn, *regions.key, *regions.mine, *regions.table])


# The columns inside a panel (border and padding take two each side) in an 80-column terminal.
WIDTH = 76
HANG = 2  # continuation lines are indented this much more than the line they continue


def wrap(line: str, width: int = WIDTH, hang: int | None = None) -> list[str]:
    """One markup line as lines of at most `width` columns, markup kept; continuation lines
    are indented `hang` columns (default: the line's own indent and two more)."""
    text = Text.from_markup(line)
    plain = text.plain
    if text.cell_len <= width:
        return [line]
    lead = len(plain) - len(plain.lstrip(" "))
    hang = min(lead + HANG if hang is None else hang, width // 2)
    cuts: list[int] = []
    start, room = 0, width
    while len(plain) - start > room:
        end = start + room
        space = plain.rfind(" ", start + 1, end + 1)
        cut = space if space > start + lead else end  # a word longer than a line is cut
        cuts.append(cut)
        start = cut + 1 if plain[cut] == " " else cut
        room = width - hang
    pieces = text.divide(cuts)
    lines = [pieces[0].markup]
    for piece in pieces[1:]:
        spaces = len(piece.plain) - len(piece.plain.lstrip(" "))
        lines.append(" " * hang + piece[spaces:].markup)
    return lines


def fit(lines: Iterable[str], width: int = WIDTH) -> str:
    """Lines (each may hold newlines) joined into one rendering that fits `width` columns."""
    return "\n".join(part for line in lines for row in line.split("\n") for part in wrap(row, width))


def seat_names(game: Game, obs: dict[str, Any], names: Sequence[str] | None) -> list[str]:
    """Each seat's name as a rendering writes it (markup escaped): the display names given,
    else the characters' names, as the engine's narration says them."""
    return [literal(name) for name in game.display_names(obs["players"], names)]


def game_over(names: Sequence[str], obs: dict[str, Any],
              verbs: tuple[str, str] = ("wins", "win")) -> str:
    """'[bold]Game over: Gali wins![/]', 'you win' for the viewer (`verbs`: what a winner
    does, said of them and of you), or a draw."""
    winners = obs["winners"]
    if not winners:
        return "[bold]Game over: a draw.[/]"
    won = winners[0]
    who = f"you {verbs[1]}" if won == obs["seat"] else f"{names[won]} {verbs[0]}"
    return f"[bold]Game over: {who}![/]"
