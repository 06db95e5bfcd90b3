"""Learning and playing without the rulebook: `matanui rules GAME`, `?` in a terminal game,
the key to every symbol the boards show, card colours in words, and the replay's keys and
narration."""

from __future__ import annotations

import random
import re
from io import StringIO

import pytest
from rich.console import Console
from rich.text import Text
from typer.testing import CliRunner

from matanui import games
from matanui.cli import app
from matanui.cli.replay import replay_prompt
from matanui.games.guide import legend
from matanui.games.makuta.components import KIND_IDS, LEGEND
from matanui.games.makuta.render import render as makuta_render
from matanui.games.masks.render import render as masks_render
from matanui.games.reconstruct.render import render as reconstruct_render
from matanui.terminal.game import PERSON, Seat, TerminalGame
from tests.test_terminal import Table

runner = CliRunner()


def said(result) -> str:
    return " ".join(result.output.split())


def letters(game: str, group: str | None = None) -> set[str]:
    return {s.letter for s in legend(game) if group is None or s.group == group}


# -- matanui rules GAME --------------------------------------------------------------------


@pytest.mark.parametrize("game", games.names())
def test_rules_prints_how_to_play_and_the_key_to_every_symbol(game):
    result = runner.invoke(app, ["rules", game])
    assert result.exit_code == 0
    assert f"How to play {games.get(game).title}" in result.output
    assert "Key to the symbols" in result.output
    for symbol in legend(game):
        assert " ".join(symbol.name.split()[:2]) in said(result), symbol.id


def test_rules_of_an_unknown_game_names_the_games():
    result = runner.invoke(app, ["rules", "bohrok"])
    assert result.exit_code == 2
    assert "no game named 'bohrok'; the games are: reconstruct, masks, makuta" in said(result)


# -- ? in a terminal game ------------------------------------------------------------------


@pytest.mark.parametrize("game", games.names())
def test_question_mark_in_a_game_shows_how_to_play_with_the_key_to_the_board(tmp_path, game):
    rules = games.get(game)
    state = rules.new_game(1, rules.characters()[:rules.min_players], {})
    out = StringIO()
    console = Console(file=out, width=80, highlight=False)
    seats = [Seat(PERSON)] + [Seat("random", _random_agent(game))] * (rules.min_players - 1)
    table = Table(["?", "q"], out)
    TerminalGame(state, seats, tmp_path / "g.json", console, table).run()
    shown = table.prompts[-1][1]  # what the screen showed after "?"
    assert f"How to play {rules.title}" in shown and "Key to the symbols" in shown
    for symbol in legend(game):
        if symbol.terminal.strip():
            assert symbol.terminal.strip() in shown, symbol.id
    assert "'l' the whole log" in shown  # and the commands


def _random_agent(game: str):
    from matanui.ai import make_agent

    return make_agent("random", game, seed=1)


# -- the key covers every symbol -----------------------------------------------------------


def test_the_masks_key_names_every_map_symbol_as_the_map_does():
    game = games.get("masks")
    key = {s.letter: s for s in legend("masks") if s.group == "space"}
    for symbol, space in game.maps.legend.items():
        assert symbol in key, symbol
        assert key[symbol].name == space.name


def test_the_makuta_key_covers_every_board_letter_token_and_die():
    assert LEGEND <= letters("makuta", "space")
    assert set(KIND_IDS) <= letters("makuta", "token")
    assert {"white", "red", "green"} <= letters("makuta", "die")


def test_the_reconstruct_key_covers_every_card_kind_and_colour():
    deck = games.get("reconstruct").deck
    assert {card.kind for card in deck.cards.values()} <= letters("reconstruct", "card")
    assert set(deck.colours) <= letters("reconstruct", "colour")


def map_cells(drawing: str, label: str, size: int, width: int) -> set[str]:
    """The cells of the map rows of a plain drawing: a row's first `size` columns match
    `label` (the row's name), cells of `width` columns follow."""
    cells = set()
    for line in drawing.splitlines():
        if re.fullmatch(label, line[:size]):
            row = line[size:]
            cells |= {row[i:i + width] for i in range(0, len(row), width)}
    return cells


def random_observations(name: str, players: int, options: dict, every: int):
    game = games.get(name)
    for seed in range(2):
        rng = random.Random(seed)
        state = game.new_game(seed, rng.sample(game.characters(), players), options)
        step = 0
        while not state.is_over:
            if step % every == 0:
                yield game, state.observation(step // every % players)
            state.apply(rng.choice(state.legal_actions()))
            step += 1


def test_every_square_of_the_makuta_terminal_map_is_in_the_key():
    terminal = [s.terminal.ljust(2) for s in legend("makuta") if s.terminal]
    initials = {games.get("makuta").parts.toa[t].name[0] for t in games.get("makuta").characters()}
    unexplained = set()
    for game, obs in random_observations("makuta", 4, {}, every=20):
        plain = Text.from_markup(makuta_render(game, obs)).plain
        for cell in map_cells(plain, r" *-?\d+ ", 6, 2) - {"  ", " "}:
            known = any(all(k in ("?", c) for k, c in zip(glyph, cell, strict=True)) for glyph in terminal)
            pawn = cell[0] in initials and cell[1] in "*+"
            rahi = cell.strip().isdecimal()  # a Rahi turned over shows its strength
            lock = re.fullmatch(r"L\d", cell)  # a lock turned over shows its gate's number
            if not (known or pawn or rahi or lock):
                unexplained.add(cell)
    assert not unexplained


def test_every_space_of_the_masks_terminal_map_is_in_the_key():
    terminal = {s.terminal.replace(" ", "") for s in legend("masks") if s.group == "space"}
    toa = {games.get("masks").cards.toa[t].name[:2] for t in games.get("masks").characters()}
    for options in ({"map": "a"}, {"map": "both"}):
        for game, obs in random_observations("masks", 2, options, every=15):
            plain = Text.from_markup(masks_render(game, obs)).plain
            width = 3 if options["map"] == "a" else 2
            cells = {c.replace(" ", "") for c in map_cells(plain, r"  [A-I] ", 4, width)}
            assert cells <= terminal | toa | {""}, cells - terminal - toa


# -- Reconstruct's colours in words --------------------------------------------------------


def test_every_reconstruct_card_shows_its_colour_as_a_word():
    game = games.get("reconstruct")
    state = game.arrange(["tahu", "kopaka"], {"advanced": True}, hands=[[1, 8, 15, 22, 29], [2]],
                         first_player=0, draw_pile=[35, 36])
    hand = Text.from_markup(reconstruct_render(game, state.observation(0))).plain
    for card in (1, 8, 15, 22, 29):
        assert f"#{card} " in hand
        colour = game.deck.cards[card].colour
        assert re.search(rf"#{card} [^\n]*\({colour}\)", hand), colour


# -- the replay ----------------------------------------------------------------------------


def test_the_replay_prompt_shows_its_keys_in_brackets():
    out = StringIO()
    Console(file=out, width=120).print(replay_prompt(4))
    assert out.getvalue().strip() == "[Enter] or [n] next, [b] back, [0-4] go to that action, [q] quit:"


def test_replay_step_by_step_tells_what_each_action_did_and_numbers_seats_from_1(tmp_path):
    save = tmp_path / "g.json"
    runner.invoke(app, ["play", "reconstruct", "--as", "gali", "--seed", "5", "--save", str(save)],
                  input="1\n1\nq\n")
    result = runner.invoke(app, ["replay", str(save), "--seat", "1"], input="\nn\nq\n")
    assert result.exit_code == 0
    text = said(result)
    assert "Gali Nuva and Tahu Nuva each build their Toa Nuva" in text  # the set-up, at action 0
    assert "Action 1, Gali Nuva: Add your Tool (card #17, green)" in text
    assert "Gali Nuva plays card #17 to add a Tool." in text
    assert "Gali Nuva (you)" in text  # watched as the first player
    assert "[0-4] go to that action" in text
    bad = runner.invoke(app, ["replay", str(save), "--seat", "0"])
    assert bad.exit_code == 2 and "--seat must be a player from 1 to 2" in said(bad)
