"""Resigning over the WebSocket: `{"type": "resign"}` commits `resign:<seat>` like any action
(docs/protocol.md, "Resign"), once every player has made two moves; before that it aborts the
game, as `{"type": "abort"}` does (docs/ratings.md, "Aborted games")."""

from __future__ import annotations

from contextlib import ExitStack

from matanui.engine import replay
from matanui.engine.record import Record

from .helpers import create, receive_view, until_it_counts
from .test_play import errors_for, hello

TWO_PEOPLE = [{"kind": "human", "character": "tahu"}, {"kind": "human", "character": "kopaka"}]
THREE_TOA = [{"kind": "human", "character": "tahu"}, {"kind": "human", "character": "lewa"},
             {"kind": "human", "character": "gali"}]


def seated(client, stack, created):
    sockets = [stack.enter_context(hello(client, created["id"], s["token"])) for s in created["seats"]]
    return sockets, [receive_view(ws) for ws in sockets]


def test_a_resign_before_both_players_have_moved_twice_aborts_the_game(client):
    created = create(client, seats=TWO_PEOPLE, hotseat=True)
    with ExitStack() as stack:
        sockets, views = seated(client, stack, created)
        assert views[0]["abortable"] and not views[0]["aborted"]
        sockets[1].send_json({"type": "resign"})
        views = [receive_view(ws) for ws in sockets]
    assert all(v["over"] and v["aborted"] and v["winners"] == [] for v in views)
    assert views[0]["observation"]["out"] == []
    assert "aborts the game: it ends without a result" in views[0]["events"][-1]["text"]
    done = client.get(f"/api/games/{created['id']}/replay").json()
    assert done["record"]["actions"][-1] == "abort:1" and done["frames"][-1]["text"] == "Abort"
    summary = client.get(f"/api/games/{created['id']}").json()
    assert summary["aborted"] and summary["status"] == "finished"


def test_an_abort_once_both_have_moved_twice_is_refused_and_changes_nothing(client):
    created = create(client, seats=TWO_PEOPLE, hotseat=True)
    until_it_counts(client, created["id"])
    with ExitStack() as stack:
        sockets, views = seated(client, stack, created)
        assert not views[0]["abortable"]
        [(code, words)] = errors_for(sockets[0], [{"type": "abort"}])
    assert code == "not_abortable" and "resign instead" in words
    assert _welcome(client, created["id"])["at"] == views[0]["at"]


def test_a_player_who_resigns_loses_and_the_other_wins_whoever_was_to_decide(client):
    created = create(client, seats=TWO_PEOPLE, hotseat=True)
    until_it_counts(client, created["id"])
    with ExitStack() as stack:
        sockets, views = seated(client, stack, created)
        waiting = 1 - views[0]["current_player"]
        sockets[waiting].send_json({"type": "resign"})
        views = [receive_view(ws) for ws in sockets]
    assert all(v["over"] and v["winners"] == [1 - waiting] for v in views)
    assert views[0]["observation"]["out"] == [waiting]
    assert "resigns" in views[1 - waiting]["events"][0]["text"] and not views[0]["aborted"]
    summary = client.get(f"/api/games/{created['id']}").json()
    assert summary["status"] == "finished"
    done = client.get(f"/api/games/{created['id']}/replay").json()
    assert done["record"]["actions"][-1] == f"resign:{waiting}"
    assert done["frames"][-1]["actor"] == waiting and done["frames"][-1]["text"] == "Resign"
    assert replay(Record.from_dict(done["record"])).winners == [1 - waiting]


def test_the_seats_say_who_is_out(client):
    created = create(client, seats=THREE_TOA, game="makuta")
    until_it_counts(client, created["id"])
    with ExitStack() as stack:
        sockets, _ = seated(client, stack, created)
        sockets[1].send_json({"type": "resign"})
        views = [receive_view(ws) for ws in sockets]
        assert not views[0]["over"] and views[0]["observation"]["out"] == [1]
        assert views[0]["current_player"] != 1
        sockets[0].send_json({"type": "resign"})
        views = [receive_view(ws) for ws in sockets]
    assert views[1]["over"] and views[1]["winners"] == [2]
    welcome = _welcome(client, created["id"])
    assert [s["out"] for s in welcome["seats"]] == [True, True, False]


def _welcome(client, game_id):
    with hello(client, game_id) as ws:
        return receive_view(ws)


def test_spectators_cannot_resign_and_a_resignation_after_the_end_is_refused(client):
    created = create(client, seats=TWO_PEOPLE, hotseat=True)
    until_it_counts(client, created["id"])
    with ExitStack() as stack:
        sockets, _ = seated(client, stack, created)
        watcher = stack.enter_context(hello(client, created["id"]))
        receive_view(watcher)
        [(code, words)] = errors_for(watcher, [{"type": "resign"}])
        assert code == "spectator" and "cannot act or resign" in words
        sockets[0].send_json({"type": "resign"})
        receive_view(sockets[1])
        receive_view(sockets[0])
        [(code, words)] = errors_for(sockets[1], [{"type": "resign"}])
        assert code == "game_over" and "the game is over" in words
    assert client.get(f"/api/games/{created['id']}/replay").json()["record"]["actions"][-1] == "resign:0"


def test_a_forfeit_sent_as_an_action_or_a_resign_with_fields_is_refused_and_changes_nothing(client):
    created = create(client, seats=TWO_PEOPLE, hotseat=True)
    with ExitStack() as stack:
        sockets, views = seated(client, stack, created)
        me = views[0]["current_player"]
        answers = errors_for(sockets[me], [{"type": "act", "action": f"resign:{1 - me}"},
                                           {"type": "act", "action": f"timeout:{me}"},
                                           {"type": "resign", "seat": 1 - me}])
    assert [code for code, _ in answers] == ["illegal", "illegal", "bad_message"]
    assert 'send {"type": "resign"}' in answers[0][1]
    assert "unknown field(s) seat" in answers[2][1]
    assert _welcome(client, created["id"])["at"] == views[0]["at"]
