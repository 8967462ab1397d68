"""What each viewer sees (3): the table sees every sheet as it lies on the table, hidden places face
down (the "?" cell, the backpack, the satchel), objectives counted but not read; a player sees
their own sheet in full, their objectives and their points. A survivor who left (14) and the end
reveal everything."""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from server.games.trust_me import combat, turn
from server.games.trust_me.catalog import COLOUR_TITLES, FAMILY_TITLES, SIDES
from server.games.trust_me.ending import may_claim, may_leave_now, points
from server.games.trust_me.setup import DECOR_POINTS, DECOR_TITLES, SPECIAL_TITLES
from server.games.trust_me.sheet import (
    hidden_slots,
    kind_problem,
    occupant,
    place_problem,
    thing_of,
    token_places,
    weapon_of,
    wearing,
    wound_places,
)
from server.games.trust_me.state import CELLS, HANDS, PACK, Survivor, TMState
from server.games.trust_me.table import at_table, fight_over
from server.games.trust_me.zombies import PRIORITIES
from server.i18n import N_, Msg, listed
from server.platform.kinds import LoggedEvent, Part, Viewer, sentences_only
from server.platform.now import NOTHING_LEFT, WATCH, Now

SLOT_TITLES = {
    "left": N_("left hand"),
    "right": N_("right hand"),
    "hands": N_("both hands"),
    "outfit": N_("outfit"),
    "backpack": N_("backpack"),
    "b1": N_("in the backpack (1)"),
    "b2": N_("in the backpack (2)"),
    "satchel": N_("in the satchel"),
    "passport": N_("on the passport"),
    "sneakers": N_("on the sneakers"),
    "aside": N_("beside the sheet"),
    "back": N_("back where it lay"),
}
STAGE_TITLES = {
    "attack_reroll": N_("may roll one attack die again"),
    "defence": N_("rolls their defence"),
    "defence_reroll": N_("may roll one defence die again"),
    "endure": N_("takes a Fatigue or a wound"),
    "usage": N_("rolls the green die for the weapon"),
    "wounds": N_("places the wounds"),
}
# 1: the seven skills the book prints, in the reader's language; the box's own words for the others.
SKILL_TITLES = {
    "melee_die": N_("+1 yellow die in melee"),
    "move": N_("+5 cm of movement"),
    "ranged_die": N_("+1 yellow die at range"),
    "reroll": N_("roll one attack die again"),
    "defence_die": N_("+1 blue die in defence"),
    "green": N_("+1 on the green die"),
    "hidden": N_("? · an object here lies face down"),
}


def slot_title(state: TMState, slot: str) -> str:
    if slot in CELLS:
        cell = state.box.cells[CELLS.index(slot)]
        words = Msg(SKILL_TITLES[cell.skill]).render() if cell.skill in SKILL_TITLES else cell.label
        return f"{CELLS.index(slot) + 1} · {words}"
    if slot.startswith("bandage:"):
        return Msg(N_("on a bandage")).render()
    return Msg(SLOT_TITLES.get(slot, slot)).render()


def item_view(state: TMState, item: int, hidden: bool) -> dict[str, Any]:
    if hidden:
        return {"id": None, "hidden": True, "name": Msg(N_("a face-down token")).render()}
    weapon, thing = weapon_of(state, item), thing_of(state, item)
    view: dict[str, Any] = {"id": item, "hidden": False, "key": state.item(item).key}
    if weapon is not None:
        detail = f"{Msg(COLOUR_TITLES[weapon.die]).render()} d{SIDES[weapon.die]} · ♥{weapon.limit}"
        view |= {
            "name": weapon.name,
            "weapon": True,
            "ranged": weapon.category == "ranged",
            "two_handed": weapon.two_handed,
            "empty": state.item(item).empty,
            "detail": f"{Msg(FAMILY_TITLES[weapon.family]).render()} · {detail}",
        }
    elif thing is not None:
        limit = "X1" if thing.single_use else (f"♥{thing.limit}" if thing.limit is not None else "")
        view |= {"name": thing.name, "weapon": False, "effect": thing.effect, "detail": limit}
    return view


def sheet_view(state: TMState, s: Survivor, reveal: bool) -> dict[str, Any]:
    """A sheet as the table sees it (`reveal`: as its owner does)."""
    hidden = hidden_slots(state) if not reveal else set()

    def place(slot: str) -> dict[str, Any]:
        item = s.item_in(slot)
        token = next((t for t in s.tokens if t.slot == slot), None)
        return {
            "slot": slot,
            "title": slot_title(state, slot),
            "item": item_view(state, item, slot in hidden) if item is not None else None,
            "wound": slot in s.wounds,
            "infection": slot in s.infections,
            "token": token.face if token else None,
            "free": occupant(s, slot) is None,
        }

    passport = state.box.passport(s.passport or "")
    items_on = {slot for slot in s.items.values()}
    return {
        "id": s.id,
        "name": s.name,
        "passport": passport.model_dump() if passport else None,
        "defence": ", ".join(
            f"{Msg(COLOUR_TITLES[c]).render()} d{SIDES[c]}" for c in passport.defence
        )
        if passport
        else "",
        "hands": [place("hands")] if "hands" in items_on else [place(h) for h in HANDS],
        "cells": [
            place(c) | {"skill": state.box.cells[i].skill, "sample": state.box.cells[i].sample}
            for i, c in enumerate(CELLS)
        ],
        "extra": [
            place(slot)
            for slot in ("outfit", "backpack", "b1", "b2", "satchel")
            if slot in items_on
        ],
        "on_passport": [
            item_view(state, int(i), False) for i, slot in s.items.items() if slot == "passport"
        ],
        "wounds": len(s.wounds),
        "bandaged": sum(1 for w in s.wounds if w.startswith("bandage:")),
        "infections": len(s.infections),
        "tokens_left": len(s.free_tokens()),
        "tokens": [t.face for t in s.tokens if t.slot is not None],
        "sneakers": next((t.face for t in s.tokens if t.slot == "sneakers"), None),
        "aside": sum(1 for t in s.tokens if t.slot == "aside"),
        "aiming": state.survivor(s.aiming).name if s.aiming is not None else None,
        "objectives": len(s.objectives),
        "objective_texts": [o.text for k in s.objectives if (o := state.box.objective(k))]
        if reveal
        else [],
        "community": s.community,
        "decor": [Msg(DECOR_TITLES[p]).render() for p in s.decor],
        "killed": s.zombies_killed,
        "dead": s.dead,
        "exited": s.exited,
        "revealed": reveal,
    }


def fight_view(state: TMState) -> dict[str, Any] | None:
    fight = state.fight
    if fight is None:
        return None

    def dice(ds: list[Any]) -> list[dict[str, Any]]:
        return [
            {"colour": d.colour, "sides": SIDES[d.colour], "value": d.value, "why": d.why}
            for d in ds
        ]

    weapon = (
        weapon_of(state, fight.weapon)
        if fight.weapon is not None and str(fight.weapon) in state.items
        else None
    )
    who = combat.waiting(state)
    return {
        "attacker": state.survivor(fight.attacker).name if fight.attacker is not None else None,
        "zombies": fight.zombies,
        "target": state.survivor(fight.target).name if fight.target is not None else None,
        "weapon": weapon.name if weapon else None,
        "ranged": fight.ranged,
        "attack_dice": dice(fight.attack_dice),
        "attack_bonus": fight.attack_bonus,
        "malus": [m for _, m in fight.malus],
        "one_handed": fight.one_handed,
        "attack_total": fight.attack_total,
        "defence_dice": dice(fight.defence_dice),
        "defence_bonus": fight.defence_bonus,
        "defence_total": fight.defence_total if fight.defence_dice else None,
        "waiting": state.survivor(who[0]).name if who else None,
        "stage": Msg(STAGE_TITLES[who[1]]).render() if who else None,
    }


def waiting_view(state: TMState) -> dict[str, Any] | None:
    """What the game waits for, in words, for everyone."""
    who = combat.waiting(state)
    if who is not None:
        return {
            "person": who[0],
            "name": state.survivor(who[0]).name,
            "what": Msg(STAGE_TITLES[who[1]]).render(),
        }
    declared = state.declared
    if declared is not None:
        if declared.attacked:
            person, what = (
                declared.survivor,
                Msg(N_("goes on with the action declared, or stops")).render(),
            )
        elif declared.ready:
            person, what = (
                declared.survivor,
                Msg(N_("does the action declared, rolling their own dice")).render(),
            )
        else:
            person = declared.aimer or declared.survivor
            what = Msg(
                N_("attacks {name} first from the aim marker, or lets them act"),
                {"name": state.survivor(declared.survivor).name},
            ).render()
        return {"person": person, "name": state.survivor(person).name, "what": what}
    if state.exchange:
        a, b = (state.survivor(p) for p in state.exchange)
        return {
            "person": a.id,
            "name": a.name,
            "what": Msg(N_("exchanges objects with {name}"), {"name": b.name}).render(),
        }
    z = state.zombies
    if state.phase == "zombies" and z is not None:  # the table's: anyone at it rolls
        if not z.infections_rolled:
            said = Msg(N_("The table rolls the infection dice."))
        elif not z.spawned:
            said = Msg(N_("The table moves the zombies, then rolls the spawn."))
        else:
            names = [s.name for s in state.playing() if s.id not in z.recovered]
            said = Msg(N_("Tokens still to take back: {names}."), {"names": ", ".join(names)})
        return {"person": None, "name": "", "what": said.render()}
    if state.phase == "players" and state.turn is not None:
        return {
            "person": state.turn,
            "name": state.survivor(state.turn).name,
            "what": Msg(N_("places a token and acts")).render(),
        }
    return None


def board_part(state: TMState, viewer: Viewer, now: datetime) -> dict[str, Any]:
    """What the whole table sees."""
    z = state.zombies
    finished = state.phase == "finished"
    return {
        "phase": state.phase,
        "sample": state.box.sample,
        "round": state.round,
        "survivors": [
            sheet_view(state, state.survivor(p), finished or state.survivor(p).exited)
            for p in (state.order or [int(k) for k in state.survivors])
        ],
        "turn": state.survivor(state.turn).name if state.turn is not None else None,
        "waiting": waiting_view(state),
        "waiting_wounds": bool(state.placements),
        "fight": fight_view(state),
        # The table's moves wait for the fight to end (`table.fight_over`, as the rules judge).
        "fight_over": fight_over(state),
        "declared": Msg(turn.ACTION_WORDS[state.declared.action]).render()
        if state.declared
        else None,
        "specials": [Msg(SPECIAL_TITLES[k]).render() for k in state.specials],
        "zombie_starts": state.zombie_starts,
        "search_tokens": state.search_tokens,
        "racket": state.racket,
        "zombie_phase": {
            "infections_rolled": z.infections_rolled,
            "spawned": z.spawned,
            "spawns": z.spawns,
            "recovered": [state.survivor(p).name for p in z.recovered],
            "to_recover": [s.name for s in state.playing() if s.id not in z.recovered],
            "priorities": [Msg(p).render() for p in PRIORITIES],
        }
        if z is not None
        else None,
        "first_exit": state.first_exit,
        "scores": {state.survivor(int(k)).name: v for k, v in state.scores.items()}
        if finished
        else {},
        # 13, once the game ends (every sheet is shown then): where each score comes from.
        "breakdown": [final_lines(state, s) for s in state.survivors.values()] if finished else [],
        "winners": [state.survivor(p).name for p in state.winners],
        "box": {
            "passports": [p.model_dump() for p in state.box.passports],
            "weapons": len(state.box.weapons),
            "things": len(state.box.things),
            "objectives": len(state.box.objectives),
        },
        "decor_pieces": [
            {"key": k, "title": Msg(t).render(), "points": DECOR_POINTS[k]}
            for k, t in DECOR_TITLES.items()
        ],
        "me": None,
    }


def me_part(state: TMState, viewer: Viewer, now: datetime) -> dict[str, Any] | None:
    """A survivor's own: the sheet in full, objectives, points, and what they may do now."""
    if viewer.role != "player" or str(viewer.person_id) not in state.survivors:
        return None
    s = state.survivor(viewer.person_id or 0)
    own_items = [
        item_view(state, int(i), False) | {"slot": slot, "where": slot_title(state, slot)}
        for i, slot in s.items.items()
    ]
    mine: dict[str, Any] = {
        "id": s.id,
        "at_table": at_table(state, viewer),  # still in play: the table's moves are theirs too
        "sheet": sheet_view(state, s, True),
        "points": points(state, s) if state.phase != "setup" else None,
        "objectives": [
            {"index": i, "text": o.text, "manual": o.condition == "manual", "key": o.key}
            for i, k in enumerate(s.objectives)
            if (o := state.box.objective(k))
        ],
        "redrawn": s.redrawn,
        # The sneakers worn (an outfit, a backpack, the passport): a token may go on them while
        # they stay so (9.1, `token_cells`), which a rearrangement's menus say before the tap.
        "sneakers_item": wearing(state, s, "sneakers"),
        # Each token drawn with the places it may go (1, 5): never one the rules then refuse.
        "offered": [
            item_view(state, i, False)
            | {
                "slots": [
                    {"slot": p, "title": slot_title(state, p)}
                    for p in free_item_slots(state, s)
                    if place_problem(state, s, i, p) is None
                ]
            }
            for i in s.offered
        ],
        "kept": s.kept,
        "belongings": own_items,
        "weapons_in_hand": [
            i for i in own_items if i.get("weapon") and i["slot"] in ("left", "right", "hands")
        ],
        "weapons_loaded": [
            i
            for i in own_items
            if i.get("weapon") and i["slot"] in ("left", "right", "hands") and not i.get("empty")
        ],
        "objects": [i for i in own_items if not i.get("weapon")],
        # Where each object may be laid again (1, 5): a place of its kind (what lies where is
        # the form's own to say, each on a place of its own).
        "arrange_places": {
            i["id"]: [
                p
                for p in free_item_slots(state, s)
                if kind_problem(state, s, state.item(i["id"]).key, p, i["id"]) is None
                and not (p in PACK and i.get("effect") == "backpack")  # not in itself
                and p not in s.wounds  # wounds and infections stay where they are (11)
                and p not in s.infections
            ]
            for i in own_items
        },
        # Each object an action may use now, with what it asks (`turn.usable`).
        "uses": [
            i | use_fields(state, s, i["id"])
            for i in own_items
            if not i.get("weapon") and turn.usable(state, s, i["id"])
        ],
        "empty_weapons": [i for i in own_items if i.get("weapon") and i.get("empty")],
        "token_places": [{"slot": p, "title": slot_title(state, p)} for p in token_places(state, s)]
        if s.playing
        else [],
        "wound_places": placement_places(state)
        if state.placements and state.placements[0].placer == s.id
        else [],
        "placement": state.placements[0].model_dump()
        | {
            "survivor_name": state.survivor(state.placements[0].survivor).name,
            "markers": combat.markers_to_place(state, state.placements[0]),
        }
        if state.placements and state.placements[0].placer == s.id
        else None,
        "placed_tokens": [
            {"slot": t.slot, "face": t.face, "title": slot_title(state, t.slot)}
            for t in s.tokens
            if t.slot is not None
        ],
        # Where a placed token may be laid again (9.1): a cell no wound or infection covers,
        # the sneakers worn, beside the sheet only when no cell is left.
        "token_cells": [{"slot": p, "title": slot_title(state, p)} for p in token_cells(state, s)],
        "marked_slots": [
            {"slot": w, "title": slot_title(state, w), "what": what}
            for what, marks in (("wound", s.wounds), ("infection", s.infections))
            for w in marks
            if not w.startswith("bandage:")
        ],
        "wounded_slots": [
            {"slot": w, "title": slot_title(state, w)}
            for w in s.wounds
            if not w.startswith("bandage:")
        ],
        "free_bandage": bool(turn.free_bandages(state, s)),
        "my_turn": state.phase == "players"
        and state.turn == s.id
        and not state.fight
        and not state.placements
        and not state.declared
        and not state.exchange,
        "in_exchange": s.id in state.exchange,
        "partner": next((state.survivor(p).name for p in state.exchange if p != s.id), None),
        "fight_stage": w[1] if (w := combat.waiting(state)) and w[0] == s.id else None,
        "aim_decision": turn.aimer_decides(state, s),
        "aimed_target": state.declared.survivor if state.declared else None,
        "aimed_name": state.survivor(state.declared.survivor).name if state.declared else None,
        "aimed_by": [o.name for o in state.playing() if o.aiming == s.id],
        "endure_needs_slot": not any(t.slot is not None and t.face == "action" for t in s.tokens)
        and bool(s.free_tokens()),
        "go_on_decision": bool(
            state.declared
            and (state.declared.attacked or state.declared.ready)
            and state.declared.survivor == s.id
            and turn.declared_waits(state)
        ),
        "may_stop": bool(state.declared and state.declared.attacked),
        "may_recover": bool(
            state.zombies
            and state.zombies.spawned
            and fight_over(state)  # `zombies.phase`: a zombie attack is fought first
            and s.playing
            and s.id not in state.zombies.recovered
        ),
        "fatigue_placed": any(t.slot is not None and t.face == "fatigue" for t in s.tokens),
        "others": [{"id": o.id, "name": o.name} for o in state.playing() if o.id != s.id],
        # 11, Viser: the marker down, it moves for free on one's turn to another survivor.
        "retargets": [
            {"id": o.id, "name": o.name}
            for o in state.playing()
            if s.aiming is not None and o.id not in (s.id, s.aiming)
        ],
        # What a token found may go on (11, Fouille): a place of its kind, not covered by a
        # wound or a token (an object there makes room), or back face down.
        "searchables": sorted(
            [
                {"key": key, "name": name, "allows": ["back", *search_places(state, s, key)]}
                for key, name in [(w.key, w.name) for w in state.box.weapons]
                + [(t.key, t.name) for t in state.box.things]
            ],
            key=lambda e: str(e["name"]).casefold(),
        ),
        # What each object may go on in the partner's sheet, during an exchange (`on_give`).
        "give_allows": {
            i["id"]: [p for p in GIVE_PLACES if place_problem(state, partner, i["id"], p) is None]
            for i in own_items
        }
        if (partner := exchange_partner(state, s)) is not None
        else {},
        "free_slots": [
            {"slot": p, "title": slot_title(state, p)} for p in free_item_slots(state, s)
        ],
        "can_leave": may_leave_now(state, s),
        "may_claim": may_claim(s),
    }
    return {"me": mine}


GIVE_PLACES = (
    *HANDS, "hands", *CELLS, "outfit", "backpack", "b1", "b2", "satchel", "passport"
)  # fmt: skip


def search_places(state: TMState, s: Survivor, key: str) -> list[str]:
    return [
        p
        for p in free_item_slots(state, s)
        if kind_problem(state, s, key, p) is None
        and p not in s.wounds
        and p not in s.infections
        and not any(t.slot == p for t in s.tokens)
    ]


def token_cells(state: TMState, s: Survivor) -> list[str]:
    cells = [c for c in CELLS if c not in s.wounds and c not in s.infections]
    sneakers = ["sneakers"] if wearing(state, s, "sneakers") is not None else []
    return cells + sneakers or ["aside"]


def use_fields(state: TMState, s: Survivor, item: int) -> dict[str, Any]:
    """What using this object asks: the weapon Munitions reload, or whom and what a Trousse de
    soin treats (one choice each, as `forms.from_form` reads it back)."""
    thing = thing_of(state, item)
    if thing is not None and thing.effect == "ammo":
        weapons = [
            {"id": w, "name": state.box.name_of(state.item(w).key)}
            for w in turn.reloadable(state, s)
        ]
        return {"weapons": weapons}
    if thing is not None and thing.effect == "medkit":
        treats = []
        for who, what, at in turn.treatable(state, s):
            name = Msg(N_("myself")) if who == s.id else state.survivor(who).name
            said = Msg(N_("a wound") if what == "wound" else N_("an infection"))
            where = f" · {slot_title(state, at)}" if at else ""
            title = Msg(N_("{whom}: {what}"), {"whom": name, "what": said}).render() + where
            treats.append({"value": f"{who}|{what}|{at or ''}", "title": title})
        return {"treats": treats}
    return {}


def exchange_partner(state: TMState, s: Survivor) -> Survivor | None:
    if s.id not in state.exchange:
        return None
    return state.survivor(next(p for p in state.exchange if p != s.id))


def placement_places(state: TMState) -> list[dict[str, str]]:
    """Where the wounds waiting may go, the free places first: what is held falls only when its
    place is chosen."""
    wounded = state.survivor(state.placements[0].survivor)
    places = sorted(wound_places(wounded), key=lambda p: wounded.item_in(p) is not None)
    return [{"slot": p, "title": slot_title(state, p)} for p in places]


def free_item_slots(state: TMState, s: Survivor) -> list[str]:
    slots = [h for h in HANDS] + ["hands"] + list(CELLS) + ["outfit", "backpack", "passport"]
    if wearing(state, s, "backpack") is not None:
        slots += ["b1", "b2"]
    if wearing(state, s, "satchel") is not None:
        slots.append("satchel")
    return slots


def setup_part(state: TMState, viewer: Viewer, now: datetime) -> dict[str, Any] | None:
    """The staff's setup: who plays which passport, the décor placed (all public at the table)."""
    if state.phase != "setup":
        return None
    return {
        "setup": [
            {
                "id": s.id,
                "name": s.name,
                "passport": s.passport,
                "passport_name": passport.name
                if (passport := state.box.passport(s.passport or ""))
                else None,
                "decor": s.decor,
            }
            for s in state.survivors.values()
        ],
        # A passport another survivor plays is not offered (`on_passport`).
        "passports_given": [s.passport for s in state.survivors.values() if s.passport],
    }


# The table for all (hidden places face down); a survivor's own sheet, objectives and points for
# its player alone; the staff run the setup and the zombie phase but read no secret.
PARTS: tuple[Part[TMState], ...] = (
    Part("board", "game", board_part),
    Part("setup", "staff", setup_part),
    Part("me", "person", me_part),
)


def log_view(event: LoggedEvent, viewer: Viewer) -> dict[str, Any] | None:
    """The journal: summaries for everyone (they never name a hidden token), the dice without the
    secret ones (shuffles, starting tokens), never the commands (a search names what was found).
    An objective noted is its player's alone."""
    mine = event.actor_id is not None and event.actor_id == viewer.person_id
    if event.type == "command" and event.command.get("type") == "claim" and not mine:
        return None
    return sentences_only(event, viewer)


# How the journal names each die (the purposes are stored in English, with the survivor's name).
ROLL_LABELS: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern), words)
    for pattern, words in (
        (r"^(?P<name>.+): attack die$", N_("attack die of {name}")),
        (r"^(?P<name>.+): attack, cell die$", N_("extra attack die of {name} (free cell)")),
        (r"^(?P<name>.+): die rolled again$", N_("die rolled again by {name}")),
        (r"^(?P<name>.+): defence die (?P<n>\d+)$", N_("defence die {n} of {name}")),
        (r"^(?P<name>.+): defence, cell die$", N_("extra defence die of {name} (free cell)")),
        (r"^(?P<name>.+): limit of (?P<item>.+)$", N_("green die of {name} for {item}")),
        (r"^(?P<name>.+): infection$", N_("infection die of {name}")),
        (r"^Community of (?P<name>.+)$", N_("Community direction of {name}")),
        (r"^passport of (?P<name>.+)$", N_("passport drawn for {name}")),
        (r"^zombie (?P<n>\d)$", N_("zombie {n} at the start")),
        (r"^zombie spawn (?P<n>\d)$", N_("zombie spawn {n}")),
        (r"^zombie spawn (?P<n>\d), again \d+$", N_("zombie spawn {n}, rolled again")),
        (r"^table die (?P<n>\d+)$", N_("table die {n}")),
        (r"^first player$", N_("first player")),
        (r"^spare sheet$", N_("spare sheet drawn")),
    )
)


def roll_label(purpose: str) -> Msg | str | None:
    """A die in the reader's words; a shuffle or a starting token drawn: nobody's to read."""
    for pattern, words in ROLL_LABELS:
        found = pattern.match(purpose)
        if found:
            return Msg(words, found.groupdict())
    return None


def template_globals() -> dict[str, Any]:
    return {
        "tm_colours": COLOUR_TITLES,
        "tm_slots": SLOT_TITLES,
        "tm_sides": SIDES,
        "tm_give_places": GIVE_PLACES,
    }


def final_lines(state: TMState, s: Survivor) -> dict[str, Any]:
    """A survivor's score at the end, line by line (13.1 resources, 13.2 objectives met, 13.3
    the others' deaths), and whether they saved their community (14)."""
    counted = points(state, s)
    return {
        "name": s.name,
        "total": counted["total"],
        "resources": counted["resources"],
        "objectives": sum(line["points"] for line in counted["objectives"]),
        "deaths": counted["deaths"],
        "saved": s.id in state.winners,
        "dead": s.dead,
    }


# What the game may wait for from a survivor (`me_part`), each with its controls on their page.
YOUR_MOVES = (
    "placement",
    "fight_stage",
    "aim_decision",
    "go_on_decision",
    "in_exchange",
    "my_turn",
    "may_recover",
)


def now(view: Mapping[str, Any], viewer: Viewer) -> Now:
    """The round and what the game waits for, and what this survivor or the organizer does."""
    phase, me, staff = view["phase"], view.get("me"), viewer.is_staff
    at_table = staff or bool(me and me["at_table"])
    if phase == "setup":
        where = Msg(N_("Before the deal"))
        if staff:
            return Now(
                where,
                Msg(N_("Give out passports and decor, or leave them to chance, then deal.")),
                yours=True,
            )
        return Now(
            where,
            Msg(N_("Wait for the deal: your objectives and starting tokens will show here."))
            if me
            else None,
        )
    if phase == "preparing":
        where = Msg(N_("Setting the table: each survivor keeps two starting tokens"))
        if me is not None and not me["kept"]:
            return Now(
                where,
                Msg(N_("Your turn: keep two starting tokens.")),
                yours=True,
            )
        if staff:
            return Now(
                where,
                Msg(
                    N_(
                        "Set the table as listed below; the first round begins once every survivor has kept their tokens."
                    )
                ),
            )
        return Now(where, Msg(N_("Wait: the others keep their tokens.")) if me else None)
    if phase == "finished":
        winners = view["winners"]
        where = (
            Msg(N_("The game is over: {names} saved their community."), {"names": listed(winners)})
            if winners
            else Msg(N_("The game is over: nobody saved their community."))
        )
        return Now(where, Msg(NOTHING_LEFT) if staff or me is not None else None)
    waiting = view.get("waiting")
    if phase == "zombies" and not (waiting and waiting["person"] is not None):
        # What the table does now, said as the zombie panel says it (anyone at it may roll).
        said = Msg(str(waiting["what"]) if waiting else WATCH)
        where = Msg(N_("Round {n} · the zombies"), {"n": view["round"]})
        if me is not None and me["may_recover"]:
            return Now(where, Msg(N_("Your turn: take your tokens back.")), yours=True)
        spawned = (view.get("zombie_phase") or {}).get("spawned")
        if at_table and not spawned and view.get("fight_over"):
            said = Msg(N_("Yours, or anyone's at the table. {what}"), {"what": said})
            return Now(where, said, yours=True, to="tm-zombies-title")
        if not at_table:
            return Now(where)
        return Now(where, Msg(N_("Wait. {what}"), {"what": said}))
    if waiting is None:
        return Now(
            Msg(N_("Round {n} · the survivors"), {"n": view["round"]}),
            Msg(WATCH) if at_table else None,
        )
    where = Msg(
        N_("Round {n} · {name} {what}"),
        {"n": view["round"], "name": waiting["name"], "what": waiting["what"]},
    )
    if me is not None:
        if any(me.get(key) for key in YOUR_MOVES):
            return Now(where, Msg(N_("Your turn.")), yours=True)
        return Now(where, Msg(N_("Wait: {name} plays."), {"name": waiting["name"]}))
    if staff:
        return Now(where, Msg(N_("The survivors play on their phones: nothing to enter.")))
    return Now(where)
