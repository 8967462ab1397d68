"""Every answer a person's phone can ask a game for, for the leak tests of the games with secrets:
the pages, the live parts, the journal and its exports, the API's state and log, and a refusal
(as a fragment and as JSON), in French or in English."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from server.platform.kinds import Viewer
from server.platform.service import GameService
from tests.helpers import key


class Phones:
    """One phone per person opened; `refusal`: a command not theirs to send now, as a form and
    as JSON (its refusal is searched too)."""

    def __init__(
        self,
        client: TestClient,
        service: GameService,
        game: str,
        refusal: tuple[dict[str, str], dict[str, Any]],
    ) -> None:
        self.client, self.service, self.game = client, service, game
        self.refusal = refusal
        self.phones: dict[str, TestClient] = {}
        self.tokens: dict[str, str] = {}

    def open(self, name: str, viewer: Viewer) -> None:
        phone = TestClient(self.client.app, base_url="http://testserver", follow_redirects=False)
        record = self.service.person(self.game, viewer.person_id)  # type: ignore[arg-type]
        self.tokens[name] = self.service.link_of(record).token
        assert phone.get(f"/t/{self.tokens[name]}").status_code == 303
        self.phones[name] = phone

    def answers(self, name: str, english: bool) -> list[str]:
        g = self.game
        phone = self.phones.get(name) or TestClient(self.client.app, base_url="http://testserver")
        headers = {"Accept-Language": "en" if english else "fr"}
        bearer = (
            {**headers, "Authorization": f"Bearer {self.tokens[name]}"}
            if name in self.tokens
            else headers
        )
        hx = {**headers, "HX-Request": "true"}
        form, command = self.refusal
        return [
            phone.get(f"/g/{g}", headers=headers).text,
            phone.get(f"/g/{g}/board", headers=headers).text,
            phone.get(f"/g/{g}/live/board", headers=hx).text,
            phone.get(f"/g/{g}/live/player", headers=hx).text,
            phone.get(f"/g/{g}/live/staff", headers=hx).text,
            phone.get(f"/g/{g}/log", headers=headers).text,
            phone.get(f"/g/{g}/log.json", headers=headers).text,
            phone.get(f"/g/{g}/log.csv", headers=headers).text,
            phone.get(f"/api/v1/games/{g}/state", headers=bearer).text,
            phone.get(f"/api/v1/games/{g}/log", headers=bearer).text,
            phone.post(f"/g/{g}/act", data={**form, "idem": key()}, headers=hx).text,
            phone.post(
                f"/api/v1/games/{g}/commands",
                json={"command": command},
                headers={**bearer, "Idempotency-Key": key()},
            ).text,
        ]
