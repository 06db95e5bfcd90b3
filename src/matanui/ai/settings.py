"""Parameters written into an agent's name: a search's, `ismcts@300{exploration=0.9}`, or
the weights of a game's heuristic, `heuristic{challenge_odds=0.4}` (where its heuristic has
them: matanui.ai.registry.parameters).

A name then says exactly what played, so a tuned value (`matanui tune`) is tested like any
other agent (`matanui arena --agents 'ismcts@300{exploration=0.9}',ismcts@300`) and a
journal line names what it measured. Several settings are separated by commas inside the
braces; a list of agents is split only at the commas outside them (`split_agents`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from matanui.engine import MatanuiError

# The search's parameters a name may set (matanui.ai.ismcts.ISMCTSAgent), with their kind.
TUNABLE: dict[str, type] = {"exploration": float, "rollout_limit": int, "anchor_margin": float,
                             "prior_weight": float}


@dataclass(frozen=True)
class Parameters:
    """What an agent's name may set in braces: each name with its kind, and for errors what
    one is called ("search parameter") and whose they are ("the search")."""

    kinds: dict[str, type]
    called: str
    whose: str

    def allowed(self) -> str:
        return ", ".join(f"{name} ({'a whole number' if kind is int else 'a number'})"
                         for name, kind in self.kinds.items())


SEARCH = Parameters(TUNABLE, "search parameter", "the search")


def check_value(name: str, value: float, parameters: Parameters = SEARCH) -> float | int:
    """`value` as the kind `name` takes; MatanuiError if it is not one of `parameters` or not
    a value it can take."""
    if not parameters.kinds:
        raise MatanuiError(f"{parameters.whose} takes no settings: settings in braces are for the "
                           "searches (ismcts, ismcts-infer, and hard where it searches) and for a "
                           "game's heuristic where it has weights")
    kind = parameters.kinds.get(name)
    if kind is None:
        raise MatanuiError(f"no {parameters.called} named {name!r}; {parameters.whose} has: "
                           f"{parameters.allowed()}")
    if not math.isfinite(value):
        raise MatanuiError(f"{name} must be a finite number, not {value}")
    if kind is int and value != int(value):
        raise MatanuiError(f"{name} takes a whole number, not {value:g}")
    if name != "anchor_margin" and value < 0:
        raise MatanuiError(f"{name} cannot be negative (got {value:g})")
    return kind(value)


def split_settings(spec: str, parameters: Parameters | None = None) -> tuple[str, dict[str, float | int]]:
    """`ismcts@300{exploration=0.9}` -> ("ismcts@300", {"exploration": 0.9}); each setting
    is checked against `parameters` (None: read as numbers, names unchecked)."""
    base, brace, rest = spec.partition("{")
    if not brace:
        if "}" in spec:
            raise MatanuiError(f"agent {spec!r}: a '}}' without its '{{'")
        return spec, {}
    if not rest.endswith("}") or "{" in rest or "}" in rest[:-1]:
        raise MatanuiError(f"agent {spec!r}: settings go in one pair of braces at the end, "
                           "e.g. ismcts@300{exploration=0.9,rollout_limit=40}")
    settings: dict[str, float | int] = {}
    for item in filter(None, (part.strip() for part in rest[:-1].split(","))):
        name, equals, text = (part.strip() for part in item.partition("="))
        if not equals:
            raise MatanuiError(f"agent {spec!r}: {item!r} is not NAME=VALUE")
        if name in settings:
            raise MatanuiError(f"agent {spec!r}: {name} is set twice")
        try:
            value = float(text)
        except ValueError:
            raise MatanuiError(f"agent {spec!r}: {name}={text!r} is not a number") from None
        settings[name] = value if parameters is None else check_value(name, value, parameters)
    return base, settings


def with_settings(spec: str, values: dict[str, float | int]) -> str:
    """The agent `spec` with `values` written into its name (six significant figures)."""
    base, settings = split_settings(spec)
    settings.update(values)
    if not settings:
        return base
    return base + "{" + ",".join(f"{name}={value:.6g}" for name, value in settings.items()) + "}"


def split_agents(text: str) -> list[str]:
    """A comma-separated list of agents, whose names may hold commas inside braces."""
    names, depth, current = [], 0, ""
    for char in text:
        depth += {"{": 1, "}": -1}.get(char, 0)
        if char == "," and depth <= 0:
            names.append(current)
            current = ""
        else:
            current += char
    names.append(current)
    return [name.strip() for name in names if name.strip()]
