"""Hints and the analysis of a game judge a decision from the deciding seat's view alone:
two positions that differ only in what that seat cannot see get the same estimates and the
same hint, and a finished game's analysis marks its moves by the chance they lost."""

from __future__ import annotations

import random

import pytest
from typer.testing import CliRunner

from matanui import games
from matanui.ai.analysis import MARKS, Judged, analyse, estimate, hint, turning_points
from matanui.ai.base import SeatView
from matanui.ai.heuristics import makuta, masks
from matanui.ai.heuristics.reconstruct import explain
from matanui.ai.registry import make_agent
from matanui.cli import app
from matanui.engine import MatanuiError, State

FEW = 40  # iterations: the tests judge what is read, not how well


def played(game: str, seed: int, steps: int, agents: tuple[str, ...] = ("heuristic", "random")) -> State:
    """A game of `game` played `steps` actions in (or to its end) by the given agents."""
    rules = games.get(game)
    state = rules.new_game(seed, rules.characters()[:2], {})
    bots = [make_agent(name, game, seed + index) for index, name in enumerate(agents)]
    for _ in range(steps):
        if state.is_over:
            break
        seat = state.current_player
        state.apply(bots[seat].act(SeatView(state, seat)))
    return state


# What a state holds beside the table itself: its history and its own random generator.
BOOKKEEPING = {"history", "rng", "seed", "_moves"}


def hidden_twin(state: State, seat: int) -> State:
    """The same position for `seat`, what it cannot see (hands, piles, the dice to come) dealt
    anew: a determinization from its view that differs from the truth in the hidden parts."""
    twin = state.determinize(seat, random.Random(1))
    assert twin.observation(seat) == state.observation(seat)
    hidden = {key for key, value in vars(state).items() if vars(twin).get(key) != value} - BOOKKEEPING
    assert hidden, "the determinization changed nothing hidden"
    return twin


@pytest.mark.parametrize("game", ["reconstruct", "masks", "makuta"])
def test_a_hint_and_the_chances_depend_only_on_what_the_asking_seat_can_see(game):
    state = played(game, seed=11, steps=9)
    seat = state.current_player
    twin = hidden_twin(state, seat)
    mine, theirs = SeatView(state, seat), SeatView(twin, seat)
    assert estimate(mine, seed=3, iterations=FEW) == estimate(theirs, seed=3, iterations=FEW)
    assert hint(mine, seed=3, iterations=FEW) == hint(theirs, seed=3, iterations=FEW)


def test_a_hint_names_a_legal_move_in_the_games_words_with_a_reason():
    state = played("masks", seed=4, steps=6)
    view = SeatView(state, state.current_player)
    found = hint(view, iterations=FEW)
    assert found.action in view.legal_actions()
    assert found.words == view.describe(found.action)
    assert found.reason and 0 <= found.chance <= 1


def test_a_seat_without_a_decision_gets_no_estimate():
    state = played("reconstruct", seed=2, steps=3)
    waiting = 1 - state.current_player
    with pytest.raises(MatanuiError, match=f"player {waiting + 1} has no decision"):
        estimate(SeatView(state, waiting), iterations=FEW)


def test_stopping_the_seventh_part_is_explained_in_the_games_words():
    """Reconstruct's own reason: a stop card against the part that would win."""
    for seed in range(400):
        state = played("reconstruct", seed, steps=400, agents=("random", "random"))
        record = state.record()
        replayed = games.get("reconstruct").new_game(record.seed, list(record.players), {})
        for action in record.actions:
            seat = replayed.current_player
            obs = replayed.observation(seat)
            if (obs["phase"] == "respond" and obs["pending"]["effect"] == "add"
                    and len(obs["built"][1 - seat]) == 6 and action.startswith("stop:")):
                words = explain(SeatView(replayed, seat), action)
                assert words is not None and "seventh part" in words
                return
            replayed.apply(action)
    pytest.fail("no game stopped a seventh part")


def first_decision(game: str, wanted, seeds: int = 20) -> tuple[SeatView, str]:
    """The first decision, in heuristic games of `game`, whose view and action `wanted` accepts."""
    rules = games.get(game)
    for seed in range(seeds):
        state = rules.new_game(seed, rules.characters()[:2], {})
        bots = [make_agent("heuristic", game, seed + i) for i in range(2)]
        while not state.is_over:
            view = SeatView(state, state.current_player)
            action = bots[view.seat].act(view)
            if len(view.legal_actions()) > 1 and wanted(view, action):
                return view, action
            state.apply(action)
    pytest.fail(f"no {game} game had such a decision")


def lander_wins(mine, theirs) -> int:
    return sum(m >= t for m, t in zip(mine, theirs, strict=True))


def test_a_masks_hint_to_wear_a_card_counts_the_skills_it_wins():
    def gains(view, action):
        obs = view.observation()
        if obs["phase"] != "claim" or action == "keep":
            return False
        me, them = obs["toa"][view.seat], obs["toa"][1 - view.seat]
        bonus = view.game.cards.mask_cards[obs["claim"]].bonus
        old = me["mask"] if view.game.cards.mask_cards[obs["claim"]].kind == "mask" else me["turaga"]
        taken_off = view.game.cards.mask_cards[old].bonus if old else (0,) * 6
        worn = [s - o + b for s, o, b in zip(me["skills"], taken_off, bonus, strict=True)]
        return lander_wins(worn, them["skills"]) > lander_wins(me["skills"], them["skills"])
    view, action = first_decision("masks", gains)
    obs = view.observation()
    now = lander_wins(obs["toa"][view.seat]["skills"], obs["toa"][1 - view.seat]["skills"])
    words = masks.explain(view, action)
    assert words is not None and words.startswith("Wear ") and f"of the six skills, not {now}." in words
    assert masks.explain(view, "keep") is None  # keeping it would be the worse choice: no reason for it


def test_a_masks_hint_keeps_the_cards_of_a_challenge_already_won():
    def ahead(view, action):
        obs = view.observation()
        if obs["phase"] != "window" or action != "pass":
            return False
        c, me = obs["challenge"], obs["seat"]
        return c["scores"][me] > c["scores"][1 - me]
    view, action = first_decision("masks", ahead)
    challenge = view.observation()["challenge"]
    words = masks.explain(view, action)
    assert words is not None and words.startswith("Keep your cards")
    assert f"{challenge['skill'].capitalize()} of {challenge['scores'][view.seat]}" in words


def test_a_makuta_hint_adds_up_a_roll_that_already_wins_without_showing_tokens():
    def winning(view, action):
        obs = view.observation()
        c = obs["challenge"]
        return obs["phase"] == "bonus" and action == "settle" and c["roll"] + c["bonus"] > c["strength"]
    view, action = first_decision("makuta", winning)
    words = makuta.explain(view, action)
    assert words is not None and words.startswith("Add up now") and "already beats" in words


def test_a_makuta_hint_gives_back_the_token_the_sensible_player_would():
    view, action = first_decision("makuta", lambda view, a: view.observation()["phase"] == "return")
    words = makuta.explain(view, action)
    assert words is not None and words.startswith("Give back your ")
    others = [a for a in view.legal_actions() if a != action]
    assert all(makuta.explain(view, other) is None for other in others)


def judged(before: float, after: float, best: str = "b", forced: bool = False) -> Judged:
    return Judged(1, 0, "a", "A", best, "B", before, after, forced)


@pytest.mark.parametrize(("lost", "mark"), [(0.05, None), (0.10, "inaccuracy"), (0.2, "mistake"),
                                             (0.29, "mistake"), (0.30, "blunder"), (0.9, "blunder")])
def test_a_move_is_marked_by_the_chance_it_lost_against_the_best(lost, mark):
    assert judged(0.95, 0.95 - lost).mark == mark
    assert [threshold for _, threshold in MARKS] == [0.30, 0.20, 0.10]


def test_the_best_move_and_a_forced_move_are_never_marked():
    assert judged(0.9, 0.1, best="a").mark is None
    assert judged(0.9, 0.1, forced=True).mark is None


def test_a_finished_games_analysis_judges_every_decision_in_order_and_repeats_exactly():
    record = played("reconstruct", seed=6, steps=400).record()
    first = list(analyse(record, seed=1, iterations=FEW))
    assert first == list(analyse(record, seed=1, iterations=FEW))
    numbers = [decision.number for decision in first]
    assert numbers == sorted(numbers) and numbers[-1] <= len(record.actions)
    for decision in first:
        assert 0 <= decision.after <= 1 and 0 <= decision.before <= 1
        assert decision.played == record.actions[decision.number - 1]
    points = turning_points(first)
    assert len(points) == 3 and all(point in first for point in points)


def test_matanui_analyse_prints_the_decisions_a_summary_and_saves_a_chart(tmp_path):
    record = played("reconstruct", seed=8, steps=400).record()
    path = tmp_path / "game.json"
    record.save(path)
    result = CliRunner().invoke(app, ["analyse", str(path), "--iterations", "20"])
    assert result.exit_code == 0, result.output
    assert "Decisions judged from each player's own view" in result.output
    assert "Turning points" in result.output
    assert (tmp_path / "game.analysis.png").stat().st_size > 10_000


def test_matanui_analyse_refuses_a_file_that_is_no_record(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text('{"game": "reconstruct"}')
    result = CliRunner().invoke(app, ["analyse", str(path)])
    assert result.exit_code == 2
    assert "error" in result.output and not (tmp_path / "bad.analysis.png").exists()
