"""Quest for the Masks as fixed-size numbers.

Actions: the four moves, `wait`, `pass`, `keep`; `attach:N` for every Great Mask and Turaga
card; for every Game Action card `play:N`, `discard:N`, and where its effect allows, the
pushes `play:N:D` and the two-space moves `play:N:XX`; `jump:LABEL` for every Portal space
of every map.

Observation pieces (seen from the observing seat, "me" first; cells are `row * width +
column` on the map in play, which `map` names):
  to_decide, my_turn, phase, map, short      whose decision, which step, which variant
  characters (2, Toa), position (2, cells), skills (2, 6)
  won, attached (2, mask cards)               cards won, cards attached now
  piles (2, 5)                                masks won, Great Mask pile, hand size, action
                                              pile, skips (each over its bound)
  known (2, action cards), discarded (2, action cards), missions (2, missions, 2: held, count)
  last_challenge, last_game_action (2, cells) where each may not land again
  challenge_pile, challenge_discard, mission_pile, mission_discard
  challenge: lander (2), card, skill, bonus (2), scores (2); passes; claim; attach_done (2)
  hand (action cards), turn (turn / limit)
Memory: every action card I have held, every action card I have seen discarded, every
challenge and mission card I have seen turned up.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import numpy as np

from matanui.envs.encoding import Encoding, Layout, one_hot
from matanui.games.masks.cards import SKILLS

PHASES = ("turn", "window", "anytime", "claim", "jump", "discard", "over")
DIRECTIONS = ("N", "E", "S", "W")
TWO_STEPS = ("NN", "NE", "EE", "SE", "SS", "SW", "WW", "NW")
SKILL_SCALE, SCORE_SCALE, BONUS_SCALE = 2000.0, 3000.0, 1000.0
PILE_BOUNDS = (6, 9, 5, 20, 3)  # masks won, Great Mask pile, hand, action pile, skips
MISSION_COUNT_BOUND = 5
DECISIONS_PER_TURN = 12  # attach, cards, move, challenge and any-time windows, claims, jumps, discards


class MasksEncoding(Encoding):
    about: ClassVar[Mapping[str, str]] = {
        "to_decide": "1 when this seat must decide now",
        "my_turn": "1 when it is this seat's turn",
        "phase": "the step: turn, window, anytime, claim, jump, discard, over",
        "map": "the map in play (side A, side B, both mats)",
        "short": "1 in the short game",
        "characters": "which Toa each seat plays (me first)",
        "position": "each seat's cell (row * width + column on the map in play)",
        "skills": "each seat's six skill values, over 2000",
        "won": "the Great Masks and Turaga cards each seat has won",
        "attached": "the mask and Turaga card each seat has attached now",
        "piles": "per seat: masks won, Great Mask pile, hand size, action pile, skips (each over its bound)",
        "known": "action cards seen entering each seat's hand",
        "discarded": "each seat's action discard pile",
        "missions": "per seat and mission card: held, and its count",
        "last_challenge": "the Challenge space each seat last landed on (it may not land there again)",
        "last_game_action": "the Game Action space each seat last landed on (not twice running)",
        "challenge_pile": "challenge cards left in the pile, over the deck",
        "challenge_discard": "the challenge cards turned up so far",
        "mission_pile": "mission cards left in the pile, over the deck",
        "mission_discard": "the mission cards discarded",
        "lander": "the seat that landed on the challenge being met",
        "challenge_card": "the challenge card being met",
        "challenge_skill": "the skill it tests",
        "bonus": "each seat's bonus in the challenge",
        "scores": "each seat's score in the challenge",
        "passes": "the passes in a row in the current window",
        "claim": "the mask being claimed",
        "attach_done": "whether I have attached a mask, a Turaga card this turn",
        "hand": "my action cards; zeros in the public view",
        "turn": "turn / limit",
        "held": "every action card I have held",
        "seen_discarded": "every action card I have seen discarded",
        "seen_challenges": "every challenge card I have seen turned up",
        "seen_missions": "every mission card I have seen",
    }

    def __init__(self, game: Any, players: int) -> None:
        cards = game.cards
        # The maps the `map` option offers; a small variant's map (smaller than each of them)
        # has no place of its own in the one-hot.
        self.maps = tuple(game.map_boards)
        self.map_index = {name: i for i, name in enumerate(self.maps)}
        self.cells = max(board.width * board.height for board in game.boards.values())
        self.toa_index = {toa: i for i, toa in enumerate(cards.toa)}
        self.mask_index = {n: i for i, n in enumerate(sorted(cards.mask_cards))}
        self.action_index = {n: i for i, n in enumerate(sorted(cards.actions))}
        self.challenge_index = {n: i for i, n in enumerate(sorted(cards.challenges))}
        self.mission_index = {n: i for i, n in enumerate(sorted(cards.missions))}
        super().__init__(game, players)

    def action_ids(self) -> list[str]:
        game = self.game
        actions = [f"move:{d}" for d in DIRECTIONS] + ["wait", "pass", "keep"]
        actions += [f"attach:{n}" for n in self.mask_index]
        for n in self.action_index:
            actions += [f"play:{n}", f"discard:{n}"]
            effect = game.cards.actions[n].effect
            if effect == "push":
                actions += [f"play:{n}:{d}" for d in DIRECTIONS]
            elif effect == "move":
                actions += [f"play:{n}:{code}" for code in TWO_STEPS]
        portals = {board.label(cell) for board in game.map_boards.values() for cell in board.portals}
        actions += [f"jump:{label}" for label in sorted(portals)]
        return actions

    def max_decisions(self, options: Mapping[str, Any]) -> int:
        return DECISIONS_PER_TURN * (options["turn_limit"] + 1)

    def describe_observation(self, layout: Layout) -> None:
        masks, actions = len(self.mask_index), len(self.action_index)
        layout.add("to_decide", 1)
        layout.add("my_turn", 1)
        layout.add("phase", len(PHASES))
        layout.add("map", len(self.maps))
        layout.add("short", 1)
        layout.add("characters", 2, len(self.toa_index))
        layout.add("position", 2, self.cells)
        layout.add("skills", 2, 6)
        layout.add("won", 2, masks)
        layout.add("attached", 2, masks)
        layout.add("piles", 2, len(PILE_BOUNDS))
        layout.add("known", 2, actions)
        layout.add("discarded", 2, actions)
        layout.add("missions", 2, len(self.mission_index), 2)
        layout.add("last_challenge", 2, self.cells)
        layout.add("last_game_action", 2, self.cells)
        layout.add("challenge_pile", 1)
        layout.add("challenge_discard", len(self.challenge_index))
        layout.add("mission_pile", 1)
        layout.add("mission_discard", len(self.mission_index))
        layout.add("lander", 2)
        layout.add("challenge_card", len(self.challenge_index))
        layout.add("challenge_skill", 6)
        layout.add("bonus", 2)
        layout.add("scores", 2)
        layout.add("passes", 1)
        layout.add("claim", masks)
        layout.add("attach_done", 2)
        layout.add("hand", actions)
        layout.add("turn", 1)

    def describe_memory(self, layout: Layout) -> None:
        layout.add("held", len(self.action_index))
        layout.add("seen_discarded", len(self.action_index))
        layout.add("seen_challenges", len(self.challenge_index))
        layout.add("seen_missions", len(self.mission_index))

    def encode(self, obs: dict[str, Any], out: dict[str, np.ndarray]) -> None:
        order = self.relative(obs)
        me = order[0]
        board = self.game.boards[obs["map"]]
        actions, masks = self.action_index, self.mask_index
        out["to_decide"][0] = obs["current_player"] == me and obs["seat"] is not None
        out["my_turn"][0] = obs["turn_player"] == me
        out["phase"][PHASES.index(obs["phase"])] = 1
        if obs["map"] in self.map_index:
            out["map"][self.map_index[obs["map"]]] = 1
        out["short"][0] = obs["short"]
        for row, seat in enumerate(order):
            toa = obs["toa"][seat]
            out["characters"][row, self.toa_index[toa["toa"]]] = 1
            one_hot(out["position"][row], board.cell(obs["positions"][seat]))
            out["skills"][row] = np.asarray(toa["skills"], np.float32) / SKILL_SCALE
            for n in toa["won"]:
                out["won"][row, masks[n]] = 1
            for n in (toa["mask"], toa["turaga"]):
                if n is not None:
                    out["attached"][row, masks[n]] = 1
            values = (toa["masks"], toa["mask_pile"], toa["hand_size"], toa["action_pile"], toa["skips"])
            out["piles"][row] = [v / bound for v, bound in zip(values, PILE_BOUNDS, strict=True)]
            for n in toa["known_in_hand"]:
                out["known"][row, actions[n]] = 1
            for n in toa["action_discard"]:
                out["discarded"][row, actions[n]] = 1
            for number, count in toa["missions"]:
                out["missions"][row, self.mission_index[number]] = (1, count / MISSION_COUNT_BOUND)
            for piece in ("last_challenge", "last_game_action"):
                if toa[piece] is not None:
                    one_hot(out[piece][row], board.cell(toa[piece]))
        out["challenge_pile"][0] = obs["challenge_pile"] / len(self.challenge_index)
        for n in obs["challenge_discard"]:
            out["challenge_discard"][self.challenge_index[n]] = 1
        out["mission_pile"][0] = obs["mission_pile"] / len(self.mission_index)
        for n in obs["mission_discard"]:
            out["mission_discard"][self.mission_index[n]] = 1
        challenge = obs["challenge"]
        if challenge is not None:
            out["lander"][order.index(challenge["lander"])] = 1
            out["challenge_card"][self.challenge_index[challenge["card"]]] = 1
            out["challenge_skill"][SKILLS.index(challenge["skill"])] = 1
            out["bonus"][:] = [(challenge["bonus"][s] + BONUS_SCALE) / (2 * BONUS_SCALE) for s in order]
            out["scores"][:] = [challenge["scores"][s] / SCORE_SCALE for s in order]
        out["passes"][0] = obs["passes"] or 0
        if obs["claim"]:
            out["claim"][masks[obs["claim"]]] = 1
        out["attach_done"][:] = (obs["attach_done"]["mask"], obs["attach_done"]["turaga"])
        for n in obs["hand"] or ():
            out["hand"][actions[n]] = 1
        out["turn"][0] = obs["turn"] / obs["turn_limit"]

    def remember(self, obs: dict[str, Any], memory: dict[str, np.ndarray]) -> None:
        actions = self.action_index
        for n in obs["hand"] or ():
            memory["held"][actions[n]] = 1
        for toa in obs["toa"]:
            for n in toa["action_discard"]:
                memory["seen_discarded"][actions[n]] = 1
            for number, _ in toa["missions"]:
                memory["seen_missions"][self.mission_index[number]] = 1
        for n in obs["challenge_discard"]:
            memory["seen_challenges"][self.challenge_index[n]] = 1
        for n in obs["mission_discard"]:
            memory["seen_missions"][self.mission_index[n]] = 1
        if obs["challenge"] is not None:
            memory["seen_challenges"][self.challenge_index[obs["challenge"]["card"]]] = 1


ENCODING = MasksEncoding
