"""What a player reads about a game away from the rules: its how-to-play text, the key to
every symbol its boards show and its introduction in the lobby, all kept as data in the
game's package (data/how-to-play.md, data/legend.toml, data/intro.toml) so that the terminal
(`matanui rules`, `?` in a game), the browser page and the board views all read the same words.

The how-to-play text is shared; a passage only one surface needs (the terminal's keys and
glyphs, the browser's clicks) sits between a `::: terminal` or `::: browser` line and a `:::`
line, and the other surface leaves it out.

The key's entries name what a thing is and does; `letter` ties an entry to the code the data
files and observations use (a Masks map symbol, a Makuta board letter or token kind, a
Reconstruct card kind or colour), `glyph` to what the browser boards draw and `terminal` to
what the terminal draws; `terminal_note`, where there is one, says what only the terminal's
drawing needs said.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from functools import cache
from pathlib import Path
from typing import Any

from matanui.engine.data import EntryChecker, load_toml
from matanui.engine.errors import DataFileError

from . import data_folder, names, unknown

GROUPS = ("space", "piece", "token", "die", "card", "mat", "colour")
GROUP_TITLES = {"space": "Spaces", "piece": "Pieces", "token": "Tokens", "die": "Dice",
                "card": "Cards", "mat": "The mat", "colour": "Colours"}
FIELDS = ("id", "group", "letter", "glyph", "terminal", "name", "means", "terminal_note")
SURFACES = ("terminal", "browser")
DIFFICULTIES = ("easy", "medium", "hard")


@dataclass(frozen=True)
class Symbol:
    id: str
    group: str  # one of GROUPS
    letter: str  # the code data files and observations use; "" when there is none
    glyph: str  # what the browser draws; "" when it draws nothing of its own
    terminal: str  # what the terminal draws; "" when it draws nothing of its own
    name: str
    means: str  # what it is and what it does, in a newcomer's words
    terminal_note: str  # what only the terminal's drawing needs said; "" when nothing


def _data(game: str) -> Path:
    if game not in names():
        raise DataFileError(unknown(game))
    return data_folder(game)


@cache
def how_to_play(game: str, surface: str = "terminal") -> str:
    """The game's how-to-play page as Markdown, as `surface` (terminal or browser) shows it."""
    path = _data(game) / "how-to-play.md"
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise DataFileError(f"cannot read {path}: {exc.strerror}") from None
    return _for_surface(text, surface, str(path))


def _for_surface(text: str, surface: str, source: str) -> str:
    """The lines of `text` that `surface` shows: the shared ones, and its own passages."""
    if surface not in SURFACES:
        raise ValueError(f"no surface {surface!r}; the surfaces are: {', '.join(SURFACES)}")
    kept: list[str] = []
    inside: str | None = None
    for number, line in enumerate(text.splitlines(), 1):
        marker = line.strip()
        if marker.startswith(":::"):
            name = marker[3:].strip()
            if name and name not in SURFACES:
                raise DataFileError(f"{source}: line {number}: no surface {name!r}; "
                                    f"the surfaces are: {', '.join(SURFACES)}")
            if bool(name) == (inside is not None):
                raise DataFileError(f"{source}: line {number}: '{marker}' where "
                                    + ("a passage is still open" if inside else "no passage is open"))
            inside = name or None
        elif inside in (None, surface):
            kept.append(line)
    if inside:
        raise DataFileError(f"{source}: the ::: {inside} passage is never closed")
    return "\n".join(kept) + "\n"


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
            means=check.get("means", str), terminal_note=check.get("terminal_note", str, "")))
    return tuple(symbols)


def legend_groups(game: str) -> list[tuple[str, list[Symbol]]]:
    """The key in its groups, in order, each with its title; empty groups left out."""
    symbols = legend(game)
    return [(GROUP_TITLES[group], members) for group in GROUPS
            if (members := [s for s in symbols if s.group == group])]


def legend_data(game: str) -> list[dict[str, Any]]:
    """The key as JSON-safe data, for the browser's board views."""
    return [asdict(symbol) for symbol in legend(game)]


def key_markdown(game: str) -> str:
    """The key to every symbol as Markdown tables, one per group: what the terminal and the
    browser draw, its name and what it does."""
    lines = ["## Key to the symbols", ""]
    for title, members in legend_groups(game):
        lines += [f"### {title}", "", "| Terminal | Board | Name | What it is |",
                  "|---|---|---|---|"]
        for s in members:
            means = f"{s.means} {s.terminal_note}".strip()
            lines.append(f"| {_code(s.terminal)} | {_code(s.glyph)} | {s.name} | {means} |")
        lines.append("")
    return "\n".join(lines)


def _code(text: str) -> str:
    return f"`{text}`" if text.strip() else ""


def page_markdown(game: str) -> str:
    """The terminal's whole page: how to play, then the key."""
    return how_to_play(game).rstrip() + "\n\n" + key_markdown(game)


@dataclass(frozen=True)
class Introduction:
    """What the lobby says of a game before anyone plays it (data/intro.toml)."""
    summary: str  # one line: what you do and how you win
    min_players: int
    max_players: int
    minutes: int  # a typical game's length
    difficulty: str  # one of DIFFICULTIES: how hard it is to learn


@cache
def introduction(game: str) -> Introduction:
    path = _data(game) / "intro.toml"
    data = load_toml(path)
    entries = {}
    for name, fields in (("summary", ("text",)), ("players", ("min", "max")),
                         ("minutes", ("typical",)), ("difficulty", ("level",))):
        check = EntryChecker(str(path), name, data.get(name))
        check.only(fields)
        check.provenance()
        entries[name] = check
    players = entries["players"]
    return Introduction(
        summary=entries["summary"].get("text", str),
        min_players=players.integer("min", 1, 99), max_players=players.integer("max", 1, 99),
        minutes=entries["minutes"].integer("typical", 1, 600),
        difficulty=entries["difficulty"].choice("level", DIFFICULTIES))


def introduction_data(game: str) -> dict[str, Any]:
    """The introduction as JSON-safe data, for the lobby's cards."""
    return asdict(introduction(game))
