"""BattleFight pages through the app: who may open what (the cards of the collection are
public: everyone at the table reads them), and a player's deck chosen from the form."""

from __future__ import annotations

import re
from typing import Any

import pytest
from fastapi.testclient import TestClient

from server.platform.dice import ScriptedRolls
from server.platform.service import GameService
from tests.battlefight.conftest import BF_MATRIX, ROLES
from tests.conftest import Phone, csrf_of, key, opened, table, viewer_of


@pytest.fixture
def battlefight(client: TestClient, service: GameService, rolls: ScriptedRolls) -> dict[str, Any]:
    rolls.endless = True
    t = table(
        service,
        "battlefight",
        [("player", "Léa"), ("player", "Hugo")],
        settings={"deck_mode": "constructed"},
    )
    other = table(service, "battlefight", [("player", "Zed")])
    tokens = {"org": t.token(), "lea": t.token("Léa"), "stranger": other.token("Zed")}
    phones = {}
    for role in ROLES:
        phone = Phone(client, follow_redirects=False)
        if role in tokens:
            assert phone.get(f"/t/{tokens[role]}").status_code == 303
        phone.headers["X-CSRF-Token"] = csrf_of(phone.get("/").text)
        phones[role] = phone
    return {"table": t, "phones": phones, "service": service}


@pytest.mark.parametrize("entry", BF_MATRIX, ids=lambda e: f"{e[0]} {e[2]}")
def test_each_role_gets_exactly_what_it_may(battlefight: dict[str, Any], entry: Any) -> None:
    _method, _route, path, _form, allowed = entry
    url = path.replace("{g}", battlefight["table"].game.id)
    for role in ROLES:
        answer = battlefight["phones"][role].get(url)
        assert (200 <= answer.status_code < 400) == (role in allowed), (
            role,
            url,
            answer.status_code,
        )


def test_a_deck_chosen_on_the_phone(battlefight: dict[str, Any]) -> None:
    t, phone, service = battlefight["table"], battlefight["phones"]["lea"], battlefight["service"]
    page = phone.get(f"/g/{t.game.id}")
    assert page.status_code == 200 and 'name="count_coup-de-poing"' in page.text
    chosen = {
        f"count_{k}": "4"
        for k in ("coup-de-poing", "parade", "course", "meditation", "provocation")
    }
    answer = phone.post(
        f"/g/{t.game.id}/act",
        data={"type": "deck", **chosen, "count_bouclier": "0", "idem": key()},
        headers={"HX-Request": "true"},
    )
    assert answer.status_code == 200, answer.text
    assert len(service.load(t.game.id).state.player(t.viewer("Léa").person_id).deck) == 20
    # Taken, the deck may still be changed before the start.
    page = phone.get(f"/g/{t.game.id}")
    assert "Changer de deck" in page.text
    other = {**chosen, "count_parade": "0", "count_bouclier": "4"}
    answer = phone.post(
        f"/g/{t.game.id}/act",
        data={"type": "deck", **other, "idem": key()},
        headers={"HX-Request": "true"},
    )
    assert answer.status_code == 200, answer.text
    deck = service.load(t.game.id).state.player(t.viewer("Léa").person_id).deck
    assert deck.count("bouclier") == 4 and "parade" not in deck
    # Three of a type: the form comes back with the message and what was typed.
    hugo = Phone(phone, follow_redirects=False)
    assert hugo.get(f"/t/{t.token('Hugo')}").status_code == 303
    hugo.headers["X-CSRF-Token"] = csrf_of(hugo.get("/").text)
    wrong = {**chosen, "count_parade": "3"}
    answer = hugo.post(
        f"/g/{t.game.id}/act",
        data={"type": "deck", **wrong, "idem": key()},
        headers={"HX-Request": "true"},
    )
    assert answer.status_code in (400, 422), answer.status_code
    assert 'value="3"' in answer.text and "4 cartes de chaque type" in answer.text


def started(service: GameService, rolls: ScriptedRolls) -> Any:
    """Léa and Hugo, each with their two boosters, the game started."""
    rolls.endless = True
    t = table(service, "battlefight", [("player", "Léa"), ("player", "Hugo")])
    for name in ("Léa", "Hugo"):
        service.perform(t.game.id, t.viewer(name), {"type": "boosters"}, idem_key=key())
    service.perform(t.game.id, t.org, {"type": "start"}, idem_key=key())
    return t


def test_a_draw_offer_is_said_to_each_side(
    client: TestClient, service: GameService, rolls: ScriptedRolls
) -> None:
    """Found by a playtest: the player who offered a draw was told to accept it below."""
    t = started(service, rolls)
    service.perform(t.game.id, t.viewer("Léa"), {"type": "draw"}, idem_key=key())
    pages = {}
    for name in ("Léa", "Hugo"):
        phone = Phone(client, follow_redirects=False)
        assert phone.get(f"/t/{t.token(name)}").status_code == 303
        pages[name] = phone.get(f"/g/{t.game.id}").text
    assert (
        "Waiting for the other players to accept" in pages["Léa"]
        or "En attente de l’accord" in pages["Léa"]
    )
    assert "Accept it below" not in pages["Léa"] and "Acceptez-la" not in pages["Léa"]
    assert "Waiting for the other players to accept" not in pages["Hugo"]
    assert "En attente de l’accord" not in pages["Hugo"]
    # Issue 35, class B: the button says what it does now, and the board shows the offer.
    assert "Accepter la nulle" in pages["Hugo"] and "Proposer la nulle" not in pages["Hugo"]
    assert "Accepter la nulle" not in pages["Léa"] and "Proposer la nulle" not in pages["Léa"]
    board = Phone(client).get(f"/g/{t.game.id}/board").text
    assert "Nulle proposée par Léa" in board or "Draw offered by Léa" in board


def test_the_match_score_shows_during_the_next_game(
    client: TestClient, service: GameService, rolls: ScriptedRolls
) -> None:
    """Issue 35, class B: game 2 says it is game 2, and the games won so far."""
    t = started(service, rolls)
    for name in ("Léa", "Hugo"):
        service.perform(t.game.id, t.viewer(name), {"type": "draw"}, idem_key=key())
    board = Phone(client).get(f"/g/{t.game.id}/board").text
    assert "du match" not in board  # game 1, then its end
    service.perform(t.game.id, t.org, {"type": "next_game"}, idem_key=key())
    board = Phone(client).get(f"/g/{t.game.id}/board").text
    assert "Partie 2 du match" in board


def test_a_target_is_chosen_by_tapping_its_pawn(client: TestClient, rolls: ScriptedRolls) -> None:
    """Issue 54, the board is the control: with three players, a technique asks its target;
    the page makes the other players' pawns the choices (each taps the same choice as its
    button below the board), never the player's own."""
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    rolls.endless = True
    game, owner = service.create_game("battlefight", "Trio", "Orga", idem_key=key())
    org = viewer_of(owner)
    seats = {
        name: service.register(game.id, org, "player", name, idem_key=key())
        for name in ("Léa", "Hugo", "Zoé")
    }
    for registered in seats.values():
        service.perform(game.id, viewer_of(registered), {"type": "boosters"}, idem_key=key())
    service.perform(game.id, org, {"type": "start"}, idem_key=key())
    table_: Any = service.load(game.id).state.table  # type: ignore[attr-defined]
    first = next(r for r in seats.values() if r.person.id == table_.pending.player)
    command = {"type": "choose", "values": ["base-attack"]}  # « Blesser 1 »: whom?
    service.perform(game.id, viewer_of(first), command, idem_key=key())
    pending = service.load(game.id).state.table.pending  # type: ignore[attr-defined]
    assert pending.kind == "target" and pending.player == first.person.id
    others = {str(r.person.id) for r in seats.values() if r is not first}
    assert set(pending.options) == others

    phone = opened(client, service.link_of(first.person).token)
    page = phone.get(f"/g/{game.id}").text
    tapped = set(re.findall(r'class="bf-cell taken option" data-choose="(\d+)"', page))
    assert tapped == others  # the two others' pawns, not the player's own
    buttons = set(re.findall(r'name="values\[\]" value="(\d+)"', page))
    assert buttons == others  # each pawn taps one of these


def test_a_technique_that_would_fail_from_here_says_so_on_its_button(
    client: TestClient, rolls: ScriptedRolls
) -> None:
    """A melee blow two cells or more away fails (4.4.4), a ranged one too close fails (4.4.6):
    still offered (the rule book lets it be played), its button says it before the tap (a
    newcomer played sixteen failing blows, issue 54); a move before it foretells nothing."""
    from server.games.battlefight import board
    from server.games.battlefight.views import out_of_reach

    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    t = started(service, rolls)
    table_ = service.load(t.game.id).state.table
    me, other = (s.id for s in table_.seats)
    apart = board.distance(table_.seat(me).cell, table_.seat(other).cell)
    assert apart > 1  # the corners the game starts on
    melee = table_.technique("base-attack")
    assert out_of_reach(table_, me, melee) is not None
    assert out_of_reach(table_, me, table_.technique("base-movement")) is None
    near = table_.model_copy(deep=True)  # the game's own state is not touched
    near.seat(me).cell = board.neighbours(near.seat(other).cell)[0]
    assert out_of_reach(near, me, melee) is None
    # On the page of the player asked: said on the base attack's button, on no other.
    asked = next(p for p in service.people(t.game.id) if p.id == table_.pending.player)
    page = opened(client, service.link_of(asked).token).get(f"/g/{t.game.id}").text
    noted = re.findall(
        r'value="([^"]+)" class="button secondary bf-technique">(?:(?!</button>).)*bf-note', page
    )
    assert noted == ["base-attack"]
