"""docs/research.md's tables of the encodings, generated here from the encodings themselves so
the document cannot drift from them (tests/envs/test_research_sizes.py compares): the sizes of
every game's encodings, and every observation and memory piece of each (its name, shape,
floats and what it holds, from the encoding's `about`).

    python -m matanui.envs.sizes            # the size table
    python -m matanui.envs.sizes --pieces   # the per-piece tables
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Iterator

from matanui import games

from .encoding import DEFAULT_VARIANT, Encoding, Layout, encoding_for, encoding_variants, has_encoding

HEADER = ("| game | encoding | players | actions | observation floats | memory floats |\n"
          "|---|---|---|---|---|---|")
PIECES_HEADER = "| piece | of | shape | floats | holds |\n|---|---|---|---|---|"


def _joined(values: list[int]) -> str:
    """'22' when every player count gives the same, else '38,218 / 38,880 / ...'."""
    distinct = list(dict.fromkeys(values))
    return f"{distinct[0]:,}" if len(distinct) == 1 else " / ".join(f"{v:,}" for v in values)


def _encodings() -> Iterator[tuple[str, str, list[int], list[Encoding]]]:
    """(game, variant, player counts, an encoding per count) for every game with an encoding."""
    for name in games.names():
        if not has_encoding(name):
            continue
        spec = games.get(name)
        counts = list(range(spec.min_players, spec.max_players + 1))
        for variant in encoding_variants(spec):
            yield name, variant, counts, [encoding_for(spec, count, variant) for count in counts]


def size_table() -> str:
    """One row per game and encoding, its sizes at every player count it allows."""
    rows = [HEADER]
    for name, variant, counts, encodings in _encodings():
        rows.append(f"| {name} | {variant} | {' / '.join(map(str, counts))} "
                    f"| {_joined([len(e.actions) for e in encodings])} "
                    f"| {_joined([e.observation_size for e in encodings])} "
                    f"| {_joined([e.memory_size for e in encodings])} |")
    return "\n".join(rows)


def _shape(shape: tuple[int, ...]) -> str:
    return " x ".join(f"{n:,}" for n in shape)


def _piece_rows(part: str, fewest: Layout, most: Layout, about: dict[str, str]) -> list[str]:
    rows = []
    for (name, _, shape), (_, _, widest) in zip(fewest.pieces, most.pieces, strict=True):
        if name not in about:
            raise AssertionError(f"the {part} piece {name!r} has no words in its encoding's `about`")
        shapes, floats = _shape(shape), f"{math.prod(shape):,}"
        if widest != shape:  # a piece per seat grows with the players
            shapes, floats = f"{shapes} to {_shape(widest)}", f"{floats} to {math.prod(widest):,}"
        rows.append(f"| {name} | {part} | {shapes} | {floats} | {about[name]} |")
    return rows


def piece_tables() -> str:
    """For every game and encoding, each observation and memory piece in tensor order."""
    blocks = []
    for name, variant, counts, encodings in _encodings():
        fewest, most = encodings[0], encodings[-1]
        players = f"{counts[0]} players" if len(counts) == 1 else f"{counts[0]} to {counts[-1]} players"
        chosen = "" if variant == DEFAULT_VARIANT else f', `encoding="{variant}"`'
        rows = [f"**{name}**{chosen} ({players}):", "", PIECES_HEADER]
        about = dict(fewest.about)
        rows += _piece_rows("observation", fewest.observation_layout, most.observation_layout, about)
        rows += _piece_rows("memory", fewest.memory_layout, most.memory_layout, about)
        blocks.append("\n".join(rows))
    return "\n\n".join(blocks)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pieces", action="store_true", help="print the per-piece tables instead")
    print(piece_tables() if parser.parse_args().pieces else size_table())


if __name__ == "__main__":
    main()
