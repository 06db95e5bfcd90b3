"""Quest for Makuta's decisions: the phase a decision belongs to, the stages a landing
resolves in order, and the moves. Plain strings, ints and tuples: the engine's hot path
compares and hashes them on every action.

A move is a tuple whose first entry is its kind, the name of its handler in rules.py's
HANDLERS, then what it acts on:
  ("move", direction, node)       one step (direction: an index of island.DIRS);
  ("to", node), ("put", node)     the Miru's levitation; the loser's pawn put down;
  ("place", rot, portal, x, y)    the drawn board laid, turned `rot` quarters, at x, y;
  ("return" | "take" | "steal", kind, slot)  a token of a collector card, by its place;
  ("use", token)                  a Kanohi or Turaga shown in a challenge;
  ("akaku", seat)                 the Kanohi Akaku used on the Toa of `seat`;
  and the moves without arguments below (ROLL_MOVE, ...).
"""

from __future__ import annotations

from typing import Any

Move = tuple[Any, ...]

# Phases: what the current decision is about.
ROLL, LEVITATE, MOVE, PLACE, RETURN = "roll", "levitate", "move", "place", "return"
START_TOKEN, REVEAL, GATE, AKAKU, STEAL = "start-token", "reveal", "gate", "akaku", "steal"
CHALLENGE, BONUS, TAKE, PUT, OVER = "challenge", "bonus", "take", "put", "over"
# Every phase, in the order above (the research encoding's one-hot follows it).
PHASES = (ROLL, LEVITATE, MOVE, PLACE, RETURN, START_TOKEN, REVEAL, GATE, AKAKU, STEAL, CHALLENGE,
          BONUS, TAKE, PUT, OVER)
# Decisions whose choices everyone can count: one choice there is taken for the player.
AUTOMATIC_PHASES = frozenset((MOVE, PLACE, RETURN, TAKE, STEAL, PUT))

# Landing resolves these in order (MAKUTA-LANDING-ORDER).
ST_RAHI, ST_PORTAL, ST_ITEMS, ST_START, ST_REVEAL, ST_GATE, ST_AKAKU, ST_END = range(8)
# What follows once collected tokens are within the limits.
AFTER_LAND, AFTER_EXTRA_TURN, AFTER_REROLL = range(3)

ROLL_MOVE, LEVITATE_MOVE, STOP_MOVE, SKIP_MOVE = ("roll",), ("levitate",), ("stop",), ("skip",)
TAKE_START_MOVE, REVEAL_MOVE, CHALLENGE_MOVE = ("take-start",), ("reveal",), ("challenge",)
STRIKE_MOVE, SETTLE_MOVE = ("strike",), ("settle",)  # the challenge roll's action id is `roll`
MOVE_IDS = ("move:N", "move:E", "move:S", "move:W")  # one per direction of island.DIRS
