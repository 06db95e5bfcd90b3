"""Race to ten: the players take turns adding 1 or 2 to a running total, and whoever brings
it to the target wins. The rules read their numbers from data/race.toml."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, Self

from matanui.engine import Game, State
from matanui.engine.arrangement import Spec, seat_number
from matanui.engine.data import EntryChecker, load_toml

DATA = Path(__file__).with_name("data")


class RaceGame(Game):
    name, title = "race", "Race to ten"
    seating_words = "two runners from: {allowed}"

    def __init__(self, target: int, steps: tuple[int, ...]) -> None:
        self.target, self.steps = target, steps

    def characters(self) -> list[str]:
        return ["hare", "tortoise"]

    def character_name(self, character: str) -> str:
        return character.title()

    def options_schema(self) -> dict[str, Any]:
        return {}

    def arrangement_spec(self) -> Spec:
        return {"first_player": seat_number("0 or 1 (otherwise seat 0 starts)")}


class RaceState(State):
    game: RaceGame

    total: int
    turn_seat: int
    winner: int | None  # who reached the target, or the one left after a forfeit

    def _set_up(self, arrangement: Mapping[str, Any]) -> None:
        self.total, self.turn_seat, self.winner = 0, arrangement.get("first_player", 0), None
        self.emit("setup", f"The race to {self.game.target} begins.", {"first_player": self.turn_seat})

    @property
    def current_player(self) -> int | None:
        return None if self.is_over else self.turn_seat

    @property
    def is_over(self) -> bool:
        return self.winner is not None

    @property
    def winners(self) -> list[int]:
        return [] if self.winner is None else [self.winner]

    def _finish(self, winners: list[int]) -> None:
        self.winner = winners[0] if winners else None  # one runner left after a forfeit (none: aborted)

    def _generate_moves(self) -> dict[str, Any]:
        return {f"add:{n}": n for n in self.game.steps}

    def _perform(self, n: int) -> None:
        runner = self.turn_seat
        self.total += n
        self.turn_seat = 1 - runner
        self.emit("add", f"{self.names[runner]} adds {n}.", {"n": n})
        if self.total >= self.game.target:
            self.winner = runner

    def describe(self, action: str) -> str:
        return f"Add {action[4:]}"

    def _observe(self, seat: int | None) -> dict[str, Any]:
        return {"total": self.total, "target": self.game.target, "to_move": self.current_player}

    def _determinize(self, seat: int, rng: Any) -> Self:
        return self.clone()  # nothing is hidden

    def audit(self) -> None:
        assert 0 <= self.total < self.game.target + max(self.game.steps)

    def _copy_into(self, other: Self) -> None:
        other.total, other.turn_seat, other.winner = self.total, self.turn_seat, self.winner


RaceGame.state_class = RaceState


def load_game(path: Path | None = None) -> RaceGame:
    """The race on data/race.toml, or on a data pack's copy of it."""
    path = path or DATA / "race.toml"
    check = EntryChecker(path.name, "race", load_toml(path).get("race", {}))
    check.only(("target", "steps"))
    check.provenance()
    steps = check.get("steps", list)
    if not steps or not all(type(n) is int and 1 <= n <= 9 for n in steps):
        check.fail("steps", "must list whole numbers from 1 to 9")
    return RaceGame(check.integer("target", 2, 100), tuple(steps))
