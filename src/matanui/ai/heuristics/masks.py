"""A sensible Quest for the Masks player: head for the nearest Challenge space it may enter,
keep away from Mission spaces ("It's a good idea to avoid the Mission spaces"), finish a
Mission by the shortest way, wear the cards that win the most challenges, and spend cards only
where they change an outcome. It reads its seat's observation, the legal actions and the
static map and card data, never the state."""

from __future__ import annotations

import heapq
import math
from typing import Any

from matanui.ai.base import Agent, SeatView
from matanui.ai.heuristics import Heuristics

MISSION_DETOUR = 6  # how many extra steps are worth taking to keep off a Mission space
# When a Mission asks for a card, the least useful kinds go first.
GIVE_UP_ORDER = ("draw", "skip", "move", "push", "weaken", "boost")
CHALLENGE, GAME_ACTION, MISSION, PORTAL = 2, 3, 1, 4  # the map's kind codes (maps.py)
INFINITY = 10**6
FIELD_CACHE_LIMIT = 20_000  # distance fields remembered per process (about 1 kB each)
_FIELDS: dict[tuple[str, tuple[int, ...], frozenset[int]], tuple[int, ...]] = {}


def _shortest_paths(board, targets: list[int], closed: set[int]) -> tuple[int, ...]:
    dist = [INFINITY] * len(board.kind)
    heap = [(0, c) for c in targets]
    for c in targets:
        dist[c] = 0
    heapq.heapify(heap)
    while heap:
        d, cell = heapq.heappop(heap)
        if d > dist[cell] or cell in closed:
            continue
        # Reaching `cell` from a neighbour costs the step into it.
        step = 1 + (MISSION_DETOUR if board.kind[cell] == MISSION and d > 0 else 0)
        for nxt in board.step[cell]:
            if nxt >= 0 and d + step < dist[nxt]:
                dist[nxt] = d + step
                heapq.heappush(heap, (d + step, nxt))
    return tuple(dist)


class Heuristic(Agent):
    name = "heuristic"

    def act(self, view: SeatView) -> str:
        actions = view.legal_actions()
        if len(actions) == 1:
            return actions[0]
        obs = view.observation()
        phase = obs["phase"]
        if phase == "window":
            return self._window(view, obs, actions)
        if phase == "anytime":
            return next((a for a in actions if a != "pass" and self._worth_playing_now(view, obs, a)), "pass")
        if phase == "claim":
            return self._claim(view, obs, actions)
        if phase == "discard":
            return self._give_up(view, actions)
        if phase == "jump":
            field = self._field(view, obs)
            board = view.game.boards[obs["map"]]
            return min(actions, key=lambda a: (field[board.cell(a.split(":")[1])], self.rng.random()))
        return self._turn(view, obs, actions)

    # -- where to go -------------------------------------------------------------------

    def _field(self, view: SeatView, obs: dict[str, Any]) -> tuple[int, ...]:
        """Steps (Mission spaces counted dear) from every space to the nearest space this Toa
        wants to reach now: a Challenge space, or what its oldest Mission asks for."""
        board = view.game.boards[obs["map"]]
        me = obs["seat"]
        mine = obs["toa"][me]
        other = board.cell(obs["positions"][1 - me])
        closed = {board.cell(label) for label in (mine["last_challenge"], mine["last_game_action"]) if label}
        closed.add(other)
        if mine["missions"]:
            closed |= {c for c in board.spaces() if board.kind[c] == CHALLENGE}
            mission = view.game.cards.missions[mine["missions"][0][0]]
            wanted = PORTAL if mission.kind == "travel" and mission.target == "portal" else GAME_ACTION
        else:
            wanted = CHALLENGE
        targets = [c for c in board.spaces() if board.kind[c] == wanted and c not in closed]
        return self._distances(board, targets, closed)

    @staticmethod
    def _distances(board, targets: list[int], closed: set[int]) -> tuple[int, ...]:
        """Steps to the nearest target from every cell. A pure function of its arguments,
        remembered: a search's playouts ask for the same few fields thousands of times."""
        key = (board.id, tuple(targets), frozenset(closed))
        field = _FIELDS.get(key)
        if field is None:
            if len(_FIELDS) >= FIELD_CACHE_LIMIT:
                _FIELDS.clear()
            field = _FIELDS[key] = _shortest_paths(board, targets, closed)
        return field

    def _cost(self, board, field: tuple[int, ...], cell: int) -> int:
        extra = MISSION_DETOUR if board.kind[cell] == MISSION and field[cell] > 0 else 0
        return field[cell] + extra

    # -- the turn -------------------------------------------------------------------------

    def _turn(self, view: SeatView, obs: dict[str, Any], actions: list[str]) -> str:
        game = view.game
        board = game.boards[obs["map"]]
        me = obs["seat"]
        attach = self._best_attach(view, obs, [a for a in actions if a.startswith("attach:")])
        if attach:
            return attach
        field = self._field(view, obs)
        moves = {a: board.step[board.cell(obs["positions"][me])]["NESW".index(a[-1])]
                 for a in actions if a.startswith("move:")}
        best_move = min(moves, key=lambda a: (self._cost(board, field, moves[a]), self.rng.random()),
                        default=None)
        arrives = best_move is not None and field[moves[best_move]] == 0
        cards = game.cards.actions
        plays = [a for a in actions if a.startswith("play:")]
        for action in plays:
            effect = cards[int(action.split(":")[1])].effect
            if effect in ("draw", "skip") and self._worth_playing_now(view, obs, action):
                return action
            if effect == "push" and not arrives:
                target = board.cell(self._push_target(board, obs, action))
                if board.kind[target] == MISSION:
                    return action
            if effect == "move" and not arrives and field[self._two_step_end(board, obs, action)] == 0:
                return action
        return best_move or "wait"

    def _worth_playing_now(self, view: SeatView, obs: dict[str, Any], action: str) -> bool:
        """A card that may be played at any time, played now (before the move, or before the
        turn passes): a draw while the hand has room for both cards, a skip when the other Toa
        is close to a Challenge space (the move it skips is the next one)."""
        effect = view.game.cards.actions[int(action.split(":")[1])].effect
        if effect == "draw":
            return len(obs["hand"]) <= 4
        return effect == "skip" and self._opponent_near_challenge(view, obs)

    @staticmethod
    def _push_target(board, obs: dict[str, Any], action: str) -> str:
        opp = 1 - obs["seat"]
        cell = board.step[board.cell(obs["positions"][opp])]["NESW".index(action[-1])]
        return board.label(cell)

    @staticmethod
    def _two_step_end(board, obs: dict[str, Any], action: str) -> int:
        """Where `play:N:NE` ends (either order of its two steps that stays on the map)."""
        here = board.cell(obs["positions"][obs["seat"]])
        code = action.split(":")[2]
        for first, second in (code, code[::-1]):
            mid = board.step[here]["NESW".index(first)]
            if mid >= 0 and board.step[mid]["NESW".index(second)] >= 0:
                return board.step[mid]["NESW".index(second)]
        raise ValueError(f"{action} ends nowhere")  # a legal action always ends on the map

    def _opponent_near_challenge(self, view: SeatView, obs: dict[str, Any]) -> bool:
        board = view.game.boards[obs["map"]]
        opp = 1 - obs["seat"]
        theirs = obs["toa"][opp]
        if theirs["missions"] or theirs["skips"]:
            return False
        closed = {board.cell(obs["positions"][obs["seat"]])}
        if theirs["last_challenge"]:
            closed.add(board.cell(theirs["last_challenge"]))
        targets = [c for c in board.spaces() if board.kind[c] == CHALLENGE and c not in closed]
        field = self._distances(board, targets, closed)
        return field[board.cell(obs["positions"][opp])] <= 2

    # -- Great Mask and Turaga cards --------------------------------------------------------

    @staticmethod
    def _value(mine: list[int], theirs: list[int]) -> int:
        """Challenges won over the six skills: as the lander (a tie wins) and as the other Toa."""
        return sum((m >= t) + (m > t) for m, t in zip(mine, theirs, strict=True))

    def _with(self, view: SeatView, obs: dict[str, Any], number: int) -> list[int]:
        """My skills if card `number` were attached in place of the attached card of its kind."""
        cards = view.game.cards.mask_cards
        mine = obs["toa"][obs["seat"]]
        card = cards[number]
        current = mine["mask"] if card.kind == "mask" else mine["turaga"]
        skills = list(mine["skills"])
        if current:
            skills = [s - b for s, b in zip(skills, cards[current].bonus, strict=True)]
        return [s + b for s, b in zip(skills, card.bonus, strict=True)]

    def _best_attach(self, view: SeatView, obs: dict[str, Any], options: list[str]) -> str | None:
        theirs = obs["toa"][1 - obs["seat"]]["skills"]
        now = self._value(obs["toa"][obs["seat"]]["skills"], theirs)
        best, gain = None, 0
        for action in options:
            value = self._value(self._with(view, obs, int(action.split(":")[1])), theirs) - now
            if value > gain:
                best, gain = action, value
        return best

    def _claim(self, view: SeatView, obs: dict[str, Any], actions: list[str]) -> str:
        attach = actions[0]
        theirs = obs["toa"][1 - obs["seat"]]["skills"]
        better = self._value(self._with(view, obs, obs["claim"]), theirs)
        return attach if better >= self._value(obs["toa"][obs["seat"]]["skills"], theirs) else "keep"

    # -- challenges and Missions ------------------------------------------------------------

    def _window(self, view: SeatView, obs: dict[str, Any], actions: list[str]) -> str:
        challenge = obs["challenge"]
        me = obs["seat"]
        lander = challenge["lander"]
        mine, theirs = challenge["scores"][me], challenge["scores"][1 - me]
        winning = mine >= theirs if me == lander else mine > theirs
        if winning:
            return "pass"
        cards = view.game.cards.actions
        for action in actions:
            if action == "pass":
                continue
            card = cards[int(action.split(":")[1])]
            if card.effect in ("boost", "weaken"):
                return action
        return "pass"

    def _give_up(self, view: SeatView, actions: list[str]) -> str:
        cards = view.game.cards.actions
        return min(actions, key=lambda a: (GIVE_UP_ORDER.index(cards[int(a.split(":")[1])].effect),
                                           self.rng.random()))


# -- the search's evaluation (matanui.ai.ismcts) ---------------------------------------------
# A whole heuristic game runs about 85 steps, so a search that plays every sample to the end
# manages some 340 iterations a second. Its playouts instead stop after PLAYOUT_LIMIT steps and
# `evaluate` scores the race from there. EVALUATION_SCALE is fitted against the outcomes of
# heuristic games: `python -m matanui.studies.evalfit masks` (docs/ai.md).
PLAYOUT_LIMIT = 12
EVALUATION_SCALE = 0.166
MASKS_IN_PILE = 6  # a Toa's pile holds his six Great Masks and three Turaga cards
LEAST_CHANCE = 1 / 12  # a Toa outmatched in every skill still wins a tie now and then


def landings_needed(obs: dict[str, Any], seat: int) -> float:
    """How many more Challenge spaces `seat` expects to land on before he wins: the draws his
    pile needs to turn up his missing Great Masks (among the Turaga cards left in it), over the
    share of the six skills in which he wins as the lander (a tie wins) against the other Toa."""
    toa, other = obs["toa"][seat], obs["toa"][1 - seat]
    missing = obs["masks_to_win"] - toa["masks"]
    draws = missing * (toa["mask_pile"] + 1) / (MASKS_IN_PILE - toa["masks"] + 1)
    chance = sum(m >= t for m, t in zip(toa["skills"], other["skills"], strict=True)) / 6
    return draws / max(chance, LEAST_CHANCE)


def advantage(state: Any) -> float:
    """Seat 0's lead in the race, in landings: how many more the other Toa needs than he does.
    Public facts only (every seat's Great Masks, piles and skills are on the table)."""
    obs = state.observation(None)
    return landings_needed(obs, 1) - landings_needed(obs, 0)


def evaluate(state: Any) -> list[float]:
    """Each seat's prospects in a sampled state, in [-1, 1]: tanh of the scaled lead, which is
    2 P(win) - 1 for the logistic model the scale was fitted by."""
    value = math.tanh(EVALUATION_SCALE * advantage(state))
    return [value, -value]


# -- a hint's reason (matanui.ai.analysis) ----------------------------------------------------

def explain(view: SeatView, action: str) -> str | None:
    """Why `action` is good here, in the game's words, where the sensible player's own rule
    says it; None where only the chances can say. Reads the seat's observation only."""
    obs = view.observation()
    kind = action.split(":")[0]
    if obs["phase"] == "window":
        return _explain_window(view, obs, action)
    if kind == "attach" or action == "keep":
        return _explain_wearing(view, obs, action)
    if kind == "move":
        return _explain_move(view, obs, action)
    if kind == "play" and Heuristic()._worth_playing_now(view, obs, action):
        effect = view.game.cards.actions[int(action.split(":")[1])].effect
        return ("Draw now: your hand has room for both cards." if effect == "draw"
                else "Make them skip: they are two spaces or less from a Challenge space.")
    return None


def _lander_wins(mine: list[int], theirs: list[int]) -> int:
    """In how many of the six skills a Toa landing on a Challenge space wins (a tie wins)."""
    return sum(m >= t for m, t in zip(mine, theirs, strict=True))


def _explain_window(view: SeatView, obs: dict[str, Any], action: str) -> str | None:
    challenge = obs["challenge"]
    me = obs["seat"]
    mine, theirs = challenge["scores"][me], challenge["scores"][1 - me]
    skill = challenge["skill"].capitalize()
    landing = me == challenge["lander"]
    ahead = mine >= theirs if landing else mine > theirs
    if action == "pass" and ahead:
        outcome = "you win the Great Mask" if landing else "you stop them winning the Great Mask"
        return f"Keep your cards: your {skill} of {mine} against their {theirs} already means {outcome}."
    if action != "pass" and not ahead:
        effect = view.game.cards.actions[int(action.split(":")[1])].effect
        if effect in ("boost", "weaken"):
            return (f"Play it: without it their {skill} of {theirs} beats your {mine}"
                    f"{' and they win the Great Mask' if not landing else ''}.")
    return None


def _explain_wearing(view: SeatView, obs: dict[str, Any], action: str) -> str | None:
    number = int(action.split(":")[1]) if action.startswith("attach:") else obs["claim"]
    if number is None:
        return None
    theirs = obs["toa"][1 - obs["seat"]]["skills"]
    now = _lander_wins(obs["toa"][obs["seat"]]["skills"], theirs)
    wearing = _lander_wins(Heuristic()._with(view, obs, number), theirs)
    name = view.game.cards.mask_cards[number].name
    if action == "keep":
        return None if wearing > now else (f"Keep it unattached: wearing {name} would not win you more "
                                           f"challenges.")
    if wearing > now:
        return (f"Wear {name}: landing on a Challenge space you would beat them in {wearing} of the six "
                f"skills, not {now}.")
    return None


def _explain_move(view: SeatView, obs: dict[str, Any], action: str) -> str | None:
    board = view.game.boards[obs["map"]]
    here = board.cell(obs["positions"][obs["seat"]])
    there = board.step[here]["NESW".index(action[-1])]
    field = Heuristic()._field(view, obs)
    if field[there] >= field[here]:
        return None
    missions = obs["toa"][obs["seat"]]["missions"]
    if missions:
        mission = view.game.cards.missions[missions[0][0]]
        portal = mission.kind == "travel" and mission.target == "portal"
        goal = "the Portal" if portal else "a Game Action space"
        return f"It is the quickest way to {goal}, which your Mission asks for."
    if field[there] == 0:
        toa = obs["toa"]
        wins = _lander_wins(toa[obs["seat"]]["skills"], toa[1 - obs["seat"]]["skills"])
        return (f"Land on the Challenge space: a Great Mask Challenge, in which your skills beat theirs in "
                f"{wins} of the six.")
    return "It is the quickest way to a Challenge space you may enter, keeping off the Mission spaces."


HEURISTICS = Heuristics(Heuristic, playout_limit=PLAYOUT_LIMIT, evaluate=evaluate, advantage=advantage,
                        evaluation_scale=EVALUATION_SCALE, explain=explain)
