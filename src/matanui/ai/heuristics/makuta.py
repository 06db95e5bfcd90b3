"""A sensible Quest for Makuta player: explore until Makuta's board is found, gather power
(Pakari, Hau, Turaga) and keys, read the locks, and challenge Makuta once the keys fit and the
odds are fair. It avoids Rahi it is unlikely to beat and spends its bonus points sparingly.

It sees only its seat's observation, the legal actions and the game's static data (the
boards, from which it rebuilds the island the observation describes).
"""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass
from typing import Any

from matanui.ai.base import Agent, SeatView
from matanui.ai.heuristics import Heuristics
from matanui.games.makuta.island import DX, DY, NO_SPACE, Island

MASK_WORTH = {"pakari": 10, "hau": 6, "kaukau": 5, "kakama": 4, "akaku": 3, "miru": 2}


@dataclass(frozen=True)
class Weights:
    """The planner's judgement in numbers: what landing on each kind of space is worth, and
    when to risk Makuta. `medium` plays these hand-set values; an agent's name may set any
    of them (`heuristic{challenge_odds=0.4}`, matanui.ai.settings), and `matanui tune` tunes
    them (docs/tuning.md)."""

    step_cost: float = 0.6  # value lost per space of distance to a target
    progress: float = 0.3  # value of ending a roll one space nearer the best target out of reach
    challenge_odds: float = 0.3  # challenge Makuta at this chance of winning or better
    key: float = 8.0  # a key while we hold fewer than three
    kanohi: float = 6.0  # a Kanohi while we hold fewer than four
    turaga: float = 7.0  # a Turaga while we hold fewer than two
    explore: float = 8.0  # an open portal while Makuta's temple is unfound
    explore_ready: float = 12.0  # ... when three keys and strength 15 wait for it
    hidden_lock: float = 6.0  # a face-down lock, to learn its code
    hidden_lock_fit: float = 60.0  # ... times the share of codes our keys open, times our odds
    gate: float = 40.0  # a gate our keys open, when the odds are fair
    gate_odds: float = 60.0  # ... plus this times our odds against Makuta
    rahi_win: float = 2.0  # beating a Rahi: the extra turn
    rahi_guard: float = 5.0  # ... and each item it guards
    rahi_loss: float = 4.0  # losing to a Rahi: an item gone
    levitate_distance: float = 6.0  # fly to an open gate further than this
    contested: float = 0.0  # share of a treasure's worth lost when another Toa stands nearer
    akaku_hunt: float = 0.0  # with an Akaku: another Toa's space, per key it holds
    place_near: float = 0.0  # lay a board so its treasures lie nearer us than the others
    # What a token is worth keeping (giving one back, taking one from a loser):
    keep_unseen: float = 4.0  # a token whose face we have not seen
    keep_own_turaga: float = 9.0
    keep_other_turaga: float = 6.0
    keep_yellow_key: float = 8.0  # the key that fits every lock
    keep_fitting_key: float = 7.0  # a key on some known lock's code (or no code known yet)
    keep_other_key: float = 2.0
    keep_mask: float = 1.0  # times the mask's worth (MASK_WORTH)


class Heuristic(Agent):
    name = "heuristic"

    def __init__(self, seed: int = 0, weights: Weights | None = None) -> None:
        super().__init__(seed)
        self.weights = weights or Weights()
        self._island_key: tuple = ()
        self._island: Island | None = None
        self._neighbours: list[list[int]] = []
        self._plan: tuple[tuple, list[str]] = ((), [])

    # -- the decision ------------------------------------------------------------------

    def act(self, view: SeatView) -> str:
        actions = view.legal_actions()
        if len(actions) == 1:
            return actions[0]
        obs = view.observation()
        me = Seat(view, obs, self._rebuild(view, obs), self._neighbours, self.weights)
        phase = obs["phase"]
        if phase == "move":
            return self._move(me, actions)
        if phase == "roll":
            return "levitate" if "levitate" in actions and self._levitate_target(me) else "roll"
        if phase == "levitate":
            target = self._levitate_target(me)
            return f"to:{target}" if f"to:{target}" in actions else self._pick(actions)
        if phase == "bonus":
            return self._bonus(me, actions)
        if phase == "gate":
            ready = "challenge" in actions and me.makuta_odds() >= self.weights.challenge_odds
            return "challenge" if ready else "skip"
        if phase in ("return", "take", "steal"):
            return self._choose_token(me, phase, actions)
        if phase == "put":
            return self._put(me, actions)
        if phase == "place":
            return self._place(me, actions)
        # reveal, start-token, akaku: taking the chance is always worth it.
        useful = [a for a in actions if a != "skip"]
        return useful[0] if useful else "skip"

    def _rebuild(self, view: SeatView, obs: dict[str, Any]) -> Island:
        """The island the observation describes; boards are only ever added, so a cached
        island that is a prefix only needs the new ones."""
        key = tuple(tuple(b) for b in obs["boards"])
        island, known = self._island, self._island_key
        if island is None or key[:len(known)] != known:
            island = Island.rebuild(view.game.shapes, [])
            known = ()
        if key != known:
            for board in key[len(known):]:
                island.add(*board)
            self._neighbours = neighbours_of(island)
        self._island, self._island_key = island, key
        return island

    def _pick(self, actions: list[str]) -> str:
        return actions[self.rng.randrange(len(actions))]

    # -- moving ------------------------------------------------------------------------

    def _move(self, me: Seat, actions: list[str]) -> str:
        """Follow the walk planned at the roll; stop where it ends."""
        path = me.obs["path"]
        key = (me.obs["turn"], me.obs["roll"], path[0])
        done = len(path) - 1
        if self._plan[0] != key or done == 0:
            self._plan = (key, self._route(me))
        route = self._plan[1]
        if done < len(route) and route[done] in actions:
            return route[done]
        if "stop" in actions:
            return "stop"
        route = self._route(me)
        self._plan = (key, [""] * done + route)
        if route and route[0] in actions:
            return route[0]
        safe = [a for a in actions if a.startswith("move:") and not me.rahi_ahead(a)]
        return self._pick(safe or actions)

    def _route(self, me: Seat) -> list[str]:
        """The walk for the rest of this roll: to the best target within reach, or as close
        as the roll allows to the best target further away."""
        island = me.island
        here = me.here
        left = me.obs["steps_left"]
        path = {island.by_name[n] for n in me.obs["path"]}
        values = me.values()
        far = me.best_target(values)
        to_far = me.distances(far) if far is not None else {}
        # Walks of at most `left` spaces, never through a visited space or a Rahi.
        parent: dict[int, tuple[int, int]] = {here: (NO_SPACE, -1)}
        depth = {here: 0}
        queue = deque([here])
        best_score, best_end = float("-inf"), here
        while queue:
            node = queue.popleft()
            d = depth[node]
            if d:
                stoppable = node in values or node in me.rahi or d == left
                if stoppable:
                    score = values.get(node, 0.0) - me.weights.progress * to_far.get(node, 99)
                    if node == far:
                        score += 100
                    if score > best_score:
                        best_score, best_end = score, node
            if d == left or (d and node in me.rahi):
                continue
            for direction in range(4):
                nxt = island.adj[4 * node + direction]
                if nxt != NO_SPACE and nxt not in depth and nxt not in path:
                    depth[nxt] = d + 1
                    parent[nxt] = (node, direction)
                    queue.append(nxt)
        moves = []
        node = best_end
        while node != here:
            node, direction = parent[node]
            moves.append(f"move:{'NESW'[direction]}")
        return moves[::-1]

    def _levitate_target(self, me: Seat) -> str | None:
        """With a Miru: fly to a gate whose lock our keys open, when the odds are fair."""
        w = me.weights
        for gate in me.open_gates():
            if (me.makuta_odds() >= w.challenge_odds
                    and me.distances(me.here).get(gate, 99) > w.levitate_distance):
                return me.island.names[gate]
        return None

    # -- challenges --------------------------------------------------------------------

    def _bonus(self, me: Seat, actions: list[str]) -> str:
        """After the roll, minimum power: show the fewest points that win (against a Rahi,
        at least draw, which loses nothing); show nothing when even all of them fall short."""
        challenge = me.obs["challenge"]
        short = challenge["strength"] - challenge["roll"] - challenge["bonus"]  # for a draw
        uses = {a: me.points(a.split(":")[1]) for a in actions if a.startswith("use:")}
        if short < 0 or not uses:
            return "settle"
        left = me.strength - challenge["bonus"]
        need = short + 1  # to win
        if left < need:
            if challenge["target"] == "makuta" or left < short:
                return "settle"
            need = short  # a draw against a Rahi loses nothing
        enough = [a for a, points in uses.items() if points >= need]
        if enough:
            return min(enough, key=uses.__getitem__)
        return max(uses, key=uses.__getitem__)

    # -- tokens ------------------------------------------------------------------------

    def _choose_token(self, me: Seat, phase: str, actions: list[str]) -> str:
        """Give up our least useful token; take the most useful one from another card."""
        def worth(action: str) -> float:
            _, kind, slot = action.split(":")
            owner = me.seat if phase == "return" else me.obs["victim"]
            face = me.obs["cards"][owner][kind][int(slot)]
            value = me.token_worth(face, owner)
            return -value if phase == "return" else value + self.rng.random() * 0.01
        return max(actions, key=worth)

    def _put(self, me: Seat, actions: list[str]) -> str:
        """After Makuta beat the player to our right: put their pawn as far as we can from
        the gate they challenged from."""
        gate = me.island.by_name[me.obs["pawns"][me.obs["victim"]]]
        far = me.distances(gate)
        return max(actions, key=lambda a: far.get(me.island.by_name[a[4:]], 99))

    def _place(self, me: Seat, actions: list[str]) -> str:
        """Lay the board so that it leaves the most portals open to explore; with
        `place_near`, also so that its treasures and gates lie nearer to us than to the
        nearest other Toa (each counts 1/(1 + our distance) less 1/(1 + theirs))."""
        board = me.obs["placing"]
        best, best_score = actions[0], -1.0
        near = self.weights.place_near
        names = me.island.by_name
        others = [names[p] for seat, p in enumerate(me.obs["pawns"]) if seat != me.seat]
        for q, rot, x, y in me.island.placements(me.here, board):
            island = me.island.copy()
            nodes, _ = island.add(board, rot, x, y)
            score: float = sum(1 for n in nodes if me.open_portal(n, island))
            if near:
                # A rough reach on the island as it would be, through Rahi too.
                neighbours = neighbours_of(island)
                mine = distances(neighbours, me.here)
                theirs = [distances(neighbours, o) for o in others]
                for n in nodes:
                    if island.icon[n] in "KTYG":
                        d_them = min((t.get(n, 99) for t in theirs), default=99)
                        score += near * (1 / (1 + mine.get(n, 99)) - 1 / (1 + d_them))
            if score > best_score and f"place:{rot}:{q}" in actions:
                best, best_score = f"place:{rot}:{q}", score
        return best


def neighbours_of(island: Island) -> list[list[int]]:
    """Each space's neighbours, for walking the island."""
    adj = island.adj
    return [[m for m in adj[4 * n: 4 * n + 4] if m != NO_SPACE] for n in range(len(island))]


def distances(neighbours: list[list[int]], start: int, stops: Any = ()) -> dict[int, int]:
    """Spaces from `start`, never through a space in `stops` (it may be the end)."""
    dist = {start: 0}
    frontier = [start]
    d = 0
    while frontier:
        d += 1
        reached = []
        for node in frontier:
            if node in stops and node != start:
                continue
            for nxt in neighbours[node]:
                if nxt not in dist:
                    dist[nxt] = d
                    reached.append(nxt)
        frontier = reached
    return dist


class Seat:
    """What one seat's observation says, read for planning."""

    def __init__(self, view: SeatView, obs: dict[str, Any], island: Island,
                 neighbours: list[list[int]], weights: Weights) -> None:
        self.view = view
        self.weights = weights
        self.neighbours = neighbours
        self.obs = obs
        self.seat = view.seat
        self.island = island
        self.parts = view.game.parts
        self.toa = self.parts.toa[obs["players"][self.seat]]
        names = island.by_name
        self.here = names[obs["pawns"][self.seat]]
        self.rahi = {names[n]: face for n, face in obs["rahi"].items()}
        self.card = obs["cards"][self.seat]
        self.faces = self.parts.dice[obs["dice"][self.seat]]
        self.bonus = {t.view: t.bonus for t in self.parts.tokens if t.bonus}
        self.strength = self.power()
        self._unknown_rahi_odds: float | None = None
        self._distances: dict[int, dict[int, int]] = {}

    # -- strength ----------------------------------------------------------------------

    def points(self, name: str) -> int:
        rules = self.parts.rules
        if f"kanohi:{name}" in self.bonus:
            return self.bonus[f"kanohi:{name}"]
        return rules.own_turaga_bonus if name == self.toa.turaga else rules.other_turaga_bonus

    def power(self) -> int:
        total = sum(self.bonus.get(face, 0) for face in set(self.card["kanohi"]))
        return total + sum(self.points(face.split(":")[1]) for face in self.card["turaga"])

    def odds(self, strength: int) -> float:
        """The chance to beat `strength` with one roll plus all our bonus."""
        need = strength - self.strength  # the roll must be more than this
        return min(1.0, max(0.0, (self.faces - need) / self.faces))

    def makuta_odds(self) -> float:
        powers = [s.power for s in self.parts.segments]
        return sum(self.odds(p) for p in powers) / len(powers)

    def rahi_odds(self, face: str) -> float:
        parts = face.split(":")
        if len(parts) == 3:
            return self.odds(int(parts[2]))
        if self._unknown_rahi_odds is None:
            values = [t.value for t in self.parts.tokens if t.view.startswith("rahi:")]
            self._unknown_rahi_odds = sum(self.odds(v) for v in values) / len(values)
        return self._unknown_rahi_odds

    # -- keys --------------------------------------------------------------------------

    def keys(self) -> list[str]:
        return [face.split(":")[1] for face in self.card["key"]]

    def opens(self, code: list[str], keys: list[str]) -> bool:
        need = list(code)
        for key in keys:
            if key == "yellow":
                continue
            if key not in need:
                return False
            need.remove(key)
        return len(keys) >= self.parts.rules.keys_to_challenge

    def codes(self) -> dict[int, list[str]]:
        found = {}
        for name, face in self.obs["locks"].items():
            if face != "lock":
                found[self.island.by_name[name]] = face.split(":")[1].split("-")
        return found

    def open_gates(self) -> list[int]:
        keys = self.keys()
        return [gate for gate, code in self.codes().items() if self.opens(code, keys)]

    def token_worth(self, face: str, owner: int) -> float:
        """How much a token is worth to its owner (keys by how they fit the known locks)."""
        kind, _, name = face.partition(":")
        w = self.weights
        if not name:
            return w.keep_unseen
        if kind == "kanohi":
            return w.keep_mask * MASK_WORTH.get(name, 2)
        if kind == "turaga":
            own = self.parts.toa[self.obs["players"][owner]].turaga
            return w.keep_own_turaga if name == own else w.keep_other_turaga
        if name == "yellow":
            return w.keep_yellow_key
        codes = self.codes().values()
        fits = any(name in code for code in codes) or not codes
        return w.keep_fitting_key if fits else w.keep_other_key

    # -- the map -----------------------------------------------------------------------

    def open_portal(self, node: int, island: Island | None = None) -> bool:
        island = island or self.island
        if not island.is_open_portal(node):
            return False
        x, y = island.xy[node]
        d = island.out[node]
        return (x + DX[d], y + DY[d]) not in island.cell

    def rahi_ahead(self, action: str) -> bool:
        nxt = self.island.adj[4 * self.here + "NESW".index(action[-1])]
        return nxt in self.rahi

    def values(self) -> dict[int, float]:
        """What landing on each interesting space is worth now (a Rahi may be worth less
        than nothing)."""
        obs, names, w = self.obs, self.island.by_name, self.weights
        values: dict[int, float] = {}
        counts = {k: len(v) for k, v in self.card.items()}
        keys_fit = bool(self.open_gates())
        for name, faces in obs["tokens"].items():
            kind = faces[0].split(":")[0]
            if kind == "key":
                worth = w.key if counts["key"] < 3 else 1.0 if keys_fit else w.key / 2
            elif kind == "kanohi":
                worth = w.kanohi if counts["kanohi"] < 4 else 1.0
            else:
                worth = w.turaga if counts["turaga"] < 2 else 2.0
            values[names[name]] = worth
        if obs["pile"]:
            ready = counts["key"] == 3 and self.strength >= 15
            explore = 2.0 if obs["temple"] else w.explore_ready if ready else w.explore
            for node in self.island.out:
                if self.open_portal(node):
                    values[node] = explore
        hidden_lock = self.hidden_lock_worth(keys_fit)
        for name, face in obs["locks"].items():
            if face == "lock":
                values[names[name]] = hidden_lock
        for gate in self.open_gates():
            odds = self.makuta_odds()
            if odds >= w.challenge_odds:
                values[gate] = w.gate + w.gate_odds * odds
        if obs["start"] and self.here != names["start"]:
            values[names["start"]] = 3.0
        if w.akaku_hunt and "kanohi:akaku" in self.card["kanohi"]:
            for seat, pawn in enumerate(obs["pawns"]):
                keys = len(obs["cards"][seat]["key"])
                if seat != self.seat and keys and pawn != obs["pawns"][self.seat]:
                    node = names[pawn]
                    values[node] = max(values.get(node, 0.0), w.akaku_hunt * keys)
        for node, face in self.rahi.items():
            p = self.rahi_odds(face)
            guarded = len(obs["under"].get(self.island.names[node], []))
            values[node] = p * (w.rahi_win + w.rahi_guard * guarded) - (1 - p) * w.rahi_loss
        if w.contested:
            self.discount_contested(values, w.contested)
        return values

    def discount_contested(self, values: dict[int, float], share: float) -> None:
        """A treasure another Toa stands nearer to is likely gone before we arrive."""
        names = self.island.by_name
        others = {names[pawn] for seat, pawn in enumerate(self.obs["pawns"]) if seat != self.seat}
        mine = self.distances(self.here)
        theirs = [self.distances(node) for node in others]
        tokens = {names[name] for name in self.obs["tokens"]}
        for node in tokens & values.keys():
            if any(d.get(node, 99) < mine.get(node, 99) for d in theirs):
                values[node] *= 1 - share

    def hidden_lock_worth(self, keys_fit: bool) -> float:
        """A face-down lock is worth turning over to learn its code, and much more when our
        three keys open a fair share of all the codes there are."""
        if keys_fit:
            return 1.0
        keys, w = self.keys(), self.weights
        if len(keys) < self.parts.rules.keys_to_challenge:
            return w.hidden_lock
        codes = [t.code for t in self.parts.tokens if t.code]
        share = sum(self.opens(list(code), keys) for code in codes) / len(codes)
        return w.hidden_lock + w.hidden_lock_fit * share * self.makuta_odds()

    def best_target(self, values: dict[int, float]) -> int | None:
        dist = self.distances(self.here)
        scored = [(v - self.weights.step_cost * dist.get(n, 99), n) for n, v in values.items()
                  if n != self.here and v > 0]
        return max(scored)[1] if scored else None

    def distances(self, start: int) -> dict[int, int]:
        """Spaces from `start` (never through a Rahi; a Rahi itself may be the end), worked
        out once a decision: the route, the targets and the contested treasures all ask."""
        known = self._distances.get(start)
        if known is None:
            known = self._distances[start] = distances(self.neighbours, start, self.rahi)
        return known


# -- the search's evaluation (matanui.ai.ismcts) ---------------------------------------------
KEY_WORTH = 1.0  # a key is a third of what challenging Makuta needs
POWER_WORTH = 0.5  # a Kanohi or Turaga: bonus points in every challenge


def evaluate(state: Any) -> list[float]:
    """Each seat's prospects in a sampled (determinized) state, in [-1, 1]: its keys and its
    Kanohi and Turaga, against the best of the other seats. Reads only observations, each
    seat's own, which in a sampled state are all hypotheses of the searcher's."""
    values = []
    for seat in range(state.num_players):
        card = state.observation(seat)["cards"][seat]
        values.append(KEY_WORTH * min(len(card["key"]), 3)
                      + POWER_WORTH * (len(card["kanohi"]) + len(card["turaga"])))
    result = []
    for seat, value in enumerate(values):
        best_other = max(v for other, v in enumerate(values) if other != seat)
        result.append(math.tanh((value - best_other) / 3))
    return result


# -- a hint's reason (matanui.ai.analysis) ----------------------------------------------------

def explain(view: SeatView, action: str) -> str | None:
    """Why `action` is good here, in the game's words, where the sensible player's own rule
    chooses it too; None where only the chances can say. Reads the seat's observation only."""
    planner = Heuristic()
    obs = view.observation()
    me = Seat(view, obs, planner._rebuild(view, obs), planner._neighbours, planner.weights)
    phase, actions = obs["phase"], view.legal_actions()
    odds = me.makuta_odds()
    if phase == "gate":
        if action == "challenge":
            return (f"Challenge Makuta: your keys open this gate, and with a strength of {me.strength} you "
                    f"beat him {_how_often(odds)}.")
        if odds < planner.weights.challenge_odds:
            return (f"Not yet: with a strength of {me.strength} you would beat Makuta only "
                    f"{_how_often(odds)}; gather Kanohi and Turaga first.")
    if phase == "bonus" and action == planner._bonus(me, actions):
        return _explain_bonus(me, action)
    if phase in ("return", "take", "steal") and action == planner._choose_token(me, phase, actions):
        _, kind, slot = action.split(":")
        owner = me.seat if phase == "return" else obs["victim"]
        face = _token_words(obs["cards"][owner][kind][int(slot)], kind)
        return (f"Give back your {face}: of your tokens it helps you least." if phase == "return"
                else f"Take their {face}: of their tokens it helps you most.")
    if action == "levitate" and planner._levitate_target(me):
        return f"Levitate: your keys open a gate far from here, and you beat Makuta {_how_often(odds)}."
    if phase == "reveal" and action == "reveal":
        return "Turn it over: once its code is known you can tell which keys open the gate."
    return None


def _explain_bonus(me: Seat, action: str) -> str:
    challenge = me.obs["challenge"]
    foe = "Makuta" if challenge["target"] == "makuta" else "the Rahi"
    total, strength = challenge["roll"] + challenge["bonus"], challenge["strength"]
    if action == "settle":
        if total > strength:
            return f"Add up now: your {total} already beats {foe}'s {strength}; keep your tokens hidden."
        return f"Add up now: even every token you have would not beat {foe}'s {strength}; keep them hidden."
    points = me.points(action.split(":")[1])
    outcome = "win" if total + points > strength else "draw, which loses you nothing,"
    return f"Show it: its {points} points are the fewest that {outcome} against {foe}'s {strength}."


def _how_often(chance: float) -> str:
    return "every time" if chance >= 0.995 else f"about {round(chance * 100)} times in a hundred"


def _token_words(face: str, kind: str) -> str:
    """A token as the game names it: "Kanohi Kakama", "Turaga Whenua", "Water key", or
    "face-down Turaga token"."""
    if ":" not in face:
        return f"face-down {kind.capitalize()} token"
    name = face.split(":")[1].capitalize()
    return f"{name} key" if kind == "key" else f"{kind.capitalize()} {name} token"


# What the bots make of the above (matanui.ai.heuristics.Heuristics):
# - `hard` is this planner with the weights `matanui tune` found (data/tuned.toml), not the
#   search: at a second a move the anchored search played medium's move almost always and lost
#   where it did not (paired SPRT(0,100): H0 after 8 pairs, 0.375), while the tuned planner
#   scores 0.707 against medium over 400 game pairs (docs/ai.md).
# - For the tree search (`ismcts@N`): a game runs to hundreds of steps, too many to play out to
#   the end hundreds of times a second, so playouts are 40 random steps and `evaluate` scores
#   the state they reach. Such scores are noisy, and a search that follows their noise
#   wanders: unanchored, ismcts@110 drew all of 4 games against random at the turn limit. So
#   the search plays the planner's move unless its own best is clearly better (mean return
#   higher by 0.2, on evaluate's -1..1 scale): 4 of 6 wins on seeds where the planner alone
#   also wins 4 of 6 (the other two are draws for both).
HEURISTICS = Heuristics(Heuristic, weights=Weights, hard_is_tuned=True, playouts_follow_agent=False,
                        playout_limit=40, search_overrules_agent_by=0.2, evaluate=evaluate,
                        explain=explain)
