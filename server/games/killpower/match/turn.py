"""The turn (3.3, 5, TABLE 10): the movement phases, the ball given in the side-line zone,
entering and leaving the field, phase 3's order and actions without a roll."""

from __future__ import annotations

from server.errors import NotAllowed, RuleError
from server.games.killpower import match_rules as mr
from server.games.killpower.match import field
from server.games.killpower.match.commands import (
    Act,
    EndPhase,
    Enter,
    GiveBall,
)
from server.games.killpower.match.play import (
    Play,
    Refused,
    side_of,
)
from server.games.killpower.match.state import MatchState
from server.i18n import N_
from server.platform.kinds import Viewer


def subjects(state: MatchState, command: object, actor: Viewer) -> list[int] | None:
    """Whom a command concerns, for the stale-screen check (`GameKind.subjects`): a side's "the
    gladiators left do nothing" in phase 3 concerns that side alone (its coach), so both coaches
    may say it at the same moment; anything else, the whole match."""
    if isinstance(command, EndPhase) and state.stage == "running" and state.phase == 3:
        side = side_of(state, actor) or command.side
        coach = state.teams[side].coach if side in state.teams else None
        return [coach] if coach is not None else None
    return None


def on_give_ball(p: Play, c: GiveBall) -> None:
    f = p.own(c.gladiator)
    if p.s.ball != f"zt:{f.side}":
        raise RuleError(N_("Your team has no ball to give."), field="gladiator")
    if f.where != "zt":
        raise RuleError(N_("{name} is not in the side-line zone."), field="gladiator", name=f.label)
    if not p.may_receive(f):
        # 5.1: fleeing, kept off or inert, nobody can take the ball.
        raise RuleError(N_("{name} cannot take the ball now."), field="gladiator", name=f.label)
    p.s.ball = f"f:{f.id}"
    p.say(N_("{name} holds the ball."), name=f.label)


def on_enter(p: Play, c: Enter) -> None:
    s = p.s
    f = p.own(c.gladiator)
    if s.stage != "running" or s.phase == 3 or f.side != s.moving:
        raise Refused(
            N_("{name} moves in their team's movement phase only."),
            field="gladiator",
            name=f.label,
        )
    if c.type == "enter" and s.board:
        raise Refused(
            N_("With the board, tap the square {name} enters on."), field="gladiator", name=f.label
        )
    if c.type == "enter":
        if f.where != "zt":
            raise Refused(
                N_("{name} is not in the side-line zone."), field="gladiator", name=f.label
            )
        if not f.may_enter:
            # 6.3: an impossible error is cancelled (a fleeing gladiator cannot enter).
            raise Refused(N_("{name} cannot enter the field now."), field="gladiator", name=f.label)
        s.entries += 1
        f.where, f.entered = "field", s.entries
        p.say(N_("{name} enters the field."), name=f.label)
    else:
        if f.where != "field":
            raise Refused(N_("{name} is not on the field."), field="gladiator", name=f.label)
        field.leave(p, f)
        f.where = "zt"
        f.concentration = 0
        p.say(N_("{name} goes back to the side-line zone."), name=f.label)
    s.moved = True


def on_end_phase(p: Play, c: EndPhase) -> None:
    s = p.s
    if s.stage != "running":
        raise RuleError(N_("The match is not being played."))
    if s.phase in (1, 2):
        if p.side is not None and p.side != s.moving:
            raise NotAllowed(N_("The other team is moving."))
        if s.ball == f"zt:{s.moving}":
            if any(p.may_receive(f) for f in s.side_fighters(s.moving)):
                raise RuleError(
                    N_("Give the ball to one of your gladiators first."), field="gladiator"
                )
            p.ball_to(s.moving)  # nobody left to take it since (3.4): on the basket square
        for f in field.offenders(s) if s.board else []:
            # TABLE 5: "sous peine d'expulsion à la fin de la phase", 1D5 turns.
            p.say(N_("{name} stayed in their own basket zone."), name=f.label)
            p.expel(f, "basket_zone", "")
        p.end_movement()
        return
    side = p.side or c.side
    sides = [side] if side else ["A", "B"]
    if s.sprinting is not None and s.fighter(s.sprinting).side in sides:
        # 5.2: the sprint is a second move, of as many squares as its coach wants (within its
        # DEP): they say it is over here, with the others' actions.
        p.say(N_("{name}'s sprint ends."), name=s.fighter(s.sprinting).label)
        s.sprinting = None
        if not any(
            f.side in sides and f.where == "field" and not f.acted for f in s.fighters.values()
        ):
            return
    for f in s.fighters.values():
        if f.side in sides and f.where == "field" and not f.acted:
            f.acted, f.waiting = True, False
    p.say(
        N_("{team}: the gladiators left do nothing this phase."),
        team=s.team(side).roster.name if side else "—",
    )


def on_act(p: Play, c: Act) -> None:
    s = p.s
    f = p.own(c.gladiator)
    if s.phase != 3:
        raise Refused(N_("This is done in phase 3."), field="gladiator")
    p.ready_to_act(f)
    if f.has("on_ground") and c.action not in ("stand", "pass"):
        raise Refused(
            N_("{name} is on the ground: standing up costs the action."),
            field="gladiator",
            name=f.label,
        )
    if c.action == "wait":
        f.waiting = True
        p.say(N_("{name} waits."), name=f.label)
        return
    if c.action == "stand":
        if not f.has("on_ground"):
            raise Refused(N_("{name} is not on the ground."), field="gladiator", name=f.label)
        del f.conditions["on_ground"]
        p.say(N_("{name} stands up."), name=f.label)
    elif c.action == "sprint":
        if f.has("immobile") or f.has("blind"):
            raise Refused(N_("{name} cannot sprint."), field="gladiator", name=f.label)
        # 5.2: « sauf s'il est dans l'un des cas suivants : Il est dans une ou plusieurs ZA ».
        if s.board and field.zones_on(s, f):
            raise Refused(
                N_("{name} is in an enemy action zone (ZA): no sprint from there (5.2)."),
                field="gladiator",
                name=f.label,
            )
        p.say(N_("{name} sprints."), name=f.label)  # 5.2
        if s.board:  # « se déplacer une seconde fois durant la phase d'action »: its squares lit
            s.sprinting = f.id
    elif c.action == "concentrate":
        # 7, CONCENTRATION: +1 BAL per turn, at most +4; an immobile target meanwhile.
        f.concentration = min(mr.MAX_CONCENTRATION, f.concentration + 1)
        p.say(N_("{name} concentrates (+{bonus})."), name=f.label, bonus=f.concentration)
        p.spend(f)
        return
    else:
        p.say(N_("{name} does nothing."), name=f.label)
    f.concentration = 0
    p.spend(f)
