"""Array policies as agents: a trained network (or any function from the information-state
tensor and the action mask to an action index) playing a seat from its view, wherever agents
play (`matanui arena`, the research environments' opponents).

A policy is named by a spec:
- `ppo`: the trained policy committed for the game (ai/data/policies/<game>.npz);
- a path ending `.npz`: a trained policy file (matanui.envs.checkpoint);
- `MODULE:CALLABLE`: an importable array policy, or a function of no arguments that makes one.

numpy is needed for these only (it is in the `research` extra), so it is imported here late:
asking for a policy without it says how to install it rather than failing on import.
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from matanui.engine import MatanuiError

from .base import Agent, SeatView

if TYPE_CHECKING:
    import numpy as np

    from matanui.envs.checkpoint import Checkpoint
    from matanui.envs.encoding import Encoding

ArrayPolicy = Callable[["np.ndarray", "np.ndarray"], int]
POLICIES = Path(__file__).parent / "data" / "policies"
TRAINED = "ppo"
SPECS = f"{TRAINED} (the game's trained policy), MODULE:CALLABLE (an array policy), PATH.npz (a policy file)"


def is_policy_spec(spec: Any) -> bool:
    """Whether `spec` names an array policy rather than one of matanui's bots."""
    return isinstance(spec, str) and (spec == TRAINED or spec.endswith(".npz") or ":" in spec)


def require_numpy() -> None:
    try:
        import numpy  # noqa: F401
    except ImportError:
        raise MatanuiError("trained policies need numpy: pip install matanui[research]") from None


def trained_games() -> list[str]:
    """The games with a committed trained policy (`ppo`)."""
    return sorted(path.stem for path in POLICIES.glob("*.npz"))


def load_policy(spec: str, encoding: Encoding | None, game: str) -> tuple[ArrayPolicy, str]:
    """The array policy `spec` names for `game` (checked against `encoding` where given) and
    its label."""
    require_numpy()
    if spec == TRAINED:
        path = POLICIES / f"{game}.npz"
        if not path.is_file():
            raise MatanuiError(f"there is no trained policy ({TRAINED}) for {game} yet; the games with one: "
                               f"{', '.join(trained_games()) or 'none'}")
        return checkpoint(path, encoding, game), TRAINED
    if spec.endswith(".npz"):
        return checkpoint(Path(spec), encoding, game), spec
    return imported(spec), spec


def checkpoint(path: Path, encoding: Encoding | None, game: str) -> Checkpoint:
    """The policy file at `path`, which must be for `game` (and fit `encoding`'s tensors)."""
    from matanui.envs.checkpoint import Checkpoint
    from matanui.envs.encoding import encoding_for

    policy = Checkpoint.load(path)
    players, size = policy.meta["players"], policy.meta["observation_size"]
    if encoding is None:
        if policy.game != game:
            raise MatanuiError(f"{path}: a policy for {policy.game} cannot play {game}")
        encoding = encoding_for(game, players, encoding_variant(policy))
    wanted = encoding.observation_size + encoding.memory_size
    if (policy.game, players, size) != (encoding.game.name, encoding.players, wanted):
        raise MatanuiError(f"{path}: a policy for {policy.game} with {players} players and {size} inputs "
                           f"cannot play {encoding.game.name} with {encoding.players} players "
                           f"({wanted} inputs)")
    return policy


def _meta(policy: ArrayPolicy) -> dict[str, Any]:
    """A policy file's meta; {} for a bare array policy, which says nothing of itself."""
    meta = getattr(policy, "meta", None)
    return meta if isinstance(meta, dict) else {}


def encoding_variant(policy: ArrayPolicy) -> str:
    """The observation encoding a policy reads: its file's, else the game's default."""
    from matanui.envs.encoding import DEFAULT_VARIANT

    return str(_meta(policy).get("encoding", DEFAULT_VARIANT))


def imported(spec: str) -> ArrayPolicy:
    """The policy `MODULE:CALLABLE` names (a factory of no arguments is called)."""
    module_name, _, attribute = spec.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ImportError as error:
        raise MatanuiError(f"policy {spec!r}: cannot import {module_name!r} ({error}); a policy is "
                           f"{SPECS}") from None
    found = getattr(module, attribute, None)
    if found is None or not callable(found):
        raise MatanuiError(f"policy {spec!r}: {module_name} has no callable {attribute!r}")
    if _takes_no_arguments(found):
        found = found()  # a factory
        if not callable(found):
            raise MatanuiError(f"policy {spec!r}: the factory made {type(found).__name__}, not a policy")
    return found


def _takes_no_arguments(function: Callable[..., Any]) -> bool:
    try:
        inspect.signature(function).bind()
    except (TypeError, ValueError):  # it needs arguments, or has no signature to read (a builtin)
        return False
    return True


def checked_index(who: str, index: Any, mask: np.ndarray) -> int:
    """The policy's answer, if it is a legal action index now; otherwise a clear error naming
    `who` answered ("the policy x.npz")."""
    import numpy as np

    if isinstance(index, bool) or not isinstance(index, int | np.integer) \
            or not 0 <= index < len(mask) or not mask[index]:
        legal = ", ".join(map(str, np.flatnonzero(mask)))
        raise MatanuiError(f"{who} answered {index!r}, which is not a legal action index now "
                           f"(legal: {legal})")
    return int(index)


class PolicyAgent(Agent):
    """Plays an array policy from a seat's view. Its input is the tensor the research
    environments give that seat (envs.table.Table.features): the encoded observation, then the
    memory folded from every observation the seat has made, oldest first. The policy decides
    alone; the seed is kept for the interface."""

    def __init__(self, policy: ArrayPolicy, name: str, seed: int = 0) -> None:
        super().__init__(seed)
        self.policy, self.name = policy, name
        self._encoding: Encoding | None = None

    def encoding(self, view: SeatView) -> Encoding:
        from matanui.envs.encoding import encoding_for

        encoding = self._encoding
        if encoding is None or encoding.game is not view.game or encoding.players != len(view.players):
            self.check_players(len(view.players))
            encoding = encoding_for(view.game, len(view.players), encoding_variant(self.policy))
            self._encoding = encoding
        return encoding

    def check_players(self, players: int) -> None:
        """Refused unless the policy reads games of `players` (a policy file says which)."""
        trained_for = _meta(self.policy).get("players")
        if trained_for is not None and trained_for != players:
            raise MatanuiError(f"the policy {self.name} plays games of {trained_for} players, not {players}")

    def features(self, view: SeatView) -> np.ndarray:
        """The seat's information-state tensor, as Table.features gives it."""
        import numpy as np

        encoding = self.encoding(view)
        now = view.observation()
        memory = np.zeros(encoding.memory_size, np.float32)
        if encoding.memory_size:
            pieces = encoding.memory_layout.views(memory)
            for seen in [*view.observation_history(), now]:
                encoding.remember(seen, pieces)
        return np.concatenate([encoding.tensor(now), memory])

    def priors(self, view: SeatView) -> dict[str, float]:
        """The policy's probability of each legal action (a policy file's softmax over the
        legal actions; a bare array policy gives its one choice all of it)."""
        legal = view.legal_actions()
        probabilities = getattr(self.policy, "probabilities", None)
        if probabilities is None:
            chosen = self.act(view)
            return {action: float(action == chosen) for action in legal}
        encoding = self.encoding(view)
        now = view.observation()
        mask = encoding.mask(legal, now)
        found = probabilities(self.features(view)[None, :], mask[None, :].astype(bool))[0]
        return {action: float(found[encoding.index_of(action, now)]) for action in legal}

    def act(self, view: SeatView) -> str:
        encoding = self.encoding(view)
        now = view.observation()
        mask = encoding.mask(view.legal_actions(), now)
        index = checked_index(f"the policy {self.name}", self.policy(self.features(view), mask), mask)
        return encoding.action_of(index, now)


def policy_agent(spec: str, game: str, seed: int = 0) -> PolicyAgent:
    """The agent `make_agent` gives for a policy spec."""
    policy, label = load_policy(spec, None, game)
    return PolicyAgent(policy, label, seed)
