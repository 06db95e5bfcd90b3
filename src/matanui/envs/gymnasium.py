"""The games as single-agent Gymnasium environments: one seat learns, matanui bots of a
chosen level play the other seats.

    import gymnasium
    import matanui.envs.gymnasium  # registers matanui/reconstruct-v0, ...
    e = gymnasium.make("matanui/reconstruct-v0", opponents="hard@0.1")
    obs, info = e.reset(seed=1)
    action = e.action_space.sample(obs["action_mask"])
    obs, reward, terminated, truncated, info = e.step(action)

Observations are dicts, as in the PettingZoo adapter: `observation` (the learning seat's
information-state tensor) and `action_mask`; `action_masks()` gives the mask too, the name
that sb3-contrib's MaskablePPO asks for. The reward is the learning seat's return at the end
(+1 win, -1 loss, 0 draw), 0 before. An illegal action ends the episode with reward -1 and
`info["illegal_action"]` saying why (`illegal="raise"` raises IllegalAction instead and
changes nothing).

`seat="random"` draws the learning seat from the environment's generator at every reset (so
`reset(seed=s)` always gives the same seat); the opponents fill the other seats in seat
order. `info["seat"]` says which seat learns, for a fixed seat too.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import gymnasium
import numpy as np
from gymnasium import spaces

from matanui import games
from matanui.ai.base import Agent
from matanui.batch import batched_names
from matanui.engine import IllegalAction, MatanuiError

from .encoding import DEFAULT_VARIANT, encoding_for, has_encoding
from .opponents import Opponent, is_agent_name, resolve
from .pettingzoo import RENDER_MODES, observation_space, render_text
from .table import Table

ILLEGAL_CHOICES = ("lose", "raise")
RANDOM_SEAT = "random"
MAX_DEALS = 100  # new deals tried at reset when bots alone finish a game before the learner acts


class MatanuiEnv(gymnasium.Env):
    metadata: ClassVar[dict[str, Any]] = {"render_modes": list(RENDER_MODES), "render_fps": 1}

    def __init__(self, game: str = "reconstruct", seat: int | str = 0,
                 opponents: str | Sequence[str] = "heuristic", players: int | None = None,
                 characters: Sequence[str] | None = None,
                 options: Mapping[str, Any] | None = None, illegal: str = "lose",
                 render_mode: str | None = None, encoding: str = DEFAULT_VARIANT) -> None:
        """`opponents`: one opponent for every other seat, or a list of one per other seat in
        seat order: an agent name (random, heuristic, hard, hard@SECONDS, ismcts@N),
        MODULE:CALLABLE, a policy file PATH.npz, an Agent, or a callable policy(observation,
        mask) -> action index (matanui.envs.opponents), filling the other seats in seat order.
        `seat` is the learning seat, or "random" for a new draw at every reset. `characters`
        fixes who sits where; by default each reset draws them from its seed. `encoding` is one
        of the game's observation encodings (e.g. Makuta's "compact")."""
        spec = games.get(game)
        self.encoding = encoding_for(spec, players or spec.min_players, encoding)
        count = self.encoding.players
        if seat != RANDOM_SEAT and (isinstance(seat, bool) or not isinstance(seat, int)
                                    or not 0 <= seat < count):
            raise MatanuiError(f'seat must be 0 to {count - 1} or "{RANDOM_SEAT}", not {seat!r}')
        one = isinstance(opponents, str | Agent) or callable(opponents) or not isinstance(opponents, Sequence)
        others = [opponents] * (count - 1) if one else list(opponents)
        if len(others) != count - 1:
            raise MatanuiError(f"give one opponent for every other seat or one per other seat "
                               f"({count - 1}), not {len(others)}")
        if illegal not in ILLEGAL_CHOICES:
            raise MatanuiError(f"illegal must be one of {', '.join(ILLEGAL_CHOICES)}, not {illegal!r}")
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise MatanuiError(f"render_mode must be one of {', '.join(RENDER_MODES)} or None, "
                               f"not {render_mode!r}")
        self.random_seat = seat == RANDOM_SEAT
        self.others = others
        self.characters = list(characters) if characters is not None else None
        self.options = dict(options or {})
        self.illegal = illegal
        self.render_mode = render_mode
        self.observation_space = observation_space(self.encoding.observation_size + self.encoding.memory_size,
                                                   len(self.encoding.actions))
        self.action_space = spaces.Discrete(len(self.encoding.actions))
        self.table = Table.deal(self.encoding, 0, self.characters, self.options)  # bad settings fail now
        # Bad opponents fail now too; files and modules are read once, names made anew each deal.
        self.resolved: list[Opponent] = [resolve(spec, self.table, 0) for spec in others]
        self._sit(0 if self.random_seat else int(seat))
        self.finished = False

    def _sit(self, seat: int) -> None:
        """Seat the learner at `seat` and the opponents at the other seats in seat order."""
        self.seat = seat
        self.opponents = dict(zip([s for s in range(self.encoding.players) if s != seat], self.others,
                                  strict=True))
        self.bots: dict[int, Opponent] = dict(zip(self.opponents, self.resolved, strict=True))

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        super().reset(seed=seed)
        if self.random_seat:
            self._sit(int(self.np_random.integers(self.encoding.players)))
        for _ in range(MAX_DEALS):
            game_seed = int(self.np_random.integers(2**31))
            self.table = Table.deal(self.encoding, game_seed, self.characters, self.options)
            self.bots = {s: resolve(spec, self.table, game_seed * 16 + s) if is_agent_name(spec)
                         else self.bots[s] for s, spec in self.opponents.items()}
            self._let_bots_play()
            if not self.table.state.is_over:
                self.finished = False
                return self._observation(), self._info()
        raise MatanuiError(f"in {MAX_DEALS} deals the bots always finished before seat {self.seat} "
                           "had a decision")

    def step(self, action: int) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        if self.finished:
            raise MatanuiError("the episode is over: call reset() before step()")
        try:
            self.table.play(int(action))
        except IllegalAction as error:
            if self.illegal == "raise":
                raise
            self.finished = True
            return self._observation(), -1.0, True, False, {**self._info(), "illegal_action": str(error)}
        self._let_bots_play()
        state = self.table.state
        self.finished = state.is_over
        reward = state.returns()[self.seat] if state.is_over else 0.0
        return self._observation(), reward, state.is_over, False, self._info()

    def action_masks(self) -> np.ndarray:
        """The legal actions now, as a 0/1 array (for MaskablePPO)."""
        return self._observation()["action_mask"]

    def _let_bots_play(self) -> None:
        state = self.table.state
        while not state.is_over and state.current_player != self.seat:
            seat = state.current_player
            self.table.play_id(self.bots[seat].act(self.table, seat))

    def _observation(self) -> dict[str, np.ndarray]:
        table = self.table
        deciding = not self.finished and not table.state.is_over
        mask = table.mask() if deciding else np.zeros(len(self.encoding.actions), np.int8)
        return {"observation": table.features(self.seat), "action_mask": mask}

    def _info(self) -> dict[str, Any]:
        state = self.table.state
        return {"seat": self.seat, "characters": list(state.players), "winners": list(state.winners)}

    def render(self) -> str | None:
        """The public view as text in "ansi" mode (None without a render mode)."""
        return render_text(self.table) if self.render_mode == "ansi" else None


def env(game: str = "reconstruct", **settings: Any) -> MatanuiEnv:
    return MatanuiEnv(game, **settings)


def register_all() -> None:
    """Register `matanui/<game>-v0` for every game with an encoding; a game with a batched
    engine gets a vector entry point too (matanui.envs.vector, for gymnasium.make_vec)."""
    batched = batched_names()
    for name in games.names():
        env_id = f"matanui/{name}-v0"
        if env_id not in gymnasium.registry and has_encoding(name):
            vector = "matanui.envs.vector:MatanuiVectorEnv" if name in batched else None
            gymnasium.register(id=env_id, entry_point="matanui.envs.gymnasium:MatanuiEnv",
                               vector_entry_point=vector, kwargs={"game": name})


register_all()
