"""A BattleFight game through the platform: decks, the start, turns answered from each phone;
what each viewer may read (a hand is its owner's; a shuffle nobody's); bad input refused."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from server.errors import NotAllowed, RuleError, StaleScreen
from server.platform.dice import ScriptedRolls
from server.platform.kinds import PUBLIC
from server.platform.service import GameService
from tests.battlefight.scenes import LETHAL
from tests.conftest import key, table


def seated(service: GameService, rolls: ScriptedRolls, mode: str = "random") -> Any:
    rolls.endless = True
    t = table(
        service,
        "battlefight",
        [("player", "Léa"), ("player", "Hugo")],
        settings={"deck_mode": mode},
    )
    return t


def act(service: GameService, t: Any, who: str | None, command: dict[str, Any]) -> str:
    viewer = t.viewer(who) if who else t.org
    return service.perform(t.game.id, viewer, command, idem_key=key()).summary.render()


def state(service: GameService, t: Any) -> Any:
    return service.load(t.game.id).state


def test_a_game_from_boosters_to_the_first_turns(
    service: GameService, rolls: ScriptedRolls
) -> None:
    t = seated(service, rolls)
    with pytest.raises(RuleError, match="Léa"):
        act(service, t, None, {"type": "start"})  # no deck yet
    for name in ("Léa", "Hugo"):
        act(service, t, name, {"type": "boosters"})
    with pytest.raises(RuleError):
        act(service, t, "Léa", {"type": "boosters"})  # opened once
    assert all(len(p.deck) == 20 for p in state(service, t).players.values())
    said = act(service, t, None, {"type": "start"})
    s = state(service, t)
    first = s.table.seats[s.table.turn]
    assert first.name in said and s.phase == "playing"
    other = next(name for name in ("Léa", "Hugo") if name != first.name)
    with pytest.raises(NotAllowed):
        act(service, t, other, {"type": "choose", "values": ["base-concentration"]})
    with pytest.raises(RuleError):
        act(service, t, first.name, {"type": "choose", "values": ["no-such-technique"]})
    said = act(service, t, first.name, {"type": "choose", "values": ["base-concentration"]})
    assert first.name in said
    assert len(state(service, t).table.seat(first.id).hand) == 1


def test_a_hand_is_its_owner_s_and_a_shuffle_nobody_s(
    client: TestClient, service: GameService, rolls: ScriptedRolls
) -> None:
    t = seated(service, rolls)
    for name in ("Léa", "Hugo"):
        act(service, t, name, {"type": "boosters"})
    act(service, t, None, {"type": "start"})
    s = state(service, t)
    first = s.table.seats[s.table.turn]
    act(service, t, first.name, {"type": "choose", "values": ["base-concentration"]})
    card = state(service, t).table.seat(first.id).hand[0]
    other = next(n for n in ("Léa", "Hugo") if n != first.name)
    owner_view = service.load(t.game.id).kind.view(state(service, t), t.viewer(first.name), None)
    assert owner_view["me"]["hand"][0]["copy"] == card
    for viewer in (t.viewer(other), t.org, PUBLIC):
        view = service.load(t.game.id).kind.view(state(service, t), viewer, None)
        assert card not in str(view), viewer  # a copy id of the hand names nothing elsewhere
        mine = view.get("me")
        assert mine is None or mine["name"] != first.name
        for entry in service.log(t.game.id, viewer):
            assert all(
                r["purpose"] != "secret" or r["value"] is None for r in entry.get("rolls", [])
            )
            assert not any("deck of" in r["purpose"] for r in entry.get("rolls", []))
            assert "command" not in entry or entry["command"].get("type") != "deck"


def test_a_constructed_deck_from_the_form(
    client: TestClient, service: GameService, rolls: ScriptedRolls
) -> None:
    t = seated(service, rolls, mode="constructed")
    kind = service.load(t.game.id).kind
    form = {
        "type": "deck",
        **{
            f"count_{k}": "4"
            for k in ("coup-de-poing", "parade", "course", "meditation", "provocation")
        },
    }
    command = kind.from_form(form)
    assert sorted(set(command["cards"])) == [
        "coup-de-poing",
        "course",
        "meditation",
        "parade",
        "provocation",
    ]
    act(service, t, "Léa", command)
    assert len(state(service, t).player(t.viewer("Léa").person_id).deck) == 20
    with pytest.raises(RuleError) as refused:
        act(service, t, "Hugo", {**command, "cards": command["cards"][:-1]})
    assert refused.value.field == "cards"
    with pytest.raises(NotAllowed):
        act(service, t, "Hugo", {**command, "player": t.viewer("Léa").person_id})


def test_the_first_card_played_can_end_the_game(service: GameService, rolls: ScriptedRolls) -> None:
    t = seated(service, rolls)
    act(service, t, None, {"type": "collection", "text": LETHAL})
    assert state(service, t).sample is False
    for name in ("Léa", "Hugo"):
        act(service, t, name, {"type": "boosters"})
    act(service, t, None, {"type": "start"})
    for _ in range(2):
        s = state(service, t)
        act(
            service,
            t,
            s.table.seats[s.table.turn].name,
            {"type": "choose", "values": ["base-concentration"]},
        )
    s = state(service, t)
    player = s.table.seats[s.table.turn]
    said = act(service, t, player.name, {"type": "choose", "values": [player.hand[0]]})
    s = state(service, t)
    assert s.phase == "finished" and s.result == "won" and s.player(player.id).wins == 1
    assert "20" in said
    act(service, t, None, {"type": "next_game"})
    s = state(service, t)
    loser = next(p for p in s.players.values() if p.id != player.id)
    assert s.phase == "playing" and s.table.seats[s.table.turn].id == loser.id  # 2.1.6


def test_a_collection_it_cannot_read_changes_nothing(
    service: GameService, rolls: ScriptedRolls
) -> None:
    t = seated(service, rolls)
    before = state(service, t).collection
    with pytest.raises(RuleError) as refused:
        act(
            service,
            t,
            None,
            {
                "type": "collection",
                "text": '[{"title": "X", "type": "attaque", "steps": ["Voler"]}]',
            },
        )
    assert refused.value.field == "text" and "Voler" in refused.value.message
    assert state(service, t).collection == before


def test_a_draw_by_agreement(service: GameService, rolls: ScriptedRolls) -> None:
    t = seated(service, rolls)
    for name in ("Léa", "Hugo"):
        act(service, t, name, {"type": "boosters"})
    act(service, t, None, {"type": "start"})
    act(service, t, "Léa", {"type": "draw"})
    assert state(service, t).phase == "playing"
    act(service, t, "Hugo", {"type": "draw"})
    assert state(service, t).result == "draw_agreed"
    with pytest.raises(RuleError):
        act(service, t, "Léa", {"type": "repetition"})


def test_the_cards_download_as_json_and_csv(
    client: TestClient, service: GameService, rolls: ScriptedRolls
) -> None:
    from server.games.battlefight.decks import read_any

    t = seated(service, rolls)
    client.get(f"/t/{t.token('Léa')}")
    for ext in ("json", "csv"):
        answer = client.get(f"/g/{t.game.id}/battlefight/cards.{ext}")
        assert answer.status_code == 200 and "attachment" in answer.headers["content-disposition"]
        assert read_any(answer.text) == state(service, t).collection
    other, _ = service.create_game("rcb", "Soirée", "MJ", idem_key=key())
    assert client.get(f"/g/{other.id}/battlefight/cards.json").status_code == 404


def test_nobody_enters_a_shuffle_or_a_booster_die_and_physical_dice_games_start(
    service: GameService, rolls: ScriptedRolls
) -> None:
    from server.platform.dice import BadRoll

    rolls.endless = True
    t = table(service, "battlefight", [("player", "Léa"), ("player", "Hugo")], dice="physical")
    lea = t.viewer("Léa").person_id
    with pytest.raises(BadRoll):
        service.perform(
            t.game.id,
            t.org,
            {"type": "boosters", "player": lea},
            idem_key=key(),
            rolls={f"booster for player:{lea}": 1},
        )
    for name in ("Léa", "Hugo"):
        act(service, t, name, {"type": "boosters"})  # no die asked: the server's
    with pytest.raises(BadRoll):
        service.perform(
            t.game.id, t.org, {"type": "start"}, idem_key=key(), rolls={"deck of Léa": 1}
        )
    # Who plays first is a die the organizer rolls at the table, and enters.
    service.perform(t.game.id, t.org, {"type": "start"}, idem_key=key(), rolls={"first player": 2})
    s = state(service, t)
    assert s.phase == "playing" and s.table.turn == 1


def test_a_sealed_pool_is_chosen_by_its_player_only(
    service: GameService, rolls: ScriptedRolls
) -> None:
    t = seated(service, rolls, mode="sealed")
    act(service, t, "Léa", {"type": "boosters"})
    pool = state(service, t).player(t.viewer("Léa").person_id).pool
    with pytest.raises(NotAllowed):  # the organizer could read the pool from the refusals
        act(
            service,
            t,
            None,
            {"type": "deck", "player": t.viewer("Léa").person_id, "cards": [pool[0]] * 20},
        )


def test_a_huge_person_number_is_refused_not_a_crash(
    client: TestClient, service: GameService, rolls: ScriptedRolls
) -> None:
    t = seated(service, rolls)
    answer = client.post(
        f"/api/v1/games/{t.game.id}/commands",
        json={"command": {"type": "boosters", "player": 9223372036854775808}},
        headers={"Authorization": f"Bearer {t.token()}", "Idempotency-Key": key()},
    )
    assert answer.status_code == 422, answer.text


def test_repetition_counts_cards_not_copies(service: GameService, rolls: ScriptedRolls) -> None:
    from server.games.battlefight.setup import position_key

    t = seated(service, rolls)
    for name in ("Léa", "Hugo"):
        act(service, t, name, {"type": "boosters"})
    act(service, t, None, {"type": "start"})
    table_ = state(service, t).table
    seat = table_.seats[0]
    twins = [c for c in table_.cards if c.startswith(f"{seat.id}:")]
    same = next(
        (a, b)
        for a in twins
        for b in twins
        if a != b and table_.cards[a].key == table_.cards[b].key
    )
    seat.draw = [c for c in seat.draw if c not in same]
    seat.hand, seat.discard = [same[0]], [same[1]]
    first = position_key(table_)
    seat.hand, seat.discard = [same[1]], [same[0]]
    assert position_key(table_) == first


def test_a_table_of_physical_cards_run_by_the_organizer(
    service: GameService, rolls: ScriptedRolls
) -> None:
    """The spec's one shared screen: physical cards at one table. The organizer enters each deck
    (boosters are opened on the table), each card drawn (one option per different card of the
    pile; the order is the table's) and each choice, whoever it is asked of. Hands are the
    organizer's to see then, still nobody else's."""
    t = seated(service, rolls, mode="sealed")
    act(service, t, None, {"type": "cards", "at": "table"})
    with pytest.raises(RuleError, match="table"):
        act(service, t, "Léa", {"type": "boosters"})
    keys = {c.type: c.key for c in state(service, t).collection}
    deck = [key for key in keys.values() for _ in range(4)]
    with pytest.raises(NotAllowed, match="organisateur"):
        act(service, t, "Léa", {"type": "deck", "cards": deck})
    for name in ("Léa", "Hugo"):
        player = t.viewer(name).person_id
        act(service, t, None, {"type": "deck", "player": player, "cards": deck})
    act(service, t, None, {"type": "start"})
    s = state(service, t)
    assert s.table.physical and all(len(seat.draw) == 20 for seat in s.table.seats)
    first = s.table.seats[s.table.turn]
    # The organizer answers for the player asked: the base concentration technique draws a card.
    act(service, t, None, {"type": "choose", "values": ["base-concentration"]})
    pending = state(service, t).table.pending
    assert pending.kind == "drawn" and pending.player == first.id
    assert len(pending.options) == 5  # five different cards in the pile, one option each
    drawn = next(o for o in pending.options if state(service, t).table.cards[o].type == "attack")
    with pytest.raises(RuleError):
        act(service, t, None, {"type": "choose", "values": ["9:99"]})
    said = act(service, t, None, {"type": "choose", "values": [drawn]})
    assert first.name in said
    s = state(service, t)
    seat = s.table.seat(first.id)
    assert seat.hand == [drawn] and len(seat.draw) == 19 and s.table.turns == 1
    # What each one sees: the organizer the hands they entered; the others, counts only.
    kind = service.load(t.game.id).kind
    hands = {h["name"]: h["hand"] for h in kind.view(s, t.org, None)["console"]["hands"]}
    assert [c["key"] for c in hands[first.name]] == [keys["attack"]]
    other = next(n for n in ("Léa", "Hugo") if n != first.name)
    for viewer in (t.viewer(other), PUBLIC):
        view = kind.view(s, viewer, None)
        assert "console" not in view and drawn not in str(view)
    # One person enters everything: a player's phone answers no choice, enters no deck.
    with pytest.raises(NotAllowed, match="organisateur"):
        act(service, t, other, {"type": "choose", "values": ["base-defence"]})
    with pytest.raises(RuleError):  # (the game has begun: no deck now, and none from a player)
        act(service, t, other, {"type": "deck", "cards": deck})
    act(service, t, None, {"type": "choose", "values": ["base-defence"]})
    assert state(service, t).table.turns == 2


def test_on_phones_the_organizer_cannot_choose_for_a_player(
    service: GameService, rolls: ScriptedRolls
) -> None:
    t = seated(service, rolls)
    for name in ("Léa", "Hugo"):
        act(service, t, name, {"type": "boosters"})
    act(service, t, None, {"type": "start"})
    with pytest.raises(NotAllowed, match="phone"):
        act(service, t, None, {"type": "choose", "values": ["base-concentration"]})
    s = state(service, t)
    assert "console" not in service.load(t.game.id).kind.view(s, t.org, None)


def test_two_players_open_their_boosters_at_once(
    service: GameService, rolls: ScriptedRolls
) -> None:
    """Both phones show the same screen and both tap "Ouvrir mes boosters": a player's deck is
    theirs alone, so the second is not refused as a stale screen (found on PostgreSQL under
    load by the browser tests); the start, which concerns everyone, still is."""
    t = seated(service, rolls)
    seen = service.seq_of(t.game.id)
    for name in ("Léa", "Hugo"):
        service.perform(
            t.game.id, t.viewer(name), {"type": "boosters"}, idem_key=key(), seen_seq=seen
        )
    assert all(len(p.deck) == 20 for p in state(service, t).players.values())
    with pytest.raises(StaleScreen):
        service.perform(t.game.id, t.org, {"type": "start"}, idem_key=key(), seen_seq=seen)
