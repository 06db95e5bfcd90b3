"""The games as PettingZoo AEC environments, one agent per seat, with action masks.

    from matanui.envs.pettingzoo import env
    e = env("reconstruct")
    e.reset(seed=1)
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        action = None if terminated or truncated else e.action_space(agent).sample(obs["action_mask"])
        e.step(action)

Agents are `player_0`, `player_1`, ... in seat order. The agent to act is the seat that must
decide now, which is sometimes not the turn player (a player answering with a stop card).
Each observation is a dict: `observation`, the seat's information-state tensor (its encoded
observation and its memory, see matanui.envs.encoding), and `action_mask`, 1 for each legal
action of the acting agent (all zeros for the others). Rewards come at the end: +1 to each
winner, -1 to the others, 0 to all in a draw (the turn limit).

`env()` wraps the raw environment as PettingZoo's classic games are wrapped: an illegal
action ends the game with -1 for the agent that chose it. `raw_env` raises IllegalAction
instead, leaving the game unchanged.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from rich.text import Text

from matanui import games
from matanui.engine import MatanuiError

from .encoding import DEFAULT_VARIANT, encoding_for
from .table import Table

RENDER_MODES = ("ansi",)


def observation_space(size: int, actions: int) -> spaces.Dict:
    return spaces.Dict({
        "observation": spaces.Box(0.0, 1.0, (size,), np.float32),
        "action_mask": spaces.Box(0, 1, (actions,), np.int8),
    })


def render_text(table: Table) -> str:
    """The public view as plain text, from the game's own terminal rendering."""
    game = table.state.game
    render = games.renderer(game.name).render
    return Text.from_markup(render(game, table.state.observation(None))).plain


class raw_env(AECEnv):
    def __init__(self, game: str = "reconstruct", players: int | None = None,
                 characters: Sequence[str] | None = None, options: Mapping[str, Any] | None = None,
                 render_mode: str | None = None, encoding: str = DEFAULT_VARIANT) -> None:
        """`characters` fixes who sits where; by default each reset draws them from its seed.
        `options` are the game's options (see `matanui games`); `encoding` one of the game's
        observation encodings (`matanui.envs.encoding.encoding_variants`, e.g. Makuta's
        "compact")."""
        super().__init__()
        spec = games.get(game)
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise MatanuiError(f"render_mode must be one of {', '.join(RENDER_MODES)} or None, "
                               f"not {render_mode!r}")
        self.encoding = encoding_for(spec, players or spec.min_players, encoding)
        self.characters = list(characters) if characters is not None else None
        self.options = dict(options or {})
        self.render_mode = render_mode
        self.metadata = {"render_modes": list(RENDER_MODES), "name": f"matanui_{game}_v0",
                         "is_parallelizable": False}
        self.possible_agents = [f"player_{seat}" for seat in range(self.encoding.players)]
        size = self.encoding.observation_size + self.encoding.memory_size
        self.observation_spaces = {a: observation_space(size, len(self.encoding.actions))
                                   for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(len(self.encoding.actions)) for a in self.possible_agents}
        self._seeds = random.Random()
        # A first game, so that bad characters or options fail here, and attributes exist.
        Table.deal(self.encoding, 0, self.characters, self.options)

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game. The same seed gives the same characters, deal and game."""
        if seed is not None:
            self._seeds = random.Random(seed)
        self.table = Table.deal(self.encoding, self._seeds.randrange(2**31), self.characters, self.options)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.agents[self.table.state.current_player]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self.possible_agents.index(agent)
        table = self.table
        acting = agent == self.agent_selection and not table.state.is_over
        mask = table.mask() if acting else np.zeros(len(self.encoding.actions), np.int8)
        return {"observation": table.features(seat), "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise MatanuiError(f"{agent} must choose an action; None is only for a finished agent")
        state = self.table.state
        self.table.play(int(action))
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if state.is_over:
            self.rewards = dict(zip(self.agents, state.returns(), strict=True))
            self.terminations = dict.fromkeys(self.agents, True)
            self.infos = {a: {"winners": list(state.winners)} for a in self.agents}
        else:
            self.agent_selection = self.agents[state.current_player]
        self._accumulate_rewards()

    def render(self) -> str | None:
        """The public view as text in "ansi" mode (None without a render mode)."""
        if self.render_mode is None:
            return None
        return render_text(self.table)

    def close(self) -> None:
        """Nothing to release: the game lives in this process."""


def env(game: str = "reconstruct", **settings: Any) -> AECEnv:
    """The AEC environment, wrapped as PettingZoo's classic games are: order enforced,
    actions checked to be in range, an illegal action ends the game with -1 to its agent."""
    wrapped: AECEnv = raw_env(game, **settings)
    wrapped = wrappers.TerminateIllegalWrapper(wrapped, illegal_reward=-1)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)
