"""Quest for Makuta's data files: the printed counts and values, the reconstructed mixes and
boards, and clear errors for a bad file."""

import re
import shutil
import tomllib
from collections import Counter, deque
from pathlib import Path

import pytest

from matanui.engine import DataFileError
from matanui.games.makuta import load_game
from matanui.games.makuta.components import DATA, KANOHI, KEY, LOCK, RAHI, TURAGA
from tests.ledger import rule
from tests.makuta.scenario import GAME

PARTS = GAME.parts
RULEBOOK = Path(__file__).resolve().parents[3] / "shared" / "rulebooks" / "quest-for-makuta.txt"


def of_kind(kind: int) -> list:
    return [t for t in PARTS.tokens if t.kind == kind]


@rule("MAKUTA-CONTENTS")
def test_the_components_match_the_contents_list():
    assert len(PARTS.boards) == 20
    assert len(PARTS.toa) == 6
    assert [len(of_kind(k)) for k in (TURAGA, KANOHI, LOCK, KEY, RAHI)] == [12, 24, 9, 24, 57]
    assert len(PARTS.dice) == 3
    assert len(PARTS.segments) == 6


@rule("MAKUTA-TOA")
def test_each_toa_has_its_own_turaga_as_printed():
    turaga = {t.id: t.turaga for t in PARTS.toa.values()}
    assert turaga == {"tahu": "vakama", "onua": "whenua", "lewa": "matau", "gali": "nokama",
                      "kopaka": "nuju", "pohatu": "onewa"}
    assert GAME.characters() == ["tahu", "onua", "lewa", "gali", "kopaka", "pohatu"]


@rule("MAKUTA-DICE")
def test_the_three_dice():
    assert PARTS.dice == {"white": 6, "red": 8, "green": 12}


@rule("MAKUTA-TOKEN-MIX")
def test_four_of_each_mask_two_of_each_turaga_and_the_keys():
    assert Counter(t.name for t in of_kind(KANOHI)) == {
        m: 4 for m in ("akaku", "hau", "kakama", "kaukau", "miru", "pakari")}
    assert set(Counter(t.name for t in of_kind(TURAGA)).values()) == {2}
    keys = Counter(t.name for t in of_kind(KEY))
    assert keys == {"fire": 3, "water": 3, "air": 3, "ice": 3, "stone": 3, "earth": 3, "yellow": 6}
    assert [t.name for t in of_kind(KEY) if t.wild] == ["yellow"] * 6
    on_locks = Counter(s for t in of_kind(LOCK) for s in t.code)
    assert set(on_locks.values()) <= {4, 5} and len(on_locks) == 6


@rule("MAKUTA-RAHI-VALUES")
def test_rahi_values_keep_to_the_printed_ranges():
    ranges = {"nui-rama": (1, 7), "nui-jaga": (7, 13), "muaka": (13, 20)}
    rahi = of_kind(RAHI)
    assert Counter(t.name for t in rahi) == {"nui-rama": 24, "nui-jaga": 19, "muaka": 14}
    for t in rahi:
        low, high = ranges[t.name]
        assert low <= t.value <= high
    assert "rahi:muaka:18" in {t.view for t in rahi}  # the printed example
    # The printed ranges overlap: both readings of 7 and of 13 exist.
    assert {"rahi:nui-rama:7", "rahi:nui-jaga:7", "rahi:nui-jaga:13", "rahi:muaka:13"} <= \
        {t.view for t in rahi}


@rule("MAKUTA-LOCK-DIFFERENT")
def test_every_lock_has_a_different_code_of_three_symbols():
    codes = [tuple(sorted(t.code)) for t in of_kind(LOCK)]
    assert len(set(codes)) == len(codes) == 9
    assert all(len(set(code)) == 3 for code in codes)


@rule("MAKUTA-TEMPLE-POWERS", "MAKUTA-TEMPLE-PLACE")
def test_the_temple_segments_as_printed_in_an_order_read_from_the_list():
    assert [(s.colour, s.power) for s in PARTS.segments] == [
        ("grey", 18), ("red", 20), ("green", 22), ("orange", 24), ("blue", 26), ("brown", 28)]
    data = tomllib.loads((DATA / "components.toml").read_text(encoding="utf-8"))
    assert {s["provenance"] for s in data["segment"]} == {"printed"}  # colours and powers
    assert data["temple"]["provenance"] == "derived"  # the clockwise order is not printed


def test_the_temple_order_comes_from_the_data_and_names_every_colour(tmp_path):
    folder = copy_data(tmp_path)
    components = folder / "components.toml"
    text = components.read_text()
    components.write_text(text.replace('clockwise = ["grey", "red",', 'clockwise = ["red", "grey",'))
    assert [s.colour for s in load_game(components=components).parts.segments][:2] == ["red", "grey"]
    components.write_text(text.replace('clockwise = ["grey", "red",', 'clockwise = ["red",'))
    with pytest.raises(DataFileError, match=r"components.toml: temple.clockwise must name every "
                                            r"segment colour once"):
        load_game(components=components)


def data_entries() -> list[tuple[str, str, dict]]:
    """(file, entry name, entry) for every entry of the three data files."""
    found = []
    for path in sorted(DATA.glob("*.toml")):
        for table, value in tomllib.loads(path.read_text(encoding="utf-8")).items():
            for number, entry in enumerate(value if isinstance(value, list) else [value], 1):
                found.append((path.name, f"{table}[{number}]", entry))
    return found


def test_every_printed_or_derived_source_is_the_rulebooks_words():
    """Each quote of a `source` (quotes are joined by " / ") is found word for word in the
    rulebook, whitespace aside; a `derived` entry also says why."""
    if not RULEBOOK.exists():
        pytest.skip(f"the rulebook is not at {RULEBOOK}")
    book = " ".join(RULEBOOK.read_text(encoding="utf-8").split())
    checked = 0
    for name, entry_name, entry in data_entries():
        if entry.get("provenance") not in ("printed", "derived"):
            continue
        for quote in entry["source"].split(" / "):
            assert " ".join(quote.split()) in book, f"{name} {entry_name}: {quote!r}"
        assert entry["provenance"] == "printed" or entry.get("why"), f"{name} {entry_name}"
        checked += name not in ("legend.toml", "intro.toml")  # the key and the lobby's words quote it too
    assert checked == 6 + 6 + 1 + 1 + 1 + 6 + 6  # toa, segments, temple, rules, contents, K, T


def walk(board, start, avoid_rahi):
    cells = {(r, c): ch for r, c, ch in board.cells() if ch not in "#M"}
    seen = {start: 0}
    queue = deque([start])
    while queue:
        r, c = queue.popleft()
        for cell in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if cell in cells and cell not in seen:
                seen[cell] = seen[(r, c)] + 1
                if not (avoid_rahi and cells[cell] == "R"):
                    queue.append(cell)
    return seen, cells


@rule("MAKUTA-BOARD-DESIGN", "MAKUTA-BOARD-GEOMETRY")
def test_the_land_boards_follow_the_design_plan():
    land = [b for b in PARTS.boards.values() if b.role == "land"]
    assert len(land) == 18
    assert {b.size for b in land} == {6}
    assert PARTS.boards["start"].size == PARTS.boards["makuta"].size == 7
    mixes = Counter((b.icon_count("K"), b.icon_count("T"), b.icon_count("Y")) for b in land)
    assert mixes == {(1, 1, 1): 10, (2, 0, 1): 4, (1, 0, 2): 4}
    assert Counter(len(b.portals()) for b in land) == {2: 5, 3: 8, 4: 5}
    for icon, total in (("K", 24), ("T", 12), ("Y", 24), ("R", 57)):
        assert sum(b.icon_count(icon) for b in PARTS.boards.values()) == total
    for board in land:
        assert board.icon_count("R") == 3 and 3 <= board.icon_count("#") <= 7
        portals = board.portals()
        sides = [("N" if r == 0 else "S" if r == 5 else "W" if c == 0 else "E") for r, c in portals]
        assert len(set(sides)) == len(sides), f"{board.id}: one portal per side"
        walks = []
        for portal in portals:
            reach, cells = walk(board, portal, avoid_rahi=True)
            assert all(p in reach for p in portals), f"{board.id}: portals joined past a Rahi"
            treasures = [cell for cell, ch in cells.items() if ch in "KTY"]
            assert any(t in reach for t in treasures), board.id
            walks += [reach.get(t, walk(board, portal, avoid_rahi=False)[0][t]) for t in treasures]
        assert 3.5 <= sum(walks) / len(walks) <= 6.75, board.id


@rule("MAKUTA-RAHI-CLUSTER")
def test_rahi_cluster_around_treasures_and_portals():
    for board in (b for b in PARTS.boards.values() if b.role == "land"):
        cells = {(r, c): ch for r, c, ch in board.cells()}

        def near(cell, icons, reach, cells=cells):
            return any(abs(cell[0] - r) + abs(cell[1] - c) <= reach
                       for (r, c), ch in cells.items() if ch in icons)

        rahi = [cell for cell, ch in cells.items() if ch == "R"]
        assert sum(near(cell, "KTY", 1) for cell in rahi) >= 2, board.id
        assert all(near(cell, "KTYP", 2) for cell in rahi), board.id


def copy_data(tmp_path: Path) -> Path:
    folder = tmp_path / "data"
    shutil.copytree(DATA, folder)
    return folder


def test_a_bad_board_names_the_file_the_entry_and_the_field(tmp_path):
    folder = copy_data(tmp_path)
    boards = folder / "boards.toml"
    boards.write_text(boards.read_text().replace('"#K.P.Y#"', '"PK...Y#"', 1))
    with pytest.raises(DataFileError, match=r"boards.toml: board\[1\].rows has a portal at row 1, "
                                            r"column 1"):
        load_game(boards=boards)


def test_a_bad_token_entry_is_named(tmp_path):
    folder = copy_data(tmp_path)
    tokens = folder / "tokens.toml"
    tokens.write_text(tokens.read_text().replace('code = ["fire", "water", "air"]',
                                                 'code = ["fire", "water", "mud"]'))
    with pytest.raises(DataFileError, match=r"tokens.toml: lock\[1\].code has 'mud'"):
        load_game(tokens=tokens)


def test_counts_that_do_not_match_the_contents_list_are_refused(tmp_path):
    folder = copy_data(tmp_path)
    tokens = folder / "tokens.toml"
    tokens.write_text(tokens.read_text().replace('id = "akaku"\nname = "Akaku"\ncount = 4',
                                                 'id = "akaku"\nname = "Akaku"\ncount = 5'))
    with pytest.raises(DataFileError, match="the contents list has 24 kanohi tokens but the "
                                            "entries make 25"):
        load_game(tokens=tokens)


def test_every_entry_needs_its_provenance(tmp_path):
    folder = copy_data(tmp_path)
    components = folder / "components.toml"
    components.write_text(components.read_text().replace(
        'why = "FACTS.md: the red die is eight-sided, faces 1 to 8"\n', "", 1))
    with pytest.raises(DataFileError, match=r"components.toml: die\[2\].why is missing"):
        load_game(components=components)


def test_the_ledger_leaves_balance_figures_to_docs_balance():
    """Game lengths and win rates live in one place, docs/balance.md, with their commands."""
    docs = Path(__file__).resolve().parents[2] / "docs"
    ledger = (docs / "rules" / "makuta.md").read_text(encoding="utf-8")
    balance = ledger[ledger.index("## Balance"):]
    assert 'docs/balance.md, section "Quest for Makuta"' in balance
    assert "## Quest for Makuta" in (docs / "balance.md").read_text(encoding="utf-8")
    assert not re.findall(r"\b0\.\d{3}\b|\bturns each\b", ledger)  # no win rates, no lengths
