"""Quest for Makuta drawn as text (Rich console markup) from one seat's observation: the
growing island, every collector card as that seat may see it, the dice, the temple and the
decision in progress, within 80 columns. Each space is two characters wide; a wide island is
shown around the viewer's pawn. The key under the map is the game's legend (data/legend.toml),
the same the `?` help shows in full."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.markup import escape

from ..guide import legend
from ..text import WIDTH, fit, game_over, literal, seat_names
from .island import START_NAME, Island
from .rules import MakutaGame

MAX_COLUMNS = (WIDTH - 6) // 2  # two characters each, after the row labels
MAX_ROWS = 30
PAWN_STYLE = {"tahu": "bold red", "onua": "bold magenta", "lewa": "bold green",
              "gali": "bold blue", "kopaka": "bold cyan", "pohatu": "bold yellow"}
ITEM_LETTER = {"kanohi": "k", "turaga": "t", "key": "y"}
KEY_GROUPS = ("space", "piece")


def key() -> str:
    """What each square of the map shows, from the game's legend."""
    return "  ".join(f"{symbol.terminal.strip()} {symbol.name}" for symbol in legend("makuta")
                     if symbol.group in KEY_GROUPS and symbol.terminal)


def render(game: MakutaGame, obs: dict[str, Any], names: Sequence[str] | None = None) -> str:
    """The table as `obs`'s seat sees it; `names` are the seats' display names (default: the
    Toa's names)."""
    names = seat_names(game, obs, names)
    island = Island.rebuild(game.shapes, obs["boards"])
    lines = [_header(obs, names)]
    lines += _map(game, obs, island)
    lines += [f"[dim]{escape(key())}[/]"]
    lines += _players(game, obs, names)
    lines += _table(game, obs, island)
    lines += _decision(game, obs)
    return fit(lines)


def _who(obs: dict[str, Any], names: list[str], seat: int) -> str:
    you = " (you)" if seat == obs["seat"] else ""
    return f"[{PAWN_STYLE.get(obs['players'][seat], 'bold')}]{names[seat]}[/]{you}"


def _header(obs: dict[str, Any], names: list[str]) -> str:
    head = f"[bold]Quest for Makuta[/]  turn {obs['turn']} of at most {obs['turn_limit']}"
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
        return "==" if node in island.joined else "[bold]()[/]"
    if node in island.gate:
        return "G "
    return "[dim]· [/]"


def _map(game: MakutaGame, obs: dict[str, Any], island: Island) -> list[str]:
    x0 = min(r[0] for r in island.rects)
    y0 = min(r[1] for r in island.rects)
    x1 = max(r[2] for r in island.rects)
    y1 = max(r[3] for r in island.rects)
    seat = obs["seat"]
    cx, cy = island.xy[island.by_name[obs["pawns"][seat if seat is not None else 0]]]
    if x1 - x0 > MAX_COLUMNS:
        x0 = max(x0, min(cx - MAX_COLUMNS // 2, x1 - MAX_COLUMNS))
        x1 = x0 + MAX_COLUMNS
    if y1 - y0 > MAX_ROWS:
        y0 = max(y0, min(cy - MAX_ROWS // 2, y1 - MAX_ROWS))
        y1 = y0 + MAX_ROWS
    temple = {(x + tx, y + ty) for board, rot, x, y in island.placed
              for tx, ty in game.shapes[board][rot].temple}
    ruler = [" "] * (2 * (x1 - x0) + 3)
    for x in range(x0, x1):
        if x % 5 == 0:
            label = str(x)
            ruler[2 * (x - x0): 2 * (x - x0) + len(label)] = label
    lines = ["   y\\x" + "".join(ruler).rstrip()]
    for y in range(y0, y1):
        row = []
        for x in range(x0, x1):
            node = island.cell.get((x, y))
            if node is not None:
                anchor = island.xy[node] == (x, y)
                row.append(_cell(game, obs, island, island.names[node], anchor))
            elif (x, y) in temple:
                row.append("[red]MM[/]")
            elif any(a <= x < c and b <= y < d for a, b, c, d in island.rects):
                row.append("[dim]░░[/]")
            else:
                row.append("  ")
        lines.append(f"{y:>5} " + "".join(row))
    return lines


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
