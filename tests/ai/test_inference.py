"""Inference: the search weights its samples of the opponent's hand by what the opponent's
play revealed, reading only what its own seat saw."""

import random

from matanui import games
from matanui.ai import SeatView, make_agent
from matanui.ai.heuristics import reconstruct
from matanui.ai.inference import WeightedSampler, sampler

SIX_BUT_ONE = ["left-leg", "right-leg", "left-arm", "right-arm", "head"]  # five parts built
STOPS = {8, 15, 22, 29, 35, 36}


def after_the_sixth_part_was_allowed(opponent_hand):
    """Tahu (seat 0) has five parts and adds the tool with card 4; Kopaka (seat 1) lets it
    through, draws, passes, and Tahu draws: Tahu is to decide. Only Kopaka's hand (which
    Tahu never saw) differs between calls; the cards Tahu sees come from the arranged top."""
    state = games.get("reconstruct").arrange(
        ["tahu", "kopaka"], {"first_player": 0}, seed=3, hands=[[4], opponent_hand],
        built=[SIX_BUT_ONE, []], draw_pile=[9, 10, 11])
    for action in ["add:4:tool", "allow", "pass"]:
        state.apply(action)
    assert state.current_player == 0
    return state


def hands(view, determinize, count=300):
    return [determinize(random.Random(i)).observation(1 - view.seat)["hand"] for i in range(count)]


def test_two_true_states_the_seat_cannot_tell_apart_give_the_same_samples():
    """Kopaka holds 1, 2, 6 in one game and 3, 5, 7 in the other (all of them add or remove
    cards, neither a stop); Tahu saw the same at every step, so its inference samples the
    same hands in both."""
    first = after_the_sixth_part_was_allowed([1, 2, 6])
    second = after_the_sixth_part_was_allowed([3, 5, 7])
    one, two = SeatView(first, 0), SeatView(second, 0)
    assert one.observation_history() == two.observation_history()
    assert one.observation() == two.observation()
    one_sampler = sampler(one, reconstruct.opponent_model)
    assert isinstance(one_sampler, WeightedSampler)
    assert hands(one, one_sampler) == hands(two, sampler(two, reconstruct.opponent_model))


def test_an_opponent_who_let_the_sixth_part_through_probably_holds_few_stops():
    """The heuristic stops a sixth part with two stop cards in hand; Kopaka did not, so hands
    in which Kopaka held two or more stops then are sampled less often than uniformly."""
    view = SeatView(after_the_sixth_part_was_allowed([1, 2, 6]), 0)
    assert reconstruct._allowed_answers(view) == [[3, 2]]  # 3 cards then, 2 stops would have stopped it

    def share_with_two_stops(found):
        return sum(len(STOPS & set(hand)) >= 2 for hand in found) / len(found)

    uniform = share_with_two_stops(hands(view, view.determinize, 2000))
    weighted = share_with_two_stops(hands(view, sampler(view, reconstruct.opponent_model), 2000))
    assert weighted < 0.75 * uniform


def test_without_telling_answers_the_samples_are_uniform():
    state = games.get("reconstruct").new_game(4, ["tahu", "kopaka"])
    view = SeatView(state, state.current_player)
    assert reconstruct.opponent_model(view) is None
    assert sampler(view, reconstruct.opponent_model) == view.determinize


def test_the_history_is_what_the_seat_saw():
    state = after_the_sixth_part_was_allowed([1, 2, 6])
    history = SeatView(state, 0).observation_history()
    assert len(history) == 3
    assert all(seen["hand"] is not None and seen["seat"] == 0 for seen in history)
    assert SeatView(state.determinize(0, random.Random(1)), 0).observation_history() == []


def test_only_the_inferring_search_has_the_opponent_model():
    """The inference has not yet been shown to play better (docs/ai.md), so the levels
    people play against keep the uniform samples."""
    assert make_agent("ismcts-infer@10", "reconstruct").inference is reconstruct.opponent_model
    for spec in ("ismcts@10", "hard", "medium"):
        assert getattr(make_agent(spec, "reconstruct"), "inference", None) is None
