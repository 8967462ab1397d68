"""Serial Battle driven to each of its phases and ends, with a person for every role (the
scenes every shared walk goes through: `tests/scene.py`)."""

from __future__ import annotations

from server.platform.dice import ScriptedRolls
from server.platform.kinds import Viewer
from server.platform.service import GameService
from tests.conftest import key, viewer_of
from tests.scene import Builder, Scene, registered


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


SCENES: dict[str, Builder] = {
    "serial_battle:setup": sb_setup,
    "serial_battle:running": sb_running,
    "serial_battle:paused": sb_paused,
    "serial_battle:won": sb_winner,
    "serial_battle:no_survivor": sb_no_survivor,
    "serial_battle:ended": sb_ended,
}

# Whom each scene waits for: the personas whose now-line is marked as theirs.
WAITS_ON: dict[str, set[str]] = {
    "serial_battle:setup": {"organizer"},
    "serial_battle:running": {"organizer", "referee"},
    "serial_battle:paused": {"organizer", "referee"},
    "serial_battle:won": set(),
    "serial_battle:no_survivor": set(),
    "serial_battle:ended": set(),
}

# Offered forms the walk (tests/test_walker.py) still finds refused in some state, by command
# type, with why: issue 53's list, to empty.
WALK_KNOWN: dict[str, dict[str, str]] = {}
