"""Serial Battle driven to each of its phases and ends, with a person for every role (the
scenes every shared walk goes through: `tests/scene.py`)."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from server.platform.dice import ScriptedRolls
from server.platform.kinds import Viewer
from server.platform.service import GameService
from tests.conftest import key, viewer_of
from tests.scene import Builder, Load, References, Scene, World, registered
from tests.serial_battle.conftest import SB_MATRIX


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


def sb_owed(service: GameService, rolls: ScriptedRolls, kind: str) -> Scene:
    """A choice the referee owes right after an assault: Hugo's taser knocks Léa out (face 2),
    or Léa's knife kills Zoé (face 6, critical) who holds more than Léa may keep (the loot)."""
    game, people, ids = sb_game(service, ("Léa", "Hugo", "Zoé"))
    ref = people["referee"]
    if kind == "knockout":
        gifts, pushed = [("Hugo", "taser")], (2, 1)
        command = {"attacker": ids["Hugo"], "defenders": [ids["Léa"]], "card": "taser"}
    else:
        gifts = [("Léa", "couteau")] + [
            ("Zoé", card) for card in ("machette", "katana", "hache", "arc", "shuriken")
        ]
        pushed = (6, 1)
        command = {
            "attacker": ids["Léa"],
            "defenders": [ids["Zoé"]],
            "card": "couteau",
            "defender_card": "machette",
        }
    for name, card in gifts:
        give = {"type": "give", "player": ids[name], "card": card}
        service.perform(game, ref, give, idem_key=key())
    rolls.push(*pushed)
    service.perform(game, ref, {"type": "assault", "answer": False, **command}, idem_key=key())
    state: Any = service.load(game).state
    assert any(p.kind == kind for p in state.pending), state.pending
    return Scene("serial_battle", kind, game, people, {"players": ids})


SCENES: dict[str, Builder] = {
    "serial_battle:setup": sb_setup,
    "serial_battle:running": sb_running,
    "serial_battle:paused": sb_paused,
    "serial_battle:won": sb_winner,
    "serial_battle:no_survivor": sb_no_survivor,
    "serial_battle:ended": sb_ended,
}

# States a turn passes through between the scenes, for the first-screen test: by label, the
# builder and whom it waits for (tests/browser/test_first_screen.py).
DECISIONS: dict[str, tuple[Builder, set[str]]] = {
    f"serial_battle:{kind}": (
        lambda service, rolls, kind=kind: sb_owed(service, rolls, kind),
        {"organizer", "referee"},
    )
    for kind in ("knockout", "loot")
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

# The scenes of a game over, its ends, each with how it ended (tests/security/test_every_page.py).
ENDS: dict[str, str] = {
    "serial_battle:won": "one player left",
    "serial_battle:no_survivor": "nobody left",
    "serial_battle:ended": "ended by the organizer",
}


def random_command(rng: random.Random, players: list[int]) -> tuple[dict[str, Any], dict[str, int]]:
    """A realistic mix, legal and not: assaults (some with impossible dice), corrections, placings."""
    a, b = rng.sample(players, 2)
    roll = rng.random()
    if roll < 0.5:
        dice = {
            "damage": rng.randint(1, 6),
            "location": rng.randint(1, 6),
            "answer_damage": rng.randint(1, 6),
            "answer_location": rng.randint(1, 6),
        }
        if rng.random() < 0.1:
            dice["damage"] = 7  # refused: a die has six faces
        return {"type": "assault", "attacker": a, "defenders": [b], "card": "bare"}, dice
    if roll < 0.7:
        return {"type": "correct", "player": a, "pv": rng.randint(0, 36), "reason": "charge"}, {}
    if roll < 0.85:
        return {
            "type": "place",
            "players": [a, b],
            "sector": rng.choice(["Nord", "Sud", "Est"]),
        }, {}
    return {"type": "eliminate", "player": a, "cause": "referee"}, {}


# A game under the load of many referees at once (tests/test_load_and_faults.py).
LOADS: dict[str, Load] = {
    "serial_battle": Load(
        [{"type": "sectors", "names": "Nord, Sud, Est, Ouest"}, {"type": "start"}], random_command
    ),
}

# Kinds whose demo's staff page is held to the first load's size budget
# (tests/browser/test_budgets.py).
LOAD_BUDGETED: dict[str, bool] = {"serial_battle": True}

# Scenes whose every route is asked under a Host the server does not answer to
# (tests/security/test_budgets.py).
HOST_WALKED: dict[str, str] = {"serial_battle:running": "a game under way, its own pages"}

# Scenes the API's fuzzing aims at, a game under way (tests/test_api_fuzz.py).
FUZZED: dict[str, str] = {"serial_battle:running": "assaults made"}

# The end this kind's replay is tried on in the browser, at a phone's width and on a big screen;
# True: also stepped through, with its buttons, its arrows and "Play" (tests/browser/test_replay.py).
REPLAY_ENDS: dict[str, bool] = {"serial_battle:won": False}

# Each kind's own page that takes a deck as a file or a text, its address in the game: a deck
# too deep to read is refused there (tests/security/test_boundaries.py).
DECK_PAGES: dict[str, str] = {"serial_battle": "serial_battle/deck"}

# Whether the organizer reads the whole game: their file holds it in clear, to replay
# (tests/security/test_game_file.py).
RECORD_READABLE: dict[str, bool] = {"serial_battle:running": True}

# Scenes whose game file is brought in with one person too many of a role, by role
# (tests/security/test_game_file.py).
ROLE_LIMITS: dict[str, tuple[str, ...]] = {"serial_battle:setup": ("referee",)}

# Where the state lists the people of a role before the game begins, by kind and role: a person
# revoked leaves it, a link re-issued brings them back (tests/test_service.py).
PERSON_LISTS: dict[str, dict[str, Callable[[Any], Mapping[str, Any]]]] = {
    "serial_battle": {"player": lambda st: st.players, "referee": lambda st: st.referees},
}

# Scenes in which the server rolled no die yet, with why: nothing for undo to fish for
# (tests/security/test_undo.py).
DICE_FREE: dict[str, str] = {
    "serial_battle:ended": "ended by hand",
    "serial_battle:setup": "a setup",
    "serial_battle:won": "won by an elimination, no die",
}

# Dice purposes as the journal says them in French, by kind (None: a die the journal does not
# show) (tests/test_i18n.py).
ROLL_WORDS: dict[str, dict[str, str | None]] = {
    "serial_battle": {
        "damage": "dégâts",
        "answer_location": "riposte : localisation",
        "2_damage": "dégâts sur Hugo",
        "answer_2_recovery": "riposte de Hugo : récupération du projectile",
        "hit_2": "touche sur Hugo",
    },
}


def two_players() -> Any:
    """A game of two players, Léa and Hugo: the dice purposes that name a player read them."""
    from tests.serial_battle.conftest import game

    return game("Léa", "Hugo")


# The state a kind's dice purposes are read in, where not a fresh game's (tests/test_i18n.py).
ROLL_STATES: dict[str, Callable[[], Any]] = {"serial_battle": two_players}

# This game's own routes, walked by every role in its folder, with who may each (the platform's
# matrix is tests/test_authorization.py's; every route must be in one).
ROUTE_MATRIX: dict[str, list[tuple[str, str, str, dict[str, Any] | None, set[str]]]] = {
    "serial_battle": SB_MATRIX
}


# ---------------------------------------------------------------------------- another game's ids


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


# How this kind's commands are sent with another game's ids (tests/security/test_references.py).
REFERENCES: dict[str, References] = {
    "serial_battle": References(sb_world, SB, "referee", platform_only=frozenset({"zone_due"})),
}
