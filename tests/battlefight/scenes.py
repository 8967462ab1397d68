"""BattleFight driven to each of its phases and ends, with a person for every role (the scenes
every shared walk goes through: `tests/scene.py`)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from server.platform.dice import ScriptedRolls
from server.platform.kinds import Viewer
from server.platform.service import GameService
from tests.battlefight.conftest import BF_MATRIX
from tests.conftest import key, viewer_of
from tests.scene import Builder, References, Scene, World, registered


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


def bf_moving(service: GameService, rolls: ScriptedRolls) -> Scene:
    """Begun; the first player (drawn by lot: "player" here, whoever it is) plays the base
    movement and chooses the cell to go to (4.4.15)."""
    scene = bf_game(service, rolls, start=True)
    first = service.load(scene.game).state.table.pending.player  # type: ignore[attr-defined]
    people = dict(scene.people)
    if people["player"].person_id != first:
        people["player"], people["player_b"] = people["player_b"], people["player"]
    bf_turn(service, scene, "base-movement")
    return Scene("battlefight", "moving", scene.game, people)


def bf_hand(service: GameService, rolls: ScriptedRolls) -> Scene:
    """Both draw turn about until the second to play holds four cards: nine techniques to
    choose from, the base five and their hand."""
    scene = bf_game(service, rolls, start=True)
    for _ in range(9):
        bf_turn(service, scene, "base-concentration")
    state: Any = service.load(scene.game).state
    pending = state.table.pending
    assert pending.kind == "technique", pending
    people = dict(scene.people)
    if people["player_b"].person_id != pending.player:
        people["player"], people["player_b"] = people["player_b"], people["player"]
    assert len(next(s for s in state.table.seats if s.id == pending.player).hand) == 4
    return Scene("battlefight", "hand", scene.game, people)


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


SCENES: dict[str, Builder] = {
    "battlefight:setup": bf_setup,
    "battlefight:playing": bf_playing,
    "battlefight:won": bf_won,
    "battlefight:table": bf_table,
}

# Whom each scene waits for: the personas whose now-line is marked as theirs.
WAITS_ON: dict[str, set[str]] = {
    "battlefight:setup": {"organizer", "player", "player_b"},
    "battlefight:playing": {"player_b"},
    "battlefight:won": {"organizer"},
    "battlefight:table": {"organizer", "player"},
}

# States a turn passes through between the scenes, for the first-screen test: by label, the
# builder and whom it waits for (tests/browser/test_first_screen.py).
DECISIONS: dict[str, tuple[Builder, set[str]]] = {
    "battlefight:moving": (bf_moving, {"player"}),
    "battlefight:hand": (bf_hand, {"player_b"}),
}

# Offered forms the walk (tests/test_walker.py) still finds refused in some state, by command
# type, with why: issue 53's list, to empty.
WALK_KNOWN: dict[str, dict[str, str]] = {}

# The scenes of a game over, its ends, each with how it ended (tests/security/test_every_page.py).
ENDS: dict[str, str] = {"battlefight:won": "a player won"}

# The end this kind's replay is tried on in the browser, at a phone's width and on a big screen;
# True: also stepped through, with its buttons, its arrows and "Play" (tests/browser/test_replay.py).
REPLAY_ENDS: dict[str, bool] = {"battlefight:won": True}

# Whether the organizer reads the whole game: their file holds it in clear, to replay
# (tests/security/test_game_file.py).
RECORD_READABLE: dict[str, bool] = {
    "battlefight:setup": False,  # the boosters are drawn
    "battlefight:playing": False,
    "battlefight:won": True,
    "battlefight:table": True,
}

# Games in progress with secrets from their organizer, each with what is secret: they move
# only sealed to a server, or signed by one the destination trusts
# (tests/security/test_game_file.py, tests/test_moving.py).
SECRET_IN_PLAY: dict[str, str] = {"battlefight:playing": "the hands and the draw piles"}

# Scenes whose game file is brought in with one person too many of a role, by role
# (tests/security/test_game_file.py).
ROLE_LIMITS: dict[str, tuple[str, ...]] = {"battlefight:setup": ("organizer", "player")}

# Scenes in which the server rolled no die yet, with why: nothing for undo to fish for
# (tests/security/test_undo.py).
DICE_FREE: dict[str, str] = {"battlefight:setup": "a setup"}

# This game's own routes, walked by every role in its folder, with who may each (the platform's
# matrix is tests/test_authorization.py's; every route must be in one).
ROUTE_MATRIX: dict[str, list[tuple[str, str, str, dict[str, Any] | None, set[str]]]] = {
    "battlefight": BF_MATRIX
}


# ---------------------------------------------------------------------------- another game's ids


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


# How this kind's commands are sent with another game's ids (tests/security/test_references.py).
REFERENCES: dict[str, References] = {
    "battlefight": References(
        bf_world,
        BF,
        "organizer",
        template=lambda w, c: {"type": c, "player": w.ids["player"], "cards": ["parade"]},
    ),
}
