"""The sizes of each game's encoding as docs/research.md tables them: generated here from the
encodings, so the document cannot drift from them (tests/envs/test_research_sizes.py compares).

    python -m matanui.envs.sizes    # prints the table to paste into docs/research.md
"""

from __future__ import annotations

from matanui import games

from .encoding import encoding_for, has_encoding

HEADER = ("| game | players | actions | observation floats | memory floats |\n"
          "|---|---|---|---|---|")


def _joined(values: list[int]) -> str:
    """'22' when every player count gives the same, else '38,218 / 38,880 / ...'."""
    distinct = list(dict.fromkeys(values))
    return f"{distinct[0]:,}" if len(distinct) == 1 else " / ".join(f"{v:,}" for v in values)


def size_table() -> str:
    """One row per game with an encoding, its sizes at every player count it allows."""
    rows = [HEADER]
    for name in games.names():
        if not has_encoding(name):
            continue
        spec = games.get(name)
        counts = list(range(spec.min_players, spec.max_players + 1))
        encodings = [encoding_for(spec, count) for count in counts]
        rows.append(f"| {name} | {' / '.join(map(str, counts))} "
                    f"| {_joined([len(e.actions) for e in encodings])} "
                    f"| {_joined([e.observation_size for e in encodings])} "
                    f"| {_joined([e.memory_size for e in encodings])} |")
    return "\n".join(rows)


if __name__ == "__main__":
    print(size_table())
