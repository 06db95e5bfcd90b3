"""Quest for the Masks as each seat sees it: the observation, what an action acts on,
determinizing what a seat has not seen, and where every card is (for audits and tests)."""

from __future__ import annotations

import random
from typing import Any, Self

from matanui.engine.audit import one_place

from .cards import SKILLS
from .moves import CLAIM, M_ATTACH, M_DISCARD, M_JUMP, M_KEEP, M_MOVE, M_PASS, M_PLAY, M_WAIT, WINDOW
from .setup import HAND_LIMIT, MasksSetUp


class MasksView(MasksSetUp):
    """Observation, targets, determinize and the audit of card places."""

    def _observe(self, seat: int | None) -> dict[str, Any]:
        labels = self.labels
        challenge = None
        if self.challenge is not None:
            skill, bonus = self.challenge.skill, self.challenge.bonus
            challenge = {"lander": self.challenge.lander, "card": self.challenge.card, "skill": SKILLS[skill],
                         "bonus": list(bonus),
                         "scores": [self.skills[0][skill] + bonus[0], self.skills[1][skill] + bonus[1]]}
        return {
            "game": self.game.name,
            "seat": seat,
            "players": list(self.players),
            "map": self.board.id,
            "short": self.options["short"],
            "masks_to_win": self.masks_to_win,
            "turn": self.turn,
            "turn_limit": self.turn_limit,
            "turn_player": self.turn_player,
            "current_player": self.actor,
            "phase": self.phase,
            "positions": [labels[p] for p in self.toa_cells],
            "toa": [self._seat_view(s) for s in (0, 1)],
            "challenge_pile": len(self.challenge_pile),
            "challenge_discard": list(self.challenge_discard),
            "mission_pile": len(self.mission_pile),
            "mission_discard": list(self.mission_discard),
            "challenge": challenge,
            "passes": self.passes if self.phase == WINDOW else None,
            "claim": self.claim if self.phase == CLAIM else None,
            "attach_done": {"mask": bool(self.attach_done & 1), "turaga": bool(self.attach_done & 2)},
            "hand": list(self.hands[seat]) if seat is not None else None,
            "is_over": self.is_over,
            "winners": self.winners,
        }

    def _seat_view(self, seat: int) -> dict[str, Any]:
        """What everyone may know of one player: all but their hand and their piles' order."""
        return {
            "toa": self.players[seat],
            "skills": list(self.skills[seat]),
            "won": list(self.won[seat]),
            "masks": self._mask_count(seat),
            "mask": self.mask_on[seat] or None,
            "turaga": self.turaga_on[seat] or None,
            "mask_pile": len(self.mask_pile[seat]),
            "hand_size": len(self.hands[seat]),
            "known_in_hand": sorted(self.known[seat]),
            "action_pile": len(self.action_pile[seat]),
            "action_discard": list(self.action_discard[seat]),
            "missions": [[m.card, m.left] for m in self.missions[seat]],
            "skips": self.skips[seat],
            "last_challenge": self._label_or_none(self.last_challenge[seat]),
            "last_game_action": self._label_or_none(self.last_game_action[seat]),
        }

    def _label_or_none(self, cell: int) -> str | None:
        return self.labels[cell] if cell >= 0 else None

    def targets(self, action: str) -> dict[str, Any]:
        """What a legal action acts on: the `space` a Toa Mask moves or jumps to (and whose:
        `seat`), the `card` played, attached or given up."""
        move = self._move_table().get(action)
        if move is None:
            return {}
        op, me = move[0], self.decider
        if op == M_MOVE:
            return {"kind": "move", "seat": me, "space": self.labels[move[2]]}
        if op == M_JUMP:
            return {"kind": "jump", "seat": me, "space": self.labels[move[1]]}
        if op in (M_ATTACH, M_DISCARD):
            return {"kind": "attach" if op == M_ATTACH else "discard", "card": move[1]}
        if op == M_PLAY:
            effect = self.game.cards.actions[move[1]].effect
            if effect == "push":
                return {"kind": "play", "card": move[1], "seat": 1 - me, "space": self.labels[move[3]]}
            if effect == "move":
                return {"kind": "play", "card": move[1], "seat": me, "space": self.labels[move[3]]}
            return {"kind": "play", "card": move[1]}
        return {"kind": {M_PASS: "pass", M_KEEP: "keep", M_WAIT: "wait"}[op]}

    def _determinize(self, seat: int, rng: random.Random) -> Self:
        """The opponent's unknown cards and every pile's order are resampled, each pool sorted
        first so that the sample depends only on what `seat` sees."""
        other = self.clone()
        opp = 1 - seat
        known = other.known[opp]
        hidden = [c for c in other.hands[opp] if c not in known]
        pool = sorted(hidden + other.action_pile[opp])
        rng.shuffle(pool)
        other.hands[opp] = sorted([c for c in other.hands[opp] if c in known] + pool[: len(hidden)])
        other.action_pile[opp] = pool[len(hidden):]
        piles = (other.action_pile[seat], other.mask_pile[0], other.mask_pile[1], other.challenge_pile,
                 other.mission_pile)
        for pile in piles:
            pile.sort()
            rng.shuffle(pile)
        other._reseed(rng)
        return other

    def audit(self) -> None:
        cards, pools = self.game.cards, self.pools
        for seat in (0, 1):
            places = {"hand": self.hands[seat], "draw": self.action_pile[seat],
                      "discard": self.action_discard[seat]}
            one_place(f"Player {seat + 1}'s Game Action card", places.items(), set(pools.actions))
            assert len(self.hands[seat]) <= HAND_LIMIT, f"Player {seat + 1} holds over {HAND_LIMIT} cards"
            assert self.hands[seat] == sorted(self.hands[seat]), "hands are kept sorted"
            assert self.known[seat] <= set(self.hands[seat]), "a known card is not in the hand"
            own = set(pools.masks[seat])
            places = {"pile": self.mask_pile[seat], "won": self.won[seat]}
            one_place(f"Player {seat + 1}'s Great Mask/Turaga card", places.items(), own)
            for slot, kind in ((self.mask_on[seat], "mask"), (self.turaga_on[seat], "turaga")):
                assert not slot or (slot in self.won[seat] and cards.mask_cards[slot].kind == kind), \
                    f"Player {seat + 1} has card #{slot} attached as a {kind} without having won it"
            assert self.kind[self.toa_cells[seat]] >= 0, "a Toa Mask stands in the sea"
        assert self.toa_cells[0] != self.toa_cells[1], "two Toa Masks share a space"
        in_play = [self.challenge.card] if self.challenge is not None else []
        places = {"draw": self.challenge_pile, "discard": self.challenge_discard, "in play": in_play}
        one_place("Great Mask Challenge card", places.items(), set(pools.challenges))
        queues = [m.card for q in self.missions for m in q]
        places = {"draw": self.mission_pile, "discard": self.mission_discard, "held": queues}
        one_place("Mission card", places.items(), set(pools.missions))
