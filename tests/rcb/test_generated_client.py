"""The generated API client (`tests/test_generated_client.py`), over this app, creates a Roi /
Chevalier / Bourreau game and sends commands through its kind's own routes."""

from __future__ import annotations

from types import ModuleType
from typing import Any

from fastapi.testclient import TestClient

from tests.conftest import key, module


def test_the_generated_client_plays_through_its_kind_s_routes(
    generated: ModuleType, client: TestClient
) -> None:
    models = module(generated, "models")
    transport = client._transport  # the app itself, as the test client reaches it

    def api(token: str | None = None) -> Any:
        kwargs = {"base_url": str(client.base_url), "httpx_args": {"transport": transport}}
        if token is None:
            return generated.Client(**kwargs)
        return generated.AuthenticatedClient(token=token, **kwargs)

    create = module(generated, "api.api.rcb_create_game")
    settings = models.RcbSettings.from_dict({"bets": 10, "bank": 5})
    made = create.sync_detailed(
        client=api(),
        body=models.RcbGameIn(name="Duel", organizer="Maître", settings=settings),
        idempotency_key=key(),
    )
    assert made.status_code == 201, made.content
    game_id, token = made.parsed.game.id, made.parsed.organizer.token
    assert made.parsed.game.kind == "rcb"
    loaded = client.app.state.service.load(game_id)  # type: ignore[attr-defined]
    assert loaded.state.bets_setting == 10 and loaded.state.bank_setting == 5
    state = module(generated, "api.api.read_state_api_v1_games_game_id_get")
    read = state.sync_detailed(game_id, client=api(token))
    assert read.status_code == 200 and read.parsed.viewer.role == "organizer"

    # Roi / Chevalier / Bourreau's `deal` goes to its game through its kind's route; Trust Me's
    # `deal`, a class of its own, is refused there by its own kind's route.
    send_rcb = module(generated, "api.api.rcb_send_command")
    deal = models.RcbCommandIn(command=models.Deal(type_="deal"))
    answered = send_rcb.sync_detailed(game_id, client=api(token), body=deal, idempotency_key=key())
    # Read by Roi / Chevalier / Bourreau's rules: no deal before each team has a fighter.
    assert answered.parsed.code == "rule" and answered.parsed.field == "team", answered.content
    send_tm = module(generated, "api.api.trust_me_send_command")
    tm_deal = models.TrustMeCommandIn(command=models.TableDeal(type_="deal"))
    refused = send_tm.sync_detailed(game_id, client=api(token), body=tm_deal, idempotency_key=key())
    assert refused.status_code == 404, refused.content
