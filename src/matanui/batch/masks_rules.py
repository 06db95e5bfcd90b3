"""Quest for the Masks' rules as numba kernels over one game's int32 row.

Each kernel mirrors the method of `matanui.games.masks.rules.MasksState` it is named after
(the reference stays the rules' one truth; tests/batch/test_masks.py checks these move for
move against it). A game is one int32 row of `WIDTH` words, at the offsets below:

  PHASE, ACTOR, TURN_PLAYER, TURN_NUMBER, WINNER    the decision (phase codes as PHASES; -1: none)
  PASSES, CLAIM_CARD, ATTACH_DONE, GAVE_UP, OWED    the reference's scalars of these names
  TOA_CELLS, SKIPS, LAST_CHALLENGE, LAST_GAME_ACTION per seat (cells; -1: none)
  MASK_ON, TURAGA_ON, TOA                           per seat: attached card numbers (0: none), Toa index
  HAND, KNOWN, ACTION_DISCARD                       per seat: bit sets over Game Action cards (bit n-21);
                                                    the reference keeps hands sorted and reshuffles a
                                                    sorted discard, so a set loses no order it uses
  SKILLS                                            per seat, 6 skills (the attached cards' bonuses in)
  ACTION_PILE + ACTION_PILE_N, MASK_PILE + MASK_PILE_N, WON + WON_N
                                                    per seat: piles as stacks (top = last), lengths
  HELD_MISSIONS + HELD_MISSIONS_N                   per seat: Missions held, oldest first, (number, count)
  CHALLENGE_PILE + CHALLENGE_PILE_N, CHALLENGE_DISCARD (bit n-1)
                                                    the Great Mask Challenge piles
  MISSION_PILE + MISSION_PILE_N, MISSION_DISCARD (bit n-7)
                                                    the Mission piles
  CHALLENGE_ON, CHALLENGE_LANDER, CHALLENGE_CARD, CHALLENGE_SKILL, CHALLENGE_BONUS (2)
                                                    the challenge in play
  UNCLAIMED + UNCLAIMED_N                           cards won on this space, not yet attached or kept
  AGENDA + AGENDA_N                                 the agenda: a stack of (step, arg, arg)
  HELD, SEEN_DISCARDED, SEEN_CHALLENGES, SEEN_MISSIONS
                                                    per seat: the encoding's memory, as bit sets

The card and map data come in a `Rules` tuple of arrays built from the reference game object
(matanui.batch.masks), never copied into code.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

from matanui.batch import random as mt
from matanui.games.masks import moves as ref
from matanui.games.masks.cards import ACTION_NUMBERS, CHALLENGE_NUMBERS, MISSION_NUMBERS
from matanui.games.masks.maps import BLANK, CHALLENGE, GAME_ACTION, MISSION, PORTAL
from matanui.games.masks.setup import HAND_LIMIT

from .bits import lowest, popcount

ACTION_BASE, CHALLENGE_BASE = ACTION_NUMBERS.start, CHALLENGE_NUMBERS.start
MISSION_BASE = MISSION_NUMBERS.start
ACTIONS, CHALLENGES, MISSIONS = len(ACTION_NUMBERS), len(CHALLENGE_NUMBERS), len(MISSION_NUMBERS)
MASK_CARDS_PER_TOA = 9
PHASES = (ref.TURN, ref.WINDOW, ref.ANYTIME, ref.CLAIM, ref.JUMP, ref.DISCARD, ref.OVER)
TURN, WINDOW, ANYTIME, CLAIM, JUMP, DISCARD, OVER = range(7)
NONE = -1
S_TURN, S_MISSIONS, S_CHALLENGE, S_WINDOW, S_COMPARE, S_JUMP, S_CLAIM = (
    ref.S_TURN, ref.S_MISSIONS, ref.S_CHALLENGE, ref.S_WINDOW, ref.S_COMPARE, ref.S_JUMP, ref.S_CLAIM)
M_MOVE, M_ATTACH, M_PLAY, M_PASS, M_KEEP, M_JUMP, M_DISCARD, M_WAIT = (
    ref.M_MOVE, ref.M_ATTACH, ref.M_PLAY, ref.M_PASS, ref.M_KEEP, ref.M_JUMP, ref.M_DISCARD, ref.M_WAIT)
EFFECTS = ("push", "draw", "move", "boost", "weaken", "skip")
E_PUSH, E_DRAW, E_MOVE, E_BOOST, E_WEAKEN, E_SKIP = range(6)
MISSION_KINDS = ("move", "discard", "skip", "travel")
K_MOVE, K_DISCARD, K_SKIP, K_TRAVEL = range(4)
TRAVEL_TARGETS = ("game_action", "portal")
MAX_MOVES = 96
AGENDA_DEPTH = 48


class _Offsets:
    def __init__(self) -> None:
        self.size = 0

    def take(self, words: int) -> int:
        at = self.size
        self.size += words
        return at


_at = _Offsets()
PHASE, ACTOR, TURN_PLAYER, TURN_NUMBER, WINNER = (_at.take(1) for _ in range(5))
PASSES, CLAIM_CARD, ATTACH_DONE, GAVE_UP, OWED = (_at.take(1) for _ in range(5))
TOA_CELLS, SKIPS, LAST_CHALLENGE, LAST_GAME_ACTION, MASK_ON = (_at.take(2) for _ in range(5))
TURAGA_ON, TOA, HAND, KNOWN, ACTION_DISCARD = (_at.take(2) for _ in range(5))
SKILLS = _at.take(12)
ACTION_PILE, ACTION_PILE_N = _at.take(2 * ACTIONS), _at.take(2)
MASK_PILE, MASK_PILE_N = _at.take(2 * MASK_CARDS_PER_TOA), _at.take(2)
WON, WON_N = _at.take(2 * MASK_CARDS_PER_TOA), _at.take(2)
HELD_MISSIONS, HELD_MISSIONS_N = _at.take(2 * MISSIONS * 2), _at.take(2)
CHALLENGE_PILE, CHALLENGE_PILE_N, CHALLENGE_DISCARD = _at.take(CHALLENGES), _at.take(1), _at.take(1)
MISSION_PILE, MISSION_PILE_N, MISSION_DISCARD = _at.take(MISSIONS), _at.take(1), _at.take(1)
CHALLENGE_ON, CHALLENGE_LANDER, CHALLENGE_CARD, CHALLENGE_SKILL = (_at.take(1) for _ in range(4))
CHALLENGE_BONUS = _at.take(2)
UNCLAIMED, UNCLAIMED_N = _at.take(4), _at.take(1)
AGENDA, AGENDA_N = _at.take(3 * AGENDA_DEPTH), _at.take(1)
HELD, SEEN_DISCARDED, SEEN_CHALLENGES, SEEN_MISSIONS = (_at.take(2) for _ in range(4))
WIDTH = _at.size

# The data of one batch: cards by number, the map in play, the options.
Rules = namedtuple("Rules", [
    "toa_skills", "toa_pile", "mask_kind", "mask_bonus", "action_effect", "action_amount",
    "mission_kind", "mission_direction", "mission_spaces", "mission_count", "mission_target",
    "challenge_skill",
    "kind", "circles", "step", "portals", "two_steps", "west", "east", "masks_to_win", "turn_limit", "first",
])


# -- small helpers ---------------------------------------------------------------------------

@njit(cache=True, inline="always")
def push_step(s: np.ndarray, op: int, a: int, b: int) -> None:
    at = AGENDA + 3 * s[AGENDA_N]
    s[at], s[at + 1], s[at + 2] = op, a, b
    s[AGENDA_N] += 1


@njit(cache=True, inline="always")
def hand_size(s: np.ndarray, seat: int) -> int:
    return popcount(s[HAND + seat])


@njit(cache=True)
def mask_count(s: np.ndarray, R, seat: int) -> int:
    count = 0
    for k in range(s[WON_N + seat]):
        count += R.mask_kind[s[WON + MASK_CARDS_PER_TOA * seat + k]] == 0
    return count


@njit(cache=True, inline="always")
def mission_head(s: np.ndarray, seat: int) -> int:
    """The number of the oldest Mission held (0: none)."""
    return s[HELD_MISSIONS + 2 * MISSIONS * seat] if s[HELD_MISSIONS_N + seat] else 0


@njit(cache=True)
def pop_mission(s: np.ndarray, seat: int) -> None:
    base = HELD_MISSIONS + 2 * MISSIONS * seat
    n = s[HELD_MISSIONS_N + seat]
    for k in range(2 * (n - 1)):
        s[base + k] = s[base + k + 2]
    s[HELD_MISSIONS_N + seat] = n - 1


@njit(cache=True)
def end_game(s: np.ndarray, winner: int) -> None:
    s[PHASE] = OVER
    s[ACTOR] = -1
    s[WINNER] = winner
    s[AGENDA_N] = 0


@njit(cache=True)
def update_skills(s: np.ndarray, R, seat: int) -> None:
    toa = s[TOA + seat]
    mask, turaga = s[MASK_ON + seat], s[TURAGA_ON + seat]
    for k in range(6):
        s[SKILLS + 6 * seat + k] = R.toa_skills[toa, k] + R.mask_bonus[mask, k] + R.mask_bonus[turaga, k]


# -- set-up ----------------------------------------------------------------------------------

@njit(cache=True)
def deal(s: np.ndarray, rng: np.ndarray, R, seed: int, scratch: np.ndarray, sampler: np.ndarray) -> None:
    """Table.deal(encoding, seed, None, options): Toa by random.Random(seed).sample, then
    new_game(seed, ...)'s own draws, in the reference's order. Both generators start from
    random.Random(seed): it is seeded (and twisted) once, the sample drawn from a copy."""
    mt.seed(rng, seed)
    mt.twist_if_due(rng)
    sampler[:] = rng
    mt.sample_indices(sampler, R.toa_skills.shape[0], 2, scratch)
    s[:] = 0
    for seat in range(2):
        s[TOA + seat] = scratch[seat]
    for seat in range(2):
        base = MASK_PILE + MASK_CARDS_PER_TOA * seat
        for k in range(MASK_CARDS_PER_TOA):
            s[base + k] = R.toa_pile[s[TOA + seat], k]
        mt.shuffle(rng, s[base:base + MASK_CARDS_PER_TOA], MASK_CARDS_PER_TOA)
        s[MASK_PILE_N + seat] = MASK_CARDS_PER_TOA
    for seat in range(2):
        base = ACTION_PILE + ACTIONS * seat
        for k in range(ACTIONS):
            s[base + k] = ACTION_BASE + k
        mt.shuffle(rng, s[base:base + ACTIONS], ACTIONS)
        s[ACTION_PILE_N + seat] = ACTIONS
    for k in range(CHALLENGES):
        s[CHALLENGE_PILE + k] = CHALLENGE_BASE + k
    mt.shuffle(rng, s[CHALLENGE_PILE:CHALLENGE_PILE + CHALLENGES], CHALLENGES)
    s[CHALLENGE_PILE_N] = CHALLENGES
    for k in range(MISSIONS):
        s[MISSION_PILE + k] = MISSION_BASE + k
    mt.shuffle(rng, s[MISSION_PILE:MISSION_PILE + MISSIONS], MISSIONS)
    s[MISSION_PILE_N] = MISSIONS
    for seat in range(2):
        s[LAST_CHALLENGE + seat] = -1
        s[LAST_GAME_ACTION + seat] = -1
        update_skills(s, R, seat)
    s[PHASE] = NONE
    s[ACTOR] = -1
    s[WINNER] = -1
    first = R.first
    if first < 0:
        first = mt.randrange(rng, 0, 2)  # MASKS-SETUP-FIRST: Rock-Paper-Scissors
    s[TURN_PLAYER] = 1 - first
    s[TOA_CELLS + first] = R.west
    s[TOA_CELLS + 1 - first] = R.east
    run(s, rng, R)
    remember(s)


@njit(cache=True)
def remember(s: np.ndarray) -> None:
    """Fold both seats' observations into their memories (Table._remember after each action)."""
    seen_discarded = s[ACTION_DISCARD] | s[ACTION_DISCARD + 1]
    seen_missions = s[MISSION_DISCARD]
    for seat in range(2):
        base = HELD_MISSIONS + 2 * MISSIONS * seat
        for k in range(s[HELD_MISSIONS_N + seat]):
            seen_missions |= 1 << (s[base + 2 * k] - MISSION_BASE)
    seen_challenges = s[CHALLENGE_DISCARD]
    if s[CHALLENGE_ON]:
        seen_challenges |= 1 << (s[CHALLENGE_CARD] - CHALLENGE_BASE)
    for seat in range(2):
        s[HELD + seat] |= s[HAND + seat]
        s[SEEN_DISCARDED + seat] |= seen_discarded
        s[SEEN_MISSIONS + seat] |= seen_missions
        s[SEEN_CHALLENGES + seat] |= seen_challenges


# -- the decision ----------------------------------------------------------------------------

@njit(cache=True, inline="always")
def may_enter(s: np.ndarray, R, seat: int, cell: int) -> bool:
    if cell == s[TOA_CELLS + 1 - seat]:
        return False
    kind = R.kind[cell]
    if kind == CHALLENGE:
        return s[HELD_MISSIONS_N + seat] == 0 and cell != s[LAST_CHALLENGE + seat]
    if kind == GAME_ACTION:
        return cell != s[LAST_GAME_ACTION + seat]
    return True


@njit(cache=True, inline="always")
def giving_up(s: np.ndarray, R, seat: int) -> bool:
    if s[HELD_MISSIONS_N + seat] == 0 or s[HAND + seat]:
        return False
    return R.mission_kind[mission_head(s, seat)] == K_DISCARD


@njit(cache=True)
def game_action_distance(s: np.ndarray, R, seat: int) -> np.ndarray:
    kind, step = R.kind, R.step
    cells = kind.shape[0]
    distance = np.full(cells, -1, np.int64)
    frontier = np.empty(cells, np.int64)
    size = 0
    for cell in range(cells):
        if kind[cell] == GAME_ACTION and cell != s[LAST_GAME_ACTION + seat]:
            distance[cell] = 0
            frontier[size] = cell
            size += 1
    reached = np.empty(cells, np.int64)
    while size:
        count = 0
        for k in range(size):
            cell = frontier[k]
            for d in range(4):
                near = step[cell, d]
                if near >= 0 and distance[near] < 0 and (kind[near] == BLANK or kind[near] == MISSION):
                    distance[near] = distance[cell] + 1
                    reached[count] = near
                    count += 1
        frontier, reached = reached, frontier
        size = count
    return distance


@njit(cache=True, inline="always")
def add_move(moves: np.ndarray, count: int, op: int, a: int, b: int, c: int) -> int:
    moves[count, 0], moves[count, 1], moves[count, 2], moves[count, 3] = op, a, b, c
    return count + 1


@njit(cache=True, inline="always")
def open_direction(s: np.ndarray, R, seat: int, d: int) -> int:
    """The space one step in direction d if the Toa may move there now, else -1."""
    cell = R.step[s[TOA_CELLS + seat], d]
    return cell if cell >= 0 and may_enter(s, R, seat, cell) else -1


@njit(cache=True, inline="always")
def may_attach(s: np.ndarray, R, seat: int, n: int) -> bool:
    """MASKS-ATTACH-BEFORE-MOVE: one change of Great Mask and one of Turaga per turn."""
    if R.mask_kind[n] == 0:
        return not s[ATTACH_DONE] & 1 and n != s[MASK_ON + seat]
    return not s[ATTACH_DONE] & 2 and n != s[TURAGA_ON + seat]


@njit(cache=True)
def turn_moves(s: np.ndarray, R, seat: int, moves: np.ndarray) -> int:
    """MasksState._turn_moves: the moves as (op, a, b, c) rows; returns how many."""
    count = 0
    for d in range(4):
        cell = open_direction(s, R, seat, d)
        if cell >= 0:
            count = add_move(moves, count, M_MOVE, d, cell, 0)
    if count and giving_up(s, R, seat):
        count = towards_game_action(s, R, seat, moves, count)
    can_move = count > 0
    for k in range(s[WON_N + seat]):
        n = s[WON + MASK_CARDS_PER_TOA * seat + k]
        if may_attach(s, R, seat, n):
            count = add_move(moves, count, M_ATTACH, n, 0, 0)
    opp = 1 - seat
    hand = s[HAND + seat]
    for bit in range(ACTIONS):
        if not (hand >> bit) & 1:
            continue
        n = ACTION_BASE + bit
        effect = R.action_effect[n]
        if effect == E_PUSH:
            for d in range(4):
                cell = R.step[s[TOA_CELLS + opp], d]
                if cell >= 0 and may_enter(s, R, opp, cell):
                    count = add_move(moves, count, M_PLAY, n, d, cell)
        elif effect == E_MOVE:
            for index in range(8):
                end = two_step_end(s, R, seat, index)
                if end >= 0:
                    count = add_move(moves, count, M_PLAY, n, index, end)
        elif effect == E_DRAW or effect == E_SKIP:
            count = add_move(moves, count, M_PLAY, n, 0, 0)
    if not can_move:
        count = add_move(moves, count, M_WAIT, 0, 0, 0)
    return count


@njit(cache=True)
def towards_game_action(s: np.ndarray, R, seat: int, moves: np.ndarray, count: int) -> int:
    distance = game_action_distance(s, R, seat)
    nearest = -1
    for d in range(4):
        c = R.step[s[TOA_CELLS + seat], d]
        if c >= 0 and distance[c] >= 0 and (nearest < 0 or distance[c] < nearest):
            nearest = distance[c]
    if nearest < 0:
        return count
    kept = 0
    for k in range(count):
        if distance[moves[k, 2]] == nearest:
            kept += 1
    if not kept:
        return count
    kept = 0
    for k in range(count):
        if distance[moves[k, 2]] == nearest:
            moves[kept, :] = moves[k, :]
            kept += 1
    return kept


@njit(cache=True, inline="always")
def two_step_end(s: np.ndarray, R, seat: int, index: int) -> int:
    here, other = s[TOA_CELLS + seat], s[TOA_CELLS + 1 - seat]
    for p in range(2):
        first = R.two_steps[index, p, 0]
        if first < 0:
            continue
        mid = R.step[here, first]
        if mid < 0 or mid == other:
            continue
        cell = R.step[mid, R.two_steps[index, p, 1]]
        if cell >= 0 and may_enter(s, R, seat, cell):
            return cell
    return -1


@njit(cache=True)
def window_moves(s: np.ndarray, R, seat: int, in_challenge: bool, moves: np.ndarray) -> int:
    count = add_move(moves, 0, M_PASS, 0, 0, 0)
    hand = s[HAND + seat]
    for bit in range(ACTIONS):
        if (hand >> bit) & 1:
            n = ACTION_BASE + bit
            effect = R.action_effect[n]
            any_time = effect == E_DRAW or effect == E_SKIP
            if any_time or (in_challenge and (effect == E_BOOST or effect == E_WEAKEN)):
                count = add_move(moves, count, M_PLAY, n, 0, 0)
    return count


@njit(cache=True)
def generate_moves(s: np.ndarray, R, moves: np.ndarray) -> int:
    """MasksState._generate_moves; 0 when the game is over."""
    phase, seat = s[PHASE], s[ACTOR]
    if phase == TURN:
        return turn_moves(s, R, seat, moves)
    if phase == WINDOW:
        return window_moves(s, R, seat, True, moves)
    if phase == ANYTIME:
        return window_moves(s, R, seat, False, moves)
    if phase == CLAIM:
        count = add_move(moves, 0, M_ATTACH, s[CLAIM_CARD], 0, 0)
        return add_move(moves, count, M_KEEP, 0, 0, 0)
    if phase == JUMP:
        count = 0
        here, other = s[TOA_CELLS + seat], s[TOA_CELLS + 1 - seat]
        for c in R.portals:
            if c != here and c != other:
                count = add_move(moves, count, M_JUMP, c, 0, 0)
        return count
    if phase == DISCARD:
        count = 0
        hand = s[HAND + seat]
        for bit in range(ACTIONS):
            if (hand >> bit) & 1:
                count = add_move(moves, count, M_DISCARD, ACTION_BASE + bit, 0, 0)
        return count
    return 0


# -- carrying out an action ------------------------------------------------------------------

@njit(cache=True)
def perform(s: np.ndarray, rng: np.ndarray, R, op: int, a: int, b: int, c: int) -> None:
    """MasksState._perform of one legal move, then the agenda, then the seats' memories."""
    seat = s[ACTOR]
    if op == M_MOVE:
        s[PHASE] = NONE
        s[TOA_CELLS + seat] = b
        enter(s, rng, R, seat, b)
    elif op == M_PLAY:
        play(s, rng, R, seat, a, b, c)
    elif op == M_PASS:
        if s[PHASE] != ANYTIME and s[PASSES] == 0:
            push_step(s, S_WINDOW, 1 - seat, 1)
        s[PHASE] = NONE
    elif op == M_ATTACH:
        attach(s, R, seat, a)
        if s[PHASE] == TURN:
            remember(s)
            return
        s[PHASE] = NONE
    elif op == M_KEEP:
        s[PHASE] = NONE
    elif op == M_JUMP:
        s[PHASE] = NONE
        s[TOA_CELLS + seat] = a
    elif op == M_DISCARD:
        s[PHASE] = NONE
        mission_discard(s, seat, a)
        push_step(s, S_MISSIONS, seat, 0)
    else:  # M_WAIT
        s[PHASE] = NONE
    run(s, rng, R)
    remember(s)


@njit(cache=True)
def run(s: np.ndarray, rng: np.ndarray, R) -> None:
    while s[PHASE] == NONE:
        if s[AGENDA_N] == 0:
            if s[OWED]:
                s[OWED] = 0
                if s[HAND + s[TURN_PLAYER]]:  # _open_anytime
                    s[PHASE] = ANYTIME
                    s[ACTOR] = s[TURN_PLAYER]
            else:
                next_turn(s, R)
            continue
        s[AGENDA_N] -= 1
        at = AGENDA + 3 * s[AGENDA_N]
        op, a, b = s[at], s[at + 1], s[at + 2]
        if op == S_TURN:
            open_turn(s, R, a)
        elif op == S_WINDOW:
            open_window(s, a, b)
        elif op == S_MISSIONS:
            advance_missions(s, rng, R, a)
        elif op == S_CHALLENGE:
            reveal_challenge(s, rng, R, a)
        elif op == S_COMPARE:
            compare(s, R)
        elif op == S_CLAIM:
            open_claim(s, a)
        else:  # S_JUMP
            open_jump(s, R, a)


@njit(cache=True)
def next_turn(s: np.ndarray, R) -> None:
    seat = 1 - s[TURN_PLAYER]
    s[TURN_PLAYER] = seat
    s[TURN_NUMBER] += 1
    if s[TURN_NUMBER] > R.turn_limit:
        end_game(s, -1)
        return
    s[GAVE_UP] = 0
    head = mission_head(s, seat)
    if head and R.mission_kind[head] == K_SKIP:
        at = HELD_MISSIONS + 2 * MISSIONS * seat + 1
        s[at] -= 1
        if not s[at]:
            pop_mission(s, seat)
            complete_mission(s, head)
            push_step(s, S_MISSIONS, seat, 0)
        s[OWED] = 1
        return
    if s[SKIPS + seat]:
        s[SKIPS + seat] -= 1
        s[OWED] = 1
        return
    s[ATTACH_DONE] = 0
    push_step(s, S_TURN, seat, 0)


@njit(cache=True)
def open_turn(s: np.ndarray, R, seat: int) -> None:
    if not s[HAND + seat] and boxed_in(s, R, seat):
        return  # MASKS-BOXED-IN: no move, no card to attach or play: the turn passes unasked
    s[PHASE] = TURN
    s[ACTOR] = seat


@njit(cache=True)
def boxed_in(s: np.ndarray, R, seat: int) -> bool:
    """With an empty hand, is `wait` the turn's only move (no space open, nothing to attach)?"""
    for d in range(4):
        if open_direction(s, R, seat, d) >= 0:
            return False
    for k in range(s[WON_N + seat]):
        if may_attach(s, R, seat, s[WON + MASK_CARDS_PER_TOA * seat + k]):
            return False
    return True


@njit(cache=True)
def enter(s: np.ndarray, rng: np.ndarray, R, seat: int, cell: int) -> None:
    kind = R.kind[cell]
    if kind == BLANK:
        return
    if kind == MISSION:
        draw_mission(s, rng, R, seat)
        push_step(s, S_MISSIONS, seat, 0)
    elif kind == CHALLENGE:
        s[LAST_CHALLENGE + seat] = cell
        s[LAST_GAME_ACTION + seat] = -1
        push_step(s, S_CLAIM, seat, 0)
        for _ in range(R.circles[cell]):
            push_step(s, S_CHALLENGE, seat, 0)
    elif kind == GAME_ACTION:
        s[LAST_GAME_ACTION + seat] = cell
        if s[HELD_MISSIONS_N + seat]:
            complete_travel(s, R, seat, 0)
        land_on_game_action(s, rng, seat, R.circles[cell])
        if s[HELD_MISSIONS_N + seat]:
            push_step(s, S_MISSIONS, seat, 0)
    elif kind == PORTAL:
        if s[HELD_MISSIONS_N + seat]:
            complete_travel(s, R, seat, 1)
            push_step(s, S_MISSIONS, seat, 0)
        push_step(s, S_JUMP, seat, 0)


@njit(cache=True)
def land_on_game_action(s: np.ndarray, rng: np.ndarray, seat: int, count: int) -> None:
    if hand_size(s, seat) >= HAND_LIMIT:
        return
    if draw_actions(s, rng, seat, count) and seat == s[TURN_PLAYER]:
        s[OWED] = 1


@njit(cache=True)
def draw_actions(s: np.ndarray, rng: np.ndarray, seat: int, count: int) -> int:
    drawn = 0
    base = ACTION_PILE + ACTIONS * seat
    while drawn < count and hand_size(s, seat) < HAND_LIMIT:
        if not s[ACTION_PILE_N + seat]:
            discard = s[ACTION_DISCARD + seat]
            if not discard:
                break
            n = 0
            for bit in range(ACTIONS):
                if (discard >> bit) & 1:
                    s[base + n] = ACTION_BASE + bit
                    n += 1
            s[ACTION_DISCARD + seat] = 0
            mt.shuffle(rng, s[base:base + n], n)
            s[ACTION_PILE_N + seat] = n
            s[KNOWN + seat] = s[HAND + seat]
        s[ACTION_PILE_N + seat] -= 1
        card = s[base + s[ACTION_PILE_N + seat]]
        s[HAND + seat] |= 1 << (card - ACTION_BASE)
        drawn += 1
    return drawn


@njit(cache=True)
def open_jump(s: np.ndarray, R, seat: int) -> None:
    here, other = s[TOA_CELLS + seat], s[TOA_CELLS + 1 - seat]
    count, only = 0, -1
    for c in R.portals:
        if c != here and c != other:
            count += 1
            if only < 0:
                only = c
    if count > 1:
        s[PHASE] = JUMP
        s[ACTOR] = seat
    elif count == 1:
        s[TOA_CELLS + seat] = only


# -- missions --------------------------------------------------------------------------------

@njit(cache=True)
def reshuffle_shared(s: np.ndarray, rng: np.ndarray, pile: int, length: int, discard: int, base: int,
                     size: int) -> None:
    """MASKS-MISSION-RESHUFFLE, MASKS-CHALLENGE-RESHUFFLE: the sorted discard, shuffled."""
    n = 0
    for bit in range(size):
        if (s[discard] >> bit) & 1:
            s[pile + n] = base + bit
            n += 1
    s[discard] = 0
    mt.shuffle(rng, s[pile:pile + n], n)
    s[length] = n


@njit(cache=True)
def draw_mission(s: np.ndarray, rng: np.ndarray, R, seat: int) -> None:
    if not s[MISSION_PILE_N]:
        if not s[MISSION_DISCARD]:
            return  # MASKS-MISSION-NONE-LEFT
        reshuffle_shared(s, rng, MISSION_PILE, MISSION_PILE_N, MISSION_DISCARD, MISSION_BASE, MISSIONS)
    s[MISSION_PILE_N] -= 1
    number = s[MISSION_PILE + s[MISSION_PILE_N]]
    at = HELD_MISSIONS + 2 * MISSIONS * seat + 2 * s[HELD_MISSIONS_N + seat]
    s[at] = number
    s[at + 1] = R.mission_count[number]
    s[HELD_MISSIONS_N + seat] += 1


@njit(cache=True)
def complete_mission(s: np.ndarray, number: int) -> None:
    s[MISSION_DISCARD] |= 1 << (number - MISSION_BASE)


@njit(cache=True)
def complete_travel(s: np.ndarray, R, seat: int, target: int) -> None:
    head = mission_head(s, seat)
    if R.mission_kind[head] == K_TRAVEL and R.mission_target[head] == target:
        pop_mission(s, seat)
        complete_mission(s, head)


@njit(cache=True)
def advance_missions(s: np.ndarray, rng: np.ndarray, R, seat: int) -> None:
    while s[HELD_MISSIONS_N + seat]:
        head = mission_head(s, seat)
        kind = R.mission_kind[head]
        if kind == K_MOVE:
            pop_mission(s, seat)
            if mission_move(s, R, seat, head):
                push_step(s, S_MISSIONS, seat, 0)
                enter(s, rng, R, seat, s[TOA_CELLS + seat])
                return
            continue
        if kind != K_DISCARD:
            return
        hand = s[HAND + seat]
        if not hand:
            return
        if popcount(hand) > 1:
            s[PHASE] = DISCARD
            s[ACTOR] = seat
            return
        mission_discard(s, seat, ACTION_BASE + lowest(hand))


@njit(cache=True)
def mission_move(s: np.ndarray, R, seat: int, number: int) -> bool:
    other = s[TOA_CELLS + 1 - seat]
    cell = end = s[TOA_CELLS + seat]
    moved = 0
    direction = R.mission_direction[number]
    for distance in range(1, R.mission_spaces[number] + 1):
        cell = R.step[cell, direction]
        if cell < 0 or cell == other:
            break
        if may_enter(s, R, seat, cell):
            end, moved = cell, distance
    s[TOA_CELLS + seat] = end
    complete_mission(s, number)
    return moved > 0


@njit(cache=True)
def mission_discard(s: np.ndarray, seat: int, card: int) -> None:
    bit = 1 << (card - ACTION_BASE)
    s[HAND + seat] &= ~bit
    s[KNOWN + seat] &= ~bit
    s[ACTION_DISCARD + seat] |= bit
    at = HELD_MISSIONS + 2 * MISSIONS * seat
    s[at + 1] -= 1
    if not s[at + 1]:
        head = s[at]
        pop_mission(s, seat)
        complete_mission(s, head)


# -- Great Mask Challenges -------------------------------------------------------------------

@njit(cache=True)
def reveal_challenge(s: np.ndarray, rng: np.ndarray, R, seat: int) -> None:
    if not s[CHALLENGE_PILE_N]:
        reshuffle_shared(s, rng, CHALLENGE_PILE, CHALLENGE_PILE_N, CHALLENGE_DISCARD, CHALLENGE_BASE,
                         CHALLENGES)
    s[CHALLENGE_PILE_N] -= 1
    card = s[CHALLENGE_PILE + s[CHALLENGE_PILE_N]]
    s[CHALLENGE_ON] = 1
    s[CHALLENGE_LANDER] = seat
    s[CHALLENGE_CARD] = card
    s[CHALLENGE_SKILL] = R.challenge_skill[card]
    s[CHALLENGE_BONUS] = 0
    s[CHALLENGE_BONUS + 1] = 0
    s[OWED] = 0
    push_step(s, S_COMPARE, 0, 0)
    push_step(s, S_WINDOW, seat, 0)


@njit(cache=True)
def open_window(s: np.ndarray, seat: int, passes: int) -> None:
    if not s[HAND + seat]:
        if passes == 0:
            push_step(s, S_WINDOW, 1 - seat, 1)
        return
    s[PHASE] = WINDOW
    s[ACTOR] = seat
    s[PASSES] = passes


@njit(cache=True)
def compare(s: np.ndarray, R) -> None:
    lander, skill = s[CHALLENGE_LANDER], s[CHALLENGE_SKILL]
    s[CHALLENGE_ON] = 0
    score_lander = s[SKILLS + 6 * lander + skill] + s[CHALLENGE_BONUS + lander]
    score_other = s[SKILLS + 6 * (1 - lander) + skill] + s[CHALLENGE_BONUS + 1 - lander]
    s[CHALLENGE_DISCARD] |= 1 << (s[CHALLENGE_CARD] - CHALLENGE_BASE)
    if score_lander >= score_other:
        win_card(s, R, lander)


@njit(cache=True)
def win_card(s: np.ndarray, R, seat: int) -> None:
    if not s[MASK_PILE_N + seat]:
        return
    s[MASK_PILE_N + seat] -= 1
    number = s[MASK_PILE + MASK_CARDS_PER_TOA * seat + s[MASK_PILE_N + seat]]
    s[WON + MASK_CARDS_PER_TOA * seat + s[WON_N + seat]] = number
    s[WON_N + seat] += 1
    if mask_count(s, R, seat) >= R.masks_to_win:
        end_game(s, seat)
        return
    s[UNCLAIMED + s[UNCLAIMED_N]] = number
    s[UNCLAIMED_N] += 1


@njit(cache=True)
def open_claim(s: np.ndarray, seat: int) -> None:
    n = s[UNCLAIMED_N]
    if not n:
        return
    s[CLAIM_CARD] = s[UNCLAIMED]
    for k in range(n - 1):
        s[UNCLAIMED + k] = s[UNCLAIMED + k + 1]
    s[UNCLAIMED_N] = n - 1
    if n > 1:
        push_step(s, S_CLAIM, seat, 0)
    s[PHASE] = CLAIM
    s[ACTOR] = seat


@njit(cache=True)
def attach(s: np.ndarray, R, seat: int, number: int) -> None:
    is_mask = R.mask_kind[number] == 0
    if is_mask:
        s[MASK_ON + seat] = number
    else:
        s[TURAGA_ON + seat] = number
    if s[PHASE] == TURN:
        s[ATTACH_DONE] |= 1 if is_mask else 2
    update_skills(s, R, seat)


# -- Game Action cards -----------------------------------------------------------------------

@njit(cache=True)
def play(s: np.ndarray, rng: np.ndarray, R, seat: int, number: int, b: int, c: int) -> None:
    bit = 1 << (number - ACTION_BASE)
    s[HAND + seat] &= ~bit
    s[KNOWN + seat] &= ~bit
    s[ACTION_DISCARD + seat] |= bit
    opp = 1 - seat
    effect = R.action_effect[number]
    if effect == E_PUSH:
        s[PHASE] = NONE
        s[GAVE_UP] = 1
        s[TOA_CELLS + opp] = c
        enter(s, rng, R, opp, c)
        return
    if effect == E_MOVE:
        s[PHASE] = NONE
        s[TOA_CELLS + seat] = c
        enter(s, rng, R, seat, c)
        return
    phase = s[PHASE]
    if phase == TURN:
        push_step(s, S_TURN, seat, 0)
    elif phase == WINDOW:
        push_step(s, S_WINDOW, opp, 0)
    else:
        s[OWED] = 1
    s[PHASE] = NONE
    amount = R.action_amount[number]
    if effect == E_DRAW:
        draw_actions(s, rng, seat, amount)
        if s[HELD_MISSIONS_N + seat]:
            push_step(s, S_MISSIONS, seat, 0)
    elif effect == E_SKIP:
        s[SKIPS + opp] += amount
    elif effect == E_BOOST:
        s[CHALLENGE_BONUS + seat] += amount
    else:  # E_WEAKEN
        s[CHALLENGE_BONUS + opp] -= amount
