"""Records: saved games rebuild exactly; malformed records get a clear error."""

import pytest

from matanui import games
from matanui.engine import BadSetup, Record, RecordError, replay


def finished_record():
    state = games.get("reconstruct").new_game(9, ["onua", "lewa"])
    while not state.is_over:
        state.apply(state.legal_actions()[0])
    return state


def test_a_record_round_trips_through_a_file(tmp_path):
    state = finished_record()
    path = tmp_path / "game.json"
    state.record().save(path)
    again = replay(Record.load(path))
    assert again.observation(None) == state.observation(None)


def test_replay_can_stop_part_way():
    state = finished_record()
    halfway = replay(state.record(), upto=10)
    assert halfway.history == state.history[:10]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("not json", "not valid JSON"),
        ("[]", "must be a JSON object"),
        ('{"game": "reconstruct"}', "has no 'rules_version' field"),
        ('{"game": "reconstruct", "rules_version": "1", "seed": "x", "players": [], "options": {}, '
         '"actions": []}', "'seed' must be a int"),
        ('{"game": "chess", "rules_version": "1", "seed": 1, "players": [], "options": {}, '
         '"actions": []}', "no game named 'chess'"),
        ('{"game": "reconstruct", "rules_version": "0", "seed": 1, "players": ["tahu", "gali"], '
         '"options": {}, "actions": []}', "rules version 0"),
        ('{"game": "reconstruct", "rules_version": "1", "seed": 1, "players": ["tahu", "gali"], '
         '"options": {}, "actions": ["fly"]}', "action 1 of the record .'fly'. fails"),
        ('{"format": 9, "game": "reconstruct"}', "format 9 is not supported"),
        ('{"game": "reconstruct", "rules_version": "1", "seed": 1, "players": ["tahu", "gali"], '
         '"options": {}, "actions": [], "names": ["Ana"]}', "'names' must be null or a list"),
        ('{"game": "reconstruct", "rules_version": "1", "seed": 1, "players": ["tahu", "gali"], '
         '"options": {}, "actions": [], "names": "Ana"}', "'names' must be null or a list"),
        ('{"game": "reconstruct", "rules_version": "1", "seed": 1, "players": ["tahu", "gali"], '
         '"options": {}, "actions": [], "names": ["Ana", 7]}', "'names' must be null or a list"),
    ],
)
def test_a_malformed_record_says_what_is_wrong(text, message):
    with pytest.raises(Exception) as error:
        replay(Record.from_json(text))
    assert isinstance(error.value, (RecordError, games.UnknownGame))
    assert error.match(message)


def test_a_missing_record_file_is_a_clear_error(tmp_path):
    with pytest.raises(RecordError, match="cannot read record"):
        Record.load(tmp_path / "nope.json")


def test_display_names_travel_in_the_record_and_replay_tells_the_same_story():
    game = games.get("reconstruct")
    state = game.new_game(9, ["onua", "lewa"], names=["Ana", None])
    assert state.names == ("Ana", "Lewa Nuva")
    narration = [e.text for e in state.setup_events]
    assert narration[0].startswith("Ana (Onua Nuva) and Lewa Nuva each build their Toa Nuva.")
    for _ in range(6):
        narration += [e.text for e in state.apply(state.legal_actions()[0])]
    assert any(text.startswith("Ana ") for text in narration)
    record = Record.from_json(state.record().to_json())
    assert record.names == ["Ana", "Lewa Nuva"]
    again = replay(record)
    assert again.names == state.names and again.history == state.history
    assert [e.text for e in again.setup_events] == [e.text for e in state.setup_events]


def test_a_record_without_names_says_the_characters_names_and_writes_none():
    state = finished_record()
    assert "names" not in state.record().to_dict()
    old = state.record().to_dict()
    again = replay(Record.from_dict(old))
    assert again.names == ("Onua Nuva", "Lewa Nuva")


@pytest.mark.parametrize(("names", "message"), [
    ("Ana", "names must be a list of 2 display names"),
    (["Ana"], "names must be a list of 2 display names"),
    (["Ana", 3], "a display name is a string"),
])
def test_bad_display_names_are_refused_saying_what_is_allowed(names, message):
    with pytest.raises(BadSetup, match=message):
        games.get("reconstruct").new_game(1, ["onua", "lewa"], names=names)
