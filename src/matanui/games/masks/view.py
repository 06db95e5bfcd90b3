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
        chal = None
        if self.chal is not None:
            lander, card, skill, bonus0, bonus1 = self.chal
            chal = {"lander": lander, "card": card, "skill": SKILLS[skill], "bonus": [bonus0, bonus1],
                    "scores": [self.eff[0][skill] + bonus0, self.eff[1][skill] + bonus1]}
        return {
            "game": self.game.name,
            "seat": seat,
            "players": list(self.players),
            "map": self.board.id,
            "short": self.options["short"],
            "masks_to_win": self.target,
            "turn": self.turn,
            "turn_limit": self.turn_limit,
            "turn_player": self.turn_player,
            "current_player": self.actor,
            "phase": self.phase,
            "positions": [labels[p] for p in self.pos],
            "toa": [self._seat_view(s) for s in (0, 1)],
            "challenge_pile": len(self.chal_draw),
            "challenge_discard": list(self.chal_discard),
            "mission_pile": len(self.mis_draw),
            "mission_discard": list(self.mis_discard),
            "challenge": chal,
            "passes": self.passes if self.phase == WINDOW else None,
            "claim": self.claim if self.phase == CLAIM else None,
            "attach_done": {"mask": bool(self.attach_done & 1), "turaga": bool(self.attach_done & 2)},
            "hand": list(self.hands[seat]) if seat is not None else None,
            "is_over": self.is_over,
            "winners": self.winners,
        }

    def _seat_view(self, seat: int) -> dict[str, Any]:
        """What everyone may know of one player: all but their hand and their piles' order."""
        labels = self.labels
        return {
            "toa": self.players[seat],
            "skills": list(self.eff[seat]),
            "won": list(self.won[seat]),
            "masks": self._mask_count(seat),
            "mask": self.mask_on[seat] or None,
            "turaga": self.turaga_on[seat] or None,
            "mask_pile": len(self.gm_pile[seat]),
            "hand_size": len(self.hands[seat]),
            "known_in_hand": sorted(self.known[seat]),
            "action_pile": len(self.ga_draw[seat]),
            "action_discard": list(self.ga_discard[seat]),
            "missions": [list(m) for m in self.missions[seat]],
            "skips": self.skips[seat],
            "last_challenge": labels[self.last_chal[seat]] if self.last_chal[seat] >= 0 else None,
            "last_game_action": labels[self.last_ga[seat]] if self.last_ga[seat] >= 0 else None,
        }

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
        pool = sorted(hidden + other.ga_draw[opp])
        rng.shuffle(pool)
        other.hands[opp] = sorted([c for c in other.hands[opp] if c in known] + pool[: len(hidden)])
        other.ga_draw[opp] = pool[len(hidden):]
        piles = (other.ga_draw[seat], other.gm_pile[0], other.gm_pile[1], other.chal_draw, other.mis_draw)
        for pile in piles:
            pile.sort()
            rng.shuffle(pile)
        other._reseed(rng)
        return other

    def audit(self) -> None:
        cards, pools = self.game.cards, self.pools
        for seat in (0, 1):
            places = {"hand": self.hands[seat], "draw": self.ga_draw[seat], "discard": self.ga_discard[seat]}
            one_place(f"Player {seat + 1}'s Game Action card", places.items(), set(pools.actions))
            assert len(self.hands[seat]) <= HAND_LIMIT, f"Player {seat + 1} holds over {HAND_LIMIT} cards"
            assert self.hands[seat] == sorted(self.hands[seat]), "hands are kept sorted"
            assert self.known[seat] <= set(self.hands[seat]), "a known card is not in the hand"
            own = set(pools.masks[seat])
            places = {"pile": self.gm_pile[seat], "won": self.won[seat]}
            one_place(f"Player {seat + 1}'s Great Mask/Turaga card", places.items(), own)
            for slot, kind in ((self.mask_on[seat], "mask"), (self.turaga_on[seat], "turaga")):
                assert not slot or (slot in self.won[seat] and cards.mask_cards[slot].kind == kind), \
                    f"Player {seat + 1} has card #{slot} attached as a {kind} without having won it"
            assert self.kind[self.pos[seat]] >= 0, "a Toa Mask stands in the sea"
        assert self.pos[0] != self.pos[1], "two Toa Masks share a space"
        in_play = [self.chal[1]] if self.chal is not None else []
        places = {"draw": self.chal_draw, "discard": self.chal_discard, "in play": in_play}
        one_place("Great Mask Challenge card", places.items(), set(pools.challenges))
        queues = [m[0] for q in self.missions for m in q]
        places = {"draw": self.mis_draw, "discard": self.mis_discard, "held": queues}
        one_place("Mission card", places.items(), set(pools.missions))
