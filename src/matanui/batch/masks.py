"""Quest for the Masks, batched: many games stepped at once by numba kernels over int arrays.

The rules are in matanui.batch.masks_rules (one int32 row per game, the layout in its
docstring); this module builds the data those kernels read from the reference game object
(cards, the map of the chosen side, the options) and the encoding's action indices and
observation offsets, and offers the batched engine API of matanui.batch (docs/research.md).

A game reset with seed s is the game `Table.deal(encoding, s, None, options)` makes; its legal
masks, observation+memory tensors and returns are the reference's, checked move for move by
tests/batch/test_masks.py. Why numba: the rules are branchy, sequential per game (an agenda of
steps, card piles), which vectorises badly in numpy or JAX; compiled scalar code per game, looped
over games, keeps one implementation that reads like the reference.
"""

from __future__ import annotations

import time
from collections import namedtuple
from collections.abc import Mapping
from typing import Any

import numpy as np
from numba import njit, prange

from matanui import games
from matanui.batch import masks_rules as r
from matanui.batch import random as mt
from matanui.engine.errors import MatanuiError
from matanui.engine.options import check_options
from matanui.envs.encoding import encoding_for
from matanui.envs.encodings import masks as enc
from matanui.games.masks.cards import SKILLS
from matanui.games.masks.rules import MASKS_TO_WIN, MASKS_TO_WIN_SHORT, TWO_STEPS

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
 P_PILES, P_KNOWN, P_DISCARDED, P_MISSIONS, P_LAST_CHAL, P_LAST_GA, P_CHAL_PILE, P_CHAL_DISCARD,
 P_MIS_PILE, P_MIS_DISCARD, P_LANDER, P_CHAL_CARD, P_CHAL_SKILL, P_BONUS, P_SCORES, P_PASSES, P_CLAIM,
 P_ATTACH_DONE, P_HAND, P_TURN, P_HELD, P_SEEN_DISC, P_SEEN_CHAL, P_SEEN_MIS) = range(len(PIECES))

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
    act_effect = np.zeros(max(cards.actions) + 1, np.int64)
    act_amount = np.zeros_like(act_effect)
    for n, card in cards.actions.items():
        act_effect[n] = r.EFFECTS.index(card.effect)
        act_amount[n] = card.amount
    size = max(cards.missions) + 1
    mis = {name: np.zeros(size, np.int64) for name in ("kind", "dir", "spaces", "count", "target")}
    for n, m in cards.missions.items():
        mis["kind"][n] = r.MISSION_KINDS.index(m.kind)
        mis["dir"][n], mis["spaces"][n] = m.direction, m.spaces
        mis["count"][n] = m.count if m.kind in ("discard", "skip") else 1  # MasksState._mission_count
        mis["target"][n] = r.TRAVEL_TARGETS.index(m.target) if m.kind == "travel" else -1
    chal_skill = np.zeros(max(cards.challenges) + 1, np.int64)
    for n, c in cards.challenges.items():
        chal_skill[n] = c.skill
    two_steps = np.full((len(TWO_STEPS), 2, 2), -1, np.int64)
    for index, (_, paths) in enumerate(TWO_STEPS):
        for p, path in enumerate(paths):
            two_steps[index, p] = path
    first = options["first_player"]
    return r.Rules(
        toa_skills=np.array([t.skills for t in toa], np.int64),
        toa_pile=np.array([cards.piles(t.id) for t in toa], np.int64),
        mask_kind=mask_kind, mask_bonus=mask_bonus, act_effect=act_effect, act_amount=act_amount,
        mis_kind=mis["kind"], mis_dir=mis["dir"], mis_spaces=mis["spaces"], mis_count=mis["count"],
        mis_target=mis["target"], chal_skill=chal_skill,
        kind=np.array(board.kind, np.int64), circles=np.array(board.circles, np.int64),
        step=np.array(board.step, np.int64), portals=np.array(board.portals, np.int64), two_steps=two_steps,
        west=board.west_start, east=board.east_start,
        target=MASKS_TO_WIN_SHORT if options["short"] else MASKS_TO_WIN,
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
        effect = R.act_effect[move[1]]
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


@njit(cache=True)
def _deal_where(S, rngs, R, done, seeds) -> None:
    scratch = np.zeros(2, np.int64)
    for i in range(S.shape[0]):
        if done[i]:
            r.deal(S[i], rngs[i], R, seeds[i], scratch)


@njit(cache=True)
def _legal_masks(S, R, C, out) -> None:
    moves = np.empty((r.MAX_MOVES, 4), np.int64)
    out[:] = False
    for i in range(S.shape[0]):
        count = r.generate_moves(S[i], R, moves)
        for k in range(count):
            out[i, _action_index(R, C, moves[k])] = True


@njit(cache=True)
def _find(S, R, C, i, action, moves) -> int:
    """The row of `moves` the action index stands for in game i, or -1 when not legal."""
    count = r.generate_moves(S[i], R, moves)
    for k in range(count):
        if _action_index(R, C, moves[k]) == action:
            return k
    return -1


@njit(cache=True)
def _first_illegal(S, R, C, actions) -> int:
    moves = np.empty((r.MAX_MOVES, 4), np.int64)
    for i in range(S.shape[0]):
        if S[i, r.PHASE] != r.OVER and _find(S, R, C, i, actions[i], moves) < 0:
            return i
    return -1


@njit(cache=True)
def _step(S, rngs, R, C, actions) -> None:
    moves = np.empty((r.MAX_MOVES, 4), np.int64)
    for i in range(S.shape[0]):
        if S[i, r.PHASE] != r.OVER:
            k = _find(S, R, C, i, actions[i], moves)
            r.perform(S[i], rngs[i], R, moves[k, 0], moves[k, 1], moves[k, 2], moves[k, 3])


@njit(cache=True, inline="always")
def _bits(o, at: int, bits: int, size: int) -> None:
    for bit in range(size):
        if (bits >> bit) & 1:
            o[at + bit] = 1.0


@njit(cache=True)
def _observe(S, R, C, seats, out) -> None:
    """The encoding's observation and memory of each game, for its seat (MasksEncoding.encode)."""
    start, stride = C.start, C.stride
    out[:] = 0.0
    for i in range(S.shape[0]):
        s, o, me = S[i], out[i], seats[i]
        o[start[P_TO_DECIDE]] = s[r.ACTOR] == me
        o[start[P_MY_TURN]] = s[r.TURN_PLAYER] == me
        o[start[P_PHASE] + s[r.PHASE]] = 1.0
        o[start[P_MAP] + C.map_index] = 1.0
        o[start[P_SHORT]] = C.short
        for row in range(2):
            seat = (me + row) % 2
            o[start[P_CHARACTERS] + row * stride[P_CHARACTERS] + s[r.TOA + seat]] = 1.0
            o[start[P_POSITION] + row * stride[P_POSITION] + s[r.POS + seat]] = 1.0
            for k in range(6):
                o[start[P_SKILLS] + row * 6 + k] = np.float32(s[r.EFF + 6 * seat + k]) / C.skill_scale
            for k in range(s[r.WON_N + seat]):
                n = s[r.WON + r.MASK_CARDS_PER_TOA * seat + k]
                o[start[P_WON] + row * stride[P_WON] + C.mask_index[n]] = 1.0
            for n in (s[r.MASK_ON + seat], s[r.TURAGA_ON + seat]):
                if n:
                    o[start[P_ATTACHED] + row * stride[P_ATTACHED] + C.mask_index[n]] = 1.0
            at = start[P_PILES] + row * stride[P_PILES]
            o[at] = r.mask_count(s, R, seat) / C.pile_bounds[0]
            o[at + 1] = s[r.GM_N + seat] / C.pile_bounds[1]
            o[at + 2] = r.hand_size(s, seat) / C.pile_bounds[2]
            o[at + 3] = s[r.GA_N + seat] / C.pile_bounds[3]
            o[at + 4] = s[r.SKIPS + seat] / C.pile_bounds[4]
            _bits(o, start[P_KNOWN] + row * stride[P_KNOWN], s[r.KNOWN + seat], r.ACTIONS)
            _bits(o, start[P_DISCARDED] + row * stride[P_DISCARDED], s[r.GA_DISC + seat], r.ACTIONS)
            base = r.MIS_Q + 2 * r.MISSIONS * seat
            for k in range(s[r.MIS_N + seat]):
                at = start[P_MISSIONS] + row * stride[P_MISSIONS] + 2 * (s[base + 2 * k] - r.MISSION_BASE)
                o[at] = 1.0
                o[at + 1] = s[base + 2 * k + 1] / C.mission_bound
            if s[r.LAST_CHAL + seat] >= 0:
                o[start[P_LAST_CHAL] + row * stride[P_LAST_CHAL] + s[r.LAST_CHAL + seat]] = 1.0
            if s[r.LAST_GA + seat] >= 0:
                o[start[P_LAST_GA] + row * stride[P_LAST_GA] + s[r.LAST_GA + seat]] = 1.0
        o[start[P_CHAL_PILE]] = s[r.CHAL_N] / r.CHALLENGES
        _bits(o, start[P_CHAL_DISCARD], s[r.CHAL_DISC], r.CHALLENGES)
        o[start[P_MIS_PILE]] = s[r.MIS_DRAW_N] / r.MISSIONS
        _bits(o, start[P_MIS_DISCARD], s[r.MIS_DISC], r.MISSIONS)
        if s[r.CHAL_ON]:
            lander, skill = s[r.CHAL_LANDER], s[r.CHAL_SKILL]
            o[start[P_LANDER] + (0 if lander == me else 1)] = 1.0
            o[start[P_CHAL_CARD] + s[r.CHAL_CARD] - r.CHALLENGE_BASE] = 1.0
            o[start[P_CHAL_SKILL] + skill] = 1.0
            for row in range(2):
                seat = (me + row) % 2
                bonus = s[r.CHAL_BONUS + seat]
                o[start[P_BONUS] + row] = (bonus + C.bonus_scale) / (2 * C.bonus_scale)
                o[start[P_SCORES] + row] = (s[r.EFF + 6 * seat + skill] + bonus) / C.score_scale
        if s[r.PHASE] == r.WINDOW:
            o[start[P_PASSES]] = s[r.PASSES]
        if s[r.PHASE] == r.CLAIM and s[r.CLAIM_CARD]:
            o[start[P_CLAIM] + C.mask_index[s[r.CLAIM_CARD]]] = 1.0
        o[start[P_ATTACH_DONE]] = s[r.ATTACH_DONE] & 1
        o[start[P_ATTACH_DONE] + 1] = (s[r.ATTACH_DONE] >> 1) & 1
        _bits(o, start[P_HAND], s[r.HAND + me], r.ACTIONS)
        o[start[P_TURN]] = s[r.TURN_NO] / R.turn_limit
        for k in range(C.observation_size):
            o[k] = min(max(o[k], np.float32(0.0)), np.float32(1.0))
        _bits(o, start[P_HELD], s[r.HELD + me], r.ACTIONS)
        _bits(o, start[P_SEEN_DISC], s[r.SEEN_DISC + me], r.ACTIONS)
        _bits(o, start[P_SEEN_CHAL], s[r.SEEN_CHAL + me], r.CHALLENGES)
        _bits(o, start[P_SEEN_MIS], s[r.SEEN_MIS + me], r.MISSIONS)


@njit(cache=True)
def _choose(x: np.ndarray, i: int, count: int) -> int:
    """A uniform-enough choice below `count` from game i's xorshift64* stream."""
    v = x[i]
    v ^= v >> np.uint64(12)
    v ^= v << np.uint64(25)
    v ^= v >> np.uint64(27)
    x[i] = v
    return int(((v * np.uint64(2685821657736338717)) >> np.uint64(33)) % np.uint64(count))


@njit(cache=True, parallel=True)
def _playouts(S, rngs, R, steps_per_game: int, first_seed: int, choice_seed: int, finished) -> None:
    """Random legal moves, `steps_per_game` in every game (the games spread over numba's
    threads), a finished game dealt anew from seed first_seed + i + n * finished[i], where
    finished[i] counts the games slot i has finished."""
    n = S.shape[0]
    x = np.empty(n, np.uint64)
    for i in range(n):
        x[i] = np.uint64(choice_seed) * np.uint64(n) + np.uint64(i) + np.uint64(0x9E3779B97F4A7C15)
    for i in prange(n):
        moves = np.empty((r.MAX_MOVES, 4), np.int64)
        scratch = np.zeros(2, np.int64)
        s = S[i]
        for _ in range(steps_per_game):
            if s[r.PHASE] == r.OVER:
                r.deal(s, rngs[i], R, first_seed + i + n * finished[i], scratch)
                finished[i] += 1
            count = r.generate_moves(s, R, moves)
            k = _choose(x, i, count)
            r.perform(s, rngs[i], R, moves[k, 0], moves[k, 1], moves[k, 2], moves[k, 3])


def _out(out: Any, shape: tuple[int, int], dtype: Any, what: str) -> np.ndarray:
    """A new array for a kernel to fill, or the caller's own if it has the shape and type."""
    if out is None:
        return np.zeros(shape, dtype)
    if not isinstance(out, np.ndarray) or out.shape != shape or out.dtype != dtype or not out.flags.writeable:
        got = f"shape {out.shape} and type {out.dtype}" if isinstance(out, np.ndarray) else type(out).__name__
        raise MatanuiError(f"{what}'s out must be a writable {np.dtype(dtype).name} array of shape {shape}, "
                           f"not {got}")
    return out


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
    state.gm_pile = [_stack(s, r.GM_PILE + per_toa * k, s[r.GM_N + k]) for k in seats]
    state.ga_draw = [_stack(s, r.GA_DRAW + acts * k, s[r.GA_N + k]) for k in seats]
    state.hands = [_bit_list(s[r.HAND + k], r.ACTION_BASE, acts) for k in seats]
    state.known = [set(_bit_list(s[r.KNOWN + k], r.ACTION_BASE, acts)) for k in seats]
    state.ga_discard = [_bit_list(s[r.GA_DISC + k], r.ACTION_BASE, acts) for k in seats]
    state.missions = [[_stack(s, r.MIS_Q + 2 * r.MISSIONS * k + 2 * m, 2) for m in range(s[r.MIS_N + k])]
                      for k in seats]
    state.chal_draw = _stack(s, r.CHAL_DRAW, s[r.CHAL_N])
    state.chal_discard = _bit_list(s[r.CHAL_DISC], r.CHALLENGE_BASE, r.CHALLENGES)
    state.mis_draw = _stack(s, r.MIS_DRAW, s[r.MIS_DRAW_N])
    state.mis_discard = _bit_list(s[r.MIS_DISC], r.MISSION_BASE, r.MISSIONS)
    for name, at in (("pos", r.POS), ("skips", r.SKIPS), ("last_chal", r.LAST_CHAL), ("last_ga", r.LAST_GA),
                     ("mask_on", r.MASK_ON), ("turaga_on", r.TURAGA_ON)):
        setattr(state, name, _stack(s, at, 2))
    state.eff = [_stack(s, r.EFF + 6 * k, 6) for k in seats]
    state.turn, state.turn_player = int(s[r.TURN_NO]), int(s[r.TURN_PLAYER])
    state.phase = r.PHASES[s[r.PHASE]]
    state.actor = None if s[r.ACTOR] < 0 else int(s[r.ACTOR])
    state.winner = None if s[r.WINNER] < 0 else int(s[r.WINNER])
    state.passes, state.claim = int(s[r.PASSES]), int(s[r.CLAIM_CARD])
    state.attach_done = int(s[r.ATTACH_DONE])
    state.gave_up, state.owed = bool(s[r.GAVE_UP]), bool(s[r.OWED])
    chal = (r.CHAL_LANDER, r.CHAL_CARD, r.CHAL_SKILL, r.CHAL_BONUS, r.CHAL_BONUS + 1)
    state.chal = [int(s[at]) for at in chal] if s[r.CHAL_ON] else None
    state.unclaimed = _stack(s, r.UNCLAIMED, s[r.UNCL_N])
    steps = [_stack(s, r.AGENDA + 3 * k, 3) for k in range(s[r.AGENDA_N])]
    state.agenda = [tuple(step[:1 + _STEP_ARGS[step[0]]]) for step in steps]
    state.rng.setstate((3, tuple(int(w) for w in rng), None))
    state._moves = None


class BatchedMasks:
    """`num_games` games of Quest for the Masks, each a row of int32 words (masks_rules)."""

    name = "masks"
    players = 2

    def __init__(self, num_games: int, options: Mapping[str, Any] | None = None, game: Any = None) -> None:
        if type(num_games) is not int or num_games < 1:
            raise MatanuiError(f"num_games must be a whole number of at least 1, not {num_games!r}")
        self.game = game if game is not None else games.get("masks")
        if self.game.rules_version != RULES_VERSION:
            raise MatanuiError(f"the batched Masks engine implements rules version {RULES_VERSION}, and this "
                               f"game has rules version {self.game.rules_version}: check it against the "
                               "reference (tests/batch/test_masks.py) before raising RULES_VERSION")
        self.options = check_options(self.game.name, self.game.options_schema(), options or {}, 2)
        self.encoding = encoding_for(self.game, 2)
        self.num_actions = len(self.encoding.actions)
        self.observation_size = self.encoding.observation_size + self.encoding.memory_size
        self._rules = _rules(self.game, self.options)
        self._codes = _codes(self.game, self.encoding, self.options)
        self.num_games = num_games
        self.state = np.zeros((num_games, r.WIDTH), np.int32)
        self.state[:, r.PHASE] = r.OVER
        self.state[:, r.WINNER] = -1
        self.rngs = np.zeros((num_games, mt.STATE_WORDS), np.uint32)
        self._dealt: list[int | None] = [None] * num_games  # each game's seed, for to_state

    # -- dealing ---------------------------------------------------------------------------

    def _seeds(self, seeds: Any) -> np.ndarray:
        array = np.asarray(seeds)
        if array.shape != (self.num_games,) or array.dtype.kind not in "iu":
            raise MatanuiError(f"seeds must be {self.num_games} whole numbers, one per game, not an array "
                               f"of shape {array.shape} and type {array.dtype}")
        return array.astype(np.int64)

    def reset(self, seeds: Any) -> None:
        """Deal every game anew: game i is the one Table.deal(encoding, seeds[i], None, options) makes."""
        self.reset_where(np.ones(self.num_games, np.bool_), seeds)

    def reset_where(self, done: Any, seeds: Any) -> None:
        """Deal anew the games where `done` is true, game i from seeds[i]."""
        mask = np.asarray(done)
        if mask.shape != (self.num_games,):
            raise MatanuiError(f"done must be {self.num_games} booleans, one per game, not shape "
                               f"{mask.shape}")
        mask, seeds = mask.astype(np.bool_), self._seeds(seeds)
        _deal_where(self.state, self.rngs, self._rules, mask, seeds)
        for i in np.flatnonzero(mask):
            self._dealt[i] = int(seeds[i])

    # -- the decision ----------------------------------------------------------------------

    @property
    def current_player(self) -> np.ndarray:
        return self.state[:, r.ACTOR].astype(np.int64)

    @property
    def over(self) -> np.ndarray:
        return self.state[:, r.PHASE] == r.OVER

    @property
    def returns(self) -> np.ndarray:
        """+1 for the winner, -1 for the other seat; 0 for both while playing or in a draw."""
        winner = self.state[:, r.WINNER]
        result = np.zeros((self.num_games, 2), np.float32)
        won = self.over & (winner >= 0)
        result[won, :] = -1.0
        result[won, winner[won]] = 1.0
        return result

    def legal_mask(self, out: np.ndarray | None = None) -> np.ndarray:
        """The current player's legal actions, as the encoding's indices (all false when over)."""
        out = _out(out, (self.num_games, self.num_actions), np.bool_, "legal_mask")
        _legal_masks(self.state, self._rules, self._codes, out)
        return out

    def observe(self, seats: Any, out: np.ndarray | None = None) -> np.ndarray:
        """Each game's observation and memory tensor for seats[i] (Table.features)."""
        array = np.asarray(seats)
        shaped = array.shape == (self.num_games,) and array.dtype.kind in "iu"
        if not shaped or not np.isin(array, (0, 1)).all():
            raise MatanuiError(f"seats must be {self.num_games} seats, each 0 or 1, one per game")
        out = _out(out, (self.num_games, self.observation_size), np.float32, "observe")
        _observe(self.state, self._rules, self._codes, array.astype(np.int64), out)
        return out

    def step(self, actions: Any) -> None:
        """Apply actions[i] in every game that is not over. An illegal one raises MatanuiError
        naming the game and the action, and no game changes."""
        array = np.asarray(actions)
        if array.shape != (self.num_games,) or array.dtype.kind not in "iu":
            raise MatanuiError(f"actions must be {self.num_games} action indices, one per game, not an array "
                               f"of shape {array.shape} and type {array.dtype}")
        array = array.astype(np.int64)
        bad = _first_illegal(self.state, self._rules, self._codes, array)
        if bad >= 0:
            action = int(array[bad])
            named = self.encoding.actions[action] if 0 <= action < self.num_actions else "out of range"
            legal = np.flatnonzero(self.legal_mask()[bad])
            raise MatanuiError(f"game {bad}: action {action} ({named}) is not legal now; legal: "
                               + ", ".join(f"{i} ({self.encoding.actions[i]})" for i in legal))
        _step(self.state, self.rngs, self._rules, self._codes, array)

    # -- the reference state -----------------------------------------------------------------

    def to_state(self, i: int) -> Any:
        """Game i as a reference MasksState (for named-agent opponents and for checking): the
        same position, piles, agenda and generator, so that it plays on exactly as the batched
        game does. Discard piles come sorted (the batch keeps them as sets: their order is
        never used) and its history is empty: it is not a replayable record."""
        if type(i) is not int or not 0 <= i < self.num_games:
            raise MatanuiError(f"game index must be a whole number from 0 to {self.num_games - 1}, not {i!r}")
        s = self.state[i]
        if self._dealt[i] is None:
            raise MatanuiError(f"game {i} has not been dealt yet: reset it first")
        toas = list(self.game.cards.toa)
        state = self.game.new_game(self._dealt[i], [toas[s[r.TOA + seat]] for seat in (0, 1)],
                                   self.options)
        _fill_state(state, s, self.rngs[i])
        return state

    # -- speed -----------------------------------------------------------------------------

    def random_playouts(self, steps: int | None = None, seconds: float | None = None,
                        seed: int = 0) -> dict[str, float]:
        """Random legal moves in `num_games` fresh games (a copy: this batch is not touched),
        at least `steps` in all or for about `seconds`, finished games dealt anew, on numba's
        threads (one per core unless numba.set_num_threads says fewer). A step is a decision:
        legal moves generated, one applied, the memories folded; no observation is built.
        Returns the figures for bench: steps, games finished, wall seconds, steps_per_second
        and cpu_seconds (all threads)."""
        if (steps is None) == (seconds is None):
            raise MatanuiError("give random_playouts either steps (a whole number) or seconds, not both")
        if steps is not None and (type(steps) is not int or steps < 1):
            raise MatanuiError(f"steps must be a whole number of at least 1, not {steps!r}")
        if seconds is not None and (not isinstance(seconds, (int, float)) or not 0 < seconds <= 3600):
            raise MatanuiError(f"seconds must be a number above 0 and at most 3600, not {seconds!r}")
        state, rngs = np.zeros_like(self.state), np.zeros_like(self.rngs)
        n = self.num_games
        finished = np.zeros(n, np.int64)
        _deal_where(state, rngs, self._rules, np.ones(n, np.bool_), np.arange(seed, seed + n, dtype=np.int64))
        _playouts(state, rngs, self._rules, 1, seed + n, seed, finished)  # compiled before timing
        chunk = -(-steps // n) if steps is not None else max(1, 200_000 // n)
        made = 0
        started, cpu = time.perf_counter(), time.process_time()
        while True:
            _playouts(state, rngs, self._rules, chunk, seed + n, seed + 1 + made, finished)
            made += chunk * n
            elapsed = time.perf_counter() - started
            if steps is not None or elapsed >= seconds:
                break
        cpu = time.process_time() - cpu
        return {"steps": made, "games": int(finished.sum()), "seconds": elapsed,
                "steps_per_second": made / elapsed, "cpu_seconds": cpu}
