"""The survivor's sheet (1, 5, 6): what may go where, what a free cell gives, tokens, wounds and
what falls when a wound covers an object. Pure: functions of the state, raising RuleError."""

from __future__ import annotations

from server.errors import RuleError
from server.games.trust_me.catalog import ON_PASSPORT, OUTFITS, Skill, Thing, Weapon
from server.games.trust_me.state import CELLS, HANDS, PACK, WOUND_SLOTS, Face, Survivor, TMState
from server.i18n import N_, Msg

DEATH_AT = 3  # 6: "Un survivant décède lorsqu'il reçoit sa troisième blessure."


PLACE_NAMES = {
    "left": N_("the left hand"),
    "right": N_("the right hand"),
    "hands": N_("both hands"),
    "outfit": N_("the outfit"),
    "backpack": N_("the backpack"),
    "b1": N_("the backpack's first cell"),
    "b2": N_("the backpack's second cell"),
    "satchel": N_("the satchel"),
    "passport": N_("the passport"),
    "sneakers": N_("the sneakers"),
}


def place_name(slot: str) -> Msg:
    """A place of the sheet in words, for a message: "cell 4", "the left hand"."""
    if slot in CELLS:
        return Msg(N_("cell {n}"), {"n": CELLS.index(slot) + 1})
    return Msg(PLACE_NAMES.get(slot, slot))


def cell_of(state: TMState, skill: Skill) -> str | None:
    """The cell that gives this skill while free (the box's order of the nine cells)."""
    for index, cell in enumerate(state.box.cells):
        if cell.skill == skill:
            return CELLS[index]
    return None


def hidden_slots(state: TMState) -> set[str]:
    """1: "Un objet placé ici est obligatoirement face caché" (the "?" cell); 5: the backpack's
    and the satchel's tokens "obligatoirement face cachée"."""
    return {cell_of(state, "hidden") or "", *PACK, "satchel"} - {""}


def occupant(s: Survivor, slot: str) -> str | None:
    """What covers a place: an item, a wound, an infection or a token."""
    if s.item_in(slot) is not None:
        return "item"
    if slot in s.wounds:
        return "wound"
    if slot in s.infections:
        return "infection"
    if any(t.slot == slot for t in s.tokens):
        return "token"
    return None


def has_skill(state: TMState, s: Survivor, skill: Skill) -> bool:
    """1: "Tant qu'une case est libre, votre survivant profite du bonus écrit"."""
    cell = cell_of(state, skill)
    return cell is not None and occupant(s, cell) is None


def weapon_of(state: TMState, item: int) -> Weapon | None:
    return state.box.weapon(state.item(item).key)


def thing_of(state: TMState, item: int) -> Thing | None:
    return state.box.thing(state.item(item).key)


def wearing(state: TMState, s: Survivor, effect: str) -> int | None:
    """The item of this effect laid where it works: an outfit, a backpack, on the passport."""
    for item, slot in s.items.items():
        thing = thing_of(state, int(item))
        if thing and thing.effect == effect and slot in ("outfit", "backpack", "passport"):
            return int(item)
    return None


def place_problem(state: TMState, s: Survivor, item: int, slot: str) -> Msg | None:
    """Why this item may not go there, or None (1, 5)."""
    key = state.item(item).key
    return kind_problem(state, s, key, slot, item) or taken_problem(s, slot, item)


def kind_problem(
    state: TMState, s: Survivor, key: str, slot: str, item: int | None = None
) -> Msg | None:
    """Why an object of this key may not go there, whatever lies there now (1, 5): a place of
    its own kind, and hands free for a two-handed weapon (`item`: the one being moved)."""
    thing, weapon = state.box.thing(key), state.box.weapon(key)
    if slot == "hands":
        if not (weapon and weapon.two_handed):
            return Msg(N_("Only a two-handed weapon is held in both hands."))
        busy = [h for h in HANDS if occupant(s, h) and (item is None or s.item_in(h) != item)]
        return Msg(N_("Both hands must be free.")) if busy else None
    if slot == "outfit" and not (thing and thing.effect in OUTFITS):
        return Msg(N_("Only an outfit goes on the Outfit place."))
    if slot == "backpack" and not (thing and thing.effect == "backpack"):
        return Msg(N_("Only a backpack goes on the Bag place."))
    if slot == "passport":
        if not (thing and thing.effect in ON_PASSPORT):
            return Msg(N_("Only a bandage or a lucky charm is laid on the passport."))
        return None
    if slot in PACK and wearing(state, s, "backpack") is None:
        return Msg(N_("There is no backpack to put it in."))
    if slot == "satchel" and wearing(state, s, "satchel") is None:
        return Msg(N_("There is no satchel to put it on."))
    return None


def taken_problem(s: Survivor, slot: str, item: int | None = None) -> Msg | None:
    """A place held by another object, or covered by a wound, an infection or a token (the
    passport holds several; both hands are judged by `kind_problem`)."""
    if slot in ("passport", "hands"):
        return None
    holder = s.item_in(slot)
    if (holder is not None and holder != item) or (
        slot in s.wounds or slot in s.infections or any(t.slot == slot for t in s.tokens)
    ):
        return Msg(N_("This place is taken."))
    return None


def put(state: TMState, s: Survivor, item: int, slot: str) -> None:
    problem = place_problem(state, s, item, slot)
    if problem is not None:
        raise RuleError(problem.text, field="slot", **problem.params)
    s.items[str(item)] = slot


def fall(state: TMState, s: Survivor, item: int) -> list[int]:
    """An item to the ground (5, 6): a backpack takes what is in it, a satchel what is on it."""
    slot = s.items.pop(str(item), None)
    fell = [item]
    thing = thing_of(state, item)
    if thing and slot in ("backpack", "outfit") and thing.effect in ("backpack", "satchel"):
        inside = PACK if thing.effect == "backpack" else ("satchel",)
        for other, where in list(s.items.items()):
            if where in inside:
                fell += fall(state, s, int(other))
    return fell


def wound_places(s: Survivor) -> list[str]:
    """6: « l'une des deux cases mains ou [...] l'une des neuf cases de l'inventaire », one
    marker a place: not one a wound or an infection already covers. An object there falls; an
    Action or Fatigue token there stays, and is taken back as any other (the book bars neither)."""
    return [slot for slot in WOUND_SLOTS if occupant(s, slot) in (None, "item", "token")]


def mark(state: TMState, s: Survivor, slot: str, marker: str) -> list[int]:
    """A wound or an infection put on a place: an object there falls (6), a two-handed weapon
    held in both hands too (4); the third wound kills (6). What fell, by item id."""
    if slot not in wound_places(s):
        raise RuleError(
            N_("A wound goes on a free hand or cell: not on {slot}."),
            field="slots",
            slot=place_name(slot),
        )
    fell: list[int] = []
    holder = s.item_in(slot)
    if holder is not None:
        fell = fall(state, s, holder)
    (s.wounds if marker == "wound" else s.infections).append(slot)
    if len(s.wounds) >= DEATH_AT and not s.dead:
        s.dead = True
        s.aiming = None
    return fell


def token_places(state: TMState, s: Survivor) -> list[str]:
    """9.1: a free cell of the nine; on the sneakers (5); beside the sheet when nothing is free
    (the book does not say: Arbitre's reading, docs/readings.md)."""
    places = [c for c in CELLS if occupant(s, c) is None]
    if wearing(state, s, "sneakers") is not None and not any(
        t.slot == "sneakers" for t in s.tokens
    ):
        places.append("sneakers")
    return places or ["aside"]


def place_token(state: TMState, s: Survivor, slot: str, face: Face) -> None:
    """9.1: one token, on the face the action asks, on a place it may go."""
    free = s.free_tokens()
    if not free:
        raise RuleError(N_("{name} has no token left to place this round."), name=s.name)
    if slot not in token_places(state, s):
        raise RuleError(
            N_("A token goes on a free cell: {slot} is covered."),
            field="slot",
            slot=place_name(slot),
        )
    token = s.tokens[free[0]]
    token.slot, token.face = slot, face


def fatigue_for(state: TMState, s: Survivor, slot: str | None) -> None:
    """10.4: "on récupère l'une des actions qui se trouve dans son inventaire et on la retourne
    sur la face Fatigue. Si aucun pion Action [...], on prend l'un des pions qui n'est pas encore
    posé" (placed where the defender says)."""
    placed = [t for t in s.tokens if t.slot is not None and t.face == "action"]
    if placed:
        placed[0].face = "fatigue"
        return
    free = s.free_tokens()
    if not free:
        return  # every token already Fatigue: nothing left to turn
    places = token_places(state, s)
    where = slot if slot in places else None
    if where is None:
        raise RuleError(N_("Choose where the Fatigue token goes."), field="slot")
    s.tokens[free[0]].slot, s.tokens[free[0]].face = where, "fatigue"


def resources_held(state: TMState, s: Survivor) -> dict[str, int]:
    """13.1: the resource tokens on the sheet, by resource (a special resource is none)."""
    held: dict[str, int] = {}
    for item in s.items:
        thing = thing_of(state, int(item))
        if thing and thing.effect == "resource":
            held[thing.key] = held.get(thing.key, 0) + 1
    return held
