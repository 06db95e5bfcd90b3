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


# -- the line mode's box and narration at other widths ----------------------------------------


def played_at(tmp_path, width: int, answers: list[str]) -> list[str]:
    from matanui.ai import make_agent
    from matanui.terminal.game import PERSON, Seat, TerminalGame

    out = StringIO()
    console = Console(file=out, width=width, highlight=False, color_system=None)
    state = games.get("reconstruct").new_game(3, ["tahu", "gali"])
    answers = list(answers)
    seats = [Seat(PERSON), Seat("random", make_agent("random", "reconstruct"))]
    TerminalGame(state, seats, tmp_path / "g.json", console, lambda prompt: answers.pop(0)).run()
    return out.getvalue().splitlines()


def test_narrower_than_the_box_the_board_is_drawn_without_its_border_and_never_wrapped(tmp_path):
    shown = played_at(tmp_path, 77, ["q"])  # this board is 75 columns wide, 79 in its box
    assert not any(line.startswith(("╭", "│", "╰")) for line in shown)
    assert any("Your hand" in line for line in shown)
    assert max(len(line) for line in shown if "g.json" not in line) <= 77


def test_narrower_than_the_board_the_size_it_needs_is_said_once(tmp_path):
    shown = played_at(tmp_path, 50, ["1", "q"])
    told = [line for line in shown if "The board needs" in line]
    assert len(told) == 1 and "columns" in told[0] and "this terminal has 50" in " ".join(shown)


def test_on_a_wide_terminal_narration_and_choices_wrap_to_the_width_of_the_box(tmp_path):
    shown = played_at(tmp_path, 120, ["1", "q"])
    box = max(len(line) for line in shown if line.startswith("╭"))
    assert box < 120
    assert max(len(line) for line in shown if "g.json" not in line) <= box  # not the save's path
    assert any("each build their Toa Nuva" in line for line in shown)
