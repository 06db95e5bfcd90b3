"""A sensible Reconstruct player: build when you can, stop the opponent's last part, keep
remove cards for the opponent's next-to-last part, trade for what you lack."""

from __future__ import annotations

from matanui.ai.base import Agent, SeatView

PARTS = 7


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
        """A stop wastes the opponent's card and draws 2 instead of 1, so it is worth using;
        the last stop in hand is kept for the opponent's final parts."""
        stops = [a for a in actions if a.startswith("stop:")]
        if not stops:
            return "allow"
        pending = obs["pending"]
        if pending["effect"] == "add":
            if theirs >= PARTS - 1 - min(len(stops) - 1, 2):
                return stops[0]
            return "allow"
        if mine >= PARTS - 2:
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
