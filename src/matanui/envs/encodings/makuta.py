"""Adventure Game: Quest for Makuta as fixed-size numbers, for 2 to 6 seats.

The island grows as boards are laid, and the game names its spaces by grid position
("3,-4"), which depends on where each board went. A fixed encoding instead numbers every
space of every board once: slot = the board's offset + the space's number on its board (a
space keeps its number however the board is turned). Observations and the actions that name
a space (`to:SPACE`, `put:SPACE`) are translated through the island that the observation's
public `boards` list rebuilds; the fixed action ids are `to:@BOARD/N` and `put:@BOARD/N`.

Actions: `roll`, `levitate`, `stop`, `skip`, `take-start`, `reveal`, `challenge`, `settle`, the four
moves, `place:ROT:Q`, `return|steal|take:KIND:SLOT`, `use:NAME`, `akaku:TOA`, and the
`to:`/`put:` of every slot.

Observation pieces (seen from the observing seat, then the others clockwise):
  to_decide, my_turn, phase, characters (seats, Toa), dice (seats, dice)
  boards (boards, 7): laid, quarter turns, x and y; pile, placing
  open (slots): spaces laid; pawns (seats, slots); path (slots)
  items, under (slots, item faces): face-down kinds and seen faces on / under a space
  rahi (slots, 2): a Rahi, and its strength once seen; locks (slots, 1 + lock faces)
  start, waiting (faces), cards (seats, item faces), bags (kinds), out (Rahi faces)
  temple (gates, colours), challenge, returning, victim, numbers (roll, steps, turn)
Memory: every item face that has been on my collector card.

The compact encoding (`encoding="compact"`, CompactMakutaEncoding) keeps the actions and the
memory but replaces the per-slot pieces (open ... locks, 37k floats at two seats) by a 15 x 15
grid of squares around the observing seat's pawn, one plane per feature (GRID_PLANES), each
pawn's offset from mine, and the island's token counts: about 6k floats, six times denser.
What lies beyond the grid is out of its sight, bar the pawns' offsets and those counts.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar, NamedTuple

import numpy as np

from matanui.envs.encoding import Encoding, Layout, one_hot
from matanui.games.makuta import components
from matanui.games.makuta.components import CARD_KINDS, KIND_IDS
from matanui.games.makuta.island import DIRS, START_NAME, Island
from matanui.games.makuta.moves import PHASES

FIXED = ("roll", "levitate", "stop", "skip", "take-start", "reveal", "challenge", "settle")
SPACE_VERBS = ("to", "put")
COORDINATE_BOUND = 64  # board offsets are scaled from [-64, 64] to [0, 1]
STRENGTH_SCALE = 40.0
ISLAND_CACHE = 4096
DECISIONS_BEYOND_STEPS = 30  # a turn's roll, landing, collecting, challenges and choices


class Laid(NamedTuple):
    """What the encoding keeps of one island (the boards laid so far)."""

    slot_of: dict[str, int]  # space name -> slot
    name_of: dict[int, str]  # slot -> space name
    boards: np.ndarray  # the `boards` piece


def strength(face: str) -> float:
    """A seen Rahi's strength (`rahi:NAME:STRENGTH`), scaled."""
    return int(face.rsplit(":", 1)[1]) / STRENGTH_SCALE


SHARED_ABOUT = {  # the pieces both Makuta encodings have
    "to_decide": "1 when this seat must decide now",
    "my_turn": "1 when it is this seat's turn",
    "phase": "the step of the turn (roll, levitate, move, place, ..., over)",
    "characters": "which Toa each seat plays (me first, then clockwise)",
    "dice": "each seat's die (white, red, green)",
    "boards": "per board: laid, its quarter turns (4), x and y of its offset",
    "pile": "boards left in the pile, over all boards",
    "placing": "the board drawn and being laid",
    "start": "the tokens face down on the start space, by face",
    "waiting": "the tokens the turn player is still collecting, by face",
    "cards": "each seat's collector card: its tokens by face (a quarter each)",
    "bags": "tokens left in each bag (kanohi, turaga, key, rahi, lock), over the bag's size",
    "out": "the Rahi beaten so far, by face",
    "temple": "the colour at each gate of Makuta's temple, once laid",
    "challenge": "the challenge being met: Rahi or Makuta, strength, bonus, roll, tokens used, die",
    "returning": "the kind of token being given back",
    "victim": "the seat losing a token (steal, take, put)",
    "numbers": "the roll, the steps left, turn / limit",
    "held": "every item face that has been on my collector card",
}


class MakutaEncoding(Encoding):
    about: ClassVar[Mapping[str, str]] = {
        **SHARED_ABOUT,
        "open": "1 for each space slot on a board laid",
        "pawns": "each seat's space (one slot)",
        "path": "the spaces the moving pawn has crossed this move",
        "items": "per space: its tokens by face (face down by kind, or seen)",
        "under": "per space: the tokens under its Rahi, by face",
        "rahi": "per space: a Rahi there, and its strength once seen",
        "locks": "per space: a lock there, and its face once seen",
    }
    def __init__(self, game: Any, players: int) -> None:
        parts = game.parts
        self.boards = list(parts.boards)
        self.board_index = {b: i for i, b in enumerate(self.boards)}
        self.offset: dict[str, int] = {}
        total = 0
        for board in self.boards:
            self.offset[board] = total
            total += len(game.shapes[board][0].cells)
        self.slots = total
        self.toa_index = {t: i for i, t in enumerate(parts.toa)}
        self.dice = list(parts.dice)
        self.most_faces = max(parts.dice.values())
        views = sorted(set(game.views))
        self.kinds = {k: i for i, k in enumerate(KIND_IDS)}
        # Item faces: the three collectable kinds face down, then every seen item face.
        items = [KIND_IDS[k] for k in CARD_KINDS]
        items += [v for v in views if v.split(":")[0] in items]
        self.item_faces = {f: i for i, f in enumerate(items)}
        self.lock_faces = {f: i for i, f in enumerate(v for v in views if v.startswith("lock:"))}
        self.rahi_faces = {f: i for i, f in enumerate(v for v in views if v.startswith("rahi:"))}
        self.all_faces = {f: i for i, f in enumerate(list(KIND_IDS) + views)}
        self.bag_bound = [max(1, game.kind.count(k)) for k in range(len(KIND_IDS))]
        self.slot_labels = [f"{board}/{n}" for board in self.boards
                            for n in range(len(game.shapes[board][0].cells))]
        self.colours = sorted({s.colour for s in parts.segments})
        self.gates = len(parts.segments)
        self._islands: dict[tuple, Laid] = {}
        super().__init__(game, players)

    # -- actions -------------------------------------------------------------------------

    def action_ids(self) -> list[str]:
        game = self.game
        actions = [*FIXED, *(f"move:{d}" for d in DIRS)]
        most_portals = max(len(shapes[0].portals) for shapes in game.shapes.values())
        actions += [f"place:{rot}:{q}" for rot in range(4) for q in range(most_portals)]
        for verb in ("return", "steal", "take"):
            actions += [action for per_kind in game.slot_ids[verb] for action, _ in per_kind]
        actions += [action for action, _ in game.use_ids.values()]
        actions += [f"akaku:{toa}" for toa in game.parts.toa]
        for verb in SPACE_VERBS:
            actions += [f"{verb}:@{label}" for label in self.slot_labels]
        return actions

    def max_decisions(self, options: Mapping[str, Any]) -> int:
        return (options["turn_limit"] + 1) * (self.most_faces + DECISIONS_BEYOND_STEPS)

    def _island(self, obs: dict[str, Any]) -> Laid:
        """The slots and the `boards` piece of the island the observation shows."""
        key = tuple(map(tuple, obs["boards"]))
        found = self._islands.get(key)
        if found is None:
            island = Island.rebuild(self.game.shapes, obs["boards"])
            first: list[int] = []
            for node, placement in enumerate(island.board_of):
                if placement == len(first):
                    first.append(node)
            slot_of = {}
            for node, name in enumerate(island.names):
                placement = island.board_of[node]
                slot_of[name] = self.offset[island.placed[placement][0]] + node - first[placement]
            boards = np.zeros((len(self.boards), 7), np.float32)
            scale = 2 * COORDINATE_BOUND
            for board, rot, x, y in obs["boards"]:
                row = boards[self.board_index[board]]
                row[0] = 1
                row[1 + rot] = 1
                row[5:7] = ((x + COORDINATE_BOUND) / scale, (y + COORDINATE_BOUND) / scale)
            if len(self._islands) >= ISLAND_CACHE:
                self._islands.clear()
            found = self._islands[key] = Laid(slot_of, {s: n for n, s in slot_of.items()}, boards)
        return found

    def index_of(self, action: str, obs: dict[str, Any]) -> int:
        verb, _, name = action.partition(":")
        if verb in SPACE_VERBS:
            slot = self._island(obs).slot_of[name]
            return self.index[f"{verb}:@{self.slot_labels[slot]}"]
        return super().index_of(action, obs)

    def action_of(self, index: int, obs: dict[str, Any]) -> str:
        action = self.actions[index]
        verb, _, label = action.partition(":")
        if verb in SPACE_VERBS:
            board, _, number = label[1:].partition("/")
            name = self._island(obs).name_of.get(self.offset[board] + int(number))
            if name is not None:  # else the board is not laid: the id stays a placeholder
                return f"{verb}:{name}"
        return action

    # -- observations --------------------------------------------------------------------

    def describe_observation(self, layout: Layout) -> None:
        self._describe_head(layout)
        n, slots, items = self.players, self.slots, len(self.item_faces)
        layout.add("open", slots)
        layout.add("pawns", n, slots)
        layout.add("path", slots)
        layout.add("items", slots, items)
        layout.add("under", slots, items)
        layout.add("rahi", slots, 2)
        layout.add("locks", slots, 1 + len(self.lock_faces))
        self._describe_tail(layout)

    def _describe_head(self, layout: Layout) -> None:
        """The pieces before the island's spaces: whose decision, who plays, the boards."""
        n = self.players
        layout.add("to_decide", 1)
        layout.add("my_turn", 1)
        layout.add("phase", len(PHASES))
        layout.add("characters", n, len(self.toa_index))
        layout.add("dice", n, len(self.dice))
        layout.add("boards", len(self.boards), 7)
        layout.add("pile", 1)
        layout.add("placing", len(self.boards))

    def _describe_tail(self, layout: Layout) -> None:
        """The pieces after the island's spaces: cards, bags, temple, challenge, numbers."""
        n, items = self.players, len(self.item_faces)
        layout.add("start", items)
        layout.add("waiting", len(self.all_faces))
        layout.add("cards", n, items)
        layout.add("bags", len(KIND_IDS))
        layout.add("out", len(self.rahi_faces))
        layout.add("temple", self.gates, len(self.colours))
        # rahi/makuta, strength, bonus, the challenge roll, shown, die
        layout.add("challenge", 5 + items + len(self.dice))
        layout.add("returning", len(CARD_KINDS))
        layout.add("victim", n)
        layout.add("numbers", 3)  # roll, steps left, turn

    def describe_memory(self, layout: Layout) -> None:
        layout.add("held", len(self.item_faces))

    def _faces(self, view: np.ndarray, faces: list[str], index: dict[str, int], scale: float) -> None:
        for face in faces:
            view[index[face]] += 1.0 / scale

    def encode(self, obs: dict[str, Any], out: dict[str, np.ndarray]) -> None:
        order = self.relative(obs)
        self._encode_rest(obs, out, order)
        slot_of = self._island(obs).slot_of
        items = self.item_faces
        for row, seat in enumerate(order):
            one_hot(out["pawns"][row], slot_of.get(obs["pawns"][seat]))
        for slot in slot_of.values():
            out["open"][slot] = 1
        for name in obs["path"]:
            out["path"][slot_of[name]] = 1
        for name, faces in obs["tokens"].items():
            self._faces(out["items"][slot_of[name]], faces, items, 4.0)
        for name, faces in obs["under"].items():
            self._faces(out["under"][slot_of[name]], faces, items, 4.0)
        for name, face in obs["rahi"].items():
            slot = slot_of[name]
            out["rahi"][slot, 0] = 1
            if face in self.rahi_faces:
                out["rahi"][slot, 1] = strength(face)
        for name, face in obs["locks"].items():
            slot = slot_of[name]
            out["locks"][slot, 0] = 1
            if face in self.lock_faces:
                out["locks"][slot, 1 + self.lock_faces[face]] = 1

    def _encode_rest(self, obs: dict[str, Any], out: dict[str, np.ndarray], order: list[int]) -> None:
        """Every piece but the island's spaces (the head and tail pieces)."""
        me = order[0]
        items = self.item_faces
        out["to_decide"][0] = obs["current_player"] == me and obs["seat"] is not None
        out["my_turn"][0] = obs["turn_player"] == me
        out["phase"][PHASES.index(obs["phase"])] = 1
        for row, seat in enumerate(order):
            out["characters"][row, self.toa_index[obs["players"][seat]]] = 1
            out["dice"][row, self.dice.index(obs["dice"][seat])] = 1
            card = obs["cards"][seat]
            for kind in card:
                self._faces(out["cards"][row], card[kind], items, 4.0)
        out["boards"][:] = self._island(obs).boards
        out["pile"][0] = obs["pile"] / len(self.boards)
        if obs["placing"]:
            out["placing"][self.board_index[obs["placing"]]] = 1
        self._faces(out["start"], obs["start"], items, 4.0)
        self._faces(out["waiting"], obs["waiting"], self.all_faces, 4.0)
        bags = obs["bags"]
        out["bags"][:] = [bags[kind] / bound for kind, bound in zip(KIND_IDS, self.bag_bound, strict=True)]
        self._faces(out["out"], obs["beaten"], self.rahi_faces, 4.0)
        if obs["temple"]:
            for gate, colour in enumerate(obs["temple"]):
                out["temple"][gate, self.colours.index(colour)] = 1
        challenge = obs["challenge"]
        if challenge is not None:
            view = out["challenge"]
            view[0 if challenge["target"] == "rahi" else 1] = 1
            view[2] = challenge["strength"] / STRENGTH_SCALE
            view[3] = challenge["bonus"] / STRENGTH_SCALE
            view[4] = challenge["roll"] / self.most_faces
            self._faces(view[5:5 + len(items)], challenge["used"], items, 4.0)
            view[5 + len(items) + self.dice.index(challenge["die"])] = 1
        if obs["returning"]:
            out["returning"][CARD_KINDS.index(KIND_IDS.index(obs["returning"]))] = 1
        if obs["victim"] is not None:
            out["victim"][order.index(obs["victim"])] = 1
        out["numbers"][:] = (obs["roll"] / self.most_faces, obs["steps_left"] / self.most_faces,
                             obs["turn"] / obs["turn_limit"])

    def remember(self, obs: dict[str, Any], memory: dict[str, np.ndarray]) -> None:
        if obs["seat"] is None:
            return
        for faces in obs["cards"][obs["seat"]].values():
            for face in faces:
                memory["held"][self.item_faces[face]] = 1


ENCODING = MakutaEncoding


# -- the compact encoding ------------------------------------------------------------------

RADIUS = 7  # the grid reaches 7 squares from the pawn each way: 15 x 15 squares
ICON_PLANES = {  # the icon printed on a space (its terrain kind) -> its plane
    components.PLAIN: "plain", components.PORTAL: "portal", components.LANDING: "landing",
    components.GATE: "gate",
    **{icon: f"{KIND_IDS[kind]}_space" for icon, kind in components.TOKEN_ICONS.items()},
}
ICONS = tuple(ICON_PLANES)
STATIC_PLANES = ("board", "temple", *ICON_PLANES.values(), "open_portal")
TOKEN_PLANES = tuple(KIND_IDS[k] for k in CARD_KINDS)  # kanohi, turaga, key
DYNAMIC_PLANES = ("me", "others", "path", "reach", *TOKEN_PLANES,
                  *(f"under:{kind}" for kind in TOKEN_PLANES), "rahi", "rahi_strength", "lock",
                  "lock_seen")
GRID_PLANES = STATIC_PLANES + DYNAMIC_PLANES
SIDE = 2 * RADIUS + 1
ISLAND_COUNT = {kind: i for i, kind in enumerate((*TOKEN_PLANES, "rahi", "lock"))}  # on the island
GRID_CACHE = 256  # islands whose static planes are kept (a game lays at most 20 boards)


class _Grid:
    """One island's squares for the compact encoding, over its bounding box padded by RADIUS
    (so the window around any space lies inside): the static planes, each space's square (the
    Landing's: its centre) and a canvas for the planes that change, kept zero between uses."""

    def __init__(self, shapes: dict[str, Any], boards: list[list[Any]]) -> None:
        island = Island.rebuild(shapes, boards)
        rects = island.rects
        self.x0 = min(r[0] for r in rects) - RADIUS
        self.y0 = min(r[1] for r in rects) - RADIUS
        width = max(r[2] for r in rects) + RADIUS - self.x0
        height = max(r[3] for r in rects) + RADIUS - self.y0
        self.static = np.zeros((len(STATIC_PLANES), height, width), np.float32)
        for (board, rot, x, y), (x0, y0, x1, y1) in zip(island.placed, rects, strict=True):
            self.static[0, y0 - self.y0:y1 - self.y0, x0 - self.x0:x1 - self.x0] = 1
            for tx, ty in shapes[board][rot].temple:
                self.static[1, y + ty - self.y0, x + tx - self.x0] = 1
        dead = island.dead_portals()
        for (x, y), node in island.cell.items():
            self.static[2 + ICONS.index(island.icon[node]), y - self.y0, x - self.x0] = 1
            if island.is_open_portal(node) and node not in dead:  # a board may still be laid beyond
                self.static[-1, y - self.y0, x - self.x0] = 1
        self.centre = dict(zip(island.names, island.xy, strict=True))
        self.square = {name: (y - self.y0) * width + x - self.x0 for name, (x, y) in self.centre.items()}
        self.canvas = np.zeros((len(DYNAMIC_PLANES), height, width), np.float32)
        self.base = {name: i * height * width for i, name in enumerate(DYNAMIC_PLANES)}


class CompactMakutaEncoding(MakutaEncoding):
    """Makuta's island as a 15 x 15 grid of squares around the observing seat's pawn, one
    plane per feature, beside the full encoding's pieces that are not per space (cards, bags,
    temple, challenge, numbers) and each pawn's offset. The actions and the memory are the
    full encoding's: only the observation is smaller."""

    variant = "compact"
    about: ClassVar[Mapping[str, str]] = {
        **SHARED_ABOUT,
        "grid": (f"{SIDE} x {SIDE} squares centred on my pawn (rows north to south, columns west to "
                 f"east), one plane each: {', '.join(GRID_PLANES)}"),
        "offsets": "each seat's pawn: on the island, then x and y from mine (over 128, centred at 0.5)",
        "island": "the tokens on the island's spaces by kind (kanohi, turaga, key), its Rahi and its "
                  "locks, each over its bag's size",
    }

    def __init__(self, game: Any, players: int) -> None:
        self._grids: dict[tuple, _Grid] = {}
        super().__init__(game, players)
        self.per_token = {kind: 1.0 / bound for kind, bound in zip(KIND_IDS, self.bag_bound, strict=True)}

    def describe_observation(self, layout: Layout) -> None:
        self._describe_head(layout)
        layout.add("grid", len(GRID_PLANES), SIDE, SIDE)
        layout.add("offsets", self.players, 3)
        layout.add("island", len(ISLAND_COUNT))
        self._describe_tail(layout)

    def _grid(self, obs: dict[str, Any]) -> _Grid:
        key = tuple(map(tuple, obs["boards"]))
        grid = self._grids.get(key)
        if grid is None:
            if len(self._grids) >= GRID_CACHE:
                self._grids.clear()
            grid = self._grids[key] = _Grid(self.game.shapes, obs["boards"])
        return grid

    def encode(self, obs: dict[str, Any], out: dict[str, np.ndarray]) -> None:
        order = self.relative(obs)
        self._encode_rest(obs, out, order)
        grid = self._grid(obs)
        at, base = grid.square, grid.base
        # Marks: flat indices into the canvas and their values, added up.
        where: list[int] = []
        values: list[float] = []
        pawns = obs["pawns"]
        cx, cy = grid.centre.get(pawns[order[0]], grid.centre[START_NAME])
        others = 1.0 / max(1, self.players - 1)
        scale = 2 * COORDINATE_BOUND
        for row, seat in enumerate(order):
            xy = grid.centre.get(pawns[seat])
            if xy is not None:
                where.append(base["others" if row else "me"] + at[pawns[seat]])
                values.append(others if row else 1.0)
                out["offsets"][row] = (1.0, (xy[0] - cx + COORDINATE_BOUND) / scale,
                                     (xy[1] - cy + COORDINATE_BOUND) / scale)
        for plane in ("path", "reach"):
            where += [base[plane] + at[name] for name in obs[plane]]
            values += [1.0] * len(obs[plane])
        counts = dict.fromkeys(ISLAND_COUNT, 0)
        for name, faces in obs["tokens"].items():
            for face in faces:
                kind = face.partition(":")[0]
                where.append(base[kind] + at[name])
                counts[kind] += 1
        for name, faces in obs["under"].items():
            where += [base[f"under:{face.partition(':')[0]}"] + at[name] for face in faces]
        values += [0.25] * (len(where) - len(values))  # a quarter per token: four fill a space
        for name, face in obs["rahi"].items():
            where.append(base["rahi"] + at[name])
            values.append(1.0)
            if face in self.rahi_faces:
                where.append(base["rahi_strength"] + at[name])
                values.append(strength(face))
        for name, face in obs["locks"].items():
            where.append(base["lock"] + at[name])
            values.append(1.0)
            if face in self.lock_faces:
                where.append(base["lock_seen"] + at[name])
                values.append(1.0)
        counts["rahi"], counts["lock"] = len(obs["rahi"]), len(obs["locks"])
        out["island"][:] = [counts[kind] * self.per_token[kind] for kind in ISLAND_COUNT]
        window = out["grid"]
        left, top = cx - RADIUS - grid.x0, cy - RADIUS - grid.y0
        window[:len(STATIC_PLANES)] = grid.static[:, top:top + SIDE, left:left + SIDE]
        canvas, marked = grid.canvas.reshape(-1), np.asarray(where, np.intp)
        np.add.at(canvas, marked, values)  # several tokens on one space add up
        window[len(STATIC_PLANES):] = grid.canvas[:, top:top + SIDE, left:left + SIDE]
        canvas[marked] = 0.0


ENCODINGS = (MakutaEncoding, CompactMakutaEncoding)
