"""Roi / Chevalier / Bourreau driven to each of its phases and ends, with a person for every
role (the scenes every shared walk goes through: `tests/scene.py`)."""

from __future__ import annotations

from typing import Any

from server.platform.dice import ScriptedRolls
from server.platform.kinds import Viewer
from server.platform.service import GameService
from tests.conftest import key, viewer_of
from tests.scene import Builder, Scene, registered


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


SCENES: dict[str, Builder] = {
    "rcb:setup": rcb_setup,
    "rcb:dealt": rcb_dealt,
    "rcb:designation": rcb_round,
    "rcb:stakes": rcb_stakes,
    "rcb:won": rcb_won,
    "rcb:perfect_tie": rcb_tie,
    "rcb:revealed": rcb_revealed,
}

# Whom each scene waits for: the personas whose now-line is marked as theirs.
WAITS_ON: dict[str, set[str]] = {
    "rcb:setup": {"organizer"},
    "rcb:dealt": {"organizer"},
    "rcb:designation": {"organizer", "fighter", "team"},
    "rcb:stakes": {"organizer", "fighter", "team"},
    "rcb:won": {"organizer"},
    "rcb:perfect_tie": {"organizer"},
    "rcb:revealed": set(),
}
