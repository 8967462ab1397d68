"""A fight (10), step by step: the attack dice (10.2) with the skills the sheet leaves free (1),
the passport's bonus (3.2) and the malus the table picked; a re-roll (1, 5); the defence (10.3);
the wound table (10.4); the wounds placed (6); the green die against the weapon's limit (4, 10.5)
and the racket of a shot (10.6). Zombies attack at 8 + 2 for each one more in contact and a
survivor kills one zombie per 5 points (12).

Each stage waits for one person: `waiting()` says who and for what; each handler checks that the
sender is that person and that the fight is at that stage."""

from __future__ import annotations

from typing import Literal

from server.errors import NotAllowed, RuleError
from server.games.trust_me.catalog import COLOUR_TITLES, SIDES, Colour, Outcome, Skill
from server.games.trust_me.commands import (
    Defend,
    Endure,
    PlaceWounds,
    Reroll,
    SurvivorAttack,
    Usage,
    Zombies,
)
from server.games.trust_me.sheet import (
    DEATH_AT,
    fall,
    fatigue_for,
    has_skill,
    hidden_slots,
    mark,
    thing_of,
    weapon_of,
    wearing,
    wound_places,
)
from server.games.trust_me.state import HANDS, Die, Fight, Placement, Survivor, TMState
from server.games.trust_me.table import at_the_table, check_fight_over, playing
from server.i18n import N_, P_, Msg, joined
from server.platform.dice import Dice
from server.platform.kinds import Applied, Context

ONE_HAND_MALUS = 4  # 4: "réduisez le résultat de votre jet de dé d'attaque de 4"
ZOMBIE_ATTACK, ZOMBIE_MORE = 8, 2  # 12: "La valeur d'attaque d'un zombie est de 8 ... +2"
POINTS_PER_ZOMBIE = 5  # 12: "il tue un zombie par tranche de cinq à son résultat"

STAGE_WORDS = {
    "attack_reroll": N_("{name} may roll one attack die again"),
    "defence": N_("{name} rolls their defence"),
    "defence_reroll": N_("{name} may roll one defence die again"),
    "endure": N_("{name} takes a Fatigue or a wound"),
    "usage": N_("{name} rolls the green die for the weapon's limit"),
    "wounds": N_("{name} places the wounds"),
}


def owner(s: Survivor) -> str:
    """Whose dice these are: the survivor's player enters them from physical dice."""
    return f"player:{s.id}"


def roll(dice: Dice, s: Survivor, colour: Colour, purpose: str, why: str) -> Die:
    value = dice.roll(SIDES[colour], f"{s.name}: {purpose}", owner=owner(s))
    return Die(colour=colour, value=value, why=why)


def green(state: TMState, dice: Dice, s: Survivor, purpose: str) -> tuple[int, str]:
    """The green d12 (4, 12), +1 while the "dé Vert" cell is free (1): the total, and the total
    as said ("3 (2 + 1)": the die and the cell's +1 both shown)."""
    rolled = dice.roll(SIDES["green"], f"{s.name}: {purpose}", owner=owner(s))
    if has_skill(state, s, "green"):
        return rolled + 1, f"{rolled + 1} ({rolled} + 1)"
    return rolled, str(rolled)


def held_weapon(state: TMState, s: Survivor, item: int) -> tuple[str, bool]:
    """10: "Vous ne pouvez combattre qu'avec des armes que vous possédez en main": (category,
    one-handed) of a weapon in a hand or both; an empty ranged weapon does not fire (4)."""
    weapon = weapon_of(state, item) if str(item) in state.items else None
    slot = s.slot_of(item)
    if weapon is None or slot not in (*HANDS, "hands"):
        raise RuleError(N_("Fight with a weapon you hold in hand."), field="weapon")
    if weapon.category == "ranged" and state.item(item).empty:
        raise RuleError(
            N_("{weapon} is empty: reload it with ammunition first."),
            field="weapon",
            weapon=weapon.name,
        )
    return weapon.category, weapon.two_handed and slot != "hands"


RerollSource = Literal["cell", "charm"]


def reroll_sources(
    state: TMState, s: Survivor, attacking: bool, used: list[RerollSource]
) -> list[RerollSource]:
    """What lets this roll's survivor roll one die again, not yet used on it, the free one first.
    1: "Lors de vos attaques, vous pouvez relancer l'un de vos dés" (the cell, attacks only);
    5, Porte-Bonheur: "Relancez l'un de vos dés si le résultat ne vous convient pas". Each gives
    its own re-roll: a survivor with both rolls one die again, then one again."""
    sources: list[RerollSource] = []
    if attacking and has_skill(state, s, "reroll"):
        sources.append("cell")
    if wearing(state, s, "charm") is not None:
        sources.append("charm")
    return [source for source in sources if source not in used]


def may_reroll(state: TMState, s: Survivor, attacking: bool) -> bool:
    return bool(reroll_sources(state, s, attacking, []))


def start_attack(
    state: TMState, s: Survivor, c: SurvivorAttack, ctx: Context, from_aim: bool
) -> Msg:
    """10.1, 10.2: the target and the weapon said, the attack dice rolled."""
    category, one_handed = held_weapon(state, s, c.weapon)
    weapon = weapon_of(state, c.weapon)
    assert weapon is not None
    target = None
    if c.target is not None:
        target = playing(state, c.target, "target")
        if target.id == s.id:
            raise RuleError(N_("A survivor does not attack themself."), field="target")
    if c.target is not None and c.zombies is not None:
        raise RuleError(
            N_("Say how many zombies only when attacking a group of them."), field="zombies"
        )
    fight = Fight(
        attacker=s.id,
        target=c.target,
        zombies=c.zombies or 0,
        weapon=c.weapon,
        ranged=category == "ranged",
        one_handed=one_handed,
        from_aim=from_aim,
        stage="defence",
    )
    passport = state.box.passport(s.passport or "")
    fight.attack_bonus = (passport.ranged if fight.ranged else passport.melee) if passport else 0
    if has_skill(state, s, "attack"):
        fight.attack_bonus += 1
    fight.malus = [("table", m) for m in c.malus if m]
    if one_handed:
        fight.malus.append(("one_hand", ONE_HAND_MALUS))
    fight.attack_dice = [roll(ctx.dice, s, weapon.die, "attack die", "weapon")]
    extra: Skill = "ranged_die" if fight.ranged else "melee_die"
    if has_skill(state, s, extra):  # 1: "Lancez 1 dé Jaune (1D6) supplémentaire"
        fight.attack_dice.append(roll(ctx.dice, s, "yellow", "attack, cell die", "cell"))
    # 6: the "Cible" marker is discarded when its owner fights, or is attacked in melee.
    s.aiming = None
    if target is not None and not fight.ranged:
        target.aiming = None
    state.fight = fight
    said = Msg(
        N_("{name} attacks {target} with {weapon}: {total}."),
        {
            "name": s.name,
            "target": target.name if target else Msg(N_("the zombies")),
            "weapon": weapon.name,
            "total": attack_sum(fight),
        },
    )
    if may_reroll(state, s, attacking=True):
        fight.stage = "attack_reroll"
    elif target is None:
        return joined([said, zombies_killed(state, fight)])
    return said


def attack_sum(fight: Fight) -> Msg:
    """The total and its arithmetic: "7 (6 + 3 + 2 − 4)"."""
    parts = [str(d.value) for d in fight.attack_dice]
    text = " + ".join(parts)
    if fight.attack_bonus:
        text += f" {'+' if fight.attack_bonus > 0 else '−'} {abs(fight.attack_bonus)}"
    for _, malus in fight.malus:
        text += f" − {malus}"
    return Msg(N_("{total} ({sum})"), {"sum": text, "total": fight.attack_total})


def zombies_killed(state: TMState, fight: Fight) -> Msg:
    """12: "il tue un zombie par tranche de cinq à son résultat de dé"."""
    attacker = state.survivor(fight.attacker or 0)
    killed = max(0, fight.attack_total) // POINTS_PER_ZOMBIE
    if fight.zombies:  # no more than the group holds
        killed = min(killed, fight.zombies)
    attacker.zombies_killed += killed
    fight.stage = "usage"
    return Msg.counted(
        P_("{name} kills {count} zombie.", "{name} kills {count} zombies."),
        "count",
        {"name": attacker.name, "count": killed},
    )


def waiting(state: TMState) -> tuple[int, str] | None:
    """Who the game waits for, and for what: the wounds to place first, then the fight's stage."""
    if state.placements:
        return state.placements[0].placer, "wounds"
    fight = state.fight
    if fight is None:
        return None
    if fight.stage in ("attack_reroll", "usage"):
        assert fight.attacker is not None
        return fight.attacker, fight.stage
    assert fight.target is not None
    return fight.target, fight.stage


def sender(state: TMState, ctx: Context, stage: str) -> Survivor:
    """The person the fight waits for, at this stage (a staff member may answer for them)."""
    who = waiting(state)
    if who is None:
        raise RuleError(N_("No fight waits for this."))
    if who[1] != stage:
        name = state.survivor(who[0]).name
        raise RuleError(
            N_("The fight waits for {name}: {what}."),
            name=name,
            what=Msg(STAGE_WORDS.get(who[1], N_("the wounds to place")), {"name": name}),
        )
    if not ctx.actor.is_staff and ctx.actor.person_id != who[0]:
        raise NotAllowed(
            N_("{name} answers this, on their own phone."), name=state.survivor(who[0]).name
        )
    return state.survivor(who[0])


def on_reroll(state: TMState, c: Reroll, ctx: Context) -> Applied:
    fight = state.fight
    stage = fight.stage if fight else ""
    s = sender(
        state, ctx, stage if stage in ("attack_reroll", "defence_reroll") else "attack_reroll"
    )
    assert fight is not None
    attacking = stage == "attack_reroll"
    dice = fight.attack_dice if attacking else fight.defence_dice
    said: list[Msg] = []
    if c.die is not None:
        if c.die >= len(dice):
            raise RuleError(N_("Choose one of the dice rolled."), field="die")
        source = reroll_sources(state, s, attacking, fight.rerolled)[0]
        fight.rerolled.append(source)
        old = dice[c.die]
        dice[c.die] = roll(ctx.dice, s, old.colour, "die rolled again", old.why)
        said.append(
            Msg(
                N_("{name} rolls a {colour} die again: {old} becomes {new}."),
                {
                    "name": s.name,
                    "colour": Msg(COLOUR_TITLES[old.colour]),
                    "old": old.value,
                    "new": dice[c.die].value,
                },
            )
        )
        if source == "charm":
            said += charm_used(state, s, ctx)
        if reroll_sources(state, s, attacking, fight.rerolled):  # the lucky charm, after the cell
            said.append(Msg(N_("{name} may roll one die again."), {"name": s.name}))
            return Applied(joined(said))
    else:
        said.append(Msg(N_("{name} keeps the dice."), {"name": s.name}))
    fight.rerolled = []
    if attacking:
        if fight.target is None:
            said.append(zombies_killed(state, fight))
        else:
            fight.stage = "defence"
            said.append(Msg(N_("Attack: {sum}."), {"sum": attack_sum(fight)}))
    else:
        said.append(resolve(state, fight))
    return Applied(joined(said))


def charm_used(state: TMState, s: Survivor, ctx: Context) -> list[Msg]:
    """4: "On applique le même procédé pour les pions Objets lorsqu'ils sont utilisés": the lucky
    charm's green die, or its single use."""
    item = wearing(state, s, "charm")
    if item is None:
        return []
    return object_used(state, s, item, ctx)


def object_used(state: TMState, s: Survivor, item: int, ctx: Context) -> list[Msg]:
    """4: an object used: X1, spent at once; else the green die against its limit."""
    thing = thing_of(state, item)
    assert thing is not None
    if thing.single_use:
        discard(state, s, item)
        return [Msg(N_("{object} is used up."), {"object": thing.name})]
    if thing.limit is None:
        return []
    total, shown = green(state, ctx.dice, s, f"limit of {thing.name}")
    if total <= thing.limit:
        discard(state, s, item)
        return [
            Msg(
                N_("Green die {total} (limit {limit}): {object} is used up."),
                {"total": shown, "limit": thing.limit, "object": thing.name},
            )
        ]
    return [
        Msg(
            N_("Green die {total} (limit {limit}): {object} holds."),
            {"total": shown, "limit": thing.limit, "object": thing.name},
        )
    ]


def discard(state: TMState, s: Survivor, item: int) -> None:
    for fallen in fall(state, s, item):  # what a backpack held stays on the ground
        if fallen == item:
            state.items.pop(str(item), None)


def on_defend(state: TMState, c: Defend, ctx: Context) -> Applied:
    """10.3: "Le défenseur lance ses dés de défense et calcule le total [...] avec le bonus [...]
    [Survie]"; the dice are the passport's (spec), one blue more while the cell is free (1)."""
    s = sender(state, ctx, "defence")
    fight = state.fight
    assert fight is not None
    passport = state.box.passport(s.passport or "")
    colours: list[Colour] = list(passport.defence) if passport else ["yellow"]
    fight.defence_dice = [
        roll(ctx.dice, s, colour, f"defence die {i}", "defence")
        for i, colour in enumerate(colours, 1)
    ]
    if has_skill(state, s, "defence_die"):
        fight.defence_dice.append(roll(ctx.dice, s, "blue", "defence, cell die", "cell"))
    fight.defence_bonus = (passport.survival if passport else 0) + (
        1 if has_skill(state, s, "defence") else 0
    )
    said = Msg(N_("{name} defends: {total}."), {"name": s.name, "total": defence_sum(fight)})
    if may_reroll(state, s, attacking=False):
        fight.stage = "defence_reroll"
        return Applied(said)
    return Applied(joined([said, resolve(state, fight)]))


def defence_sum(fight: Fight) -> Msg:
    text = " + ".join(str(d.value) for d in fight.defence_dice)
    if fight.defence_bonus:
        text += f" {'+' if fight.defence_bonus > 0 else '−'} {abs(fight.defence_bonus)}"
    return Msg(N_("{total} ({sum})"), {"sum": text, "total": fight.defence_total})


def outcome(state: TMState, difference: int) -> tuple[Outcome, int]:
    """10.4: the wound table's line for this difference (the organizer's, spec): the last line
    whose threshold the difference reaches; below the first, nothing."""
    found: tuple[Outcome, int] = ("none", 0)
    for row in state.box.wound_table:
        if difference >= row.at_least:
            found = (row.outcome, row.wounds)
    return found


def resolve(state: TMState, fight: Fight) -> Msg:
    """10.4: "On soustrait le résultat de l'attaquant à celui du défenseur et on applique le
    résultat selon le tableau des blessures"."""
    difference = fight.attack_total - fight.defence_total
    result, wounds = outcome(state, difference)
    target = state.survivor(fight.target or 0)
    head = Msg(
        N_("{attack} against {defence}: a difference of {difference}."),
        {"attack": fight.attack_total, "defence": fight.defence_total, "difference": difference},
    )
    if result == "fatigue_or_wound":
        fight.stage = "endure"
        return joined(
            [head, Msg(N_("{name} chooses a Fatigue or a wound."), {"name": target.name})]
        )
    if result == "wounds" and wounds:
        wound(state, fight, target, wounds)
        return joined([head, wounds_said(target, wounds)])
    after_wounds(state, fight)
    return joined([head, Msg(N_("No wound."))])


def wounds_said(target: Survivor, wounds: int) -> Msg:
    return Msg.counted(
        P_("{name} takes {count} wound.", "{name} takes {count} wounds."),
        "count",
        {"name": target.name, "count": wounds},
    )


def wound(state: TMState, fight: Fight, target: Survivor, wounds: int) -> None:
    """6: "Si le pion Blessure est infligé par un adversaire, c'est ce dernier qui choisit où va
    la blessure, cependant si la blessure vient d'un zombie, c'est le contrôleur du survivant
    blessé" (and a zombie's wound comes with an infection)."""
    zombie = fight.attacker is None
    placer = target.id if zombie else fight.attacker
    assert placer is not None
    state.placements.append(
        Placement(
            placer=placer, survivor=target.id, wounds=wounds, infections=wounds if zombie else 0
        )
    )
    after_wounds(state, fight)


def after_wounds(state: TMState, fight: Fight) -> None:
    """10.5: the green die comes after a survivor's attack; a zombie's attack ends there."""
    if fight.attacker is None:
        state.fight = None
    else:
        fight.stage = "usage"


def on_endure(state: TMState, c: Endure, ctx: Context) -> Applied:
    """10.4: "Sur un résultat compris entre 1 et 3, le défenseur choisit de recevoir un pion
    Fatigue ou Blessure"."""
    s = sender(state, ctx, "endure")
    fight = state.fight
    assert fight is not None
    if c.take == "fatigue":
        fatigue_for(state, s, c.slot)
        after_wounds(state, fight)
        return Applied(Msg(N_("{name} takes a Fatigue."), {"name": s.name}))
    wound(state, fight, s, 1)
    return Applied(wounds_said(s, 1))


def markers_to_place(state: TMState, placement: Placement) -> list[str]:
    """The markers that will lie on the sheet, in order: the wounds, then the zombies'
    infections (6), as many as there are free places, none after the wound that kills."""
    s = state.survivor(placement.survivor)
    markers = ["wound"] * placement.wounds + ["infection"] * placement.infections
    lethal = DEATH_AT - len(s.wounds)  # the wound that kills is the last marker placed
    if placement.wounds >= lethal:
        markers = markers[:lethal]
    return markers[: len(wound_places(s))]


def on_wounds(state: TMState, c: PlaceWounds, ctx: Context) -> Applied:
    """6: the wounds, then the zombies' infections, each on a free hand or cell; an object there
    falls; the third wound kills. Every marker is placed (while there is room and life)."""
    if not state.placements:
        raise RuleError(N_("No wound waits to be placed."))
    placement = state.placements[0]
    if not ctx.actor.is_staff and ctx.actor.person_id != placement.placer:
        placer = state.survivor(placement.placer).name
        raise NotAllowed(N_("{name} places these wounds, on their own phone."), name=placer)
    s = state.survivor(placement.survivor)
    markers = markers_to_place(state, placement)
    slots = list(c.slots)
    if len(set(slots)) != len(slots):
        raise RuleError(N_("Each wound and infection goes on a place of its own."), field="slots")
    hidden = {int(i) for i, slot in s.items.items() if slot in hidden_slots(state)}
    fell: list[int] = []
    placed = {"wound": 0, "infection": 0}
    for marker in markers:
        if s.dead or not wound_places(s):
            break
        if not slots:
            raise RuleError(
                N_("Place every marker: {count} more."),
                field="slots",
                count=len(markers) - sum(placed.values()),
            )
        fell += mark(state, s, slots.pop(0), marker)
        placed[marker] += 1
    if slots and not s.dead:  # (the third wound kills: what was left to place is not)
        raise RuleError(N_("More places than markers to place."), field="slots")
    state.placements.pop(0)
    said = [
        Msg(
            N_("{name}: {wounds} and {infections} placed."),
            {
                "name": s.name,
                "wounds": Msg.counted(
                    P_("{count} wound", "{count} wounds"), "count", {"count": placed["wound"]}
                ),
                "infections": Msg.counted(
                    P_("{count} infection", "{count} infections"),
                    "count",
                    {"count": placed["infection"]},
                ),
            },
        )
    ]
    if fell:  # what lay face down falls face down (1, 5: hidden until revealed)
        names = [state.box.name_of(state.item(i).key) for i in fell if i not in hidden]
        names += [Msg(N_("a face-down token")).render()] * sum(1 for i in fell if i in hidden)
        said.append(Msg(N_("To the ground: {items}."), {"items": ", ".join(names)}))
    if s.dead:
        said.append(Msg(N_("{name} is dead."), {"name": s.name}))
        for item in list(s.items):  # the body's tokens stay on the board
            s.items.pop(item)
    return Applied(joined(said))


def on_usage(state: TMState, c: Usage, ctx: Context) -> Applied:
    """4, 10.5: "Si le résultat est égal ou inférieur au chiffre dans le symbole Limite
    d'utilisation: l'arme est détruite [...] s'il s'agit d'une arme de Mêlée; l'arme n'a plus de
    munitions [...] s'il s'agit d'une arme à Distance"; 10.6: the racket of a shot."""
    s = sender(state, ctx, "usage")
    fight = state.fight
    assert fight is not None and fight.weapon is not None
    weapon = weapon_of(state, fight.weapon)
    assert weapon is not None
    total, shown = green(state, ctx.dice, s, f"limit of {weapon.name}")
    params = {"name": s.name, "total": shown, "limit": weapon.limit, "weapon": weapon.name}
    if total > weapon.limit:
        said = [Msg(N_("Green die {total} (limit {limit}): {weapon} holds."), params)]
    elif weapon.category == "melee":
        if str(fight.weapon) in state.items and s.slot_of(fight.weapon) is not None:
            discard(state, s, fight.weapon)
        said = [
            Msg(N_("Green die {total} (limit {limit}): {weapon} breaks and is discarded."), params)
        ]
    else:
        state.item(fight.weapon).empty = True
        said = [Msg(N_("Green die {total} (limit {limit}): {weapon} is empty."), params)]
    if fight.ranged and "vehicle" not in state.specials:
        # 10.6: "on place le marqueur Vacarme"; 8: the military vehicle makes it for good.
        state.racket = "racket"
        said.append(Msg(N_("The shot makes a racket.")))
    state.fight = None
    if not fight.from_aim:
        state.acted = True
    elif state.declared is not None:
        state.declared.attacked = True  # 6: the survivor attacked goes on, or stops
    return Applied(joined(said))


def on_zombies(state: TMState, c: Zombies, ctx: Context) -> Applied:
    """9.4, 12: "Si les socles d'un ou plusieurs zombies touchent le socle d'un survivant, alors
    ce survivant est attaqué": at 8, +2 for each one more; no die for the zombies."""
    check_fight_over(state)
    if state.phase not in ("players", "zombies"):
        raise RuleError(N_("Zombies attack during the rounds."))
    at_the_table(state, ctx)
    s = playing(state, c.survivor, "survivor")
    state.fight = Fight(attacker=None, target=s.id, zombies=c.count, stage="defence")
    s.aiming = None  # 6: attacked in melee
    return Applied(
        Msg.counted(
            P_(
                "{count} zombie attacks {name}: {total}.", "{count} zombies attack {name}: {total}."
            ),
            "count",
            {"count": c.count, "name": s.name, "total": state.fight.attack_total},
        )
    )
