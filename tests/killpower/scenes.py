"""Killpower Ball's leagues and matches driven to each of their phases and ends, with a person
for every role (the scenes every shared walk goes through: `tests/scene.py`)."""

from __future__ import annotations

from typing import Any

from server.platform.dice import ScriptedRolls
from server.platform.service import GameService
from tests.killpower.conftest import NABOS, TITANOS, League, Match, team_command
from tests.scene import Builder, Scene


def league_scene(league: League, phase: str, **extra: Any) -> Scene:
    coach = next(iter(league.coaches.values()), None)
    people = {"organizer": league.owner}
    if coach is not None:
        people["coach"] = coach
    teams = sorted(league.state.teams.values(), key=lambda t: t.id)
    return Scene(
        "killpower_league", phase, league.id, people, {"team": teams[0].id if teams else 0, **extra}
    )


def killpower_empty(service: GameService, rolls: ScriptedRolls) -> Scene:
    league = League(service, rolls)
    league.coach("Alix")
    return league_scene(league, "setup")


def killpower_teams(service: GameService, rolls: ScriptedRolls) -> Scene:
    rolls.endless = True
    league = League(service, rolls)
    nadia, tomas = league.coach("Nadia"), league.coach("Tomas")
    league.act(nadia, team_command("Nabos", NABOS))
    league.act(tomas, team_command("Titanos", TITANOS))
    league.match("Nabos", "Titanos", (4, 1))
    return league_scene(league, "played")


def killpower_tournament(service: GameService, rolls: ScriptedRolls) -> Scene:
    rolls.endless = True
    league = League(service, rolls, mode="tournament")
    titanos, viking = league.coach("Titanos"), league.coach("Viking")
    league.act(titanos, team_command("Titanos", ["gloves"] * 7))
    league.act(viking, team_command("Viking", ["gloves"] * 7))
    league.act(league.owner, {"type": "bracket"}, 1)
    return league_scene(league, "bracket")


def killpower_live(service: GameService, rolls: ScriptedRolls) -> Scene:
    """A league with a match open on the live sheet (the league's pages link to it)."""
    rolls.endless = True
    match = Match(service, rolls)
    return league_scene(match.league, "live_match", match=match.id)


def match_scene(match: Match, phase: str) -> Scene:
    people = {
        "organizer": match.organizer,
        "coach_a": match.coach["A"],
        "coach_b": match.coach["B"],
    }
    return Scene("killpower_match", phase, match.id, people, {"league": match.league.id})


def lined_up(service: GameService, rolls: ScriptedRolls) -> Match:
    rolls.endless = True
    match = Match(service, rolls)
    for side in "AB":
        match.act(side, {"type": "lineup", "gladiators": match.ids[side][:6], "bluff": 1})
    return match


def match_lineup(service: GameService, rolls: ScriptedRolls) -> Scene:
    rolls.endless = True
    return match_scene(Match(service, rolls), "lineup")


def match_running(service: GameService, rolls: ScriptedRolls) -> Scene:
    return match_scene(lined_up(service, rolls), "running")


def match_phase3(service: GameService, rolls: ScriptedRolls) -> Scene:
    """Both teams enter a gladiator in their movement phase: phase 3 follows, RAP order."""
    match = lined_up(service, rolls)
    while match.state.phase != 3:
        state = match.state
        side = state.moving
        if state.ball == f"zt:{side}":
            match.act(side, {"type": "give_ball", "gladiator": match.ids[side][0]})
        match.act(side, {"type": "enter", "gladiator": match.ids[side][0]})
        match.act(side, {"type": "end_phase"})
    return match_scene(match, "phase3")


def match_surrendered(service: GameService, rolls: ScriptedRolls) -> Scene:
    match = lined_up(service, rolls)
    match.act(match.state.moving, {"type": "surrender"})
    assert match.state.stage == "finished"
    return match_scene(match, "surrendered")


def match_forfeit(service: GameService, rolls: ScriptedRolls) -> Scene:
    """Nobody ever enters the field: TABLE 7, case II, a forfeit after 5 turns."""
    match = lined_up(service, rolls)
    state = match.state
    if state.ball.startswith("zt:"):
        side = state.ball[3:]
        match.act(side, {"type": "give_ball", "gladiator": match.ids[side][0]})
    for _ in range(30):
        if match.state.stage == "finished":
            break
        match.quiet_turn()
    assert match.state.stage == "finished"
    return match_scene(match, "forfeit")


SCENES: dict[str, Builder] = {
    "killpower_league:setup": killpower_empty,
    "killpower_league:played": killpower_teams,
    "killpower_league:bracket": killpower_tournament,
    "killpower_league:live_match": killpower_live,
    "killpower_match:lineup": match_lineup,
    "killpower_match:running": match_running,
    "killpower_match:phase3": match_phase3,
    "killpower_match:surrendered": match_surrendered,
    "killpower_match:forfeit": match_forfeit,
}

# Whom each scene waits for: the personas whose now-line is marked as theirs.
WAITS_ON: dict[str, set[str]] = {
    "killpower_league:setup": {"coach"},
    "killpower_league:played": set(),
    "killpower_league:bracket": set(),
    "killpower_league:live_match": {"coach"},
    "killpower_match:lineup": {"coach_a", "coach_b"},
    "killpower_match:running": {"organizer", "coach_a"},
    "killpower_match:phase3": {"organizer", "coach_b"},
    "killpower_match:surrendered": set(),
    "killpower_match:forfeit": set(),
}

# Offered forms the walk (tests/test_walker.py) still finds refused in some state, by command
# type, with why: issue 53's list, to empty.
WALK_KNOWN: dict[str, dict[str, str]] = {
    "killpower_match": {
        "attack": "a ghost (Fantôme) offered as a blow's target",
    },
}
