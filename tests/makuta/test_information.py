"""Quest for Makuta: what each seat may know, determinize, and whole random games."""

import json
import random

from matanui.games.makuta.components import KANOHI
from tests.ledger import rule
from tests.makuta.scenario import GAME, arranged, faces, play


@rule("MAKUTA-YOUNGER-SUMMARY")
def test_the_younger_players_summary_holds():
    rules = GAME.parts.rules
    assert (rules.start_die, rules.key_limit, rules.kanohi_limit, rules.turaga_limit,
            rules.keys_to_challenge) == ("white", 3, 4, 2, 3)
    state = arranged(dice=[1])
    play(state, "roll")
    assert all(a.startswith("move:") for a in state.legal_actions())  # no diagonals


def rich_state():
    """Lewa has seen Tahu's card through an Akaku; Tahu holds a Kakama everyone saw."""
    state = arranged(["tahu", "lewa", "gali"], first_player=1, pawns=["0,-2", "start", "start"],
                     cards=[["kanohi:pakari", "kanohi:kakama", "key:fire"],
                            ["kanohi:akaku", "turaga:nuju"], ["key:ice", "kanohi:hau"]],
                     dice=[1, 1], seed=3)
    play(state, "roll", "move:N", "akaku:tahu", "steal:key:0")
    return state


def test_an_observation_shows_only_what_the_seat_has_seen():
    state = rich_state()
    assert faces(state, 0, viewer=1)["kanohi"] == ["kanohi:pakari", "kanohi:kakama"]
    assert faces(state, 0, viewer=2)["kanohi"] == ["kanohi", "kanohi:kakama"]
    assert faces(state, 2, viewer=1) == {"kanohi": ["kanohi"], "turaga": [], "key": ["key"]}
    obs = state.observation(2)
    assert obs["tokens"] == {} and obs["pile"] == 19 and obs["start"] == ["kanohi:akaku"]
    json.dumps(state.observation(None))


def test_determinize_keeps_what_the_seat_knows_and_deals_the_rest_again():
    state = rich_state()
    for seat in range(3):
        seen = state.observation(seat)
        samples = [state.determinize(seat, random.Random(i)) for i in range(20)]
        for sample in samples:
            sample.audit()
            assert sample.observation(seat) == seen
        assert len({tuple(s.pile) for s in samples}) > 1
    # Gali never saw Tahu's Pakari: it is dealt again, never as a speed mask (the die shows
    # that Tahu's only speed mask is the Kakama).
    dealt = {GAME.parts.tokens[s.cards[0][KANOHI][0]].name
             for s in (state.determinize(2, random.Random(i)) for i in range(200))}
    assert len(dealt) > 1 and not dealt & {"kakama", "kaukau"}
    # Lewa saw it: it stays.
    assert all(GAME.parts.tokens[state.determinize(1, random.Random(i)).cards[0][KANOHI][0]].name
               == "pakari" for i in range(20))


def test_random_games_keep_every_token_in_one_place_and_agree_with_determinize():
    rng = random.Random(7)
    for seed, players in ((1, 2), (2, 4), (3, 6)):
        state = GAME.new_game(seed, GAME.characters()[:players], {"turn_limit": 40})
        step = 0
        while not state.is_over:
            state.audit()
            if step % 11 == 0:
                seat = state.current_player
                sample = state.determinize(seat, random.Random(step))
                assert sample.observation(seat) == state.observation(seat)
                assert sample.legal_actions() == state.legal_actions()
            actions = state.legal_actions()
            state.apply(actions[rng.randrange(len(actions))])
            step += 1
        assert state.turn == 41


def test_events_name_the_item_kind_in_a_field_of_its_own():
    """A token's kind travels as `item`, never as `kind`, which is the event's own kind."""
    state = arranged(cards=[["kanohi:akaku", "key:fire", "key:water", "key:air"], ["turaga:nuju"]],
                     pawns=["start", "0,-2"], dice=[1, 2], tokens={"0,-2": "key:ice"})
    events = play(state, "roll", "move:N", "return:key:3", "akaku:lewa", "steal:turaga:0")
    state = arranged(cards=[["kanohi:pakari"], []], dice=[1, 1],
                     tokens={"2,0": "rahi:muaka:20"})
    events += play(state, "roll", "move:E", "roll", "settle", "take:kanohi:0")
    items = {e.kind: e.fields["item"] for e in events if "item" in e.fields}
    assert items == {"collect": "turaga", "forfeit": "key", "steal": "turaga",
                     "lose_item": "kanohi"}
    assert all("kind" not in e.fields for e in events)
