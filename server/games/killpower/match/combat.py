"""Combat (8, 9): attacks and group attacks, damage against life and armour, wounds to TABLE 8,
the answers owed (evade, resist, intercept)."""

from __future__ import annotations

from typing import Any

from server.errors import NotAllowed, RuleError
from server.games.killpower import match_rules as mr
from server.games.killpower.match import effects, field
from server.games.killpower.match.ball import (
    land_ball,
    offered_interceptors,
)
from server.games.killpower.match.commands import (
    Answer,
    Attack,
)
from server.games.killpower.match.play import (
    Play,
    Refused,
)
from server.games.killpower.match.state import (
    Fighter,
    Pending,
    Reveal,
)
from server.games.killpower.rules import LOCATION_TITLES
from server.i18n import N_, P_, Msg


def wound(p: Play, target: Fighter, damage: int, result: int, location: str | None = None) -> None:
    outcome = mr.wound(result)
    p.tell(
        target.side,
        N_("{name}: (VIE + armour) - damage = {result}."),
        name=target.label,
        result=result,
    )
    if outcome == "unhurt":
        p.say(N_("{target} takes {damage} damage: no effect."), target=target.label, damage=damage)
    elif outcome == "badly_wounded":
        p.say(
            N_("{target} takes {damage} damage: badly wounded, off until the next basket."),
            target=target.label,
            damage=damage,
        )
        p.off(target, "bg", result)
    else:
        p.say(
            N_("{target} takes {damage} damage: coma, off for the match with a risk of death."),
            target=target.label,
            damage=damage,
        )
        p.off(target, "coma", result)
        # 8.4: a blow on a chosen location needs no location die at the end (TABLE 8).
        target.location = location
        if location:
            p.say(
                N_("The blow was aimed at: {location}."),
                location=Msg(LOCATION_TITLES[location]),
            )


def deal_damage(p: Play, hits: list[Fighter], target: Fighter, location: str | None = None) -> None:
    """TABLE 1 and 8.3: PHY of every attacker who hit, + 1D10 for each one with gloves. A blow
    of a bearer of Main de fer knocks down instead (4.2: « sauf si [...] "on ne fait pas les
    dégâts" »); a friend with Bouclier humain takes the damage in the target's place."""
    s = p.s
    knockers = [a for a in hits if effects.knocks_down(s, a)]
    for a in knockers:  # 4.2, « si le porteur touche »: the hit is its activation, read now
        card = effects.lying(s, a, "knockdown")[0]
        if card.read_aloud:
            s.reveals.append(Reveal(side=a.side, fighter=a.id, text=card.read_aloud, turn=s.turn))
            p.say(N_("Read to the other coach: “{text}”"), text=card.read_aloud)
    if knockers:
        p.say(
            N_("{name}'s power: {target} drops the ball and falls, no damage."),
            name=knockers[0].label,
            target=target.label,
        )
        effects.put_condition(p, target, "on_ground", 0, None)
        hits = [a for a in hits if a not in knockers]
        if not hits:
            return
    damage = 0
    for a in hits:
        damage += a.characteristics["PHY"]
        if a.gloves:
            damage += p.dice.roll(10, f"gloves of {a.name}", owner=a.side)
    guard = effects.guard_of(s, target)
    if guard is not None:
        p.say(
            N_("{name} takes the blows aimed at {friend}."), name=guard.label, friend=target.label
        )
        effects.shield_used(s, guard)
        target, location = guard, None
    result = mr.damage_state(target.characteristics["VIE"], effects.armour_of(s, target), damage)
    wound(p, target, damage, result, location)


def fouls(p: Play, attackers: list[Fighter], target: Fighter) -> bool:
    """TABLE 6: "Combattre [...] alors que vous êtes à terre", "sur le terrain alors que vous êtes
    dans la ZT", "sur la ou les ZT, tout en étant sur le terrain": 1D5+5 turns; 6.2, the blow is
    ignored. True when someone was expelled for it."""
    offenders = [a for a in attackers if a.has("on_ground") or a.where == "zt"]
    if target.where == "zt":
        offenders += [a for a in attackers if a.where == "field"]
    for a in {a.id: a for a in offenders}.values():
        p.say(N_("{name} fights from the ground or across the side line."), name=a.label)
        p.expel(a, "table6", "")
    return bool(offenders)


def ready_to_strike(p: Play, attackers: list[Fighter], group: bool) -> None:
    """Phase 3's order (3.3): a group attack acts at the RAP of its slowest member (8.2)."""
    due = p.next_actor()
    for a in attackers:
        if group and p.both_teams_act() and not a.waiting and (due is None or due.id != a.id):
            raise Refused(
                N_(
                    "A group attack acts at the RAP of its slowest member: {name} must wait until then."
                ),
                field="attackers",
                name=a.label,
            )
        p.ready_to_act(a, phase3_order=not group)


def roll_hits(
    p: Play, attackers: list[Fighter], target: Fighter, located: bool, token: bool
) -> list[Fighter]:
    """8.2: one die for the attack, read against each attacker's PHY (or the mandatory-success
    token: every blow lands); each side reads its own needed values."""
    names = ", ".join(a.label for a in attackers)
    if token:
        p.use_token(attackers[0].side)
        p.say(
            N_("{names} hits {target} with the mandatory-success token."),
            names=names,
            target=target.label,
        )
        return attackers
    die = p.dice.roll(10, f"attack on {target.name}", owner=attackers[0].side)
    hits = []
    for a in attackers:
        needed = mr.hit_needed(
            a.characteristics["PHY"], inert=target.inert, located=located, blind=a.has("blind")
        )
        p.tell(
            a.side, N_("{name}: {die} for {needed} or less."), name=a.label, die=die, needed=needed
        )
        if mr.succeeds(die, needed):
            hits.append(a)
    if hits:
        p.say_counted(
            P_(
                "Attack of {names} on {target}: the die shows {die}, {hits} blow lands.",
                "Attack of {names} on {target}: the die shows {die}, {hits} blows land.",
            ),
            "hits",
            names=names,
            target=target.label,
            die=die,
            hits=len(hits),
        )
    else:
        p.say(
            N_("Attack of {names} on {target}: the die shows {die}, no blow lands."),
            names=names,
            target=target.label,
            die=die,
        )
    return hits


def on_attack(p: Play, c: Attack) -> None:
    s = p.s
    if s.phase != 3:
        raise Refused(N_("Combat happens in phase 3."), field="attackers")
    attackers = [p.own(a) for a in dict.fromkeys(c.attackers)]
    target = s.fighter(c.target)
    group = len(attackers) > 1
    if group and c.token:
        raise RuleError(N_("No mandatory-success token in a group attack (8.2)."), field="token")
    if group and any(a.side != attackers[0].side for a in attackers):
        raise Refused(N_("A group attack is made by one team."), field="attackers")
    for a in attackers:
        # 6.3: a blow that cannot be given (its action spent, not its turn) is cancelled,
        # never punished; only then TABLE 6 applies.
        p.ready_to_act(a, phase3_order=not group, anywhere=True)
    if fouls(p, attackers, target):
        return
    located = c.located or c.location is not None
    if located and (not target.inert or c.location is None):
        raise RuleError(
            N_("Choose the location of a blow on an inert target (8.4), and only then."),
            field="location",
        )
    ready_to_strike(p, attackers, group)
    if target.where != "field":
        raise Refused(N_("{name} is not on the field."), field="target", name=target.label)
    if effects.is_ghost(s, target):
        raise Refused(
            N_("{name} is a ghost: no blow can touch them."), field="target", name=target.label
        )
    far = [
        a
        for a in attackers
        if a is not target
        and s.board
        and not field.near(field.square_of(s, a), field.square_of(s, target))
    ]
    if far:
        # 8: "Elle doit être dans sa ZA", each attacker's.
        raise Refused(
            N_("{name} is not next to {target}."),
            field="attackers",
            name=far[0].label,
            target=target.label,
        )
    if target in attackers:
        # 8.4, AUTOMUTILATION: the blow always lands, is ignored, and the gladiator is expelled.
        p.spend(target)
        p.say(N_("{name} hits themself."), name=target.label)
        p.expel(target, "table6", "")
        return
    for a in attackers:
        a.concentration = 0
        p.spend(a)
    hits = roll_hits(p, attackers, target, located, c.token)
    if not hits:
        return
    evader = not (target.inert or target.acted or target.has("afraid") or target.has("blind"))
    if evader:
        data = {"hits": [a.id for a in hits], "target": target.id, "group": group}
        s.pending = Pending(kind="evade", side=target.side, data=data)
        p.say(N_("{target} may use their action to evade."), target=target.label)
    else:
        deal_damage(p, hits, target, c.location if located else None)


def evade(p: Play, c: Answer, data: dict[str, Any]) -> None:
    """8.1: the target spends its action on a PHY roll; in a group, one blow only (8.2)."""
    target = p.s.fighter(data["target"])
    hits = [p.s.fighter(h) for h in data["hits"]]
    if c.yes:
        target.acted, target.waiting = True, False
        die, ok = p.roll(target, "evade", target.characteristics["PHY"], c.token)
        if ok:
            dodged = next((h for h in hits if h.id == c.gladiator), None) or max(
                hits, key=lambda h: h.characteristics["PHY"]
            )
            hits.remove(dodged)
            p.say(
                N_("{target} evades {name}'s blow ({die})."),
                target=target.label,
                name=dodged.label,
                die=die,
            )
        else:
            p.say(N_("{target} fails to evade ({die})."), target=target.label, die=die)
    if hits:
        deal_damage(p, hits, target)


def intercept(p: Play, c: Answer, pending: Pending) -> None:
    """9.C: one gladiator whose action zone the ball crosses tries (BAL); the token may make it
    (3.2: "intercepter le ballon"). Letting it go, or nobody left to try: the ball lands."""
    s, data = p.s, pending.data
    if not c.yes or c.gladiator is None:
        s.pending = None
        p.say(N_("{team} lets the ball go."), team=s.team(pending.side).roster.name)
        land_ball(p, data)
        return
    g = s.fighter(c.gladiator)
    able = offered_interceptors(s, pending.side, data)
    if g not in able:
        # The board: only one whose action zone the ball's path crosses (7).
        raise Refused(N_("{name} cannot intercept now."), field="gladiator", name=g.label)
    g.concentration = 0
    g.acted, g.waiting = True, False
    die, ok = p.roll(g, "interception", g.characteristics["BAL"], c.token)
    if ok:
        s.pending = None
        s.ball, s.ball_note = f"f:{g.id}", ""
        p.say(N_("{name} intercepts the ball ({die})!"), name=g.label, die=die)
    else:
        p.say(N_("{name} misses the interception ({die})."), name=g.label, die=die)
        if not offered_interceptors(s, pending.side, data):
            s.pending = None
            land_ball(p, data)


def resist(p: Play, c: Answer, data: dict[str, Any]) -> None:
    """9.D: the carrier may spend their action on a BAL roll to keep the ball."""
    s = p.s
    taker = s.fighter(data["taker"])
    carrier = s.carrier
    if c.yes and carrier is not None:
        carrier.acted, carrier.waiting = True, False
        die, ok = p.roll(carrier, "resist", carrier.characteristics["BAL"], c.token)
        if ok:
            p.say(N_("{name} keeps the ball ({die})."), name=carrier.label, die=die)
            return
        p.say(N_("{name} fails to keep the ball ({die})."), name=carrier.label, die=die)
    s.ball, s.ball_note = f"f:{taker.id}", ""
    p.say(N_("{name} has the ball."), name=taker.label)


def on_answer(p: Play, c: Answer) -> None:
    s = p.s
    pending = s.pending
    if pending is None:
        raise RuleError(N_("Nothing to answer."))
    if p.side is not None and p.side != pending.side:
        raise NotAllowed(N_("The other team answers this."))
    data = pending.data
    if c.token and (not c.yes or (pending.kind == "evade" and data.get("group"))):
        # 8.2: no mandatory-success token in a group attack, "même pour la cible".
        raise RuleError(N_("The token makes an action succeed: here there is none."), field="token")
    if pending.kind == "intercept":
        intercept(p, c, pending)
        return
    s.pending = None
    if pending.kind == "evade":
        evade(p, c, data)
    else:
        resist(p, c, data)
