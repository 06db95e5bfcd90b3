"""Chances of winning judged from one seat's view: hints while playing, and the analysis of a
finished game, decision by decision (as lichess marks a chess game, for games with hidden
cards and dice).

Everything here reads only what the judged seat could know at that moment: a `SeatView` of
the position, searched by information-set MCTS (matanui.ai.ismcts), which samples the hidden
cards from that view alone. Two games that differ only in what the seat cannot see get the
same estimates, move for move (tests/ai/test_analysis.py); hindsight never enters.

A chance is the expected score of the seat choosing: its mean return in the search's
playouts, rescaled from -1..+1 to 0..1 (a draw counts half), then put through the game's
recalibration map (matanui.ai.recalibration), fitted so that a stated 70% is won about 70
times in a hundred. The position's chance is that of
the search's choice; an action's is that of its own subtree. Each decision is marked by the
chance the move played lost against the best one, with the thresholds lichess uses for its
win-percentage marks (docs/ai.md, "Hints and analysis").
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from matanui.engine import Game, MatanuiError, Record, State
from matanui.engine.record import replay

from .base import SeatView
from .heuristics import heuristics
from .ismcts import ISMCTSAgent, Node
from .recalibration import calibrated
from .registry import make_agent

# Iterations of the search behind an estimate: enough that a position's chance settles to a
# few points (docs/ai.md measures its calibration), few enough that a game's analysis runs in
# seconds a decision on one core.
ANALYSIS_ITERATIONS = 400
# An action's chance rests on its own search where the main one tried it fewer times than
# this: a move the search thinks poor gets few playouts, too few to say how poor.
LEAST_VISITS = 100
# Chances closer than this are within the search's noise: a hint calls the moves about as good.
CLOSE = 0.05
# Marks by chance lost against the best move, as lichess marks win-percentage drops.
MARKS = (("blunder", 0.30), ("mistake", 0.20), ("inaccuracy", 0.10))


@dataclass(frozen=True)
class Estimate:
    """One seat's chances at one decision: for each legal action the search tried, its chance
    of winning after that action and how many playouts it rests on."""

    seat: int
    chances: dict[str, float]
    visits: dict[str, int]

    @property
    def best(self) -> str:
        """The action the search would play: the one it tried most (ties: the higher chance)."""
        return max(self.visits, key=lambda action: (self.visits[action], self.chances[action]))

    @property
    def chance(self) -> float:
        """The position's chance with the best play found."""
        return self.chances[self.best]

    def runner_up(self) -> str | None:
        """The most tried action after the best (None: there is only one)."""
        others = [action for action in self.visits if action != self.best]
        return max(others, key=lambda action: (self.visits[action], self.chances[action]), default=None)


def searcher(game: str, seed: int, iterations: int = ANALYSIS_ITERATIONS) -> ISMCTSAgent:
    """The search that estimates chances in `game`: the game's own search settings (its
    heuristic's playouts and evaluator), an iteration budget so an estimate depends on the
    seed and the view alone, never on the machine's load, and no early stop, so every
    estimate rests on the whole budget."""
    agent = make_agent(f"ismcts@{iterations}", game, seed)
    assert isinstance(agent, ISMCTSAgent)
    agent.stop_when_settled = False
    return agent


def estimate(view: SeatView, seed: int = 0, iterations: int = ANALYSIS_ITERATIONS,
             raw: bool = False) -> Estimate:
    """The chances of the seat `view` belongs to, searched from that view alone, through the
    game's recalibration map (`raw`: the search's own, to fit that map on); MatanuiError
    when that seat has no decision to take. Every legal action is tried (the budget is at
    least twice their number), so each has a chance, however poor."""
    actions = view.legal_actions()
    if not actions or view.observation().get("current_player") != view.seat:
        raise MatanuiError(f"player {view.seat + 1} has no decision to take now")
    root = searcher(view.game.name, seed, max(iterations, 2 * len(actions))).search(view)
    tried = {action: child for action, child in root.children.items() if child.visits}
    game = view.game.name
    chances = {action: _chance(game, child, raw) for action, child in tried.items()}
    return Estimate(view.seat, chances, {action: child.visits for action, child in tried.items()})


# -- hints ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Hint:
    """What a strong player would do here, and why, in the game's words."""

    action: str
    words: str
    reason: str
    chance: float


def hint(view: SeatView, seed: int = 0, iterations: int = ANALYSIS_ITERATIONS) -> Hint:
    """The move the search finds best for the seat of `view`, with a plain reason: the game's
    own (its heuristics' `explain(view, action)`, where it has one and finds words),
    else the chances that set it apart from the next best."""
    found = estimate(view, seed, iterations)
    best = found.best
    reason = _explainer(view.game.name)(view, best)
    if reason is None:
        reason = _compared(view, found)
    return Hint(best, view.describe(best), reason, found.chance)


def _explainer(game: str) -> Callable[[SeatView, str], str | None]:
    kit = heuristics(game)
    return kit.explain if kit and kit.explain else lambda view, action: None


def _compared(view: SeatView, found: Estimate) -> str:
    """The reason only the chances give: how much more often the move wins than the next best
    (the hint's own chance is shown beside it), or that the two are about as good."""
    other = found.runner_up()
    if other is None:
        return "It is the only move."
    margin, words = found.chance - found.chances[other], view.describe(other)
    words = words[:1].lower() + words[1:].rstrip(".")  # it follows a comma or a colon and ends the sentence
    if margin < CLOSE:
        return f"It and the next best, {words}, are about as good here."
    return f"It wins about {round(margin * 100)} more games in a hundred than the next best: {words}."


def percent(chance: float) -> str:
    return f"{round(chance * 100)}%"


# -- the analysis of a finished game ------------------------------------------------------


@dataclass(frozen=True)
class Judged:
    """One decision of a game, judged from the deciding seat's view then."""

    number: int  # the action's place in the record, from 1
    seat: int
    played: str
    words: str  # the action played, in the game's words
    best: str
    best_words: str
    before: float  # the position's chance before the move (with the best play found)
    after: float  # the chance after the move played
    forced: bool  # the only legal move: nothing to judge

    @property
    def lost(self) -> float:
        return max(0.0, self.before - self.after)

    @property
    def mark(self) -> str | None:
        if self.forced or self.played == self.best:
            return None
        lost = round(self.lost, 6)  # 0.6 - 0.5 is 0.0999...: a tenth lost is an inaccuracy
        return next((name for name, threshold in MARKS if lost >= threshold), None)


def decisions(record: Record, game: Game | None = None) -> Iterator[tuple[int, State]]:
    """Each decision a seat took in the game: the action's place in the record (from 1) and
    the state just before it. Actions the rules take by themselves are not decisions."""
    state = replay(record, 0, game=game)
    for number, action in enumerate(record.actions, start=1):
        if state.current_player is not None and state.automatic_action() is None:
            yield number, state.clone()
        state.apply(action)


def analyse(record: Record, game: Game | None = None, seed: int = 0,
            iterations: int = ANALYSIS_ITERATIONS) -> Iterator[Judged]:
    """Every decision of a finished (or unfinished) game, judged in order: a generator, so a
    caller shows each as it comes (a long game's analysis fills in rather than keeps one
    waiting). The same record, seed and budget give the same judgements."""
    for number, state in decisions(record, game):
        yield judge(state, record.actions[number - 1], seed + number, iterations)


def judge(state: State, played: str, seed: int = 0, iterations: int = ANALYSIS_ITERATIONS) -> Judged:
    """The decision `played` at `state`, judged from the deciding seat's view there."""
    seat = state.current_player
    view = SeatView(state, seat)
    found = estimate(view, seed, iterations)
    after = found.chances[played]
    if found.visits[played] < LEAST_VISITS:
        after = chance_of(view, played, seed, iterations)
    return Judged(len(state.history) + 1, seat, played, view.describe(played), found.best,
                  view.describe(found.best), found.chance, after, forced=len(found.chances) == 1)


def chance_of(view: SeatView, action: str, seed: int = 0, iterations: int = ANALYSIS_ITERATIONS) -> float:
    """The chance after `action`, searched with that action alone tried at the root."""
    root = searcher(view.game.name, seed, iterations).search(view, only=action)
    return _chance(view.game.name, root.children[action], raw=False)


def _chance(game: str, child: Node, raw: bool) -> float:
    """A search node's mean return for the seat choosing it, as a chance (0 to 1)."""
    chance = (child.total / child.visits + 1) / 2
    return chance if raw else calibrated(game, chance)


def turning_points(judged: list[Judged], count: int = 3) -> list[Judged]:
    """The decisions where a seat's chance moved most since its decision before (by the moves
    of everyone between, and the dice and cards): the game's turning points, in game order."""
    swings: list[tuple[float, Judged]] = []
    last: dict[int, float] = {}
    for decision in judged:
        if decision.seat in last:
            swings.append((abs(decision.before - last[decision.seat]), decision))
        last[decision.seat] = decision.after
    biggest = sorted(swings, key=lambda swing: -swing[0])[:count]
    return sorted((decision for _, decision in biggest), key=lambda decision: decision.number)
