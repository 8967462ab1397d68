"""Trust Me driven to each of its phases and ends, with a person for every role (the scenes every
shared walk goes through: `tests/scene.py`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from server.platform.dice import ScriptedRolls
from server.platform.service import GameService
from tests.conftest import key, viewer_of
from tests.scene import Builder, References, Scene, World, registered
from tests.trust_me.conftest import NAMES, TM_MATRIX, dealt


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


def tm_turn(service: GameService, rolls: ScriptedRolls) -> Scene:
    """The first round: Léa's turn to lay a token and act (move, search, attack, use)."""

    t = dealt(service, rolls)
    rolls.endless = True
    return tm_scene(t, "turn")


def attacked(service: GameService, rolls: ScriptedRolls) -> Any:
    """Léa has searched a hidden token into the "?" cell and attacks Hugo: 3 and 3."""
    t = dealt(service, rolls)
    t.act("Léa", {"type": "search", "slot": "c1", "found": "medicaments", "to": "c9"})
    for name, action in (("Hugo", "move"), ("Ana", "nothing"), ("Tom", "nothing")):
        t.act(name, {"type": "act", "action": action, "slot": "c2"})
    t.dice(3, 3)
    weapon = t.item("Léa", "surin")
    t.act("Léa", {"type": "attack", "slot": "c2", "weapon": weapon, "target": t.id("Hugo")})
    return t


def tm_fight(service: GameService, rolls: ScriptedRolls) -> Scene:
    """Léa's attack on Hugo, rerolled, waits for his defence."""
    t = attacked(service, rolls)
    t.act("Léa", {"type": "reroll"})
    rolls.endless = True
    return tm_scene(t, "fight")


def tm_reroll(service: GameService, rolls: ScriptedRolls) -> Scene:
    """Léa's attack on Hugo rolled 3 and 3: she may reroll before his defence (a decision)."""
    t = attacked(service, rolls)
    rolls.endless = True
    return tm_scene(t, "reroll")


def infected(service: GameService, rolls: ScriptedRolls) -> Any:
    """The zombie phase of the first round, its infections rolled."""
    t = dealt(service, rolls)
    t.act("Léa", {"type": "search", "slot": "c1", "found": "medicaments", "to": "c9"})
    rolls.endless = True
    t.nothing_until_zombies()
    if not t.state.zombies.infections_rolled:
        t.act(None, {"type": "infections"})
    return t


def tm_spawn(service: GameService, rolls: ScriptedRolls) -> Scene:
    """The zombie phase: the infections rolled, the organizer rolls where the zombies come."""
    return tm_scene(infected(service, rolls), "spawn")


def tm_recovery(service: GameService, rolls: ScriptedRolls) -> Scene:
    """The zombies came: each player takes their tokens back (a decision: actions or a move)."""
    t = infected(service, rolls)
    t.dice(5, 6)
    t.act(None, {"type": "spawn"})
    return tm_scene(t, "recovery")


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
    "trust_me:turn": tm_turn,
    "trust_me:fight": tm_fight,
    "trust_me:zombies": tm_zombies,
    "trust_me:won": tm_won,
}

# Whom each scene waits for: the personas whose now-line is marked as theirs.
# States a turn passes through between the scenes, for the first-screen test: by label, the
# builder and whom it waits for (tests/browser/test_first_screen.py).
DECISIONS: dict[str, tuple[Builder, set[str]]] = {
    "trust_me:reroll": (tm_reroll, {"player"}),
    "trust_me:spawn": (tm_spawn, {"organizer"}),
    "trust_me:recovery": (tm_recovery, {"player", "player_b"}),
}

WAITS_ON: dict[str, set[str]] = {
    "trust_me:setup": {"organizer"},
    "trust_me:preparing": {"player", "player_b"},
    "trust_me:turn": {"player"},
    "trust_me:fight": {"player_b"},
    "trust_me:zombies": {"organizer", "player", "player_b"},
    "trust_me:won": set(),
}

# Offered forms the walk (tests/test_walker.py) still finds refused in some state, by command
# type, with why: issue 53's list, to empty.
WALK_KNOWN: dict[str, dict[str, str]] = {}

# The scenes of a game over, its ends, each with how it ended (tests/security/test_every_page.py).
ENDS: dict[str, str] = {"trust_me:won": "the game ended, every secret shown"}

# The end this kind's replay is tried on in the browser, at a phone's width and on a big screen;
# True: also stepped through, with its buttons, its arrows and "Play" (tests/browser/test_replay.py).
REPLAY_ENDS: dict[str, bool] = {"trust_me:won": False}

# Whether the organizer reads the whole game: their file holds it in clear, to replay
# (tests/security/test_game_file.py).
RECORD_READABLE: dict[str, bool] = {
    "trust_me:preparing": False,
    "trust_me:fight": False,
    "trust_me:won": True,
}

# Games in progress with secrets from their organizer, each with what is secret: they move
# only sealed to a server, or signed by one the destination trusts
# (tests/security/test_game_file.py, tests/test_moving.py).
SECRET_IN_PLAY: dict[str, str] = {"trust_me:fight": "the objectives and the decks"}

# Scenes whose game file is brought in with one person too many of a role, by role
# (tests/security/test_game_file.py).
ROLE_LIMITS: dict[str, tuple[str, ...]] = {"trust_me:setup": ("player",)}

# Scenes in which the server rolled no die yet, with why: nothing for undo to fish for
# (tests/security/test_undo.py).
DICE_FREE: dict[str, str] = {"trust_me:setup": "a setup"}

# This game's own routes, walked by every role in its folder, with who may each (the platform's
# matrix is tests/test_authorization.py's; every route must be in one).
ROUTE_MATRIX: dict[str, list[tuple[str, str, str, dict[str, Any] | None, set[str]]]] = {
    "trust_me": TM_MATRIX
}


# ---------------------------------------------------------------------------- another game's ids


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


# How this kind's commands are sent with another game's ids (tests/security/test_references.py).
REFERENCES: dict[str, References] = {
    "trust_me": References(
        tm_world,
        TM_CASES,
        "player",
        template=lambda w, c: TM_TEMPLATES[c](w),
        actor_for=TM_ACTORS,
        not_references=frozenset(
            {
                ("give", "to"),  # a place on the sheet
                ("search", "to"),
                ("endure", "take"),  # "fatigue" or "wound"
                ("recover", "take"),
                ("redraw", "objective"),  # a place among the player's own objectives
            }
        ),
    ),
}
