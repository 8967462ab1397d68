"""No objective, "?" cell, backpack or satchel content reaches anyone but its owner before the end
(1, 3.3, 5): whole rounds are played from the phones with random legal answers (searches into
hidden places, fights whose wounds make hidden tokens fall, zombie phases); after every step every
page, htmx fragment, API answer, journal export and refused command each other viewer can ask for
(the organizer, the other players, the public board, in French or in English) is searched for
the secrets. The box is the sample with every objective's text made unique and one object per
player that only that player ever hides."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from fastapi.testclient import TestClient

from server.games.trust_me import combat
from server.games.trust_me.catalog import dump_box, sample_box
from server.games.trust_me.sheet import hidden_slots, token_places, wearing, wound_places
from server.games.trust_me.state import TMState
from server.platform.kinds import Viewer
from server.platform.service import GameService
from tests.conftest import Hunt, Phones, key, viewer_of

NAMES = ("Lea", "Hugo", "Ines")


def cache(name: str) -> str:
    return f"Zqcache{name}"  # one word, no accent: found as written anywhere


def secret_box() -> str:
    box = json.loads(dump_box(sample_box()))
    for n, objective in enumerate(box["objectives"]):
        objective["text"] = f"Zqobjectif{n}"
    for name in NAMES:
        box["things"].append({"key": cache(name).lower(), "name": cache(name), "effect": "empty"})
    return json.dumps(box)


# The box's list to search from, on the search form and in the API's view: the box's, public
# (box.json), not a secret.
PUBLIC_LIST = re.compile(
    r'<select id="tm-found".*?</select>|"searchables":\[(?:[^\[\]]|\[[^\]]*\])*\]', re.S
)


class Secrets:
    """What each player holds that nobody else may read, and what has been face up."""

    def __init__(self) -> None:
        self.seen: set[str] = set()

    def update(self, state: TMState) -> dict[str, set[str]]:
        """Each player's secrets now, by name; what lies visible becomes seen for good."""
        hidden = hidden_slots(state)
        held: dict[str, set[str]] = {}
        for s in state.survivors.values():
            mine = {o.text for k in s.objectives if (o := state.box.objective(k))}
            for item, slot in s.items.items():
                name = state.box.name_of(state.items[item].key)
                if slot in hidden:
                    mine.add(name)
                elif name.startswith("Zq"):
                    self.seen.add(name)
            held[s.name] = {m for m in mine if m.startswith("Zq")}
        return held

    def forbidden(self, viewer: str, held: dict[str, set[str]]) -> re.Pattern[str] | None:
        words = {w for name, ws in held.items() if name != viewer for w in ws} - self.seen
        mine = held.get(viewer, set())
        words -= mine  # (two players may hold copies of nothing alike: texts are unique)
        return re.compile("|".join(sorted(words))) if words else None


def command_for(state: TMState, rng: random.Random) -> tuple[int | None, dict[str, Any]]:
    """Who acts next and a random legal-looking command (refusals are retried)."""
    if state.phase == "preparing":
        s = next(s for s in state.survivors.values() if not s.kept)
        return s.id, {
            "type": "keep",
            "items": [
                {"item": s.offered[0], "slot": "right"},
                {"item": s.offered[2], "slot": "c2"},
            ],
        }
    if state.placements:
        p = state.placements[0]
        places = wound_places(state.survivor(p.survivor))
        need = min(p.wounds + p.infections, len(places))
        return p.placer, {"type": "wounds", "slots": rng.sample(places, need) if need else ["c1"]}
    waiting = combat.waiting(state)
    if waiting is not None:
        who, stage = waiting
        if stage in ("attack_reroll", "defence_reroll"):
            return who, {"type": "reroll", "die": rng.choice([None, 0])}
        if stage == "endure":
            s = state.survivor(who)
            return who, {
                "type": "endure",
                "take": rng.choice(["fatigue", "wound"]),
                "slot": token_places(state, s)[0],
            }
        return who, {"type": {"defence": "defend", "usage": "usage"}[stage]}
    if state.declared is not None:
        d = state.declared
        if d.attacked or d.ready:
            return d.survivor, {"type": "aimed", "answer": "go_on"}
        return d.aimers[0], {"type": "aimed", "answer": "hold"}
    if state.exchange:
        return state.exchange[0], {"type": "end_exchange"}
    if state.phase == "zombies":
        z = state.zombies
        assert z is not None
        if not z.infections_rolled:
            return None, {"type": "infections"}
        if not z.spawned:
            return None, {"type": "spawn"}
        s = next(s for s in state.playing() if s.id not in z.recovered)
        return s.id, {"type": "recover", "take": "actions"}
    s = state.survivor(state.turn)  # type: ignore[arg-type]
    slot = rng.choice(token_places(state, s))
    others = [o.id for o in state.playing() if o.id != s.id]
    hiding = [
        p
        for p in sorted(hidden_slots(state))
        if (p not in ("b1", "b2") or wearing(state, s, "backpack"))
        and s.item_in(p) is None
        and p != slot
    ]
    weapons = [
        int(i)
        for i, where in s.items.items()
        if where in ("left", "right", "hands") and state.box.weapon(state.items[i].key)
    ]
    choice = rng.random()
    if choice < 0.35 and hiding:
        return s.id, {
            "type": "search",
            "slot": slot,
            "found": cache(s.name).lower(),
            "to": rng.choice(hiding),
        }
    if choice < 0.6 and weapons and others:
        return s.id, {
            "type": "attack",
            "slot": slot,
            "weapon": weapons[0],
            "target": rng.choice(others),
        }
    if choice < 0.7 and others:
        return s.id, {"type": "act", "action": "aim", "slot": slot, "target": rng.choice(others)}
    if choice < 0.8 and others:
        return None, {"type": "zombies", "survivor": rng.choice(others), "count": rng.randint(1, 3)}
    return s.id, {
        "type": "act",
        "action": rng.choice(["move", "nothing", "diversion"]),
        "slot": slot,
    }


def play(client: TestClient, seed: int, steps: int) -> int:
    rng = random.Random(seed)
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    service.dice.endless = True  # type: ignore[attr-defined]
    game, owner = service.create_game("trust_me", "Secrets", "Orga", idem_key=key())
    org = viewer_of(owner)
    service.perform(game.id, org, {"type": "box", "text": secret_box()}, idem_key=key())
    refusal = (
        {"type": "claim", "objective": "coffre-bus", "times": "1"},
        {"type": "redraw", "objective": 0},
    )
    phones = Phones(client, service, game.id, refusal)
    phones.open("Orga", org)
    people: dict[int, Viewer] = {}
    for name in NAMES[: 2 + seed % 2]:
        person = viewer_of(service.register(game.id, org, "player", name, idem_key=key()))
        people[person.person_id] = person  # type: ignore[index]
        phones.open(name, person)
        service.perform(
            game.id, org, {"type": "passport", "player": person.person_id}, idem_key=key()
        )
        service.perform(
            game.id,
            org,
            {"type": "decor", "player": person.person_id, "pieces": ["bus"]},
            idem_key=key(),
        )
    service.perform(game.id, org, {"type": "deal"}, idem_key=key())
    secrets = Secrets()
    hunt = Hunt(phones, public=PUBLIC_LIST)
    viewers = [*phones.phones]
    for step in range(steps):
        state: TMState = service.load(game.id).state  # type: ignore[assignment]
        if state.phase == "finished":
            break
        held = secrets.update(state)
        if step % 3 == 0 or state.fight is not None:
            for name in viewers:
                hunt.search(name, secrets.forbidden(name, held), step)
        who, command = command_for(state, rng)
        actor = people[who] if who is not None else org
        try:
            service.perform(game.id, actor, command, idem_key=key())
        except Exception as error:  # a random choice the rules refuse: another one next time
            assert getattr(error, "code", None) in ("rule", "not_allowed", "invalid"), error
            if command["type"] in ("attack", "search", "act", "zombies"):
                service.perform(
                    game.id,
                    actor if who is not None else org,
                    {
                        "type": "act",
                        "action": "nothing",
                        "slot": token_places(state, state.survivor(state.turn))[0],
                    }
                    if who is not None and state.turn == who
                    else {"type": "roll", "dice": ["white"]},
                    idem_key=key(),
                )
            else:
                raise
    held = secrets.update(service.load(game.id).state)  # type: ignore[arg-type]
    hunt.finish({name: secrets.forbidden(name, held) for name in viewers})
    return hunt.checked


@pytest.mark.parametrize("seed", [1, 2])
def test_random_rounds_never_show_a_secret(client: TestClient, seed: int) -> None:
    assert play(client, seed, steps=90) > 200
