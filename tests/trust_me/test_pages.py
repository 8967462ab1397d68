"""Trust Me's pages through the app: who may download the box (public: the printed game's
components, not who holds which), a player's forms as a phone sends them (the starting tokens
kept, a search, an attack), and what another phone and the board show of a hidden token."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from fastapi.testclient import TestClient

from server.platform.dice import ScriptedRolls
from server.platform.service import GameService
from tests.conftest import Phone, csrf_of, key
from tests.trust_me.conftest import ROLES, TM_MATRIX, dealt


@pytest.fixture
def trust_me(client: TestClient, service: GameService, rolls: ScriptedRolls) -> dict[str, Any]:
    t = dealt(service, rolls, keep=False)
    other = dealt(service, rolls, keep=False)
    links = {
        "org": service.link_of(service.person(t.game, t.org.person_id)).token,  # type: ignore[union-attr, arg-type]
        "lea": service.link_of(service.person(t.game, t.id("Léa"))).token,
        "hugo": service.link_of(service.person(t.game, t.id("Hugo"))).token,
        "stranger": service.link_of(service.person(other.game, other.id("Léa"))).token,
    }
    phones = {}
    for role in ROLES:
        phone = Phone(client, follow_redirects=False)
        if role in links:
            assert phone.get(f"/t/{links[role]}").status_code == 303
        phone.headers["X-CSRF-Token"] = csrf_of(phone.get("/").text)
        phone.cookies.set("lang", "en")
        phones[role] = phone
    return {"t": t, "phones": phones}


@pytest.mark.parametrize("entry", TM_MATRIX, ids=lambda e: f"{e[0]} {e[2]}")
def test_each_role_gets_exactly_what_it_may(trust_me: dict[str, Any], entry: Any) -> None:
    _method, _route, path, _form, allowed = entry
    url = path.replace("{g}", trust_me["t"].game)
    for role in ROLES:
        answer = trust_me["phones"][role].get(url)
        assert (200 <= answer.status_code < 400) == (role in allowed), (role, answer.status_code)
    if url.endswith(".json"):
        box = json.loads(trust_me["phones"]["public"].get(url).text)
        assert box["sample"] is True and len(box["cells"]) == 9


def post(phone: TestClient, game: str, data: dict[str, Any]) -> Any:
    return phone.post(
        f"/g/{game}/act", data={**data, "idem": key()}, headers={"HX-Request": "true"}
    )


def test_a_phone_keeps_searches_and_fights(trust_me: dict[str, Any], rolls: ScriptedRolls) -> None:
    t, phones = trust_me["t"], trust_me["phones"]
    lea = phones["lea"]
    page = lea.get(f"/g/{t.game}").text
    assert "Keep two starting tokens" in page and "Munitions" in page
    assert "Munitions" not in phones["hugo"].get(f"/g/{t.game}").text  # Léa's four are hers
    offered = t.sheet("Léa").offered
    # The keep form: a place per token, empty for the two going back in the box.
    answer = post(
        lea,
        t.game,
        {
            "type": "keep",
            f"slot_{offered[0]}": "right",
            f"slot_{offered[1]}": "",
            f"slot_{offered[3]}": "c3",
        },
    )
    assert answer.status_code == 200, answer.text
    assert t.sheet("Léa").kept
    for name in ("Hugo", "Ana", "Tom"):
        o = t.sheet(name).offered
        t.act(
            name,
            {
                "type": "keep",
                "items": [{"item": o[0], "slot": "right"}, {"item": o[3], "slot": "c3"}],
            },
        )
    # Léa's turn: she searches a token and hides it in the "?" cell.
    page = lea.get(f"/g/{t.game}").text
    assert "Place a token and act" in page
    answer = post(lea, t.game, {"type": "search", "found": "medicaments", "to": "c9", "slot": "c1"})
    assert answer.status_code == 200, answer.text
    assert "Médicaments" in lea.get(f"/g/{t.game}").text
    for viewer in ("hugo", "public", "org"):
        seen = phones[viewer].get(f"/g/{t.game}" if viewer != "public" else f"/g/{t.game}/board")
        text = (
            seen.text if seen.status_code == 200 else phones[viewer].get(f"/g/{t.game}/board").text
        )
        text = re.sub(r"<select.*?</select>", "", text, flags=re.S)  # (the box's list to search)
        assert "Médicaments" not in text and "a face-down token" in text, viewer
    # A wrong form: an attack with no weapon in hand is refused on the page, nothing changes.
    t.act("Hugo", {"type": "act", "action": "nothing", "slot": "c1"})
    t.act("Ana", {"type": "act", "action": "nothing", "slot": "c1"})
    t.act("Tom", {"type": "act", "action": "nothing", "slot": "c1"})
    seq = t.service.load(t.game).game.seq
    answer = post(
        lea,
        t.game,
        {
            "type": "attack",
            "weapon": str(t.item("Léa", "trousse-de-soin")),
            "target": str(t.id("Hugo")),
            "slot": "c2",
            "malus[]": "0",
        },
    )
    assert answer.status_code == 422 and "Fight with a weapon you hold in hand." in answer.text
    assert t.service.load(t.game).game.seq == seq
    rolls.push(4, 4)
    answer = post(
        lea,
        t.game,
        {
            "type": "attack",
            "weapon": str(t.item("Léa", "surin")),
            "target": str(t.id("Hugo")),
            "slot": "c2",
            "malus[]": "1",
        },
    )
    assert answer.status_code == 200, answer.text
    assert t.state.fight is not None and t.state.fight.malus == [("table", 1)]
    assert "Roll one die again?" in lea.get(f"/g/{t.game}").text


def test_nobody_fires_the_attacker_rolls_from_their_phone(
    trust_me: dict[str, Any], rolls: ScriptedRolls
) -> None:
    """9.2, 10.2 « L'attaquant lance ses dés d'attaque »: Hugo, aiming at Léa, lets her act;
    her phone then offers her attack to do (no way to stop: nobody fired), and rolls it."""
    t, phones = trust_me["t"], trust_me["phones"]
    for name in ("Léa", "Hugo", "Ana", "Tom"):
        o = t.sheet(name).offered
        keep = [{"item": o[0], "slot": "right"}, {"item": o[3], "slot": "c3"}]
        t.act(name, {"type": "keep", "items": keep})
    t.act("Léa", {"type": "act", "action": "nothing", "slot": "c1"})
    t.act("Hugo", {"type": "act", "action": "aim", "slot": "c1", "target": t.id("Léa")})
    t.act("Ana", {"type": "act", "action": "nothing", "slot": "c1"})
    t.act("Tom", {"type": "act", "action": "nothing", "slot": "c1"})
    surin = t.item("Léa", "surin")
    attack = {"type": "attack", "weapon": str(surin), "target": str(t.id("Ana")), "slot": "c2"}
    assert post(phones["lea"], t.game, attack).status_code == 200
    assert "Let them act" in phones["hugo"].get(f"/g/{t.game}").text
    assert post(phones["hugo"], t.game, {"type": "aimed", "answer": "hold"}).status_code == 200
    page = phones["lea"].get(f"/g/{t.game}").text
    assert "Nobody fired: do an attack now" in page and "Do it now" in page
    assert "Stop and pass" not in page and t.state.fight is None
    assert "Do it now" not in phones["hugo"].get(f"/g/{t.game}").text
    rolls.push(4, 4, 4)
    answer = post(phones["lea"], t.game, {"type": "aimed", "answer": "go_on"})
    assert answer.status_code == 200, answer.text
    assert t.state.fight is not None and t.state.declared is None
