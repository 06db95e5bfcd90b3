"""Quest for Makuta's data: the Toa, dice, temple, limits, tokens and the 20 boards, loaded
from data/*.toml and validated. Errors name the file, the entry and the field."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from matanui.engine.data import EntryChecker, load_toml
from matanui.engine.errors import DataFileError

DATA = Path(__file__).with_name("data")

# Token kinds, in the order collector cards hold them; Rahi and locks never sit on a card.
KANOHI, TURAGA, KEY, RAHI, LOCK = range(5)
KIND_IDS = ("kanohi", "turaga", "key", "rahi", "lock")
CARD_KINDS = (KANOHI, TURAGA, KEY)

# Board legend (see data/boards.toml).
PLAIN, SCENERY, PORTAL, LANDING, GATE, TEMPLE = ".", "#", "P", "L", "G", "M"
TOKEN_ICONS = {"K": KANOHI, "T": TURAGA, "Y": KEY, "R": RAHI}
LEGEND = set(".#PLGM") | set(TOKEN_ICONS)
ROLES = ("start", "makuta", "land")
POWERS = ("steal", "levitate")


@dataclass(frozen=True)
class Toa:
    id: str
    name: str
    element: str
    turaga: str


@dataclass(frozen=True)
class Segment:
    colour: str
    power: int


@dataclass(frozen=True)
class Rules:
    start_die: str
    first_player_die: str
    temple_die: str
    key_limit: int
    kanohi_limit: int
    turaga_limit: int
    keys_to_challenge: int
    own_turaga_bonus: int
    other_turaga_bonus: int


@dataclass(frozen=True)
class Token:
    """One physical token. `name` is what its face shows (a mask, a Turaga, a key symbol,
    a Rahi kind, a lock code); `view` the short id observations and arrangements use."""

    index: int
    kind: int
    name: str
    label: str
    view: str
    value: int = 0  # a Rahi's strength
    bonus: int = 0  # a Kanohi's challenge points
    die: str = ""  # the die a Kanohi puts in use
    power: str = ""  # a Kanohi's once-used power
    wild: bool = False  # a yellow key
    code: tuple[str, ...] = ()  # a lock's three symbols


@dataclass(frozen=True)
class Board:
    id: str
    name: str
    role: str
    rows: tuple[str, ...]

    @property
    def size(self) -> int:
        return len(self.rows)

    def cells(self) -> Iterator[tuple[int, int, str]]:
        for r, row in enumerate(self.rows):
            for c, char in enumerate(row):
                yield r, c, char

    def portals(self) -> list[tuple[int, int]]:
        """The portal squares in reading order: `place:ROT:Q` names the Q-th."""
        return [(r, c) for r, c, char in self.cells() if char == PORTAL]

    def icon_count(self, icon: str) -> int:
        return sum(row.count(icon) for row in self.rows)


@dataclass(frozen=True)
class Components:
    toa: dict[str, Toa]
    dice: dict[str, int]  # die id -> faces
    segments: tuple[Segment, ...]
    rules: Rules
    tokens: tuple[Token, ...]
    boards: dict[str, Board]

    def board_of_role(self, role: str) -> Board:
        return next(b for b in self.boards.values() if b.role == role)


def _entries(data: dict[str, Any], table: str, source: str) -> Iterator[EntryChecker]:
    entries = data.get(table, [])
    if not isinstance(entries, list):
        raise DataFileError(f"{source}: [[{table}]] must be an array of tables")
    for number, entry in enumerate(entries, start=1):
        yield EntryChecker(source, f"{table}[{number}]", entry)


def load_components(path: Path, tokens_path: Path, boards_path: Path) -> Components:
    data = load_toml(path)
    source = path.name
    contents = EntryChecker(source, "contents", data.get("contents"))
    contents.only(("boards", "toa", "turaga", "kanohi", "locks", "keys", "rahi"))
    contents.provenance()
    counts = {name: contents.integer(name, 1, 1000) for name in
              ("boards", "toa", "turaga", "kanohi", "locks", "keys", "rahi")}

    toa: dict[str, Toa] = {}
    for check in _entries(data, "toa", source):
        check.only(("id", "name", "element", "turaga"))
        check.provenance()
        one = Toa(*(check.get(f, str) for f in ("id", "name", "element", "turaga")))
        if one.id in toa:
            check.fail("id", f"repeats {one.id!r}")
        toa[one.id] = one
    if len(toa) != counts["toa"]:
        raise DataFileError(f"{source}: contents.toa says {counts['toa']} Toa but "
                            f"{len(toa)} [[toa]] entries follow")

    dice: dict[str, int] = {}
    for check in _entries(data, "die", source):
        check.only(("id", "faces"))
        check.provenance()
        dice[check.new_key("id", str, dice)] = check.integer("faces", 2, 100)

    segments = load_temple(data, source)

    check = EntryChecker(source, "rules", data.get("rules"))
    fields = Rules.__dataclass_fields__
    check.only(fields)
    check.provenance()
    values: dict[str, Any] = {}
    for name in fields:
        values[name] = check.choice(name, dice) if name.endswith("_die") else \
            check.integer(name, 1, 100)
    rules = Rules(**values)

    if rules.keys_to_challenge > rules.key_limit:  # MAKUTA-LOCK-CODE against the key limit
        check.fail("keys_to_challenge", f"is {rules.keys_to_challenge}, but a Toa may hold only "
                   f"{rules.key_limit} keys (rules.key_limit): no Toa could ever challenge Makuta")
    tokens = load_tokens(tokens_path, toa, dice, counts)
    check_winnable(source, tokens_path.name, rules, dice, segments, tokens)
    boards = load_boards(boards_path, tokens, counts["boards"], len(segments))
    return Components(toa, dice, tuple(segments), rules, tokens, boards)


def check_winnable(source: str, tokens_source: str, rules: Rules, dice: dict[str, int],
                   segments: tuple[Segment, ...], tokens: tuple[Token, ...]) -> None:
    """Refuse data on which no Toa could win (MAKUTA-OBJECT): some lock must be openable
    with `keys_to_challenge` keys from the bag (each key fits one symbol of the code, a wild
    key any), and the best total a challenge could reach (the largest die in play, the best
    Kanohi and Turaga a Toa may hold) must beat Makuta's weakest segment. Both are upper
    bounds, so a game that can be won is never refused."""
    keys = [t for t in tokens if t.kind == KEY]
    wild = sum(t.wild for t in keys)
    fitting = max((wild + sum(min(code.count(symbol), sum(k.name == symbol for k in keys if not k.wild))
                               for symbol in set(code))
                   for code in (t.code for t in tokens if t.kind == LOCK)), default=0)
    if fitting < rules.keys_to_challenge:
        raise DataFileError(f"{tokens_source}: no lock can be opened with {rules.keys_to_challenge} "
                            f"keys: the most keys that fit any lock's code (with the wild ones) "
                            f"are {fitting}")
    faces = max([dice[rules.start_die]] + [dice[t.die] for t in tokens if t.kind == KANOHI and t.die])
    bonuses = sorted((t.bonus for t in tokens if t.kind == KANOHI), reverse=True)[:rules.kanohi_limit]
    turaga = rules.turaga_limit * max(rules.own_turaga_bonus, rules.other_turaga_bonus)
    best = faces + sum(bonuses) + turaga
    weakest = min(segment.power for segment in segments)
    if weakest >= best:
        raise DataFileError(f"{source}: Makuta's weakest segment has power {weakest}, and the best "
                            f"challenge total is {best} (the {faces}-faced die, {rules.kanohi_limit} "
                            f"Kanohi, {rules.turaga_limit} Turaga); a Toa needs more than Makuta's "
                            "power, so no Toa could ever beat Makuta")


def load_temple(data: dict[str, Any], source: str) -> tuple[Segment, ...]:
    """The coloured segments (`[[segment]]`, colour and power) in the clockwise order that
    `[temple]` gives them round the temple."""
    power: dict[str, int] = {}
    for check in _entries(data, "segment", source):
        check.only(("colour", "power"))
        check.provenance()
        power[check.new_key("colour", str, power)] = check.integer("power", 1, 1000)
    if len(power) < 2:
        raise DataFileError(f"{source}: Makuta's temple needs at least 2 [[segment]] entries")
    check = EntryChecker(source, "temple", data.get("temple"))
    check.only(("clockwise",))
    check.provenance()
    order = check.choices("clockwise", power)
    if len(order) != len(power):
        check.fail("clockwise", f"must name every segment colour once: {', '.join(power)}")
    return tuple(Segment(colour, power[colour]) for colour in order)


def load_tokens(path: Path, toa: dict[str, Toa], dice: dict[str, int],
                counts: dict[str, int]) -> tuple[Token, ...]:
    data = load_toml(path)
    source = path.name
    tokens: list[Token] = []

    def add(count: int, **fields: Any) -> None:
        for _ in range(count):
            tokens.append(Token(len(tokens), **fields))

    seen: set[str] = set()

    def fresh(check: EntryChecker, field: str = "id") -> str:
        value = check.get(field, str)
        if value in seen:
            check.fail(field, f"repeats {value!r}")
        seen.add(value)
        return value

    for check in _entries(data, "kanohi", source):
        check.only(("id", "name", "count", "bonus", "die", "power"))
        check.provenance()
        mask, name = fresh(check), check.get("name", str)
        add(check.integer("count", 1, 100), kind=KANOHI, name=mask, label=f"Kanohi {name}",
            view=f"kanohi:{mask}", bonus=check.integer("bonus", 1, 100, 0),
            die=check.choice("die", dice, ""), power=check.choice("power", POWERS, ""))
    turaga_of = {t.turaga for t in toa.values()}
    for check in _entries(data, "turaga", source):
        check.only(("id", "name", "count"))
        check.provenance()
        turaga, name = fresh(check), check.get("name", str)
        if turaga not in turaga_of:
            check.fail("id", f"is {turaga!r}, the Turaga of no Toa; Toa's Turaga: "
                       f"{', '.join(sorted(turaga_of))}")
        add(check.integer("count", 1, 100), kind=TURAGA, name=turaga, label=f"Turaga {name}",
            view=f"turaga:{turaga}")
    symbols: list[str] = []
    for check in _entries(data, "key", source):
        check.only(("id", "colour", "count", "wild"))
        check.provenance()
        symbol, wild = fresh(check), check.get("wild", bool, False)
        colour = check.get("colour", str)
        if not wild:
            symbols.append(symbol)
        label = f"{colour} key (wild)" if wild else f"{symbol} key"
        add(check.integer("count", 1, 100), kind=KEY, name=symbol, label=label,
            view=f"key:{symbol}", wild=wild)
    for check in _entries(data, "lock", source):
        check.only(("code",))
        check.provenance()
        code = tuple(check.get("code", list))
        if len(code) != 3:
            check.fail("code", "must have three symbols ('There is a code of three symbols on "
                       "the lock')")
        for symbol in code:
            if symbol not in symbols:
                check.fail("code", f"has {symbol!r}; the key symbols are: {', '.join(symbols)}")
        name = "-".join(code)
        if name in seen:
            check.fail("code", f"repeats {name!r} ('Each gate lock has a different secret "
                       "combination')")
        seen.add(name)
        add(1, kind=LOCK, name=name, label=f"lock {' / '.join(code)}", view=f"lock:{name}",
            code=code)
    for check in _entries(data, "rahi", source):
        check.only(("id", "name", "low", "high", "values"))
        check.provenance()
        rahi, name = fresh(check), check.get("name", str)
        low, high = check.integer("low", 1, 100), check.integer("high", 1, 100)
        for value in check.get("values", list):
            if not isinstance(value, int) or not low <= value <= high:
                check.fail("values", f"has {value!r}; a {name} is worth {low} to {high}")
            add(1, kind=RAHI, name=rahi, label=f"Rahi {name} ({value})",
                view=f"rahi:{rahi}:{value}", value=value)
    expected = {KANOHI: "kanohi", TURAGA: "turaga", KEY: "keys", RAHI: "rahi", LOCK: "locks"}
    for kind, name in expected.items():
        have = sum(1 for t in tokens if t.kind == kind)
        if have != counts[name]:
            raise DataFileError(f"{source}: the contents list has {counts[name]} {name} "
                                f"tokens but the entries make {have}")
    return tuple(tokens)


def load_boards(path: Path, tokens: tuple[Token, ...], count: int,
                gates: int) -> dict[str, Board]:
    data = load_toml(path)
    source = path.name
    boards: dict[str, Board] = {}
    for check in _entries(data, "board", source):
        check.only(("id", "name", "role", "rows"))
        check.provenance()
        board = Board(check.get("id", str), check.get("name", str), check.choice("role", ROLES),
                      tuple(check.get("rows", list)))
        if board.id in boards:
            check.fail("id", f"repeats {board.id!r}")
        check_board(check, board, gates)
        boards[board.id] = board
    if len(boards) != count:
        raise DataFileError(f"{source}: the contents list has {count} boards but "
                            f"{len(boards)} [[board]] entries follow")
    for role in ("start", "makuta"):
        if sum(b.role == role for b in boards.values()) != 1:
            raise DataFileError(f"{source}: needs exactly one board with role = {role!r}")
    for icon, kind in TOKEN_ICONS.items():
        spaces = sum(b.icon_count(icon) for b in boards.values())
        have = sum(1 for t in tokens if t.kind == kind)
        if spaces > have:
            raise DataFileError(f"{source}: the boards have {spaces} {KIND_IDS[kind]} spaces "
                                f"but there are only {have} such tokens")
    return boards


def check_board(check: EntryChecker, board: Board, gates: int) -> None:
    """A board must be a square grid of known icons, portals on edges (never corners),
    every space reachable from every other, and icons that fit its role."""
    n = board.size
    if not 4 <= n <= 9 or any(not isinstance(r, str) or len(r) != n for r in board.rows):
        check.fail("rows", "must be 4 to 9 strings, each as long as there are rows")
    for r, c, char in board.cells():
        if char not in LEGEND:
            check.fail("rows", f"has {char!r} at row {r + 1}, column {c + 1}; the legend is "
                       f"{''.join(sorted(LEGEND))}")
        if char == PORTAL and not (r in (0, n - 1)) ^ (c in (0, n - 1)):
            check.fail("rows", f"has a portal at row {r + 1}, column {c + 1}: portals sit "
                       "on an edge, never in a corner or inside")
    if len(board.portals()) < 2:
        check.fail("rows", "needs at least 2 portals")
    walkable = {(r, c) for r, c, char in board.cells() if char not in (SCENERY, TEMPLE)}
    start = next(iter(walkable))
    seen, todo = {start}, [start]
    while todo:
        r, c = todo.pop()
        for cell in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if cell in walkable and cell not in seen:
                seen.add(cell)
                todo.append(cell)
    if seen != walkable:
        r, c = min(walkable - seen)
        check.fail("rows", f"has a space at row {r + 1}, column {c + 1} that cannot be reached")
    has = {icon: board.icon_count(icon) > 0 for icon in (LANDING, GATE, TEMPLE)}
    if has[LANDING] != (board.role == "start"):
        check.fail("rows", "must have Toa Landing squares (L) exactly when role = 'start'")
    if (has[GATE] or has[TEMPLE]) != (board.role == "makuta"):
        check.fail("rows", "must have gates (G) and the temple (M) exactly when role = 'makuta'")
    if board.role == "start":
        check_landing(check, board)
    if board.role == "makuta":
        check_gates(check, board, gates)


def _neighbours(board: Board, r: int, c: int) -> list[tuple[int, int, str]]:
    n = board.size
    return [(y, x, board.rows[y][x]) for y, x in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
            if 0 <= y < n and 0 <= x < n]


def check_landing(check: EntryChecker, board: Board) -> None:
    """Toa Landing is one large space: a filled rectangle left by at most one space on each
    side, so that a move from it is named by its direction alone."""
    cells = [(r, c) for r, c, char in board.cells() if char == LANDING]
    rows = [r for r, _ in cells]
    cols = [c for _, c in cells]
    if len(cells) != (max(rows) - min(rows) + 1) * (max(cols) - min(cols) + 1):
        check.fail("rows", "must draw Toa Landing (L) as one filled rectangle")
    sides = {
        "north": [(min(rows) - 1, c) for c in range(min(cols), max(cols) + 1)],
        "south": [(max(rows) + 1, c) for c in range(min(cols), max(cols) + 1)],
        "west": [(r, min(cols) - 1) for r in range(min(rows), max(rows) + 1)],
        "east": [(r, max(cols) + 1) for r in range(min(rows), max(rows) + 1)],
    }
    n = board.size
    for side, cells_beside in sides.items():
        open_cells = [(r, c) for r, c in cells_beside if 0 <= r < n and 0 <= c < n
                      and board.rows[r][c] not in (SCENERY, TEMPLE)]
        if len(open_cells) > 1:
            check.fail("rows", f"leaves Toa Landing by {len(open_cells)} spaces on its {side} "
                       "side; at most one is allowed")


def check_gates(check: EntryChecker, board: Board, gates: int) -> None:
    """Each gate adjoins the temple and exactly one portal, each portal exactly one gate."""
    gate_cells = [(r, c) for r, c, char in board.cells() if char == GATE]
    if len(gate_cells) != gates:
        check.fail("rows", f"has {len(gate_cells)} gates; the temple has {gates} coloured "
                   "segments, one for each gate")
    for r, c in gate_cells:
        around = [char for _, _, char in _neighbours(board, r, c)]
        if TEMPLE not in around or around.count(PORTAL) != 1:
            check.fail("rows", f"has a gate at row {r + 1}, column {c + 1} that does not "
                       "adjoin the temple and exactly one portal")
    for r, c in board.portals():
        around = [char for _, _, char in _neighbours(board, r, c)]
        if around.count(GATE) != 1:
            check.fail("rows", f"has a portal at row {r + 1}, column {c + 1} that does not "
                       "adjoin exactly one gate")


def load(components: Path | None = None, tokens: Path | None = None,
         boards: Path | None = None) -> Components:
    """Our data, or a user's own files in place of any of them."""
    return load_components(components or DATA / "components.toml",
                           tokens or DATA / "tokens.toml", boards or DATA / "boards.toml")
