"""The analysis's chances measured against results on held-out games (docs/ai.md, "Are the
chances honest?"): the figures there are recomputed from the committed journals, and the
measurement itself judges each position from the deciding seat's view and resumes."""

from __future__ import annotations

from pathlib import Path

import pytest

from matanui.ai.calibration import (
    Position,
    brier,
    fit,
    halves,
    judge_game,
    main,
    markdown_table,
    read_journal,
    reliability,
)
from matanui.ai.recalibration import calibrated, curve
from matanui.engine import MatanuiError

ROOT = Path(__file__).resolve().parents[2]
JOURNALS = {game: ROOT / "docs" / "ai" / "calibration" / f"{game}.jsonl"
            for game in ("reconstruct", "masks", "makuta")}


def test_the_calibration_table_in_docs_is_recomputed_from_the_committed_journals():
    assert markdown_table(JOURNALS) in (ROOT / "docs" / "ai.md").read_text()


def test_the_brier_score_and_the_reliability_bins():
    said = [Position(1, 1, 0, 0.8, 1.0), Position(1, 2, 1, 0.8, 0.0), Position(2, 1, 0, 0.15, 0.0)]
    assert brier(said) == pytest.approx((0.04 + 0.64 + 0.0225) / 3)
    assert reliability(said) == [(0.1, 0.15, 0.0, 1), (0.8, 0.8, 0.5, 2)]


def test_a_games_positions_are_judged_for_the_seat_deciding_and_scored_by_its_result():
    positions = judge_game("reconstruct", 300_000, iterations=20)
    assert len(positions) == 4
    assert all(0 <= p.chance <= 1 and p.outcome in (0.0, 0.5, 1.0) for p in positions)
    assert positions == judge_game("reconstruct", 300_000, iterations=20)


def test_the_journal_resumes_and_a_damaged_line_is_named(tmp_path, capsys):
    journal = tmp_path / "cal.jsonl"
    main(["reconstruct", "--games", "2", "--iterations", "10", "--journal", str(journal)])
    main(["reconstruct", "--games", "2", "--iterations", "10", "--journal", str(journal)])
    assert len(read_journal(journal)) == 8
    assert "Brier" in capsys.readouterr().out
    journal.write_text(journal.read_text() + "{\"seed\": 1}\n")
    with pytest.raises(MatanuiError, match="line 9: not a calibration line"):
        read_journal(journal)


def test_each_games_recalibration_map_is_the_one_its_journal_fits_and_is_used_only_where_it_helps():
    for game, path in JOURNALS.items():
        fitted, checked = halves(read_journal(path))
        better = brier(checked, fit(fitted)) < brier(checked)
        assert curve(game) == (fit(fitted) if better else None), game


def test_the_map_keeps_the_order_of_chances_and_stays_within_0_and_1():
    for game in JOURNALS:
        said = [calibrated(game, chance / 20) for chance in range(21)]
        assert said == sorted(said) and 0 <= said[0] and said[-1] <= 1
