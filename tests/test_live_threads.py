"""After each change every phone of the game asks for its live part at once. Those renders take
turns on threads of their own (`LIVE_THREADS`): a referee's action never waits for them."""

from __future__ import annotations

import threading
import time

import httpx
from fastapi.testclient import TestClient

from server.config import Settings
from server.platform.dice import ScriptedRolls
from server.platform.service import GameService
from tests.conftest import run_async, seat_key, tally_game


def test_an_action_is_answered_while_every_live_thread_is_busy(
    client: TestClient, service: GameService, rolls: ScriptedRolls
) -> None:
    game, _org, referee, (lea, _hugo) = tally_game(service)
    referee_token = seat_key(service, game.id, referee.person_id)
    lea_token = service.link_of(service.person(game.id, lea.person_id)).token  # type: ignore[arg-type]
    assert client.get(f"/t/{lea_token}").status_code == 303
    limiter = client.app.state.live_threads  # type: ignore[attr-defined]
    busy = [object() for _ in range(int(limiter.total_tokens))]
    for borrower in busy:  # as if that many phones were being rendered
        client.portal.call(limiter.acquire_on_behalf_of_nowait, borrower)  # type: ignore[union-attr]

    answers: dict[str, httpx.Response] = {}

    def ask(name: str, method: str, url: str, **kwargs: object) -> threading.Thread:
        def run() -> None:
            answers[name] = client.request(method, url, **kwargs)  # type: ignore[arg-type]

        thread = threading.Thread(target=run, daemon=True)
        thread.start()
        return thread

    try:
        phone = ask("phone", "GET", f"/g/{game.id}/live/player", headers={"HX-Request": "true"})
        deadline = time.monotonic() + 10
        while client.portal.call(limiter.statistics).tasks_waiting == 0:  # type: ignore[union-attr]
            assert time.monotonic() < deadline, "the live part did not wait for a live thread"
            time.sleep(0.01)
        rolls.push(5)
        action = ask(
            "action",
            "POST",
            f"/api/v1/games/{game.id}/commands",
            json={"command": {"type": "roll", "player": lea.person_id}},
            headers={"Authorization": f"Bearer {referee_token}", "Idempotency-Key": "live-roll-1"},
        )
        action.join(timeout=10)
        answered = answers.get("action")
        assert answered is not None and answered.status_code == 200, answered and answered.text
        assert phone.is_alive() and "phone" not in answers  # its turn has not come
    finally:
        for borrower in busy:
            client.portal.call(limiter.release_on_behalf_of, borrower)  # type: ignore[union-attr]
    phone.join(timeout=10)
    assert answers["phone"].status_code == 200
    assert 'id="my-points"' in answers["phone"].text and ">5<" in answers["phone"].text


def test_the_live_threads_are_a_setting(settings: Settings) -> None:
    from server.app import create_app

    app = create_app(settings.model_copy(update={"live_threads": 3}), migrate=False)
    assert app.state.live_threads.total_tokens == 3


def test_a_page_action_runs_off_the_event_loop(
    client: TestClient, service: GameService, rolls: ScriptedRolls, monkeypatch: object
) -> None:
    """A referee's tap is written on a worker thread (issue 21): while its commit is held, the
    server answers other requests. Were it on the event loop, the second request would wait."""
    from tests.conftest import csrf_of

    game, _org, referee, (lea, _hugo) = tally_game(service)
    token = service.link_of(service.person(game.id, referee.person_id)).token  # type: ignore[arg-type]
    assert client.get(f"/t/{token}").status_code == 303
    csrf = csrf_of(client.get(f"/g/{game.id}").text)
    entered, release = threading.Event(), threading.Event()
    served = client.app.state.service  # type: ignore[attr-defined]
    perform = served.perform

    def held(*args: object, **kwargs: object) -> object:
        entered.set()
        assert release.wait(10), "never released"
        return perform(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(served, "perform", held)  # type: ignore[attr-defined]
    answers: dict[str, httpx.Response] = {}

    def tap() -> None:
        try:
            answers["tap"] = client.post(
                f"/g/{game.id}/act",
                data={
                    "type": "roll",
                    "player": str(lea.person_id),
                    "csrf_token": csrf,
                    "idem": "off-loop-1",
                },
                headers={"HX-Request": "true"},
            )
        except Exception as error:  # shown by the assertion below
            answers["error"] = error  # type: ignore[assignment]

    rolls.push(5)
    thread = threading.Thread(target=tap, daemon=True)
    thread.start()
    try:
        assert entered.wait(10), "the action never reached the service"
        assert client.get("/healthz").status_code == 200  # served while the action is held
        assert "tap" not in answers
    finally:
        release.set()
        thread.join(10)
    assert "tap" in answers, answers
    assert answers["tap"].status_code == 200, answers["tap"].text


def test_the_sender_is_answered_before_the_game_s_phones_are_nudged(
    client: TestClient, service: GameService
) -> None:
    """Issue 21: an action's nudge waits for its answer to be sent (`AnswerFirst`), so the
    referee's answer does not queue behind the live parts of their own change; it goes out the
    moment the answer has. A change made outside a request (a timer) nudges at once."""
    import asyncio
    import json

    game, _org, referee, (lea, _hugo) = tally_game(service)
    token = seat_key(service, game.id, referee.person_id)
    app = client.app
    broker = app.state.broker  # type: ignore[attr-defined]
    seen: list[tuple[str, int]] = []

    async def act() -> None:
        broker.bind(asyncio.get_running_loop())
        watching = broker.subscribe(game.id, service.seq_of(game.id))
        before = watching.latest
        body = json.dumps({"command": {"type": "score", "player": lea.person_id, "points": 2}})

        async def receive() -> dict[str, object]:
            return {"type": "http.request", "body": body.encode(), "more_body": False}

        async def send(message: dict[str, object]) -> None:
            if message["type"] == "http.response.start":
                seen.append(("status", int(message["status"])))  # type: ignore[call-overload]
            if message["type"] == "http.response.body" and not message.get("more_body"):
                seen.append(("answered", watching.latest))

        scope = {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": "POST",
            "scheme": "http",
            "path": f"/api/v1/games/{game.id}/commands",
            "raw_path": b"",
            "root_path": "",
            "query_string": b"",
            "server": ("test", 80),
            "client": ("127.0.0.1", 5000),
            "headers": [
                (b"host", b"testserver"),
                (b"authorization", f"Bearer {token}".encode()),
                (b"idempotency-key", b"answer-first-1"),
                (b"content-type", b"application/json"),
            ],
        }
        await app(scope, receive, send)  # type: ignore[arg-type]
        seen.append(("after", watching.latest))
        seen.append(("before", before))
        # A change no request holds (the clock's) nudges at once.
        app.state.service.register(game.id, _org, "player", "Zoé", idem_key="answer-first-2")  # type: ignore[attr-defined]
        seen.append(("timer", watching.latest))
        broker.unsubscribe(watching)

    run_async(act())
    found = dict(seen)
    assert found["status"] == 200
    assert found["answered"] == found["before"]  # not yet nudged when the answer went out
    assert found["after"] == found["before"] + 1  # nudged the moment it had
    assert found["timer"] == found["after"] + 1
