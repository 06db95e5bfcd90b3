"""Every game fits an 80-column terminal: positions from random games of all three games
(Makuta with 2 and 6 players, every map of Masks, Reconstruct plain and advanced), seen by
a spectator and by each seat in turn, drawn in the terminal's panel at 80 columns, break no line
(a wrapped map row would be unreadable) and run past none."""

from __future__ import annotations

import importlib
import random
from io import StringIO

import pytest
from rich.console import Console
from rich.panel import Panel
from rich.text import Text

from matanui import games
from matanui.games.text import wrap

EVERY = {"reconstruct": 3, "masks": 8, "makuta": 40}  # steps between positions drawn
CASES = [
    ("reconstruct", 2, {}), ("reconstruct", 2, {"advanced": True}),
    ("masks", 2, {"map": "a"}), ("masks", 2, {"map": "b"}), ("masks", 2, {"map": "both"}),
    ("masks", 2, {"map": "both", "short": True}),
    ("makuta", 2, {}), ("makuta", 6, {}),
]


def positions(name: str, players: int, options: dict, seeds: int = 3):
    game = games.get(name)
    for seed in range(seeds):
        rng = random.Random(seed)
        characters = rng.sample(game.characters(), players)
        state = game.new_game(seed, characters, options)
        step, every = 0, EVERY[name]
        while True:
            if step % every == 0 or state.is_over:
                yield state.observation(None)  # and each seat in turn
                yield state.observation(step // every % players)
            if state.is_over:
                break
            actions = state.legal_actions()
            state.apply(actions[rng.randrange(len(actions))])
            step += 1


@pytest.mark.parametrize(("name", "players", "options"), CASES,
                         ids=[f"{n}-{p}p-{'-'.join(f'{k}={v}' for k, v in o.items()) or 'default'}"
                              for n, p, o in CASES])
def test_every_position_fits_80_columns_without_a_broken_line(name, players, options):
    game = games.get(name)
    render = importlib.import_module(f"matanui.games.{name}.render").render
    seen = 0
    for obs in positions(name, players, options):
        drawing = render(game, obs)
        lines = drawing.split("\n")
        too_long = [Text.from_markup(line).plain for line in lines if Text.from_markup(line).cell_len > 76]
        assert not too_long, too_long
        out = StringIO()
        Console(file=out, width=80, highlight=False, color_system=None).print(Panel(drawing, expand=False))
        shown = out.getvalue().splitlines()
        assert len(shown) == len(lines) + 2  # nothing wrapped by the terminal
        assert max(len(line) for line in shown) <= 80
        seen += 1
    assert seen > 50


def test_a_long_line_wraps_at_spaces_under_its_words_and_keeps_its_markup():
    line = ("   4. Trade: discard card #20 (green: remove Tool / Kanohi Nuva), take card #16 "
            "(green: add Left Arm / Tool / Head) from the discard pile; your turn ends  [dim]trade:20:16[/]")
    assert wrap(line, 79, hang=6) == [
        "   4. Trade: discard card #20 (green: remove Tool / Kanohi Nuva), take card #16",
        "      (green: add Left Arm / Tool / Head) from the discard pile; your turn ends",
        "      [dim]trade:20:16[/dim]",
    ]
    assert wrap("short [red]line[/]") == ["short [red]line[/]"]  # a line that fits is kept as it is
