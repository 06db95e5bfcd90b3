"""Records: saved games rebuild exactly; malformed records get a clear error."""

import pytest

from matanui import games
from matanui.engine import Record, RecordError, replay


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
