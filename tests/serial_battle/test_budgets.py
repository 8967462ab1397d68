"""Size budgets (`tests/browser/test_budgets.py`): the answer to an htmx action, a referee's
assault. Figures are printed (`-s`)."""

from __future__ import annotations

from typing import Any

from server.games.demo import DEMOS
from server.platform.service import GameService
from tests.conftest import key

# The answer carries the assault panel again: its player chips in their new recent-first order.
ACTION_BYTES = 5 * 1024


def test_an_htmx_action_answer_fits_the_budget(live_server: Any) -> None:
    import httpx

    from tests.conftest import csrf_of

    service: GameService = live_server.app.state.service
    game, organizer = DEMOS["serial_battle"](service, key())
    state = service.load(game.id).state
    a, b = list(state.players)[:2]  # type: ignore[attr-defined]
    with httpx.Client(base_url=live_server.url, headers={"Accept-Encoding": "gzip"}) as phone:
        phone.get(f"/t/{service.link_of(organizer.person).token}", follow_redirects=True)
        token = csrf_of(phone.get(f"/g/{game.id}").text)
        answer = phone.post(
            f"/g/{game.id}/act",
            data={
                "type": "assault",
                "attacker": a,
                "defenders[]": b,
                "card": "bare",
                "roll_damage": "3",
                "roll_location": "2",
                "roll_answer_damage": "1",
                "roll_answer_location": "1",
                "idem": key(),
            },
            headers={"HX-Request": "true", "X-CSRF-Token": token},
        )
        assert answer.status_code == 200, answer.text[:500]
        size = answer.num_bytes_downloaded
    print(f"\nbudget: an assault's htmx answer, {size / 1024:.1f} KB compressed")
    assert answer.headers.get("content-encoding") == "gzip"
    assert size <= ACTION_BYTES
