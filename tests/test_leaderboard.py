"""The leaderboard in docs/research.md is what the committed journals say, and the journals
follow the benchmark protocol: the fixed evaluation seeds, each played twice with the seats
swapped, every agent of the board in every game."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from matanui.arena.ratings import win_matrix
from matanui.arena.tournament import Journal
from matanui.train.leaderboard import FIRST_SEED, GAMES, JOURNALS, board, outcomes, tables

DOC = Path(__file__).resolve().parents[1] / "docs" / "research.md"
BEGIN, END = "<!-- leaderboard: python -m matanui.train.leaderboard -->\n", "<!-- /leaderboard -->"


def test_the_leaderboard_in_the_document_is_recomputed_from_the_journals():
    text = DOC.read_text(encoding="utf-8")
    assert BEGIN in text and END in text
    assert text.split(BEGIN, 1)[1].split(END, 1)[0] == tables()


@pytest.mark.parametrize("path", sorted(JOURNALS.glob("*/*/games.jsonl")),
                         ids=lambda path: "/".join(path.parts[-3:-1]))
def test_every_journal_plays_the_fixed_seeds_twice_with_the_seats_swapped(path):
    games = list(Journal(path).done.values())
    seeds = Counter(game.seed for game in games)
    assert sorted(seeds) == list(range(FIRST_SEED, FIRST_SEED + len(seeds)))
    assert set(seeds.values()) == {2}
    for seed in seeds:
        first, second = (game for game in games if game.seed == seed)
        assert first.agents == second.agents[::-1] and first.characters == second.characters


@pytest.mark.parametrize("game", GAMES)
def test_every_agent_of_the_board_is_measured_in_every_game(game):
    matrix = win_matrix(outcomes(JOURNALS, game))
    agents = [spec for _, spec in board(game)]
    assert set(agents) <= set(matrix)
    assert all(other in matrix["medium"] for other in agents if other != "medium")  # the fixed reference
