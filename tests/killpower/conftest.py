"""Killpower Ball builders: a league with its coaches and teams (`League`), a match opened from it
and driven phase by phase (`Match`), and the league's pages with a phone per role (`killpower`)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient

from server.errors import ArbitreError
from server.games.killpower.league import LeagueState, public
from server.games.killpower.match import KILLPOWER_MATCH, MatchState
from server.platform.dice import ScriptedRolls
from server.platform.kinds import Viewer
from server.platform.service import GameService
from tests.conftest import Phone, csrf_of, key, seat_key, viewer_of

SPECS = ["archer", "defender", "warrior", "mentor", "shooter", "warrior", "defender"]


def team_command(name: str, equipment: list[str], coach: int | None = None) -> dict[str, Any]:
    command: dict[str, Any] = {
        "type": "team",
        "name": name,
        "gladiators": [
            {
                "name": f"{name[:3]}{i}",
                "number": i,
                "specialization": SPECS[i - 1],
                "equipment": equipment[i - 1],
            }
            for i in range(1, 8)
        ],
    }
    if coach is not None:
        command["coach"] = coach
    return command


class League:
    def __init__(
        self,
        service: GameService,
        rolls: ScriptedRolls,
        mode: str = "championship",
        dice: str = "server",
    ):
        self.service, self.rolls = service, rolls
        game, owner = service.create_game(
            "killpower_league",
            "Ligue du jeudi",
            "Camille",
            idem_key=key(),
            settings={"mode": mode},
            dice=dice,
        )
        self.id, self.owner = game.id, viewer_of(owner)
        self.coaches: dict[str, Viewer] = {}

    def coach(self, name: str) -> Viewer:
        registered = self.service.register(self.id, self.owner, "coach", name, idem_key=key())
        self.coaches[name] = viewer_of(registered)
        return self.coaches[name]

    def act(self, actor: Viewer, command: dict[str, Any], *dice: int) -> str:
        self.rolls.push(*dice)
        return self.service.perform(self.id, actor, command, idem_key=key()).summary.render()

    def enter(self, actor: Viewer, command: dict[str, Any], entered: dict[str, int]) -> str:
        """An action whose dice its actor enters by hand (a game of physical dice)."""
        done = self.service.perform(self.id, actor, command, idem_key=key(), rolls=entered)
        return done.summary.render()

    @property
    def state(self) -> LeagueState:
        return self.service.load(self.id).state  # type: ignore[no-any-return]

    def team(self, name: str) -> Any:
        return next(t for t in self.state.teams.values() if t.name == name)

    def ids(self, name: str) -> list[int]:
        return [g.id for g in self.team(name).gladiators]

    def match(self, a: str, b: str, score: tuple[int, int], *dice: int, **extra: Any) -> str:
        command = {
            "type": "match",
            "team_a": self.team(a).id,
            "team_b": self.team(b).id,
            "played_a": self.ids(a),
            "played_b": self.ids(b),
            "score_a": score[0],
            "score_b": score[1],
            **extra,
        }
        return self.act(self.owner, command, *dice)

    def table(self) -> list[tuple[str, int, int, int, int, int, int]]:
        view = public(self.state)
        return [
            (r["name"], r["ranking"], r["played"], r["won"], r["lost"], r["drawn"], r["abandoned"])
            for r in view["table"]
        ]


NABOS = ["powers", "armour", "gloves", "gloves", "gloves", "gloves", "gloves"]


TITANOS = ["powers", "gloves", "gloves", "gloves", "gloves", "gloves", "gloves"]


class Match:
    """A league of two teams and a match between them, played by the two coaches."""

    def __init__(
        self,
        service: GameService,
        rolls: ScriptedRolls,
        mode: str = "self",
        dice: str = "server",
        board: bool = False,
    ) -> None:
        self.service, self.rolls = service, rolls
        self.league = League(service, rolls, dice=dice)
        nadia, tomas = self.league.coach("Nadia"), self.league.coach("Tomas")
        # Nabos no. 1 draws Sommeil (5) and Fantôme (1), no. 2 rolls armour 6 + 3; Titanos no. 1
        # draws Peur (6) and Fantôme (1).
        if dice == "physical":  # each coach enters their own team's dice
            nabos = {"power card for Nab1": 5, "power card for Nab1 #2": 1}
            self.league.enter(
                nadia, team_command("Nabos", NABOS), {**nabos, "magic armour of Nab2": 6}
            )
            titanos = {"power card for Tit1": 6, "power card for Tit1 #2": 1}
            self.league.enter(tomas, team_command("Titanos", TITANOS), titanos)
        else:
            self.league.act(nadia, team_command("Nabos", NABOS), 5, 1, 6)  # armour: d10 6 / 2
            self.league.act(tomas, team_command("Titanos", TITANOS), 6, 1)
        self.ids = {
            "A": self.league.ids("Nabos"),
            "B": self.league.ids("Titanos"),
        }
        self.id = service.open_linked(
            self.league.id,
            nadia,
            {
                "team_a": self.league.team("Nabos").id,
                "team_b": self.league.team("Titanos").id,
                "mode": mode,
                "board": board,
            },
            idem_key=key(),
        )
        live = self.league.state.live[0]
        self.coach = {
            "A": Viewer("coach", live.coaches[0], "Nadia (Nabos)"),
            "B": Viewer("coach", live.coaches[1], "Tomas (Titanos)"),
        }
        self.organizer = Viewer("organizer", live.organizer, "Nadia")
        self.seen: dict[str, list[str]] = {"A": [], "B": []}

    def g(self, side: str, number: int) -> int:
        return self.ids[side][number - 1]

    def act(self, side: str, command: dict[str, Any], *dice: int) -> str:
        self.rolls.push(*dice)
        summary = self.service.perform(
            self.id, self.coach[side], command, idem_key=key()
        ).summary.render()
        self.check_secrets()
        return summary

    def agree(self, side: str) -> str:
        """`side`'s coach accepts the other coach's proposal (a hand tool on `side`'s team)."""
        open_ones = [
            p for p in self.service.load(self.id).game.proposals or [] if p["status"] == "open"
        ]
        assert len(open_ones) == 1, open_ones
        summary = self.service.answer(
            self.id, self.coach[side], open_ones[0]["id"], accept=True, idem_key=key()
        ).summary.render()
        self.check_secrets()
        return summary

    def fails(self, side: str, command: dict[str, Any], error: type[ArbitreError]) -> str:
        before = self.service.load(self.id).game.seq
        with pytest.raises(error) as caught:
            self.service.perform(self.id, self.coach[side], command, idem_key=key())
        assert self.service.load(self.id).game.seq == before  # nothing changed
        return caught.value.message

    @property
    def state(self) -> MatchState:
        return self.service.load(self.id).state  # type: ignore[no-any-return]

    def view(self, side: str) -> dict[str, Any]:
        return KILLPOWER_MATCH.view(self.state, self.coach[side], self.service.clock.now())

    def fighter(self, side: str, number: int) -> Any:
        return self.state.fighter(self.g(side, number))

    def check_secrets(self) -> None:
        """What each coach can read: their view and their log. The other side's RAP values and
        card names never appear; their fighters carry no RAP, characteristics or powers."""
        state = self.state
        for me, them, hidden in (
            ("A", "B", ["Peur", '"peur"']),
            ("B", "A", ["Sommeil", '"sommeil"']),
        ):
            view = self.view(me)
            for f in view["teams"][them]["fighters"]:
                assert "rap" not in f and "powers" not in f and "characteristics" not in f
            assert "roster" not in view["teams"][them] and "bluff" not in view["teams"][them]
            for entry in view["order"]:
                if entry["side"] == them:
                    assert entry["rap"] is None
            log = self.service.log(self.id, self.coach[me])
            # A die entered by hand shows to both, its value hidden when secret: its purpose
            # ("RAP of ...") may show, never a value.
            shown = [
                {**e, "rolls": [r for r in e.get("rolls", []) if r["value"] is not None]}
                for e in log
            ]
            text = json.dumps([view, shown], ensure_ascii=False)
            for word in hidden:
                assert word not in text, text[max(0, text.find(word) - 300) : text.find(word) + 100]
            theirs = [g["name"] for g in state.team(them).roster.gladiators]
            mine = [g["name"] for g in state.team(me).roster.gladiators]
            for name in theirs:
                assert f"RAP of {name}" not in text and f"RAP de {name}" not in text
            assert all("command" not in e for e in log)
            # The dice show, but never the value of the other side's RAP.
            for roll in (r for e in log for r in e.get("rolls", [])):
                assert (
                    not roll["purpose"].startswith("RAP of")
                    or roll["value"] is None
                    or any(roll["purpose"] == f"RAP of {name}" for name in mine)
                ), roll

    def end_phase(self, side: str | None = None) -> None:
        """Phases 1 and 2: the moving coach ends; phase 3: both coaches let the rest pass."""
        state = self.state
        if state.phase in (1, 2):
            self.act(state.moving, {"type": "end_phase"})
        else:
            for s in (side,) if side else ("A", "B"):
                if self.state.phase == 3 and self.state.turn == state.turn:
                    self.act(s, {"type": "end_phase"})

    def quiet_turn(self) -> None:
        turn = self.state.turn
        while self.state.turn == turn and self.state.stage == "running":
            self.end_phase()


@pytest.fixture
def match(service: GameService, rolls: ScriptedRolls) -> Match:
    return Match(service, rolls)


ROLES = ("org", "ref", "alix", "basile", "other_coach", "stranger")


STAFF = {"org", "ref"}


COACHES = {"alix", "basile"}


# (method, route, concrete path, form, who may)
KPB_MATRIX: list[tuple[str, str, str, dict[str, Any] | None, set[str]]] = [
    ("GET", "/g/{game_id}/killpower/deck", "/g/{g}/killpower/deck", None, STAFF | COACHES),
    (
        "GET",
        "/g/{game_id}/killpower/deck.json",
        "/g/{g}/killpower/deck.json",
        None,
        STAFF | COACHES,
    ),
    ("POST", "/g/{game_id}/killpower/deck", "/g/{g}/killpower/deck", {"sample": "1"}, {"org"}),
    (
        "GET",
        "/g/{game_id}/killpower/team/{team_id}",
        "/g/{g}/killpower/team/{nabos}",
        None,
        STAFF | {"alix"},
    ),
    ("GET", "/g/{game_id}/invitation/qr.svg", "/g/{g}/invitation/qr.svg", None, {"org"}),
    ("POST", "/g/{game_id}/invitation/{action}", "/g/{g}/invitation/open", {}, {"org"}),
]


HTMX = {"HX-Request": "true"}  # the answer a phone's htmx gets (without it: a redirect)


def wizard_form(name: str, powers: int = 0) -> dict[str, str]:
    """The wizard as a phone sends it: the first `powers` gladiators take two power cards."""
    form = {"type": "team", "name": name}
    for i in range(1, 8):
        form |= {
            f"name_{i}": f"{name[:3]} {i}",
            f"number_{i}": str(i),
            f"specialization_{i}": "warrior",
            f"equipment_{i}": "powers" if i <= powers else "gloves",
        }
    return form


@pytest.fixture
def killpower(client: TestClient, rolls: ScriptedRolls) -> dict[str, Any]:
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    game, organizer = service.create_game("killpower_league", "Ligue", "Camille", idem_key=key())
    org = viewer_of(organizer)
    people = {
        "org": org,
        "ref": viewer_of(service.register(game.id, org, "referee", "Réf", idem_key=key())),
        "alix": viewer_of(service.register(game.id, org, "coach", "Alix", idem_key=key())),
        "basile": viewer_of(service.register(game.id, org, "coach", "Basile", idem_key=key())),
    }
    other, other_org = service.create_game("killpower_league", "Autre", "X", idem_key=key())
    people["other_coach"] = viewer_of(
        service.register(other.id, viewer_of(other_org), "coach", "Zed", idem_key=key())
    )
    phones = {}
    for role in ROLES:
        phone = Phone(client, follow_redirects=False)
        if role in people:
            game_id = other.id if role == "other_coach" else game.id
            person = service.person(game_id, people[role].person_id)  # type: ignore[arg-type]
            assert phone.get(f"/t/{service.link_of(person).token}").status_code == 303
        phone.headers["X-CSRF-Token"] = csrf_of(phone.get("/").text)
        phones[role] = phone
    # Alix builds Nabos on her phone with the wizard, five gladiators with two power cards each
    # (a team draws from its own pack of the 12 sample cards, without putting any back).
    rolls.push(*[1] * 10)
    answer = phones["alix"].post(
        f"/g/{game.id}/act", data={**wizard_form("Nabos", powers=5), "idem": key()}, headers=HTMX
    )
    assert answer.status_code == 200, answer.text
    assert "Nabos" in answer.text
    answer = phones["basile"].post(
        f"/g/{game.id}/act", data={**wizard_form("Titanos"), "idem": key()}, headers=HTMX
    )
    assert answer.status_code == 200
    service.set_invitation(game.id, org, open_it=True)
    state = service.load(game.id).state
    teams = {t.name: t for t in state.teams.values()}
    return {
        "game": game.id,
        "people": people,
        "phones": phones,
        "service": service,
        "teams": teams,
        "rolls": rolls,
    }


class Coaches:
    """The two coaches' phones: the JSON API with their tokens, or their pages with htmx."""

    def __init__(self, client: TestClient, match: Match) -> None:
        self.client, self.match, service = client, match, match.service
        self.tokens: dict[str, str] = {}
        self.phones: dict[str, Phone] = {}
        for side in "AB":
            person = service.person(match.id, match.coach[side].person_id or 0)
            phone = Phone(client, follow_redirects=False)
            assert phone.get(f"/t/{service.link_of(person).token}").status_code == 303
            self.tokens[side] = seat_key(service, match.id, person.id)  # the seat's key now
            phone.headers["X-CSRF-Token"] = csrf_of(phone.get(f"/g/{match.id}").text)
            self.phones[side] = phone

    def send(self, via: str, side: str, command: dict[str, Any]) -> tuple[int, str]:
        if via == "api":
            answer = self.client.post(
                f"/api/v1/games/{self.match.id}/commands",
                json={"command": command},
                headers={"Authorization": f"Bearer {self.tokens[side]}", "Idempotency-Key": key()},
            )
        else:
            form = {k: str(v).lower() if isinstance(v, bool) else v for k, v in command.items()}
            answer = self.phones[side].post(
                f"/g/{self.match.id}/act",
                data={**form, "idem": key()},
                headers={"HX-Request": "true"},
            )
        assert answer.status_code < 500, answer.text
        return answer.status_code, answer.text

    def answer(self, via: str, side: str, proposal: int, accept: bool) -> tuple[int, str]:
        if via == "api":
            answer = self.client.post(
                f"/api/v1/games/{self.match.id}/proposals/{proposal}",
                json={"accept": accept},
                headers={"Authorization": f"Bearer {self.tokens[side]}", "Idempotency-Key": key()},
            )
        else:
            answer = self.phones[side].post(
                f"/g/{self.match.id}/proposals/{proposal}",
                data={"answer": "accept" if accept else "refuse", "idem": key()},
                headers={"HX-Request": "true"},
            )
        assert answer.status_code < 500, answer.text
        return answer.status_code, answer.text

    def page(self, side: str) -> str:
        return self.phones[side].get(f"/g/{self.match.id}").text
