"""Roi / Chevalier / Bourreau driven to each of its phases and ends, with a person for every
role (the scenes every shared walk goes through: `tests/scene.py`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from server.platform.dice import ScriptedRolls
from server.platform.kinds import Viewer
from server.platform.service import GameService
from tests.conftest import key, viewer_of
from tests.rcb.conftest import WORDS
from tests.scene import Builder, References, Scene, World, registered


def rcb_game(
    service: GameService,
    rolls: ScriptedRolls,
    *,
    deal: bool = True,
    ties: bool = False,
    count: int = 6,
) -> Scene:
    rolls.endless = True
    game, owner = service.create_game("rcb", "Soirée", "MJ", idem_key=key())
    gm = viewer_of(owner)
    people: dict[str, Viewer] = {"organizer": gm}
    fighters = {}
    for n in range(count):
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


def rcb_round_full(service: GameService, rolls: ScriptedRolls) -> Scene:
    """Round 1 with the most fighters a deal takes (17: nine and eight a team): the game master
    picks the two who stepped forward."""
    scene = rcb_game(service, rolls, count=17)
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
# States a turn passes through between the scenes, for the first-screen test: by label, the
# builder and whom it waits for (tests/browser/test_first_screen.py).
DECISIONS: dict[str, tuple[Builder, set[str]]] = {
    "rcb:designation_full": (rcb_round_full, {"organizer"}),
}

# Forms whose last control may end past the first screen, with why (the first-screen test).
LONG_FORMS: dict[str, str] = {
    "rcb:designation_full": "the pair goes with the second chip, both teams' on the first screen;"
    " its button, under them, is for a keyboard and a team's only fighter left",
}

WAITS_ON: dict[str, set[str]] = {
    "rcb:setup": {"organizer"},
    "rcb:dealt": {"organizer"},
    "rcb:designation": {"organizer", "fighter", "team"},
    "rcb:stakes": {"organizer", "fighter", "team"},
    "rcb:won": {"organizer"},
    "rcb:perfect_tie": {"organizer"},
    "rcb:revealed": set(),
}

# The scenes of a game over, its ends, each with how it ended (tests/security/test_every_page.py).
ENDS: dict[str, str] = {
    "rcb:won": "a team won",
    "rcb:perfect_tie": "a perfect tie",
    "rcb:revealed": "won, the roles revealed",
}

# Kinds whose demo's staff page is held to the first load's size budget
# (tests/browser/test_budgets.py).
LOAD_BUDGETED: dict[str, bool] = {"rcb": True}

# Scenes the API's fuzzing aims at, a game under way (tests/test_api_fuzz.py).
FUZZED: dict[str, str] = {"rcb:dealt": "teams dealt"}


def rcb_hidden(service: GameService, game: str, viewer: Any) -> list[str]:
    """The roles this viewer of a Roi / Chevalier / Bourreau game may not know, as words."""
    state: Any = service.load(game).state
    mine = state.fighters.get(str(viewer.person_id))
    phone = state.phones.get(str(viewer.person_id))
    team = mine.team if mine else (phone.team if phone else None)
    known = {f.role for f in state.fighters.values() if team and f.team == team and f.role}
    roles = {f.role for f in state.fighters.values() if f.role} | set(state.set_aside)
    return [w for role in roles - known for w in WORDS[role]]


# By scene, what a viewer of it may not know, as words: no answer to a command they send names
# them (tests/security/test_answers.py).
ANSWER_SECRETS: dict[str, Callable[[GameService, str, Any], list[str]]] = {
    "rcb:stakes": rcb_hidden,
    "rcb:won": rcb_hidden,
}

# The end this kind's replay is tried on in the browser, at a phone's width and on a big screen;
# True: also stepped through, with its buttons, its arrows and "Play" (tests/browser/test_replay.py).
REPLAY_ENDS: dict[str, bool] = {"rcb:revealed": False}

# Whether the organizer reads the whole game: their file holds it in clear, to replay
# (tests/security/test_game_file.py).
RECORD_READABLE: dict[str, bool] = {"rcb:stakes": False}

# Games in progress with secrets from their organizer, each with what is secret: they move
# only sealed to a server, or signed by one the destination trusts
# (tests/security/test_game_file.py, tests/test_moving.py).
SECRET_IN_PLAY: dict[str, str] = {"rcb:dealt": "the roles dealt"}

# Scenes whose game file is brought in with one person too many of a role, by role
# (tests/security/test_game_file.py).
ROLE_LIMITS: dict[str, tuple[str, ...]] = {"rcb:setup": ("fighter",)}

# Where the state lists the people of a role before the game begins, by kind and role: a person
# revoked leaves it, a link re-issued brings them back (tests/test_service.py).
PERSON_LISTS: dict[str, dict[str, Callable[[Any], Mapping[str, Any]]]] = {
    "rcb": {"fighter": lambda st: st.fighters, "team": lambda st: st.phones},
}

# Scenes in which the server rolled no die yet, with why: nothing for undo to fish for
# (tests/security/test_undo.py).
DICE_FREE: dict[str, str] = {"rcb:setup": "a setup"}

# Dice purposes as the journal says them in French, by kind (None: a die the journal does not
# show) (tests/test_i18n.py).
ROLL_WORDS: dict[str, dict[str, str | None]] = {
    "rcb": {
        "shuffle_31": None,  # a step of the secret shuffle: not in the journal
        "team_3": "tirage des équipes",
    },
}


# ---------------------------------------------------------------------------- another game's ids


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


# How this kind's commands are sent with another game's ids (tests/security/test_references.py).
REFERENCES: dict[str, References] = {
    "rcb": References(
        rcb_world,
        RCB,
        "organizer",
        template=lambda w, c: {"type": c, "person": w.ids["fighter"], "team": "A"},
        platform_only=frozenset({"designation_due"}),
        not_references=frozenset(
            {
                ("assign", "team"),  # a team's letter
                ("stakes", "a"),
                ("stakes", "b"),
                ("team_names", "a"),
                ("team_names", "b"),
            }
        ),
    ),
}
