"""The games as OpenSpiel Python games: `matanui_reconstruct`, ...

    from matanui.envs import openspiel
    game = openspiel.load("reconstruct")          # or pyspiel.load_game("matanui_reconstruct")
    state = game.new_initial_state()

Importing this module registers every game that has an encoding. Modelling choices:

- Chance: the game starts with four explicit chance nodes, the deal: each draws one byte
  (256 uniform outcomes) of a 32-bit seed, which then fixes everything random that follows
  (the characters when not given, the shuffled piles, later reshuffles). No player observes
  the deal. Drawing it byte by byte keeps each chance node small (OpenSpiel lists a chance
  node's outcomes often) while leaving 2**32 deals; it keeps the game object stateless and
  lets sampling algorithms (MCCFR, IS-MCTS) treat the deal as chance.
  A small game (`deals=K`, e.g. with Reconstruct's `variant:mini`) is dealt instead by one
  chance node over the seeds 0..K-1, so that the whole tree can be walked (CFR,
  exploitability: matanui.research.exploit).
- Actions are the encoding's fixed indices (matanui.envs.encoding); `action_to_string` gives
  the readable action id.
- Observation (perfect_recall=False): the seat's observation tensor, and its observation as
  JSON for the string. Information state (perfect_recall=True): the observation tensor
  followed by the seat's memory; the string is the observation JSON plus a digest of the
  seat's whole history (every observation it had and every action it chose), so equal
  strings mean equal information sets. The public observation (private_info NONE, without
  perfect recall) is the spectators' view.
  In a small game (`deals=K`) the information-state string is that history written out
  instead of hashed: the seat's first observation whole, then one line per step, `saw {...}`
  with the fields of its observation that changed and `chose ACTION` for its own actions.
  It repeats whenever two histories look the same to the seat (other deals, the opponent's
  hidden cards), which is what tabular CFR needs, and a person can read it.
- Returns: +1 to each winner, -1 to the others, 0 to all in a draw (the turn limit).

OpenSpiel cannot call back into Python to resample a state from an information state, so
`resampler(seed)` gives the callback that its IS-MCTS bot takes through `set_resampler`: it
samples with the game's own `determinize`.

Parameters: `players`, `characters` (in seat order, separated by `+`, e.g. "tahu+gali";
empty: drawn from the deal), `options` (the game's options as `key:value` pairs separated
by `;`, e.g. "map:both;turn_limit:60", values read as by `matanui play -o`), `deals` (0, the
default: the 32-bit seed above; K from 1 to 65,536: a small game dealt from K seeds). OpenSpiel
writes a game's parameters into its name, where `,`, `=` and parentheses may not appear.
"""

from __future__ import annotations

import functools
import hashlib
import json
import random
from collections.abc import Callable
from typing import Any

import numpy as np
import pyspiel

from matanui import games
from matanui.engine import Game, MatanuiError

from .encoding import Encoding, encoding_for, has_encoding
from .table import Table

DEAL_BYTES = 4
BYTE_OUTCOMES = [(b, 1.0 / 256) for b in range(256)]
MAX_DEALS = 1 << 16  # one chance node lists its outcomes; more deals than this is no small game


class _Play:
    """Everything that changes in an OpenSpiel state, in one object. OpenSpiel clones a
    Python state by deep-copying its attributes and serializes it by pickling them; this
    object makes a copy go through matanui's own `clone` (fast, and sharing the immutable
    Game) and pickles the game by name."""

    __slots__ = ("actions", "deal", "digests", "last_seen", "sampled_for", "table")

    def __init__(self, players: int) -> None:
        self.table: Table | None = None
        self.deal: list[int] = []  # the seed's bytes drawn so far (or the one deal's number)
        self.actions: list[str] = []
        # Per seat, its whole history (every observation it had, every action it chose):
        # hashed in the full game, written out as text in a small one (`deals`).
        self.digests = [""] * players
        self.last_seen: list[dict[str, Any] | None] = [None] * players  # for the text's deltas
        self.sampled_for: int | None = None  # set on states made by `resample`

    def copy(self, table: Table | None) -> _Play:
        other = object.__new__(_Play)
        other.table = table
        other.deal, other.actions, other.digests = list(self.deal), list(self.actions), list(self.digests)
        other.last_seen = list(self.last_seen)  # observations are never mutated, only replaced
        other.sampled_for = self.sampled_for
        return other

    def __deepcopy__(self, memo: dict[int, Any]) -> _Play:
        return self.copy(None if self.table is None else self.table.clone())

    def __reduce__(self) -> tuple[Any, ...]:
        table = None
        if self.table is not None:
            state = self.table.state
            game = state.game.name if games.get(state.game.name) is state.game else state.game
            fields = {k: v for k, v in vars(state).items() if k != "game"}
            table = (game, type(state), fields, self.table.memory, self.table.encoding.players)
        return _restore, (table, self.deal, self.actions, self.digests, self.sampled_for, self.last_seen)


def _restore(table: tuple[Any, ...] | None, deal: list[int], actions: list[str], digests: list[str],
             sampled_for: int | None, last_seen: list[dict[str, Any] | None]) -> _Play:
    play = object.__new__(_Play)
    play.table, play.deal, play.actions, play.digests = None, deal, actions, digests
    play.sampled_for, play.last_seen = sampled_for, last_seen
    if table is not None:
        game, kind, fields, memory, players = table
        spec = games.get(game) if isinstance(game, str) else game
        state = object.__new__(kind)
        state.__dict__.update(fields, game=spec)
        play.table = Table(encoding_for(spec, players), state, memory)
    return play


def _options(spec: Game, text: str) -> dict[str, Any]:
    """"map:both;turn_limit:60" -> {"map": "both", "turn_limit": 60}, read by the game's schema."""
    pairs = []
    for pair in filter(None, (p.strip() for p in text.split(";"))):
        key, sep, value = pair.partition(":")
        if not sep or not key:
            raise MatanuiError(f"option {pair!r} must look like key:value, e.g. turn_limit:60 "
                               "(pairs separated by ';')")
        pairs.append(f"{key}={value}")
    return spec.parse_options(pairs)


def _digest(previous: str, text: str) -> str:
    return hashlib.blake2b((previous + text).encode(), digest_size=12).hexdigest()


def _written(previous: str, text: str) -> str:
    """A small game's history: one more line of it, in words."""
    return f"{previous}\n{text}" if previous else text


def _delta(obs: dict[str, Any], before: dict[str, Any] | None) -> str:
    """What a seat observes now that it did not before: the whole observation the first
    time, afterwards the fields that changed (so a history stays short and readable)."""
    changed = obs if before is None else {k: v for k, v in obs.items() if before.get(k) != v}
    return "saw " + _observation_json(changed)


def _observation_json(obs: dict[str, Any]) -> str:
    return json.dumps(obs, sort_keys=True, separators=(",", ":"))


class MatanuiSpielGame(pyspiel.Game):
    """A matanui game for OpenSpiel; `register_all` makes one subclass per game."""

    matanui_name: str
    matanui_type: pyspiel.GameType

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        game_type = self.matanui_type
        settings = {**game_type.parameter_specification, **(params or {})}
        spec = games.get(self.matanui_name)
        self.encoding: Encoding = encoding_for(spec, int(settings["players"]))
        self.characters = [c.strip() for c in str(settings["characters"]).split("+") if c.strip()] or None
        self.options = _options(spec, str(settings["options"]))
        self.deals = _deals(settings["deals"])
        self.fold = _written if self.deals else _digest
        checked = Table.deal(self.encoding, 0, self.characters, self.options).state.options
        players = self.encoding.players
        info = pyspiel.GameInfo(
            num_distinct_actions=len(self.encoding.actions),
            max_chance_outcomes=self.deals or len(BYTE_OUTCOMES),
            num_players=players,
            min_utility=-1.0,
            max_utility=1.0,
            # OpenSpiel checks a utility sum only for zero-sum game types; the game's type is
            # registered once for all its player counts (general-sum for Makuta, even at two).
            utility_sum=0.0 if game_type.utility == pyspiel.GameType.Utility.ZERO_SUM else None,
            max_game_length=self.encoding.max_decisions(checked) + 1,
        )
        super().__init__(game_type, info, params or {})

    def max_chance_nodes_in_history(self) -> int:
        return 1 if self.deals else DEAL_BYTES

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as its name and parameters: the per-game classes are made at run time."""
        return pyspiel.load_game, (self.get_type().short_name, self.get_parameters())

    def new_initial_state(self) -> MatanuiSpielState:
        return MatanuiSpielState(self)

    def make_py_observer(self, iig_obs_type: pyspiel.IIGObservationType | None = None,
                         params: dict[str, Any] | None = None) -> MatanuiObserver:
        if params:
            raise ValueError(f"matanui observers take no parameters, not {params}")
        default = pyspiel.IIGObservationType(perfect_recall=False)
        return MatanuiObserver(self.encoding, iig_obs_type or default)


class MatanuiSpielState(pyspiel.State):
    """Before the deal: chance nodes. After it: the matanui game, seat by seat. All that
    changes is in one `_Play` attribute; the game object is reached through `get_game()`."""

    def __init__(self, game: MatanuiSpielGame) -> None:
        super().__init__(game)
        self._play = _Play(game.encoding.players)

    @property
    def table(self) -> Table:
        table = self._play.table
        if table is None:
            raise MatanuiError("the game has not been dealt yet (apply the chance outcomes first)")
        return table

    def current_player(self) -> int:
        table = self._play.table
        if table is None:
            return pyspiel.PlayerId.CHANCE
        state = table.state
        return pyspiel.PlayerId.TERMINAL if state.is_over else state.current_player

    def _legal_actions(self, player: int) -> list[int]:
        return self.table.legal_indices()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        deals = self.get_game().deals
        return _deal_outcomes(deals) if deals else BYTE_OUTCOMES

    def _apply_action(self, action: int) -> None:
        play = self._play
        game = self.get_game()
        if play.table is None:
            play.deal.append(int(action))
            if game.deals or len(play.deal) == DEAL_BYTES:
                seed = int(action) if game.deals else int.from_bytes(bytes(play.deal), "big")
                play.table = Table.deal(game.encoding, seed, game.characters, game.options)
                self._observe_all()
            return
        table = play.table
        seat = table.state.current_player
        action_id = table.action_id(action)
        table.play(action)
        play.actions.append(action_id)
        play.digests[seat] = game.fold(play.digests[seat], "chose " + action_id)
        self._observe_all()

    def _observe_all(self) -> None:
        """Fold what every seat now observes into its history: its digest (the
        observation's repr is canonical: a game builds its observation dicts in one fixed
        key order), or in a small game the words of what changed."""
        play = self._play
        table = play.table
        if self.get_game().deals:
            seen = [table.seen(seat) for seat in range(len(play.digests))]
            play.digests = [_written(d, _delta(obs, before))
                            for d, obs, before in zip(play.digests, seen, play.last_seen, strict=True)]
            play.last_seen = seen
        else:
            play.digests = [_digest(d, repr(table.seen(seat))) for seat, d in enumerate(play.digests)]

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {action}" if self.get_game().deals else f"deal byte {action}"
        table = self._play.table
        return table.action_id(action) if table is not None else self.get_game().encoding.actions[action]

    def is_terminal(self) -> bool:
        table = self._play.table
        return table is not None and table.state.is_over

    def returns(self) -> list[float]:
        table = self._play.table
        if table is None:
            return [0.0] * self.get_game().encoding.players
        return list(table.state.returns())

    def __str__(self) -> str:
        play = self._play
        deal = ".".join(map(str, play.deal))
        if play.table is None:
            return f"dealing {deal}"
        sampled = "" if play.sampled_for is None else f" (resampled for player {play.sampled_for})"
        return f"deal {deal}{sampled}: " + " ".join(play.actions)

    def resample(self, player: int, rng: random.Random) -> MatanuiSpielState:
        """A state `player` cannot tell from this one: hidden parts drawn anew from `rng` by
        the game's `determinize`. Other seats' histories, which `player` cannot know, are
        replaced by labels derived from `player`'s own history, and their memories by what
        they observe in the sample now."""
        table = self.table
        sampled = Table(table.encoding, table.state.determinize(player, rng), table.memory.copy())
        sampled.forget_all_but(player)
        other = self.get_game().new_initial_state()
        other._play = self._play.copy(sampled)
        other._play.sampled_for = player
        mine = self._play.digests[player]
        fold = self.get_game().fold
        other._play.digests = [mine if seat == player else fold(mine, f"seat {seat} as seen by {player}")
                                for seat in range(table.encoding.players)]
        return other


class MatanuiObserver:
    """OpenSpiel's observer interface: `tensor` and its named pieces in `dict`, filled by
    `set_from(state, player)`; `string_from(state, player)`."""

    def __init__(self, encoding: Encoding, iig_obs_type: pyspiel.IIGObservationType) -> None:
        private = iig_obs_type.private_info
        if private not in (pyspiel.PrivateInfoType.SINGLE_PLAYER, pyspiel.PrivateInfoType.NONE):
            raise ValueError("matanui observers offer one player's view or the public view, "
                             f"not private_info={private}")
        self.encoding = encoding
        self.public = private == pyspiel.PrivateInfoType.NONE
        self.recall = iig_obs_type.perfect_recall
        if self.public and self.recall:
            raise ValueError("matanui observers offer the public view without perfect recall only")
        size = encoding.observation_size + (encoding.memory_size if self.recall else 0)
        self.tensor = np.zeros(size, np.float32)
        self.dict = encoding.observation_layout.views(self.tensor[:encoding.observation_size])
        if self.recall:
            self.dict.update(encoding.memory_layout.views(self.tensor[encoding.observation_size:]))

    def set_from(self, state: MatanuiSpielState, player: int) -> None:
        self.tensor.fill(0.0)
        table = state._play.table
        if table is None:
            return
        size = self.encoding.observation_size
        obs = table.state.observation(None) if self.public else table.seen(player)
        self.tensor[:size] = self.encoding.tensor(obs)
        if self.recall:
            self.tensor[size:] = table.memory[player]

    def string_from(self, state: MatanuiSpielState, player: int) -> str:
        table = state._play.table
        if table is None:
            return "before the deal"
        if self.recall and state.get_game().deals:
            return state._play.digests[player]  # the seat's whole history, in words
        text = _observation_json(table.state.observation(None) if self.public else table.seen(player))
        if self.recall:
            text += "\nhistory " + state._play.digests[player]
        return text


def _deals(value: Any) -> int:
    """The `deals` parameter: 0, or how many seeds a small game is dealt from."""
    if type(value) is not int or not 0 <= value <= MAX_DEALS:
        raise MatanuiError(f"deals must be a whole number from 0 to {MAX_DEALS} (0: a 32-bit seed drawn "
                           f"byte by byte; K: one chance node over the seeds 0 to K-1), not {value!r:.40}")
    return value


@functools.lru_cache(maxsize=8)
def _deal_outcomes(deals: int) -> list[tuple[int, float]]:
    return [(seed, 1.0 / deals) for seed in range(deals)]


def resampler(seed: int = 0) -> Callable[[MatanuiSpielState, int], MatanuiSpielState]:
    """The callback for OpenSpiel's ISMCTSBot.set_resampler."""
    rng = random.Random(seed)
    return lambda state, player: state.resample(player, rng)


def game_type(name: str) -> pyspiel.GameType:
    spec = games.get(name)
    return pyspiel.GameType(
        short_name=f"matanui_{name}",
        long_name=f"matanui {spec.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=(pyspiel.GameType.Utility.ZERO_SUM if spec.max_players == 2
                 else pyspiel.GameType.Utility.GENERAL_SUM),
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=spec.max_players,
        min_num_players=spec.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"players": spec.min_players, "characters": "", "options": "", "deals": 0},
    )


_CLASSES: dict[str, type[MatanuiSpielGame]] = {}


def register_all() -> None:
    """Register `matanui_<game>` with OpenSpiel for every game that has an encoding. Each
    gets its own subclass, as OpenSpiel's registry expects a class per game (a closure
    would be destroyed after the interpreter, which crashes it at exit)."""
    registered = {g.short_name for g in pyspiel.registered_games()}
    for name in games.names():
        if f"matanui_{name}" not in registered and has_encoding(name):
            kind = game_type(name)
            _CLASSES[name] = type(f"Matanui{name.title()}Game", (MatanuiSpielGame,),
                                  {"matanui_name": name, "matanui_type": kind})
            pyspiel.register_game(kind, _CLASSES[name])


def load(name: str, **params: Any) -> pyspiel.Game:
    """`load("reconstruct", options="advanced:true")`: the registered game."""
    games.require(name)
    if not has_encoding(name):
        raise MatanuiError(f"{name} has no research encoding yet")
    return pyspiel.load_game(f"matanui_{name}", params)


register_all()
