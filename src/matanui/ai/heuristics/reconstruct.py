"""A sensible Reconstruct player: build when you can, stop the opponent's last part, keep
remove cards for the opponent's next-to-last part, trade for what you lack."""

from __future__ import annotations

import itertools
import random

from matanui.ai.base import Agent, SeatView
from matanui.ai.heuristics import Heuristics
from matanui.ai.inference import Likelihood
from matanui.engine import State

PARTS = 7
# The opponent model for inference: the opponent answers a played card as the heuristic
# would this often (a guess, not a measurement: it lets other players' choices count too).
PLAYS_LIKE_HEURISTIC = 0.9


def would_stop(effect: str, mine: int, theirs: int, stops: int) -> bool:
    """Whether the heuristic answers a played card with a stop, holding `stops` stop cards,
    with `mine` parts built against the player's `theirs`. A stop wastes the opponent's card
    and draws 2 instead of 1, so it is worth using; the last stop in hand is kept for the
    opponent's final parts, the last two for their last two, and so on."""
    if stops < 1:
        return False
    if effect == "add":
        return theirs >= PARTS - 1 - min(stops - 1, 2)
    return mine >= PARTS - 2


class Heuristic(Agent):
    name = "heuristic"

    def act(self, view: SeatView) -> str:
        obs = view.observation()
        actions = view.legal_actions()
        me = view.seat
        mine = len(obs["built"][me])
        theirs = len(obs["built"][1 - me])
        phase = obs["phase"]
        if phase == "respond":
            return self._respond(obs, actions, mine, theirs)
        if phase == "start":
            return self._start(view, obs, actions)
        removes = [a for a in actions if a.startswith("remove:")]
        adds = [a for a in actions if a.startswith("add:")]
        if removes and theirs >= PARTS - 1:
            return self._pick(removes)
        if adds:
            return self._best_add(view, obs, adds)
        if removes and theirs >= PARTS - 2:
            return self._pick(removes)
        return "pass"

    def _respond(self, obs: dict, actions: list[str], mine: int, theirs: int) -> str:
        stops = [a for a in actions if a.startswith("stop:")]
        if stops and would_stop(obs["pending"]["effect"], mine, theirs, len(stops)):
            return stops[0]
        return "allow"

    def _best_add(self, view: SeatView, obs: dict, adds: list[str]) -> str:
        """Add the part that the fewest other cards in hand could add, keeping the flexible
        cards for later."""
        cards = view.game.deck.cards
        offers: dict[str, int] = {}
        for card in obs["hand"]:
            for part in cards[card].parts:
                pid = view.game.deck.parts[part].id
                offers[pid] = offers.get(pid, 0) + 1
        return min(adds, key=lambda a: (offers.get(a.split(":")[2], 0), self.rng.random()))

    def _start(self, view: SeatView, obs: dict, actions: list[str]) -> str:
        """Trade a card that cannot help for one that can; otherwise draw."""
        cards = view.game.deck.cards
        parts = view.game.deck.parts
        built_mine = set(obs["built"][view.seat])
        built_theirs = set(obs["built"][1 - view.seat])

        def useful(card_id: int) -> bool:
            card = cards[card_id]
            if card.kind == "stop":
                return True
            ids = {parts[p].id for p in card.parts}
            return bool(ids - built_mine) if card.kind == "add" else bool(ids & built_theirs)

        best = "draw"
        for action in actions:
            if action.startswith("trade:"):
                _, give, take = action.split(":")
                if not useful(int(give)) and useful(int(take)) and cards[int(take)].kind == "add":
                    best = action
                    break
        return best

    def _pick(self, actions: list[str]) -> str:
        return actions[self.rng.randrange(len(actions))]


def opponent_model(view: SeatView) -> Likelihood | None:
    """Inference from the opponent's answers (see matanui.ai.inference): each time they let
    a played card through where the heuristic, holding k or more stop cards, would have
    stopped it, they probably held fewer than k. The cards they held then and still hold
    now are some of their hand; which ones is unknown, so a candidate hand's cards are put
    in a random order of arrival and its oldest cards are taken for them. None when their
    answers so far say nothing."""
    facts = _allowed_answers(view)
    if not facts:
        return None
    stop_cards = frozenset(number for number, card in view.game.deck.cards.items() if card.kind == "stop")
    opponent = 1 - view.seat

    def likelihood(state: State, rng: random.Random) -> float:
        hand = state.observation(opponent)["hand"]
        order = rng.sample(hand, len(hand))
        weight = 1.0
        for held, need in facts:
            unlikely = sum(card in stop_cards for card in order[:held]) >= need
            weight *= 1 - PLAYS_LIKE_HEURISTIC if unlikely else PLAYS_LIKE_HEURISTIC
        return weight

    return likelihood


def _allowed_answers(view: SeatView) -> list[list[int]]:
    """[cards of that hand still held, stop cards that would have stopped it] for each
    opponent's `allow` that the heuristic would have answered with a stop given enough stop
    cards, read from the seat's observations. A card leaving their hand afterwards (played,
    stopped with, traded away) is counted as one of the old ones: the cautious guess."""
    seen = [*view.observation_history(), view.observation()]
    me, opponent = view.seat, 1 - view.seat
    facts: list[list[int]] = []
    for before, after in itertools.pairwise(seen):
        if before["current_player"] != opponent:
            continue
        phase = before["phase"]
        if phase == "respond":
            effect = before["pending"]["effect"]
            target = me if effect == "add" else opponent
            allowed = len(after["built"][target]) != len(before["built"][target])
            if allowed:
                need = _stops_needed(effect, len(before["built"][opponent]), len(before["built"][me]))
                if need is not None:
                    facts.append([before["hand_sizes"][opponent], need])
                continue
        elif phase == "play" and after["pending"] is None:
            continue  # a pass
        elif phase == "start" and after["current_player"] == opponent:
            continue  # a draw, not a trade
        for fact in facts:
            fact[0] = max(0, fact[0] - 1)
    return [fact for fact in facts if fact[0] > 0]


def _stops_needed(effect: str, mine: int, theirs: int) -> int | None:
    """The fewest stop cards with which the heuristic would have stopped this card."""
    return next((k for k in range(1, PARTS) if would_stop(effect, mine, theirs, k)), None)


def explain(view: SeatView, action: str) -> str | None:
    """Why `action` is good here, in the game's words, where a simple rule says it (a hint's
    reason: matanui.ai.analysis); None where only the chances can say."""
    obs = view.observation()
    me = view.seat
    mine, theirs = len(obs["built"][me]), len(obs["built"][1 - me])
    kind, _, rest = action.partition(":")
    pending = obs["pending"]
    if kind == "stop" and pending is not None:
        part = _part_name(pending["part"])
        if pending["effect"] == "add":
            if theirs == PARTS - 1:
                return f"Stop it: their {part} would be their seventh part, and they would win."
            return f"Stop it: their {part} would be their part {theirs + 1} of {PARTS}, and you draw 2 cards."
        return f"Stop it: you keep your {part}, and you draw 2 cards."
    if kind == "add":
        part = _part_name(rest.partition(":")[2])
        if mine == PARTS - 1:
            return f"Add your {part}: it is your seventh part, and you win."
        return None
    if kind == "remove" and theirs >= PARTS - 2:
        part = _part_name(rest.partition(":")[2])
        return f"Take their {part} away: they have {theirs} of the {PARTS} parts."
    return None


def _part_name(part_id: str) -> str:
    return part_id.replace("-", " ").title()


HEURISTICS = Heuristics(Heuristic, explain=explain, opponent_model=opponent_model)
