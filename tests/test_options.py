"""Each game declares its options once, as a typed schema; the checks, the help and the
command line's listing all come from it."""

from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from matanui import games
from matanui.cli import app
from matanui.engine import BadSetup
from matanui.engine.options import MAX_TURN_LIMIT, Option

GAMES = games.names()
OPTIONS = [(name, key) for name in GAMES for key in games.get(name).options_schema()]
# For each kind, values a person might type that the option must refuse.
BAD = {"bool": ["yes", 1, None], "int": [9, 10_001, 50.0, True, "50"], "choice": ["z", 1.0, True, None]}


def players_of(name: str, count: int | None = None) -> list[str]:
    game = games.get(name)
    return game.characters()[: count or game.min_players]


@pytest.mark.parametrize("name", GAMES)
def test_a_game_without_options_gets_every_default_in_the_schema(name):
    game = games.get(name)
    state = game.new_game(1, players_of(name))
    schema = game.options_schema()
    assert list(state.options) == list(schema)
    for key, option in schema.items():
        assert state.options[key] == option.default_for(game.min_players)


def test_makutas_turn_limit_grows_with_the_players():
    makuta = games.get("makuta")
    assert makuta.new_game(1, players_of("makuta", 2)).options["turn_limit"] == 200
    assert makuta.new_game(1, players_of("makuta", 5)).options["turn_limit"] == 500
    assert "(default 100 per player)" in makuta.option_help()["turn_limit"]


@pytest.mark.parametrize(("name", "key"), OPTIONS)
def test_every_value_the_schema_allows_is_taken(name, key):
    option = games.get(name).options_schema()[key]
    allowed = {"bool": [True, False], "int": [option.min, option.max], "choice": list(option.choices)}
    for value in allowed[option.kind]:
        assert games.get(name).new_game(1, players_of(name), {key: value}).options[key] == value


@pytest.mark.parametrize(("name", "key"), OPTIONS)
def test_a_bad_value_names_the_option_and_what_it_allows(name, key):
    option = games.get(name).options_schema()[key]
    for value in BAD[option.kind]:
        with pytest.raises(BadSetup, match=re.escape(f"option {key} must be {option.allowed()}, not")):
            games.get(name).new_game(1, players_of(name), {key: value})


def test_the_allowed_values_are_said_as_a_person_would():
    assert games.get("masks").options_schema()["map"].allowed() == "'a', 'b' or 'both'"
    assert games.get("reconstruct").options_schema()["advanced"].allowed() == "true or false"
    assert games.get("makuta").options_schema()["turn_limit"].allowed() == \
        f"a whole number from 10 to {MAX_TURN_LIMIT}"


@pytest.mark.parametrize("name", GAMES)
def test_an_unknown_option_lists_the_games_options(name):
    with pytest.raises(BadSetup, match=f"{name} has no option 'speed'; its options are: "
                                       + re.escape("; ".join(f"{k}: {v}" for k, v in
                                                             games.get(name).option_help().items()))):
        games.get(name).new_game(1, players_of(name), {"speed": 9})


def test_options_that_are_not_a_mapping_are_refused():
    with pytest.raises(BadSetup, match="the options must be a mapping"):
        games.get("reconstruct").new_game(1, players_of("reconstruct"), ["advanced"])


def test_an_options_json_schema_says_its_type_bounds_and_default():
    turns = Option("int", "turns", default=50, min=10, max=90)
    assert turns.json_schema() == {"type": "integer", "minimum": 10, "maximum": 90, "default": 50,
                                   "description": "a whole number from 10 to 90 (default 50): turns"}
    per_player = Option("int", "turns", min=10, max=90, default_per_player=20)
    assert "default" not in per_player.json_schema()
    assert per_player.to_json()["default_per_player"] == 20


def test_matanui_games_lists_each_option_with_its_values_and_default():
    result = CliRunner().invoke(app, ["games"], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    assert "-o map=a|b|both  side A or B of the map, or both mats put together (default 'a')" in result.stdout
    assert "-o advanced=true|false  the Advanced Gameplay trade (default false)" in result.stdout
    assert "-o turn_limit=10..10000" in result.stdout and "(default 100 per player)" in result.stdout


def test_the_option_flags_help_names_every_games_options():
    result = CliRunner().invoke(app, ["play", "--help"], env={"COLUMNS": "300"})
    text = " ".join(result.stdout.replace("│", " ").split())
    assert "masks: map=a|b|both, short=true|false, first_player=rps|0|1, turn_limit=10..10000" in text


def test_an_unknown_option_of_a_megabyte_is_quoted_shortened():
    with pytest.raises(BadSetup) as refused:
        games.get("masks").new_game(1, ["tahu", "kopaka"], options={"x" * 1_000_000: 1})
    assert len(str(refused.value)) < 2_000


@pytest.mark.parametrize(("name", "key"), OPTIONS)
def test_the_command_line_reads_each_value_as_its_options_kind(name, key):
    """`-o key=value` is read by the schema: every value the option allows, written as the
    help writes it, comes back as that value and type (the choice 0, not the text "0")."""
    game = games.get(name)
    option = game.options_schema()[key]
    allowed = {"bool": [True, False], "int": [option.min, option.max], "choice": list(option.choices)}
    for value in allowed[option.kind]:
        written = ("true" if value else "false") if option.kind == "bool" else str(value)
        parsed = game.parse_options([f"{key}={written}"])[key]
        assert parsed == value and type(parsed) is type(value)


@pytest.mark.parametrize(("pair", "words"), [
    ("turn_limit", "must look like key=value"),
    ("=5", "must look like key=value"),
    ("colour=red", "has no option 'colour'; its options are: "),
    ("turn_limit=fifty", "option turn_limit must be a whole number from 10 to 10000, not 'fifty'"),
    ("turn_limit=5", "option turn_limit must be a whole number from 10 to 10000, not 5"),
    ("turn_limit=٥٠", "option turn_limit must be a whole number"),  # ARABIC-INDIC digits are not 50
    ("first_player=2", "option first_player must be 'rps', 0 or 1, not '2'"),
])
def test_a_bad_command_line_option_says_what_is_allowed(pair, words):
    with pytest.raises(BadSetup, match=re.escape(words)):
        games.get("reconstruct").parse_options([pair])
