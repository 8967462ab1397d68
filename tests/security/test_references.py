"""A command names only things of its own game: for every kind, every command and every field that
names something (a person, a team, a gladiator, a card, a pending choice, a sector, a game), the
same thing taken from ANOTHER game of the same kind is refused with a message that names the field
or the foreign value, and nothing changes. Where a command's valid form is known here, it is sent
afterwards and accepted: the refusal came from the foreign id, not from something else.

The tables below must list every command a person may send (`test_every_command_is_listed`), and
every field whose name says it names something: a new command or field must come with its row.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from fastapi.testclient import TestClient

from server.games.killpower.powers import sample_deck
from server.platform.dice import ScriptedRolls
from server.platform.kinds import Viewer
from server.platform.service import GameService
from tests.battlefight.scenes import bf_game
from tests.conftest import key, seat_key
from tests.killpower.conftest import League, team_command
from tests.killpower.scenes import lined_up, match_phase3
from tests.rcb.scenes import rcb_game, rcb_pair
from tests.security.conftest import commands_of
from tests.serial_battle.scenes import sb_game
from tests.trust_me.conftest import NAMES, dealt


@dataclass
class World:
    """This game and what of it the commands name; `foreign`: the same things of another game."""

    game: str
    people: dict[str, Viewer]
    ids: dict[str, Any]
    foreign: dict[str, Any]
    extra: dict[str, Any] = field(default_factory=dict)


# ---------------------------------------------------------------------------- Serial Battle


def sb_world(service: GameService, rolls: ScriptedRolls) -> World:
    rolls.endless = True
    game, people, ids = sb_game(service, ("Léa", "Hugo", "Zoé", "Inès"))
    other, other_people, other_ids = sb_game(service, ("Max", "Noa"))
    ref = people["referee"]
    for name, card in (("Léa", "couteau"), ("Hugo", "taser"), ("Zoé", "matraque")):
        service.perform(
            game, ref, {"type": "give", "player": ids[name], "card": card}, idem_key=key()
        )
    service.perform(
        other,
        other_people["referee"],
        {"type": "give", "player": other_ids["Max"], "card": "pistolet"},
        idem_key=key(),
    )
    foreign = {"player": other_ids["Max"], "card": "pistolet#7", "sector": "Ouest", "pending": 977}
    return World(game, people, ids, foreign)


def sb_pending(world: World, service: GameService, rolls: ScriptedRolls, kind: str) -> int:
    """A choice the referee owes: Hugo's taser knocks Léa out (face 2), or Léa's knife kills
    Inès (face 6, critical: the loot)."""
    ref = world.people["referee"]
    if kind == "knockout":
        rolls.push(2, 1)
        command = {
            "type": "assault",
            "attacker": world.ids["Hugo"],
            "defenders": [world.ids["Léa"]],
            "card": "taser",
            "answer": False,
        }
    else:  # Inès holds enough for Léa to have to choose what she keeps
        for card in ("machette", "katana", "hache", "arc", "shuriken"):
            command = {"type": "give", "player": world.ids["Inès"], "card": card}
            service.perform(world.game, ref, command, idem_key=key())
        rolls.push(6, 1)
        command = {
            "type": "assault",
            "attacker": world.ids["Léa"],
            "defenders": [world.ids["Inès"]],
            "card": "couteau",
            "defender_card": "machette",
            "answer": False,
        }
    service.perform(world.game, ref, command, idem_key=key())
    state: Any = service.load(world.game).state
    return next(p.id for p in state.pending if p.kind == kind)


SB: dict[
    str, Callable[[World, GameService, ScriptedRolls], tuple[dict[str, Any], dict[str, Any]]]
] = {
    "tag": lambda w, s, r: (
        {"type": "tag", "player": w.ids["Hugo"], "tag": "rouge"},
        {"player": w.foreign["player"]},
    ),
    "assault": lambda w, s, r: (
        {
            "type": "assault",
            "attacker": w.ids["Léa"],
            "defenders": [w.ids["Zoé"]],
            "card": "couteau",
            "answer": False,
        },
        {
            "attacker": w.foreign["player"],
            "defenders": [w.foreign["player"]],
            "card": w.foreign["card"],
            "defender_card": w.foreign["card"],
            "defender_cards": {str(w.foreign["player"]): "couteau"},
        },
    ),
    "give": lambda w, s, r: (
        {"type": "give", "player": w.ids["Inès"], "card": "pistolet"},
        {"player": w.foreign["player"], "card": w.foreign["card"]},
    ),
    "take": lambda w, s, r: (
        {"type": "take", "player": w.ids["Léa"], "card": "couteau"},
        {"player": w.foreign["player"], "card": w.foreign["card"]},
    ),
    "correct": lambda w, s, r: (
        {"type": "correct", "player": w.ids["Léa"], "pv": 30, "reason": "erreur"},
        {"player": w.foreign["player"], "card": w.foreign["card"]},
    ),
    "place": lambda w, s, r: (
        {"type": "place", "players": [w.ids["Léa"]], "sector": "Nord"},
        {"players": [w.foreign["player"]], "sector": w.foreign["sector"]},
    ),
    "eliminate": lambda w, s, r: (
        {"type": "eliminate", "player": w.ids["Zoé"], "cause": "referee"},
        {"player": w.foreign["player"]},
    ),
    "knockout_take": lambda w, s, r: (
        {"type": "knockout_take", "pending": sb_pending(w, s, r, "knockout"), "card": "couteau"},
        {
            "pending": w.foreign["pending"],
            "card": w.foreign["card"],
            "give_back": w.foreign["card"],
        },
    ),
    "knockout_again": lambda w, s, r: (
        {"type": "knockout_again", "pending": sb_pending(w, s, r, "knockout")},
        {
            "pending": w.foreign["pending"],
            "card": w.foreign["card"],
            "defender_card": w.foreign["card"],
        },
    ),
    "loot": lambda w, s, r: (
        {"type": "loot", "pending": sb_pending(w, s, r, "loot"), "take": ["machette"]},
        {
            "pending": w.foreign["pending"],
            "take": [w.foreign["card"]],
            "give_back": [w.foreign["card"]],
        },
    ),
    "close": lambda w, s, r: (
        {"type": "close", "sectors": ["Sud"]},
        {"sectors": [w.foreign["sector"]]},
    ),
}


# ---------------------------------------------------------------------------- Roi / Chevalier / Bourreau


def rcb_world(service: GameService, rolls: ScriptedRolls) -> World:
    scene = rcb_game(service, rolls)
    other = rcb_game(service, rolls)
    service.perform(scene.game, scene.people["organizer"], {"type": "round"}, idem_key=key())
    a, b = rcb_pair(service, scene)
    return World(
        scene.game,
        scene.people,
        {"a": a, "b": b, "fighter": scene.people["fighter"].person_id},
        {"person": other.people["fighter"].person_id},
    )


RCB: dict[
    str, Callable[[World, GameService, ScriptedRolls], tuple[dict[str, Any], dict[str, Any]]]
] = {
    # After the deal the teams are fixed: the foreign person is refused all the same.
    "assign": lambda w, s, r: (None, {"person": w.foreign["person"]}),
    "fighters": lambda w, s, r: (
        {"type": "fighters", "a": w.ids["a"], "b": w.ids["b"]},
        {"a": w.foreign["person"], "b": w.foreign["person"]},
    ),
}


# ---------------------------------------------------------------------------- Killpower Ball league


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


# ---------------------------------------------------------------------------- Killpower Ball match


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
    state = world.ids["state"]
    mine, theirs = state.side_fighters("A")[0].id, state.side_fighters("B")[0].id
    names = {"gladiator": mine, "gladiators": [mine], "attackers": [mine], "target": theirs}
    model = commands_of("killpower_match")[command]
    own = {n: v for n, v in names.items() if n in model.model_fields}
    if "to" in model.model_fields:
        own["to"] = state.side_fighters("A")[1].id
    return {"type": command, **own, **MATCH_DEFAULTS.get(command, {})}


# ---------------------------------------------------------------------------- BattleFight


def bf_world(service: GameService, rolls: ScriptedRolls) -> World:
    scene = bf_game(service, rolls, start=False)
    other = bf_game(service, rolls, start=False)
    ids = {"player": scene.people["player"].person_id}
    return World(scene.game, scene.people, ids, {"player": other.people["player"].person_id})


BF: dict[str, Callable[[World, GameService, ScriptedRolls], tuple[Any, dict[str, Any]]]] = {
    "boosters": lambda w, s, r: (
        {"type": "boosters", "player": w.ids["player"]},
        {"player": w.foreign["player"]},
    ),
    "deck": lambda w, s, r: (None, {"player": w.foreign["player"]}),
}


# ---------------------------------------------------------------------------- Trust Me


def tm_world(service: GameService, rolls: ScriptedRolls) -> World:
    """This game in its first round (Léa's turn); the other game's own box holds a crossbow, a
    passport and an objective this one's has not, and its survivors kept other tokens."""
    here = dealt(service, rolls)
    there = dealt(service, rolls, keep=False, box=True)
    for name in NAMES:
        offered = there.sheet(name).offered
        items = [{"item": offered[1], "slot": "right"}, {"item": offered[2], "slot": "c3"}]
        there.act(name, {"type": "keep", "items": items})
    lea, hugo = here.sheet("Léa"), here.sheet("Hugo")
    ids = {
        "player": here.id("Léa"),
        "other": here.id("Hugo"),
        "weapon": here.item("Léa", "surin"),
        "thing": here.item("Léa", "trousse-de-soin"),
        "state": here.state,
    }
    # An item the other game gave out and this one never did (ids given back stay this game's).
    there.act("Léa", {"type": "search", "slot": "c1", "found": "eau", "to": "c4"})
    foreign_item = there.state.next_item - 1
    assert foreign_item >= here.state.next_item
    people = {"player": here.people["Léa"], "hugo": here.people["Hugo"], "organizer": here.org}
    assert lea.playing and hugo.playing
    rolls.endless = True
    return World(
        here.game,
        people,  # type: ignore[arg-type]
        ids,
        {"player": there.id("Léa"), "item": foreign_item, "key": "arbalete", "objective": "zed"},
    )


TM_ACTORS = {
    "passport": "organizer",
    "decor": "organizer",
    "community": "organizer",
    "zombies": "organizer",
}


def tm_person(field_name: str, base: dict[str, Any] | None = None) -> Any:
    return lambda w, s, r: (
        None if base is None else {**base, field_name: w.ids["other"]},
        {field_name: w.foreign["player"]},
    )


TM_CASES: dict[str, Callable[[World, GameService, ScriptedRolls], tuple[Any, dict[str, Any]]]] = {
    "passport": lambda w, s, r: (
        None,
        {"player": w.foreign["player"], "passport": w.foreign["key"]},
    ),
    "decor": tm_person("player"),
    "community": tm_person("player"),
    "recover": tm_person("player"),
    "zombies": lambda w, s, r: (
        {"type": "zombies", "survivor": w.ids["other"], "count": 1},
        {"survivor": w.foreign["player"]},
    ),
    "act": lambda w, s, r: (
        {"type": "act", "action": "aim", "slot": "c1", "target": w.ids["other"]},
        {"target": w.foreign["player"]},
    ),
    "attack": lambda w, s, r: (
        {"type": "attack", "slot": "c9", "weapon": w.ids["weapon"], "target": w.ids["other"]},
        {"target": w.foreign["player"], "weapon": w.foreign["item"]},
    ),
    "use": lambda w, s, r: (
        None,
        {"item": w.foreign["item"], "weapon": w.foreign["item"], "survivor": w.foreign["player"]},
    ),
    "search": lambda w, s, r: (
        {"type": "search", "slot": "c1", "found": "eau", "to": "c2"},
        {"found": w.foreign["key"]},
    ),
    "keep": lambda w, s, r: (None, {"items": [{"item": w.foreign["item"], "slot": "c1"}] * 2}),
    "arrange": lambda w, s, r: (None, {"items": [{"item": w.foreign["item"], "slot": "c1"}]}),
    "drop": lambda w, s, r: (
        {"type": "drop", "items": [w.ids["thing"]]},
        {"items": [w.foreign["item"]]},
    ),
    "give": lambda w, s, r: (None, {"item": w.foreign["item"]}),
    "claim": lambda w, s, r: (None, {"objective": w.foreign["objective"]}),
    "retarget": lambda w, s, r: (None, {"target": w.foreign["player"]}),
}


# ---------------------------------------------------------------------------- the walk

# A well-formed command naming this game's own things, for the rows with no valid form here.
TEMPLATES: dict[str, Callable[[World, str], dict[str, Any]]] = {
    "rcb": lambda w, c: {"type": c, "person": w.ids["fighter"], "team": "A"},
    "killpower_league": lambda w, c: LEAGUE_TEMPLATES[c](w),
    "killpower_match": match_template,
    "battlefight": lambda w, c: {"type": c, "player": w.ids["player"], "cards": ["parade"]},
    "trust_me": lambda w, c: TM_TEMPLATES[c](w),
}
TM_TEMPLATES: dict[str, Callable[[World], dict[str, Any]]] = {
    "passport": lambda w: {"type": "passport", "player": w.ids["player"], "passport": "tank"},
    "decor": lambda w: {"type": "decor", "player": w.ids["player"], "pieces": ["car"]},
    "community": lambda w: {"type": "community", "player": w.ids["player"]},
    "recover": lambda w: {"type": "recover", "player": w.ids["player"], "take": "actions"},
    "use": lambda w: {"type": "use", "slot": "c1", "item": w.ids["thing"]},
    "keep": lambda w: {"type": "keep"},
    "retarget": lambda w: {"type": "retarget", "target": w.ids["other"]},
    "arrange": lambda w: {"type": "arrange", "slot": "c1"},
    "give": lambda w: {"type": "give", "item": w.ids["thing"], "to": "c1"},
    "claim": lambda w: {"type": "claim", "objective": "coffre-bus", "times": 1},
}


@dataclass(frozen=True)
class Kind:
    world: Callable[[GameService, ScriptedRolls], World]
    cases: dict[str, Callable[[World, GameService, ScriptedRolls], tuple[Any, dict[str, Any]]]]
    actor: str
    platform_only: frozenset[str] = (
        frozenset()
    )  # sent by the server or the platform, never a person
    actor_for: dict[str, str] = field(default_factory=dict)  # commands another persona sends


KIND_CASES = {
    "serial_battle": Kind(sb_world, SB, "referee", frozenset({"zone_due"})),
    "rcb": Kind(rcb_world, RCB, "organizer", frozenset({"designation_due"})),
    "killpower_league": Kind(league_world, LEAGUE, "organizer", frozenset({"open_match"})),
    "killpower_match": Kind(match_world, MATCH, "organizer"),
    "battlefight": Kind(bf_world, BF, "organizer"),
    "trust_me": Kind(tm_world, TM_CASES, "player", actor_for=TM_ACTORS),
}
# Field names that say the field names something of the game.
ID_WORDS = {
    "player",
    "players",
    "attacker",
    "defenders",
    "person",
    "a",
    "b",
    "team",
    "team_a",
    "team_b",
    "gladiator",
    "gladiators",
    "attackers",
    "target",
    "to",
    "card",
    "defender_card",
    "pending",
    "take",
    "give_back",
    "defender_cards",
    "coach",
    "played_a",
    "played_b",
    "risk",
    "lost_equipment",
    "match_game",
    "game",
    "sector",
    "sectors",
    "coach_a",
    "coach_b",
    "organizer",
    "survivor",
    "item",
    "items",
    "weapon",
    "found",
    "passport",
    "objective",
}
NOT_REFERENCES = {
    ("killpower_match", "move", "to"),  # a square of the board ("H14"), checked by the rules
    ("killpower_match", "power", "to"),
    ("trust_me", "give", "to"),  # a place on the sheet
    ("trust_me", "search", "to"),
    ("trust_me", "endure", "take"),  # "fatigue" or "wound"
    ("trust_me", "recover", "take"),
    ("trust_me", "redraw", "objective"),  # a place among the player's own objectives
    ("rcb", "assign", "team"),  # a team's letter
    ("killpower_league", "team", "gladiators"),  # the wizard's recruits, not references
    # Written by a match's own game only: test_a_live_match_is_recorded_by_its_game_alone.
    ("killpower_league", "match", "match_game"),
    ("rcb", "stakes", "a"),
    ("rcb", "stakes", "b"),
    ("rcb", "team_names", "a"),
    ("rcb", "team_names", "b"),
}


CASES = [(k, c) for k, kind in KIND_CASES.items() for c in sorted(kind.cases)]


def api(client: TestClient, token: str, game: str, command: dict[str, Any]) -> Any:
    return client.post(
        f"/api/v1/games/{game}/commands",
        json={"command": command},
        headers={"Authorization": f"Bearer {token}", "Idempotency-Key": key()},
    )


@pytest.mark.parametrize(("kind", "command"), CASES)
def test_an_id_of_another_game_is_refused(
    client: TestClient, rolls: ScriptedRolls, kind: str, command: str
) -> None:
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    spec = KIND_CASES[kind]
    world = spec.world(service, rolls)
    base, foreign = spec.cases[command](world, service, rolls)
    missing = naming_fields(kind, command) - set(foreign) - {"side"}
    assert not missing, f"fields naming something with no foreign value: {missing}"
    actor = world.people[spec.actor_for.get(command, spec.actor)]
    token = seat_key(service, world.game, actor.person_id)
    template = base or TEMPLATES[kind](world, command)
    for name, value in foreign.items():
        seq = service.load(world.game).game.seq
        answer = api(client, token, world.game, {**template, name: value})
        assert 400 <= answer.status_code < 500, (name, answer.status_code, answer.text)
        said = answer.json()
        values = list(value) if isinstance(value, list | dict) else [value]
        named = said.get("field") in (name, name.rstrip("s")) or any(
            str(v) in said["message"] for v in values
        )
        assert named, (name, value, said)
        assert service.load(world.game).game.seq == seq  # nothing changed
    if base is not None:  # the well-formed command is accepted: the foreign id was the reason
        answer = api(client, token, world.game, base)
        assert answer.status_code == 200, answer.text


@pytest.mark.parametrize("kind", sorted(KIND_CASES))
def test_every_command_is_listed(kind: str) -> None:
    """Every command a person may send that names something has a row (each row's fields are
    checked in the walk)."""
    spec = KIND_CASES[kind]
    naming = {c for c in commands_of(kind) if naming_fields(kind, c)}
    assert naming - spec.platform_only <= set(spec.cases)


def naming_fields(kind: str, command: str) -> set[str]:
    model = commands_of(kind)[command]
    return {n for n in model.model_fields if n in ID_WORDS} - {
        f for k, c, f in NOT_REFERENCES if (k, c) == (kind, command)
    }


def test_a_match_is_opened_by_the_platform_only(client: TestClient, rolls: ScriptedRolls) -> None:
    """The one command naming another game (a league's `open_match`) is refused to everyone: the
    platform records it when it opens a match, with the ids it created itself."""
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    world = league_world(service, rolls)
    victim, owner = service.create_game("rcb", "Soirée", "MJ", idem_key=key())
    for persona in ("organizer", "coach"):
        actor = world.people[persona]
        token = seat_key(service, world.game, actor.person_id)
        answer = api(
            client,
            token,
            world.game,
            {
                "type": "open_match",
                "game": victim.id,
                "team_a": world.ids["nabos"],
                "team_b": world.ids["titanos"],
                "coach_a": owner.person.id,
                "coach_b": owner.person.id,
                "organizer": owner.person.id,
            },
        )
        assert answer.status_code == 403, answer.text
    assert service.load(world.game).state.live == []  # type: ignore[attr-defined]


def test_a_live_match_is_recorded_by_its_game_alone(
    client: TestClient, rolls: ScriptedRolls
) -> None:
    """The league's owner recorded a made-up result in the name of a match still played on the
    live sheet; the true result was then refused. Only the match itself may name it."""
    from tests.killpower.conftest import Match

    rolls.endless = True
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    match = Match(service, rolls)
    league = match.league
    owner = seat_key(service, league.id, league.owner.person_id)
    nabos, titanos = league.team("Nabos"), league.team("Titanos")
    fake = {
        "type": "match",
        "team_a": nabos.id,
        "team_b": titanos.id,
        "played_a": [g.id for g in nabos.gladiators],
        "played_b": [g.id for g in titanos.gladiators],
        "score_a": 3,
        "score_b": 0,
        "match_game": match.id,
    }
    assert api(client, owner, league.id, fake).status_code == 403
    for side in "AB":
        match.act(side, {"type": "lineup", "gladiators": match.ids[side][:1]})
    match.act(match.state.moving, {"type": "surrender"})
    record = league.state.matches[-1]
    assert league.state.live[0].recorded == record.number and record.score == (0, 0)
