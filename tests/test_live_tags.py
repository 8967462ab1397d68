"""A phone's live part is rendered again only when what its viewer sees has changed (issue 21):
the part comes with a fingerprint of what it shows; asked again with it, an unchanged part is a
204 with no body and the game's new sequence number, a changed one a fresh render. Points a
referee gives a player render again that player's part, not the other players'."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi.testclient import TestClient

from server.platform.kinds import Viewer
from server.platform.service import GameService
from tests.conftest import Phone, key, tally_game

PLAYERS = ("Léa", "Hugo", "Ines", "Zoé")


def phone(client: TestClient, service: GameService, game: str, person: int) -> TestClient:
    fresh = Phone(client, follow_redirects=False)
    token = service.link_of(service.person(game, person)).token
    assert fresh.get(f"/t/{token}").status_code == 303
    return fresh


def seated(service: GameService) -> tuple[str, Viewer, dict[str, int]]:
    """A game of the platform's test kind, its referee and its players' numbers by name."""
    game, _org, referee, players = tally_game(service, PLAYERS)
    return game.id, referee, {p.name: p.person_id for p in players}  # type: ignore[misc]


def points(player: int) -> dict[str, Any]:
    return {"type": "score", "player": player, "points": 3}


def live(p: TestClient, game: str, tag: str | None) -> Any:
    headers = {"HX-Request": "true", **({"X-Live-Tag": tag} if tag else {})}
    return p.get(f"/g/{game}/live/player", headers=headers)


def test_an_unchanged_part_is_not_rendered_again(client: TestClient, service: GameService) -> None:
    game, referee, ids = seated(service)
    phones = {name: phone(client, service, game, ids[name]) for name in PLAYERS}
    tags = {}
    for name, p in phones.items():
        first = live(p, game, None)
        assert first.status_code == 200 and first.headers["X-Live-Tag"]
        tags[name] = first.headers["X-Live-Tag"]
    assert len(set(tags.values())) == len(PLAYERS)  # each phone its own projection
    stats = client.app.state.live_stats  # type: ignore[attr-defined]
    rendered = stats["rendered"]
    # Nothing happened: every phone gets a 204, nothing is rendered.
    for name, p in phones.items():
        again = live(p, game, tags[name])
        assert again.status_code == 204 and again.content == b""
    assert stats["rendered"] == rendered
    # A referee gives Léa points.
    service.perform(game, referee, points(ids["Léa"]), idem_key=key())
    seq = str(service.seq_of(game))
    answers = {name: live(p, game, tags[name]) for name, p in phones.items()}
    changed = {name for name, a in answers.items() if a.status_code == 200}
    assert changed == {"Léa"}
    for name in set(PLAYERS) - changed:
        assert answers[name].status_code == 204 and answers[name].headers["X-Game-Seq"] == seq
    assert stats["rendered"] == rendered + len(changed)
    # A tag is the viewer's own: another phone's tag does not spare a render of a different view.
    assert live(phones["Ines"], game, tags["Zoé"]).status_code == 200
    # The same viewer in another language is another render.
    phones["Zoé"].cookies.set("lang", "en")
    again = live(phones["Zoé"], game, tags["Zoé"])
    assert again.status_code == 200


def test_healthz_counts_live_parts_and_tells_nothing_else(client: TestClient) -> None:
    answer = client.get("/healthz").json()
    assert answer["status"] == "ok" and set(answer["live"]) == {"rendered", "unchanged", "bytes"}
    assert set(answer) == {"status", "live", "collector", "streams"}
    assert answer["streams"] == 0  # no phone on a stream (a count, nothing of whose)


def stream_events(
    base: str,
    game: str,
    cookie: str,
    query: str,
    until: str,
    on_hello: Callable[[], object] | None = None,
) -> list[dict[str, Any]]:
    """The events of a page's stream until one of type `until`; `on_hello` runs once the stream
    has said hello (it is live: a change made then reaches it, whatever the machine's load)."""
    import json

    import httpx

    found: list[dict[str, Any]] = []
    url = f"{base}/g/{game}/events?{query}"
    with httpx.stream("GET", url, cookies={"arbitre": cookie}, timeout=20) as sse:
        event = ""
        for line in sse.iter_lines():
            if line.startswith("event:"):
                event = line[6:].strip()
            elif line.startswith("data:"):
                found.append({"event": event, **json.loads(line[5:])})
                if event == until:
                    return found
                if event == "hello" and on_hello is not None:
                    on_hello()
    return found


def test_a_stream_pushes_its_viewer_s_part_and_never_another_s(
    client: TestClient, service: GameService
) -> None:
    """Issue 21: the part rides on the viewer's own stream, through their own projection (the
    same as their refresh); a part that is not theirs is never rendered there, only nudged."""
    from tests.conftest import serve

    game, referee, ids = seated(service)
    hugo = phone(client, service, game, ids["Hugo"])
    cookie = hugo.cookies["arbitre"]

    app_service: GameService = client.app.state.service  # type: ignore[attr-defined]

    def act() -> None:  # through the app's service, whose broker the streams listen to
        app_service.perform(game, referee, points(ids["Hugo"]), idem_key=key())

    with serve(client.app) as base:
        mine = stream_events(base, game, cookie, "part=player&tag=old", "part", on_hello=act)
        pushed = mine[-1]
        assert pushed["seq"] == service.seq_of(game) and pushed["tag"]
        refreshed = live(hugo, game, None)
        assert refreshed.headers["X-Live-Tag"] == pushed["tag"]  # the same projection
        import re

        def same(html: str) -> str:  # each render gives its forms fresh idempotency keys
            return re.sub(r'name="idem" value="[^"]*"', "", html)

        # What his refresh shows, no more, once his page has put its own token in.
        html = pushed["html"].replace(pushed["marks"]["csrf"], refreshed_csrf(hugo, game))
        assert same(html) == same(refreshed.text)
        assert refreshed_csrf(hugo, game) not in pushed["html"]
        # Asking the staff's part on a player's stream: nudges only, never the staff's part.
        other = stream_events(base, game, cookie, "part=staff&tag=old", "changed", on_hello=act)
        assert all(e["event"] != "part" and "html" not in e for e in other)


def refreshed_csrf(phone: TestClient, game: str) -> str:
    """The cross-site token a phone's page holds."""
    import re

    found = re.search(r'<meta name="csrf-token" content="([^"]+)"', phone.get(f"/g/{game}").text)
    assert found
    return found.group(1)
