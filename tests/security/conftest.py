"""Every kind driven to each of its phases and ends, with a person for every role, and the walk
over every page of a scene.

A scene is a game in one phase and the links of the people who look at it: its organizer, a
referee where the kind has any, each kind of player, and a stranger (a person of another game).
The walks of `tests/security` (and the browser's layout walk) open every page, live part, export
and command answer of every scene as every one of them.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, get_args

from fastapi.testclient import TestClient

from server.games.demo import DEMOS
from server.platform.dice import ScriptedRolls
from server.platform.kinds import KINDS, Viewer
from server.platform.service import GameService, Registered
from tests.conftest import Phone, key, viewer_of
from tests.killpower.conftest import NABOS, TITANOS, League, Match, team_command
from tests.trust_me.conftest import dealt


@dataclass
class Scene:
    kind: str
    phase: str
    game: str
    people: dict[str, Viewer]  # by persona: "organizer", "referee", "player", "coach_a"...
    extra: dict[str, Any] = field(default_factory=dict)  # ids the routes name (team, match)

    @property
    def label(self) -> str:
        return f"{self.kind}:{self.phase}"


Builder = Callable[[GameService, ScriptedRolls], Scene]


def registered(service: GameService, game: str, org: Viewer, role: str, name: str) -> Viewer:
    return viewer_of(service.register(game, org, role, name, idem_key=key()))


def sb_game(
    service: GameService, players: tuple[str, ...], *, start: bool = True
) -> tuple[str, dict[str, Viewer], dict[str, int]]:
    game, owner = service.create_game(
        "serial_battle", "Forêt", "Orga", idem_key=key(), settings={"deal_mode": "scattered"}
    )
    org = viewer_of(owner)
    ref = registered(service, game.id, org, "referee", "Arbitre")
    ids = {}
    people = {"organizer": org, "referee": ref}
    for name in players:
        person = registered(service, game.id, org, "player", name)
        ids[name] = person.person_id
        people.setdefault("player", person)
    if start:
        service.perform(game.id, org, {"type": "sectors", "names": "Nord, Sud"}, idem_key=key())
        service.perform(game.id, org, {"type": "start"}, idem_key=key())
    return game.id, people, ids  # type: ignore[return-value]


def sb_setup(service: GameService, rolls: ScriptedRolls) -> Scene:
    game, people, _ = sb_game(service, ("Léa", "Hugo"), start=False)
    return Scene("serial_battle", "setup", game, people)


def sb_running(service: GameService, rolls: ScriptedRolls) -> Scene:
    game, people, ids = sb_game(service, ("Léa", "Hugo", "Zoé"))
    ref = people["referee"]
    service.perform(
        game, ref, {"type": "give", "player": ids["Léa"], "card": "couteau"}, idem_key=key()
    )
    rolls.push(3, 2, 2, 5)
    service.perform(
        game,
        ref,
        {"type": "assault", "attacker": ids["Léa"], "defenders": [ids["Hugo"]], "card": "couteau"},
        idem_key=key(),
    )
    return Scene("serial_battle", "running", game, people, {"players": ids})


def sb_paused(service: GameService, rolls: ScriptedRolls) -> Scene:
    scene = sb_running(service, rolls)
    service.perform(scene.game, scene.people["referee"], {"type": "pause"}, idem_key=key())
    return Scene("serial_battle", "paused", scene.game, scene.people, scene.extra)


def sb_winner(service: GameService, rolls: ScriptedRolls) -> Scene:
    game, people, ids = sb_game(service, ("Léa", "Hugo"))
    service.perform(
        game,
        people["referee"],
        {"type": "eliminate", "player": ids["Hugo"], "cause": "zone"},
        idem_key=key(),
    )
    return Scene("serial_battle", "won", game, people, {"players": ids})


def sb_no_survivor(service: GameService, rolls: ScriptedRolls) -> Scene:
    """Two knives, touched together, two critical blows: nobody is left (no winner)."""
    game, people, ids = sb_game(service, ("Léa", "Hugo"))
    ref = people["referee"]
    for name, card in (("Léa", "couteau"), ("Hugo", "couteau#2")):
        service.perform(
            game, ref, {"type": "give", "player": ids[name], "card": card}, idem_key=key()
        )
    rolls.push(6, 1, 6, 1)
    service.perform(
        game,
        ref,
        {
            "type": "assault",
            "attacker": ids["Léa"],
            "defenders": [ids["Hugo"]],
            "card": "couteau",
            "defender_card": "couteau#2",
            "touch": "simultaneous",
        },
        idem_key=key(),
    )
    state = service.load(game).state
    assert state.phase == "finished" and state.result.reason == "no_survivor"  # type: ignore[attr-defined]
    return Scene("serial_battle", "no_survivor", game, people, {"players": ids})


def sb_ended(service: GameService, rolls: ScriptedRolls) -> Scene:
    game, people, ids = sb_game(service, ("Léa", "Hugo", "Zoé"))
    service.perform(game, people["organizer"], {"type": "end"}, idem_key=key())
    return Scene("serial_battle", "ended", game, people, {"players": ids})


def rcb_game(
    service: GameService, rolls: ScriptedRolls, *, deal: bool = True, ties: bool = False
) -> Scene:
    rolls.endless = True
    game, owner = service.create_game("rcb", "Soirée", "MJ", idem_key=key())
    gm = viewer_of(owner)
    people: dict[str, Viewer] = {"organizer": gm}
    fighters = {}
    for n in range(6):
        person = registered(service, game.id, gm, "fighter", f"F{n}")
        fighters[person.person_id] = "AB"[n % 2]
        people.setdefault("fighter", person)
        service.perform(
            game.id,
            gm,
            {"type": "assign", "person": person.person_id, "team": "AB"[n % 2]},
            idem_key=key(),
        )
    people["team"] = registered(service, game.id, gm, "team", "Téléphone A")
    command = {"type": "assign", "person": people["team"].person_id, "team": "A"}
    service.perform(game.id, gm, command, idem_key=key())
    if ties:  # nobody beats anybody: the first duel ends in a perfect tie
        service.perform(game.id, gm, {"type": "matrix", "wins": []}, idem_key=key())
    if deal:
        service.perform(game.id, gm, {"type": "deal"}, idem_key=key())
    return Scene("rcb", "dealt" if deal else "setup", game.id, people, {"fighters": fighters})


def rcb_setup(service: GameService, rolls: ScriptedRolls) -> Scene:
    return rcb_game(service, rolls, deal=False)


def rcb_dealt(service: GameService, rolls: ScriptedRolls) -> Scene:
    return rcb_game(service, rolls)


def rcb_round(service: GameService, rolls: ScriptedRolls) -> Scene:
    scene = rcb_game(service, rolls)
    service.perform(scene.game, scene.people["organizer"], {"type": "round"}, idem_key=key())
    scene.phase = "designation"
    return scene


def rcb_stakes(service: GameService, rolls: ScriptedRolls) -> Scene:
    scene = rcb_round(service, rolls)
    gm = scene.people["organizer"]
    a, b = rcb_pair(service, scene)
    service.perform(scene.game, gm, {"type": "fighters", "a": a, "b": b}, idem_key=key())
    scene.phase = "stakes"
    return scene


def rcb_pair(service: GameService, scene: Scene) -> tuple[int, int]:
    """A fighter of each team still standing, the first pair that wins a duel if any."""
    state: Any = service.load(scene.game).state
    left = {t: [f for f in state.standing(t)] for t in "AB"}
    for x in left["A"]:
        for y in left["B"]:
            if state.matrix.duel(x.role, y.role) != "tie":
                return x.id, y.id
    return left["A"][0].id, left["B"][0].id


def rcb_finished(service: GameService, rolls: ScriptedRolls, *, ties: bool = False) -> Scene:
    scene = rcb_game(service, rolls, ties=ties)
    gm = scene.people["organizer"]
    for _ in range(12):
        state: Any = service.load(scene.game).state
        if state.phase == "finished":
            break
        a, b = rcb_pair(service, scene)
        for command in (
            {"type": "round"},
            {"type": "fighters", "a": a, "b": b},
            {"type": "stakes", "a": 1, "b": 1},
            {"type": "duel"},
        ):
            service.perform(scene.game, gm, command, idem_key=key())
    state = service.load(scene.game).state
    assert state.phase == "finished", state.phase  # type: ignore[attr-defined]
    scene.phase = "perfect_tie" if ties else "won"
    return scene


def rcb_won(service: GameService, rolls: ScriptedRolls) -> Scene:
    return rcb_finished(service, rolls)


def rcb_tie(service: GameService, rolls: ScriptedRolls) -> Scene:
    return rcb_finished(service, rolls, ties=True)


def rcb_revealed(service: GameService, rolls: ScriptedRolls) -> Scene:
    scene = rcb_finished(service, rolls)
    service.perform(scene.game, scene.people["organizer"], {"type": "reveal"}, idem_key=key())
    scene.phase = "revealed"
    return scene


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


def bf_game(
    service: GameService, rolls: ScriptedRolls, *, start: bool, collection: str = ""
) -> Scene:
    rolls.endless = True
    game, owner = service.create_game("battlefight", "Duel", "Orga", idem_key=key())
    org = viewer_of(owner)
    if collection:
        service.perform(game.id, org, {"type": "collection", "text": collection}, idem_key=key())
    people: dict[str, Viewer] = {"organizer": org}
    for persona, name in (("player", "Léa"), ("player_b", "Hugo")):
        people[persona] = registered(service, game.id, org, "player", name)
        if start:
            service.perform(game.id, people[persona], {"type": "boosters"}, idem_key=key())
    if start:
        service.perform(game.id, org, {"type": "start"}, idem_key=key())
    return Scene("battlefight", "playing" if start else "setup", game.id, people)


def bf_setup(service: GameService, rolls: ScriptedRolls) -> Scene:
    return bf_game(service, rolls, start=False)


def bf_turn(service: GameService, scene: Scene, technique: str | None = None) -> None:
    """The player asked plays `technique` (or the first card of their hand)."""
    state: Any = service.load(scene.game).state
    pending = state.table.pending
    if technique is None:
        technique = next(s for s in state.table.seats if s.id == pending.player).hand[0]
    player = next(v for v in scene.people.values() if v.person_id == pending.player)
    service.perform(scene.game, player, {"type": "choose", "values": [technique]}, idem_key=key())


def bf_playing(service: GameService, rolls: ScriptedRolls) -> Scene:
    """Begun; the first player draws a card (the base concentration technique)."""
    scene = bf_game(service, rolls, start=True)
    bf_turn(service, scene, "base-concentration")
    return scene


# Every card of this collection deals 20 damage: the first card played ends the game.
LETHAL = json.dumps(
    [
        {"title": f"Coup fatal {kind}", "type": kind, "steps": ["Blesser 20"]}
        for kind in ("attaque", "défense", "déplacement", "concentration", "rhétorique")
    ]
)


def bf_won(service: GameService, rolls: ScriptedRolls) -> Scene:
    """Both draw a card; the first plays theirs and wins."""
    scene = bf_game(service, rolls, start=True, collection=LETHAL)
    bf_turn(service, scene, "base-concentration")
    bf_turn(service, scene, "base-concentration")
    bf_turn(service, scene)
    assert service.load(scene.game).state.result == "won"  # type: ignore[attr-defined]
    return Scene("battlefight", "won", scene.game, scene.people)


def bf_table(service: GameService, rolls: ScriptedRolls) -> Scene:
    """Physical cards at one table: the organizer entered the decks and the first turn; a card
    drawn is asked of the organizer."""
    rolls.endless = True
    game, owner = service.create_game(
        "battlefight", "Table", "Orga", idem_key=key(), settings={"cards": "table"}
    )
    org = viewer_of(owner)
    people: dict[str, Viewer] = {"organizer": org}
    state: Any = service.load(game.id).state
    deck = [
        c.key
        for kind in ("attack", "defence", "movement", "concentration", "rhetoric")
        for c in [t for t in state.collection if t.type == kind][:2]
        for _ in range(2)
    ]
    for persona, name in (("player", "Léa"), ("player_b", "Hugo")):
        people[persona] = registered(service, game.id, org, "player", name)
        command = {"type": "deck", "player": people[persona].person_id, "cards": deck}
        service.perform(game.id, org, command, idem_key=key())
    service.perform(game.id, org, {"type": "start"}, idem_key=key())
    command = {"type": "choose", "values": ["base-concentration"]}
    service.perform(game.id, org, command, idem_key=key())
    return Scene("battlefight", "table", game.id, people)


def tm_scene(t: Any, phase: str) -> Scene:
    people = {"organizer": t.org, "player": t.people["Léa"], "player_b": t.people["Hugo"]}
    return Scene("trust_me", phase, t.game, people)


def tm_setup(service: GameService, rolls: ScriptedRolls) -> Scene:
    from tests.trust_me.conftest import TM

    rolls.endless = True
    t = TM(service, rolls)
    game, owner = service.create_game("trust_me", "Ville", "Orga", idem_key=key())
    t.game, t.org = game.id, viewer_of(owner)
    for name in ("Léa", "Hugo"):
        t.people[name] = registered(service, game.id, t.org, "player", name)
    return tm_scene(t, "setup")


def tm_preparing(service: GameService, rolls: ScriptedRolls) -> Scene:
    """Dealt: each player's four starting tokens and three objectives are theirs alone."""

    return tm_scene(dealt(service, rolls, keep=False), "preparing")


def tm_fight(service: GameService, rolls: ScriptedRolls) -> Scene:
    """Léa has searched a hidden token into the "?" cell; her attack on Hugo waits for his
    defence."""

    t = dealt(service, rolls)
    t.act("Léa", {"type": "search", "slot": "c1", "found": "medicaments", "to": "c9"})
    t.act("Hugo", {"type": "act", "action": "move", "slot": "c2"})
    t.act("Ana", {"type": "act", "action": "nothing", "slot": "c2"})
    t.act("Tom", {"type": "act", "action": "nothing", "slot": "c2"})
    t.dice(3, 3)
    t.act(
        "Léa",
        {"type": "attack", "slot": "c2", "weapon": t.item("Léa", "surin"), "target": t.id("Hugo")},
    )
    t.act("Léa", {"type": "reroll"})
    rolls.endless = True
    return tm_scene(t, "fight")


def tm_zombies(service: GameService, rolls: ScriptedRolls) -> Scene:

    t = dealt(service, rolls)
    t.act("Léa", {"type": "search", "slot": "c1", "found": "medicaments", "to": "c9"})
    rolls.endless = True
    t.nothing_until_zombies()
    return tm_scene(t, "zombies")


def tm_won(service: GameService, rolls: ScriptedRolls) -> Scene:
    """Léa left with her points; three rounds later the game ended and every secret is shown."""

    t = dealt(service, rolls)
    t.act("Léa", {"type": "search", "slot": "c1", "found": "materiaux", "to": "c7"})
    t.act("Hugo", {"type": "act", "action": "nothing", "slot": "c1"})
    t.act("Ana", {"type": "act", "action": "nothing", "slot": "c1"})
    t.act("Tom", {"type": "act", "action": "nothing", "slot": "c1"})
    t.act("Léa", {"type": "search", "slot": "c2", "found": "nourriture", "to": "c9"})
    rolls.endless = True
    t.nothing_until_zombies()
    t.zombie_phase()
    t.act("Léa", {"type": "search", "slot": t.free("Léa"), "found": "materiaux", "to": "c8"})
    t.act("Léa", {"type": "leave"})
    while t.state.phase != "finished":
        t.nothing_until_zombies()
        t.zombie_phase()
    return tm_scene(t, "won")


SCENES: dict[str, Builder] = {
    "serial_battle:setup": sb_setup,
    "serial_battle:running": sb_running,
    "serial_battle:paused": sb_paused,
    "serial_battle:won": sb_winner,
    "serial_battle:no_survivor": sb_no_survivor,
    "serial_battle:ended": sb_ended,
    "rcb:setup": rcb_setup,
    "rcb:dealt": rcb_dealt,
    "rcb:designation": rcb_round,
    "rcb:stakes": rcb_stakes,
    "rcb:won": rcb_won,
    "rcb:perfect_tie": rcb_tie,
    "rcb:revealed": rcb_revealed,
    "killpower_league:setup": killpower_empty,
    "killpower_league:played": killpower_teams,
    "killpower_league:bracket": killpower_tournament,
    "killpower_league:live_match": killpower_live,
    "killpower_match:lineup": match_lineup,
    "killpower_match:running": match_running,
    "killpower_match:phase3": match_phase3,
    "killpower_match:surrendered": match_surrendered,
    "killpower_match:forfeit": match_forfeit,
    "trust_me:setup": tm_setup,
    "trust_me:preparing": tm_preparing,
    "trust_me:fight": tm_fight,
    "trust_me:zombies": tm_zombies,
    "trust_me:won": tm_won,
    "battlefight:setup": bf_setup,
    "battlefight:playing": bf_playing,
    "battlefight:won": bf_won,
    "battlefight:table": bf_table,
}


def demo_scene(kind: str) -> Builder:
    def build(service: GameService, rolls: ScriptedRolls) -> Scene:
        rolls.endless = True
        game, owner = DEMOS[kind](service, key())
        return Scene(kind, "demo", game.id, {"organizer": viewer_of(owner)})

    return build


def stranger(service: GameService) -> Registered:
    """A person of another game, whose link opens nothing here."""
    game, owner = service.create_game("tally", "Ailleurs", "Hôte", idem_key=key())
    return service.register(game.id, viewer_of(owner), "referee", "Intrus", idem_key=key())


HX = {"HX-Request": "true"}


SKIPPED = {"/g/{game_id}/events"}  # an endless stream: tests/test_pages.py walks it


PAGES = ("staff", "player", "board", "people")


def phones(client: TestClient, service: GameService, scene: Scene) -> dict[str, TestClient]:
    """One browser per person of the scene, the public and a stranger of another game."""
    out = {}
    for persona, viewer in scene.people.items():
        phone = Phone(client, follow_redirects=False)
        person = service.person(scene.game, viewer.person_id)  # type: ignore[arg-type]
        assert phone.get(f"/t/{service.link_of(person).token}").status_code == 303
        out[persona] = phone
    out["public"] = Phone(client, follow_redirects=False)
    intruder = Phone(client, follow_redirects=False)
    assert intruder.get(f"/t/{stranger(service).link.token}").status_code == 303
    out["stranger"] = intruder
    return out


def addresses(routes: set[tuple[str, str]], scene: Scene, service: GameService) -> list[str]:
    """Every GET route naming a game, filled with this scene's ids (each page of `live/`)."""
    people = [p.id for p in service.people(scene.game)]
    values = {
        "game_id": [scene.game],
        "page": list(PAGES),
        "person_id": [*people[:2], 999_999],
        "team_id": [scene.extra.get("team", 1), 999],
        "match_id": [scene.extra.get("match", "nomatch")],
        "token": ["not-the-invitation"],
    }
    found = []
    for method, path in sorted(routes):
        if method != "GET" or "{game_id}" not in path or path in SKIPPED:
            continue
        filled = [path]
        for name in re.findall(r"{(\w+)}", path):
            filled = [f.replace(f"{{{name}}}", str(v)) for f in filled for v in values[name]]
        found += filled
    return found


def commands_of(kind_key: str) -> dict[str, Any]:
    """Each command type of a kind and its model."""
    union = get_args(KINDS[kind_key].commands._type)[0]  # Annotated[Union[...], discriminator]
    found = {}
    for model in get_args(union):
        for literal in get_args(model.model_fields["type"].annotation):
            found[literal] = model
    return found
