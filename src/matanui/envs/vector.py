"""Many games as one Gymnasium vector environment, on the batched engine (matanui.batch):

    import gymnasium
    import matanui.envs.gymnasium  # registers matanui/reconstruct-v0 with its vector entry point
    envs = gymnasium.make_vec("matanui/reconstruct-v0", num_envs=1024,
                              vectorization_mode="vector_entry_point", opponents="random")
    obs, info = envs.reset(seed=1)
    obs, reward, terminated, truncated, info = envs.step(actions)

Each sub-environment is one learning seat in a game of its own; the other seat is played by
the opponent inside `step`, so every observation returned is a decision of the learner, and
its `action_mask` always has a legal action. Observations and masks are arrays, one row
per sub-environment, exactly the tensors the single-game environment (matanui.envs.gymnasium)
gives: the batched engine is checked equal to the reference move for move.

Autoreset is Gymnasium's SAME_STEP: when a game ends, `step` returns the reward and
terminated=True for it, with the first observation of the next game (dealt from the env's
generator) in `obs`, and the last position of the ended game in info["final_obs"] (rows
where info["_final_obs"] is true). There is no truncation: a game's turn limit is one of its
rules, and a game that reaches it ends drawn (terminated, reward 0).

Opponents are "random" (uniform over the legal actions, drawn from the env's generator) or an
array policy: a callable policy(observation, mask) -> index, MODULE:CALLABLE, or a policy
file PATH.npz (matanui.envs.checkpoint); a policy with `.batch(observations, masks)` is
asked for all the games at once. A matanui bot (heuristic, hard, ...) needs the reference
engine: use vectorization_mode="sync" for those.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from matanui.batch import batched_game
from matanui.engine import MatanuiError

from .opponents import array_policy, is_agent_name
from .pettingzoo import observation_space

SEAT_CHOICES = "a seat number or 'random'"


class MatanuiVectorEnv(VectorEnv):
    metadata: ClassVar[dict[str, Any]] = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(self, game: str = "reconstruct", num_envs: int = 1, seat: int | str = 0,
                 opponents: Any = "random", options: Mapping[str, Any] | None = None,
                 threads: int | None = None) -> None:
        """`seat`: the learning seat, or "random" for a seat drawn from the env's generator
        at every deal (info["seat"] says which). `threads`: as matanui.batch's (default: one
        below 512 games)."""
        self.games = games = batched_game(game)(num_envs, options, threads)
        self.num_envs = n = games.num_games
        players = games.players
        if seat != "random" and (isinstance(seat, bool) or not isinstance(seat, int)
                                 or not 0 <= seat < players):
            raise MatanuiError(f"seat must be {SEAT_CHOICES} (0 to {players - 1}), not {seat!r}")
        self.seat_choice = seat
        if opponents != "random" and is_agent_name(opponents):
            raise MatanuiError(f"the vector environment's opponents are 'random' or an array policy; "
                               f"{opponents!r:.40} is a matanui bot, which plays on the reference engine: "
                               f"use gymnasium.make_vec(..., vectorization_mode='sync', "
                               f"opponents={opponents!r:.40})")
        self.opponent = None if opponents == "random" else array_policy(opponents, games.encoding)
        self.opponent_label = opponents if isinstance(opponents, str) else getattr(
            opponents, "__name__", type(opponents).__name__)
        self.single_observation_space = observation_space(games.observation_size, games.num_actions)
        self.single_action_space = spaces.Discrete(games.num_actions)
        self.observation_space = batch_space(self.single_observation_space, n)
        self.action_space = batch_space(self.single_action_space, n)
        self.seats = np.zeros(n, np.int64)
        self.seeds = np.zeros(n, np.int64)
        self._chooser = np.zeros(n, np.uint64)  # the random opponents' generators, one per game
        self._masks = np.zeros((n, games.num_actions), np.bool_)
        self._np_random = np.random.default_rng()

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """New games in every sub-environment, from `seed` (the same seed, the same games)."""
        if seed is not None:
            self._np_random = np.random.default_rng(seed)
        self._chooser[:] = self._np_random.integers(0, 2**63 - 1, self.num_envs, dtype=np.int64)
        self._deal(np.ones(self.num_envs, np.bool_))
        return self._observe(), self._info()

    def step(self, actions: Any) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray,
                                          dict[str, Any]]:
        """The learners' actions, then the opponents' until each game is at its learner's
        decision again or over. An illegal action raises IllegalAction naming the
        sub-environment and changes nothing."""
        games = self.games
        games.step(actions)
        self._let_opponents_play()
        ended = games.over
        rewards = games.returns[np.arange(self.num_envs), self.seats]
        observation = self._observe()
        info: dict[str, Any] = {}
        if ended.any():
            # What was observed is the ended games' last position: deal those again and
            # observe only them (the other rows have not changed).
            info = {"final_obs": observation, "_final_obs": ended, "_final_info": ended,
                    "final_info": {"seed": self.seeds.copy(), "seat": self.seats.copy()}}
            self._deal(ended)
            observation = self._observe(ended, {key: value.copy() for key, value in observation.items()})
        info.update(self._info())
        return observation, rewards, ended, np.zeros(self.num_envs, np.bool_), info

    def action_masks(self) -> np.ndarray:
        """The learners' legal actions now (the name sb3-contrib's MaskablePPO asks for)."""
        return self._masks.copy()

    # -- inside ------------------------------------------------------------------------

    def _deal(self, where: np.ndarray) -> None:
        """Deal new games where asked, then let the opponents play up to the learner's
        first decision; a game the opponents finish alone is dealt again."""
        games = self.games
        while where.any():
            count = int(where.sum())
            self.seeds[where] = self._np_random.integers(0, 2**63 - 1, count, dtype=np.int64)
            if self.seat_choice == "random":
                self.seats[where] = self._np_random.integers(0, games.players, count)
            else:
                self.seats[where] = self.seat_choice
            games.reset_where(where, self.seeds)
            self._let_opponents_play()
            where = games.over

    def _let_opponents_play(self) -> None:
        games = self.games
        if self.opponent is None:
            games.play_random_until(self.seats, self._chooser)
            return
        while True:
            current = games.current_player
            waiting = (current != self.seats) & (current >= 0)
            if not waiting.any():
                return
            games.legal_mask(self._masks)
            games.step(self._policy_actions(waiting, current), waiting)

    def _policy_actions(self, waiting: np.ndarray, seats: np.ndarray) -> np.ndarray:
        """The opponent policy's answers in the games where it decides, checked legal."""
        actions = np.zeros(self.num_envs, np.int64)
        rows = np.flatnonzero(waiting)
        observations = self.games.observe(np.where(waiting, seats, 0))[rows]
        masks = self._masks[rows]
        batch = getattr(self.opponent, "batch", None)
        if batch is not None:
            answers = np.asarray(batch(observations, masks))
        else:
            answers = np.array([self.opponent(seen, mask.view(np.int8))
                                for seen, mask in zip(observations, masks, strict=True)])
        legal = (answers.shape == rows.shape and np.issubdtype(answers.dtype, np.integer)
                 and ((answers >= 0) & (answers < masks.shape[1])).all())
        if not legal or not masks[np.arange(rows.size), answers].all():
            raise MatanuiError(f"the opponent policy {self.opponent_label} answered {answers.tolist()[:8]} "
                               f"in sub-environments {rows.tolist()[:8]}: each answer must be one of its "
                               "row's legal action indices")
        actions[rows] = answers
        return actions

    def _observe(self, rows: np.ndarray | None = None,
                 into: dict[str, np.ndarray] | None = None) -> dict[str, np.ndarray]:
        """The learners' tensors and masks now (new arrays: the caller may keep them), or
        only the rows asked, written over a copy `into`."""
        games = self.games
        masks = games.legal_mask(self._masks).view(np.int8)
        if rows is None or into is None:
            return {"observation": games.observe(self.seats), "action_mask": masks.copy()}
        games.observe(self.seats, into["observation"], rows)
        into["action_mask"][rows] = masks[rows]
        return into

    def _info(self) -> dict[str, Any]:
        return {"seed": self.seeds.copy(), "seat": self.seats.copy()}
