"""Quest for Makuta's decisions: the phase a decision belongs to, the stages a landing
resolves in order, and the move tuples of the actions without arguments. Plain strings,
ints and tuples: the engine's hot path compares and hashes them on every action."""

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
