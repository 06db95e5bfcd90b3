"""The game map: side A, side B and the whole island, loaded from data/maps.toml and checked.

A board is a grid of cells numbered `row * width + column` (row 0 at the North edge, column
0 at the West edge). Each cell has a kind (sea cells are no space at all) and a number of
circles (2 on a double space). `step[cell][d]` is the neighbour in direction d (0 North,
1 East, 2 South, 3 West) or -1 at a map's edge; the rules only ever look moves up there.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from matanui.engine.data import EntryChecker, load_toml
from matanui.engine.errors import DataFileError

from .cards import DATA

SEA, BLANK, MISSION, CHALLENGE, GAME_ACTION, PORTAL = -1, 0, 1, 2, 3, 4
KIND_CODES = {"sea": SEA, "blank": BLANK, "mission": MISSION, "challenge": CHALLENGE,
              "game_action": GAME_ACTION, "portal": PORTAL, "west_start": BLANK, "east_start": BLANK}
KIND_NAMES = {BLANK: "blank space", MISSION: "Mission space", CHALLENGE: "Challenge space",
              GAME_ACTION: "Game Action space", PORTAL: "Portal space"}
DELTAS = ((-1, 0), (0, 1), (1, 0), (0, -1))  # (row, column) per direction N, E, S, W
ROW_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
MIN_PORTALS = 3


@dataclass(frozen=True)
class Symbol:
    symbol: str
    kind: str
    circles: int
    name: str


@dataclass(frozen=True)
class Board:
    id: str
    name: str
    width: int
    height: int
    kind: tuple[int, ...]
    circles: tuple[int, ...]
    symbols: tuple[str, ...]  # the data file's token per cell, for drawing
    west_start: int
    east_start: int
    step: tuple[tuple[int, ...], ...]  # per cell, the cell a step N, E, S, W leads to (-1: none)
    portals: tuple[int, ...]
    provenance: str

    def label(self, cell: int) -> str:
        """The space's name: row letter and column number, 'E1' for row E, column 1."""
        row, col = divmod(cell, self.width)
        return f"{ROW_LETTERS[row]}{col + 1}"

    def cell(self, label: str) -> int | None:
        """The cell a label names, or None when it names no space of this board."""
        if len(label) < 2 or label[0] not in ROW_LETTERS or not label[1:].isdigit():
            return None
        row, col = ROW_LETTERS.index(label[0]), int(label[1:]) - 1
        if not (0 <= row < self.height and 0 <= col < self.width):
            return None
        cell = row * self.width + col
        return cell if self.kind[cell] != SEA else None

    def space_cell(self, label: str) -> int:
        """The cell of a label the game wrote (an observation's), which always names a space."""
        cell = self.cell(label)
        if cell is None:
            raise ValueError(f"{label!r} names no space of board {self.id}")
        return cell

    def spaces(self) -> list[int]:
        return [c for c, k in enumerate(self.kind) if k != SEA]


@dataclass(frozen=True)
class Maps:
    legend: dict[str, Symbol]
    boards: dict[str, Board]  # option value ("a", "b", "both") -> board


def _build(board_id: str, name: str, grid: list[list[str]], legend: dict[str, Symbol],
           provenance: str) -> Board:
    height, width = len(grid), len(grid[0])
    tokens = [token for row in grid for token in row]
    kinds = tuple(KIND_CODES[legend[t].kind] for t in tokens)
    step = []
    for cell in range(len(tokens)):
        row, col = divmod(cell, width)
        around = []
        for dr, dc in DELTAS:
            r, c = row + dr, col + dc
            inside = 0 <= r < height and 0 <= c < width and kinds[r * width + c] != SEA
            around.append(r * width + c if inside and kinds[cell] != SEA else -1)
        step.append(tuple(around))
    starts = {legend[t].kind: i for i, t in enumerate(tokens) if legend[t].kind.endswith("_start")}
    return Board(
        id=board_id, name=name, width=width, height=height, kind=kinds,
        circles=tuple(legend[t].circles for t in tokens), symbols=tuple(tokens),
        west_start=starts["west_start"], east_start=starts["east_start"], step=tuple(step),
        portals=tuple(i for i, k in enumerate(kinds) if k == PORTAL), provenance=provenance,
    )


def _reachable(board: Board, start: int, allowed: set[int]) -> set[int]:
    seen, todo = {start}, [start]
    while todo:
        for nxt in board.step[todo.pop()]:
            if nxt >= 0 and nxt in allowed and nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen


def check_board(board: Board, check: EntryChecker, small: bool = False) -> None:
    """The design rules every map keeps (see the head of data/maps.toml); a small map, for a
    variant, needs no Portal."""
    spaces = set(board.spaces())
    if _reachable(board, board.west_start, spaces) != spaces:
        check.fail("rows", "has spaces that cannot be reached from the West start")
    walkable = {c for c in spaces if board.kind[c] != CHALLENGE}
    if _reachable(board, board.west_start, walkable) != walkable:
        check.fail("rows", "walls some spaces in behind Challenge spaces "
                   "(a Toa with a Mission could not leave)")
    for cell in spaces:
        for nxt in board.step[cell]:
            if nxt > cell and board.kind[nxt] == board.kind[cell] in (CHALLENGE, GAME_ACTION):
                what = KIND_NAMES[board.kind[cell]]
                check.fail("rows", f"puts two {what}s side by side at {board.label(cell)} and "
                           f"{board.label(nxt)}")
    for cell in spaces:
        if not any(nxt >= 0 and board.kind[nxt] not in (CHALLENGE, GAME_ACTION) for nxt in board.step[cell]):
            check.fail("rows", f"walls {board.label(cell)} in: next to it are only Challenge and Game Action "
                       "spaces, which a Toa may be unable to enter")
    if len(board.portals) < MIN_PORTALS and not (small and not board.portals):
        needed = f"none or at least {MIN_PORTALS}" if small else f"at least {MIN_PORTALS}"
        check.fail("rows", f"has {len(board.portals)} Portal spaces; {needed} are needed")
    for kind in (MISSION, CHALLENGE, GAME_ACTION):
        if kind not in board.kind:
            check.fail("rows", f"has no {KIND_NAMES[kind]}")


def _load_legend(data: dict, source: str) -> dict[str, Symbol]:
    legend: dict[str, Symbol] = {}
    for index, entry in enumerate(data.get("legend", []), start=1):
        check = EntryChecker(source, f"legend[{index}]", entry)
        check.only(("symbol", "kind", "circles", "name"))
        symbol = check.get("symbol", str)
        if symbol in legend or not symbol or any(ch.isspace() for ch in symbol):
            check.fail("symbol", f"is {symbol!r}: symbols are unique and contain no spaces")
        kind = check.choice("kind", KIND_CODES)
        circles = check.integer("circles", 0, 2)
        if (circles == 0) != (kind == "sea") or (circles == 2 and kind not in ("challenge", "game_action")):
            check.fail("circles", f"is {circles}; sea has 0, double (2) only Challenge and Game Action "
                       "spaces, the rest 1")
        check.provenance()
        legend[symbol] = Symbol(symbol, kind, circles, check.get("name", str))
    for kind in ("west_start", "east_start", "sea"):
        if not any(s.kind == kind for s in legend.values()):
            raise DataFileError(f"{source}: the legend needs a symbol of kind {kind!r}")
    return legend


def _parse_grid(check: EntryChecker, legend: dict[str, Symbol]) -> list[list[str]]:
    rows = check.get("rows", list)
    grid = []
    for number, row in enumerate(rows, start=1):
        if not isinstance(row, str):
            check.fail(f"rows[{number}]", "must be a string of symbols separated by spaces")
        tokens = row.split()
        for token in tokens:
            if token not in legend:
                check.fail(f"rows[{number}]", f"has {token!r}, which is not in the legend: "
                           f"{', '.join(legend)}")
        grid.append(tokens)
    if not grid or len({len(r) for r in grid}) != 1:
        check.fail("rows", "must be at least one row, every row with the same number of spaces")
    if len(grid) > len(ROW_LETTERS):
        check.fail("rows", f"has {len(grid)} rows; at most {len(ROW_LETTERS)}")
    for kind in ("west_start", "east_start"):
        count = sum(legend[t].kind == kind for row in grid for t in row)
        if count != 1:
            check.fail("rows", f"has {count} {kind.replace('_', ' ')} spaces; exactly 1 is needed")
    return grid


def load_maps(path: Path | None = None) -> Maps:
    path = path or DATA / "maps.toml"
    data = load_toml(path)
    source = path.name
    legend = _load_legend(data, source)
    blank = next(s.symbol for s in legend.values() if s.kind == "blank")
    grids: dict[str, list[list[str]]] = {}
    boards: dict[str, Board] = {}
    for index, entry in enumerate(data.get("side", []), start=1):
        check = EntryChecker(source, f"side[{index}]", entry)
        check.only(("id", "name", "rows", "small"))
        side_id = check.get("id", str)
        if side_id in boards:
            check.fail("id", f"repeats {side_id!r}")
        grid = _parse_grid(check, legend)
        small = check.get("small", bool, False)
        if not small:  # a small map is a variant's, never half of the island
            grids[side_id] = grid
        boards[side_id] = _build(side_id, check.get("name", str), grid, legend, check.provenance())
        check_board(boards[side_id], check, small)
    for index, entry in enumerate(data.get("island", []), start=1):
        check = EntryChecker(source, f"island[{index}]", entry)
        check.only(("id", "name", "sides"))
        island_id = check.get("id", str)
        if island_id in boards:
            check.fail("id", f"repeats {island_id!r}")
        sides = check.choices("sides", list(grids))
        if len(sides) < 2 or len({len(grids[s]) for s in sides}) != 1:
            check.fail("sides", "must name two or more sides of the same height, West to East")
        grid = [[t for part in row for t in part] for row in zip(*(grids[s] for s in sides), strict=True)]
        # Only the westmost West start and the eastmost East start remain start spaces.
        cells = [(c, r, legend[t].kind) for r, row in enumerate(grid) for c, t in enumerate(row)]
        starts = {kind: [(c, r) for c, r, k in cells if k == kind] for kind in ("west_start", "east_start")}
        inner = sorted(starts["west_start"])[1:] + sorted(starts["east_start"], reverse=True)[1:]
        for c, r in inner:
            grid[r][c] = blank
        boards[island_id] = _build(island_id, check.get("name", str), grid, legend, check.provenance())
        check_board(boards[island_id], check)
    if not boards:
        raise DataFileError(f"{source}: needs at least one [[side]]")
    return Maps(legend, boards)
