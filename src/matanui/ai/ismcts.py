"""Information-set Monte Carlo tree search (single-observer ISMCTS, Cowling, Powley and
Whitehouse 2012), one implementation for every game.

Each iteration samples a full state from the searcher's own view (`SeatView.determinize`,
weighted by the game's opponent model where it has one: matanui.ai.inference),
then walks one shared tree keyed by action ids: at every node only the actions legal in that
sample are candidates, and UCB uses how often each child was *available* rather than the
parent's visits. A random playout finishes the sample; every node on the path is credited
with the return of the seat that chose its action. The true hidden state is never read.

Long games (Makuta runs to hundreds of steps) cut playouts short: after `rollout_limit`
steps an `evaluator` (the game's own estimate of each seat's chances, from the sampled
state) stands in for the result.

A `prior` (a trained policy's probabilities over the searcher's legal actions, from its own
view) biases the root: untried actions are tried in the order it ranks them, and each child's
score gains `prior_weight * P(action) / (visits + 1)`, a bias that fades as the search
gathers evidence (progressive bias, Chaslot et al. 2008).

A search stops before its budget once the most visited action leads by more visits than the
budget has iterations left, since nothing after could change the choice; obvious moves then
cost a fraction of the budget.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping

from matanui.engine import State

from .base import Agent, SeatView
from .inference import Likelihood, sampler

DEFAULT_EXPLORATION = 0.7
DEFAULT_PRIOR_WEIGHT = 1.0
DEFAULT_ROLLOUT_LIMIT = 2000
SETTLED_CHECK_EVERY = 16  # iterations between checks whether the choice can still change


class Node:
    __slots__ = ("available", "children", "seat", "total", "visits")

    def __init__(self, seat: int | None) -> None:
        self.seat = seat  # the seat whose action led here (None at the root)
        self.children: dict[str, Node] = {}
        self.visits = 0
        self.available = 0
        self.total = 0.0


class ISMCTSAgent(Agent):
    """Search with a budget of iterations, of seconds per move, or both (whichever ends
    first). With an iteration budget alone the choice is fully determined by the seed."""

    name = "ismcts"

    def __init__(self, seed: int = 0, *, iterations: int | None = None, seconds: float | None = None,
                 exploration: float = DEFAULT_EXPLORATION,
                 rollout_limit: int = DEFAULT_ROLLOUT_LIMIT,
                 rollout_agent: Agent | None = None,
                 evaluator: Callable[[State], list[float]] | None = None,
                 anchor: Agent | None = None, anchor_margin: float = 0.0,
                 inference: Callable[[SeatView], Likelihood | None] | None = None,
                 prior: Callable[[SeatView], Mapping[str, float]] | None = None,
                 prior_weight: float = DEFAULT_PRIOR_WEIGHT) -> None:
        super().__init__(seed)
        self.prior = prior
        self.prior_weight = prior_weight
        self.inference = inference
        self.anchor = anchor
        self.anchor_margin = anchor_margin
        self.rollout_agent = rollout_agent
        self.evaluator = evaluator
        if iterations is None and seconds is None:
            iterations = 1000
        self.iterations = iterations
        self.seconds = seconds
        self.exploration = exploration
        self.rollout_limit = rollout_limit
        self.stop_when_settled = True  # False: always the whole budget (estimates of chances)
        self.last_iterations = 0  # for reports: iterations run for the latest move
        self.last_depth = 0  # for reports: the deepest tree node the latest move's search reached

    def act(self, view: SeatView) -> str:
        actions = view.legal_actions()
        if len(actions) == 1:
            self.last_iterations = self.last_depth = 0
            return actions[0]
        root = self.search(view)
        best = max(actions, key=lambda a: (root.children[a].visits if a in root.children else -1,
                                           root.children[a].total if a in root.children else 0.0))
        return best if self.anchor is None else self._overrule(view, root, best)

    def search(self, view: SeatView, only: str | None = None) -> Node:
        """The search tree's root after the budget: each child is a legal action, with how often
        it was tried and the sum of the returns it led to for the seat choosing it. With `only`,
        that action is the one tried at the root (to judge a move the search would not play)."""
        root = Node(None)
        priors = self.prior(view) if self.prior is not None and only is None else None
        determinize = sampler(view, self.inference)
        start = time.perf_counter()
        deadline = None if self.seconds is None else start + self.seconds
        count = depth = 0
        while True:
            if self.iterations is not None and count >= self.iterations:
                break
            if deadline is not None and count and time.perf_counter() >= deadline:
                break
            depth = max(depth, self._iterate(root, determinize(self.rng), only, priors))
            count += 1
            if (self.stop_when_settled and count % SETTLED_CHECK_EVERY == 0
                    and self._settled(root, count, start, deadline)):
                break
        self.last_iterations, self.last_depth = count, depth
        return root

    def _overrule(self, view: SeatView, root: Node, best: str) -> str:
        """The anchor's (the game's heuristic's) move, unless the search found one whose mean
        return beats it by more than `anchor_margin`: where the search's estimates are noisy
        (short playouts, a rough evaluator) a consistent plan beats a wandering one."""
        planned = self.anchor.act(view)
        mine, theirs = root.children.get(best), root.children.get(planned)
        if planned == best or mine is None or theirs is None or not theirs.visits:
            return best
        margin = mine.total / mine.visits - theirs.total / theirs.visits
        return best if margin > self.anchor_margin else planned

    def _settled(self, root: Node, count: int, start: float, deadline: float | None) -> bool:
        """True when the most visited action leads the runner-up by more visits than the budget
        has iterations left: the rest of the search could not change the choice, so stop.
        With an iteration budget the decision is exactly the full budget's; with a time budget
        the iterations left are estimated from the rate so far."""
        left = math.inf if self.iterations is None else self.iterations - count
        if deadline is not None:
            now = time.perf_counter()
            left = min(left, (deadline - now) * count / max(now - start, 1e-9))
        first = second = 0
        for child in root.children.values():
            if child.visits > first:
                first, second = child.visits, first
            elif child.visits > second:
                second = child.visits
        return first - second > left

    def _iterate(self, root: Node, state: State, only: str | None = None,
                 priors: Mapping[str, float] | None = None) -> int:
        """One iteration on one sampled state; returns the depth its tree walk reached.
        `priors` (None: none) bias the choice at the root."""
        rng = self.rng
        path: list[Node] = []
        node = root
        c, weight = self.exploration, self.prior_weight
        # Selection and expansion.
        while not state.is_over:
            actions = [only] if only is not None and node is root else state.legal_actions()
            bias = priors if node is root else None
            children = node.children
            untried = [a for a in actions if a not in children]
            for action in actions:
                child = children.get(action)
                if child is not None:
                    child.available += 1
            if untried:
                if bias is None:
                    action = untried[rng.randrange(len(untried))]
                else:
                    action = max(untried, key=lambda a: bias.get(a, 0.0))
                child = children[action] = Node(state.current_player)
                child.available = 1
                state.apply(action)
                path.append(child)
                break
            best_action, best_score = actions[0], -math.inf
            for action in actions:
                child = children[action]
                score = child.total / child.visits + c * math.sqrt(math.log(child.available) / child.visits)
                if bias is not None:
                    score += weight * bias.get(action, 0.0) / (child.visits + 1)
                if score > best_score:
                    best_action, best_score = action, score
            node = children[best_action]
            state.apply(best_action)
            path.append(node)
        # Playout.
        steps = 0
        legal, apply = state.legal_actions, state.apply
        guide = self.rollout_agent
        while not state.is_over and steps < self.rollout_limit:
            if guide is not None:
                apply(guide.act(SeatView(state, state.current_player)))
            else:
                options = legal()
                apply(options[rng.randrange(len(options))])
            steps += 1
        if state.is_over or self.evaluator is None:
            returns = state.returns()
        else:
            returns = self.evaluator(state)
        for visited in path:
            visited.visits += 1
            visited.total += returns[visited.seat]
        return len(path)
