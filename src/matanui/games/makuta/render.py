"""Quest for Makuta drawn as text (Rich console markup) from one seat's observation: the
growing island, every collector card as that seat may see it, the dice, the temple and the
decision in progress. Each space is two characters wide. `regions` gives the whole island,
never cropped; `render` prints it in bands of at most 80 columns, each labelled with its x
range, when it is wider. The key under the map is the game's legend (data/legend.toml), the
same the `?` help shows in full. `targets` places on that map the spaces the engine says a
decision's actions act on; `preview` draws a board placement before it is chosen."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import pairwise
from typing import Any

from rich.markup import escape

from ..guide import legend
from ..text import WIDTH, Regions, Target, compose, game_over, literal, seat_names, wrap
from .island import START_NAME, Island
from .rules import MakutaGame

LEAD = 6  # the row labels before each row of the map
CELL = 2  # characters a square takes
BAND = (WIDTH - LEAD) // CELL // 5 * 5  # squares in a band of a wide map (a multiple of 5)
PAWN_STYLE = {"tahu": "bold red", "onua": "bold magenta", "lewa": "bold green",
              "gali": "bold blue", "kopaka": "bold cyan", "pohatu": "bold yellow"}
ITEM_LETTER = {"kanohi": "k", "turaga": "t", "key": "y"}
KEY_GROUPS = ("space", "piece")
# A board in a placement's preview: a background, and a mark in every square of it so that
# it reads without colour too (NO_COLOR): '·▒' a plain space, 'G▒' a gate, '1▒' portal 1,
# '▒▒' scenery.
NEW_BOARD = "on grey30"
NEW_MARK = "▒"


PREVIEW_KEY = f"  {NEW_MARK}{NEW_MARK} the new board, where a placement would lay it"


def key() -> str:
    """What each square of the map shows, from the game's legend."""
    return "  ".join(f"{symbol.terminal.strip()} {symbol.name}" for symbol in legend("makuta")
                     if symbol.group in KEY_GROUPS and symbol.terminal)


def regions(game: MakutaGame, obs: dict[str, Any], names: Sequence[str] | None = None) -> Regions:
    """The table as `obs`'s seat sees it, in parts; `names` are the seats' display names
    (default: the Toa's names)."""
    names = seat_names(game, obs, names)
    island = Island.rebuild(game.shapes, obs["boards"])
    x0, y0, x1, _ = _bounds(island)
    seat = obs["seat"]
    players = _players(game, obs, names)
    return Regions(
        title=_header(obs, names),
        board=_map(game, obs, island, range(x0, x1)),
        key=wrap(f"[dim]{escape(key())}{PREVIEW_KEY if obs['placing'] else ''}[/]"),
        mine=[players[seat]] if seat is not None else [],
        table=[line for s, line in enumerate(players) if s != seat]
        + _table(game, obs, island) + _decision(game, obs),
        pieces=tuple((1 + island.xy[n][1] - y0, LEAD + CELL * (island.xy[n][0] - x0))
                     for n in (island.by_name[p] for p in obs["pawns"])))


def render(game: MakutaGame, obs: dict[str, Any], names: Sequence[str] | None = None) -> str:
    """The table as `obs`'s seat sees it, in 80 columns: a wider island in labelled bands."""
    parts = regions(game, obs, names)
    island = Island.rebuild(game.shapes, obs["boards"])
    x0, _, x1, _ = _bounds(island)
    if LEAD + CELL * (x1 - x0) <= WIDTH:
        return compose(parts)
    cuts = [x0, *range((x0 // 5 + 1) * 5 + BAND - 5, x1, BAND), x1]
    board = []
    for a, b in pairwise(cuts):
        board.append(f"[bold]x {a} to {b - 1}[/] (of {x0} to {x1 - 1})")
        board += _map(game, obs, island, range(a, b))
    return compose(parts, board)


def targets(game: MakutaGame, obs: dict[str, Any], spaces: Mapping[str, str]) -> dict[str, Target]:
    """Where on `regions(...).board` each space named in `spaces` ({action: space name}, as
    the engine's `State.targets` names it) is drawn; a name not on the island is absent."""
    island = Island.rebuild(game.shapes, obs["boards"])
    x0, y0, _, _ = _bounds(island)
    found = {}
    for action, name in spaces.items():
        node = island.by_name.get(name)
        if node is None:
            continue
        x, y = island.xy[node]
        found[action] = Target(1 + y - y0, LEAD + CELL * (x - x0), CELL,
                               "Toa Landing" if name == START_NAME else name)
    return found


def preview(game: MakutaGame, obs: dict[str, Any], action: str) -> list[str] | None:
    """The map as it would be with the drawn board laid so (`place:ROT:Q`): the new board's
    squares highlighted, its portals numbered from 1 as the words and the story number them
    (the joined one is portal Q + 1). Drawn from what the observation shows only: the tokens
    the board would get are not drawn yet, so none is shown. None for any other action."""
    at = obs["placements"].get(action) if obs["placing"] else None
    if at is None:
        return None
    island = Island.rebuild(game.shapes, obs["boards"])
    rot, x, y = at
    shape = game.shapes[obs["placing"]][rot]
    first = len(island)
    island.add(obs["placing"], rot, x, y)
    numbers = {first + space: number for number, (space, _) in enumerate(shape.portals, start=1)}
    x0, _, x1, _ = _bounds(island)
    return _map(game, obs, island, range(x0, x1), new=(first, numbers))


def _bounds(island: Island) -> tuple[int, int, int, int]:
    """x0, y0, x1, y1 (exclusive) of every board laid."""
    return (min(r[0] for r in island.rects), min(r[1] for r in island.rects),
            max(r[2] for r in island.rects), max(r[3] for r in island.rects))


def _who(obs: dict[str, Any], names: list[str], seat: int) -> str:
    you = " (you)" if seat == obs["seat"] else ""
    return f"[{PAWN_STYLE.get(obs['players'][seat], 'bold')}]{names[seat]}[/]{you}"


def _header(obs: dict[str, Any], names: list[str]) -> str:
    # the engine counts on to the turn past the limit when it declares the draw
    turn = min(obs["turn"], obs["turn_limit"])
    head = f"[bold]Quest for Makuta[/]  turn {turn} of at most {obs['turn_limit']}"
    if obs["is_over"]:
        return f"{head}  " + game_over(names, obs, ("beats Makuta and wins", "beat Makuta and win"))
    return head + f"  {_who(obs, names, obs['current_player'])} to decide"


def _cell(game: MakutaGame, obs: dict[str, Any], island: Island, name: str,
          anchor: bool) -> str:
    """Two characters for one square of a space: a pawn (drawn on a large space's middle
    square only), else its token, else what the space is."""
    pawns = [s for s, p in enumerate(obs["pawns"]) if p == name] if anchor else []
    if pawns:
        toa = obs["players"][pawns[0]]
        mark = "+" if len(pawns) > 1 else "*"
        return f"[{PAWN_STYLE.get(toa, 'bold')}]{game.parts.toa[toa].name[0]}{mark}[/]"
    if name in obs["rahi"]:
        face = obs["rahi"][name].split(":")
        return f"[red]{face[2]:>2}[/]" if len(face) == 3 else "[red]r?[/]"
    if name in obs["locks"]:
        face = obs["locks"][name]
        number = island.gate[island.by_name[name]]
        return f"[yellow]L{number}[/]" if face != "lock" else "[yellow]G?[/]"
    if name in obs["tokens"]:
        kind, _, what = obs["tokens"][name][0].partition(":")
        return f"[cyan]{ITEM_LETTER[kind]}{what[:1] or '?'}[/]"
    node = island.by_name[name]
    if name == START_NAME:
        return "[bold]SS[/]"
    if node in island.out:
        if node in island.joined:
            return "=="
        return "[dim]><[/]" if node in island.dead_portals() else "[bold]()[/]"
    if node in island.gate:
        return "G "
    return "[dim]· [/]"


def _map(game: MakutaGame, obs: dict[str, Any], island: Island, xs: range,
         new: tuple[int, dict[int, int]] | None = None) -> list[str]:
    """The ruler and the rows of the island over the columns `xs`, all its rows. `new`: the
    first space of a board being previewed and its portals' numbers, drawn highlighted."""
    _, y0, _, y1 = _bounds(island)
    temple = {(x + tx, y + ty) for board, rot, x, y in island.placed
              for tx, ty in game.shapes[board][rot].temple}
    laid = island.rects[-1] if new else None
    ruler = [" "] * (CELL * len(xs) + 3)
    for x in xs:
        if x % 5 == 0:
            label = str(x)
            ruler[CELL * (x - xs.start): CELL * (x - xs.start) + len(label)] = label
    lines = ["   y\\x" + "".join(ruler).rstrip()]
    for y in range(y0, y1):
        row = []
        for x in xs:
            node = island.cell.get((x, y))
            if new and node is not None and node >= new[0]:
                number = new[1].get(node)
                text = f"[bold yellow]{number}[/]" if number else _plain(island, node)
                row.append(f"[{NEW_BOARD}]{text}{NEW_MARK}[/]")
            elif node is not None:
                anchor = island.xy[node] == (x, y)
                row.append(_cell(game, obs, island, island.names[node], anchor))
            elif (x, y) in temple:
                row.append("[red]MM[/]")
            elif laid and laid[0] <= x < laid[2] and laid[1] <= y < laid[3]:
                row.append(f"[{NEW_BOARD}]{NEW_MARK * 2}[/]")
            elif any(a <= x < c and b <= y < d for a, b, c, d in island.rects):
                row.append("[dim]░░[/]")
            else:
                row.append("  ")
        lines.append(f"{y:>5} " + "".join(row))
    return lines


def _plain(island: Island, node: int) -> str:
    """A space of a board not yet laid, as printed on it, in one character (its tokens are
    not drawn yet; the start board is never laid in play)."""
    return "G" if node in island.gate else "·"


def _face(game: MakutaGame, face: str) -> str:
    kind, _, rest = face.partition(":")
    if not rest:
        return "?"
    if kind == "key":
        return f"{rest} key"
    return rest.capitalize()


def _players(game: MakutaGame, obs: dict[str, Any], names: list[str]) -> list[str]:
    lines = []
    for seat in range(len(obs["players"])):
        card = obs["cards"][seat]
        parts = []
        for kind, label in (("kanohi", "Kanohi"), ("turaga", "Turaga"), ("key", "Keys")):
            faces = card[kind]
            shown = ", ".join(_face(game, f) for f in faces) or "-"
            parts.append(f"{label} {shown}")
        where = obs["pawns"][seat]
        where = "Toa Landing" if where == START_NAME else where
        lines.append(f"{_who(obs, names, seat)}: {obs['dice'][seat]} die, at {where}; "
                     + "; ".join(parts))
    return lines


def _table(game: MakutaGame, obs: dict[str, Any], island: Island) -> list[str]:
    bags = ", ".join(f"{n} {k}" for k, n in obs["bags"].items())
    start = ", ".join(_face(game, f) for f in obs["start"]) or "empty"
    lines = [f"Boards left: {obs['pile']}   Face-down supply: {bags}",
             f"Start space: {start}"]
    if obs["temple"]:
        locks = []
        for name, face in sorted(obs["locks"].items(), key=lambda i: island.gate[island.by_name[i[0]]]):
            number = island.gate[island.by_name[name]]
            code = face.split(":")[1].replace("-", "/") if face != "lock" else "face down"
            locks.append(f"L{number} at {name}: {code} ({obs['temple'][number]})")
        facing = ", ".join(f"{n}:{c}" for n, c in enumerate(obs["temple"]))
        lines.append(f"Makuta's temple, colour facing each gate: {facing}")
        if locks:
            lines.append("Locks: " + "; ".join(locks))
    if obs["beaten"]:
        lines.append(f"Rahi beaten: {len(obs['beaten'])}")
    return lines


def _decision(game: MakutaGame, obs: dict[str, Any]) -> list[str]:
    lines = []
    phase = obs["phase"]
    if phase == "move":
        lines.append(f"Rolled {obs['roll']}: {obs['steps_left']} left; path "
                     + " > ".join(obs["path"]))
    if obs["challenge"]:
        c = obs["challenge"]
        used = ", ".join(_face(game, f) for f in c["used"]) or "nothing shown yet"
        target = "Makuta" if c["target"] == "makuta" else "a Rahi"
        rolled = f"rolled {c['roll']}" if c["roll"] else "not rolled yet"
        lines.append(f"Challenge against {target} of strength {c['strength']} with the "
                     f"{c['die']} die ({rolled}); bonus {c['bonus']} ({used})")
    if obs["placing"]:
        lines.append(f"New board: {literal(game.parts.boards[obs['placing']].name)}")
    if obs["waiting"]:
        lines.append(f"Still to collect: {len(obs['waiting'])} token(s)")
    return lines
