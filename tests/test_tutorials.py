"""Tutorials: each is also a test. Replayed through the engine it reaches the outcome its
rulebook prints; each step teaches a real rule of the ledger; a learner who makes another
move is given a hint and the game does not change."""

from __future__ import annotations

import dataclasses
import re
import tomllib
from pathlib import Path

import pytest

from matanui import games
from matanui.engine import DataFileError
from matanui.games.tutorial import Tutorial, TutorialError, Walk, check, read, tutorial, tutorials
from tests.test_ledger import ledger_ids

ROOT = Path(__file__).resolve().parents[1]
ALL = [t for name in games.names() for t in tutorials(name)]


def ids(t: Tutorial) -> str:
    return f"{t.game}-{t.number}"


def test_each_game_has_its_rulebooks_tutorials():
    # Masks: the three Theme Deck demo rounds; Makuta: the worked example; Reconstruct: a first game.
    counts = {name: len(tutorials(name)) for name in games.names()}
    assert counts == {"reconstruct": 1, "masks": 3, "makuta": 1}
    assert [t.title for t in tutorials("masks")] == ["Theme Deck One: Pohatu and Gali",
                                                     "Theme Deck Two: Tahu and Kopaka",
                                                     "Theme Deck Three: Onua and Lewa"]


@pytest.mark.parametrize("lesson", ALL, ids=ids)
def test_the_tutorial_replayed_through_the_engine_reaches_its_printed_outcome(lesson):
    assert check(lesson) == []


@pytest.mark.parametrize("lesson", ALL, ids=ids)
def test_every_step_teaches_a_rule_of_its_games_ledger(lesson):
    known = set(ledger_ids(ROOT / "docs" / "rules" / f"{lesson.game}.md"))
    unknown = [(i, s.teaches) for i, s in enumerate(lesson.steps, start=1) if s.teaches not in known]
    assert not unknown, f"{lesson.source}: steps teaching ids the ledger lacks: {unknown}"


def test_the_learner_waits_while_the_opponents_scripted_moves_are_played():
    walk, played = Walk.to(tutorial("masks", 1), 1)  # Player 1 moved West; Player 2's move follows
    assert [(p.seat, p.step.action) for p in played] == [(1, "move:E")]
    assert walk.state.current_player == 0 and walk.done == 2
    assert played[0].step.teaches == "MASKS-TURN-ORDER"


def test_another_legal_move_gets_a_hint_and_changes_nothing():
    walk = Walk(tutorial("masks", 1))
    before = walk.state.observation(0)
    played, hint = walk.attempt("move:N")
    assert played == [] and walk.done == 0 and walk.state.observation(0) == before
    assert hint == ("Move north to the blank space at F2 is legal, but not this tutorial's move. "
                    "This step is to move west to the blank space at G1.")


def test_an_illegal_move_gets_the_reason_and_what_to_do():
    walk = Walk(tutorial("reconstruct", 1))
    played, hint = walk.attempt("stop:8")
    assert played == [] and walk.done == 0
    assert hint == "That is not a legal move now. This step is to add your Left Leg (card #1, red)."


def test_the_expected_move_plays_it_and_the_replies_after_it():
    walk = Walk(tutorial("reconstruct", 1))
    played, hint = walk.attempt("add:1:left-leg")
    assert hint is None
    assert [(p.seat, p.step.action) for p in played] == [(0, "add:1:left-leg"), (1, "allow"), (1, "draw"),
                                                          (1, "add:2:right-arm")]
    assert walk.next_step.action == "allow" and walk.state.current_player == 0


def test_a_step_the_engine_no_longer_allows_is_reported_with_file_and_step():
    lesson = tutorial("masks", 2)
    steps = list(lesson.steps)
    steps[2] = dataclasses.replace(steps[2], action="move:S")
    problems = check(dataclasses.replace(lesson, steps=tuple(steps)))
    assert len(problems) == 1
    assert problems[0].startswith(f"{lesson.source}: step 3: 'move:S' is not legal in the engine now")


def test_an_outcome_the_engine_does_not_reach_is_reported():
    lesson = tutorial("makuta", 1)
    wrong = dataclasses.replace(lesson.outcome[0], equals=["rahi:muaka:19"])
    problems = check(dataclasses.replace(lesson, outcome=(wrong, *lesson.outcome[1:])))
    assert problems == [f"{lesson.source}: outcome 'beaten' (The Rahi Muaka (18) is out of the game): "
                        "expected ['rahi:muaka:19'], the engine has ['rahi:muaka:18']"]


def test_a_position_outside_the_tutorial_is_refused():
    with pytest.raises(TutorialError, match="a tutorial position is 0 to 20 steps, not 21"):
        Walk.to(tutorial("masks", 1), 21)
    with pytest.raises(TutorialError, match="masks has no tutorial 4; its tutorials are 1 to 3"):
        tutorial("masks", 4)


GOOD = """
title = "t"
summary = "s"
intro = "i"
finale = "f"
learner = 0
players = ["tahu", "kopaka"]
[arrangement]
[[step]]
action = "pass"
explain = "e"
teaches = "RECON-PLAY-OPTIONAL"
[[outcome]]
says = "x"
path = "turn"
equals = 1
"""


@pytest.mark.parametrize(("change", "message"), [
    (('teaches = "RECON-PLAY-OPTIONAL"', 'teaches = "play optional"'),
     "step 1.teaches is 'play optional'; it must be a rule-ledger id such as MASKS-CHALLENGE-TIE"),
    (('explain = "e"', 'explain = "e"\nexplian = "typo"'), "step 1.explian is not a known field"),
    (('action = "pass"', ""), "step 1.action is missing"),
    (("equals = 1", ""), "outcome 1.equals is missing"),
    (("learner = 0", "learner = 2"), "tutorial.learner is 2; allowed: 0 to 1"),
])
def test_a_bad_tutorial_file_names_file_step_and_field(tmp_path, change, message):
    path = tmp_path / "1-bad.toml"
    path.write_text(GOOD.replace(*change), encoding="utf-8")
    with pytest.raises(DataFileError) as error:
        read("reconstruct", 1, path)
    assert str(error.value).startswith("tutorial 1-bad.toml: ") and message in str(error.value)


def test_the_file_those_changes_spoil_loads(tmp_path):
    path = tmp_path / "1-good.toml"
    path.write_text(GOOD, encoding="utf-8")
    lesson = read("reconstruct", 1, path)
    assert lesson.steps[0].action == "pass" and lesson.outcome[0].equals == 1


def test_tutorial_files_are_shipped_in_the_package():
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "tutorials/*.toml" in pyproject["tool"]["setuptools"]["package-data"]["*"]


def test_the_example_in_docs_tutorials_md_is_a_working_tutorial(tmp_path):
    text = (ROOT / "docs" / "tutorials.md").read_text(encoding="utf-8")
    example = text.split("```toml\n", 1)[1].split("```", 1)[0]
    path = tmp_path / "1-example.toml"
    path.write_text(example, encoding="utf-8")
    assert check(read("masks", 1, path)) == []


def starting_places(lesson: Tutorial) -> list[str]:
    """Where each seat's piece stands when the tutorial starts, as the words name it."""
    obs = lesson.start().observation(None)
    places = obs.get("pawns") or obs.get("positions") or []
    return ["Toa Landing" if place == "start" else place for place in places]


PLACE = re.compile(r"Toa Landing|-?\d+,-?\d+|\b[A-Z]\d{1,2}\b")


@pytest.mark.parametrize("lesson", ALL, ids=ids)
def test_the_intro_puts_each_toa_where_the_arrangement_does(lesson):
    game = games.get(lesson.game)
    places = starting_places(lesson)
    clauses = re.split(r"[.;]\s", lesson.intro)
    for seat, character in enumerate(lesson.players):
        name = game.character_name(character)
        for clause in clauses:
            named = PLACE.findall(clause)
            if re.search(rf"\b{name}\b", clause) and named:
                assert places[seat] in named, f"{lesson.source}: {clause!r} but {name} is at {places[seat]}"
        if lesson.game == "makuta":  # pawns start where the arrangement puts them: say where
            assert any(re.search(rf"\b{name}\b", c) and places[seat] in PLACE.findall(c)
                       for c in clauses), f"{lesson.source}: the intro never says where {name} stands"


@pytest.mark.parametrize("lesson", [t for t in ALL if t.game == "makuta"], ids=ids)
def test_the_makuta_set_up_says_each_pawn_stands_where_the_arrangement_puts_it(lesson):
    game = games.get(lesson.game)
    places = starting_places(lesson)
    setup = " ".join(e.text for e in Walk(lesson).log if e.kind == "setup")
    clauses = re.split(r"[.;]\s", setup)
    for seat, character in enumerate(lesson.players):
        name = game.character_name(character)
        said = [PLACE.findall(c) for c in clauses if re.search(rf"\b{name}\b", c) and PLACE.search(c)]
        assert said and all(places[seat] in named for named in said), (name, places[seat], setup)
