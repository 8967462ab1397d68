"""The drill's game driven to each of its phases and its end, with a person for every role (the
scenes every shared walk goes through: `tests/scene.py`)."""

from __future__ import annotations

from server.platform.dice import ScriptedRolls
from server.platform.kinds import Viewer
from server.platform.service import GameService
from tests.conftest import key, viewer_of
from tests.drill.kind import KIND
from tests.scene import Builder, Scene, registered


def drill_game(service: GameService, rolls: ScriptedRolls, *, start: bool) -> Scene:
    game, owner = service.create_game(KIND.key, "Doigts", "Orga", idem_key=key())
    org = viewer_of(owner)
    people: dict[str, Viewer] = {"organizer": org}
    for persona, name in (("player", "Léa"), ("player_b", "Hugo")):
        people[persona] = registered(service, game.id, org, "player", name)
    if start:
        service.perform(game.id, org, {"type": "start"}, idem_key=key())
    return Scene(KIND.key, "playing" if start else "setup", game.id, people)


def show(service: GameService, scene: Scene, persona: str, fingers: int) -> None:
    command = {"type": "show", "fingers": fingers}
    service.perform(scene.game, scene.people[persona], command, idem_key=key())


def reveal(service: GameService, scene: Scene) -> None:
    service.perform(scene.game, scene.people["organizer"], {"type": "reveal"}, idem_key=key())


def drill_setup(service: GameService, rolls: ScriptedRolls) -> Scene:
    return drill_game(service, rolls, start=False)


def drill_playing(service: GameService, rolls: ScriptedRolls) -> Scene:
    """Round 1, Léa has shown her fingers (in secret): the game waits for Hugo."""
    scene = drill_game(service, rolls, start=True)
    show(service, scene, "player", 3)
    return scene


def drill_won(service: GameService, rolls: ScriptedRolls) -> Scene:
    """Léa won 2-0: 2 against 2, the die names her; then 3 against 1."""
    scene = drill_game(service, rolls, start=True)
    for mine, theirs in ((2, 2), (3, 1)):
        show(service, scene, "player", mine)
        show(service, scene, "player_b", theirs)
        rolls.push(1)  # the tie's die: the first who showed the highest
        reveal(service, scene)
        rolls.values.clear()
    return Scene(KIND.key, "won", scene.game, scene.people)


SCENES: dict[str, Builder] = {
    "drill:setup": drill_setup,
    "drill:playing": drill_playing,
    "drill:won": drill_won,
}

# Whom each scene waits for: the personas whose now-line is marked as theirs.
WAITS_ON: dict[str, set[str]] = {
    "drill:setup": {"organizer"},
    "drill:playing": {"player_b"},
    "drill:won": set(),
}

# Offered forms the walk (tests/test_walker.py) still finds refused in some state, with why.
WALK_KNOWN: dict[str, dict[str, str]] = {}

# The scenes of a game over, each with how it ended (tests/security/test_every_page.py).
ENDS: dict[str, str] = {"drill:won": "a player reached the target"}

# Whether the organizer reads the whole game (tests/security/test_game_file.py).
RECORD_READABLE: dict[str, bool] = {
    "drill:setup": True,
    "drill:playing": False,  # Léa's fingers, not revealed yet
    "drill:won": True,
}

# Games in progress with secrets from their organizer (tests/security/test_game_file.py).
SECRET_IN_PLAY: dict[str, str] = {"drill:playing": "the fingers shown before the reveal"}

# Scenes in which the server rolled no die yet (tests/security/test_undo.py).
DICE_FREE: dict[str, str] = {"drill:setup": "a setup", "drill:playing": "no tie revealed yet"}
