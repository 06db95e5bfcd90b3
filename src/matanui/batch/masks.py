"""Quest for the Masks, batched: many games stepped at once by numba kernels over int arrays.

The rules are in matanui.batch.masks_rules (one int32 row per game, the layout in its
docstring); this module builds the data those kernels read from the reference game object
(cards, the map of the chosen side, the options) and the encoding's action indices and
observation offsets, behind the checked interface of matanui.batch.base.BatchedGame.

A game reset with seed s is the game `Table.deal(encoding, s, None, options)` makes; its legal
masks, observation+memory tensors and returns are the reference's, checked move for move by
tests/batch/test_masks.py (and `matanui.batch.check`). Why numba: the rules are branchy and
sequential per game (an agenda of steps, card piles), which vectorises badly in numpy or JAX;
compiled scalar code per game, looped over games on numba's threads, reads like the reference.
"""

from __future__ import annotations

from collections import namedtuple
from collections.abc import Mapping
from typing import Any

import numpy as np
from numba import njit, prange

from matanui import games
from matanui.batch import masks_rules as r
from matanui.batch import random as mt
from matanui.batch.base import BatchedGame
from matanui.engine.errors import MatanuiError
from matanui.envs.encoding import encoding_for
from matanui.envs.encodings import masks as enc
from matanui.games.masks.cards import SKILLS
from matanui.games.masks.moves import TWO_STEPS
from matanui.games.masks.setup import MASKS_TO_WIN, MASKS_TO_WIN_SHORT, Challenge, HeldMission

# The reference's rules_version these kernels implement: a game of other rules is refused,
# not silently played by the old ones.
RULES_VERSION = "3"

# Where each observation piece starts, and its row stride (the encoding's layout, read at
# construction); memory pieces are offset by the observation's size.
PIECES = ("to_decide", "my_turn", "phase", "map", "short", "characters", "position", "skills", "won",
          "attached", "piles", "known", "discarded", "missions", "last_challenge", "last_game_action",
          "challenge_pile", "challenge_discard", "mission_pile", "mission_discard", "lander",
          "challenge_card", "challenge_skill", "bonus", "scores", "passes", "claim", "attach_done", "hand",
          "turn", "held", "seen_discarded", "seen_challenges", "seen_missions")
(P_TO_DECIDE, P_MY_TURN, P_PHASE, P_MAP, P_SHORT, P_CHARACTERS, P_POSITION, P_SKILLS, P_WON, P_ATTACHED,
 P_PILES, P_KNOWN, P_DISCARDED, P_MISSIONS, P_LAST_CHALLENGE, P_LAST_GAME_ACTION, P_CHALLENGE_PILE,
 P_CHALLENGE_DISCARD, P_MISSION_PILE, P_MISSION_DISCARD, P_LANDER, P_CHALLENGE_CARD, P_CHALLENGE_SKILL,
 P_BONUS, P_SCORES, P_PASSES, P_CLAIM, P_ATTACH_DONE, P_HAND, P_TURN, P_HELD, P_SEEN_DISCARDED,
 P_SEEN_CHALLENGES, P_SEEN_MISSIONS) = range(len(PIECES))

# The encoding's index of each move, and what observe needs beyond the offsets.
Codes = namedtuple("Codes", [
    "move", "wait", "pass_", "keep", "attach", "play", "discard", "push", "two", "jump",
    "start", "stride", "mask_index", "map_index", "short", "observation_size",
    "pile_bounds", "skill_scale", "score_scale", "bonus_scale", "mission_bound",
])


def _rules(game: Any, options: Mapping[str, Any]) -> r.Rules:
    """The kernels' data, from the reference game's cards and the chosen map."""
    cards, board = game.cards, game.boards[options["map"]]
    toa = list(cards.toa.values())
    top = max(cards.mask_cards) + 1
    mask_kind = np.zeros(top, np.int64)
    mask_bonus = np.zeros((top, len(SKILLS)), np.int64)
    for n, card in cards.mask_cards.items():
        mask_kind[n] = 0 if card.kind == "mask" else 1
        mask_bonus[n] = card.bonus
    action_effect = np.zeros(max(cards.actions) + 1, np.int64)
    action_amount = np.zeros_like(action_effect)
    for n, card in cards.actions.items():
        action_effect[n] = r.EFFECTS.index(card.effect)
        action_amount[n] = card.amount
    size = max(cards.missions) + 1
    mission = {name: np.zeros(size, np.int64) for name in ("kind", "direction", "spaces", "count", "target")}
    for n, m in cards.missions.items():
        mission["kind"][n] = r.MISSION_KINDS.index(m.kind)
        mission["direction"][n], mission["spaces"][n] = m.direction, m.spaces
        mission["count"][n] = m.count if m.kind in ("discard", "skip") else 1  # MasksState._mission_count
        mission["target"][n] = r.TRAVEL_TARGETS.index(m.target) if m.kind == "travel" else -1
    challenge_skill = np.zeros(max(cards.challenges) + 1, np.int64)
    for n, c in cards.challenges.items():
        challenge_skill[n] = c.skill
    two_steps = np.full((len(TWO_STEPS), 2, 2), -1, np.int64)
    for index, (_, paths) in enumerate(TWO_STEPS):
        for p, path in enumerate(paths):
            two_steps[index, p] = path
    first = options["first_player"]
    return r.Rules(
        toa_skills=np.array([t.skills for t in toa], np.int64),
        toa_pile=np.array([cards.piles(t.id) for t in toa], np.int64),
        mask_kind=mask_kind, mask_bonus=mask_bonus, action_effect=action_effect, action_amount=action_amount,
        mission_kind=mission["kind"], mission_direction=mission["direction"],
        mission_spaces=mission["spaces"], mission_count=mission["count"], mission_target=mission["target"],
        challenge_skill=challenge_skill,
        kind=np.array(board.kind, np.int64), circles=np.array(board.circles, np.int64),
        step=np.array(board.step, np.int64), portals=np.array(board.portals, np.int64), two_steps=two_steps,
        west=board.west_start, east=board.east_start,
        masks_to_win=MASKS_TO_WIN_SHORT if options["short"] else MASKS_TO_WIN,
        turn_limit=options["turn_limit"], first=-1 if first == "rps" else int(first),
    )


def _codes(game: Any, encoding: enc.MasksEncoding, options: Mapping[str, Any]) -> Codes:
    """The encoding's action indices and observation offsets, as arrays for the kernels."""
    cards, board = game.cards, game.boards[options["map"]]
    index = encoding.index
    # The kernels keep cards as bits n - first number: check the encoding orders them so.
    for numbers, first, order in ((cards.actions, r.ACTION_BASE, encoding.action_index),
                                  (cards.challenges, r.CHALLENGE_BASE, encoding.challenge_index),
                                  (cards.missions, r.MISSION_BASE, encoding.mission_index)):
        if any(order[n] != n - first for n in numbers):
            raise MatanuiError("the batched Masks engine needs the encoding's card order by number")
    top_mask, top_action = max(cards.mask_cards) + 1, max(cards.actions) + 1
    attach = np.full(top_mask, -1, np.int64)
    mask_index = np.full(top_mask, -1, np.int64)
    for n in cards.mask_cards:
        attach[n] = index[f"attach:{n}"]
        mask_index[n] = encoding.mask_index[n]
    play, discard = np.full(top_action, -1, np.int64), np.full(top_action, -1, np.int64)
    push = np.full((top_action, 4), -1, np.int64)
    two = np.full((top_action, len(TWO_STEPS)), -1, np.int64)
    for n, card in cards.actions.items():
        play[n], discard[n] = index[f"play:{n}"], index[f"discard:{n}"]
        if card.effect == "push":
            push[n] = [index[f"play:{n}:{d}"] for d in enc.DIRECTIONS]
        elif card.effect == "move":
            two[n] = [index[f"play:{n}:{code}"] for code in enc.TWO_STEPS]
    jump = np.full(board.width * board.height, -1, np.int64)
    for cell in board.portals:
        jump[cell] = index[f"jump:{board.label(cell)}"]
    layout = {name: (where.start, shape) for name, where, shape in encoding.observation_layout.pieces}
    obs_size = encoding.observation_size
    for name, where, shape in encoding.memory_layout.pieces:
        layout[name] = (obs_size + where.start, shape)
    start = np.array([layout[name][0] for name in PIECES], np.int64)
    stride = np.array([int(np.prod(layout[name][1][1:])) if len(layout[name][1]) > 1 else 0
                       for name in PIECES], np.int64)
    return Codes(
        move=np.array([index[f"move:{d}"] for d in enc.DIRECTIONS], np.int64), wait=index["wait"],
        pass_=index["pass"], keep=index["keep"], attach=attach, play=play, discard=discard, push=push,
        two=two, jump=jump, start=start, stride=stride, mask_index=mask_index,
        map_index=encoding.maps.index(options["map"]), short=1 if options["short"] else 0,
        observation_size=obs_size, pile_bounds=np.array(enc.PILE_BOUNDS, np.float64),
        skill_scale=np.float32(enc.SKILL_SCALE), score_scale=enc.SCORE_SCALE, bonus_scale=enc.BONUS_SCALE,
        mission_bound=float(enc.MISSION_COUNT_BOUND),
    )


# -- kernels over the batch ------------------------------------------------------------------

@njit(cache=True, inline="always")
def _action_index(R, C, move: np.ndarray) -> int:
    op = move[0]
    if op == r.M_MOVE:
        return C.move[move[1]]
    if op == r.M_PLAY:
        effect = R.action_effect[move[1]]
        if effect == r.E_PUSH:
            return C.push[move[1], move[2]]
        if effect == r.E_MOVE:
            return C.two[move[1], move[2]]
        return C.play[move[1]]
    if op == r.M_ATTACH:
        return C.attach[move[1]]
    if op == r.M_PASS:
        return C.pass_
    if op == r.M_KEEP:
        return C.keep
    if op == r.M_JUMP:
        return C.jump[move[1]]
    if op == r.M_DISCARD:
        return C.discard[move[1]]
    return C.wait


@njit(cache=True, parallel=True)
def _deal_where(S, rngs, R, where, seeds) -> None:
    for i in prange(S.shape[0]):
        if where[i]:
            r.deal(S[i], rngs[i], R, seeds[i], np.zeros(2, np.int64), np.empty(mt.STATE_WORDS, np.uint32))


@njit(cache=True, parallel=True)
def _legal_masks(S, R, C, out) -> None:
    for i in prange(S.shape[0]):
        moves = np.empty((r.MAX_MOVES, 4), np.int64)
        out[i] = False
        for k in range(r.generate_moves(S[i], R, moves)):
            out[i, _action_index(R, C, moves[k])] = True


@njit(cache=True)
def _find(s, R, C, action, moves) -> int:
    """The row of `moves` the action index stands for in game s, or -1 when not legal."""
    for k in range(r.generate_moves(s, R, moves)):
        if _action_index(R, C, moves[k]) == action:
            return k
    return -1


@njit(cache=True, parallel=True)
def _step_all(S, rngs, R, C, actions, active) -> int:
    """Every action is checked before any is applied: -1, or the first illegal game."""
    n = S.shape[0]
    rows = np.full(n, -1, np.int64)
    for i in prange(n):
        if active[i] and S[i, r.PHASE] != r.OVER:
            k = _find(S[i], R, C, actions[i], np.empty((r.MAX_MOVES, 4), np.int64))
            rows[i] = k if k >= 0 else -2
    for i in range(n):
        if rows[i] == -2:
            return i
    for i in prange(n):
        if rows[i] >= 0:
            moves = np.empty((r.MAX_MOVES, 4), np.int64)
            r.generate_moves(S[i], R, moves)
            k = rows[i]
            r.perform(S[i], rngs[i], R, moves[k, 0], moves[k, 1], moves[k, 2], moves[k, 3])
    return -1


@njit(cache=True, inline="always")
def _bits(o, at: int, bits: int, size: int) -> None:
    for bit in range(size):
        if (bits >> bit) & 1:
            o[at + bit] = 1.0


@njit(cache=True, parallel=True)
def _observe(S, R, C, seats, out, where) -> None:
    """The encoding's observation and memory of each game where where[i], for seat seats[i]
    (MasksEncoding.encode and remember, as envs.table.Table.features gives them)."""
    start, stride = C.start, C.stride
    for i in prange(S.shape[0]):
        if not where[i]:
            continue
        s, o, me = S[i], out[i], seats[i]
        o[:] = 0.0
        o[start[P_TO_DECIDE]] = s[r.ACTOR] == me
        o[start[P_MY_TURN]] = s[r.TURN_PLAYER] == me
        o[start[P_PHASE] + s[r.PHASE]] = 1.0
        o[start[P_MAP] + C.map_index] = 1.0
        o[start[P_SHORT]] = C.short
        for row in range(2):
            seat = (me + row) % 2
            o[start[P_CHARACTERS] + row * stride[P_CHARACTERS] + s[r.TOA + seat]] = 1.0
            o[start[P_POSITION] + row * stride[P_POSITION] + s[r.TOA_CELLS + seat]] = 1.0
            for k in range(6):
                o[start[P_SKILLS] + row * 6 + k] = np.float32(s[r.SKILLS + 6 * seat + k]) / C.skill_scale
            for k in range(s[r.WON_N + seat]):
                n = s[r.WON + r.MASK_CARDS_PER_TOA * seat + k]
                o[start[P_WON] + row * stride[P_WON] + C.mask_index[n]] = 1.0
            for n in (s[r.MASK_ON + seat], s[r.TURAGA_ON + seat]):
                if n:
                    o[start[P_ATTACHED] + row * stride[P_ATTACHED] + C.mask_index[n]] = 1.0
            at = start[P_PILES] + row * stride[P_PILES]
            o[at] = r.mask_count(s, R, seat) / C.pile_bounds[0]
            o[at + 1] = s[r.MASK_PILE_N + seat] / C.pile_bounds[1]
            o[at + 2] = r.hand_size(s, seat) / C.pile_bounds[2]
            o[at + 3] = s[r.ACTION_PILE_N + seat] / C.pile_bounds[3]
            o[at + 4] = s[r.SKIPS + seat] / C.pile_bounds[4]
            _bits(o, start[P_KNOWN] + row * stride[P_KNOWN], s[r.KNOWN + seat], r.ACTIONS)
            _bits(o, start[P_DISCARDED] + row * stride[P_DISCARDED], s[r.ACTION_DISCARD + seat], r.ACTIONS)
            base = r.HELD_MISSIONS + 2 * r.MISSIONS * seat
            for k in range(s[r.HELD_MISSIONS_N + seat]):
                at = start[P_MISSIONS] + row * stride[P_MISSIONS] + 2 * (s[base + 2 * k] - r.MISSION_BASE)
                o[at] = 1.0
                o[at + 1] = s[base + 2 * k + 1] / C.mission_bound
            if s[r.LAST_CHALLENGE + seat] >= 0:
                o[start[P_LAST_CHALLENGE] + row * stride[P_LAST_CHALLENGE] + s[r.LAST_CHALLENGE + seat]] = 1.0
            if s[r.LAST_GAME_ACTION + seat] >= 0:
                at = start[P_LAST_GAME_ACTION] + row * stride[P_LAST_GAME_ACTION]
                o[at + s[r.LAST_GAME_ACTION + seat]] = 1.0
        o[start[P_CHALLENGE_PILE]] = s[r.CHALLENGE_PILE_N] / r.CHALLENGES
        _bits(o, start[P_CHALLENGE_DISCARD], s[r.CHALLENGE_DISCARD], r.CHALLENGES)
        o[start[P_MISSION_PILE]] = s[r.MISSION_PILE_N] / r.MISSIONS
        _bits(o, start[P_MISSION_DISCARD], s[r.MISSION_DISCARD], r.MISSIONS)
        if s[r.CHALLENGE_ON]:
            lander, skill = s[r.CHALLENGE_LANDER], s[r.CHALLENGE_SKILL]
            o[start[P_LANDER] + (0 if lander == me else 1)] = 1.0
            o[start[P_CHALLENGE_CARD] + s[r.CHALLENGE_CARD] - r.CHALLENGE_BASE] = 1.0
            o[start[P_CHALLENGE_SKILL] + skill] = 1.0
            for row in range(2):
                seat = (me + row) % 2
                bonus = s[r.CHALLENGE_BONUS + seat]
                o[start[P_BONUS] + row] = (bonus + C.bonus_scale) / (2 * C.bonus_scale)
                o[start[P_SCORES] + row] = (s[r.SKILLS + 6 * seat + skill] + bonus) / C.score_scale
        if s[r.PHASE] == r.WINDOW:
            o[start[P_PASSES]] = s[r.PASSES]
        if s[r.PHASE] == r.CLAIM and s[r.CLAIM_CARD]:
            o[start[P_CLAIM] + C.mask_index[s[r.CLAIM_CARD]]] = 1.0
        o[start[P_ATTACH_DONE]] = s[r.ATTACH_DONE] & 1
        o[start[P_ATTACH_DONE] + 1] = (s[r.ATTACH_DONE] >> 1) & 1
        _bits(o, start[P_HAND], s[r.HAND + me], r.ACTIONS)
        o[start[P_TURN]] = s[r.TURN_NUMBER] / R.turn_limit
        for k in range(C.observation_size):
            o[k] = min(max(o[k], np.float32(0.0)), np.float32(1.0))
        _bits(o, start[P_HELD], s[r.HELD + me], r.ACTIONS)
        _bits(o, start[P_SEEN_DISCARDED], s[r.SEEN_DISCARDED + me], r.ACTIONS)
        _bits(o, start[P_SEEN_CHALLENGES], s[r.SEEN_CHALLENGES + me], r.CHALLENGES)
        _bits(o, start[P_SEEN_MISSIONS], s[r.SEEN_MISSIONS + me], r.MISSIONS)


@njit(cache=True)
def _random_move(s, rng, R, x, i, moves) -> None:
    k = mt.splitmix(x, i) % r.generate_moves(s, R, moves)
    r.perform(s, rng, R, moves[k, 0], moves[k, 1], moves[k, 2], moves[k, 3])


@njit(cache=True, parallel=True)
def _play_random(S, rngs, R, seats, chooser) -> None:
    """In every game, uniformly random moves until seats[i] decides or the game is over."""
    for i in prange(S.shape[0]):
        s = S[i]
        moves = np.empty((r.MAX_MOVES, 4), np.int64)
        while s[r.PHASE] != r.OVER and s[r.ACTOR] != seats[i]:
            _random_move(s, rngs[i], R, chooser, i, moves)


@njit(cache=True, parallel=True)
def _playouts(S, rngs, R, steps, first_seed, counts) -> None:
    """Uniformly random playouts: each game row plays `steps` decisions, going on with the
    game it holds (a Masks game is some 500 decisions: a row dealt anew at every call of
    random_playouts' doubling runs would never finish one) and dealing a new game (seeds
    first_seed + i, then + n each time) whenever one is over; counts[i] = (steps, games finished)."""
    n = S.shape[0]
    chooser = np.arange(first_seed, first_seed + n).astype(np.uint64)
    for i in prange(n):
        s = S[i]
        moves = np.empty((r.MAX_MOVES, 4), np.int64)
        scratch, sampler = np.zeros(2, np.int64), np.empty(mt.STATE_WORDS, np.uint32)
        seed, finished = first_seed + i, 0
        for _ in range(steps):
            if s[r.PHASE] == r.OVER:
                finished += s[r.TURN_NUMBER] > 0  # a game played here, not a row never dealt
                r.deal(s, rngs[i], R, seed, scratch, sampler)
                seed += n
            _random_move(s, rngs[i], R, chooser, i, moves)
        counts[i, 0] = steps
        counts[i, 1] = finished


def _bit_list(bits: int, first: int, size: int) -> list[int]:
    return [first + bit for bit in range(size) if (bits >> bit) & 1]


def _stack(s: np.ndarray, at: int, length: int) -> list[int]:
    return [int(v) for v in s[at:at + length]]


# Agenda steps as the reference writes them: how many arguments each takes.
_STEP_ARGS = {r.S_TURN: 1, r.S_MISSIONS: 1, r.S_CHALLENGE: 1, r.S_WINDOW: 2, r.S_COMPARE: 0, r.S_JUMP: 1,
              r.S_CLAIM: 1}


def _fill_state(state: Any, s: np.ndarray, rng: np.ndarray) -> None:
    """Overwrite a freshly dealt MasksState's changing parts with the batched row `s`."""
    per_toa, acts = r.MASK_CARDS_PER_TOA, r.ACTIONS
    seats = (0, 1)
    state.won = [_stack(s, r.WON + per_toa * k, s[r.WON_N + k]) for k in seats]
    state.mask_pile = [_stack(s, r.MASK_PILE + per_toa * k, s[r.MASK_PILE_N + k]) for k in seats]
    state.action_pile = [_stack(s, r.ACTION_PILE + acts * k, s[r.ACTION_PILE_N + k]) for k in seats]
    state.hands = [_bit_list(s[r.HAND + k], r.ACTION_BASE, acts) for k in seats]
    state.known = [set(_bit_list(s[r.KNOWN + k], r.ACTION_BASE, acts)) for k in seats]
    state.action_discard = [_bit_list(s[r.ACTION_DISCARD + k], r.ACTION_BASE, acts) for k in seats]
    state.missions = [[HeldMission(*_stack(s, r.HELD_MISSIONS + 2 * r.MISSIONS * k + 2 * m, 2))
                       for m in range(s[r.HELD_MISSIONS_N + k])] for k in seats]
    state.challenge_pile = _stack(s, r.CHALLENGE_PILE, s[r.CHALLENGE_PILE_N])
    state.challenge_discard = _bit_list(s[r.CHALLENGE_DISCARD], r.CHALLENGE_BASE, r.CHALLENGES)
    state.mission_pile = _stack(s, r.MISSION_PILE, s[r.MISSION_PILE_N])
    state.mission_discard = _bit_list(s[r.MISSION_DISCARD], r.MISSION_BASE, r.MISSIONS)
    for name, at in (("toa_cells", r.TOA_CELLS), ("skips", r.SKIPS), ("last_challenge", r.LAST_CHALLENGE),
                     ("last_game_action", r.LAST_GAME_ACTION), ("mask_on", r.MASK_ON),
                     ("turaga_on", r.TURAGA_ON)):
        setattr(state, name, _stack(s, at, 2))
    state.skills = [_stack(s, r.SKILLS + 6 * k, 6) for k in seats]
    state.turn, state.turn_player = int(s[r.TURN_NUMBER]), int(s[r.TURN_PLAYER])
    state.phase = r.PHASES[s[r.PHASE]]
    state.actor = None if s[r.ACTOR] < 0 else int(s[r.ACTOR])
    state.winner = None if s[r.WINNER] < 0 else int(s[r.WINNER])
    state.passes, state.claim = int(s[r.PASSES]), int(s[r.CLAIM_CARD])
    state.attach_done = int(s[r.ATTACH_DONE])
    state.gave_up, state.owed = bool(s[r.GAVE_UP]), bool(s[r.OWED])
    state.challenge = None if not s[r.CHALLENGE_ON] else Challenge(
        int(s[r.CHALLENGE_LANDER]), int(s[r.CHALLENGE_CARD]), int(s[r.CHALLENGE_SKILL]),
        _stack(s, r.CHALLENGE_BONUS, 2))
    state.unclaimed = _stack(s, r.UNCLAIMED, s[r.UNCLAIMED_N])
    steps = [_stack(s, r.AGENDA + 3 * k, 3) for k in range(s[r.AGENDA_N])]
    state.agenda = [tuple(step[:1 + _STEP_ARGS[step[0]]]) for step in steps]
    state.rng.setstate((3, tuple(int(w) for w in rng), None))
    state._moves = None


class BatchedMasks(BatchedGame):
    """`num_games` games of Quest for the Masks, each a row of int32 words (masks_rules),
    behind the checked interface of matanui.batch.base. `game`: a MasksGame with a user's
    own cards or maps (default: ours)."""

    name = "masks"

    def __init__(self, num_games: int, options: Mapping[str, Any] | None = None, threads: int | None = None,
                 game: Any = None) -> None:
        game = game if game is not None else games.get("masks")
        if game.rules_version != RULES_VERSION:
            raise MatanuiError(f"the batched Masks engine implements rules version {RULES_VERSION}, and this "
                               f"game has rules version {game.rules_version}: check it against the "
                               "reference (tests/batch/test_masks.py) before raising RULES_VERSION")
        super().__init__(game, encoding_for(game, 2), num_games, options, threads)
        self._rules = _rules(game, self.options)
        self._codes = _codes(game, self.encoding, self.options)
        self.state = np.zeros((self.num_games, r.WIDTH), np.int32)
        self.state[:, r.PHASE] = r.OVER
        self.state[:, r.WINNER] = -1
        self.rngs = np.zeros((self.num_games, mt.STATE_WORDS), np.uint32)
        self._dealt: list[int | None] = [None] * self.num_games  # each game's seed, for to_state

    def _deal(self, where: np.ndarray, seeds: np.ndarray) -> None:
        _deal_where(self.state, self.rngs, self._rules, where, seeds)
        for i in np.flatnonzero(where):
            self._dealt[i] = int(seeds[i])

    @property
    def over(self) -> np.ndarray:
        return self.state[:, r.PHASE] == r.OVER

    @property
    def current_player(self) -> np.ndarray:
        return self.state[:, r.ACTOR].astype(np.int64)

    @property
    def returns(self) -> np.ndarray:
        winner = self.state[:, r.WINNER]
        out = np.zeros((self.num_games, 2), np.float32)
        won = self.over & (winner >= 0)
        out[won] = -1.0
        out[np.flatnonzero(won), winner[won]] = 1.0
        return out

    def _masks(self, out: np.ndarray) -> None:
        _legal_masks(self.state, self._rules, self._codes, out)

    def _observe(self, seats: np.ndarray, out: np.ndarray, where: np.ndarray) -> None:
        _observe(self.state, self._rules, self._codes, seats, out, where)

    def _step(self, actions: np.ndarray, where: np.ndarray) -> int:
        return _step_all(self.state, self.rngs, self._rules, self._codes, actions, where)

    def _play_random(self, seats: np.ndarray, chooser: np.ndarray) -> None:
        _play_random(self.state, self.rngs, self._rules, seats, chooser)

    def _playouts(self, steps: int, first_seed: int, counts: np.ndarray) -> None:
        _playouts(self.state, self.rngs, self._rules, steps, first_seed, counts)
        self._dealt = [None] * self.num_games  # dealt from seeds the playouts chose

    def to_state(self, i: int) -> Any:
        """Game i as a reference MasksState (for named-agent opponents and for checking): the
        same position, piles, agenda and generator, so that it plays on exactly as the batched
        game does. Discard piles come sorted (the batch keeps them as sets: their order is
        never used) and its history is empty: it is not a replayable record."""
        if isinstance(i, bool) or not isinstance(i, int | np.integer) or not 0 <= i < self.num_games:
            raise MatanuiError(f"game index must be a whole number from 0 to {self.num_games - 1}, not {i!r}")
        if self._dealt[i] is None:
            raise MatanuiError(f"game {i} has not been dealt by reset yet: reset it first")
        s = self.state[i]
        toas = list(self.game.cards.toa)
        state = self.game.new_game(self._dealt[i], [toas[s[r.TOA + seat]] for seat in (0, 1)], self.options)
        _fill_state(state, s, self.rngs[i])
        return state
