"""Toa Nuva Reconstruct, many games at once: the rules of games/reconstruct/rules.py as numba
kernels over integer arrays. The reference engine stays the rules' truth; matanui.batch.check
plays both side by side and compares every legal set, observation and outcome.

The state of game i is one row of an int64 matrix (`FIELD` names its columns) plus its draw
and discard piles and its Mersenne Twister. Cards are numbered by their index in sorted card
order (the encoding's order), so a hand is a bitmask (the deck has 36 cards: at most 63 fit).
The piles keep their order, because the reshuffle of an empty draw pile shuffles the discard
pile in the order the cards were discarded.

Rule ids in comments are the rows of docs/rules/reconstruct.md, as in the reference.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

import numpy as np
from numba import njit, prange

from matanui import games
from matanui.engine import MatanuiError
from matanui.envs.encoding import encoding_for

from . import random as mt
from .base import BatchedGame
from .bits import lowest, popcount

START, PLAY, RESPOND, OVER = 0, 1, 2, 3  # the encoding's PHASES order
ADD, REMOVE, STOP = 0, 1, 2  # card kinds
PASS, ALLOW, DRAW, PLAY_ADD, PLAY_REMOVE, PLAY_STOP, TRADE = range(7)  # action kinds
HAND_DEAL = 3
ALL_PARTS = 0b1111111

# Columns of the state matrix.
(PHASE, TURN, TURN_PLAYER, DRAWS_DUE, PENDING_KIND, PENDING_CARD, PENDING_PART, WINNER, DRAWN,
 DRAW_LEN, DISCARD_LEN, DISCARD_SET, HAND, KNOWN, BUILT, HELD, SEEN, TOA) = (
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 14, 16, 18, 20, 22)
FIELDS = 24  # HAND .. TOA are pairs: the column of seat 0, then of seat 1

# The game's settings as one int64 vector.
ADVANCED, TURN_LIMIT, FIRST_PLAYER, CARDS, CHARACTERS = range(5)


class Deck(NamedTuple):
    """The game's settings and its deck's tables, as the kernels take them."""

    settings: np.ndarray  # ADVANCED, TURN_LIMIT, FIRST_PLAYER, CARDS, CHARACTERS
    kind: np.ndarray
    colour_mask: np.ndarray
    deal_order: np.ndarray
    first_action: np.ndarray
    action_count: np.ndarray
    action_kind: np.ndarray
    action_card: np.ndarray
    action_part: np.ndarray
    action_take: np.ndarray
    trade_action: np.ndarray


class Piles(NamedTuple):
    """Each game's draw pile (its top is the end), discard pile (in the order laid) and
    Mersenne Twister, one row per game."""

    draw: np.ndarray
    discard: np.ndarray
    rng: np.ndarray


class Tables:
    """The deck and the encoding's action order as arrays, built from the reference game."""

    def __init__(self, game: Any, encoding: Any) -> None:
        deck = game.deck
        ids = encoding.card_ids  # sorted: card index k is ids[k]
        index = encoding.card_index
        colours = {colour: c for c, colour in enumerate(deck.colours)}
        count = len(ids)
        if count > 62:
            raise MatanuiError(f"the batched Reconstruct keeps hands as 63-bit masks; "
                               f"this deck has {count} cards")
        self.kind = np.array([("add", "remove", "stop").index(deck.cards[c].kind) for c in ids], np.int64)
        self.colour_mask = np.zeros(len(colours), np.int64)
        for k, card in enumerate(ids):
            self.colour_mask[colours[deck.cards[card].colour]] |= 1 << k
        self.deal_order = np.array([index[c] for c in deck.cards], np.int64)  # the reference's dict order
        actions = encoding.actions
        if actions[:3] != ("pass", "allow", "draw"):  # the kernels use these indices as they are
            raise AssertionError(f"the Reconstruct encoding's first actions changed: {actions[:3]}")
        size = len(actions)
        self.action_kind = np.zeros(size, np.int64)
        self.action_card = np.full(size, -1, np.int64)
        self.action_part = np.full(size, -1, np.int64)
        self.action_take = np.full(size, -1, np.int64)
        # Each card's play actions (add or remove, one per part shown) or its stop action.
        self.first_action = np.zeros(count, np.int64)
        self.action_count = np.zeros(count, np.int64)
        self.trade_action = np.full((count, count), -1, np.int64)
        kinds = {"pass": PASS, "allow": ALLOW, "draw": DRAW, "add": PLAY_ADD, "remove": PLAY_REMOVE,
                 "stop": PLAY_STOP, "trade": TRADE}
        for a, action in enumerate(actions):
            words = action.split(":")
            self.action_kind[a] = kinds[words[0]]
            if len(words) > 1:
                k = index[int(words[1])]
                self.action_card[a] = k
                if words[0] == "trade":
                    self.action_take[a] = index[int(words[2])]
                    self.trade_action[k, self.action_take[a]] = a
                    continue
                if self.action_count[k] == 0:
                    self.first_action[k] = a
                self.action_count[k] += 1
            if len(words) > 2:
                self.action_part[a] = game.part_index[words[2]]


@njit(cache=True, inline="always")
def _current(g: np.ndarray) -> int:
    phase = g[PHASE]
    if phase == OVER:
        return -1
    if phase == RESPOND:
        return 1 - g[TURN_PLAYER]
    return g[TURN_PLAYER]


@njit(cache=True)
def _remember(g: np.ndarray) -> None:
    """Each seat's memory: every card it has held, every card it has seen played."""
    seen = g[DISCARD_SET]
    if g[PENDING_KIND] >= 0:
        seen |= 1 << g[PENDING_CARD]
    for seat in range(2):
        g[HELD + seat] |= g[HAND + seat]
        g[SEEN + seat] |= seen


@njit(cache=True)
def _can_trade(g: np.ndarray, seat: int, deck: Deck) -> bool:
    hand, discard = g[HAND + seat], g[DISCARD_SET]
    colour_mask = deck.colour_mask
    for c in range(colour_mask.shape[0]):
        if hand & colour_mask[c] and discard & colour_mask[c]:
            return True
    return False


@njit(cache=True)
def _draw_step(g: np.ndarray, draw: np.ndarray, discard: np.ndarray, rng: np.ndarray, seat: int,
               count: int) -> None:
    """RECON-DRAW (and RECON-STOP-DRAW-TWO when count is 2)."""
    for _ in range(count):
        if g[DRAW_LEN] == 0:
            if g[DISCARD_LEN] == 0:
                break
            # RECON-EMPTY-PILE: the discard pile, in the order it was laid, becomes the draw pile.
            length = g[DISCARD_LEN]
            for j in range(length):
                draw[j] = discard[j]
            g[DRAW_LEN] = length
            g[DISCARD_LEN] = 0
            g[DISCARD_SET] = 0
            mt.shuffle(rng, draw, length)
        g[DRAW_LEN] -= 1
        g[HAND + seat] |= 1 << draw[g[DRAW_LEN]]
    g[PHASE] = PLAY


@njit(cache=True)
def _begin_turn(g: np.ndarray, draw: np.ndarray, discard: np.ndarray, rng: np.ndarray, deck: Deck, seat: int,
                draws: int) -> None:
    """RECON-TURN-ORDER, step 1. `draws` is 2 after a successful stop."""
    g[TURN] += 1
    g[TURN_PLAYER] = seat
    g[DRAWS_DUE] = draws
    if g[TURN] > deck.settings[TURN_LIMIT]:
        g[PHASE] = OVER
        g[DRAWN] = 1
        return
    if deck.settings[ADVANCED] and _can_trade(g, seat, deck):
        g[PHASE] = START
        return
    _draw_step(g, draw, discard, rng, seat, draws)


@njit(cache=True, inline="always")
def _discard(g: np.ndarray, discard: np.ndarray, card: int) -> None:
    discard[g[DISCARD_LEN]] = card
    g[DISCARD_LEN] += 1
    g[DISCARD_SET] |= 1 << card


@njit(cache=True)
def _deal(g: np.ndarray, draw: np.ndarray, discard: np.ndarray, rng: np.ndarray, deck: Deck,
          seed: int) -> None:
    """Table.deal(seed): the characters from random.Random(seed).sample, then new_game(seed)."""
    # Both the characters' sample and the game draw from a fresh random.Random(seed):
    # seed and twist once, and start the game from a copy.
    mt.seed(rng, seed)
    mt.twist_if_due(rng)
    fresh = rng.copy()
    chosen = np.zeros(2, np.int64)
    settings = deck.settings
    mt.sample_indices(rng, settings[CHARACTERS], 2, chosen)
    g[:] = 0
    g[TOA] = chosen[0]
    g[TOA + 1] = chosen[1]
    g[PENDING_KIND] = -1
    g[WINNER] = -1
    rng[:] = fresh
    cards = settings[CARDS]
    for j in range(cards):
        draw[j] = deck.deal_order[j]
    mt.shuffle(rng, draw, cards)  # RECON-SETUP-SHUFFLE
    g[DRAW_LEN] = cards
    for seat in range(2):  # RECON-SETUP-DEAL
        for _ in range(HAND_DEAL):
            g[DRAW_LEN] -= 1
            g[HAND + seat] |= 1 << draw[g[DRAW_LEN]]
    first = settings[FIRST_PLAYER]
    if first < 0:
        first = mt.randbelow(rng, 2)  # RECON-SETUP-FIRST: Rock-Paper-Scissors
    g[PHASE] = PLAY
    g[TURN_PLAYER] = first
    _begin_turn(g, draw, discard, rng, deck, first, 1)
    _remember(g)


@njit(cache=True)
def _legal(g: np.ndarray, deck: Deck, out: np.ndarray) -> int:
    """The current player's legal action indices into `out`; how many there are."""
    kind, first_action, action_count = deck.kind, deck.first_action, deck.action_count
    action_part, trade_action = deck.action_part, deck.trade_action
    phase = g[PHASE]
    if phase == OVER:
        return 0
    me = _current(g)
    hand = g[HAND + me]
    n = 0
    if phase == PLAY:
        mine, theirs = g[BUILT + me], g[BUILT + 1 - me]
        rest = hand
        while rest:
            k = lowest(rest)
            rest &= rest - 1
            if kind[k] == STOP:
                continue
            for a in range(first_action[k], first_action[k] + action_count[k]):
                built = (theirs if kind[k] == REMOVE else ~mine) >> action_part[a] & 1
                if built:  # RECON-ADD: a part you lack; RECON-REMOVE-ONLY-MATCHING
                    out[n] = a
                    n += 1
        out[n] = PASS  # RECON-PLAY-OPTIONAL (index 0: the encoding lists pass first)
        return n + 1
    if phase == RESPOND:
        out[n] = ALLOW
        n += 1
        rest = hand
        while rest:
            k = lowest(rest)
            rest &= rest - 1
            if kind[k] == STOP:
                out[n] = first_action[k]
                n += 1
        return n
    out[n] = DRAW  # START: RECON-ADVANCED-TRADE
    n += 1
    rest = hand
    while rest:
        give = lowest(rest)
        rest &= rest - 1
        takes = g[DISCARD_SET]
        while takes:
            take = lowest(takes)
            takes &= takes - 1
            if trade_action[give, take] >= 0:
                out[n] = trade_action[give, take]
                n += 1
    return n


@njit(cache=True)
def _apply(g: np.ndarray, draw: np.ndarray, discard: np.ndarray, rng: np.ndarray, deck: Deck, a: int) -> None:
    """One legal action of the current player, then the automatic steps that follow it."""
    action_card = deck.action_card
    what = deck.action_kind[a]
    me = g[TURN_PLAYER]
    if what == ALLOW:
        # The played card takes effect, then is discarded (RECON-DISCARD).
        card, part = g[PENDING_CARD], g[PENDING_PART]
        effect = g[PENDING_KIND]
        g[PENDING_KIND] = -1
        _discard(g, discard, card)
        if effect == ADD:
            g[BUILT + me] |= 1 << part
            if g[BUILT + me] == ALL_PARTS:  # RECON-WIN
                g[WINNER] = me
                g[PHASE] = OVER
                _remember(g)
                return
        else:
            g[BUILT + 1 - me] &= ~(1 << part)
        _begin_turn(g, draw, discard, rng, deck, 1 - me, 1)
    elif what == PLAY_STOP:
        # RECON-STOP: the played card does nothing; the stopper's turn begins with two cards.
        other = 1 - me
        stop = action_card[a]
        card = g[PENDING_CARD]
        g[PENDING_KIND] = -1
        g[HAND + other] &= ~(1 << stop)
        g[KNOWN + other] &= ~(1 << stop)
        _discard(g, discard, card)
        _discard(g, discard, stop)
        _begin_turn(g, draw, discard, rng, deck, other, 2)
    elif what == PASS:
        _begin_turn(g, draw, discard, rng, deck, 1 - me, 1)
    elif what == DRAW:
        _draw_step(g, draw, discard, rng, me, g[DRAWS_DUE])
    elif what == TRADE:
        give, take = action_card[a], deck.action_take[a]
        g[HAND + me] &= ~(1 << give)
        g[KNOWN + me] &= ~(1 << give)
        _discard(g, discard, give)
        length = g[DISCARD_LEN]
        j = 0
        while discard[j] != take:
            j += 1
        for m in range(j, length - 1):  # list.remove keeps the others in order
            discard[m] = discard[m + 1]
        g[DISCARD_LEN] = length - 1
        g[DISCARD_SET] &= ~(1 << take)
        g[HAND + me] |= 1 << take
        g[KNOWN + me] |= 1 << take  # everyone saw which card was taken
        _begin_turn(g, draw, discard, rng, deck, 1 - me, 1)
    else:
        # An add or remove card is played; the opponent may answer with a stop card.
        card = action_card[a]
        g[HAND + me] &= ~(1 << card)
        g[KNOWN + me] &= ~(1 << card)
        g[PENDING_KIND] = ADD if what == PLAY_ADD else REMOVE
        g[PENDING_CARD] = card
        g[PENDING_PART] = deck.action_part[a]
        g[PHASE] = RESPOND
    _remember(g)


@njit(cache=True)
def _is_legal(g: np.ndarray, a: int, deck: Deck, scratch: np.ndarray) -> bool:
    n = _legal(g, deck, scratch)
    for j in range(n):
        if scratch[j] == a:
            return True
    return False


@njit(cache=True, parallel=True)
def _step_all(state, piles, deck, actions, active) -> int:
    """Apply actions[i] in every active game not over; -1, or the first game whose action is
    illegal (then nothing is changed anywhere)."""
    n = state.shape[0]
    bad = np.full(n, False)
    for i in prange(n):
        if active[i] and state[i, PHASE] != OVER:
            scratch = np.empty(deck.action_kind.shape[0], np.int64)
            a = actions[i]
            bad[i] = not (0 <= a < deck.action_kind.shape[0]) or not _is_legal(state[i], a, deck, scratch)
    for i in range(n):
        if bad[i]:
            return i
    for i in prange(n):
        if active[i] and state[i, PHASE] != OVER:
            _apply(state[i], piles.draw[i], piles.discard[i], piles.rng[i], deck, actions[i])
    return -1


@njit(cache=True, parallel=True)
def _deal_where(state, piles, deck, where, seeds) -> None:
    for i in prange(state.shape[0]):
        if where[i]:
            _deal(state[i], piles.draw[i], piles.discard[i], piles.rng[i], deck, seeds[i])


@njit(cache=True, parallel=True)
def _masks(state, deck, out) -> None:
    out[:] = False
    for i in prange(state.shape[0]):
        scratch = np.empty(out.shape[1], np.int64)
        n = _legal(state[i], deck, scratch)
        for j in range(n):
            out[i, scratch[j]] = True


@njit(cache=True)
def _bits_into(out: np.ndarray, at: int, bits: int) -> None:
    while bits:
        k = lowest(bits)
        bits &= bits - 1
        out[at + k] = 1.0


@njit(cache=True, parallel=True)
def _observe(state, deck, seats, out, where) -> None:
    """The encoding's information-state tensor (envs/encodings/reconstruct.py: observation,
    then memory) of seats[i] in game i, for the games where where[i]."""
    settings = deck.settings
    cards = settings[CARDS]
    toa = settings[CHARACTERS]
    for i in prange(state.shape[0]):
        if not where[i]:
            continue
        g = state[i]
        o = out[i]
        o[:] = 0.0
        me = seats[i]
        other = 1 - me
        phase = g[PHASE]
        o[0] = 1.0 if _current(g) == me else 0.0  # to_decide
        o[1] = 1.0 if g[TURN_PLAYER] == me else 0.0  # my_turn
        o[2 + phase] = 1.0
        at = 6  # characters (2, toa)
        o[at + g[TOA + me]] = 1.0
        o[at + toa + g[TOA + other]] = 1.0
        at += 2 * toa  # built (2, 7)
        _bits_into(o, at, g[BUILT + me])
        _bits_into(o, at + 7, g[BUILT + other])
        at += 14  # hand
        _bits_into(o, at, g[HAND + me])
        at += cards  # known (2, cards)
        _bits_into(o, at, g[KNOWN + me])
        _bits_into(o, at + cards, g[KNOWN + other])
        at += 2 * cards  # discard
        _bits_into(o, at, g[DISCARD_SET])
        at += cards  # pending card, effect, part
        if g[PENDING_KIND] >= 0:
            o[at + g[PENDING_CARD]] = 1.0
            o[at + cards + g[PENDING_KIND]] = 1.0
            o[at + cards + 2 + g[PENDING_PART]] = 1.0
        at += cards + 2 + 7  # counts
        o[at] = popcount(g[HAND + me]) / cards
        o[at + 1] = popcount(g[HAND + other]) / cards
        o[at + 2] = g[DRAW_LEN] / cards
        o[at + 3] = g[DRAWS_DUE] / 2
        o[at + 4] = min(g[TURN] / settings[TURN_LIMIT], 1.0)
        o[at + 5] = settings[ADVANCED]
        at += 6  # memory: held, seen played
        _bits_into(o, at, g[HELD + me])
        _bits_into(o, at + cards, g[SEEN + me])


@njit(cache=True, parallel=True)
def _playouts(state, piles, deck, steps, first_seed, counts) -> None:
    """Uniformly random playouts: each game row plays `steps` decisions, going on with the
    game it holds and dealing a new one (the next seed) whenever one is over;
    counts[i] = (steps, games finished)."""
    n = state.shape[0]
    for i in prange(n):
        g, draw, discard, rng = state[i], piles.draw[i], piles.discard[i], piles.rng[i]
        chooser = np.array([np.uint64(first_seed + i)])
        legal = np.empty(deck.action_kind.shape[0], np.int64)
        seed = first_seed + i
        finished = 0
        for _ in range(steps):
            if g[PHASE] == OVER:
                if g[TURN] > 0:  # a game was played to its end (a new batch holds none)
                    finished += 1
                _deal(g, draw, discard, rng, deck, seed)
                seed += n
            a = legal[mt.splitmix(chooser, 0) % _legal(g, deck, legal)]
            _apply(g, draw, discard, rng, deck, a)
        counts[i, 0] = steps
        counts[i, 1] = finished


@njit(cache=True, parallel=True)
def _play_random(state, piles, deck, seats, chooser) -> None:
    """In every game, uniformly random actions until seats[i] decides or the game is over;
    chooser[i] is game i's splitmix64 state."""
    for i in prange(state.shape[0]):
        g = state[i]
        legal = np.empty(deck.action_kind.shape[0], np.int64)
        while g[PHASE] != OVER and _current(g) != seats[i]:
            a = legal[mt.splitmix(chooser, i) % _legal(g, deck, legal)]
            _apply(g, piles.draw[i], piles.discard[i], piles.rng[i], deck, a)


class BatchedReconstruct(BatchedGame):
    """`num_games` games of Toa Nuva Reconstruct stepped at once (matanui.batch.base)."""

    name = "reconstruct"

    def __init__(self, num_games: int, options: Mapping[str, Any] | None = None,
                 threads: int | None = None) -> None:
        game = games.get("reconstruct")
        super().__init__(game, encoding_for(game, 2), num_games, options, threads)
        tables = Tables(game, self.encoding)
        cards = len(self.encoding.card_ids)
        first = self.options["first_player"]
        settings = np.array([self.options["advanced"], self.options["turn_limit"],
                             -1 if first == "rps" else first, cards, len(game.characters())], np.int64)
        self.deck = Deck(settings=settings, **{field: getattr(tables, field) for field in Deck._fields[1:]})
        self.state = np.zeros((num_games, FIELDS), np.int64)
        self.state[:, PHASE] = OVER
        self.piles = Piles(np.zeros((num_games, cards), np.int64), np.zeros((num_games, cards), np.int64),
                           np.zeros((num_games, mt.STATE_WORDS), np.uint32))

    def _deal(self, where: np.ndarray, seeds: np.ndarray) -> None:
        _deal_where(self.state, self.piles, self.deck, where, seeds)

    @property
    def over(self) -> np.ndarray:
        return self.state[:, PHASE] == OVER

    @property
    def current_player(self) -> np.ndarray:
        s = self.state
        player = np.where(s[:, PHASE] == RESPOND, 1 - s[:, TURN_PLAYER], s[:, TURN_PLAYER])
        return np.where(s[:, PHASE] == OVER, -1, player)

    @property
    def returns(self) -> np.ndarray:
        winner = self.state[:, WINNER]
        out = np.zeros((self.num_games, 2), np.float32)
        won = winner >= 0
        out[won] = -1.0
        out[np.flatnonzero(won), winner[won]] = 1.0
        return out

    def _masks(self, out: np.ndarray) -> None:
        _masks(self.state, self.deck, out)

    def _observe(self, seats: np.ndarray, out: np.ndarray, where: np.ndarray) -> None:
        _observe(self.state, self.deck, seats, out, where)

    def _step(self, actions: np.ndarray, where: np.ndarray) -> int:
        return _step_all(self.state, self.piles, self.deck, actions, where)

    def _play_random(self, seats: np.ndarray, chooser: np.ndarray) -> None:
        _play_random(self.state, self.piles, self.deck, seats, chooser)

    def _playouts(self, steps: int, first_seed: int, counts: np.ndarray) -> None:
        _playouts(self.state, self.piles, self.deck, steps, first_seed, counts)
