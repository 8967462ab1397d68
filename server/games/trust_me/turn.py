"""A player's turn (9) and the actions (11): the active player puts one token on their sheet while
declaring the action (9.1); if someone aims at them, that player fires first or holds (9.2, 6);
then the action is done (9.3). Free things (dropping, a bandage) take no token.

The distances and lines of sight stay on the table: Arbitre says what the sheet allows (5 or 10
cm, +5 while the "Déplacement" cell is free) and keeps what changes on the sheets."""

from __future__ import annotations

from contextlib import suppress
from typing import Any

from server.errors import NotAllowed, RuleError
from server.games.trust_me import combat
from server.games.trust_me.catalog import SIDES
from server.games.trust_me.commands import (
    ACTIONS,
    Arrange,
    Bandage,
    Drop,
    EndExchange,
    Give,
    Retarget,
    Roll,
    Search,
    SurvivorAct,
    SurvivorAttack,
    Use,
)
from server.games.trust_me.setup import new_item
from server.games.trust_me.sheet import (
    fall,
    has_skill,
    hidden_slots,
    place_name,
    place_problem,
    place_token,
    put,
    thing_of,
    token_places,
    weapon_of,
)
from server.games.trust_me.state import Declared, Face, Survivor, TMState
from server.games.trust_me.table import advance, at_the_table, check_free, own
from server.i18n import N_, P_, Msg, joined
from server.platform.kinds import Applied, Context

MOVE_CM, RUN_CM, MORE_CM, NOISE_CM = 5, 10, 5, 20  # 11: Déplacement, Course, the cell, diversion
ACTION_WORDS = {
    "move": N_("a move"),
    "run": N_("a run"),
    "diversion": N_("a diversion"),
    "nothing": N_("doing nothing"),
    "rest": N_("a rest"),
    "aim": N_("aiming at a survivor"),
    "exchange": N_("an exchange"),
    "search": N_("a search"),
    "arrange": N_("a rearrangement"),
    "use": N_("using an object"),
    "attack": N_("an attack"),
}


class DryRun(Exception):
    """Raised by `NoDice` at the first die: every check of an action comes before its dice."""


class NoDice:
    def roll(
        self, sides: int, purpose: str, *, owner: str | None = None, secret: bool = False
    ) -> int:
        raise DryRun


class FirstDie(NoDice):
    """`NoDice` that keeps whose the first die is: the dice an action rolls are its actor's."""

    owner: str | None = None

    def roll(
        self, sides: int, purpose: str, *, owner: str | None = None, secret: bool = False
    ) -> int:
        self.owner = owner
        raise DryRun


def active(state: TMState, ctx: Context) -> Survivor:
    """9: the survivor whose token it is, acting from their player's phone."""
    if state.phase != "players" or state.turn is None:
        raise RuleError(N_("No survivor is playing a token now."))
    check_free(state)
    if state.exchange:
        raise RuleError(N_("An exchange is in progress: end it first."))
    s = state.survivor(state.turn)
    if ctx.actor.person_id != s.id:
        raise NotAllowed(N_("It is {name}'s turn: they act on their own phone."), name=s.name)
    return s


def action_of(c: Any) -> str:
    return c.action if isinstance(c, SurvivorAct) else c.type


def declare(
    state: TMState, c: SurvivorAct | Search | Use | Arrange | SurvivorAttack, ctx: Context
) -> Applied:
    """9.1, 9.2: the token placed with the action declared; an aimer may fire before it is done."""
    s = active(state, ctx)
    assert c.slot is not None
    face: Face = (
        "fatigue" if isinstance(c, SurvivorAct) and c.action == "run" else "action"
    )  # 11: Course
    aimers = [o.id for o in state.playing() if o.aiming == s.id and o.id != s.id]
    if not aimers:
        place_token(state, s, c.slot, face)
        return Applied(joined([token_said(s, c), perform(state, s, c, ctx)]))
    trial = state.model_copy(deep=True)  # the action checked now: a wrong one is refused at once
    place_token(trial, trial.survivor(s.id), c.slot, face)
    with suppress(DryRun):
        perform(trial, trial.survivor(s.id), c, Context(ctx.actor, NoDice(), ctx.now))
    place_token(state, s, c.slot, face)
    state.declared = Declared(
        survivor=s.id, aimers=aimers, command=c.model_dump(), action=action_of(c)
    )
    aimer = state.survivor(aimers[0]).name
    return Applied(
        joined(
            [
                token_said(s, c),
                Msg(
                    N_("{aimer} aims at {name}: attack first, or let them act?"),
                    {"aimer": aimer, "name": s.name},
                ),
            ]
        )
    )


def token_said(s: Survivor, c: Any) -> Msg:
    return Msg(
        N_("{name} declares {action}."), {"name": s.name, "action": Msg(ACTION_WORDS[action_of(c)])}
    )


def perform(state: TMState, s: Survivor, c: Any, ctx: Context) -> Msg:
    """9.3: the action done, its token already on the sheet."""
    if isinstance(c, SurvivorAttack):
        return combat.start_attack(state, s, c, ctx, from_aim=False)
    state.acted = True
    if isinstance(c, Search):
        return search(state, s, c, ctx)
    if isinstance(c, Use):
        return use(state, s, c, ctx)
    if isinstance(c, Arrange):
        return arrange(state, s, c)
    return act(state, s, c)


def act(state: TMState, s: Survivor, c: SurvivorAct) -> Msg:
    more = MORE_CM if has_skill(state, s, "move") else 0
    if c.action in ("move", "run"):
        cm = (MOVE_CM if c.action == "move" else RUN_CM) + more
        if c.action == "move":
            return Msg(N_("{name} moves up to {cm} cm."), {"name": s.name, "cm": cm})
        return Msg(
            N_("{name} runs up to {cm} cm, then puts their Noise marker down."),
            {"name": s.name, "cm": cm},
        )
    if c.action == "diversion":
        return Msg(
            N_("{name} puts their Noise marker up to {cm} cm away."),
            {"name": s.name, "cm": NOISE_CM},
        )
    if c.action == "rest":  # 11: "Retournez l'un de vos pions Fatigue sur sa face Action"
        tired = [i for i, t in enumerate(s.tokens) if t.slot is not None and t.face == "fatigue"]
        if not tired:
            raise RuleError(
                N_("{name} has no Fatigue token to turn back."), field="action", name=s.name
            )
        index = c.fatigue if c.fatigue in tired else tired[0]
        s.tokens[index].face = "action"
        return Msg(N_("{name} rests: a Fatigue token turns back to Action."), {"name": s.name})
    if c.action in ("aim", "exchange"):
        other = combat.playing(state, c.target, "target")
        if other.id == s.id:
            raise RuleError(N_("Choose another survivor."), field="target")
        if c.action == "aim":  # 11, Viser: the "Cible" marker beside them
            s.aiming = other.id
            return Msg(N_("{name} aims at {target}."), {"name": s.name, "target": other.name})
        state.exchange = [s.id, other.id]  # 11, Échange: 5 cm or less, the table checks
        return Msg(
            N_("{name} and {target} exchange objects."), {"name": s.name, "target": other.name}
        )
    return Msg(N_("{name} does nothing."), {"name": s.name})


def search(state: TMState, s: Survivor, c: Search, ctx: Context) -> Msg:
    """11, Fouille: "Regardez discrètement ce pion et placez-le au choix sur votre fiche [...] ou
    replacez-le face cachée"; a place already holding an object: that one goes to an empty place
    of the sheet or face down to the ground. 5, Vide: discarded once revealed."""
    if state.box.weapon(c.found) is None and state.box.thing(c.found) is None:
        raise RuleError(N_("Say which weapon or object the token is."), field="found")
    if c.to == "back":
        return Msg(N_("{name} searches and puts the token back face down."), {"name": s.name})
    item = new_item(state, c.found)
    there = s.item_in(c.to) if c.to not in ("passport", "hands") else None
    if c.to == "hands":
        there = next((i for h in ("left", "right") if (i := s.item_in(h)) is not None), None)
    if there is not None:
        s.items.pop(str(there))
        if c.displaced is not None:
            put(state, s, there, c.displaced)
        else:
            state.items.pop(str(there), None)  # face down on the ground
    put(state, s, item, c.to)
    state.search_tokens = max(0, state.search_tokens - 1)
    thing = thing_of(state, item)
    name = state.box.name_of(c.found)
    if c.to in hidden_slots(state):
        return Msg(N_("{name} searches and keeps a token face down."), {"name": s.name})
    if thing is not None and thing.effect == "empty":
        del s.items[str(item)], state.items[str(item)]
        return Msg(N_("{name} searches: an empty token, discarded."), {"name": s.name})
    return Msg(N_("{name} searches and takes {item}."), {"name": s.name, "item": name})


USED_BY_AN_ACTION = ("ammo", "flare", "medkit", "guide")  # 5


def reloadable(state: TMState, s: Survivor) -> list[int]:
    """The empty ranged weapons of a survivor's sheet: what Munitions reload (5)."""
    return [
        int(i)
        for i in s.items
        if (w := weapon_of(state, int(i))) and w.category == "ranged" and state.item(int(i)).empty
    ]


def treatable(state: TMState, s: Survivor) -> list[tuple[int, str, str | None]]:
    """What a Trousse de soin may take off (5): on oneself, each wound or infection by its
    place; on another survivor in play, their last wound or infection."""
    found: list[tuple[int, str, str | None]] = [
        (s.id, what, place)
        for what, marks in (("wound", s.wounds), ("infection", s.infections))
        for place in marks
        if not place.startswith("bandage:")
    ]
    for other in state.playing():
        if other.id != s.id:
            found += [(other.id, "wound", None)] if other.wounds else []
            found += [(other.id, "infection", None)] if other.infections else []
    return found


def usable(state: TMState, s: Survivor, item: int) -> bool:
    """Whether an object of the sheet may be used by an action now (`use`)."""
    thing = thing_of(state, item)
    if thing is None or thing.effect not in USED_BY_AN_ACTION:
        return False
    if thing.effect == "ammo":
        return bool(reloadable(state, s))
    if thing.effect == "medkit":
        return bool(treatable(state, s))
    if thing.effect == "guide":
        return bool(state.objective_deck)
    return True


def use(state: TMState, s: Survivor, c: Use, ctx: Context) -> Msg:
    """5: Munitions, Fusée, Trousse de Soin, Guide de Survie, each for an action; then the green
    die against the object's limit, or its single use (4)."""
    thing = thing_of(state, c.item) if s.slot_of(c.item) is not None else None
    if thing is None:
        raise RuleError(N_("Use an object on your sheet."), field="item")
    said: list[Msg] = []
    if thing.effect == "ammo":
        weapon = (
            weapon_of(state, c.weapon) if c.weapon is not None and s.slot_of(c.weapon) else None
        )
        if (
            weapon is None
            or weapon.category != "ranged"
            or c.weapon is None
            or not state.item(c.weapon).empty
        ):
            raise RuleError(N_("Choose one of your empty ranged weapons."), field="weapon")
        state.item(c.weapon).empty = False
        said.append(Msg(N_("{name} reloads {weapon}."), {"name": s.name, "weapon": weapon.name}))
    elif thing.effect == "flare":
        state.racket = "racket"
        said.append(
            Msg(
                N_("{name} fires a flare: their Community token moves; a racket."), {"name": s.name}
            )
        )
    elif thing.effect == "medkit":
        other = combat.playing(state, c.survivor or s.id, "survivor")
        marks = other.wounds if c.remove == "wound" else other.infections
        if not marks:
            raise RuleError(
                N_("{name} has nothing of that kind to take off."), field="remove", name=other.name
            )
        if c.at is not None and c.at not in marks:  # 5: "enlevez 1 pion Blessure ou Infection"
            raise RuleError(
                N_("Nothing of that kind lies on {slot}."), field="at", slot=place_name(c.at)
            )
        if c.at is not None:
            marks.remove(c.at)
        else:
            marks.pop()
        said.append(
            Msg(
                N_("{name} treats {target}: one {what} off."),
                {"name": s.name, "target": other.name, "what": Msg(N_(c.remove))},
            )
        )
    elif thing.effect == "guide":
        if not state.objective_deck:
            raise RuleError(N_("No objective card is left to draw."), field="item")
        s.objectives.append(state.objective_deck.pop(0))
        said.append(Msg(N_("{name} reads a survival guide: one more objective."), {"name": s.name}))
    else:
        raise RuleError(N_("{object} is not used by an action."), field="item", object=thing.name)
    said += combat.object_used(state, s, c.item, ctx)
    return joined(said)


def arrange(state: TMState, s: Survivor, c: Arrange) -> Msg:
    """11, Réorganisation: "Récupérez tous vos pions Objet, Action et Fatigue et redisposez-les
    comme vous le souhaitez" (wounds and infections stay where they are)."""
    listed = [p.item for p in c.items]
    if sorted(listed) != sorted(int(i) for i in s.items) or len(set(listed)) != len(listed):
        raise RuleError(N_("Lay out every object of your sheet, each once."), field="items")
    # The tokens placed before this action (the one paying for it stays where it was put).
    placed = [t for t in s.tokens if t.slot is not None and (c.slot is None or t.slot != c.slot)]
    if c.tokens and len(c.tokens) != len(placed):
        raise RuleError.counted(
            P_(
                "Say where your {count} placed token goes.",
                "Say where each of your {count} placed tokens goes.",
            ),
            "count",
            field="tokens",
            count=len(placed),
        )
    # Everything picked up first, then laid out again: an object may go where a token lay.
    if c.tokens:
        for token in placed:
            token.slot = None
    s.items.clear()
    order = sorted(c.items, key=lambda p: p.slot not in ("outfit", "backpack"))  # bags first
    for place in order:
        put(state, s, place.item, place.slot)
    if c.tokens:
        for token, where in zip(placed, c.tokens, strict=True):
            if where is None or where not in token_places(state, s):
                raise RuleError(
                    N_("A token goes on a free cell: {slot} is covered."),
                    field="tokens",
                    slot=place_name(where) if where else "—",
                )
            token.slot = where
    return Msg(N_("{name} rearranges their sheet."), {"name": s.name})


def on_action(state: TMState, c: Any, ctx: Context) -> Applied:
    if isinstance(c, Arrange) and c.slot is None:
        return free_arrange(state, c, ctx)
    if isinstance(c, SurvivorAttack) and c.slot is None:
        return fire_from_aim(state, c, ctx)
    return declare(state, c, ctx)


def free_arrange(state: TMState, c: Arrange, ctx: Context) -> Applied:
    """11, Échange: "Les deux joueurs obtiennent une action de Réorganisation gratuite"."""
    s = own(state, ctx)
    if s.id not in state.exchange:
        raise RuleError(
            N_("A rearrangement costs a token, except during an exchange."), field="slot"
        )
    return Applied(arrange(state, s, c))


def fire_from_aim(state: TMState, c: SurvivorAttack, ctx: Context) -> Applied:
    """6: "le joueur possédant le marqueur peut enlever ce dernier pour attaquer immédiatement la
    cible"."""
    declared = state.declared
    if declared is None or declared.attacked or not declared_waits(state):
        raise RuleError(
            N_("Attack from the aim marker when the survivor aimed at declares an action."),
            field="slot",
        )
    if declared.aimer is None or ctx.actor.person_id != declared.aimer:
        raise NotAllowed(N_("Only the survivor aiming decides this."))
    if c.target != declared.survivor:
        raise RuleError(N_("The aim marker fires at the survivor it is beside."), field="target")
    s = state.survivor(declared.aimers.pop(0))
    return Applied(combat.start_attack(state, s, c, ctx, from_aim=True))


def declared_waits(state: TMState) -> bool:
    """A declared action waits for an answer (9.2, 6): once no fight and no wound is pending."""
    return state.declared is not None and state.fight is None and not state.placements


def aimer_decides(state: TMState, s: Survivor) -> bool:
    """It is this survivor's turn, as the aimer, to fire from the marker or hold (9.2, 6): not
    while the survivor aimed at, attacked, decides to go on."""
    declared = state.declared
    return (
        declared is not None
        and declared.aimer == s.id
        and not declared.attacked
        and declared_waits(state)
    )


def on_aimed(state: TMState, answer: str, ctx: Context) -> Applied:
    """9.2: the aimer holds; or, after the fight, the survivor attacked goes on or stops (6); or,
    every aimer having held, the survivor does the action that rolls their own dice (10.2)."""
    declared = state.declared
    if declared is None or not declared_waits(state):
        raise RuleError(N_("No declared action waits."))
    target = state.survivor(declared.survivor)
    if answer == "hold":
        if declared.aimer is None or ctx.actor.person_id != declared.aimer:
            raise NotAllowed(N_("Only the survivor aiming holds their fire."))
        if not aimer_decides(state, state.survivor(declared.aimer)):
            raise RuleError(N_("No declared action waits."))
        aimer = state.survivor(declared.aimers.pop(0))
        said = Msg(N_("{aimer} holds their fire."), {"aimer": aimer.name})
    elif declared.ready:
        if ctx.actor.person_id != target.id:
            raise NotAllowed(N_("{name} decides, on their own phone."), name=target.name)
        if answer == "stop":  # 9.3 « On réalise l'action »: only a fight lets them stop (6)
            raise RuleError(N_("Nobody fired: the action declared is done."), field="answer")
        declared.ready = False
        said = Msg(N_("{name} goes on."), {"name": target.name})
    else:
        if not declared.attacked or ctx.actor.person_id != target.id:
            raise NotAllowed(N_("{name} decides, on their own phone."), name=target.name)
        declared.attacked = False
        if answer == "stop" or not target.playing:
            state.declared, state.acted = None, True
            return Applied(Msg(N_("{name} stops and passes."), {"name": target.name}))
        said = Msg(N_("{name} goes on."), {"name": target.name})
    if declared.aimers and target.playing:
        nxt = state.survivor(declared.aimers[0])
        return Applied(
            joined(
                [
                    said,
                    Msg(
                        N_("{aimer} aims at {name}: attack first, or let them act?"),
                        {"aimer": nxt.name, "name": target.name},
                    ),
                ]
            )
        )
    state.declared = None
    command = ACTIONS.validate_python(declared.command)
    trial = state.model_copy(deep=True)  # what happened meanwhile may forbid it (a weapon fell)
    first = FirstDie()
    try:
        with suppress(DryRun):
            perform(trial, trial.survivor(target.id), command, Context(ctx.actor, first, ctx.now))
    except RuleError as error:
        state.acted = True  # its token stays: the action is lost
        lost = Msg(
            N_("{name}'s action can no longer be done ({why}): the token stays."),
            {"name": target.name, "why": error.msg},
        )
        return Applied(joined([said, lost]))
    if first.owner == combat.owner(target) and ctx.actor.person_id != target.id:
        declared.ready = True  # 10.2: the attacker rolls their own dice, from their own phone
        state.declared = declared
        now = Msg(
            N_("Nobody fires: {name} does {action} now, rolling their own dice."),
            {"name": target.name, "action": Msg(ACTION_WORDS[declared.action])},
        )
        return Applied(joined([said, now]))
    return Applied(joined([said, perform(state, target, command, ctx)]))


def on_drop(state: TMState, c: Drop, ctx: Context) -> Applied:
    """11, Déposer un objet (Gratuit): to the ground; a hidden one stays face down."""
    s = free_action(state, ctx)
    seen: list[str] = []
    hidden = 0
    for item in c.items:
        slot = s.slot_of(item)
        if slot is None:
            raise RuleError(N_("Drop objects of your own sheet."), field="items")
        hidden_here = {int(i) for i, where in s.items.items() if where in hidden_slots(state)}
        for fallen in fall(state, s, item):  # a bag takes what it holds: face down
            if fallen in hidden_here:
                hidden += 1
            else:
                seen.append(state.box.name_of(state.item(fallen).key))
            state.items.pop(str(fallen), None)
    names = [n for n in seen if n]
    return Applied(
        Msg(
            N_("{name} drops {items}."),
            {
                "name": s.name,
                "items": ", ".join(names + [Msg(N_("a face-down token")).render()] * hidden),
            },
        )
    )


def free_action(state: TMState, ctx: Context) -> Survivor:
    """A free thing (11, 5) on one's own turn, while nothing else waits."""
    s = own(state, ctx)
    check_free(state)
    if state.turn != s.id and s.id not in state.exchange:
        raise RuleError(N_("This is free, on your own turn."))
    return s


def on_retarget(state: TMState, c: Retarget, ctx: Context) -> Applied:
    """11, Viser: « vous pouvez gratuitement, durant votre tour, déplacer votre marqueur sur une
    autre cible valide » (issue 33, item 14): free, on one's own turn, once the marker is down."""
    s = free_action(state, ctx)
    if state.turn != s.id:
        raise RuleError(N_("This is free, on your own turn."))
    if s.aiming is None:
        raise RuleError(
            N_("Your Cible marker is not on the board: aiming costs an action (11)."),
            field="target",
        )
    other = combat.playing(state, c.target, "target")
    if other.id == s.id:
        raise RuleError(N_("Choose another survivor."), field="target")
    if other.id == s.aiming:
        raise RuleError(N_("You aim at {target} already."), field="target", target=other.name)
    s.aiming = other.id
    return Applied(
        Msg(
            N_("{name} moves their Cible marker to {target}."),
            {"name": s.name, "target": other.name},
        )
    )


def free_bandages(state: TMState, s: Survivor) -> list[int]:
    """The bandages on a survivor's passport that hold no wound yet (5, Bandage)."""
    return [
        int(i) for i, slot in s.items.items()
        if slot == "passport" and (t := thing_of(state, int(i))) and t.effect == "bandage"
        and f"bandage:{i}" not in s.wounds
    ]  # fmt: skip


def on_bandage(state: TMState, c: Bandage, ctx: Context) -> Applied:
    """5, Bandage: "Gratuitement durant votre tour, placez l'un de vos pions Blessure sur votre
    pion Bandage. Vous ne pouvez avoir qu'un seul pion Blessure par pion Bandage"."""
    s = free_action(state, ctx)
    if c.wound not in s.wounds:
        raise RuleError(N_("Choose one of your wounds."), field="wound")
    free = free_bandages(state, s)
    if not free:
        raise RuleError(N_("No bandage on your passport is free."), field="wound")
    s.wounds[s.wounds.index(c.wound)] = f"bandage:{free[0]}"
    return Applied(Msg(N_("{name} puts a wound on a bandage."), {"name": s.name}))


def on_give(state: TMState, c: Give, ctx: Context) -> Applied:
    s = own(state, ctx)
    if s.id not in state.exchange:
        raise RuleError(N_("Objects change hands during an exchange."), field="item")
    other = state.survivor(next(p for p in state.exchange if p != s.id))
    if s.slot_of(c.item) is None:
        raise RuleError(N_("Give an object of your own sheet."), field="item")
    problem = place_problem(state, other, c.item, c.to)
    if problem is not None:
        raise RuleError(problem.text, field="to", **problem.params)
    inside = {int(i): where for i, where in s.items.items()}
    moved = fall(state, s, c.item)  # a bag and what it holds (5)
    other.items[str(c.item)] = c.to
    worn = c.to in ("backpack", "outfit")
    for item in moved[1:]:  # worn by the other, the bag keeps its contents; else they go down
        if worn and place_problem(state, other, item, inside[item]) is None:
            other.items[str(item)] = inside[item]
        else:
            state.items.pop(str(item), None)
    name = state.box.name_of(state.item(c.item).key)
    if c.to in hidden_slots(state):
        name = Msg(N_("a face-down token")).render()
    return Applied(
        Msg(
            N_("{name} gives {item} to {other}."),
            {"name": s.name, "item": name, "other": other.name},
        )
    )


def on_end_exchange(state: TMState, c: EndExchange, ctx: Context) -> Applied:
    s = own(state, ctx)
    if s.id not in state.exchange:
        raise RuleError(N_("No exchange of yours is in progress."))
    state.exchange, state.acted = [], True
    return Applied(Msg(N_("{name} ends the exchange."), {"name": s.name}))


def on_roll(state: TMState, c: Roll, ctx: Context) -> Applied:
    """Dice for the table: a tie between zombies' paths (12), a direction."""
    at_the_table(state, ctx)
    values = [
        f"{colour} {ctx.dice.roll(SIDES[colour], f'table die {i}')}"
        for i, colour in enumerate(c.dice, 1)
    ]
    return Applied(Msg(N_("Dice for the table: {values}."), {"values": ", ".join(values)}))


def settle(state: TMState) -> None:
    """After every command: once nothing waits (a fight, wounds, an aim, an exchange), the turn
    passes if the action is done or the active survivor is out of play."""
    if state.phase != "players" or state.fight or state.placements:
        return
    declared = state.declared
    if declared is not None and not state.survivor(declared.survivor).playing:
        state.declared, state.acted = None, True  # killed by the aimer: nothing goes on
    if state.declared or state.exchange:
        return
    current = state.survivor(state.turn) if state.turn is not None else None
    if state.acted or current is None or not current.playing or not current.free_tokens():
        if state.acted and current is not None:
            state.last_acted = current.id
        state.acted = False
        advance(state)
