"""Data packs: a collector plays with the cards, mats and boards they own (docs/data.md)."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
import tomli_w
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from matanui import games
from matanui.engine import Record, RecordError, replay
from matanui.games import packs
from tests.masks.helpers import texts
from tests.play import STEP_CAP, random_action


def pack(folder: Path, game: str, **files: str) -> Path:
    """A partial pack: pack.toml and the given data files (file stem -> TOML text)."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "pack.toml").write_text(
        f'name = "my cards"\ngame = "{game}"\nversion = "1"\nauthor = "a collector"\n'
        f'description = "read off my own cards"\n', encoding="utf-8")
    for stem, text in files.items():
        (folder / f"{stem}.toml").write_text(text, encoding="utf-8")
    return folder


OWNER = 'provenance = "owner"\nwhy = "read from my card"\n'
STRONG_KOPAKA = f"""
[[toa]]
number = 51
id = "kopaka"
name = "Kopaka"
element = "ice"
skills = {{ flight = 400, shielding = 600, speed = 700, strength = 900, swimming = 700, vision = 900 }}
{OWNER}"""


def strength_challenge(game):
    """Tahu (Strength 800 on our data) steps onto a Challenge space; the card asks Strength."""
    state = game.arrange(["tahu", "kopaka"], {"map": "a"}, first_player=0, positions=["D2", "I10"],
                         challenge_pile=[4], hands=[[], []])
    return texts(state.apply("move:E"))[3]


def test_a_pack_that_changes_one_masks_skill_value_changes_a_challenges_outcome(tmp_path):
    assert "Tahu has a higher score and has won" in strength_challenge(games.get("masks"))
    mine = packs.load_game(pack(tmp_path, "masks", toa=STRONG_KOPAKA))
    words = strength_challenge(mine)
    assert "Tahu has a Strength of 800, and Kopaka has a Strength of 900" in words
    assert "Kopaka has a higher score" in words
    assert mine is not games.get("masks") and mine.name == "masks"
    assert mine.data == {"name": "my cards", "hash": packs.read(tmp_path).hash}
    assert games.get("masks").data is None  # the built-in game is untouched


OTHER_DECK = f"""
[[card]]
id = 1
kind = "add"
colour = "blue"
parts = ["head", "kanohi-nuva", "tool"]
{OWNER}
[[card]]
id = 8
kind = "remove"
colour = "red"
parts = ["left-leg", "right-arm", "head"]
{OWNER}"""


def test_a_reconstruct_pack_with_another_deck_plays_1000_random_games_keeping_the_contract(tmp_path):
    game = packs.load_game(pack(tmp_path, "reconstruct", actions=OTHER_DECK))
    assert game.deck.cards[8].kind == "remove" and game.deck.cards[1].colour == "blue"
    for seed in range(1000):
        rng = random.Random(seed)
        state = game.new_game(seed, rng.sample(game.characters(), 2))
        state.audit()
        for _ in range(STEP_CAP):
            if state.is_over:
                break
            state.apply(random_action(state, rng))
            state.audit()
        assert state.is_over and state.legal_actions() == []
        if seed % 100 == 0:  # the record rebuilds the same game on the same pack
            again = replay(Record.from_json(state.record().to_json()), game=game)
            assert again.observation(None) == state.observation(None)


def mirrored_board() -> str:
    """Lava Fields drawn again: every row read right to left."""
    board = next(b for b in packs.builtin("makuta", "boards.toml")["board"] if b["id"] == "ta-lava-fields")
    rows = ",\n".join(f'  "{row[::-1]}"' for row in board["rows"])
    return (f'[[board]]\nid = "ta-lava-fields"\nname = "Ta-Wahi: Lava Fields"\nrole = "land"\n'
            f"rows = [\n{rows},\n]\n{OWNER}")


def test_a_makuta_pack_with_a_redrawn_board_plays(tmp_path):
    game = packs.load_game(pack(tmp_path, "makuta", boards=mirrored_board()))
    assert game.parts.boards["ta-lava-fields"].rows[0] == ".#P#.."
    assert games.get("makuta").parts.boards["ta-lava-fields"].rows[0] == "..#P#."
    for seed in range(20):
        rng = random.Random(seed)
        state = game.new_game(seed, rng.sample(game.characters(), 2))
        while not state.is_over:
            state.apply(random_action(state, rng))
        state.audit()
    assert packs.problems(tmp_path) == []


GOOD_CARD = 'id = 5\nkind = "add"\ncolour = "red"\nparts = ["head", "tool"]\n' + OWNER
BROKEN = {
    "syntax": ("reconstruct", {"actions": "[[card]]\nid = = 5\n"},
               ["actions.toml", "is not valid TOML", "line 2"]),
    "unknown field": ("reconstruct", {"actions": "[[card]]\n" + GOOD_CARD + 'colur = "red"\n'},
                      ["actions.toml", "card[1] (id = 5).colur", "is not a known field", "known: colour"]),
    "wrong type": ("reconstruct", {"actions": "[[card]]\n" + GOOD_CARD.replace('"add"', "3")},
                   ["actions.toml", "card[1] (id = 5).kind", "must be a string, not 3"]),
    "duplicate number": ("masks", {"cards": '[[challenge]]\nnumber = 3\nskill = "flight"\n' + OWNER
                                   + '[[challenge]]\nnumber = 3\nskill = "vision"\n' + OWNER},
                         ["cards.toml", "challenge[2].number", "repeats 3"]),
    "inconsistent counts": ("reconstruct", {"actions": "[[card]]\n" + GOOD_CARD.replace("id = 5", "id = 37")},
                            ["actions.toml", "deck.size says 36 cards but 37"]),
    "portal leading nowhere": (
        "makuta", {"boards": '[[board]]\nid = "ta-lava-fields"\nname = "Lava"\nrole = "land"\n'
                   'rows = ["..#.#.", "RY....", "..Y.#.", "..PRK.", "....#.", "..PR.."]\n' + OWNER},
        ["boards.toml", "board[1] (id = 'ta-lava-fields').rows", "portal at row 4, column 3",
         "portals sit on an edge"]),
    "unknown file": ("masks", {"card": "[[challenge]]\n"},
                     ["card.toml", "is not a data file of masks", "toa.toml, cards.toml, maps.toml"]),
}


@pytest.mark.parametrize("kind", BROKEN)
def test_a_broken_pack_is_refused_naming_file_entry_and_field(tmp_path, kind):
    game, files, words = BROKEN[kind]
    pack(tmp_path, game, **files)
    found = packs.problems(tmp_path)
    assert len(found) == 1, found
    for word in words:
        assert word in found[0]
    with pytest.raises(packs.PackError):
        packs.load_game(tmp_path)


def test_check_lists_every_problem_of_a_pack_not_only_the_first(tmp_path):
    (tmp_path / "pack.toml").write_text('name = 3\ngame = "chess"\nflavour = "x"\n', encoding="utf-8")
    found = packs.problems(tmp_path)
    assert any("pack.flavour is not a known field" in p for p in found)
    assert any("pack.name must be a string, not 3" in p for p in found)
    assert any("pack.game is 'chess'; allowed: reconstruct, masks, makuta" in p for p in found)
    assert any("pack.version is missing" in p for p in found)


def test_a_record_made_with_a_pack_refuses_to_replay_on_the_built_in_data(tmp_path):
    game = packs.load_game(pack(tmp_path, "masks", toa=STRONG_KOPAKA))
    state = game.new_game(7, ["tahu", "kopaka"])
    state.apply(state.legal_actions()[0])
    record = Record.from_json(state.record().to_json())
    assert record.data == game.data
    with pytest.raises(RecordError, match=r'played with data pack "my cards" \(hash [0-9a-f]{16}\), not '
                                          r"the built-in data; give that pack's folder with --data"):
        replay(record, game=games.get("masks"))
    with pytest.raises(RecordError, match=r'played with data pack "my cards" \(hash [0-9a-f]{16}\), which '
                                          r"is not offered here; give that pack's folder with --data"):
        replay(record)
    assert replay(record, game=game).history == state.history
    built_in = games.get("masks").new_game(7, ["tahu", "kopaka"]).record()
    assert "data" not in built_in.to_dict()  # older records read as before
    with pytest.raises(RecordError, match="played with the built-in data, not data pack"):
        replay(built_in, game=game)


def test_export_writes_the_complete_data_and_diff_shows_one_changed_field(tmp_path):
    written = packs.export("masks", tmp_path / "mine")
    assert sorted(p.name for p in written) == ["cards.toml", "maps.toml", "pack.toml", "toa.toml"]
    assert packs.problems(tmp_path / "mine") == [] and packs.diff(tmp_path / "mine") == []
    pack(tmp_path / "strong", "masks", toa=STRONG_KOPAKA)
    assert packs.diff(tmp_path / "strong") == [
        "toa.toml: toa id = 'kopaka': skills {'flight': 400, 'shielding': 600, 'speed': 700, "
        "'strength': 700, 'swimming': 700, 'vision': 900} -> {'flight': 400, 'shielding': 600, "
        "'speed': 700, 'strength': 900, 'swimming': 700, 'vision': 900}; printed {'flight': "
        "'Kopaka has a Flight of 400', 'strength': 'Kopaka has a Strength of 700'} -> '(none)'; "
        "provenance 'reconstructed' -> 'owner'; why " + repr(
            packs.builtin("masks", "toa.toml")["toa"][1]["why"]) + " -> 'read from my card'"]


def run(*args, input=None):
    from typer.testing import CliRunner

    from matanui.cli import app

    result = CliRunner().invoke(app, [str(a) for a in args], input=input)
    return result.exit_code, " ".join(result.output.split())


def test_the_data_commands_export_check_and_diff_a_pack(tmp_path):
    code, said = run("data", "export", "reconstruct", tmp_path / "mine", "--name", "my deck")
    assert code == 0 and "pack.toml" in said and "actions.toml" in said
    code, said = run("data", "check", tmp_path / "mine")
    assert code == 0 and 'data pack "my deck" for reconstruct is good' in said
    pack(tmp_path / "bad", "reconstruct", actions="[[card]]\n" + GOOD_CARD.replace('"add"', "3"))
    code, said = run("data", "check", tmp_path / "bad")
    assert code == 1 and "card[1] (id = 5).kind must be a string, not 3" in said and "1 problem(s)" in said
    pack(tmp_path / "one", "reconstruct", actions=OTHER_DECK)
    code, said = run("data", "diff", tmp_path / "one")
    assert code == 0 and "actions.toml: card id = 8: kind 'stop' -> 'remove'" in said


def test_replay_of_a_saved_game_on_a_pack_needs_the_pack(tmp_path):
    game = packs.load_game(pack(tmp_path / "pk", "reconstruct", actions=OTHER_DECK))
    state = game.new_game(3, ["tahu", "gali"])
    state.apply(state.legal_actions()[0])
    state.record().save(tmp_path / "game.json")
    code, said = run("replay", tmp_path / "game.json", "--all")
    assert code == 2 and 'the record was played with data pack "my cards"' in said
    assert "give that pack's folder with --data" in said
    code, said = run("replay", tmp_path / "game.json", "--all", "--data", tmp_path / "pk")
    assert code == 0


def test_a_simulation_on_a_pack_keeps_its_name_and_hash_and_refuses_other_data(tmp_path):
    pack(tmp_path / "pk", "reconstruct", actions=OTHER_DECK)
    results = tmp_path / "r.sqlite"
    code, _ = run("simulate", "reconstruct", "--games", 6, "--agents", "random", "--data",
                  tmp_path / "pk", "--out", results)
    assert code == 0
    digest = packs.read(tmp_path / "pk").hash
    (tmp_path / "pk").rename(tmp_path / "elsewhere")  # the report needs only the results file
    code, said = run("report", results, "--out", tmp_path / "report")
    assert code == 0 and f'Played on data pack "my cards" (hash {digest})' in said
    code, said = run("simulate", "reconstruct", "--games", 8, "--agents", "random", "--out", results)
    assert code == 2 and "data_pack 'my cards' (asked: None)" in said


def test_one_command_sets_a_packs_balance_beside_the_built_in_datas(tmp_path):
    pack(tmp_path / "pk", "reconstruct", actions=OTHER_DECK)
    code, said = run("data", "balance", tmp_path / "pk", "--games", 12, "--agents", "random")
    assert code == 0, said
    assert "first player wins" in said and "tahu wins" in said and "pack data: 12 games played" in said
    assert sorted(p.name for p in (tmp_path / "pk-balance").iterdir()) == ["built-in.sqlite", "pack.sqlite"]


def test_a_terminal_game_on_a_pack_says_so_and_resumes_only_on_it(tmp_path):
    pack(tmp_path / "pk", "reconstruct", actions=OTHER_DECK)
    save = tmp_path / "save.json"
    code, said = run("play", "reconstruct", "--data", tmp_path / "pk", "--seed", 1, "--save", save,
                     input="q\n")
    assert code == 0 and said.startswith('Playing on data pack "my cards".')
    assert Record.load(save).data == packs.read(tmp_path / "pk").data
    code, said = run("play", "--resume", save, input="q\n")
    assert code == 2 and 'played with data pack "my cards"' in said and "--data" in said
    code, said = run("play", "--resume", save, "--data", tmp_path / "pk", input="q\n")
    assert code == 0 and said.startswith('Playing on data pack "my cards".')


def test_a_file_named_whole_replaces_ours_so_a_deck_may_lose_a_card(tmp_path):
    packs.export("reconstruct", tmp_path / "small")
    actions = packs.builtin("reconstruct", "actions.toml")
    actions["deck"]["size"] = 35
    actions["card"] = [card for card in actions["card"] if card["id"] != 36]
    (tmp_path / "small" / "actions.toml").write_text(tomli_w.dumps(actions), encoding="utf-8")
    assert packs.problems(tmp_path / "small") == [  # merged, our card #36 would come back
        f"{tmp_path / 'small' / 'actions.toml'}: deck.size says 35 cards but 36 [[card]] entries follow"]
    with (tmp_path / "small" / "pack.toml").open("a", encoding="utf-8") as meta:
        meta.write('whole = ["actions.toml"]\n')
    assert packs.problems(tmp_path / "small") == []
    assert sorted(packs.load_game(tmp_path / "small").deck.cards) == list(range(1, 36))
    assert packs.diff(tmp_path / "small") == ["actions.toml: card id = 36: removed",
                                              "actions.toml: deck: size 36 -> 35"]


def test_an_arena_plays_on_a_pack_names_it_and_never_counts_a_game_of_other_data(tmp_path):
    """`matanui arena --data`: the games are the pack's, arena.json and the journal name its
    hash, and the same arena on the built-in data plays its games afresh."""
    import json

    from matanui.arena.tournament import Journal

    folder = pack(tmp_path / "deck", "reconstruct", actions=OTHER_DECK)
    out = tmp_path / "arena"
    code, said = run("arena", "reconstruct", "--agents", "random,heuristic", "--games", "4",
                     "--data", folder, "--out", out)
    assert code == 0, said
    assert "On the data pack my cards" in said
    digest = packs.read(folder).hash
    assert json.loads((out / "reconstruct" / "arena.json").read_text())["data"] == {"name": "my cards",
                                                                                 "hash": digest}
    journal = Journal(out / "reconstruct" / "games.jsonl")
    assert {spec.data_hash for spec in journal.done} == {digest}
    code, said = run("arena", "reconstruct", "--agents", "random,heuristic", "--games", "4", "--out", out)
    assert code == 0, said
    journal = Journal(out / "reconstruct" / "games.jsonl")
    assert len(journal.done) == 8 and {spec.data_hash for spec in journal.done} == {digest, None}


# -- hostile packs: whatever a pack's files hold, one clear problem, never a traceback -------

UNREADABLE = {
    "non-UTF-8 actions.toml": ("actions.toml", b'[deck]\nname = "caf\xe9"\n',
                               "is not UTF-8 text: byte 0xe9 at line 2, column 12"),
    "UTF-16 actions.toml": ("actions.toml", '[deck]\nname = "x"\n'.encode("utf-16"),
                            "starts with a UTF-16 byte-order mark"),
    "a folder as actions.toml": ("actions.toml", None, "is a folder, not a file"),
    "arrays 5,000 deep": ("actions.toml", b"x = " + b"[" * 5000 + b"]" * 5000 + b"\n",
                          "nests tables and arrays more than 16 deep"),
    "inline tables 5,000 deep": ("actions.toml", b"x = " + b"{a = " * 5000 + b"1" + b"}" * 5000 + b"\n",
                                 "nests tables and arrays more than 16 deep"),
    "tables 17 deep": ("actions.toml", b"[" + b".".join([b"a"] * 17) + b"]\n",
                       "nests tables and arrays more than 16 deep"),
    "a 2 MB file": ("actions.toml", b"# " + b"x" * 2_000_000 + b"\n", "is larger than 1,048,576 bytes"),
    "non-UTF-8 pack.toml": ("pack.toml", b'name = "\xff"\n', "is not UTF-8 text: byte 0xff"),
    "a folder as pack.toml": ("pack.toml", None, "is a folder, not a file"),
}


def unreadable_pack(folder: Path, kind: str) -> Path:
    name, data, _ = UNREADABLE[kind]
    pack(folder, "reconstruct")
    path = folder / name
    path.unlink(missing_ok=True)
    if data is None:
        path.mkdir()
    else:
        path.write_bytes(data)
    return folder


@pytest.mark.parametrize("kind", UNREADABLE)
def test_a_pack_file_that_cannot_be_read_is_one_problem_naming_it(tmp_path, kind):
    name, _, words = UNREADABLE[kind]
    folder = unreadable_pack(tmp_path / "pk", kind)
    found = packs.problems(folder)
    assert len(found) == 1 and str(folder / name) in found[0] and words in found[0], found
    with pytest.raises(packs.PackError, match=words):
        packs.load_game(folder)


def test_a_server_library_skips_each_bad_pack_with_one_line_and_offers_the_good_ones(tmp_path):
    for number, kind in enumerate(UNREADABLE):
        unreadable_pack(tmp_path / f"bad-{number}", kind)
    pack(tmp_path / "good", "reconstruct", actions=OTHER_DECK)
    try:
        skipped = packs.install_library(tmp_path)
        assert len(skipped) == len(UNREADABLE)
        for number, line in enumerate(skipped):
            assert line.startswith(f"bad-{number}: not offered: ") and "\n" not in line, line
        assert [g.data["name"] for g in packs.library("reconstruct")] == ["my cards"]
    finally:
        packs.install_library(None)


def test_every_text_of_a_pack_is_plain_and_its_name_is_at_most_64_characters(tmp_path):
    pack(tmp_path / "long", "reconstruct")
    meta = tmp_path / "long" / "pack.toml"
    meta.write_text(meta.read_text().replace('"my cards"', '"' + "n" * 1_000_000 + '"'))
    found = packs.problems(tmp_path / "long")
    assert found == ["pack.toml: pack.name is 1,000,000 characters long; a pack's name is at most 64"]
    pack(tmp_path / "esc", "reconstruct")
    meta = tmp_path / "esc" / "pack.toml"
    meta.write_text(meta.read_text().replace('"my cards"', '"my \\u001b[2Jcards"'))
    assert packs.problems(tmp_path / "esc") == [
        "pack.toml: pack.name holds the control character '\\x1b' at character 4; text in a data "
        "file is plain (line breaks and tabs allowed)"]
    card = GOOD_CARD.replace(OWNER, 'provenance = "owner"\nwhy = "read \\u202e from my card"\n')
    pack(tmp_path / "bidi", "reconstruct", actions="[[card]]\n" + card)
    found = packs.problems(tmp_path / "bidi")
    assert len(found) == 1 and "card[1] (id = 5).why holds the control character '\\u202e'" in found[0]


# -- playability: a pack that no one could win is refused, by every command alike ------------

def makuta_rules(**changes: int) -> str:
    rules = {**packs.builtin("makuta", "components.toml")["rules"], **changes}
    return tomli_w.dumps({"rules": rules})


def makuta_segments(power: int) -> str:
    segments = packs.builtin("makuta", "components.toml")["segment"]
    return tomli_w.dumps({"segment": [{**segment, "power": power} for segment in segments]})


ONLY_STOPS = tomli_w.dumps({"deck": packs.builtin("reconstruct", "actions.toml")["deck"], "card": [
    {"id": n, "kind": "stop", "colour": "red", "provenance": "owner", "why": "mine"} for n in range(1, 37)]})
UNWINNABLE = {
    "a lock needing more keys than a Toa may hold": (
        "makuta", {"components": makuta_rules(keys_to_challenge=100)},
        "components.toml: rules.keys_to_challenge is 100, but a Toa may hold only 3 keys "
        "(rules.key_limit): no Toa could ever challenge Makuta"),
    "a lock needing more keys than the bag holds": (
        "makuta", {"components": makuta_rules(keys_to_challenge=30, key_limit=30)},
        "tokens.toml: no lock can be opened with 30 keys: the most keys that fit any lock's code "
        "(with the wild ones) are 9"),
    "Makuta stronger than any total": (
        "makuta", {"components": makuta_segments(1000)},
        "components.toml: Makuta's weakest segment has power 1000, and the best challenge total "
        "is 72 (the 12-faced die, 4 Kanohi, 2 Turaga); a Toa needs more than Makuta's power, so "
        "no Toa could ever beat Makuta"),
    "a deck of stop cards only": (
        "reconstruct", {"actions": ONLY_STOPS},
        "actions.toml: no add card offers Left Leg, Right Leg, Left Arm, Right Arm, Head, Kanohi Nuva, "
        "Tool; no Toa Nuva could ever be completed"),
}


@pytest.mark.parametrize("kind", UNWINNABLE)
def test_a_pack_no_one_could_win_is_refused_by_check_play_and_serve_alike(tmp_path, kind):
    game, files, words = UNWINNABLE[kind]
    folder = pack(tmp_path / "packs" / "pk", game, **files)
    if kind == "a deck of stop cards only":
        (folder / "pack.toml").write_text((folder / "pack.toml").read_text() + 'whole = ["actions.toml"]\n')
    found = packs.problems(folder)
    assert len(found) == 1 and found[0].endswith(words) and str(folder) in found[0], found
    with pytest.raises(packs.PackError, match=re.escape(words)):
        packs.load_game(folder)
    try:
        skipped = packs.install_library(tmp_path / "packs")
        assert packs.library(game) == [] and len(skipped) == 1 and words in skipped[0]
    finally:
        packs.install_library(None)


def test_data_check_and_play_on_a_pack_give_the_same_problem(tmp_path):
    folder = pack(tmp_path / "pk", "makuta", components=makuta_rules(keys_to_challenge=100))
    code, checked = run("data", "check", folder)
    assert code == 1 and "rules.keys_to_challenge is 100" in checked
    code, played = run("play", "makuta", "--data", folder, "--seed", 1, "--save", tmp_path / "s.json",
                       input="q\n")
    assert code == 2 and "rules.keys_to_challenge is 100" in played and "Traceback" not in played


# -- property: any bytes or any tables in any file of a pack: loads, or the pack's problem ----

def pack_outcome(folder: Path) -> tuple[bool, list[str]]:
    """Whether load_game takes the pack, and what check finds; nothing else may happen."""
    found = packs.problems(folder)
    assert all(isinstance(p, str) and p for p in found)
    try:
        packs.load_game(folder)
    except packs.PackError:
        return False, found
    return True, found


def agreed(folder: Path) -> None:
    loaded, found = pack_outcome(folder)
    assert loaded == (found == []), found


PACK_FILES = [(g, f) for g in games.names() for f in games.descriptor(g).layout]
TOML_VALUES = st.recursive(
    st.booleans() | st.integers(-5, 5000) | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=12)
PROPERTY = settings(max_examples=40, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


def nested_toml(depth: int, inline_tables: bool) -> bytes:
    opener, inner, closer = (b"{a = ", b"1", b"}") if inline_tables else (b"[", b"", b"]")
    return b"x = " + opener * depth + inner + closer * depth + b"\n"


HOSTILE_TOML = st.binary(max_size=300) | st.builds(nested_toml, st.integers(0, 3000), st.booleans())


@PROPERTY
@given(which=st.sampled_from([*PACK_FILES, ("reconstruct", "pack.toml")]), data=HOSTILE_TOML)
def test_any_bytes_in_a_pack_file_load_or_are_the_packs_problem(tmp_path_factory, which, data):
    folder = pack(tmp_path_factory.mktemp("pk"), which[0])
    (folder / which[1]).write_bytes(data)
    agreed(folder)


@PROPERTY
@given(which=st.sampled_from(PACK_FILES),
       tables=st.dictionaries(st.text(max_size=8), TOML_VALUES, max_size=3))
def test_any_tables_in_a_pack_file_load_or_are_the_packs_problem(tmp_path_factory, which, tables):
    folder = pack(tmp_path_factory.mktemp("pk"), which[0])
    (folder / which[1]).write_text(tomli_w.dumps(tables), encoding="utf-8")
    agreed(folder)


@PROPERTY
@given(data=st.data(), which=st.sampled_from(PACK_FILES))
def test_any_field_of_a_real_entry_set_to_any_value_loads_or_is_the_packs_problem(tmp_path_factory, data,
                                                                                    which):
    game, file = which
    tables = packs.builtin(game, file)
    table = data.draw(st.sampled_from(sorted(tables)))
    value = tables[table]
    entry = data.draw(st.sampled_from(value)) if isinstance(value, list) else value
    entry = dict(entry)
    field = data.draw(st.sampled_from(sorted(entry)) | st.text(max_size=6))
    entry[field] = data.draw(TOML_VALUES)
    folder = pack(tmp_path_factory.mktemp("pk"), game)
    (folder / file).write_text(tomli_w.dumps({table: [entry] if isinstance(value, list) else entry}),
                               encoding="utf-8")
    agreed(folder)
