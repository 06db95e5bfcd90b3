"""The drawing in regions (games/text.py): the whole board, never cropped, the pieces on it,
each space an action leads to placed on it (`targets`), and a board placement drawn before it
is chosen (`preview`). Checked on seeded random games of every game, so that what the board
shows is read back from its own text: the row labels and the ruler, not the renderer's code."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from itertools import pairwise

import pytest

from matanui import games
from matanui.engine import State
from matanui.games.makuta import render as makuta
from matanui.games.makuta.island import DX, DY, START_NAME, Island
from matanui.games.masks import render as masks
from matanui.games.reconstruct import render as reconstruct
from matanui.games.text import WIDTH, Regions, plain
from matanui.tui.drawing import drawing
from tests.ledger import rule
from tests.makuta.scenario import arranged, play
from tests.makuta.test_challenges import at_open_gate

MAKUTA, MASKS = games.get("makuta"), games.get("masks")
SIX = ["tahu", "lewa", "gali", "onua", "kopaka", "pohatu"]
FAR_APART_SEED = 22  # a random six-player game whose island grows 50 squares wide


def playout(game, seed: int, players: list[str], options: dict | None = None,
            every: int = 1, limit: int = 100_000) -> Iterator[State]:
    """The states of a seeded random game, every `every` actions, and its end."""
    rng = random.Random(seed)
    state = game.new_game(seed, players, options)
    for step in range(limit):
        if step % every == 0 or state.is_over:
            yield state
        if state.is_over:
            return
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])


def makuta_ruler(board: list[str]) -> tuple[int, int]:
    """(column, x) of the ruler's first label."""
    label = re.search(r"-?\d+", plain(board[0])[6:])
    return 6 + label.start(), int(label.group())


def makuta_xy(board: list[str], line: int, column: int) -> tuple[int, int]:
    """The island square drawn at (line, column), read from the row label and the ruler."""
    start, x = makuta_ruler(board)
    return x + (column - start) // 2, int(plain(board[line])[:5])


def makuta_squares(board: list[str]) -> dict[tuple[int, int], tuple[int, int]]:
    """Every island square drawn on the board: (x, y) -> (line, column)."""
    start, x = makuta_ruler(board)
    found = {}
    for line in range(1, len(board)):
        text = plain(board[line])
        for column in range(6, len(text), 2):
            found[(x + (column - start) // 2, int(text[:5]))] = (line, column)
    return found


def makuta_square(island: Island, name: str) -> tuple[int, int]:
    return island.xy[island.by_name[name]]


def names_space(words: str, space: str) -> bool:
    return re.search(rf"(?<![\d,-]){re.escape(space)}(?![\d,])", words) is not None


# -- Quest for Makuta: the whole island ----------------------------------------------------


def test_a_six_player_island_far_apart_has_every_pawn_and_temple_square_on_its_board():
    widest = 0
    for state in playout(MAKUTA, FAR_APART_SEED, SIX, every=100):
        obs = state.observation(0)
        parts = makuta.regions(MAKUTA, obs)
        island = Island.rebuild(MAKUTA.shapes, obs["boards"])
        widest = max(widest, max(r[2] for r in island.rects) - min(r[0] for r in island.rects))
        board = [plain(line) for line in parts.board]
        for seat, (line, column) in enumerate(parts.pieces):
            assert makuta_xy(parts.board, line, column) == makuta_square(island, obs["pawns"][seat])
            toa = MAKUTA.parts.toa[obs["players"][seat]].name[0]
            assert board[line][column] in (toa, *(MAKUTA.parts.toa[p].name[0] for p in obs["players"]))
        temple = [(x + tx, y + ty) for b, rot, x, y in island.placed
                  for tx, ty in MAKUTA.shapes[b][rot].temple]
        squares = makuta_squares(parts.board)
        for square in temple:
            line, column = squares[square]
            assert board[line][column:column + 2] == "MM"
    assert state.is_over and widest > 40
    xs = [makuta_square(island, p)[0] for p in obs["pawns"]]
    assert max(xs) - min(xs) > 30  # Toa far apart, all on the board


def test_a_wide_island_is_printed_in_labelled_bands_of_80_columns_never_cropped():
    *_, state = playout(MAKUTA, FAR_APART_SEED, SIX)
    obs = state.observation(None)
    parts = makuta.regions(MAKUTA, obs)
    assert max(len(plain(line)) for line in parts.board) > WIDTH  # the region is not cropped
    text = [plain(line) for line in makuta.render(MAKUTA, obs).split("\n")]
    assert max(len(line) for line in text) <= WIDTH
    bands = [re.match(r"x (-?\d+) to (-?\d+) \(of (-?\d+) to (-?\d+)\)", line) for line in text]
    bands = [tuple(int(n) for n in b.groups()) for b in bands if b]
    assert len(bands) >= 2
    assert bands[0][0] == bands[0][2] and bands[-1][1] == bands[-1][3]
    assert all(a[1] + 1 == b[0] for a, b in pairwise(bands))  # no gap
    rows = len(parts.board) - 1
    drawn = sum(1 for line in text if re.match(r" *-?\d+ ", line) and not line.startswith("x"))
    assert drawn == rows * len(bands)  # every row in every band


def test_a_narrow_island_prints_as_today_in_one_piece():
    state = arranged()
    text = plain(makuta.render(MAKUTA, state.observation(0))).split("\n")
    assert text[1].startswith("   y\\x") and not any(line.startswith("x ") for line in text)


# -- targets: every space an action names, where the board draws it ----------------------
# The engine says which space an action acts on (State.targets); the renderer only places
# the names it is given on its drawing.


def named_spaces(state: State) -> dict[str, str]:
    """Each legal action whose engine targets name a space, with that space."""
    targets = {action: state.targets(action) for action in state.legal_actions()}
    return {action: t["space"] for action, t in targets.items() if "space" in t}


def check_makuta_targets(state: State) -> int:
    obs = state.observation(state.current_player)
    spaces = named_spaces(state)
    parts = makuta.regions(MAKUTA, obs)
    found = makuta.targets(MAKUTA, obs, spaces)
    island = Island.rebuild(MAKUTA.shapes, obs["boards"])
    assert set(found) == set(spaces)  # every space named is on the island's board
    for action, target in found.items():
        name = spaces[action]
        assert target.space == ("Toa Landing" if name == START_NAME else name)
        assert makuta_xy(parts.board, target.line, target.column) == makuta_square(island, name)
        cell = plain(parts.board[target.line])[target.column:target.column + target.width]
        assert target.width == 2 and cell.strip() not in ("", "░░")
        if action.startswith(("move:", "to:", "put:")):
            assert names_space(state.describe(action), target.space), (action, state.describe(action))
    return len(found)


@pytest.mark.parametrize("players", [2, 6])
def test_every_makuta_target_is_drawn_where_its_space_is_and_names_the_described_space(players):
    seen = sum(check_makuta_targets(state) for seed in range(3)
               for state in playout(MAKUTA, seed, SIX[:players], every=7, limit=1500)
               if not state.is_over)
    assert seen > 100


def test_the_miru_and_the_relocation_after_a_makuta_loss_are_targets_on_the_map():
    levitating = next(state for state in playout(MAKUTA, 7, SIX[:4], limit=300)
                      if state.phase == "levitate")  # a random game's Kanohi Miru
    putting = at_open_gate(["key:fire", "key:water", "key:air"], ["turaga:vakama"], dice=[1, 5, 6])
    play(putting, "challenge", "roll", "use:vakama", "settle", "take:key:1")  # Makuta wins
    for state in (levitating, putting):
        assert check_makuta_targets(state) == len(state.legal_actions()) > 10  # every space


@pytest.mark.parametrize("options", [{"map": "a"}, {"map": "b"}, {"map": "both"}])
def test_every_masks_target_is_drawn_where_its_space_is_and_names_the_described_space(options):
    seen = 0
    for seed in range(3):
        for state in playout(MASKS, seed, ["tahu", "gali"], options, every=2, limit=1200):
            if state.is_over:
                continue
            obs = state.observation(state.current_player)
            spaces = named_spaces(state)
            parts = masks.regions(MASKS, obs)
            found = masks.targets(MASKS, obs, spaces)
            assert set(found) == set(spaces)
            for action, target in found.items():
                assert target.space == spaces[action]
                line = plain(parts.board[target.line])
                assert line[2] == target.space[0]  # the row letter
                cols = target.width
                assert (target.column - masks.ROW_LABEL) // cols + 1 == int(target.space[1:])
                assert line[target.column:target.column + cols].strip()  # not the sea
                assert names_space(state.describe(action), target.space)
                seen += 1
    assert seen > 50


def test_a_renderer_places_the_names_it_is_given_and_reads_no_action_id():
    makuta_obs = arranged().observation(0)
    found = makuta.targets(MAKUTA, makuta_obs, {"any id": "0,-3", "another": START_NAME,
                                                "nowhere": "99,99"})
    assert {a: t.space for a, t in found.items()} == {"any id": "0,-3", "another": "Toa Landing"}
    masks_obs = MASKS.new_game(1, ["tahu", "gali"]).observation(0)
    found = masks.targets(MASKS, masks_obs, {"any id": "B3", "nowhere": "Z99"})
    assert {a: t.space for a, t in found.items()} == {"any id": "B3"}


@pytest.mark.parametrize("name", ["makuta", "masks"])
def test_the_screen_targets_every_action_whose_engine_targets_name_a_space(name):
    game = games.get(name)
    module = {"makuta": makuta, "masks": masks}[name]
    seen = 0
    for state in playout(game, 2, ["tahu", "gali"], every=5, limit=600):
        if state.is_over:
            continue
        seat, actions = state.current_player, state.legal_actions()
        picture = drawing(state, seat, actions)
        spaces = named_spaces(state)
        assert picture.targets == module.targets(game, state.observation(seat), spaces)
        assert set(picture.targets) == set(spaces)
        seen += len(spaces)
    assert seen > 20


def test_reconstruct_has_no_targets_and_no_previews():
    state = games.get("reconstruct").new_game(1, ["tahu", "kopaka"])
    obs = state.observation(0)
    game = games.get("reconstruct")
    assert reconstruct.targets(game, obs, {a: "A1" for a in state.legal_actions()}) == {}
    assert all(reconstruct.preview(game, obs, a) is None for a in state.legal_actions())


# -- pieces and the regions of a public view ---------------------------------------------


@pytest.mark.parametrize("name", ["makuta", "masks", "reconstruct"])
def test_a_public_view_holds_nothing_of_its_own_and_every_piece_is_on_the_board(name):
    game = games.get(name)
    module = {"makuta": makuta, "masks": masks, "reconstruct": reconstruct}[name]
    state = game.new_game(3, ["tahu", "gali"])
    public: Regions = module.regions(game, state.observation(None))
    assert public.mine == []
    assert module.regions(game, state.observation(0)).mine
    assert len(public.pieces) == 2
    for piece in public.pieces:
        if piece is not None:
            line, column = piece
            assert plain(public.board[line])[column] in "TG"  # Tahu, Gali


# -- preview: a board placement drawn before it is chosen --------------------------------


def placing(seed: int = 1) -> State:
    for state in playout(MAKUTA, seed, ["tahu", "lewa"]):
        if state.phase == "place" and len(state.legal_actions()) > 1:
            return state
    raise AssertionError("no placement with a choice in this game")


def test_each_placement_preview_differs_and_leaves_the_state_as_it_was():
    state = placing()
    before = state.observation(state.current_player), state.legal_actions(), state.record()
    obs = state.observation(state.current_player)
    previews = {a: makuta.preview(MAKUTA, obs, a) for a in state.legal_actions()}
    assert len({tuple(p) for p in previews.values()}) == len(previews)
    assert (state.observation(state.current_player), state.legal_actions(), state.record()) == before
    # drawn from what everyone may see: the public view previews it the same
    public = state.observation(None)
    assert all(makuta.preview(MAKUTA, public, a) == p for a, p in previews.items())
    assert makuta.preview(MAKUTA, obs, "roll") is None


def test_a_preview_numbers_the_new_boards_portals_as_the_words_do():
    state = placing()
    obs = state.observation(state.current_player)
    island = Island.rebuild(MAKUTA.shapes, obs["boards"])
    portal = island.by_name[obs["pawns"][obs["turn_player"]]]
    x, y = island.xy[portal]
    d = island.out[portal]
    for action in state.legal_actions():
        lines = makuta.preview(MAKUTA, obs, action)
        number = re.search(r"its portal (\d+) against yours", state.describe(action)).group(1)
        beyond = x + DX[d], y + DY[d]
        line, column = makuta_squares(lines)[beyond]
        assert plain(lines[line])[column:column + 2].strip(" " + makuta.NEW_MARK) == number
        events = state.clone().apply(action)
        assert f"by its portal {number}" in events[0].text


def test_a_preview_marks_every_square_of_the_new_board_in_its_plain_text_and_no_other():
    """Without colour (NO_COLOR) the new board still reads: its squares are drawn apart."""
    state = placing()
    obs = state.observation(state.current_player)
    old = Island.rebuild(MAKUTA.shapes, obs["boards"])
    for action in state.legal_actions():
        lines = makuta.preview(MAKUTA, obs, action)
        grown = Island.rebuild(MAKUTA.shapes, obs["boards"])
        grown.add(obs["placing"], *obs["placements"][action])
        x0, y0, x1, y1 = grown.rects[-1]
        marked = {xy for xy, (line, column) in makuta_squares(lines).items()
                  if makuta.NEW_MARK in plain(lines[line])[column:column + 2]}
        assert marked == {(x, y) for x in range(x0, x1) for y in range(y0, y1)}
        laid = {(x, y) for a, b, c, d in old.rects for x in range(a, c) for y in range(b, d)}
        assert marked and not marked & laid  # nothing of the boards already laid is marked
    assert makuta.NEW_MARK in " ".join(makuta.regions(MAKUTA, obs).key)  # the key says so


# -- dead portals ------------------------------------------------------------------------


@rule("MAKUTA-BOARD-NO-ROOM")
def test_a_dead_portal_is_drawn_closed_and_never_offered_a_board():
    state = arranged(dice=[2], boards=[["ta-lava-fields", 0, 1, -9]])
    obs = state.observation(0)
    parts = makuta.regions(MAKUTA, obs)
    island = Island.rebuild(MAKUTA.shapes, obs["boards"])
    squares = makuta_squares(parts.board)
    cells = {}
    for name in ("0,-3", "3,0"):
        line, column = squares[makuta_square(island, name)]
        cells[name] = plain(parts.board[line])[column:column + 2]
    assert cells == {"0,-3": "><", "3,0": "()"}  # closed, open
    assert ">< Closed portal" in " ".join(plain("\n".join(parts.key)).split())
    events = play(state, "roll", "move:N", "move:N")
    assert state.phase != "place" and not any(a.startswith("place:") for a in state.legal_actions())
    assert any(e.kind == "no_room" for e in events)


def test_a_makuta_game_drawn_at_its_turn_limit_is_titled_at_the_limit_not_past_it():
    game = games.get("makuta")
    state = game.new_game(1, ["tahu", "lewa"], {"turn_limit": 10})
    while not state.is_over:
        state.apply(state.legal_actions()[0])
    obs = state.observation(0)
    assert obs["turn"] > obs["turn_limit"]  # the engine counts on to the turn past it
    title = plain(makuta.regions(game, obs).title)
    assert "turn 10 of at most 10" in title and "a draw" in title
