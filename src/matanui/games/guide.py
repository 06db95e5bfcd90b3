"""What a player reads about a game away from the rules: its how-to-play text and the key to
every symbol its boards show, both kept as data in the game's package (data/how-to-play.md,
data/legend.toml) so that the terminal (`matanui rules`, `?` in a game), the browser page
and the board views all read the same words.

The key's entries name what a thing is and does; `letter` ties an entry to the code the data
files and observations use (a Masks map symbol, a Makuta board letter or token kind, a
Reconstruct card kind or colour), `glyph` to what the browser boards draw and `terminal` to
what the terminal draws.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from functools import cache
from pathlib import Path
from typing import Any

from matanui.engine.data import EntryChecker, load_toml
from matanui.engine.errors import DataFileError

from . import names

GAMES_DIR = Path(__file__).parent
GROUPS = ("space", "piece", "token", "die", "card", "mat", "colour")
GROUP_TITLES = {"space": "Spaces", "piece": "Pieces", "token": "Tokens", "die": "Dice",
                "card": "Cards", "mat": "The mat", "colour": "Colours"}
FIELDS = ("id", "group", "letter", "glyph", "terminal", "name", "means")


@dataclass(frozen=True)
class Symbol:
    id: str
    group: str  # one of GROUPS
    letter: str  # the code data files and observations use; "" when there is none
    glyph: str  # what the browser draws; "" when it draws nothing of its own
    terminal: str  # what the terminal draws; "" when it draws nothing of its own
    name: str
    means: str  # what it is and what it does, in a newcomer's words


def _data(game: str) -> Path:
    if game not in names():
        raise DataFileError(f"no game named {game!r}; the games are: {', '.join(names())}")
    return GAMES_DIR / game / "data"


@cache
def how_to_play(game: str) -> str:
    """The game's how-to-play page as Markdown."""
    path = _data(game) / "how-to-play.md"
    try:
        return path.read_text(encoding="utf-8")
    except OSError as exc:
        raise DataFileError(f"cannot read {path}: {exc.strerror}") from None


@cache
def legend(game: str) -> tuple[Symbol, ...]:
    """Every symbol of the game, in the order of its legend file."""
    path = _data(game) / "legend.toml"
    entries = load_toml(path).get("symbol")
    if not isinstance(entries, list) or not entries:
        raise DataFileError(f"{path}: needs [[symbol]] entries")
    symbols: list[Symbol] = []
    for index, entry in enumerate(entries):
        check = EntryChecker(str(path), f"symbol[{index}]", entry)
        check.only(FIELDS)
        check.provenance()
        symbols.append(Symbol(
            id=check.new_key("id", str, {s.id for s in symbols}),
            group=check.choice("group", GROUPS),
            letter=check.get("letter", str), glyph=check.get("glyph", str),
            terminal=check.get("terminal", str), name=check.get("name", str),
            means=check.get("means", str)))
    return tuple(symbols)


def legend_data(game: str) -> list[dict[str, Any]]:
    """The key as JSON-safe data, for the browser's board views."""
    return [asdict(symbol) for symbol in legend(game)]


def key_markdown(game: str) -> str:
    """The key to every symbol as Markdown tables, one per group: what the terminal and the
    browser draw, its name and what it does."""
    lines = ["## Key to the symbols", ""]
    symbols = legend(game)
    for group in GROUPS:
        members = [s for s in symbols if s.group == group]
        if not members:
            continue
        lines += [f"### {GROUP_TITLES[group]}", "", "| Terminal | Board | Name | What it is |",
                  "|---|---|---|---|"]
        for s in members:
            lines.append(f"| {_code(s.terminal)} | {_code(s.glyph)} | {s.name} | {s.means} |")
        lines.append("")
    return "\n".join(lines)


def _code(text: str) -> str:
    return f"`{text}`" if text.strip() else ""


def page_markdown(game: str) -> str:
    """The whole page: how to play, then the key."""
    return how_to_play(game).rstrip() + "\n\n" + key_markdown(game)
