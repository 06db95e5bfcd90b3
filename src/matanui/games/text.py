"""Text for the terminal. Line fitting the games' terminal renderings share: a rendering is
Rich console markup, drawn inside a panel, and every line of it must fit an 80-column
terminal without Rich breaking it (a broken map row is unreadable). Prose lines longer than
that are wrapped here, at spaces, with a hanging indent; lines that fit are left as they are.
And `literal`, through which every surface puts a string it did not write into markup."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
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
