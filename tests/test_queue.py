"""A referee's queue of taps made offline, drained once the network is back (issue 36): the
queue is bounded and read strictly; another game's people are refused as in a live tap; a stale
tap is refused without telling its sender what they may not read. (What a drained queue applies,
holds and returns, on a game's own rules: in the games' folders.)
"""

from __future__ import annotations

from fastapi.testclient import TestClient

from server.platform.service import GameService
from tests.conftest import Phone, key, tally_game
from tests.phones_kit import referee_phone, tap


def test_a_queue_is_read_strictly(client: TestClient) -> None:
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    played, _org, referee, _players = tally_game(service)
    game = played.id
    phone = referee_phone(client, service, game, referee.person_id)  # type: ignore[arg-type]
    for bad in ({"taps": "x"}, {"nope": []}, {"taps": [{"body": "a" * 9000}]}):
        answer = phone.post(f"/g/{game}/queue", json=bad, headers={"Accept-Language": "fr"})
        assert answer.status_code == 422, (bad, answer.text)
    _other, _, _, (ana, _tom) = tally_game(service, ("Ana", "Tom"))
    seen = service.seq_of(game)
    stranger = tap(seen, type="score", player=ana.person_id, points=1)
    result = phone.post(f"/g/{game}/queue", json={"taps": [stranger]}).json()["results"][0]
    assert result["status"] == "refused"  # another game's player, as in a live tap
    too_many = [tap(seen, type="timer.pause")] * 51
    assert phone.post(f"/g/{game}/queue", json={"taps": too_many}).status_code == 422
    anonymous = Phone(client, follow_redirects=False)
    assert anonymous.post(f"/g/{game}/queue", json={"taps": []}).status_code >= 400


def test_a_refused_stale_tap_never_tells_what_its_sender_may_not_read(
    service: GameService,
) -> None:
    """An outside attack: a player's tap made on an older screen was refused with another
    player's secret objective claim in it. The change is now said as the sender's own
    journal says it, or not at all: in the test kind, a player reads only what is about them."""
    import pytest

    from server.errors import StaleScreen

    game, _org, ref, (lea, hugo) = tally_game(service)
    seen = service.seq_of(game.id)
    service.perform(
        game.id, ref, {"type": "score", "player": hugo.person_id, "points": 3}, idem_key=key()
    )
    service.perform(game.id, ref, {"type": "timer.start", "seconds": 60}, idem_key=key())
    with pytest.raises(StaleScreen) as refused:  # the timer touches everyone
        service.perform(
            game.id,
            lea,
            {"type": "roll", "player": lea.person_id},
            idem_key=key(),
            seen_seq=seen,
        )
    said = refused.value.msg.render()
    assert "Hugo" not in said and "Arbitre" not in said and "(" not in said, said
    refused_summary = service.log(game.id, ref)[-1]["summary"]
    assert refused_summary not in said
