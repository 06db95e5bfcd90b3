"""Array policies as agents everywhere: PolicyAgent sees exactly the tensor the research
environments give the seat, `ppo` plays legal games in every game it has weights for, and
`MODULE:CALLABLE` / `PATH.npz` work in `matanui arena`; a bad spec says what is allowed."""

from __future__ import annotations

import json
import random
import sys

import numpy as np
import pytest
from typer.testing import CliRunner

from matanui.ai import SeatView, make_agent
from matanui.ai.policy import PolicyAgent, trained_games
from matanui.cli import app
from matanui.engine import MatanuiError
from matanui.envs.checkpoint import Checkpoint
from matanui.envs.encoding import encoding_for
from matanui.envs.table import Table

runner = CliRunner()


def first_legal(observation: np.ndarray, mask: np.ndarray) -> int:
    return int(np.flatnonzero(mask)[0])


def make_first_legal():
    return first_legal


def never_legal(observation: np.ndarray, mask: np.ndarray) -> int:
    return int(np.flatnonzero(mask == 0)[0])


def small_policy(game: str, path, seed: int = 0) -> None:
    encoding = encoding_for(game, 2)
    inputs = encoding.observation_size + encoding.memory_size
    rng = np.random.default_rng(seed)
    meta = {"game": game, "players": 2, "observation_size": inputs, "actions": len(encoding.actions)}
    Checkpoint([(rng.standard_normal((inputs, 8)), np.zeros(8)),
                (rng.standard_normal((8, len(encoding.actions))), np.zeros(len(encoding.actions)))],
               meta).save(path)


@pytest.mark.parametrize(("game", "players", "moves"), [("reconstruct", 2, 400), ("masks", 2, 120),
                                                         ("makuta", 3, 40)])
def test_the_agent_sees_the_tensor_the_environments_give_every_seat(game, players, moves):
    encoding = encoding_for(game, players)
    agent = PolicyAgent(first_legal, "probe")
    for seed in (1, 2):
        table = Table.deal(encoding, seed, None, None)
        rng = random.Random(seed)
        for _ in range(moves):
            if table.state.is_over:
                break
            for seat in range(players):
                assert np.array_equal(agent.features(SeatView(table.state, seat)), table.features(seat))
            table.play_id(rng.choice(table.state.legal_actions()))


@pytest.mark.parametrize("seat", [0, 1])
def test_the_agent_plays_the_action_the_policy_picks(seat):
    encoding = encoding_for("reconstruct", 2)
    table = Table.deal(encoding, 4, None, None)
    while table.state.current_player != seat:
        table.play_id(table.state.legal_actions()[0])
    chosen = PolicyAgent(first_legal, "probe").act(SeatView(table.state, seat))
    assert chosen == table.action_id(first_legal(table.features(seat), table.mask()))


def test_ppo_is_committed_for_reconstruct_and_masks():
    assert {"reconstruct", "masks"} <= set(trained_games())


@pytest.mark.parametrize("game", trained_games())
def test_ppo_plays_whole_legal_games_from_both_seats(game):
    for seat in (0, 1):
        ppo, other = make_agent("ppo", game, seed=1), make_agent("random", game, seed=2)
        state = encoding_for(game, 2).game.new_game(seat, encoding_for(game, 2).game.characters()[:2])
        for _ in range(5000):
            if state.is_over:
                break
            player = state.current_player
            agent = ppo if player == seat else other
            state.apply(agent.act(SeatView(state, player)))  # an illegal action would raise
        assert state.is_over


@pytest.mark.parametrize("game", trained_games())
def test_ppo_is_an_opponent_of_the_gymnasium_environment(game):
    import gymnasium

    import matanui.envs.gymnasium  # noqa: F401  (registers the environments)

    env = gymnasium.make(f"matanui/{game}-v0", opponents="ppo", seat=1)
    obs, _ = env.reset(seed=3)
    done = False
    while not done:
        obs, _, done, _, _ = env.step(first_legal(obs["observation"], obs["action_mask"]))


def test_a_policy_file_and_a_module_callable_are_agents(tmp_path):
    path = tmp_path / "p.npz"
    small_policy("masks", path)
    assert make_agent(str(path), "masks").name == str(path)
    assert make_agent("tests.test_policy_agent:make_first_legal", "masks").policy is first_legal
    assert make_agent("tests.test_policy_agent:first_legal", "masks").policy is first_legal


@pytest.mark.parametrize(("spec", "words"), [
    ("nosuchmodule:policy", r"cannot import 'nosuchmodule'.*ppo.*MODULE:CALLABLE.*PATH\.npz"),
    ("tests.test_policy_agent:missing", r"has no callable 'missing'"),
    ("missing.npz", r"missing\.npz: no such policy file"),
    ("wizard", r"no agent named 'wizard'.*ppo.*MODULE:CALLABLE.*PATH\.npz"),
])
def test_a_bad_policy_spec_says_what_is_allowed(spec, words):
    with pytest.raises(MatanuiError, match=words):
        make_agent(spec, "reconstruct")


def test_ppo_for_a_game_without_weights_names_the_games_with_them():
    with pytest.raises(MatanuiError, match=r"no trained policy \(ppo\) for makuta.*reconstruct"):
        make_agent("ppo", "makuta")


def test_a_policy_file_for_another_game_is_refused(tmp_path):
    path = tmp_path / "masks.npz"
    small_policy("masks", path)
    with pytest.raises(MatanuiError, match=r"a policy for masks cannot play reconstruct"):
        make_agent(str(path), "reconstruct")


def test_a_policy_that_answers_an_illegal_index_is_named():
    state = encoding_for("reconstruct", 2).game.new_game(0, ["tahu", "onua"])
    agent = make_agent("tests.test_policy_agent:never_legal", "reconstruct")
    with pytest.raises(MatanuiError, match=r"the policy tests.test_policy_agent:never_legal answered \d+, "
                                           r"which is not a legal action index now \(legal: "):
        agent.act(SeatView(state, state.current_player))


def test_without_numpy_a_policy_says_how_to_install_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "numpy", None)
    with pytest.raises(MatanuiError, match=r"pip install matanui\[research\]"):
        make_agent("ppo", "reconstruct")


@pytest.mark.parametrize("first", ["ppo", "tests.test_policy_agent:first_legal", "POLICY"])
def test_the_arena_plays_policy_specs_end_to_end(tmp_path, first):
    if first == "POLICY":
        first = str(tmp_path / "p.npz")
        small_policy("reconstruct", first)
    out = tmp_path / "out"
    result = runner.invoke(app, ["arena", "reconstruct", "--agents", f"{first},random", "--games", "2",
                                 "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert first in json.loads((out / "reconstruct" / "arena.json").read_text())["win_rates"]


def test_the_arena_names_the_allowed_specs_for_a_bad_one(tmp_path):
    result = runner.invoke(app, ["arena", "reconstruct", "--agents", "nosuch:thing,random", "--games", "2",
                                 "--out", str(tmp_path)])
    assert result.exit_code == 2
    assert "MODULE:CALLABLE" in result.output
