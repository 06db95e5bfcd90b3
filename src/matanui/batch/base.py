"""What every batched game offers, and the checks its callers' input gets.

A batched game holds `num_games` games of one kind. Each call acts on all of them at once:
`reset(seeds)` deals every game as `envs.table.Table.deal(encoding, seed, None, options)`
would; `legal_mask()` and `observe(seats)` give the encoding's arrays; `step(actions)` plays
one action in every game that is not over (those ignore their entry). The kernels live in
each game's module; this class checks what comes in and shapes what goes out, so that a bad
call raises a MatanuiError that says what was wrong and changes nothing.
"""

from __future__ import annotations

import os
import time
from abc import ABC, abstractmethod
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

import numba
import numpy as np

from matanui.ai.play import BenchResult
from matanui.engine import Game, IllegalAction, MatanuiError
from matanui.engine.options import check_options
from matanui.envs.encoding import Encoding

MAX_SEED = 2**63 - 1
PARALLEL_FROM = 512  # fewer games than this run on one thread: starting threads costs more

# OpenMP's threads spin while they wait: on a machine busy with other work a parallel kernel
# took 12 ms instead of 70 us. Numba's own work queue yields; it is the default here unless
# the user chose a threading layer.
if "NUMBA_THREADING_LAYER" not in os.environ:
    numba.config.THREADING_LAYER = "workqueue"


class BatchedGame(ABC):
    name: str

    def __init__(self, game: Game, encoding: Encoding, num_games: int, options: Mapping[str, Any] | None,
                 threads: int | None = None) -> None:
        """`threads`: how many the kernels use (default: one below PARALLEL_FROM games,
        numba's count, NUMBA_NUM_THREADS, from there on)."""
        if isinstance(num_games, bool) or not isinstance(num_games, int | np.integer) or num_games < 1:
            raise MatanuiError(f"num_games must be a whole number of at least 1, not {num_games!r}")
        self.game = game
        self.encoding = encoding
        self.num_games = int(num_games)
        self.players = encoding.players
        self.num_actions = len(encoding.actions)
        self.observation_size = encoding.observation_size + encoding.memory_size
        self.options = check_options(game.name, game.options_schema(), options or {}, encoding.players)
        variant = game.options_schema().get("variant")
        if variant is not None and self.options["variant"] != variant.default:
            raise MatanuiError(f"the batched {game.title} plays the full game, not the "
                               f"{self.options['variant']} variant (use the reference engine for it)")
        if threads is None:
            threads = 1 if self.num_games < PARALLEL_FROM else numba.config.NUMBA_NUM_THREADS
        most = numba.config.NUMBA_NUM_THREADS
        if isinstance(threads, bool) or not isinstance(threads, int) or not 1 <= threads <= most:
            raise MatanuiError(f"threads must be 1 to {most}, not {threads!r}")
        self.threads = threads

    @contextmanager
    def _threaded(self) -> Iterator[None]:
        before = numba.get_num_threads()
        numba.set_num_threads(self.threads)
        try:
            yield
        finally:
            numba.set_num_threads(before)

    # -- the kernels a game supplies -----------------------------------------------------

    @abstractmethod
    def _deal(self, where: np.ndarray, seeds: np.ndarray) -> None:
        """Deal game i from seeds[i] where where[i]."""

    @abstractmethod
    def _masks(self, out: np.ndarray) -> None:
        """Each game's legal actions (of its current player) into the zeroed bool rows."""

    @abstractmethod
    def _observe(self, seats: np.ndarray, out: np.ndarray, where: np.ndarray) -> None:
        """Seat seats[i]'s information-state tensor of game i into out[i], where where[i]
        (the other rows are left as they are)."""

    @abstractmethod
    def _step(self, actions: np.ndarray, where: np.ndarray) -> int:
        """Apply the actions where where[i]; -1, or the index of the first game whose action
        is illegal (and then nothing is changed)."""

    @abstractmethod
    def _play_random(self, seats: np.ndarray, chooser: np.ndarray) -> None:
        """Uniformly random actions in each game until seats[i] decides or it is over;
        chooser (uint64 (n,)) holds each game's generator for those choices."""

    @abstractmethod
    def _playouts(self, steps: int, first_seed: int, counts: np.ndarray) -> None:
        """Random playouts, `steps` decisions per game row; counts[i] = (steps, games finished)."""

    @property
    @abstractmethod
    def over(self) -> np.ndarray:
        """bool (n,): which games are over."""

    @property
    @abstractmethod
    def current_player(self) -> np.ndarray:
        """int (n,): the seat that decides now in each game, -1 where it is over."""

    @property
    @abstractmethod
    def returns(self) -> np.ndarray:
        """float32 (n, players): +1 for a winner, -1 for the others, 0 in a drawn game or
        one still going (the reference's State.returns)."""

    # -- the checked interface -----------------------------------------------------------

    def reset(self, seeds: Any) -> None:
        """Deal every game, game i from seeds[i]."""
        seeds = self._seeds(seeds)
        with self._threaded():
            self._deal(np.ones(self.num_games, np.bool_), seeds)

    def reset_where(self, where: Any, seeds: Any) -> None:
        """Deal again only the games where where[i] is true, from seeds[i] (the others keep
        going; their seeds are not read)."""
        mask = self._per_game(where, "where", np.bool_)
        seeds = self._seeds(seeds)
        with self._threaded():
            self._deal(mask, seeds)

    def legal_mask(self, out: np.ndarray | None = None) -> np.ndarray:
        """bool (n, actions): the current player's legal actions; all false where over."""
        if out is None:
            out = np.zeros((self.num_games, self.num_actions), np.bool_)
        elif out.shape != (self.num_games, self.num_actions) or out.dtype != np.bool_:
            raise MatanuiError(f"out must be a bool array of shape ({self.num_games}, {self.num_actions})")
        with self._threaded():
            self._masks(out)
        return out

    def observe(self, seats: Any, out: np.ndarray | None = None, where: Any = None) -> np.ndarray:
        """float32 (n, observation_size): each game as seats[i] sees it (its observation,
        then its memory), as envs.table.Table.features(seat) gives it. With `where`, only
        those rows of `out` are written."""
        chosen = self._per_game(seats, "seats", np.int64)
        rows = (np.ones(self.num_games, np.bool_) if where is None
                else self._per_game(where, "where", np.bool_))
        if ((chosen < 0) | (chosen >= self.players)).any():
            raise MatanuiError(f"seats are 0 to {self.players - 1}; got {sorted(set(chosen.tolist()))}")
        if out is None:
            out = np.zeros((self.num_games, self.observation_size), np.float32)
        elif out.shape != (self.num_games, self.observation_size) or out.dtype != np.float32:
            raise MatanuiError(f"out must be a float32 array of shape "
                               f"({self.num_games}, {self.observation_size})")
        with self._threaded():
            self._observe(chosen, out, rows)
        return out

    def step(self, actions: Any, where: Any = None) -> None:
        """Play actions[i] in every game i that is not over (and where where[i], if given:
        the others ignore their entry). An illegal action raises IllegalAction naming the
        game and the action, and no game changes."""
        chosen = self._per_game(actions, "actions", np.int64)
        active = (np.ones(self.num_games, np.bool_) if where is None
                  else self._per_game(where, "where", np.bool_))
        with self._threaded():
            bad = self._step(chosen, active)
        if bad >= 0:
            legal = np.flatnonzero(self.legal_mask()[bad]).tolist()
            action = int(chosen[bad])
            words = (f"action {action} ({self.encoding.actions[action]})" if 0 <= action < self.num_actions
                     else f"action {action} (actions are 0 to {self.num_actions - 1})")
            raise IllegalAction(f"game {bad}: {words} is not legal now; legal: {legal}")

    def play_random_until(self, seats: Any, chooser: np.ndarray) -> None:
        """Play uniformly random legal actions in every game until seats[i] is the one to
        decide, or the game is over (the opponents' moves of a vector environment). The
        choices come from `chooser`, one uint64 generator state per game, advanced in place."""
        chosen = self._per_game(seats, "seats", np.int64)
        if chooser.shape != (self.num_games,) or chooser.dtype != np.uint64:
            raise MatanuiError(f"chooser must be a uint64 array of shape ({self.num_games},)")
        with self._threaded():
            self._play_random(chosen, chooser)

    def random_playouts(self, seconds: float = 1.0, seed: int = 0) -> BenchResult:
        """Uniformly random games, every row at once, for about `seconds` (after one short
        warm-up run that compiles the kernels). Leaves the games in an arbitrary state."""
        counts = np.zeros((self.num_games, 2), np.int64)
        with self._threaded():
            self._playouts(8, seed, counts)  # compiles, or loads the cache
            steps, spent, runs, started = 64, 0.0, [], time.perf_counter()
            while spent < seconds:
                begun = time.perf_counter()
                self._playouts(steps, seed + len(runs) * self.num_games, counts)
                runs.append((int(counts[:, 0].sum()), int(counts[:, 1].sum())))
                spent = time.perf_counter() - started
                if time.perf_counter() - begun < seconds / 8:
                    steps *= 2
        games, steps = sum(g for _, g in runs), sum(s for s, _ in runs)
        return BenchResult(self.game.name, self.players, games, steps, spent)

    def _per_game(self, values: Any, what: str, dtype: type) -> np.ndarray:
        array = np.asarray(values)
        if array.shape != (self.num_games,):
            raise MatanuiError(f"{what} must have one entry per game: shape ({self.num_games},), "
                               f"not {array.shape}")
        if dtype is np.bool_ and array.dtype != np.bool_:
            raise MatanuiError(f"{what} must be booleans, not {array.dtype}")
        if dtype is np.int64 and not np.issubdtype(array.dtype, np.integer):
            raise MatanuiError(f"{what} must be whole numbers, not {array.dtype}")
        return np.ascontiguousarray(array, dtype)

    def _seeds(self, seeds: Any) -> np.ndarray:
        chosen = self._per_game(seeds, "seeds", np.int64)
        if ((chosen < 0) | (chosen > MAX_SEED)).any():
            raise MatanuiError(f"seeds are whole numbers from 0 to {MAX_SEED}")
        return chosen
