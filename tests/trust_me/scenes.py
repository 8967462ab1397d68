"""Trust Me driven to each of its phases and ends, with a person for every role (the scenes every
shared walk goes through: `tests/scene.py`)."""

from __future__ import annotations

from typing import Any

from server.platform.dice import ScriptedRolls
from server.platform.service import GameService
from tests.conftest import key, viewer_of
from tests.scene import Builder, Scene, registered
from tests.trust_me.conftest import dealt


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
    "trust_me:setup": tm_setup,
    "trust_me:preparing": tm_preparing,
    "trust_me:fight": tm_fight,
    "trust_me:zombies": tm_zombies,
    "trust_me:won": tm_won,
}

# Whom each scene waits for: the personas whose now-line is marked as theirs.
WAITS_ON: dict[str, set[str]] = {
    "trust_me:setup": {"organizer"},
    "trust_me:preparing": {"player", "player_b"},
    "trust_me:fight": {"player_b"},
    "trust_me:zombies": {"organizer", "player", "player_b"},
    "trust_me:won": set(),
}

# Offered forms the walk (tests/test_walker.py) still finds refused in some state, by command
# type, with why: issue 53's list, to empty.
WALK_KNOWN: dict[str, dict[str, str]] = {}
