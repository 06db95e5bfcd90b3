"""Quest for the Masks' decisions: the phase a decision belongs to, the steps kept on the
agenda, and the moves the actions stand for. Plain strings, ints and tuples: the engine's
hot path compares and hashes them on every action (and the batched engine, batch/masks_rules,
keeps the same ints in its rows).

A move is a tuple of ints whose first entry is its opcode (M_...):
  (M_MOVE, direction, cell)     a one-space move (direction: an index of DIR_CODES);
  (M_PLAY, card)                a Game Action card that takes no direction;
  (M_PLAY, card, direction, cell)  an Infected Mask, moving the other Toa Mask to `cell`;
  (M_PLAY, card, two_step, cell)   a two-space Reward (two_step: an index of TWO_STEPS);
  (M_ATTACH, card), (M_DISCARD, card), (M_JUMP, cell), and PASS, KEEP, WAIT.
An agenda step is a tuple of ints too, its first entry the step (S_...), then its seat (and,
for S_WINDOW, how many players have passed in a row).
"""

from __future__ import annotations

from .cards import DIRECTIONS

Move = tuple[int, ...]
Step = tuple[int, ...]

# Phases: what the current decision is about (the module docstring of rules.py says which
# actions each offers).
TURN, WINDOW, ANYTIME, CLAIM, JUMP, DISCARD, OVER = (
    "turn", "window", "anytime", "claim", "jump", "discard", "over")

# Agenda steps.
S_TURN, S_MISSIONS, S_CHALLENGE, S_WINDOW, S_COMPARE, S_JUMP, S_CLAIM = range(7)
# Move opcodes.
M_MOVE, M_ATTACH, M_PLAY, M_PASS, M_KEEP, M_JUMP, M_DISCARD, M_WAIT = range(8)
PASS, KEEP, WAIT = (M_PASS,), (M_KEEP,), (M_WAIT,)

DIR_CODES = ("N", "E", "S", "W")
MOVE_IDS = tuple(f"move:{code}" for code in DIR_CODES)
DIR_NAMES = tuple(d.capitalize() for d in DIRECTIONS)
# A two-space move is named by where it ends; a diagonal end has two paths.
TWO_STEPS = (
    ("NN", ((0, 0),)), ("NE", ((0, 1), (1, 0))), ("EE", ((1, 1),)), ("SE", ((2, 1), (1, 2))),
    ("SS", ((2, 2),)), ("SW", ((2, 3), (3, 2))), ("WW", ((3, 3),)), ("NW", ((0, 3), (3, 0))),
)
TWO_STEP_WORDS = {"NN": "two spaces North", "EE": "two spaces East", "SS": "two spaces South",
                  "WW": "two spaces West", "NE": "one space North and one East",
                  "SE": "one space South and one East", "SW": "one space South and one West",
                  "NW": "one space North and one West"}

# When a Game Action card may be played (MASKS-GA-ANY-TIME): the cards that may be played at
# any time in every window, the others in the turn window or in a challenge window only.
ANY_TIME = frozenset(("draw", "skip"))
IN_TURN = ANY_TIME | {"push", "move"}
IN_CHALLENGE = ANY_TIME | {"boost", "weaken"}
