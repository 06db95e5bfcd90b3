"""One agent against a field: in a game of more than two players, the first agent plays one
seat and the second agent every other seat. Its win share is measured against the fair
share, 1 / players, the share of an agent no better than the field."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import asdict, dataclass

from matanui.engine import MatanuiError

from .match import game_on
from .report import per_agent_costs
from .stats import wilson_interval
from .tournament import GameOutcome, MatchSpec


def field_specs(game_name: str, agents: Sequence[str], players: int, games: int, seed: int = 0,
                options: dict | None = None, data: str | None = None, first: int = 0) -> list[MatchSpec]:
    """`games` games of `players` seats: the first agent sits in seat (game number mod
    players), the second in every other seat. The first agent's character rotates through
    every character, changing every `players` games, so each seat meets each character;
    the others' characters are drawn from the rest by the game's seed. `first` skips that
    many games of the schedule. MatanuiError says what is allowed when the game or the
    agents do not fit."""
    game = game_on(game_name, data)
    if not game.min_players <= players <= game.max_players:
        raise MatanuiError(f"--players: {game_name} is for {game.players_words()} players, not {players}")
    if len(set(agents)) != 2 or len(agents) != 2:
        raise MatanuiError(f"--players plays one agent against a field of another: --agents takes "
                           f"exactly two different agents, ONE,FIELD (e.g. ismcts@1100,heuristic), "
                           f"not {','.join(agents)}")
    hero, other = agents
    chars = game.characters()
    data_hash = game.data["hash"] if data else None
    frozen_options = tuple(sorted((options or {}).items()))
    specs = []
    for number in range(first, first + games):
        seat = number % players
        own = chars[(number // players) % len(chars)]
        rest = random.Random(seed + number).sample([c for c in chars if c != own], players - 1)
        characters = (*rest[:seat], own, *rest[seat:])
        seats = tuple(hero if s == seat else other for s in range(players))
        specs.append(MatchSpec(game_name, seats, characters, seed + number, frozen_options, data, data_hash))
    return specs


@dataclass(frozen=True)
class FieldResult:
    """The first agent's record against the field. A game won by k players together counts
    1/k of a win for each; a game with no winner (a draw, e.g. at the turn limit) counts
    nothing."""

    game: str
    agent: str
    field: str
    players: int
    games: int
    wins: float
    share: float
    interval95: tuple[float, float]
    fair_share: float
    per_seat: list[dict[str, float]]
    draws: int
    costs: dict[str, dict[str, float]]

    def to_dict(self) -> dict[str, object]:
        return asdict(self)


def credit(outcome: GameOutcome, agent: str) -> float:
    """`agent`'s share of the win: 1/k where it is one of k winners, else 0."""
    seat = outcome.agents.index(agent)
    return 1 / len(outcome.winners) if seat in outcome.winners else 0.0


def field_result(game: str, outcomes: Sequence[GameOutcome], agent: str, other: str,
                 players: int) -> FieldResult:
    """Summarize field games: the first agent's wins, share, Wilson interval and per seat."""
    seats = [{"seat": s, "games": 0, "wins": 0.0} for s in range(players)]
    wins = 0.0
    for outcome in outcomes:
        seat = outcome.agents.index(agent)
        won = credit(outcome, agent)
        wins += won
        seats[seat]["games"] += 1
        seats[seat]["wins"] += won
    for entry in seats:
        entry["share"] = entry["wins"] / entry["games"] if entry["games"] else 0.0
    games = len(outcomes)
    return FieldResult(
        game=game, agent=agent, field=other, players=players, games=games,
        wins=wins, share=wins / games if games else 0.0, interval95=wilson_interval(wins, games),
        fair_share=1 / players, per_seat=seats, draws=sum(1 for o in outcomes if not o.winners),
        costs=per_agent_costs(outcomes),
    )
