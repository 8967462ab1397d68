"""The answer to a command is cut for its sender by the same projection as their log: a coach who
completes the lineups is told their own RAP, never the other team's; no answer (the API's JSON,
the page htmx swaps in, in French or English) carries the other side's private notes, power
cards or bluffs. Each command of a self-refereed match's first turns is sent by both coaches.
(Every kind's commands, sent by everyone: `tests/security/test_answers.py`.)"""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlmodel import select

from server import i18n
from server.i18n import Msg
from server.models import Event
from server.platform.dice import ScriptedRolls
from server.platform.service import GameService
from tests.conftest import Phone, csrf_of, key, seat_key
from tests.killpower.conftest import Match

LANGUAGES = ("fr", "en")


class Coaches:
    def __init__(self, client: TestClient, match: Match) -> None:
        self.client, self.match, self.service = client, match, match.service
        self.tokens, self.phones = {}, {}
        for side in "AB":
            person = self.service.person(match.id, match.coach[side].person_id)  # type: ignore[arg-type]
            phone = Phone(client, follow_redirects=False)
            assert phone.get(f"/t/{self.service.link_of(person).token}").status_code == 303
            self.tokens[side] = seat_key(self.service, match.id, person.id)  # the seat's key now
            phone.headers["X-CSRF-Token"] = csrf_of(phone.get(f"/g/{match.id}").text)
            self.phones[side] = phone

    def send(self, side: str, command: dict[str, Any], language: str, htmx: bool) -> str:
        """What the coach's phone gets back for the command."""
        if htmx:
            form = {
                k: json.dumps(v) if isinstance(v, list | dict) else v for k, v in command.items()
            }
            if isinstance(command.get("gladiators"), list):
                form.pop("gladiators")
                form["gladiators[]"] = command["gladiators"]  # type: ignore[assignment]
            answer = self.phones[side].post(
                f"/g/{self.match.id}/act",
                data={**form, "idem": key()},
                headers={"HX-Request": "true", "Accept-Language": language},
            )
        else:
            answer = self.client.post(
                f"/api/v1/games/{self.match.id}/commands",
                json={"command": command},
                headers={
                    "Authorization": f"Bearer {self.tokens[side]}",
                    "Idempotency-Key": key(),
                    "Accept-Language": language,
                },
            )
        assert answer.status_code < 500, answer.text
        return answer.text

    def secrets_of(self, side: str) -> list[str]:
        """What only `side` may know so far: its private notes in both languages, its power
        cards' names (not yet read aloud), and its RAP purposes with their values."""
        texts: set[str] = set()
        with self.service.db.read() as s:
            events = s.exec(select(Event).where(Event.game_id == self.match.id)).all()
        for event in events:
            for note in (event.result.get("private") or {}).get(side, []):
                for language in LANGUAGES:
                    token = i18n.current_language.set(language)
                    texts.add(Msg.from_json(note).render())
                    i18n.current_language.reset(token)
        state: Any = self.service.load(self.match.id).state
        revealed = " ".join(r.text for r in state.reveals)
        for f in state.side_fighters(side):
            for power in f.powers:
                card = state.cards.get(power)
                if card is not None and card.name not in revealed:
                    texts.add(card.name)
        return sorted(texts)


@pytest.mark.parametrize("htmx", [False, True], ids=["api", "htmx"])
@pytest.mark.parametrize("language", LANGUAGES)
def test_no_answer_carries_the_other_sides_secrets(
    client: TestClient, rolls: ScriptedRolls, language: str, htmx: bool
) -> None:
    rolls.endless = True
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    match = Match(service, rolls)
    coaches = Coaches(client, match)
    answers: dict[str, list[str]] = {"A": [], "B": []}

    def play(side: str, command: dict[str, Any]) -> None:
        answers[side].append(coaches.send(side, command, language, htmx))

    play("A", {"type": "lineup", "gladiators": match.ids["A"][:3], "bluff": 2})
    play("B", {"type": "lineup", "gladiators": match.ids["B"][:3], "bluff": 1})  # both RAPs
    state: Any = service.load(match.id).state
    assert state.stage == "running"
    # The first turn: the ball, entries, the phases ended, a card put down, a refusal or two.
    for _ in range(3):
        state = service.load(match.id).state
        side = state.moving if state.phase != 3 else "A"
        if state.ball == f"zt:{side}":
            play(side, {"type": "give_ball", "gladiator": match.ids[side][0]})
        play(side, {"type": "enter", "gladiator": match.ids[side][1]})
        first = state.side_fighters(side)[0]
        if first.powers:
            play(side, {"type": "power", "gladiator": first.id, "card": first.powers[0]})
        play(side, {"type": "end_phase"})
        other = "B" if side == "A" else "A"
        play(other, {"type": "enter", "gladiator": match.ids[other][2]})  # not its phase
    for side, other in (("A", "B"), ("B", "A")):
        # A card both teams hold (Fantôme) is no secret to either.
        hidden = [x for x in coaches.secrets_of(other) if x not in coaches.secrets_of(side)]
        assert hidden, "the other side has secrets to keep"
        for answer in answers[side]:
            for secret in hidden:
                assert secret not in answer, (side, secret, answer[:300])
    # The coach who completed the lineups was told his own team's RAP, in his answer.
    own = coaches.secrets_of("B")
    assert any(secret in answers["B"][0] for secret in own if "RAP" in secret)


@pytest.mark.parametrize("dice", ["server", "physical"])
def test_a_bluff_looks_like_a_power_card_to_the_other_coach(
    client: TestClient, rolls: ScriptedRolls, dice: str
) -> None:
    """4.4: a bluff is put down "en la plaçant face cachée" and the action is ignored. What the
    other coach reads of it (the sentence, the dice, the cards on the table, when it may be
    played) is what they read of a real card that costs the same."""
    rolls.endless = True
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    match = Match(service, rolls, dice=dice)
    for side in "AB":
        state: Any = service.load(match.id).state
        names = {g["id"]: g["name"] for g in state.teams[side].roster.gladiators}
        entered = {f"RAP of {names[match.ids[side][0]]}": 5} if dice == "physical" else {}
        lineup = {"type": "lineup", "gladiators": match.ids[side][:1], "bluff": 1}
        service.perform(match.id, match.coach[side], lineup, idem_key=key(), rolls=entered)
    b1 = service.load(match.id).state.side_fighters("B")[0]  # type: ignore[attr-defined]
    real = next(k for k in b1.powers)
    seen = []
    for card in (real, "bluff"):
        state = service.load(match.id).state
        while state.phase != 3 or state.stage != "running":  # to phase 3, B1 on the field
            side = state.moving
            if state.ball == f"zt:{side}":
                match.act(side, {"type": "give_ball", "gladiator": match.ids[side][0]})
            if state.fighter(match.ids[side][0]).where == "zt":
                match.act(side, {"type": "enter", "gladiator": match.ids[side][0]})
            match.act(side, {"type": "end_phase"})
            state = service.load(match.id).state
        due = match.view("B")["due"]
        if due and due["id"] != b1.id:  # the faster A1 lets its turn pass
            match.act("A", {"type": "act", "gladiator": due["id"], "action": "pass"})
        cost = state.cards[real].activation.cost
        command = {"type": "power", "gladiator": b1.id, "card": card, "bluff_as": f"{cost}A"}
        command["target"] = match.ids["A"][0]  # Peur aims at A1; a bluff takes the same form
        entered = {f"activation of {b1.name}": 4} if dice == "physical" else {}
        before = match.view("A")["teams"]["B"]["fighters"][0]["cards_down"]
        done = service.perform(match.id, match.coach["B"], command, idem_key=key(), rolls=entered)
        after = match.view("A")["teams"]["B"]["fighters"][0]["cards_down"]
        entry = next(e for e in service.log(match.id, match.coach["A"]) if e["seq"] == done.seq)
        said = entry["summary"].split(".")[0]
        # The placing and its activation die; what a card that works does next (A1's resistance
        # to Peur) is no bluff's: a bluff reads as a card whose activation failed (4.4).
        rolled = [(r["purpose"], r["value"], r["manual"]) for r in entry["rolls"]]
        seen.append((said, [r for r in rolled if not r[0].startswith("resistance of")]))
        kind = state.cards[real].activation.kind
        stays = kind in ("while_active", "on_hit", "automatic")
        if card == "bluff" or stays:
            assert after == before + 1 or card != "bluff"
        for side in "AB":  # the rest of the turn passes
            if service.load(match.id).state.phase == 3:
                match.act(side, {"type": "end_phase"})
    assert seen[0] == seen[1], seen


def test_a_die_entered_by_hand_does_not_tell_the_lineup(
    client: TestClient, rolls: ScriptedRolls
) -> None:
    """With physical dice, a coach enters their RAP dice at the lineup: the other coach and the
    public see that dice were entered, never for whom (the purpose names the gladiator) nor
    their value; the coach who rolled them reads both."""
    from server.platform.kinds import PUBLIC

    rolls.endless = True
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    match = Match(service, rolls, dice="physical")
    state: Any = service.load(match.id).state
    names = {g["id"]: g["name"] for g in state.teams["A"].roster.gladiators}
    chosen = match.ids["A"][1:4]
    entered = {f"RAP of {names[g]}": 7 for g in chosen}
    lineup = {"type": "lineup", "gladiators": chosen, "bluff": 1}
    done = service.perform(match.id, match.coach["A"], lineup, idem_key=key(), rolls=entered)
    for viewer in (match.coach["B"], PUBLIC):
        entry = next(e for e in service.log(match.id, viewer) if e["seq"] == done.seq)
        assert [(r["purpose"], r["value"], r["manual"]) for r in entry["rolls"]] == [
            ("secret", None, True)
        ] * 3
        assert not any(names[g] in str(entry) for g in chosen)
    own = next(e for e in service.log(match.id, match.coach["A"]) if e["seq"] == done.seq)
    assert sorted(r["purpose"] for r in own["rolls"]) == sorted(entered)
    assert all(r["value"] == 7 for r in own["rolls"])


def test_naming_a_card_does_not_tell_who_holds_it(client: TestClient, rolls: ScriptedRolls) -> None:
    """A coach who names, one by one, every card of the league's deck for their own gladiator
    gets the same refusal for a card the other team holds as for a card nobody holds: the
    refusals are no oracle of the other team's powers."""
    from server.errors import ArbitreError

    rolls.endless = True
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    match = Match(service, rolls)
    mine = {k for g in match.league.team("Titanos").gladiators for k in g.powers}
    theirs = {k for g in match.league.team("Nabos").gladiators for k in g.powers}
    league_deck = {c.key for c in service.load(match.league.id).state.deck.powers}
    assert theirs and league_deck - mine - theirs
    answers = {}
    for card in sorted(league_deck - mine):
        command = {"type": "power", "gladiator": match.ids["B"][0], "card": card}
        with pytest.raises(ArbitreError) as refused:
            service.perform(match.id, match.coach["B"], command, idem_key=key())
        answers[card] = (type(refused.value).__name__, refused.value.message)
    assert len(set(answers.values())) == 1, answers
