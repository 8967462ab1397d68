"""Powers at play (4): a card put down, read at its moment (4.3), armed and triggered, resisted
with POU; bluffs that pass for cards (4.4)."""

from __future__ import annotations

from server.errors import RuleError
from server.games.killpower import match_rules as mr
from server.games.killpower.match import field
from server.games.killpower.match.commands import (
    Check,
    Trigger,
    UsePower,
)
from server.games.killpower.match.play import (
    Play,
    Refused,
)
from server.games.killpower.match.state import (
    Armed,
    Fighter,
    Reveal,
)
from server.games.killpower.powers import PowerCard
from server.i18n import N_, Msg


def read_power(p: Play, f: Fighter, text: str) -> None:
    """4.3: the underlined part, read to the other coach (the card's name stays hidden)."""
    p.s.reveals.append(Reveal(side=f.side, fighter=f.id, text=text, turn=p.s.turn))
    p.say(N_("Read to the other coach: “{text}”"), text=text)


def placing(p: Play, f: Fighter, c: UsePower) -> tuple[int, bool]:
    """What placing this card costs (actions) and whether it is automatic; a bluff passes for
    what its coach says (4.4). Refuses a card not held, used up or already down."""
    s = p.s
    if c.card == "bluff":
        down = sum(g.active.count("bluff") for g in s.side_fighters(f.side))
        if down >= s.team(f.side).bluff:
            raise RuleError(N_("Your team has no bluff card left in hand."), field="card")
        return int(c.bluff_as == "1A"), c.bluff_as == "automatic"
    card = s.cards.get(c.card)
    if card is None or c.card not in f.powers:
        raise RuleError(N_("{name} does not hold this power."), field="card", name=f.label)
    if card.uses is not None and f.uses.get(card.key, 0) >= card.uses:
        raise RuleError(
            N_("“{power}” has no use left in this match."), field="card", power=card.name
        )
    if c.card in f.active:
        raise RuleError(N_("This card is already on the table."), field="card")
    return card.activation.cost, card.activation.kind == "automatic"


def activated(p: Play, f: Fighter, card: PowerCard, die: int) -> bool:
    """4.2: the activation die against the card's characteristic, told to its own side only."""
    if not card.activation.characteristic:
        p.tell(f.side, N_("“{power}” is on the table."), power=card.name)
        return True
    needed = f.characteristics[card.activation.characteristic]
    ok = mr.succeeds(die, needed)
    p.tell(
        f.side,
        N_("“{power}”: {die} for {needed} or less: {result}."),
        power=card.name,
        die=die,
        needed=needed,
        result=Msg(N_("activated") if ok else N_("not activated")),
    )
    return ok


def on_power(p: Play, c: UsePower) -> None:
    """4.2 to 4.4: a card placed face down; a real one rolls its activation, counts its uses
    and, once activated, has its underlined part read to the other coach; a bluff does
    nothing. The other coach sees the same either way: the same sentence, one activation die
    each (secret, whatever the card), the same timing for what it passes for, and a bluff
    stays on the table like a power that works (4.4: "en la plaçant face cachée")."""
    s = p.s
    f = p.own(c.gladiator)
    if s.stage != "running":
        raise RuleError(N_("The match is not being played."))
    if c.deactivate:
        if c.card not in f.active:
            raise RuleError(N_("This card is not on the table."), field="card")
        f.active.remove(c.card)
        p.say(N_("{name} takes a power card back."), name=f.label)
        return
    if f.where not in ("field", "zt"):
        raise Refused(N_("{name} is not on the field."), field="gladiator", name=f.label)
    if f.inert:
        raise Refused(N_("{name} is inert and cannot act."), field="gladiator", name=f.label)
    bluff = c.card == "bluff"
    card = s.cards.get(c.card)
    cost, automatic = placing(p, f, c)
    if (f.where == "zt" or f.has("on_ground")) and not automatic:
        # TABLE 6: "Faire des pouvoirs dans la ZT", "activer des pouvoirs alors que vous êtes
        # à terre": 1D5+5 turns, the power ignored (6.2); an automatic power works (notes 2,
        # 3). A bluff is put down and punished the same: it must look the same.
        p.say(N_("{name} places a power card face down."), name=f.label)
        p.say(N_("{name} uses a power from the ground or the side-line zone."), name=f.label)
        p.expel(f, "table6", "")
        return
    if cost:
        if s.phase != 3:
            raise Refused(N_("A power that costs an action is activated in phase 3."), field="card")
        p.ready_to_act(f)
        f.concentration = 0
        p.spend(f)
    p.say(N_("{name} places a power card face down."), name=f.label)
    die = p.dice.roll(10, f"activation of {f.name}", owner=f.side, secret=True)
    if bluff:
        if c.bluff_stays:  # passing for a power that worked; else for one that failed
            f.active.append("bluff")
        p.tell(f.side, N_("It is a bluff: nothing happens."))
        return
    assert card is not None
    if not activated(p, f, card, die):
        return
    f.uses[card.key] = f.uses.get(card.key, 0) + 1
    # 4.2: "Un pouvoir actif ou activé doit être posé sur la table face cachée".
    f.active.append(card.key)
    if card.read_when:
        # 4.3: "on ne dira rien à l'adversaire tant que [...]": armed, read at its moment.
        s.armed.append(Armed(side=f.side, fighter=f.id, card=card.key, turn=s.turn))
        p.tell(f.side, N_("“{power}” waits: read it {when}."), power=card.name, when=card.read_when)
    elif card.read_aloud:
        read_power(p, f, card.read_aloud)


def on_trigger(p: Play, c: Trigger) -> None:
    """4.3, Rayon laser: once its condition happens, the underlined part is read "à condition
    qu'il ait raté son jet de résistance, sinon il ne se passera rien"."""
    s = p.s
    f = p.own(c.gladiator)
    armed = next((a for a in s.armed if a.fighter == f.id and a.card == c.card), None)
    if armed is None:
        raise RuleError(N_("No power of {name} waits for its moment."), field="card", name=f.label)
    card = s.cards[c.card]
    if card.resistance and c.target is None:
        raise RuleError(N_("Say whom the power strikes: they may resist."), field="target")
    s.armed.remove(armed)
    if c.card in f.active:
        f.active.remove(c.card)  # read (or resisted): the card goes back to its coach
    p.say(N_("The moment of {name}'s power has come."), name=f.label)
    if card.resistance and c.target is not None:
        target = s.fighter(c.target)
        value = target.characteristics[card.resistance]
        if target.has("afraid") and card.resistance == "POU":
            value = mr.divided(value, 2)  # 5.1: a fleeing gladiator resists at POU / 2
        if not (target.inert and card.resistance == "POU"):  # 5.1: an inert one cannot
            die = p.dice.roll(10, f"resistance of {target.name}", owner=target.side)
            if mr.succeeds(die, value):
                p.say(N_("{name} resists ({die}): nothing happens."), name=target.label, die=die)
                return
            p.say(N_("{name} fails to resist ({die})."), name=target.label, die=die)
    read_power(p, f, card.read_aloud)


def on_check(p: Play, c: Check) -> None:
    f = p.own(c.gladiator)
    if f.inert and c.characteristic == "POU":
        # 5.1, GUERRIER INERTE: "Il ne peut pas résister par des jets de POU (0A)".
        raise Refused(N_("{name} is inert and cannot resist."), field="gladiator", name=f.label)
    value = f.characteristics[c.characteristic]
    zones = c.zones
    if c.characteristic == "HAB" and p.s.board:
        zones = max(1, field.zones_on(p.s, f))  # counted on the board
    if c.characteristic == "HAB":
        value = mr.divided(value, zones)  # 5.1: HAB / number of enemy action zones
    if f.has("afraid") and c.characteristic == "POU":
        value = mr.divided(value, 2)  # 5.1: a fleeing gladiator resists at POU / 2
    if c.action and c.resist:
        # TABLE 10, HORS PHASE: a resistance costing 1A "sera fait immédiatement", in any
        # phase, whoever moves; 3.3: the RAP order does not apply.
        if f.acted or f.where != "field":
            raise Refused(
                N_("{name} has no action left to resist with."), field="gladiator", name=f.label
            )
        f.acted, f.waiting = True, False
        f.concentration = 0
    elif c.action:
        p.ready_to_act(f)
        p.spend(f)
    if c.token and not c.resist:
        raise RuleError(N_("The token makes an action succeed: here there is none."), field="token")
    die, ok = p.roll(f, c.characteristic, value, c.token)
    p.say(
        N_("{name} rolls {characteristic}: {die}, {result}."),
        name=f.label,
        characteristic=c.characteristic,
        die=die,
        result=Msg(N_("success") if ok else N_("failure")),
    )
    if c.characteristic == "HAB":
        field.hab_rolled(p.s, f, ok)  # the board: the move goes on, or ends (5.2)
