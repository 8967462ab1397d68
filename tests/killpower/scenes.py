"""Killpower Ball's leagues and matches driven to each of their phases and ends, with a person
for every role (the scenes every shared walk goes through: `tests/scene.py`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from server.games.killpower.match.play import next_actor
from server.games.killpower.powers import sample_deck
from server.platform.dice import ScriptedRolls
from server.platform.service import GameService
from tests.killpower.conftest import KPB_MATRIX, NABOS, TITANOS, League, Match, team_command
from tests.scene import Builder, References, Scene, World


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


def enter_the_first(match: Match) -> None:
    """Each team enters its no. 1 (given the ball if it has it) and ends its movement phase:
    phase 3 follows, RAP order."""
    while match.state.phase != 3:
        state = match.state
        side = state.moving
        if state.ball == f"zt:{side}":
            match.act(side, {"type": "give_ball", "gladiator": match.ids[side][0]})
        match.act(side, {"type": "enter", "gladiator": match.ids[side][0]})
        match.act(side, {"type": "end_phase"})


def match_phase3(service: GameService, rolls: ScriptedRolls) -> Scene:
    """Both teams enter a gladiator in their movement phase: phase 3 follows, RAP order."""
    match = lined_up(service, rolls)
    enter_the_first(match)
    return match_scene(match, "phase3")


def match_evade(service: GameService, rolls: ScriptedRolls) -> Scene:
    """Phase 3: Nab1 (RAP 10) acts first and hits Tit1 (a 1): Titanos' coach is asked whether
    it spends its action to evade (8.1)."""
    match = Match(service, rolls)
    match.act(
        "A", {"type": "lineup", "gladiators": match.ids["A"][:6], "bluff": 2}, 10, 8, 6, 4, 2, 1
    )
    match.act(
        "B", {"type": "lineup", "gladiators": match.ids["B"][:6], "bluff": 1}, 9, 7, 5, 3, 2, 1
    )
    rolls.endless = True
    enter_the_first(match)
    due = next_actor(match.state)
    assert due is not None and due.id == match.g("A", 1)
    match.act("A", {"type": "attack", "attackers": [due.id], "target": match.g("B", 1)}, 1)
    pending = match.state.pending
    assert pending is not None and pending.kind == "evade", pending
    return match_scene(match, "evade")


def lined_up_on_the_board(service: GameService, rolls: ScriptedRolls) -> Match:
    """A match kept on the board, both teams lined up: Titanos have the hand (turn 20, phase 1)
    and the ball to give."""
    match = Match(service, rolls, board=True)
    match.act(
        "A", {"type": "lineup", "gladiators": match.ids["A"][:6], "bluff": 2}, 10, 8, 6, 4, 2, 1
    )
    match.act("B", {"type": "lineup", "gladiators": match.ids["B"][:2], "bluff": 1}, 9, 7)
    rolls.endless = True
    return match


def on_the_board(service: GameService, rolls: ScriptedRolls) -> Match:
    """...and they give the ball to no. 1."""
    match = lined_up_on_the_board(service, rolls)
    match.act("B", {"type": "give_ball", "gladiator": match.g("B", 1)})
    return match


def match_give_ball(service: GameService, rolls: ScriptedRolls) -> Scene:
    return match_scene(lined_up_on_the_board(service, rolls), "give_ball")


def board_move(match: Match, side: str, number: int, to: str) -> None:
    match.act(side, {"type": "move", "gladiator": match.g(side, number), "to": to})


def match_board(service: GameService, rolls: ScriptedRolls) -> Scene:
    """On the board, Titanos' movement phase: a gladiator is tapped, then a lit square."""
    return match_scene(on_the_board(service, rolls), "board")


def nabos_moving(service: GameService, rolls: ScriptedRolls) -> Match:
    """On the board, Titanos moved their two; Nabos moved two of theirs, four still to enter."""
    match = on_the_board(service, rolls)
    board_move(match, "B", 1, "K17")
    board_move(match, "B", 2, "N20")
    match.act("B", {"type": "end_phase"})
    board_move(match, "A", 1, "E16")
    board_move(match, "A", 2, "B12")
    return match


def match_board_phase3(service: GameService, rolls: ScriptedRolls) -> Scene:
    """On the board, phase 3: Nab1 (RAP 10) acts first, next to Titanos' ball carrier."""
    match = nabos_moving(service, rolls)
    match.act("A", {"type": "end_phase"})
    assert match.state.phase == 3
    return match_scene(match, "board_phase3")


def match_board_movers(service: GameService, rolls: ScriptedRolls) -> Scene:
    """On the board, Nabos' movement phase with two of theirs on the field and four still to
    enter: five names to choose from above the board, the whole board under them."""
    return match_scene(nabos_moving(service, rolls), "board_movers")


def match_sprint(service: GameService, rolls: ScriptedRolls) -> Scene:
    """On the board, phase 3: Nab1 sprints (5.2), its coach's turn until it has moved again."""
    match = on_the_board(service, rolls)
    board_move(match, "B", 1, "K17")
    match.act("B", {"type": "end_phase"})
    board_move(match, "A", 1, "E10")
    match.act("A", {"type": "end_phase"})
    match.act("A", {"type": "act", "gladiator": match.g("A", 1), "action": "sprint"})
    assert match.state.sprinting == match.g("A", 1)
    return match_scene(match, "sprint")


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
    "killpower_match:board": match_board,
    "killpower_match:board_phase3": match_board_phase3,
    "killpower_match:sprint": match_sprint,
    "killpower_match:surrendered": match_surrendered,
    "killpower_match:forfeit": match_forfeit,
}

# States a turn passes through between the scenes, for the first-screen test: by label, the
# builder and whom it waits for (tests/browser/test_first_screen.py).
DECISIONS: dict[str, tuple[Builder, set[str]]] = {
    "killpower_match:evade": (match_evade, {"coach_b"}),
    "killpower_match:give_ball": (match_give_ball, {"coach_b"}),
    "killpower_match:board_movers": (match_board_movers, {"coach_a"}),
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
    "killpower_match:board": {"organizer", "coach_b"},
    "killpower_match:board_phase3": {"organizer", "coach_a"},
    "killpower_match:sprint": {"organizer", "coach_a"},
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

# The scenes of a game over, its ends, each with how it ended (tests/security/test_every_page.py).
ENDS: dict[str, str] = {
    "killpower_match:surrendered": "a coach conceded",
    "killpower_match:forfeit": "a forfeit: nobody entered the field",
}

# Scenes whose first form may run past the first screen (tests/browser/test_first_screen.py).
LONG_FORMS: dict[str, str] = {
    "killpower_league:setup": "a team is its seven gladiators, entered once on one form",
}

# Kinds that never end, with why: they have no scene among `ENDS`.
ENDLESS: dict[str, str] = {"killpower_league": "a league goes on: its matches end"}

# Kinds whose demo's staff page is held to the first load's size budget
# (tests/browser/test_budgets.py).
LOAD_BUDGETED: dict[str, bool] = {"killpower_league": True}

# Scenes whose every route is asked under a Host the server does not answer to
# (tests/security/test_budgets.py).
HOST_WALKED: dict[str, str] = {"killpower_league:live_match": "a league and its match under way"}


def league_hidden(service: GameService, game: str, viewer: Any) -> list[str]:
    """The power cards of the teams this coach does not hold."""
    state: Any = service.load(game).state
    names = {p.key: p.name for p in state.deck.powers}
    mine = {
        k
        for t in state.teams.values()
        if t.coach == viewer.person_id
        for g in t.gladiators
        for k in g.powers
    }
    theirs = {
        k
        for t in state.teams.values()
        if t.coach != viewer.person_id
        for g in t.gladiators
        for k in g.powers
    }
    return sorted(names[k] for k in theirs - mine)


# By scene, what a viewer of it may not know, as words: no answer to a command they send names
# them (tests/security/test_answers.py).
ANSWER_SECRETS: dict[str, Callable[[GameService, str, Any], list[str]]] = {
    "killpower_league:played": league_hidden
}

# The end this kind's replay is tried on in the browser, at a phone's width and on a big screen;
# True: also stepped through, with its buttons, its arrows and "Play" (tests/browser/test_replay.py).
REPLAY_ENDS: dict[str, bool] = {"killpower_match:surrendered": False}

# Each kind's own page that takes a deck as a file or a text, its address in the game: a deck
# too deep to read is refused there (tests/security/test_boundaries.py).
DECK_PAGES: dict[str, str] = {"killpower_league": "killpower/deck"}

# Where the state lists the people of a role before the game begins, by kind and role: a person
# revoked leaves it, a link re-issued brings them back (tests/test_service.py).
PERSON_LISTS: dict[str, dict[str, Callable[[Any], Mapping[str, Any]]]] = {
    "killpower_league": {"coach": lambda st: st.coaches},
}

# Scenes in which the server rolled no die yet, with why: nothing for undo to fish for
# (tests/security/test_undo.py).
DICE_FREE: dict[str, str] = {
    "killpower_league:setup": "a setup",
    "killpower_match:lineup": "the lineups still to give",
}

# Dice purposes as the journal says them in French, by kind (None: a die the journal does not
# show) (tests/test_i18n.py).
ROLL_WORDS: dict[str, dict[str, str | None]] = {
    "killpower_match": {
        "RAP of Nab1": "RAP de Nab1",
        "attack on Tit2": "attaque sur Tit2",
        "re-entry square of Ana": "case de retour d’Ana",
        "PHY of Nab1": "PHY de Nab1",
    },
    "killpower_league": {
        "power card for Nab1": "carte pouvoir de Nab1",
        "risk of death of Nab1": "risque de mort de Nab1",
    },
}

# This game's own routes, walked by every role in its folder, with who may each (the platform's
# matrix is tests/test_authorization.py's; every route must be in one).
ROUTE_MATRIX: dict[str, list[tuple[str, str, str, dict[str, Any] | None, set[str]]]] = {
    "killpower_league": KPB_MATRIX
}

# Routes checked elsewhere, and why (tests/test_authorization.py): the league's own, and the
# invitation its coaches join by.
ROUTES_EXEMPT: dict[tuple[str, str], str] = {
    ("GET", "/g/{game_id}/join/{token}"): "the invitation is the credential: tests/killpower",
    ("POST", "/g/{game_id}/join/{token}"): "the invitation is the credential: tests/killpower",
    (
        "POST",
        "/g/{game_id}/killpower/match",
    ): "opening a match, by role: tests/killpower/test_match_pages",
    ("GET", "/g/{game_id}/killpower/matches/{match_id}"): "a redirect by role: test_match_pages",
    ("POST", "/g/{game_id}/killpower/resend"): "its staff or its coaches: test_match_pages",
    ("GET", "/g/{game_id}/killpower/sheet"): "each viewer's own sheet: test_match_pages",
    ("POST", "/g/{game_id}/proposals/{proposal_id}"): "the other side's answer to a proposal: "
    "tests/killpower/test_consent.py",
    ("POST", "/api/v1/games/{game_id}/proposals/{proposal_id}"): "the other side's answer to a "
    "proposal: tests/killpower/test_consent.py",
}


# ---------------------------------------------------------------------------- another game's ids


def league_world(service: GameService, rolls: ScriptedRolls) -> World:
    rolls.endless = True
    other = League(service, rolls)
    for name in ("Ana", "Bob", "Cid"):  # three teams: ids beyond this league's two
        other.act(other.coach(name), team_command(f"Team{name}", ["gloves"] * 7))
    league = League(service, rolls)
    nadia, tomas = league.coach("Nadia"), league.coach("Tomas")
    league.act(nadia, team_command("Nabos", ["armour"] + ["gloves"] * 6))
    league.act(tomas, team_command("Titanos", ["gloves"] * 7))
    mine = {t.id for t in league.state.teams.values()} | {
        g.id for t in league.state.teams.values() for g in t.gladiators
    }
    far = max(t.id for t in other.state.teams.values())
    assert far not in mine
    team = next(t for t in other.state.teams.values() if t.id == far)
    stranger = next(iter(other.coaches.values()))
    nabos, titanos = league.team("Nabos"), league.team("Titanos")
    return World(
        league.id,
        {"organizer": league.owner, "coach": nadia},
        {
            "nabos": nabos.id,
            "titanos": titanos.id,
            "a": [g.id for g in nabos.gladiators],
            "b": [g.id for g in titanos.gladiators],
            "nadia": nadia.person_id,
        },
        {
            "team": far,
            "gladiator": team.gladiators[-1].id,
            "person": stranger.person_id,
            "game": other.id,
        },
    )


def recruit() -> dict[str, Any]:
    return {"name": "Neuf", "number": 9, "specialization": "archer", "equipment": "gloves"}


def paper_rows(powers: list[str]) -> list[dict[str, Any]]:
    """A paper sheet's seven gladiators (3.4), the first with the power cards `powers`."""
    rows = [
        {
            "name": f"Vieux {n}",
            "number": n,
            "specialization": "archer",
            "equipment": "gloves",
            "characteristics": {c: 4 for c in ("DEP", "PHY", "HAB", "POU", "BAL", "VIE")},
        }
        for n in range(1, 8)
    ]
    rows[0].update(equipment="powers", powers=powers)
    return rows


LEAGUE: dict[
    str, Callable[[World, GameService, ScriptedRolls], tuple[dict[str, Any], dict[str, Any]]]
] = {
    "team": lambda w, s, r: (
        team_command("Zorgs", ["gloves"] * 7, coach=w.ids["nadia"]),
        {"coach": w.foreign["person"]},
    ),
    "paper_team": lambda w, s, r: (
        {
            "type": "paper_team",
            "name": "Papier",
            "coach": w.ids["nadia"],
            "gladiators": paper_rows(["sommeil", "peur"]),
        },
        {
            "coach": w.foreign["person"],
            # no card of this league's deck
            "gladiators": paper_rows(["sommeil", "carte-d-ailleurs"]),
        },
    ),
    "replace": lambda w, s, r: (
        None,
        {"team": w.foreign["team"], "gladiator": w.foreign["gladiator"]},
    ),
    "improve": lambda w, s, r: (
        None,
        {"team": w.foreign["team"], "gladiator": w.foreign["gladiator"]},
    ),
    "reequip": lambda w, s, r: (
        None,
        {"team": w.foreign["team"], "gladiator": w.foreign["gladiator"]},
    ),
    "roll_armour": lambda w, s, r: (None, {"team": w.foreign["team"]}),
    "match": lambda w, s, r: (
        {
            "type": "match",
            "team_a": w.ids["nabos"],
            "team_b": w.ids["titanos"],
            "played_a": w.ids["a"][:6],
            "played_b": w.ids["b"][:6],
            "score_a": 2,
            "score_b": 1,
        },
        {
            "team_a": w.foreign["team"],
            "team_b": w.foreign["team"],
            "played_a": [w.foreign["gladiator"]],
            "played_b": [w.foreign["gladiator"]],
            "risk": {str(w.foreign["gladiator"]): -12},
            "lost_equipment": [w.foreign["gladiator"]],
        },
    ),
}


# Commands whose valid form needs a moment of the league (after a match): their foreign ids are
# sent in an otherwise well-formed command naming this league's own team and gladiator.
LEAGUE_TEMPLATES: dict[str, Callable[[World], dict[str, Any]]] = {
    "replace": lambda w: {
        "type": "replace",
        "team": w.ids["nabos"],
        "gladiator": w.ids["a"][0],
        "recruit": recruit(),
    },
    "improve": lambda w: {
        "type": "improve",
        "team": w.ids["nabos"],
        "gladiator": w.ids["a"][0],
        "characteristic": "PHY",
    },
    "reequip": lambda w: {
        "type": "reequip",
        "team": w.ids["nabos"],
        "gladiator": w.ids["a"][0],
        "equipment": "gloves",
    },
    "roll_armour": lambda w: {"type": "roll_armour", "team": w.ids["nabos"]},
}


def match_world(service: GameService, rolls: ScriptedRolls, phase: str = "running") -> World:
    rolls.endless = True
    if phase == "phase3":
        scene = match_phase3(service, rolls)
        people = scene.people
        game = scene.game
        state: Any = service.load(game).state
    else:
        match = lined_up(service, rolls)
        people = {
            "organizer": match.organizer,
            "coach_a": match.coach["A"],
            "coach_b": match.coach["B"],
        }
        game, state = match.id, match.state
    other = League(service, rolls)
    # Another league's own card (a match knows its league's whole deck, so the foreign card
    # comes from a deck of its own).
    deck = sample_deck()
    extra = deck.powers[0].model_copy(update={"key": "comete-noire", "name": "Comète noire"})
    powers = [extra, *deck.powers]
    other.act(other.owner, {"type": "deck", "deck": {"powers": [p.model_dump() for p in powers]}})
    for name in ("Ana", "Bob", "Cid"):
        other.act(other.coach(name), team_command(f"Team{name}", ["powers"] + ["gloves"] * 6))
    mine = {f.id for f in state.fighters.values()} | {
        g["id"] for t in state.teams.values() for g in t.roster.gladiators
    }
    far = max(g.id for t in other.state.teams.values() for g in t.gladiators)
    assert far not in mine
    assert "comete-noire" not in state.cards
    return World(game, people, {"state": state}, {"gladiator": far, "card": "comete-noire"})


def gladiator_fields(
    *names: str,
) -> Callable[[World, GameService, ScriptedRolls], tuple[None, dict[str, Any]]]:
    def case(w: World, s: GameService, r: ScriptedRolls) -> tuple[None, dict[str, Any]]:
        values = {
            n: [w.foreign["gladiator"]]
            if n in ("attackers", "gladiators")
            else w.foreign["gladiator"]
            for n in names
        }
        return None, values

    return case


MATCH: dict[str, Callable[[World, GameService, ScriptedRolls], tuple[Any, dict[str, Any]]]] = {
    "lineup": gladiator_fields("gladiators"),
    "give_ball": gladiator_fields("gladiator"),
    "enter": gladiator_fields("gladiator"),
    "leave": gladiator_fields("gladiator"),
    "act": gladiator_fields("gladiator"),
    "shot": gladiator_fields("gladiator"),
    "throw": gladiator_fields("gladiator", "to"),
    "handoff": gladiator_fields("gladiator", "to"),
    "take": gladiator_fields("gladiator"),
    "pick": gladiator_fields("gladiator"),
    "drop": gladiator_fields("gladiator"),
    "attack": gladiator_fields("attackers", "target"),
    "answer": gladiator_fields("gladiator"),
    "hurt": gladiator_fields("gladiator"),
    "condition": lambda w, s, r: (
        None,
        {"gladiator": w.foreign["gladiator"], "card": w.foreign["card"]},
    ),
    "expel": gladiator_fields("gladiator"),
    "reentry": gladiator_fields("gladiator"),
    "power": lambda w, s, r: (
        None,
        {
            "gladiator": w.foreign["gladiator"],
            "card": w.foreign["card"],
            "target": w.foreign["gladiator"],
        },
    ),
    "check": gladiator_fields("gladiator"),
    "free_throw": gladiator_fields("gladiator"),
    "move": gladiator_fields("gladiator"),
    "blind_move": gladiator_fields("gladiator"),
    "trigger": lambda w, s, r: (
        None,
        {
            "gladiator": w.foreign["gladiator"],
            "target": w.foreign["gladiator"],
            "card": w.foreign["card"],
        },
    ),
}


MATCH_DEFAULTS: dict[str, dict[str, Any]] = {  # what else each command needs to be well formed
    "lineup": {"side": "A", "bluff": 1},
    "act": {"action": "pass"},
    "shot": {"distance": 3},
    "throw": {"distance": 3},
    "hurt": {"points": 2},
    "condition": {"condition": "blind"},
    "reentry": {"outcome": "taken"},
    "power": {"card": "bluff", "to": "H14"},
    "trigger": {"card": "bluff"},
    "check": {"characteristic": "POU"},
    "free_throw": {"distance": 4},
    "move": {"to": "H14"},
    "blind_move": {"steps": 1},
}


def match_template(world: World, command: str) -> dict[str, Any]:
    """A command of this match naming its own gladiators (A's first, B's first as a target)."""
    from tests.security.conftest import commands_of  # walks every game's scenes: not at import

    state = world.ids["state"]
    mine, theirs = state.side_fighters("A")[0].id, state.side_fighters("B")[0].id
    names = {"gladiator": mine, "gladiators": [mine], "attackers": [mine], "target": theirs}
    model = commands_of("killpower_match")[command]
    own = {n: v for n, v in names.items() if n in model.model_fields}
    if "to" in model.model_fields:
        own["to"] = state.side_fighters("A")[1].id
    return {"type": command, **own, **MATCH_DEFAULTS.get(command, {})}


# How these kinds' commands are sent with another game's ids (tests/security/test_references.py).
REFERENCES: dict[str, References] = {
    "killpower_league": References(
        league_world,
        LEAGUE,
        "organizer",
        template=lambda w, c: LEAGUE_TEMPLATES[c](w),
        platform_only=frozenset({"open_match"}),
        not_references=frozenset(
            {
                ("team", "gladiators"),  # the wizard's recruits, not references
                # Written by a match's own game only: test_a_live_match_is_recorded_by_its_game_alone.
                ("match", "match_game"),
            }
        ),
    ),
    "killpower_match": References(
        match_world,
        MATCH,
        "organizer",
        template=match_template,
        not_references=frozenset(
            {
                ("move", "to"),  # a square of the board ("H14"), checked by the rules
                ("power", "to"),
            }
        ),
    ),
}
