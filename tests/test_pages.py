"""Pages through the app: links, cookies, forms, errors, languages, headers, the stream."""

from __future__ import annotations

import gzip
import json
import re

import httpx
import pytest
from fastapi.testclient import TestClient

from server.config import ROOT
from server.platform.dice import ScriptedRolls
from server.platform.kinds import KINDS
from server.platform.service import GameService, Registered
from server.web.templating import bundle_url
from tests.conftest import Phone, csrf_of, form_fields, key, seat_key, serve, tally_game, viewer_of


def phone(client: TestClient) -> TestClient:
    """Another phone: same app, its own cookies."""
    return Phone(client, follow_redirects=False)


def create_via_form(client: TestClient, name: str = "Forêt de Fontainebleau") -> str:
    home = client.get("/")
    response = client.post(
        "/games",
        data={
            "csrf_token": csrf_of(home.text),
            "idem": key(),
            "kind": "tally",
            "name": name,
            "organizer": "Camille",
            "dice": "server",
        },
    )
    assert response.status_code == 303
    return response.headers["location"].split("/")[2]


def register_via_form(client: TestClient, game_id: str, role: str, name: str) -> None:
    page = client.get(f"/g/{game_id}/people")
    response = client.post(
        f"/g/{game_id}/people",
        data={"csrf_token": csrf_of(page.text), "idem": key(), "role": role, "name": name},
    )
    assert response.status_code == 303, response.text


def test_home_offers_to_create_and_join_in_french(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200
    assert '<html lang="fr">' in page.text
    assert "Créer une partie" in page.text and "Rejoindre une partie" in page.text
    assert "Tally" in page.text


def test_creating_a_game_shows_the_organizer_link_once_with_its_qr(client: TestClient) -> None:
    game_id = create_via_form(client)
    welcome = client.get(f"/g/{game_id}/welcome")
    assert "Gardez-le" in welcome.text
    token_url = re.search(r'value="(http://testserver/t/[^"]+)"', welcome.text).group(1)  # type: ignore[union-attr]
    qr = re.search(r'src="(/g/[^"]+/qr\.svg)"', welcome.text).group(1)  # type: ignore[union-attr]
    svg = client.get(qr)
    assert svg.status_code == 200 and svg.headers["content-type"] == "image/svg+xml"
    assert "<svg" in svg.text
    # A new phone opening the link gets a session and a clean address.
    new_phone = phone(client)
    opened = new_phone.get(token_url.replace("http://testserver", ""))
    assert opened.status_code == 303 and opened.headers["location"] == f"/g/{game_id}"
    cookie = opened.headers["set-cookie"]
    assert "httponly" in cookie.lower() and "samesite=lax" in cookie.lower()
    assert new_phone.get(f"/g/{game_id}/people").status_code == 200


def test_organizer_registers_people_and_each_link_opens_its_own_page(
    client: TestClient, rolls: ScriptedRolls
) -> None:
    game_id = create_via_form(client)
    register_via_form(client, game_id, "referee", "Arbitre Nord")
    register_via_form(client, game_id, "player", "Léa")
    people = client.get(f"/g/{game_id}/people").text
    links = dict(
        (name, url.replace("http://testserver", ""))
        for name, url in re.findall(
            r'aria-label="Lien d(?:e |’)([^"]+)" class="copy-source" value="?([^" ]*)', people
        )
    ) or {
        m.group(2): m.group(1).replace("http://testserver", "")
        for m in re.finditer(
            r'value="(http://testserver/t/[^"]+)" aria-label="Lien d(?:e |’)([^"]+)"', people
        )
    }
    assert set(links) == {"Camille", "Arbitre Nord", "Léa"}
    referee = phone(client)
    referee.get(links["Arbitre Nord"])
    console = referee.get(f"/g/{game_id}")
    assert "Dé pour Léa" in console.text
    player = phone(client)
    player.get(links["Léa"])
    own = player.get(f"/g/{game_id}")
    assert 'id="my-points">0<' in own.text and "Dé pour" not in own.text
    # The referee rolls for Léa; her page shows it.
    fields = form_fields(console.text, f"/g/{game_id}/act")
    rolls.push(4)
    done = referee.post(f"/g/{game_id}/act", data={**fields, "player": fields.get("player", "")})
    assert done.status_code == 303
    assert 'id="my-points">4<' in player.get(f"/g/{game_id}").text
    # An htmx refresh gets only the live block of the page, as that viewer may see it.
    block = player.get(f"/g/{game_id}/live/player", headers={"HX-Request": "true"})
    assert block.status_code == 200 and "<html" not in block.text and "my-points" in block.text
    assert block.headers["x-game-seq"]
    assert player.get(f"/g/{game_id}/live/staff").status_code == 403


def test_a_bad_die_gets_a_message_next_to_the_field_and_changes_nothing(
    client: TestClient, service: GameService
) -> None:
    game_id = create_via_form(client)
    register_via_form(client, game_id, "player", "Léa")
    console = client.get(f"/g/{game_id}").text
    fields = form_fields(console, f"/g/{game_id}/act")
    seq = service.load(game_id).game.seq
    for value, message in (("7", "pas 7"), ("douze", "« douze » n’est pas un nombre")):
        answer = client.post(
            f"/g/{game_id}/act",
            data={**fields, "roll_points": value},
            headers={"HX-Request": "true"},
        )
        assert answer.status_code == 422
        assert message in answer.text and "<html" not in answer.text
    assert service.load(game_id).game.seq == seq


def test_a_tap_retried_with_the_same_key_is_applied_once(
    client: TestClient, service: GameService, rolls: ScriptedRolls
) -> None:
    game_id = create_via_form(client)
    register_via_form(client, game_id, "player", "Léa")
    fields = form_fields(client.get(f"/g/{game_id}").text, f"/g/{game_id}/act")
    rolls.push(6)
    first = client.post(f"/g/{game_id}/act", data=fields, headers={"HX-Request": "true"})
    second = client.post(f"/g/{game_id}/act", data=fields, headers={"HX-Request": "true"})
    assert first.status_code == second.status_code == 200
    assert "Léa scores 6." in first.text and "Léa scores 6." in second.text
    state = service.load(game_id).state
    assert [p.points for p in state.players.values()] == [6]  # type: ignore[attr-defined]


def test_undo_from_the_console_names_what_it_undoes(
    client: TestClient, service: GameService, rolls: ScriptedRolls
) -> None:
    game_id = create_via_form(client)
    register_via_form(client, game_id, "player", "Léa")
    fields = form_fields(client.get(f"/g/{game_id}").text, f"/g/{game_id}/act")
    rolls.push(2)
    client.post(f"/g/{game_id}/act", data=fields)
    console = client.get(f"/g/{game_id}").text
    assert "Annuler : roll for Léa" in console
    undo = form_fields(console, f"/g/{game_id}/undo")
    answer = client.post(f"/g/{game_id}/undo", data=undo, headers={"HX-Request": "true"})
    assert answer.status_code == 200 and "Annulé : roll for Léa" in answer.text
    assert service.verify(game_id)


def test_forms_without_the_session_token_or_from_another_site_are_refused(
    client: TestClient, service: GameService
) -> None:
    game_id = create_via_form(client)
    register_via_form(client, game_id, "player", "Léa")
    fields = form_fields(client.get(f"/g/{game_id}").text, f"/g/{game_id}/act")
    seq = service.load(game_id).game.seq
    forged = client.post(f"/g/{game_id}/act", data={**fields, "csrf_token": "nope"})
    assert forged.status_code == 403 and "expiré" in forged.text
    cross = client.post(
        f"/g/{game_id}/act", data=fields, headers={"Origin": "https://evil.example"}
    )
    assert cross.status_code == 403 and "autre site" in cross.text
    assert service.load(game_id).game.seq == seq


def test_unknown_and_revoked_links_get_the_same_plain_answer(
    client: TestClient, service: GameService
) -> None:
    game_id = create_via_form(client)
    register_via_form(client, game_id, "player", "Léa")
    people = service.people(game_id)
    lea = next(p for p in people if p.name == "Léa")
    token = service.link_of(lea).token
    lea_phone = phone(client)
    assert lea_phone.get(f"/t/{token}").status_code == 303
    page = client.get(f"/g/{game_id}/people").text
    client.post(
        f"/g/{game_id}/people/{lea.id}/revoke",
        data={"csrf_token": csrf_of(page), "idem": key()},
    )
    revoked = phone(client).get(f"/t/{token}")
    unknown = phone(client).get("/t/" + "x" * 32)
    assert revoked.status_code == unknown.status_code == 404

    def without_session_token(html: str) -> str:
        return re.sub(r'(csrf-token" content="|csrf_token" value=")[^"]*', "", html)

    assert without_session_token(revoked.text) == without_session_token(unknown.text)
    assert "plus valable" in revoked.text
    # The phone that had opened the link loses its page at once.
    assert lea_phone.get(f"/g/{game_id}").status_code == 404


def test_a_page_whose_link_died_says_why_whoever_learned_it_first(
    client: TestClient, service: GameService
) -> None:
    """Issue 35, class B: the open page's live refresh learns of the revocation first; the page
    the phone opens next says the link no longer opens the game, once, rather than showing the
    board with no word; then the game's address is the board, as for anyone."""
    game_id = create_via_form(client)
    register_via_form(client, game_id, "player", "Léa")
    lea = next(p for p in service.people(game_id) if p.name == "Léa")
    lea_phone = phone(client)
    assert lea_phone.get(f"/t/{service.link_of(lea).token}").status_code == 303
    org = next(p for p in service.people(game_id) if p.role == "organizer")
    service.revoke(
        game_id, viewer_of(Registered(org, service.link_of(org))), lea.id, idem_key=key()
    )  # type: ignore[arg-type]
    refresh = lea_phone.get(f"/g/{game_id}/live/player", headers={"HX-Request": "true"})
    assert refresh.status_code == 404
    reloaded = lea_phone.get(f"/g/{game_id}", follow_redirects=False)
    assert reloaded.status_code == 404 and "plus valable" in reloaded.text
    again = lea_phone.get(f"/g/{game_id}", follow_redirects=False)
    assert again.status_code == 303 and again.headers["location"].endswith("/board")


def test_join_codes_open_the_game_and_guessing_is_rate_limited(
    client: TestClient, service: GameService
) -> None:
    game_id = create_via_form(client)
    register_via_form(client, game_id, "player", "Léa")
    lea = next(p for p in service.people(game_id) if p.name == "Léa")
    code = service.link_of(lea).code
    lea_phone = phone(client)
    join = lea_phone.get("/join")
    token = csrf_of(join.text)
    opened = lea_phone.post(
        "/join", data={"csrf_token": token, "code": code.lower().replace("-", " ")}
    )
    assert opened.status_code == 303 and opened.headers["location"] == f"/g/{game_id}"
    # Test clients share one address: Léa's try counts, leaving 9 of the 10 a minute allows.
    guesser = phone(client)
    token = csrf_of(guesser.get("/join").text)
    answers = [
        guesser.post("/join", data={"csrf_token": token, "code": f"AAAA-AA{i:02d}"}).status_code
        for i in range(9)
    ]
    assert set(answers) == {404}
    blocked = guesser.post("/join", data={"csrf_token": token, "code": code})
    assert blocked.status_code == 429 and "Trop d’essais" in blocked.text


def test_language_switch_is_remembered(client: TestClient) -> None:
    page = client.get("/")
    switched = client.post(
        "/lang", data={"csrf_token": csrf_of(page.text), "lang": "en", "next": "/join"}
    )
    assert switched.status_code == 303 and switched.headers["location"] == "/join"
    english = client.get("/")
    assert '<html lang="en">' in english.text and "Create a game" in english.text
    evil = client.post(
        "/lang", data={"csrf_token": csrf_of(page.text), "lang": "fr", "next": "//evil.example"}
    )
    assert evil.headers["location"] == "/"


def test_a_link_s_language_stays_for_what_the_page_asks_next(client: TestClient) -> None:
    """A board opened at ?lang=en in a French browser: its live part, its stream's parts and
    its forms come in English too, not only the first load."""
    game_id = create_via_form(client)
    visitor = phone(client)
    visitor.headers["Accept-Language"] = "fr-FR,fr;q=0.9"
    first = visitor.get(f"/g/{game_id}/board?lang=en")
    assert '<html lang="en">' in first.text
    assert "lang=en" in first.headers["set-cookie"]
    later = visitor.get(f"/g/{game_id}/board")
    assert '<html lang="en">' in later.text
    again = visitor.get(f"/g/{game_id}/board?lang=en")
    assert "set-cookie" not in again.headers  # already chosen: nothing to say
    assert '<html lang="fr">' in visitor.get(f"/g/{game_id}/board?lang=fr").text
    assert '<html lang="fr">' in visitor.get(f"/g/{game_id}/board").text


def test_error_pages_speak_the_users_language(client: TestClient) -> None:
    french = client.get("/g/nope/board")
    assert french.status_code == 404 and "Cette partie n’existe pas." in french.text
    english = client.get("/nowhere", headers={"Accept-Language": "en-GB"})
    assert english.status_code == 404 and "This page does not exist." in english.text
    api = client.get("/api/v1/games/nope", headers={"Accept-Language": "en"})
    assert api.json() == {"code": "not_found", "message": "No such game."}


def test_every_answer_carries_the_security_headers(client: TestClient) -> None:
    game_id = create_via_form(client)
    for path in ("/", f"/g/{game_id}", "/api/v1/kinds", "/sw.js", "/offline"):
        headers = client.get(path).headers
        policy = dict(
            directive.strip().split(" ", 1)
            for directive in headers["content-security-policy"].split(";")
        )
        # What is not named falls back to default-src: scripts and styles of this server only.
        assert policy["default-src"] == "'self'"
        assert not {"script-src", "style-src", "connect-src"} & set(policy)
        assert "unsafe" not in headers["content-security-policy"]
        assert policy["frame-ancestors"] == "'none'" and policy["object-src"] == "'none'"
        assert headers["referrer-policy"] == "no-referrer"
        assert headers["x-content-type-options"] == "nosniff"
    assert client.get(f"/g/{game_id}").headers["cache-control"] == "no-store"
    # A script or styles file is no document: typed for sure, and no document's policy on it.
    for path in (bundle_url(), bundle_url(ext="css"), "/static/css/arbitre.css"):
        headers = client.get(path).headers
        assert headers["x-content-type-options"] == "nosniff", path
        assert "content-security-policy" not in headers, path
    # An image of ours opened alone is a document: it keeps the policy.
    assert "default-src" in client.get("/static/icon.svg").headers["content-security-policy"]
    # A bundle goes in the coding the phone takes, never one it refuses.
    takes = {"br, gzip": "br", "gzip, br;q=0": "gzip", "br;q=0.0, gzip;q=0": None}
    for accepted, coding in takes.items():
        answer = client.get(bundle_url(), headers={"Accept-Encoding": accepted})
        assert answer.headers.get("content-encoding") == coding, accepted


def test_pages_are_compressed(client: TestClient) -> None:
    raw = client.get("/assets/app.js", headers={"Accept-Encoding": "gzip"})
    assert raw.headers["content-encoding"] == "gzip"
    # httpx decodes it for us; check the body is the real bundle.
    assert "htmx" in raw.text
    assert gzip.decompress(gzip.compress(b"x")) == b"x"


@pytest.mark.parametrize("ext", ["js", "css"])
def test_a_game_s_pages_load_its_own_bundle_and_no_other_game_s(
    client: TestClient, ext: str
) -> None:
    """A page ships one script and one style sheet: Arbitre's own, and its game's where it has
    them (`static/<kind>/<kind>.js`, `.css`); no page carries another game's code or styles."""
    from server.web.templating import AROUND, SHARED_PARTS, own_part, shipped

    shared = client.get(f"/assets/app.{ext}")
    assert shared.status_code == 200
    every_page = ("\n" if ext == "css" else ";\n").join(
        shipped(part).decode() for part in SHARED_PARTS[ext]
    )
    assert shared.text.startswith(every_page)
    owners = {k: own_part(k, ext) for k in KINDS if own_part(k, ext)}
    assert owners, "some game has its own"
    for kind, part in owners.items():
        body = client.get(f"/assets/{kind}.{ext}").text
        assert body.startswith(every_page)
        # The styles of the pages around a game (people, slips) stay out of its console's.
        assert ext not in AROUND or shipped(AROUND[ext]).decode() not in body
        for other, theirs in owners.items():
            assert (shipped(theirs).decode() in body) == (other == kind), (kind, other)
        assert shipped(part).decode() not in shared.text
    for name in ("nothing", "..%2Fjs%2Farbitre", "app.min"):
        assert client.get(f"/assets/{name}.{ext}").status_code == 404
    assert client.get("/assets/app.py").status_code == 404
    game_id = create_via_form(client)
    page = client.get(f"/g/{game_id}").text  # the platform's test kind has none of its own
    tag = {
        "js": r'<script src="/assets/app\.js\?v=[0-9a-f]+" defer>',
        "css": r'href="/assets/app\.css\?v=[0-9a-f]+"',
    }
    assert re.search(tag[ext], page)


def test_the_log_exports_as_json_and_csv(client: TestClient, rolls: ScriptedRolls) -> None:
    game_id = create_via_form(client)
    register_via_form(client, game_id, "player", "Léa")
    fields = form_fields(client.get(f"/g/{game_id}").text, f"/g/{game_id}/act")
    rolls.push(3)
    client.post(f"/g/{game_id}/act", data=fields)
    data = client.get(f"/g/{game_id}/log.json").json()
    assert data["events"][-1]["rolls"][0]["value"] == 3
    csv_text = client.get(f"/g/{game_id}/log.csv").text
    assert csv_text.splitlines()[0].startswith("seq,at,type") and "points=3" in csv_text
    assert "Léa scores 3." in client.get(f"/g/{game_id}/log").text


@pytest.mark.parametrize("encoding", ["gzip, deflate", "identity"])
def test_the_stream_says_hello_then_nudges_with_sequence_numbers_only(
    client: TestClient, encoding: str
) -> None:
    """Each event arrives as it is sent: a client that takes gzip gets one gzip member whose
    every event decodes at once (issue 21: a live part weighs its compressed size on a field's
    network), any other the events as they are."""
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    game_id = create_via_form(client)
    register_via_form(client, game_id, "player", "Léa")
    organizer, lea = service.people(game_id)
    actor = viewer_of(Registered(organizer, service.link_of(organizer)))
    with serve(client.app) as base:
        lines: list[str] = []
        cookies = {"arbitre": client.cookies["arbitre"]}
        url, sent = f"{base}/g/{game_id}/events", {"Accept-Encoding": encoding}
        with httpx.stream("GET", url, cookies=cookies, headers=sent, timeout=10) as sse:
            assert sse.headers["content-type"].startswith("text/event-stream")
            assert sse.headers.get("content-encoding") == ("gzip" if "gzip" in encoding else None)
            iterator = sse.iter_lines()
            while not any(line.startswith("data:") for line in lines):
                lines.append(next(iterator))
            assert "event: hello" in lines
            service.perform(
                game_id, actor, {"type": "score", "player": lea.id, "points": 2}, idem_key=key()
            )
            for line in iterator:
                lines.append(line)
                if line.startswith("event: changed"):
                    break
            lines.append(next(iterator))
    seq = service.load(game_id).game.seq
    assert f"id: {seq}" in lines[-3:]
    assert json.loads(lines[-1].removeprefix("data: "))["seq"] == seq
    assert not any("Léa" in line or "points" in line for line in lines)


@pytest.mark.parametrize("path", ["/", "/join", "/offline", "/sw.js", "/healthz"])
def test_app_shell_pages_answer(client: TestClient, path: str) -> None:
    assert client.get(path).status_code == 200


def test_a_revoked_link_ends_its_open_event_stream(client: TestClient) -> None:
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    game_id = create_via_form(client)
    register_via_form(client, game_id, "player", "Léa")
    organizer, lea = service.people(game_id)
    lea_phone = phone(client)
    lea_phone.get(f"/t/{service.link_of(lea).token}")
    org = viewer_of(Registered(organizer, service.link_of(organizer)))
    with serve(client.app) as base:
        lines: list[str] = []
        with httpx.stream(
            "GET",
            f"{base}/g/{game_id}/events",
            cookies={"arbitre": lea_phone.cookies["arbitre"]},
            timeout=10,
        ) as sse:
            iterator = sse.iter_lines()
            while "event: hello" not in lines:
                lines.append(next(iterator))
            service.revoke(game_id, org, lea.id, idem_key=key())  # type: ignore[arg-type]
            lines.extend(iterator)  # the server closes the stream: the loop ends
    assert "event: revoked" in lines
    assert lea_phone.get(f"/g/{game_id}/events").status_code == 404  # and it cannot reopen


@pytest.mark.parametrize("via", ["page", "api"])
def test_a_link_revoked_while_its_stream_opens_ends_it(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, via: str
) -> None:
    """The race an outside attack won: the link revoked after the stream's check and before it
    listens. The stream listens first, so the revocation reaches it; it never shows a change
    made after."""
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    game_id = create_via_form(client)
    register_via_form(client, game_id, "referee", "Espion")
    organizer, spy = service.people(game_id)
    token = service.link_of(spy).token
    org = viewer_of(Registered(organizer, service.link_of(organizer)))
    opening = service.seq_of

    def revoked_meanwhile(game: str) -> int:
        monkeypatch.setattr(service, "seq_of", opening)
        service.revoke(game_id, org, spy.id, idem_key=key())  # type: ignore[arg-type]
        return opening(game)

    monkeypatch.setattr(service, "seq_of", revoked_meanwhile)
    if via == "page":
        spy_phone = phone(client)
        spy_phone.get(f"/t/{token}")
        sent = {"cookies": {"arbitre": spy_phone.cookies["arbitre"]}, "params": {"part": "staff"}}
    else:
        sent = {"headers": {"Authorization": f"Bearer {seat_key(service, game_id, spy.id)}"}}
    with serve(client.app) as base:
        lines: list[str] = []
        with httpx.stream("GET", f"{base}/g/{game_id}/events", timeout=10, **sent) as sse:
            assert sse.status_code == 200
            lines.extend(sse.iter_lines())  # the server closes the stream: the loop ends
    assert "event: hello" in lines and "event: revoked" in lines
    assert not any(line.startswith("event: part") for line in lines)


def test_every_form_of_a_page_has_its_own_idempotency_key(client: TestClient) -> None:
    """A page of many forms (the platform's test kind: one per player), rendered twice."""
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    players = tuple(f"Joueur {n}" for n in range(12))
    keys: list[str] = []
    for _ in range(2):  # two renders of the same page
        game, org, _referee, _players = tally_game(service, players)
        organizer = service.person(game.id, org.person_id)  # type: ignore[arg-type]
        phone = Phone(client, follow_redirects=False)
        assert phone.get(f"/t/{service.link_of(organizer).token}").status_code == 303
        page = phone.get(f"/g/{game.id}").text
        found = re.findall(r'name="idem" value="([^"]+)"', page)
        assert len(found) > 10
        keys += found
    assert len(set(keys)) == len(keys)


def test_the_join_qr_code_is_the_server_s_own_address(client: TestClient) -> None:
    """Issue 23: the organizer shows phones on the hotspot where to join; the QR code is made
    from the address the organizer's phone used, and holds nothing of any game."""
    import io

    import segno

    answer = client.get("/join/qr.svg", headers={"Host": "192.168.43.10:8000"})
    assert answer.status_code == 200 and answer.headers["content-type"].startswith("image/svg")
    expected = io.BytesIO()
    segno.make("http://192.168.43.10:8000/join", error="m").save(
        expected, kind="svg", scale=4, border=2, xmldecl=False
    )
    assert answer.content == expected.getvalue()


# Where the error colour may stand: a refusal and the field it is about (issue 35, class C).
ERROR_SELECTORS = {
    "input[aria-invalid=true]",
    ".form-error",
    ".field-error",
    ".flash.refused",
    "[data-deck-count].off",  # a deck form holding more of a type than a deck takes
    ".rule-broken",  # a form's rule across its fields broken, once touched (js/rules.js)
    ".rule-said",  # and its words
}


def test_the_error_colour_is_for_errors_only() -> None:
    """No winner, heading, badge or countdown in the colour of an error: every rule of the
    style sheet that uses it is one of an error's own selectors."""
    css = "\n".join(p.read_text(encoding="utf-8") for p in sorted((ROOT / "static").rglob("*.css")))
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
    found = {}
    for selectors, body in re.findall(r"([^{}]+)\{([^{}]*)\}", css):
        if "var(--danger)" in body:
            for selector in selectors.split(","):
                found[selector.strip()] = body.strip()
    assert "--danger: #a50e0e" in css  # the one place it is named
    assert css.lower().count("#a50e0e") == 1
    assert found, "the error colour is used somewhere"
    assert set(found) <= ERROR_SELECTORS, {
        s: b for s, b in found.items() if s not in ERROR_SELECTORS
    }
    # Nor does a page name it otherwise: no inline style (the policy forbids it) and no
    # "danger" class on anything.
    for template in (ROOT / "templates").rglob("*.html"):
        text = template.read_text(encoding="utf-8")
        assert "danger" not in text, template


def test_a_long_journal_is_paged_newest_first(client: TestClient, service: GameService) -> None:
    """Issue 35, class B: a long game's journal was one 8,500 px page; it shows the latest
    actions, and a link to the older ones, page after page, none lost nor twice."""
    from server.web.journal import LOG_PAGE

    game, _org, referee, (lea, _hugo) = tally_game(service)
    for n in range(LOG_PAGE + 30):
        service.perform(
            game.id,
            referee,
            {"type": "score", "player": lea.person_id, "points": n % 10},
            idem_key=key(),
        )
    last = service.seq_of(game.id)
    staff = phone(client)
    assert staff.get(f"/t/{service.link_of(service.person(game.id, referee.person_id)).token}")
    seen: list[int] = []
    url = f"/g/{game.id}/log"
    while url:
        page = staff.get(url).text
        shown = [int(s) for s in re.findall(r'<span class="seq">#(\d+)</span>', page)]
        assert shown == sorted(shown, reverse=True) and len(shown) <= LOG_PAGE
        seen += shown
        older = re.search(r'href="(/g/[^"]+/log\?before=\d+)"', page)
        url = older.group(1) if older else ""
    assert seen == list(range(last, 0, -1))


def test_the_icon_in_the_page_is_the_icon_file(client: TestClient) -> None:
    """The page carries its icon (no request for it): a data URL that says the file, every
    "#" of its colours encoded (a raw one would cut the URL at a fragment)."""
    from urllib.parse import unquote

    from server.web.templating import icon_url

    url = icon_url()
    svg = (ROOT / "static" / "icon.svg").read_text(encoding="utf-8").strip()
    assert url.startswith("data:image/svg+xml,") and "#" not in url and "<" not in url
    assert unquote(url.split(",", 1)[1]) == svg
    game_id = create_via_form(client)
    assert f'<link rel="icon" href="{url}"' in client.get(f"/g/{game_id}").text.replace(
        "&#39;", "'"
    )
