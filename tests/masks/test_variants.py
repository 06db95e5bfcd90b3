"""Quest for the Masks' small variants (option `variant`, data/variants.toml): smaller games
played by the rulebook's rules, for exact exploitability (docs/rules/masks.md "Variants")."""

import dataclasses
import random
import shutil
import tomllib

import pytest

from matanui import games
from matanui.engine import BadSetup, DataFileError, MatanuiError, replay
from matanui.games.masks.cards import DATA
from matanui.games.masks.maps import load_maps
from matanui.games.masks.rules import VARIANTS, MasksGame
from matanui.games.masks.variants import load_variants

GAME = games.get("masks")
MINI = VARIANTS["mini"]
TOA = ["pohatu", "gali"]


def mini(seed=1, options=None, arrangement=None):
    return GAME.new_game(seed, TOA, {"variant": "mini", **(options or {})}, arrangement)


def test_the_mini_variant_plays_on_its_own_map_with_its_few_cards():
    state = mini()
    observation = state.observation(0)
    assert observation["map"] == MINI.map == "mini"
    assert observation["masks_to_win"] == MINI.masks_to_win == 1
    assert observation["turn_limit"] == MINI.turn_limit
    assert sorted(state.action_pile[0]) == sorted(state.action_pile[1]) == sorted(MINI.actions)
    assert sorted(state.challenge_pile) == sorted(MINI.challenges)
    assert sorted(state.mission_pile) == sorted(MINI.missions)
    # Each Toa's pile: his lowest-numbered Great Mask card (and no Turaga card).
    assert state.mask_pile == [[82], [92]]
    assert state.board.portals == ()
    state.audit()


def test_each_start_is_three_moves_from_both_challenge_spaces_and_the_map_is_the_same_turned_half_round():
    board = GAME.boards["mini"]
    challenges = [c for c in board.spaces() if board.kind[c] == 2]

    def distance(start, goal):
        seen, frontier, steps = {start}, [start], 0
        while goal not in seen:
            frontier = [n for c in frontier for n in board.step[c] if n >= 0 and n not in seen]
            seen.update(frontier)
            steps += 1
        return steps

    starts = (board.west_start, board.east_start)
    assert [distance(start, c) for start in starts for c in challenges] == [3] * 4
    turned = [board.symbols[len(board.symbols) - 1 - cell] for cell in range(len(board.symbols))]
    swapped = {"W": "E", "E": "W"}
    assert [swapped.get(s, s) for s in turned] == list(board.symbols)


def test_the_first_challenge_won_wins_the_mini_game():
    # Pohatu lands on A3 with Speed (#3) on top: 900 against Gali's 800, and no card in hand.
    state = mini(arrangement={"positions": ["B3", "B5"], "challenge_pile": [3], "first_player": 0})
    state.apply("move:N")
    assert state.is_over and state.winners == [0]
    assert state.won[0] == [82]


def test_every_mini_game_ends_by_its_own_turn_limit_with_no_card_lost():
    for seed in range(40):
        state = mini(seed)
        rng = random.Random(seed)
        while not state.is_over:
            state.apply(rng.choice(state.legal_actions()))
            state.audit()
        assert state.turn <= MINI.turn_limit + 1


def test_the_turn_limit_option_cannot_raise_a_variants_limit():
    assert mini(options={"turn_limit": 10}).observation(None)["turn_limit"] == MINI.turn_limit
    assert GAME.new_game(1, TOA, {"turn_limit": 10}).observation(None)["turn_limit"] == 10


@pytest.mark.parametrize(("option", "value"), [("map", "b"), ("short", True)])
def test_a_variant_sets_its_own_map_and_masks_to_win_whatever_map_and_short_say(option, value):
    observation = mini(options={option: value}).observation(None)
    assert (observation["map"], observation["masks_to_win"]) == ("mini", 1)


def test_the_full_game_is_the_default_and_keeps_every_card():
    state = GAME.new_game(1, TOA)
    assert state.options["variant"] == "full"
    assert sorted(state.action_pile[0]) == list(range(21, 41))
    assert len(state.mask_pile[0]) == 9
    assert state.observation(0)["map"] == "a"


def test_the_map_option_offers_no_small_map():
    assert GAME.options_schema()["map"].choices == ("a", "b", "both")
    with pytest.raises(BadSetup, match="option map must be"):
        GAME.new_game(1, TOA, {"map": "mini"})


def test_a_mini_game_replays_from_its_record():
    state = mini(3)
    rng = random.Random(3)
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
    again = replay(state.record())
    assert again.observation(None) == state.observation(None)


def test_an_unknown_variant_is_refused_saying_which_exist():
    with pytest.raises(BadSetup, match="option variant must be 'full' or 'mini', not 'tiny'"):
        GAME.new_game(1, TOA, {"variant": "tiny"})


def test_an_arrangement_may_only_place_the_variants_cards():
    with pytest.raises(BadSetup, match=r"arrangement 'hands' has card #21, which does not belong there "
                                       r"for seat 0 "
                                       r"\(allowed: #33, #39\)"):
        mini(arrangement={"hands": [[21], []]})
    with pytest.raises(BadSetup, match=r"arrangement 'mask_piles' has card #83, .* \(allowed: #82\)"):
        mini(arrangement={"mask_piles": [[83], []]})


def test_cards_lacking_the_variants_refuse_it_and_play_the_full_game():
    cards = dataclasses.replace(GAME.cards, actions={n: c for n, c in GAME.cards.actions.items() if n != 39})
    game = MasksGame(cards, GAME.maps)
    with pytest.raises(BadSetup, match="the mini variant cannot be played with these cards and maps: it "
                                       "plays with Game Action cards #39, which these cards lack; "
                                       "play variant 'full'"):
        game.new_game(1, TOA, {"variant": "mini"})
    maps = dataclasses.replace(GAME.maps, boards={k: b for k, b in GAME.maps.boards.items() if k != "mini"})
    with pytest.raises(BadSetup, match="it plays on map 'mini', which these maps lack"):
        MasksGame(GAME.cards, maps).new_game(1, TOA, {"variant": "mini"})


@pytest.mark.parametrize(("text", "message"), [
    ('id = "full"', r"variant\[1\].id repeats 'full'"),
    ('actions = [33, 33]', r"variant\[1\].actions must list distinct card numbers from #21 to #40"),
    ('challenges = [7]', r"variant\[1\].challenges must list distinct card numbers from #1 to #6"),
    ('masks_to_win = 2', r"variant\[1\].masks_to_win is 2; allowed: 1 to 1"),
    ('size = 3', r"variant\[1\].size is not a known field"),
])
def test_a_bad_variants_file_is_refused_naming_the_entry_and_field(tmp_path, text, message):
    entry = {"id": '"m"', "name": '"m"', "map": '"mini"', "actions": "[33]", "challenges": "[2]",
             "missions": "[13]", "masks": "1", "turaga": "0", "masks_to_win": "1", "turn_limit": "8"}
    key, value = text.split(" = ")
    entry[key] = value
    path = tmp_path / "variants.toml"
    path.write_text('[[variant]]\nprovenance = "reconstructed"\nwhy = "test"\n'
                    + "".join(f"{k} = {v}\n" for k, v in entry.items()))
    with pytest.raises(DataFileError, match=message):
        load_variants(path)


def test_a_small_map_has_no_portal_or_three_and_is_never_half_of_the_island(tmp_path):
    text = (DATA / "maps.toml").read_text()
    mini_rows = '"W  .  .  .  E",'
    path = tmp_path / "maps.toml"
    path.write_text(text.replace(mini_rows, '"W  .  P  .  E",'))
    with pytest.raises(DataFileError,
                       match=r"side\[3\]\.rows has 1 Portal spaces; none or at least 3 are needed"):
        load_maps(path)
    path.write_text(text.replace('sides = ["a", "b"]', 'sides = ["a", "mini"]'))
    with pytest.raises(DataFileError, match=r"island\[1\]\.sides has 'mini'; allowed: a, b"):
        load_maps(path)


def test_the_variants_data_says_it_is_reconstructed():
    entries = tomllib.loads((DATA / "variants.toml").read_text())["variant"]
    assert {entry["provenance"] for entry in entries} == {"reconstructed"}
    assert all(entry["why"].startswith("not a rule") for entry in entries)
    sides = tomllib.loads((DATA / "maps.toml").read_text())["side"]
    assert [side["id"] for side in sides if side.get("small")] == ["mini"]


def test_the_batched_engine_plays_only_the_full_game():
    pytest.importorskip("numba", reason="the batched engine needs the 'research' extra")
    from matanui.batch.masks import BatchedMasks
    with pytest.raises(MatanuiError, match="the batched Quest for the Masks plays the full game, not the "
                                           "mini"):
        BatchedMasks(2, {"variant": "mini"})


def test_the_tensor_encoding_covers_a_mini_game_without_growing():
    pytest.importorskip("numpy", reason="the encoding needs the 'research' extra")
    from matanui.envs.encoding import encoding_for
    encoding = encoding_for(GAME, 2)
    assert encoding.maps == ("a", "b", "both")
    state = mini(5)
    full = encoding.observe(GAME.new_game(5, TOA), 0)
    small = encoding.observe(state, 0)
    assert small.shape == full.shape
    assert not encoding.observation_layout.views(small)["map"].any()
    assert encoding.mask(state.legal_actions(), state.observation(0)).sum() == len(state.legal_actions())


def test_a_users_data_folder_without_a_variants_map_still_loads(tmp_path):
    for file in ("toa.toml", "cards.toml"):
        shutil.copy(DATA / file, tmp_path / file)
    text = (DATA / "maps.toml").read_text()
    start = text.index('[[side]]\nid = "mini"')
    (tmp_path / "maps.toml").write_text(text[:start] + text[text.index("[[island]]"):])
    from matanui.games.masks.rules import load_game
    game = load_game(tmp_path, tmp_path / "maps.toml")
    assert not game.new_game(1, TOA).is_over
    with pytest.raises(BadSetup, match="it plays on map 'mini', which these maps lack"):
        game.new_game(1, TOA, {"variant": "mini"})
