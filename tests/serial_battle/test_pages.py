"""Serial Battle pages through the app: who may open what, and no player sees another's cards."""

from __future__ import annotations

import re
from typing import Any

import pytest
from fastapi.testclient import TestClient

from server.i18n import current_language
from server.platform.dice import ScriptedRolls
from server.platform.kinds import Viewer
from server.platform.service import GameService
from tests.conftest import Phone, csrf_of, form_fields, key, viewer_of
from tests.serial_battle.conftest import ROLES, SB_MATRIX


@pytest.fixture
def sb(client: TestClient) -> dict[str, Any]:
    """A Serial Battle game in setup, its people logged in on their own phones."""
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    game, organizer = service.create_game("serial_battle", "Parc", "Orga", idem_key=key())
    org = viewer_of(organizer)
    people = {
        "org": org,
        "ref": viewer_of(service.register(game.id, org, "referee", "Ref", idem_key=key())),
        "lea": viewer_of(service.register(game.id, org, "player", "Léa", idem_key=key())),
        "hugo": viewer_of(service.register(game.id, org, "player", "Hugo", idem_key=key())),
    }
    other, other_org = service.create_game("serial_battle", "Autre", "X", idem_key=key())
    people["ref_b"] = viewer_of(
        service.register(other.id, viewer_of(other_org), "referee", "Ref B", idem_key=key())
    )
    phones = {}
    for role in ROLES:
        phone = Phone(client, follow_redirects=False)
        if role in people:
            person = service.person(
                other.id if role == "ref_b" else game.id, people[role].person_id
            )  # type: ignore[arg-type]
            assert phone.get(f"/t/{service.link_of(person).token}").status_code == 303
        phone.headers["X-CSRF-Token"] = csrf_of(phone.get("/").text)
        phones[role] = phone
    return {"game": game.id, "people": people, "phones": phones, "service": service}


def fill(text: str, sb: dict[str, Any]) -> str:
    people = sb["people"]
    return (
        text.replace("{g}", sb["game"])
        .replace("{lea}", str(people["lea"].person_id))
        .replace("{hugo}", str(people["hugo"].person_id))
    )


@pytest.mark.parametrize("entry", SB_MATRIX, ids=lambda e: f"{e[0]} {e[2]}")
def test_serial_battle_pages_give_each_role_exactly_what_it_may(
    sb: dict[str, Any], entry: Any
) -> None:
    method, _route, path, form, allowed = entry
    for role in ROLES:
        phone = sb["phones"][role]
        url = fill(path, sb)
        if method == "GET":
            response = phone.get(url, headers={"HX-Request": "true"})
        else:
            response = phone.post(url, data={**(form or {}), "idem": key()})
        assert (200 <= response.status_code < 400) == (role in allowed), (
            role,
            url,
            response.status_code,
        )


def start(sb: dict[str, Any], cards: dict[str, str]) -> None:
    service: GameService = sb["service"]
    org: Viewer = sb["people"]["org"]
    service.perform(sb["game"], org, {"type": "sectors", "names": "Nord, Sud"}, idem_key=key())
    service.perform(
        sb["game"],
        org,
        {"type": "settings", "shrink_minutes": 10, "deal_mode": "scattered", "closing": "choose"},
        idem_key=key(),
    )
    service.perform(sb["game"], org, {"type": "start"}, idem_key=key())
    for role, card in cards.items():
        service.perform(
            sb["game"],
            org,
            {"type": "give", "player": sb["people"][role].person_id, "card": card},
            idem_key=key(),
        )


def test_no_player_ever_sees_another_players_cards(sb: dict[str, Any]) -> None:
    start(sb, {"lea": "katana", "hugo": "arc"})
    hugo = sb["phones"]["hugo"]
    token = (
        sb["service"]
        .link_of(sb["service"].person(sb["game"], sb["people"]["hugo"].person_id))
        .token
    )
    answers = [
        hugo.get(f"/g/{sb['game']}").text,
        hugo.get(f"/g/{sb['game']}/live/player").text,
        hugo.get(f"/g/{sb['game']}/board").text,
        hugo.get(f"/g/{sb['game']}/log").text,
        hugo.get(f"/g/{sb['game']}/log.json").text,
        hugo.get(f"/g/{sb['game']}/log.csv").text,
        hugo.get(
            f"/api/v1/games/{sb['game']}/state", headers={"Authorization": f"Bearer {token}"}
        ).text,
        hugo.get(
            f"/api/v1/games/{sb['game']}/log", headers={"Authorization": f"Bearer {token}"}
        ).text,
        sb["phones"]["stranger"].get(f"/g/{sb['game']}/board").text,
        sb["phones"]["stranger"].get(f"/api/v1/games/{sb['game']}").text,
    ]
    assert "Arc" in answers[0]  # his own card is there
    for text in answers:
        assert "Katana" not in text and "katana" not in text
    staff = sb["phones"]["ref"].get(f"/g/{sb['game']}").text
    assert "Katana" in staff


def test_an_assault_through_the_console_in_one_tap_after_the_players(sb: dict[str, Any]) -> None:
    start(sb, {"lea": "katana", "hugo": "arc"})
    ref = sb["phones"]["ref"]
    lea, hugo = sb["people"]["lea"].person_id, sb["people"]["hugo"].person_id
    page = ref.get(
        f"/g/{sb['game']}/serial_battle/assault?attacker={lea}&defenders={hugo}",
        headers={"HX-Request": "true"},
    )
    assert "Léa → Hugo" in page.text
    fields = form_fields(page.text, f"/g/{sb['game']}/act")
    answer = ref.post(
        f"/g/{sb['game']}/act",
        data={
            **fields,
            "attacker": lea,
            "defenders[]": hugo,
            "card": "katana",
            "touch": "attacker",
            "answer": "false",
            "roll_damage": "4",
            "roll_location": "2",
        },
        headers={"HX-Request": "true"},
    )
    assert answer.status_code == 200
    assert (
        "Léa frappe Hugo au bras droit avec la carte Katana : 6 PV, tranché. Hugo : 30 PV restants."
        in answer.text
    )
    assert "Assaut : qui attaque ?" in answer.text  # the builder starts over, in the live part
    bad = ref.post(
        f"/g/{sb['game']}/act",
        data={
            **form_fields(
                ref.get(
                    f"/g/{sb['game']}/serial_battle/assault?attacker={hugo}&defenders={lea}",
                    headers={"HX-Request": "true"},
                ).text,
                f"/g/{sb['game']}/act",
            ),
            "attacker": hugo,
            "defenders[]": lea,
            "card": "bare",
            "roll_damage": "9",
        },
        headers={"HX-Request": "true"},
    )
    assert bad.status_code == 422 and "pas 9" in bad.text
    assert "Hugo → Léa" in bad.text  # the builder keeps the two players, with the message


def test_a_broken_deck_import_says_which_line(sb: dict[str, Any]) -> None:
    org = sb["phones"]["org"]
    deck = org.get(f"/g/{sb['game']}/serial_battle/deck")
    fields = form_fields(deck.text, f"/g/{sb['game']}/serial_battle/deck")
    csv_text = (
        "name,category,face1,face2,face3,face4,face5,face6,abilities\n"
        "Épée,blade,1,2,3,4,5,6 critique,\n"
        "Lance,blade,1,2,3,4,5,,\n"
        "Fouet,blade,1,2,3,4,5,6,volante\n"
    )
    bad = org.post(f"/g/{sb['game']}/serial_battle/deck", data={**fields, "text": csv_text})
    assert bad.status_code == 422
    assert "Ligne 3 (« Lance ») : la face 6 manque ou est illisible" in bad.text
    duplicate = org.post(
        f"/g/{sb['game']}/serial_battle/deck",
        data={
            **fields,
            "text": "name,category,face1,face2,face3,face4,face5,face6\n"
            "Épée,blade,1,2,3,4,5,6\népée,blade,1,1,1,1,1,1\n",
        },
    )
    assert duplicate.status_code == 422 and "Deux cartes s’appellent" in duplicate.text
    unknown = org.post(
        f"/g/{sb['game']}/serial_battle/deck",
        data={
            **fields,
            "text": csv_text.replace("Lance,blade,1,2,3,4,5,,", "Lance,blade,1,2,3,4,5,6"),
        },
    )
    assert unknown.status_code == 422 and "capacité inconnue « volante »" in unknown.text
    good = org.post(
        f"/g/{sb['game']}/serial_battle/deck",
        data={
            **fields,
            "text": "name,category,face1,face2,face3,face4,face5,face6\nÉpée,blade,1,2,3,4,5,6 critique\n",
        },
    )
    assert good.status_code == 303
    exported = org.get(f"/g/{sb['game']}/serial_battle/deck.csv").text
    assert "Épée,blade,1,2,3,4,5,6 critical" in exported
    assert sb["service"].load(sb["game"]).state.deck[0].name == "Épée"


def test_the_setup_says_what_the_start_needs_and_players_learn_how_it_ended(
    sb: dict[str, Any], rolls: ScriptedRolls
) -> None:
    """Playtest: the start was refused one reason at a time, 2,000 px down; the winner's page
    did not say so; a player out did not learn why nor what to do with the cards."""
    service: GameService = sb["service"]
    game, people, phones = sb["game"], sb["people"], sb["phones"]
    page = phones["org"].get(f"/g/{game}").text
    assert "Nommez au moins deux secteurs" in page
    assert page.index("Nommez au moins deux secteurs") < page.index("Lancer la partie")
    assert page.index("Lancer la partie") < page.index("Secteurs et plan")
    service.perform(game, people["org"], {"type": "sectors", "names": "Nord, Sud"}, idem_key=key())
    assert "Nommez au moins deux secteurs" not in phones["org"].get(f"/g/{game}").text
    rolls.endless = True
    service.perform(game, people["org"], {"type": "start"}, idem_key=key())
    # Nobody was placed in a sector: the shrink says what to look for.
    rolls.endless = False
    said = service.perform(
        game, people["org"], {"type": "close", "sectors": ["Nord"]}, idem_key=key()
    ).summary.render()
    assert "Personne n’est placé dans un secteur : éliminez qui se trouve encore dans Nord." in said
    service.perform(
        game,
        people["ref"],
        {"type": "eliminate", "player": people["hugo"].person_id, "cause": "zone"},
        idem_key=key(),
    )
    hugo = phones["hugo"].get(f"/g/{game}").text
    assert "Cause : secteur fermé. Rendez vos cartes à l’arbitre." in hugo
    assert "Vous avez gagné !" in phones["lea"].get(f"/g/{game}").text
    assert "Vous avez gagné !" not in hugo


HX = {"HX-Request": "true"}


def live_of(page: str) -> str:
    """The live part of a whole page, as its refresh answers it (the forms' keys set aside)."""
    start = page.index(">", page.index('<div id="live"')) + 1
    end = page.rindex("</div>", start, page.index("</main>"))  # the live part closes the page
    return keyless(page[start:end])


def keyless(html: str) -> str:
    return re.sub(r'name="idem" value="[^"]*"', 'name="idem"', html).strip()


def test_two_referees_one_truth_an_assault_being_entered_is_renewed_by_each_push(
    sb: dict[str, Any],
) -> None:
    """Issue 50: the assault panel is in the live part, its players picked kept in the page's
    address; a referee's refresh asks its part with them, and shows what a fresh load of that
    address shows: the other referee's corrections, and a player put out meanwhile said in
    words, by whom, with only that player let go."""
    service: GameService = sb["service"]
    org = sb["people"]["org"]
    zoe = viewer_of(service.register(sb["game"], org, "player", "Zoé", idem_key=key()))
    start(sb, {"lea": "katana", "hugo": "arc"})
    game, ref = sb["game"], sb["phones"]["ref"]
    lea, hugo = sb["people"]["lea"].person_id, sb["people"]["hugo"].person_id
    # A grenade too: "Also hit" is offered to an attacker holding a card that hits several.
    service.perform(game, org, {"type": "give", "player": lea, "card": "grenade"}, idem_key=key())
    picked = f"attacker={lea}&defenders={hugo}"
    live = f"/g/{game}/live/staff?{picked}"
    held = ref.get(live, headers=HX)
    assert held.status_code == 200 and "Léa → Hugo" in held.text
    tag = held.headers["X-Live-Tag"]
    assert tag != ref.get(f"/g/{game}/live/staff", headers=HX).headers["X-Live-Tag"]
    assert ref.get(live, headers={**HX, "X-Live-Tag": tag}).status_code == 204
    # The other referee (here the organizer) corrects Hugo: the half-made assault stays, renewed.
    correction = {"type": "correct", "player": hugo, "pv": 21, "reason": "oubli"}
    service.perform(game, org, correction, idem_key=key())
    renewed = ref.get(live, headers={**HX, "X-Live-Tag": tag})
    assert renewed.status_code == 200 and "Léa → Hugo" in renewed.text
    assert "21 PV" in renewed.text
    assert keyless(renewed.text) == live_of(ref.get(f"/g/{game}?{picked}").text)
    # Hugo put out meanwhile: said, by whom; Léa stays the attacker.
    service.perform(
        game, org, {"type": "eliminate", "player": hugo, "cause": "referee"}, idem_key=key()
    )
    gone = ref.get(live, headers=HX).text
    assert "Hors jeu à l’instant : Hugo (saisi par Orga)." in gone
    assert "Léa attaque. Qui défend ?" in gone and f"defenders={zoe.person_id}" in gone
    assert keyless(gone) == live_of(ref.get(f"/g/{game}?{picked}").text)
    # Another key of the address is not the part's: the same part as without it.
    plain = ref.get(f"/g/{game}/live/staff?lang=en&x=1", headers=HX)
    assert (
        plain.headers["X-Live-Tag"]
        == ref.get(f"/g/{game}/live/staff", headers=HX).headers["X-Live-Tag"]
    )


def test_an_assault_rolled_lets_go_of_the_address_and_the_language_keeps_it(
    sb: dict[str, Any],
) -> None:
    start(sb, {"lea": "katana", "hugo": "arc"})
    game, ref = sb["game"], sb["phones"]["ref"]
    lea, hugo = sb["people"]["lea"].person_id, sb["people"]["hugo"].person_id
    address = f"/g/{game}?attacker={lea}&defenders={hugo}"
    page = ref.get(address).text
    # The language switch comes back to the address with its players (no script: as loaded).
    assert f'name="next" value="{address}"' in page.replace("&amp;", "&")
    fields = form_fields(page[page.index('id="assault"') :], f"/g/{game}/act")
    # Refused, the assault comes back with its players, and the address holds them again.
    refused = ref.post(
        f"/g/{game}/act",
        data={**fields, "card": "arc", "touch": "attacker", "answer": "false"},
        headers={**HX, "HX-Current-URL": f"http://testserver{address}"},
    )
    assert refused.status_code == 422 and "Léa → Hugo" in refused.text
    assert refused.headers["HX-Replace-Url"] == address
    rolled = ref.post(
        f"/g/{game}/act",
        data={
            **fields,
            "card": "katana",
            "defender_card": "arc",
            "touch": "attacker",
            "answer": "false",
            "roll_damage": "1",
            "roll_location": "1",
        },
        headers={**HX, "HX-Current-URL": f"http://testserver{address}"},
    )
    assert rolled.status_code == 200, rolled.text[:300]
    assert rolled.headers["HX-Replace-Url"] == f"/g/{game}"
    assert "Assaut : qui attaque ?" in rolled.text
    other = ref.post(
        f"/g/{game}/act",
        data={"type": "pause", "idem": key(), "csrf_token": csrf_of(ref.get(f"/g/{game}").text)},
        headers={**HX, "HX-Current-URL": f"http://testserver/g/{game}"},
    )
    assert other.status_code == 200 and "HX-Replace-Url" not in other.headers


def katana(
    service: GameService, game: str, org: Any, attacker: int, defender: int, **rolls: int
) -> Any:
    """The organizer enters `attacker`'s katana on `defender`, no answer, with these dice."""
    command = {
        "type": "assault",
        "attacker": attacker,
        "defenders": [defender],
        "card": "katana",
        "answer": False,
    }
    return service.perform(game, org, command, idem_key=key(), rolls=rolls)


def test_the_loot_starts_with_nothing_ticked_and_taking_nothing_is_a_tap_of_its_own(
    sb: dict[str, Any],
) -> None:
    """Issue 50: the loot's boxes started ticked (one tap unticked them: "Léa ne prend rien").
    What the winner takes is never chosen for the referee: nothing is ticked, the button takes
    what is ticked, and taking nothing is its own button."""
    service: GameService = sb["service"]
    org = sb["people"]["org"]
    service.register(sb["game"], org, "player", "Zoé", idem_key=key())
    start(sb, {"lea": "katana", "hugo": "arc"})
    game, ref = sb["game"], sb["phones"]["ref"]
    lea, hugo = sb["people"]["lea"].person_id, sb["people"]["hugo"].person_id
    service.perform(
        game, org, {"type": "correct", "player": hugo, "pv": 1, "reason": "r"}, idem_key=key()
    )
    katana(service, game, org, lea, hugo, damage=4, location=1)
    page = ref.get(f"/g/{game}").text
    loot = page[page.index('value="loot"') : page.index("</form>", page.index('value="loot"'))]
    assert 'name="take[]"' in loot and "checked" not in loot
    # « Take these » with nothing ticked is said before the tap (the walker's find, issue 53);
    # « Take nothing » goes whatever is ticked.
    assert 'data-least="1" data-rule="Cochez les cartes à prendre' in loot
    assert 'value="nothing" class="button secondary" formnovalidate' in loot
    fields = {**form_fields(page[page.index('value="loot"') - 600 :], f"/g/{game}/act")}
    refused = ref.post(f"/g/{game}/act", data={**fields, "choice": "take"}, headers=HX)
    assert refused.status_code == 422
    assert "Cochez les cartes à prendre, ou touchez « Ne rien prendre »." in refused.text
    done = ref.post(
        f"/g/{game}/act", data={**fields, "idem": key(), "choice": "nothing"}, headers=HX
    )
    assert done.status_code == 200 and "Léa ne prend rien." in done.text


def test_a_half_made_assault_outlives_the_referee_s_other_taps_and_a_refusal_stays_said(
    sb: dict[str, Any],
) -> None:
    """Issue 50, from an outside review: a correction made while an assault was half-made wiped
    it; a refusal was wiped by the next push; sector mates started ticked under "Also hit", so
    a one-target card was refused, and could not be unticked after the refusal."""
    service: GameService = sb["service"]
    org = sb["people"]["org"]
    zoe = viewer_of(service.register(sb["game"], org, "player", "Zoé", idem_key=key()))
    start(sb, {"lea": "katana", "hugo": "arc"})
    game, ref = sb["game"], sb["phones"]["ref"]
    lea, hugo = sb["people"]["lea"].person_id, sb["people"]["hugo"].person_id
    # A grenade too: "Also hit" is offered to an attacker holding a card that hits several.
    service.perform(game, org, {"type": "give", "player": lea, "card": "grenade"}, idem_key=key())
    for player in (lea, hugo, zoe.person_id):
        service.perform(
            game, org, {"type": "place", "players": [player], "sector": "Nord"}, idem_key=key()
        )
    address = f"/g/{game}?attacker={lea}&defenders={hugo}"
    here = {**HX, "HX-Current-URL": f"http://testserver{address}"}
    page = ref.get(address).text
    also = page[page.index("Also hit") if "Also hit" in page else page.index("Touche aussi") :]
    assert f'value="{zoe.person_id}"' in also and "checked" not in also.split("</fieldset>")[0]
    fields = form_fields(page[page.index('id="assault"') :], f"/g/{game}/act")
    csrf = fields["csrf_token"]
    # Another of the referee's taps keeps the assault, its address too.
    kept = ref.post(
        f"/g/{game}/act",
        data={
            "type": "correct",
            "player": zoe.person_id,
            "pv": 30,
            "reason": "r",
            "idem": key(),
            "csrf_token": csrf,
        },
        headers=here,
    )
    assert kept.status_code == 200 and "Léa → Hugo" in kept.text
    assert "HX-Replace-Url" not in kept.headers
    # A one-target card with a second defender ticked: refused, said where no push takes it
    # away, and the second defender can be unticked.
    refused = ref.post(
        f"/g/{game}/act",
        data={
            **fields,
            "idem": key(),
            "defenders[]": [str(hugo), str(zoe.person_id)],
            "card": "katana",
            "defender_card": "arc",
            "touch": "attacker",
            "answer": "false",
        },
        headers=here,
    )
    assert refused.status_code == 422
    flash = refused.text[refused.text.index('<div id="flash"') :]
    assert '<p class="flash refused" role="alert">' in flash and "un seul défenseur" in flash
    again = refused.text[refused.text.index('id="assault"') :]
    assert again.count(f'name="defenders[]" value="{zoe.person_id}"') == 1
    ticked = rf'type="checkbox" name="defenders\[\]" value="{zoe.person_id}" data-enabled-when="card:grenade[^"]*" checked'
    assert re.search(ticked, again)


def test_a_referee_is_offered_the_undo_of_their_own_action_alone(sb: dict[str, Any]) -> None:
    """An undo button is offered where the undo would be taken (issue 53): a referee undoes
    their own last action, the organizer anyone's; another referee's is offered to no other
    referee, who would be refused it."""
    service: GameService = sb["service"]
    org, game = sb["people"]["org"], sb["game"]
    start(sb, {"lea": "katana", "hugo": "arc"})
    hugo = sb["people"]["hugo"].person_id
    other = service.register(game, org, "referee", "Arbitre Sud", idem_key=key())
    south = Phone(sb["phones"]["ref"], follow_redirects=False)
    assert south.get(f"/t/{service.link_of(other.person).token}").status_code == 303
    correction = {"type": "correct", "player": hugo, "pv": 21, "reason": "oubli"}
    service.perform(game, viewer_of(other), correction, idem_key=key())
    undo = 'action="/g/' + game + '/undo"'
    assert undo in south.get(f"/g/{game}").text  # their own
    assert undo not in sb["phones"]["ref"].get(f"/g/{game}").text  # Arbitre Sud's, not theirs
    assert undo in sb["phones"]["org"].get(f"/g/{game}").text  # the organizer's: anyone's
    fields = form_fields(south.get(f"/g/{game}").text, f"/g/{game}/undo")
    assert south.post(f"/g/{game}/undo", data=fields, headers=HX).status_code == 200


def test_the_assault_form_offers_what_the_assault_takes(sb: dict[str, Any]) -> None:
    """Issue 53, from a walker written outside: more defenders were offered with a card that hits
    one (6: « défier un groupe donne un seul assaut »), dice rolled ahead for an answer that
    never came were refused, and a paused game still offered assaults."""
    service: GameService = sb["service"]
    org, game, ref = sb["people"]["org"], sb["game"], sb["phones"]["ref"]
    service.register(game, org, "player", "Zoé", idem_key=key())
    start(sb, {"lea": "katana", "hugo": "arc"})
    lea, hugo = sb["people"]["lea"].person_id, sb["people"]["hugo"].person_id
    page = ref.get(f"/g/{game}?attacker={lea}&defenders={hugo}").text
    assert 'name="defenders[]" value=' in page  # the defender tapped, as a hidden field
    assert 'type="checkbox" name="defenders[]"' not in page  # a katana hits one
    assert (
        'name="roll_answer_damage" inputmode="numeric" pattern="[1-6]" maxlength="1" data-enabled-when="answer:true"'
        in page
    )
    service.perform(game, org, {"type": "give", "player": lea, "card": "grenade"}, idem_key=key())
    page = ref.get(f"/g/{game}?attacker={lea}&defenders={hugo}").text
    grenade = next(
        h.copy_id
        for h in service.load(game).state.players[str(lea)].cards
        if h.copy_id.startswith("grenade")
    )  # type: ignore[attr-defined]
    assert 'type="checkbox" name="defenders[]" value="' in page
    assert f'data-enabled-when="card:{grenade}"' in page
    # Dice rolled ahead for an answer the assault did not come to: said, not refused.
    done = katana(
        service, game, org, lea, hugo, damage=4, location=1, answer_damage=5, answer_location=2
    )
    token = current_language.set("fr")
    try:
        said = done.summary.render()
    finally:
        current_language.reset(token)
    assert (
        "Dés saisis qui n’ont pas servi : 5 (riposte : dégâts), 2 (riposte : localisation)." in said
    )
    # Paused: no assault offered, and why.
    service.perform(game, org, {"type": "pause"}, idem_key=key())
    page = ref.get(f"/g/{game}?attacker={lea}&defenders={hugo}").text
    panel = page[page.index('<div id="assault">') :]
    assert 'value="assault"' not in panel and "chip-button" not in panel
    assert (
        "La partie est en pause : les assauts se saisissent de nouveau quand elle reprend." in page
    )


def test_no_assault_is_offered_to_a_player_whose_choice_is_owed(sb: dict[str, Any]) -> None:
    """A newcomer's find (issue 54): after a knockout, the winner's chip still opened an assault
    the server refused (« Léa est en attente d'un choix... »); their chip now says why it waits,
    and the second assault offers only the cards one may strike with."""
    service: GameService = sb["service"]
    org, game, ref = sb["people"]["org"], sb["game"], sb["phones"]["ref"]
    zoe = viewer_of(service.register(game, org, "player", "Zoé", idem_key=key()))
    start(sb, {"hugo": "taser"})
    lea, hugo = sb["people"]["lea"].person_id, sb["people"]["hugo"].person_id
    service.dice.push(2, 1)  # type: ignore[attr-defined]  # the taser's face 2: knocked out
    assault = {"type": "assault", "attacker": hugo, "defenders": [lea], "card": "taser"}
    service.perform(game, org, {**assault, "answer": False}, idem_key=key())
    assert service.load(game).state.pending  # type: ignore[attr-defined]
    page = ref.get(f"/g/{game}").text
    chips = page[page.index('id="assault-chips"') :]
    chips = chips[: chips.index("</ul>")]
    assert f'data-player="{hugo}"' not in chips and "un choix à enregistrer" in chips
    assert f'data-player="{zoe.person_id}"' in chips
    # Asked by its address anyway (a page kept open): said, not offered.
    page = ref.get(f"/g/{game}?attacker={hugo}&defenders={zoe.person_id}").text
    assert "Hugo attend qu’un choix soit enregistré (plus haut) avant un autre assaut." in page
    assert 'value="assault"' not in page[page.index('<div id="assault">') :]
