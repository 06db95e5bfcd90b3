"""Quest for Makuta as each seat sees it: the observation, what an action acts on, the
previews of laying a board, determinizing what a seat has not seen, and where every token
is (for audits and tests)."""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator
from typing import Any, Self

from matanui.engine.audit import one_place

from .components import CARD_KINDS, KIND_IDS, LOCK, RAHI
from .island import NO_SPACE, Island
from .moves import MOVE, PUT, RETURN, STEAL, TAKE
from .setup import PUBLIC, MakutaSetUp


class MakutaView(MakutaSetUp):
    """Observation, targets, previews, determinize and the audit of token places."""

    def _observe(self, seat: int | None) -> dict[str, Any]:
        bit = PUBLIC if seat is None else 1 << seat
        views, kinds, seen_by = self.game.views, self.game.kind, self.seen_by

        def face(t: int) -> str:
            return views[t] if seen_by[t] & bit else KIND_IDS[kinds[t]]

        names = self.island.names
        challenge = None
        if self.foe:
            challenge = {"target": self.foe, "strength": self.strength,
                         "space": names[self.land_node], "used": [face(t) for t in self.used],
                         "bonus": self.bonus, "roll": self.challenge_roll,
                         "die": self._die(self.turn_player)[0]}
        temple = None
        if self.island.makuta:
            segments = self.game.parts.segments
            temple = [segments[(g - self.temple) % len(segments)].colour
                      for g in range(len(segments))]
        return {
            "game": self.game.name,
            "seat": seat,
            "players": list(self.players),
            "turn": self.turn,
            "turn_limit": self.options["turn_limit"],
            "turn_player": self.turn_player,
            "current_player": self.current_player,
            "phase": self.phase,
            "boards": [list(p) for p in self.island.placed],
            "pile": len(self.pile),
            "placing": self.placing,
            # Where each legal choice puts something on the island, so that a board view can
            # draw the choices in place without knowing a rule: the space each step leads to,
            # and where each legal placement of the drawn board would lie (turn, x, y).
            "leads_to": {action: names[move[2]] for action, move in self._move_table().items()
                         if move[0] == "move"},
            "placements": {action: [rot, x, y] for action, (_, rot, _q, x, y) in self.placements.items()},
            "reach": [names[n] for n in self._reach()],
            "portals": self._portal_states(self.island, self.island.out),
            "pawns": [names[p] for p in self.pawns],
            "dice": [self._die(s)[0] for s in range(len(self.players))],
            "roll": self.move_roll,
            "steps_left": self.steps,
            "path": [names[p] for p in self.path],
            "tokens": {names[n]: [face(t) for t in ts] for n, ts in self.items.items()},
            "rahi": {names[n]: face(t) for n, t in self.rahi.items()},
            "under": {names[n]: [face(t) for t in ts] for n, ts in self.under.items() if ts},
            "locks": {names[n]: face(t) for n, t in self.locks.items()},
            "start": [face(t) for t in self.start],
            "waiting": [face(t) for t in self.queue],
            "cards": [{KIND_IDS[k]: [face(t) for t in card[k]] for k in CARD_KINDS}
                      for card in self.cards],
            "bags": {KIND_IDS[k]: len(bag) for k, bag in enumerate(self.bags)},
            "beaten": [views[t] for t in self.beaten],
            "temple": temple,
            "challenge": challenge,
            "returning": KIND_IDS[self.return_kind] if self.phase == RETURN else None,
            "victim": self.victim if self.phase in (STEAL, TAKE, PUT) else None,
            "is_over": self.is_over,
            "winners": self.winners,
        }

    def _reach(self) -> list[int]:
        """The spaces the steps left of this roll can reach (MAKUTA-MOVE-ORTHOGONAL), walking
        on from the pawn without coming back onto the path (MAKUTA-MOVE-NO-DOUBLE-BACK); for
        the board views to show. Empty when the turn player is not moving."""
        if self.phase != MOVE or not self.steps:
            return []
        adj, seen = self.island.adj, set(self.path)
        frontier = [self.pawns[self.turn_player]]
        found: list[int] = []
        for _ in range(self.steps):
            ahead = []
            for node in frontier:
                for d in range(4):
                    there = adj[4 * node + d]
                    if there != NO_SPACE and there not in seen:
                        seen.add(there)
                        ahead.append(there)
            found += ahead
            frontier = ahead
        return found

    @staticmethod
    def _portal_states(island: Island, portals: Iterable[int]) -> dict[str, str]:
        """Each portal as `joined` (to another board's), `open` (a board may still be laid
        beyond it) or `dead` (no board ever can: drawn closed)."""
        dead = island.dead_portals()
        return {island.names[n]: "joined" if n in island.joined else "dead" if n in dead
                else "open" for n in portals if n in island.out}

    def targets(self, action: str) -> dict[str, Any]:
        """What a legal action acts on: `{"space": "2,-3"}` for a step (where it leads), a
        stop, a levitation, a put, a lock turned over or a challenge at a gate;
        `{"placement": [rot, x, y], "portal": Q, "space": portal}` for laying a board (Q is
        the new board's portal, numbered from 1 as the words say, joined to the portal
        `space`); `{"seat": S, "kind": K, "slot": I, "token": face}` for a token of a
        collector card (its face as the deciding seat sees it); `{"token": face}` for a
        Kanohi or Turaga shown; `{"seat": S}` for the Toa an Akaku looks at."""
        move = self._move_table().get(action)
        if move is None:
            return {}
        kind, names = move[0], self.island.names
        if kind == "move":
            return {"space": names[move[2]]}
        if kind in ("to", "put"):
            return {"space": names[move[1]]}
        if kind in ("stop", "take-start", "reveal", "challenge"):
            return {"space": names[self.pawns[self.turn_player]]}
        if kind == "place":
            _, rot, q, x, y = move
            return {"placement": [rot, x, y], "portal": q + 1, "space": names[self.land_node]}
        if kind in ("return", "steal", "take"):
            owner = self.decider if kind == "return" else self.victim
            token = self.cards[owner][move[1]][move[2]]
            return {"seat": owner, "kind": KIND_IDS[move[1]], "slot": move[2],
                    "token": self._face(token, self.decider)}
        if kind == "use":
            return {"token": self.game.views[self._shown(move[1])]}
        if kind == "akaku":
            return {"seat": move[1]}
        return {}

    def _face(self, token: int, seat: int) -> str:
        """A token's face as `seat` sees it: its view once seen, else its kind."""
        game = self.game
        return game.views[token] if self.seen_by[token] & (1 << seat) else KIND_IDS[game.kind[token]]

    def _preview(self, move: tuple) -> dict[str, Any]:
        """What laying the drawn board so would put on the table, as everyone would see it:
        its portal number (from 1), the face-down tokens on its spaces, the locks laid on
        Makuta's gates, and its portals (joined, open or dead) where they would lie."""
        _, rot, q, x, y = move
        other = self.clone()
        other._events = []  # what the preview would tell is not told
        first = len(other.island)
        other._lay(self._drawn_board(), rot, x, y)
        island, kinds = other.island, self.game.kind
        new = range(first, len(island))
        names = island.names
        return {"portal": q + 1,
                "tokens": {names[n]: [KIND_IDS[kinds[t]] for t in other.items[n]]
                           for n in new if n in other.items},
                "rahi": {names[n]: "rahi" for n in new if n in other.rahi},
                "locks": {names[n]: "lock" for n in other.locks if n not in self.locks},
                "portals": self._portal_states(island, new)}

    def _determinize(self, seat: int, rng: random.Random) -> Self:
        """Every token face this seat has not seen is dealt again among the places that hold
        an unseen token of its kind; the board pile is shuffled. Speed masks never land on a
        collector card unseen (the die would show them). What is dealt depends only on what
        the seat sees: the unseen tokens are sorted before they are shuffled."""
        other = self.clone()
        bit = 1 << seat
        tokens = self.game.parts.tokens
        seen_by = other.seen_by
        for kind in range(len(KIND_IDS)):
            places = [p for p in other._places(kind) if not seen_by[p[0][p[1]]] & bit]
            masks = [seen_by[where[key]] for where, key in places]
            pool = sorted(where[key] for where, key in places)
            dealt: list[int] = [-1] * len(places)
            fast = [t for t in pool if tokens[t].die]
            if fast:
                cards = {id(where) for where in other._card_lists()}
                free = [i for i, (where, _) in enumerate(places) if id(where) not in cards]
                for i, token in zip(rng.sample(free, len(fast)), fast, strict=True):
                    dealt[i] = token
            rest = [t for t in pool if not tokens[t].die]
            rng.shuffle(rest)
            it = iter(rest)
            for i, (where, key) in enumerate(places):
                token = dealt[i] if dealt[i] >= 0 else next(it)
                where[key] = token
                seen_by[token] = masks[i]
        other.pile.sort()
        rng.shuffle(other.pile)
        other._reseed(rng)
        return other

    def _card_lists(self) -> list[list[int]]:
        return [card[k] for card in self.cards for k in CARD_KINDS]

    def _places(self, kind: int) -> list[tuple[Any, Any]]:
        """(container, key) of every token of `kind` that is not out of play."""
        places: list[tuple[Any, Any]] = []
        kinds = self.game.kind

        def from_list(items: list[int]) -> None:
            places.extend((items, i) for i, t in enumerate(items) if kinds[t] == kind)

        from_list(self.bags[kind])
        from_list(self.start)
        from_list(self.queue)
        for items in self.items.values():
            from_list(items)
        for items in self.under.values():
            from_list(items)
        for table in (self.rahi, self.locks):
            places.extend((table, n) for n, t in table.items() if kinds[t] == kind)
        if kind in CARD_KINDS:
            for card in self.cards:
                from_list(card[kind])
        return places

    def token_places(self) -> dict[int, str]:
        """Where every token is: supply, board, under a Rahi, gate, start space, collector
        card, out of play, or waiting to be collected; each in exactly one place."""
        return one_place("token", self._token_places())

    def _token_places(self) -> Iterator[tuple[str, Iterable[int]]]:
        names = self.island.names
        for kind, bag in enumerate(self.bags):
            yield f"bag:{KIND_IDS[kind]}", bag
        for n, ts in self.items.items():
            yield f"space:{names[n]}", ts
        for n, t in self.rahi.items():
            yield f"space:{names[n]}", [t]
        for n, ts in self.under.items():
            yield f"under:{names[n]}", ts
        for n, t in self.locks.items():
            yield f"gate:{names[n]}", [t]
        yield "start", self.start
        for seat, card in enumerate(self.cards):
            for kind in CARD_KINDS:
                yield f"card:{seat}", card[kind]
        yield "beaten", self.beaten
        yield "in hand", self.queue

    def audit(self) -> None:
        one_place("token", self._token_places(), set(range(len(self.game.kind))))
        kinds = self.game.kind
        for kind, bag in enumerate(self.bags):
            assert all(kinds[t] == kind for t in bag), f"a wrong token in the {KIND_IDS[kind]} bag"
        for seat, card in enumerate(self.cards):
            for kind in CARD_KINDS:
                assert all(kinds[t] == kind for t in card[kind]), f"card {seat} mixes kinds"
            if not (self.phase == RETURN and seat == self.turn_player):
                assert not self._over_limit_quiet(seat), f"card {seat} is over a limit"
        assert all(kinds[t] == RAHI for t in self.rahi.values())
        assert all(kinds[t] == LOCK for t in self.locks.values())
        boards = [b for b, *_ in self.island.placed] + self.pile + ([self.placing] if self.placing else [])
        assert sorted(boards) == sorted(self.game.parts.boards), "a board is lost or doubled"
        assert all(0 <= p < len(self.island) for p in self.pawns)
