"""The games of the load mix: how each is set up, who acts in it, and what they send.

A third of the games are Serial Battle (6 referees sending assaults, placings and corrections), a
third Roi / Chevalier / Bourreau (the game master running rounds: start, fighters, stakes, duel),
a third Killpower Ball matches played by their two coaches (entries and the ball in phases 1 and
2, then the phase-3 actions of the gladiator due: moves, rolls under a characteristic, blows, and
the answers the other coach owes). Every game has 32 phones holding a page live: Serial Battle's
players, the 16 fighters of Roi / Chevalier / Bourreau and 16 phones on its public board, the
public board of a Killpower Ball match.

Set-up goes through the service on the database itself, before any server starts; the load then
goes through HTTP only, with the actors reading their own view before they act, as their page does.
"""

from __future__ import annotations

import random
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import httpx

import server.games  # noqa: F401  (registers the game kinds)
from server.games.demo import DEMOS
from server.games.killpower.league import LeagueState
from server.platform.kinds import Viewer
from server.platform.service import GameService

PHONES = 32
RCB_FIGHTERS = 16  # the deal serves 6 to 17 fighters: the other phones watch the public board
MIX = ("serial_battle", "rcb", "killpower_match")

# An actor's step: it reads what it needs, sends at most one action and says how it went.
Send = Callable[[dict[str, Any]], Awaitable[httpx.Response]]
Read = Callable[[], Awaitable[dict[str, Any]]]


@dataclass
class BenchGame:
    id: str
    kind: str
    admin: str
    actors: list[str]  # tokens of who sends actions
    phones: list[str | None]  # tokens of the phones (None: the public board)
    players: list[int] = field(default_factory=list)
    answered: dict[int, tuple[float, int]] = field(default_factory=dict)  # seq -> (at, server)


def key() -> str:
    return uuid.uuid4().hex


def organizer_of(registered: Any) -> Viewer:
    return Viewer("organizer", registered.person.id, registered.person.name)


def seated(service: GameService, token: str) -> str:
    """A person's seat taken, as their phone takes it on opening their link (issue 51): its
    own key, which opens it again for its phone (and reads as its API bearer)."""
    return service.claim(token=token).link.token


def setup_serial_battle(service: GameService, number: int) -> BenchGame:
    game, org = service.create_game("serial_battle", f"Bench SB {number}", "Org", idem_key=key())
    gm = organizer_of(org)
    referees = [service.register(game.id, gm, "referee", f"R{i}", idem_key=key()) for i in range(6)]
    players = [
        service.register(game.id, gm, "player", f"P{i}", idem_key=key()) for i in range(PHONES)
    ]
    service.perform(
        game.id, gm, {"type": "sectors", "names": "Nord, Sud, Est, Ouest"}, idem_key=key()
    )
    service.perform(game.id, gm, {"type": "start"}, idem_key=key())
    return BenchGame(
        game.id,
        "serial_battle",
        org.link.token,
        [seated(service, r.link.token) for r in referees],
        [seated(service, p.link.token) for p in players],
        players=[p.person.id for p in players],
    )


def setup_rcb(service: GameService, number: int) -> BenchGame:
    game, org = service.create_game("rcb", f"Bench RCB {number}", "MJ", idem_key=key())
    gm = organizer_of(org)
    fighters = []
    for i in range(RCB_FIGHTERS):
        fighter = service.register(game.id, gm, "fighter", f"F{i}", idem_key=key())
        team = "AB"[i % 2]
        service.perform(
            game.id,
            gm,
            {"type": "assign", "person": fighter.person.id, "team": team},
            idem_key=key(),
        )
        fighters.append(fighter)
    service.perform(game.id, gm, {"type": "deal"}, idem_key=key())
    phones: list[str | None] = [seated(service, f.link.token) for f in fighters]
    return BenchGame(
        game.id, "rcb", org.link.token, [org.link.token], phones + [None] * (PHONES - len(phones))
    )


def setup_killpower_match(service: GameService, number: int) -> BenchGame:
    league, owner = DEMOS["killpower_league"](service, key())
    state = service.load(league.id).state
    assert isinstance(state, LeagueState)
    teams = [t for t in state.teams.values() if t.name in ("Nabos", "Titanos")]
    match_id = service.open_linked(
        league.id,
        organizer_of(owner),
        {"team_a": teams[0].id, "team_b": teams[1].id, "mode": "self"},
        idem_key=key(),
    )
    state = service.load(league.id).state
    assert isinstance(state, LeagueState)
    live = state.live[-1]
    tokens = []
    for person_id, team in zip(live.coaches, teams, strict=True):
        coach = Viewer("coach", person_id, "coach")
        lineup = {"type": "lineup", "gladiators": [g.id for g in team.gladiators][:6], "bluff": 1}
        service.perform(match_id, coach, lineup, idem_key=key())
        tokens.append(seated(service, service.link_of(service.person(match_id, person_id)).token))
    organizer = service.person(match_id, live.organizer)
    return BenchGame(
        match_id, "killpower_match", service.link_of(organizer).token, tokens, [None] * PHONES
    )


SETUP = {
    "serial_battle": setup_serial_battle,
    "rcb": setup_rcb,
    "killpower_match": setup_killpower_match,
}


# ---------------------------------------------------------------- what each actor sends


async def serial_battle_step(
    rng: random.Random, game: BenchGame, actor: int, read: Read, send: Send
) -> httpx.Response | None:
    """What referees do most: assaults (bare hands, dice rolled on the field), then placings and
    corrections."""
    a, b = rng.sample(game.players, 2)
    roll = rng.random()
    if roll < 0.7:
        dice = {"damage": rng.randint(1, 6), "location": rng.randint(1, 6)}
        dice |= {"answer_damage": rng.randint(1, 6), "answer_location": rng.randint(1, 6)}
        command = {"type": "assault", "attacker": a, "defenders": [b], "card": "bare"}
        return await send({"command": command, "rolls": dice})
    if roll < 0.85:
        sector = rng.choice(["Nord", "Sud", "Est"])
        return await send({"command": {"type": "place", "players": [a, b], "sector": sector}})
    command = {"type": "correct", "player": a, "pv": rng.randint(20, 36), "reason": "b"}
    return await send({"command": command})


async def rcb_step(
    rng: random.Random, game: BenchGame, actor: int, read: Read, send: Send
) -> httpx.Response | None:
    """The game master's next step of a round, read off the console."""
    view = await read()
    phase = view["phase"]
    if phase == "ready":
        return await send({"command": {"type": "round"}})
    if phase == "designation":
        standing = {
            team: [f["id"] for f in view["gm"]["fighters"] if f["team"] == team and not f["ghost"]]
            for team in "AB"
        }
        command = {
            "type": "fighters",
            "a": rng.choice(standing["A"]),
            "b": rng.choice(standing["B"]),
        }
        return await send({"command": command})
    if phase == "stakes":
        bets = view["bets"]
        most = view["gm"]["max_stake"]
        stakes = {t.lower(): rng.randint(1, most[t]) if bets[t] else 0 for t in "AB"}
        return await send({"command": {"type": "stakes", **stakes}})
    if phase == "duel":
        return await send({"command": {"type": "duel"}})
    return None  # finished


async def killpower_match_step(
    rng: random.Random, game: BenchGame, actor: int, read: Read, send: Send
) -> httpx.Response | None:
    """A coach's move when it is theirs: entries and the ball, then the gladiator due in phase 3."""
    view = await read()
    me = view["me"]
    if view["stage"] != "running":
        return None
    mine = view["teams"][me]["fighters"]
    theirs = view["teams"]["B" if me == "A" else "A"]["fighters"]
    pending = view["pending"]
    if pending is not None:
        if pending["mine"]:
            return await send({"command": {"type": "answer", "yes": rng.random() < 0.5}})
        return None
    if view["phase"] in (1, 2):
        if view["moving"] != me:
            return None
        bench = [f for f in mine if f["where"] == "zt"]
        if view["ball_to_give"] == me and bench:
            return await send({"command": {"type": "give_ball", "gladiator": bench[0]["id"]}})
        on_field = [f for f in mine if f["where"] == "field"]
        if bench and len(on_field) < 5 and rng.random() < 0.7:
            return await send({"command": {"type": "enter", "gladiator": bench[0]["id"]}})
        return await send({"command": {"type": "end_phase"}})
    due = view["due"]
    if due is None:
        return await send({"command": {"type": "end_phase"}})
    if due["side"] != me:
        return None
    gladiator, roll = due["id"], rng.random()
    targets = [f["id"] for f in theirs if f["where"] == "field"]
    if roll < 0.2 and targets:
        command: dict[str, Any] = {
            "type": "attack",
            "attackers": [gladiator],
            "target": rng.choice(targets),
        }
    elif roll < 0.45:
        command = {"type": "check", "gladiator": gladiator, "characteristic": "HAB", "action": True}
    else:
        action = rng.choice(["sprint", "pass", "concentrate"])
        command = {"type": "act", "gladiator": gladiator, "action": action}
    return await send({"command": command})


STEPS = {
    "serial_battle": serial_battle_step,
    "rcb": rcb_step,
    "killpower_match": killpower_match_step,
}
