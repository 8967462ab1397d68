"""Powers at play (4): a card put down, read at its moment (4.3), armed and triggered, resisted
with POU; bluffs that pass for cards (4.4)."""

from __future__ import annotations

from server.errors import RuleError
from server.games.killpower import board
from server.games.killpower import match_rules as mr
from server.games.killpower.match import effects, field
from server.games.killpower.match.combat import wound
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
from server.i18n import N_, P_, Msg


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
        take_back(p, f, c.card)
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
    target = aimed_at(p, f, card, c) if card is not None else None  # refused before any die
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
    elif card.read_aloud and card.activation.kind != "on_hit":  # 4.2: read when it hits
        read_power(p, f, card.read_aloud)
    if not card.read_when:
        works(p, f, card, target, c)


def take_back(p: Play, f: Fighter, key: str) -> None:
    """A card taken back: at will, or on the roll its card asks (Rayon laser: « Jet de POU
    réussi par le porteur »), rolled secretly like an activation; an armed card is disarmed."""
    s = p.s
    if key not in f.active:
        raise RuleError(N_("This card is not on the table."), field="card")
    card = s.cards.get(key)
    if card is not None and card.deactivation_roll:
        needed = f.characteristics[card.deactivation_roll]
        die = p.dice.roll(10, f"activation of {f.name}", owner=f.side, secret=True)
        if not mr.succeeds(die, needed):
            p.say(N_("{name} fails to take a power card back."), name=f.label)
            p.tell(
                f.side,
                N_("“{power}”: {die} for {needed} or less: it stays."),
                power=card.name,
                die=die,
                needed=needed,
            )
            return
    f.active.remove(key)
    s.armed = [a for a in s.armed if not (a.fighter == f.id and a.card == key)]
    p.say(N_("{name} takes a power card back."), name=f.label)


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
    target = s.fighter(c.target) if c.target is not None else None
    if target is not None and card.effect is not None:
        check_target(p, f, card, target, seen=False)  # the moment came: the line was crossed
    if card.resistance and target is not None and resists(p, f, target, card.resistance):
        return
    read_power(p, f, card.read_aloud)
    if target is not None and card.effect is not None and card.effect.kind == "damage":
        strike(p, f, card, target)


def resists(p: Play, bearer: Fighter, target: Fighter, characteristic: str) -> bool:
    """4.3: the target's resistance roll, when it may: a friend is not bound to resist (« une
    cible n'est pas obligée de résister [...] pouvoirs faits sur les amis »), an inert one cannot
    resist with POU (5.1), a fleeing one resists at POU / 2 (5.1)."""
    if target.side == bearer.side:
        return False
    value = target.characteristics[characteristic]
    if target.has("afraid") and characteristic == "POU":
        value = mr.divided(value, 2)
    if target.inert and characteristic == "POU":
        return False
    die = p.dice.roll(10, f"resistance of {target.name}", owner=target.side)
    if mr.succeeds(die, value):
        p.say(N_("{name} resists ({die}): nothing happens."), name=target.label, die=die)
        return True
    p.say(N_("{name} fails to resist ({die})."), name=target.label, die=die)
    return False


def check_target(p: Play, f: Fighter, card: PowerCard, t: Fighter, seen: bool = True) -> None:
    """4.1, CIBLE: a friend, an enemy, or either, as the card says; on the field; with the board,
    « A VUE » (nobody standing on the line between them) when `seen`."""
    s = p.s
    assert card.effect is not None
    wanted = card.effect.target
    if wanted == "enemy" and t.side == f.side:
        raise Refused(N_("“{power}” aims at an enemy."), field="target", power=card.name)
    if wanted == "friend" and (t.side != f.side or t is f):
        raise Refused(N_("“{power}” aims at a friend."), field="target", power=card.name)
    if t.where != "field":
        raise Refused(N_("{name} is not on the field."), field="target", name=t.label)
    here, there = field.square_of(s, f), field.square_of(s, t)
    if s.board and seen and here is not None and there is not None:
        standing = {sq for g, sq in field.on_field(s) if not g.has("on_ground")}
        if not board.in_sight(here, there, standing):
            raise Refused(
                N_("{name} does not see {target}: someone stands between them (4.1, A VUE)."),
                field="target",
                name=f.label,
                target=t.label,
            )
    if card.effect.in_half and s.board and (there is None or board.half_of(there) != f.side):
        raise Refused(
            N_("{target} has not crossed into {name}'s half."),
            field="target",
            target=t.label,
            name=f.label,
        )
    if card.effect.kind == "shield" and s.board and not field.near(here, there):
        raise Refused(
            N_("{target} is not next to {name}."), field="target", target=t.label, name=f.label
        )


def aimed_at(p: Play, f: Fighter, card: PowerCard, c: UsePower) -> Fighter | None:
    """What a card's effect needs, checked before its die (nothing is spent on a wrong aim):
    whom it aims at, the free ball within reach, a free square of the bearer's half."""
    s, effect = p.s, card.effect
    if effect is None:
        return None
    target = None
    if effect.target != "bearer" and not card.read_when:
        if c.target is None:
            raise RuleError(N_("Say whom “{power}” aims at."), field="target", power=card.name)
        target = s.fighter(c.target)
        check_target(p, f, card, target)
    if effect.kind == "fetch_ball":
        ball = field.ball_square(s)
        here = field.square_of(s, f)
        if s.ball not in ("ground", "basket"):  # lying free, on the field or the basket square
            raise Refused(N_("The ball is not free."), field="card")
        standing = {sq for g, sq in field.on_field(s) if not g.has("on_ground")}
        if s.board and (
            ball is None
            or here is None
            or board.distance(here, ball) > effect.amount
            or not board.in_sight(here, ball, standing)
        ):
            raise Refused(
                N_("No free ball in view and within the card's reach of {name}."),
                field="card",
                name=f.label,
            )
    if effect.kind == "teleport" and s.board:
        to = board.parse(c.to or "")
        if to is None:
            raise RuleError(N_("Choose the square to appear on."), field="to")
        if to in field.occupied(s) or board.half_of(to) != f.side:
            raise Refused(
                N_("{square} is not a free square of {name}'s half."),
                field="to",
                square=board.name(to),
                name=f.label,
            )
    return target


def works(p: Play, f: Fighter, card: PowerCard, target: Fighter | None, c: UsePower) -> None:
    """The card's effect, once activated and read (4.3)."""
    s, effect = p.s, card.effect
    if effect is None:
        return
    if effect.kind == "condition" and target is not None and effect.condition:
        if card.resistance and resists(p, f, target, card.resistance):
            return
        effects.put_condition(p, target, effect.condition, effect.turns, card.key)
    elif effect.kind == "damage" and target is not None:
        if card.resistance and resists(p, f, target, card.resistance):
            return
        strike(p, f, card, target)
    elif effect.kind == "move":
        if s.board:
            field.spend(s, f, -effect.amount)
        p.say_counted(
            P_(
                "{name} moves {n} square more this phase.",
                "{name} moves {n} squares more this phase.",
            ),
            "n",
            name=f.label,
            n=effect.amount,
        )
    elif effect.kind == "fetch_ball":
        s.ball, s.ball_note, s.ball_at = f"f:{f.id}", "", None
        p.say(N_("The ball flies into {name}'s hands."), name=f.label)
    elif effect.kind == "teleport" and s.board:
        to = board.parse(c.to or "")
        assert to is not None
        s.at[str(f.id)] = to
        p.say(N_("{name} appears on {square}."), name=f.label, square=board.name(to))
    elif effect.kind == "shield" and target is not None:
        f.guards = target.id
        p.say(N_("{name} shields {friend}."), name=f.label, friend=target.label)


def strike(p: Play, f: Fighter, card: PowerCard, target: Fighter) -> None:
    """Rayon laser: « subit 1D10 points de blessure », against VIE + armour (TABLE 1)."""
    assert card.effect is not None
    # The die says whose power, never which card (4.3: only the underlined part is read).
    damage = sum(
        p.dice.roll(10, f"power damage of {f.name}", owner=f.side) for _ in range(card.effect.dice)
    )
    # 9.1: wound points « on néglige son armure ».
    result = mr.damage_state(target.characteristics["VIE"], 0, damage, wound_points=True)
    wound(p, target, damage, result)


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
