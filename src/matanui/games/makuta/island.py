"""The growing island: boards laid portal to portal on one integer grid.

Each board is a square grid (data/boards.toml) turned in quarter turns and placed at an
integer offset. Its walkable squares become spaces (the Toa Landing squares one space);
spaces are joined orthogonally inside a board, and across a seam only where a portal faces a
portal. x grows to the east, y to the south; directions are numbered N, E, S, W (0-3), so a
clockwise quarter turn adds one.

Agents rebuild the same island from an observation's `boards` list with `Island.rebuild`.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from .components import GATE, LANDING, PORTAL, SCENERY, TEMPLE, Board

DIRS = ("N", "E", "S", "W")
DIR_WORDS = ("north", "east", "south", "west")
DX = (0, 1, 0, -1)
DY = (-1, 0, 1, 0)
START_NAME = "start"
NO_SPACE = -1


def turn(r: int, c: int, n: int, rot: int) -> tuple[int, int]:
    """(row, column) of a square after `rot` clockwise quarter turns of an n x n board."""
    for _ in range(rot):
        r, c = c, n - 1 - r
    return r, c


@dataclass(frozen=True)
class Shape:
    """One board turned `rot` quarter turns, in board-local x, y. Spaces are numbered in
    reading order of the unturned board, so a space keeps its number in every turn."""

    board: Board
    rot: int
    cells: tuple[tuple[tuple[int, int], ...], ...]  # per space, its squares
    icons: tuple[str, ...]  # per space, the icon printed on it
    edges: tuple[tuple[int, int, int], ...]  # (space, direction, space) inside the board
    portals: tuple[tuple[int, int], ...]  # (space, outward direction), in board.portals() order
    gates: tuple[tuple[int, int, int], ...]  # (gate space, gate number clockwise, portal space)
    temple: tuple[tuple[int, int], ...]  # the squares under Makuta's temple

    @classmethod
    def make(cls, board: Board, rot: int) -> Shape:
        n = board.size
        index: dict[tuple[int, int], int] = {}
        cells: list[list[tuple[int, int]]] = []
        icons: list[str] = []
        landing = NO_SPACE
        for r, c, char in board.cells():
            if char in (SCENERY, TEMPLE):
                continue
            y, x = turn(r, c, n, rot)
            if char == LANDING and landing != NO_SPACE:
                cells[landing].append((x, y))
                index[(x, y)] = landing
                continue
            index[(x, y)] = len(cells)
            if char == LANDING:
                landing = len(cells)
            cells.append([(x, y)])
            icons.append(char)
        edges: set[tuple[int, int, int]] = set()
        for (x, y), a in index.items():
            for d in range(4):
                b = index.get((x + DX[d], y + DY[d]), NO_SPACE)
                if b != NO_SPACE and b != a:
                    edges.add((a, d, b))
        portals = []
        for r, c in board.portals():
            outward = 0 if r == 0 else 2 if r == n - 1 else 3 if c == 0 else 1
            y, x = turn(r, c, n, rot)
            portals.append((index[(x, y)], (outward + rot) % 4))
        temple = tuple((x, y) for y, x in (turn(r, c, n, rot) for r, c, char in board.cells()
                                           if char == TEMPLE))
        return cls(board, rot, tuple(tuple(c) for c in cells), tuple(icons),
                   tuple(sorted(edges)), tuple(portals), cls._gates(board, rot, index), temple)

    @staticmethod
    def _gates(board: Board, rot: int, index: dict[tuple[int, int], int]
               ) -> tuple[tuple[int, int, int], ...]:
        """Gates numbered clockwise from north around the temple's centre (in the unturned
        board, so the numbering turns with the board and its temple)."""
        temple = [(r, c) for r, c, char in board.cells() if char == TEMPLE]
        if not temple:
            return ()
        cy = sum(r for r, _ in temple) / len(temple)
        cx = sum(c for _, c in temple) / len(temple)
        gates = [(r, c) for r, c, char in board.cells() if char == GATE]
        gates.sort(key=lambda g: math.atan2(g[1] - cx, cy - g[0]) % (2 * math.pi))
        n = board.size
        found = []
        for number, (r, c) in enumerate(gates):
            portal = next((y, x) for y, x in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
                          if 0 <= y < n and 0 <= x < n and board.rows[y][x] == PORTAL)
            gy, gx = turn(r, c, n, rot)
            py, px = turn(*portal, n, rot)
            found.append((index[(gx, gy)], number, index[(px, py)]))
        return tuple(found)


class Island:
    """The boards laid so far and the spaces they make. Spaces (nodes) are numbered in the
    order boards were laid; `adj[4 * node + d]` is the space in direction d or NO_SPACE."""

    __slots__ = ("_dead", "adj", "board_of", "by_name", "cell", "gate", "gate_portal", "icon",
                 "joined", "makuta", "names", "out", "placed", "rects", "shapes", "xy")

    def __init__(self, shapes: dict[str, tuple[Shape, ...]]) -> None:
        self.shapes = shapes  # static, shared by every copy
        self.placed: list[tuple[str, int, int, int]] = []  # (board id, rot, x, y)
        self.rects: list[tuple[int, int, int, int]] = []  # x0, y0, x1, y1 (exclusive)
        self.xy: list[tuple[int, int]] = []
        self.names: list[str] = []
        self.icon: list[str] = []
        self.board_of: list[int] = []  # node -> index in placed
        self.adj: list[int] = []
        self.cell: dict[tuple[int, int], int] = {}
        self.by_name: dict[str, int] = {}
        self.out: dict[int, int] = {}  # portal node -> outward direction
        self.joined: set[int] = set()  # portals joined to a portal of another board
        self.gate: dict[int, int] = {}  # gate node -> gate number
        self.gate_portal: dict[int, int] = {}  # Makuta portal node -> its gate node
        self.makuta = False
        self._dead: tuple[int, frozenset[int]] = (-1, frozenset())  # (boards laid, dead portals)

    @classmethod
    def rebuild(cls, shapes: dict[str, tuple[Shape, ...]],
                placed: Iterable[Iterable]) -> Island:
        """The island an observation's `boards` list describes."""
        island = cls(shapes)
        for board_id, rot, x, y in placed:
            island.add(board_id, rot, x, y)
        return island

    def copy(self) -> Island:
        other = object.__new__(Island)
        other.shapes = self.shapes
        other.placed = list(self.placed)
        other.rects = list(self.rects)
        other.xy = list(self.xy)
        other.names = list(self.names)
        other.icon = list(self.icon)
        other.board_of = list(self.board_of)
        other.adj = list(self.adj)
        other.cell = dict(self.cell)
        other.by_name = dict(self.by_name)
        other.out = dict(self.out)
        other.joined = set(self.joined)
        other.gate = dict(self.gate)
        other.gate_portal = dict(self.gate_portal)
        other.makuta = self.makuta
        other._dead = self._dead  # immutable, and keyed by the boards laid
        return other

    def __len__(self) -> int:
        return len(self.xy)

    # -- laying boards ------------------------------------------------------------------

    def fits(self, x: int, y: int, n: int) -> bool:
        """Boards never overlap (MAKUTA-BOARD-NO-OVERLAP)."""
        for x0, y0, x1, y1 in self.rects:
            if x < x1 and x0 < x + n and y < y1 and y0 < y + n:
                return False
        return True

    def placements(self, portal: int, board_id: str) -> list[tuple[int, int, int, int]]:
        """Every legal way to lay `board_id` portal to portal with `portal`:
        (its portal number Q, rot, x, y), in order of Q (MAKUTA-BOARD-ORIENTATION)."""
        d = self.out[portal]
        px, py = self.xy[portal]
        gx, gy = px + DX[d], py + DY[d]
        if (gx, gy) in self.cell:
            return []
        facing = (d + 2) % 4
        found = []
        shapes = self.shapes[board_id]
        for q, (_, outward) in enumerate(shapes[0].portals):
            rot = (facing - outward) % 4
            shape = shapes[rot]
            qx, qy = shape.cells[shape.portals[q][0]][0]
            x, y = gx - qx, gy - qy
            if self.fits(x, y, shape.board.size):
                found.append((q, rot, x, y))
        return found

    def add(self, board_id: str, rot: int, x: int, y: int) -> tuple[range, list[tuple[int, int]]]:
        """Lay a board (the caller has checked that it fits). Returns its new spaces and the
        pairs of portals that now face each other (MAKUTA-PORTAL-PASSAGE)."""
        shape = self.shapes[board_id][rot]
        placement = len(self.placed)
        self.placed.append((board_id, rot, x, y))
        n = shape.board.size
        self.rects.append((x, y, x + n, y + n))
        first = len(self.xy)
        for cells, icon in zip(shape.cells, shape.icons, strict=False):
            node = len(self.xy)
            if icon == LANDING:
                cx, cy = cells[len(cells) // 2]
                name = START_NAME
            else:
                cx, cy = cells[0]
                name = f"{x + cx},{y + cy}"
            self.xy.append((x + cx, y + cy))
            self.names.append(name)
            self.by_name[name] = node
            self.icon.append(icon)
            self.board_of.append(placement)
            self.adj.extend((NO_SPACE, NO_SPACE, NO_SPACE, NO_SPACE))
            for cx, cy in cells:
                self.cell[(x + cx, y + cy)] = node
        for a, d, b in shape.edges:
            self.adj[4 * (first + a) + d] = first + b
        for space, number, portal in shape.gates:
            self.gate[first + space] = number
            self.gate_portal[first + portal] = first + space
        if shape.gates:
            self.makuta = True
        links = []
        for space, d in shape.portals:
            node = first + space
            self.out[node] = d
            px, py = self.xy[node]
            other = self.cell.get((px + DX[d], py + DY[d]), NO_SPACE)
            if other != NO_SPACE and self.out.get(other) == (d + 2) % 4:
                self.adj[4 * node + d] = other
                self.adj[4 * other + (d + 2) % 4] = node
                self.joined.add(node)
                self.joined.add(other)
                links.append((node, other))
        return range(first, len(self.xy)), links

    # -- reading ------------------------------------------------------------------------

    def is_open_portal(self, node: int) -> bool:
        return node in self.out and node not in self.joined

    def dead_portals(self) -> frozenset[int]:
        """The open portals beyond which no board still to come could ever be laid: no room
        (MAKUTA-BOARD-NO-ROOM), or no board left. Which boards are still to come is public
        (every board not yet laid), so this tells no one the pile's order. Worked out once
        per board laid: it changes only then."""
        laid, dead = self._dead
        if laid != len(self.placed):
            left = [b for b in self.shapes if b not in {p[0] for p in self.placed}]
            dead = frozenset(node for node in self.out if node not in self.joined
                             and not any(self.placements(node, b) for b in left))
            self._dead = (len(self.placed), dead)
        return dead


def make_shapes(boards: Iterable[Board]) -> dict[str, tuple[Shape, ...]]:
    return {b.id: tuple(Shape.make(b, rot) for rot in range(4)) for b in boards}
