"""Search parameters written into an agent's name: `ismcts@300{exploration=0.9}`.

A name then says exactly what played, so a tuned value (`matanui tune`) is tested like any
other agent (`matanui arena --agents 'ismcts@300{exploration=0.9}',ismcts@300`) and a
journal line names what it measured. Several settings are separated by commas inside the
braces; a list of agents is split only at the commas outside them (`split_agents`).
"""

from __future__ import annotations

import math

from matanui.engine import MatanuiError

# The search's parameters a name may set (matanui.ai.ismcts.ISMCTSAgent), with their kind.
TUNABLE: dict[str, type] = {"exploration": float, "rollout_limit": int, "anchor_margin": float}


def _allowed() -> str:
    return ", ".join(f"{name} ({'a whole number' if kind is int else 'a number'})"
                     for name, kind in TUNABLE.items())


def check_value(name: str, value: float) -> float | int:
    """`value` as the kind `name` takes; MatanuiError if it is not one of the search's
    parameters or not a value it can take."""
    kind = TUNABLE.get(name)
    if kind is None:
        raise MatanuiError(f"no search parameter named {name!r}; the parameters are: {_allowed()}")
    if not math.isfinite(value):
        raise MatanuiError(f"{name} must be a finite number, not {value}")
    if kind is int and value != int(value):
        raise MatanuiError(f"{name} takes a whole number, not {value:g}")
    if name != "anchor_margin" and value < 0:
        raise MatanuiError(f"{name} cannot be negative (got {value:g})")
    return kind(value)


def split_settings(spec: str) -> tuple[str, dict[str, float | int]]:
    """`ismcts@300{exploration=0.9}` -> ("ismcts@300", {"exploration": 0.9})."""
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
        settings[name] = check_value(name, value)
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
