"""Batch self-play for balance analysis: `matanui simulate`.

A `Job` names what to play (game, agents per seat, number of games, first seed, options,
number of players). Game `i` of a job is a pure function of the job and `i`: its seed is
`job.seed + i`, its seating comes from `Job.seating(i)`, and its agents are seeded from the
game seed. That is what makes results independent of the backend (one process, a process
pool or a Ray cluster) and lets an interrupted run resume: the store keeps finished games by
index, and a resumed run plays only the indices it lacks.

Seating: every ordered arrangement of distinct characters (each character pairing in each
seat order) is used in turn, and when the seats have different agents the agents rotate
through the seats too, game by game, so neither seat nor character favours an agent.
"""

from __future__ import annotations

import functools
import hashlib
import json
import math
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from matanui import games
from matanui.ai import make_agent
from matanui.ai.play import moves
from matanui.engine import Game, MatanuiError
from matanui.games import packs

DEFAULT_CHUNK = 200

# Event fields that name a card, a space or a token, and the kind each is counted as. The
# values seen during the final turn of a won game are what "decided" it.
DECIDING_FIELDS = {"card": "card", "token": "token", "space": "space", "to": "space", "gate": "space"}


class SimulationError(MatanuiError):
    """A simulation job or results file that cannot be used as asked."""


@dataclass(frozen=True)
class Job:
    game: str
    agents: tuple[str, ...]  # one agent spec per seat
    games: int
    seed: int = 0
    players: int = 2
    options: tuple[tuple[str, Any], ...] = ()
    data: str | None = None  # a data pack's folder (None: the built-in data)
    # The identity a results file recorded for this job (from_json): a report reads it rather
    # than the data as it is now, so it needs no pack folder and names the data played.
    recorded: dict[str, Any] | None = field(default=None, compare=False, hash=False, repr=False)

    @classmethod
    def build(cls, game: str, agents: Sequence[str], games_count: int, seed: int = 0,
              players: int | None = None, options: Mapping[str, Any] | None = None,
              data: str | None = None) -> Job:
        """A checked job: every problem is reported with what is allowed, before anything runs."""
        if game not in games.names():
            raise SimulationError(games.unknown(game))
        spec = game_on(game, data)
        count = spec.min_players if players is None else players
        if not spec.min_players <= count <= spec.max_players:
            raise SimulationError(f"{game} is for {spec.players_words()} players, not {count}")
        agents = [a.strip() for a in agents if a.strip()]
        if len(agents) == 1:
            agents = agents * count
        if len(agents) != count:
            raise SimulationError(f"give one agent for all seats or one per seat ({count}), not "
                                  f"{len(agents)}: e.g. --agents heuristic or --agents "
                                  + ",".join(["heuristic"] * count))
        for name in agents:
            make_agent(name, game)  # raises, naming the agents there are
        if isinstance(games_count, bool) or not isinstance(games_count, int) or games_count < 1:
            raise SimulationError(f"the number of games must be a whole number >= 1, not {games_count!r}")
        frozen = tuple(sorted((options or {}).items()))
        job = cls(game, tuple(agents), games_count, seed, count, frozen, data)
        spec.new_game(seed, job.seating(0)[0], dict(frozen))  # bad options fail here, clearly
        return job

    # -- seating -----------------------------------------------------------------------

    @property
    def arrangements(self) -> int:
        """How many ordered seatings of distinct characters there are."""
        return math.perm(len(self.spec().characters()), self.players)

    def rotations(self) -> list[tuple[str, ...]]:
        """The distinct cyclic shifts of the agents over the seats."""
        agents = self.agents
        shifts = [agents[i:] + agents[:i] for i in range(len(agents))]
        return list(dict.fromkeys(shifts))

    def seating(self, index: int) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """(characters, agents) in seat order for game `index`."""
        rotations = self.rotations()
        agents = rotations[index % len(rotations)]
        arrangement = (index // len(rotations)) % self.arrangements
        return nth_arrangement(self.spec().characters(), self.players, arrangement), agents

    def spec(self) -> Game:
        """The game this job plays: on its data pack when it has one."""
        return game_on(self.game, self.data)

    # -- identity ----------------------------------------------------------------------

    def identity(self) -> dict[str, Any]:
        """What must match for stored games to belong to this job (all but the count): the
        settings, and the game's rules version and data files, so that a run resumed after
        the game's data changed is refused instead of mixing two games in one file. On a data
        pack, `data` is the pack's hash and `data_pack` its name."""
        if self.recorded is not None:
            return dict(self.recorded)
        spec = self.spec()
        identity = {"game": self.game, "agents": list(self.agents), "seed": self.seed,
                    "players": self.players, "options": dict(self.options),
                    "rules_version": spec.rules_version,
                    "data": spec.data["hash"] if spec.data else data_fingerprint(self.game)}
        if spec.data:
            identity["data_pack"] = spec.data["name"]
        return identity

    def to_json(self) -> str:
        return json.dumps({**self.identity(), "games": self.games, "data_folder": self.data},
                          sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> Job:
        data = json.loads(text)
        recorded = {key: value for key, value in data.items() if key not in ("games", "data_folder")}
        return cls(data["game"], tuple(data["agents"]), data["games"], data["seed"], data["players"],
                   tuple(sorted(data["options"].items())), data.get("data_folder"), recorded)


def data_words(identity: Mapping[str, Any]) -> str:
    """Which data a job's identity says it ran on, in words for reports."""
    if identity.get("data_pack"):
        return f'data pack "{identity["data_pack"]}" (hash {identity["data"]})'
    return f"built-in data (fingerprint {identity.get('data', '?')})"


@functools.cache
def game_on(game: str, data: str | None) -> Game:
    """The game on a data pack's folder, or built in (loaded once per process: workers play
    many games of one job)."""
    return packs.game_for(game, data)


def data_fingerprint(game: str) -> str:
    """A digest of the game package's data files (data/*.toml, where every game keeps them)."""
    package = Path(sys.modules[type(games.get(game)).__module__].__file__).parent
    digest = hashlib.blake2b(digest_size=8)
    for path in sorted((package / "data").glob("*")):
        if path.is_file():
            digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def nth_arrangement(items: Sequence[str], k: int, n: int) -> tuple[str, ...]:
    """The n-th ordered choice of k distinct items, in lexicographic order of positions."""
    pool = list(items)
    chosen = []
    for position in range(k):
        block = math.perm(len(pool) - 1, k - position - 1)
        j, n = divmod(n, block)
        chosen.append(pool.pop(j))
    return tuple(chosen)


@dataclass(frozen=True)
class GameRow:
    """The stored outcome of one game of a job."""

    index: int
    seed: int
    characters: tuple[str, ...]
    agents: tuple[str, ...]
    first: int  # the seat that decided first
    winners: tuple[int, ...]
    steps: int
    turns: int | None
    deciders: dict[str, str | int] = field(default_factory=dict)  # kind -> card/space/token


def play_game(job: Job, index: int) -> GameRow:
    """Play game `index` of `job` to the end."""
    seed = job.seed + index
    characters, specs = job.seating(index)
    state = job.spec().new_game(seed, characters, dict(job.options))
    agents = [make_agent(spec, job.game, seed=seed * 16 + seat) for seat, spec in enumerate(specs)]
    first = state.current_player
    recent: dict[str, str | int] = {}
    tracked_turn: object = object()
    steps = 0
    turn = getattr(state, "turn", None)  # the turn each move was made in
    for _, _, events in moves(state, agents):
        if turn is None or turn != tracked_turn:
            recent, tracked_turn = {}, turn
        for event in events:
            for key, kind in DECIDING_FIELDS.items():
                value = event.fields.get(key)
                if isinstance(value, str | int) and not isinstance(value, bool):
                    recent[kind] = value
        steps += 1
        turn = getattr(state, "turn", None)
    return GameRow(index, seed, tuple(characters), tuple(specs), first, tuple(state.winners), steps,
                   getattr(state, "turn", None), recent if state.winners else {})


def play_chunk(job: Job, indices: Sequence[int]) -> list[GameRow]:
    """Play a batch of games (the unit of work a worker receives and a store commits)."""
    return [play_game(job, index) for index in indices]
