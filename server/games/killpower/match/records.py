"""What a referee (or both self-refereeing coaches) records (6): hurts, states, expulsions,
re-entries, a surrender; the free throws after a draw (3.4)."""

from __future__ import annotations

from typing import Any

from server.errors import NotAllowed, RuleError
from server.games.killpower import match_rules as mr
from server.games.killpower.match.combat import (
    wound,
)
from server.games.killpower.match.commands import (
    Expel,
    FreeShot,
    Hurt,
    Reentry,
    SetCondition,
    Surrender,
)
from server.games.killpower.match.effects import armour_of, put_condition
from server.games.killpower.match.play import (
    Play,
    Refused,
)
from server.games.killpower.match.state import (
    CONDITION_TITLES,
    SIDES,
    FreeThrow,
    MatchState,
)
from server.games.killpower.match_rules import Side
from server.i18n import N_, P_, Msg

# Adversaries consent (`server.platform.consent`): self-refereed, a coach's hand tools on the other
# team's gladiators (states, damage or wound points, expulsions) are proposals its coach accepts or
# refuses; on their own team, and everything the rules' flow asks, one tap.
HAND_TOOLS = frozenset({"hurt", "condition", "expel"})


def touches(state: MatchState, command: Any) -> set[str]:
    """The team whose gladiator a hand tool names."""
    fighter = state.fighters.get(str(getattr(command, "gladiator", None)))
    return {fighter.side} if fighter is not None else set()


def sides(state: MatchState) -> list[str]:
    return [side for side in SIDES if side in state.teams]


def moment(state: MatchState) -> Any:
    """A proposal holds for the phase it was made in."""
    return [state.stage, state.turn, state.phase]


def on_hurt(p: Play, c: Hurt) -> None:
    f = p.s.fighter(c.gladiator)
    if f.where != "field":
        raise Refused(N_("{name} is not on the field."), field="gladiator", name=f.label)
    result = mr.damage_state(
        f.characteristics["VIE"], armour_of(p.s, f), c.points, wound_points=c.wound_points
    )
    wound(p, f, c.points, result)


def on_condition(p: Play, c: SetCondition) -> None:
    s = p.s
    f = s.fighter(c.gladiator)
    title = Msg(CONDITION_TITLES[c.condition])
    if c.clear:
        if c.condition not in f.conditions:
            raise RuleError(
                N_("{name} is not {condition}."),
                field="condition",
                name=f.label,
                condition=title,
            )
        del f.conditions[c.condition]
        f.causes.pop(c.condition, None)
        p.say(N_("{name} is no longer {condition}."), name=f.label, condition=title)
        return
    if c.card is not None and c.card not in s.cards:
        raise RuleError(N_("A bluff puts no state on anyone."), field="card")
    put_condition(p, f, c.condition, c.turns, c.card)


def on_expel(p: Play, c: Expel) -> None:
    f = p.s.fighter(c.gladiator)
    if f.where not in ("field", "zt"):
        raise Refused(N_("{name} is not in play."), field="gladiator", name=f.label)
    p.expel(f, c.offence, c.reason.strip())


def on_reentry(p: Play, c: Reentry) -> None:
    f = p.own(c.gladiator)
    if f.where != "zt" or f.square is None:
        raise RuleError(
            N_("{name} is not coming back from an expulsion."), field="gladiator", name=f.label
        )
    if c.outcome == "taken":
        f.square = mr.reentry_square(p.dice, f.name)
        p.say(
            N_("Square taken: {name} comes back on {row}-{square}."),
            name=f.label,
            row=f.square[0],
            square=f.square[1],
        )
    else:
        p.say(N_("No room in the side-line zone for {name}."), name=f.label)
        p.expel(f, "again")


def on_surrender(p: Play, c: Surrender) -> None:
    s = p.s
    side = p.side or c.side
    if side is None:
        raise RuleError(N_("Say which team surrenders."), field="side")
    # 3.4, ABANDON: only at the start of the team's own movement phase.
    if s.stage != "running" or s.phase == 3 or s.moving != side or s.moved:
        raise Refused(
            N_("A team surrenders only at the start of its own movement phase."), field="side"
        )
    s.surrendered = side
    p.say(N_("{team} surrenders."), team=s.team(side).roster.name)
    p.finish()


def throw_order(s: MatchState) -> list[Side]:
    living: dict[Side, int] = {
        side: min(
            mr.FREE_THROWS,
            len([f for f in s.side_fighters(side) if f.where not in ("dead", "coma")]),
        )
        for side in SIDES
    }
    stronger: Side = "A" if s.team("A").power >= s.team("B").power else "B"
    return mr.free_throw_order(stronger, living)


def throw_round(s: MatchState) -> int:
    per_round = len(throw_order(s))
    return len(s.throws) // max(1, per_round) + 1


def next_thrower(s: MatchState) -> Side:
    order = throw_order(s)
    return order[len(s.throws) % len(order)]


def on_free_throw(p: Play, c: FreeShot) -> None:
    """13.2, LANCERS FRANCS: two living gladiators per team, 2 to 12 squares, BAL with the
    distance malus only, the stronger team first; tied again, two more tries by the same."""
    s = p.s
    if s.stage != "free_throws":
        raise RuleError(N_("Free throws follow a tournament draw only."))
    f = s.fighter(c.gladiator)
    expected = next_thrower(s)
    if f.side != expected or (p.side is not None and p.side != f.side):
        raise NotAllowed(N_("{team} throws now."), team=s.team(expected).roster.name)
    if f.where in ("dead", "coma") or (f.where == "expelled" and f.back and f.back.turn < 1):
        raise Refused(N_("{name} cannot take a free throw."), field="gladiator", name=f.label)
    round_ = throw_round(s)
    mine = [t for t in s.throws if t.side == f.side]
    this_round = [t.fighter for t in mine if t.round == round_]
    if f.id in this_round:
        raise Refused(N_("Another gladiator takes the second throw."), field="gladiator")
    first_round = [t.fighter for t in mine if t.round == 1]
    if round_ > 1 and f.id not in first_round:
        raise Refused(N_("The new tries are taken by the same gladiators."), field="gladiator")
    needed = mr.shot_needed(f.characteristics["BAL"], c.distance)
    die = p.dice.roll(10, f"free throw of {f.name}", owner=f.side)
    ok = mr.succeeds(die, needed)
    points = c.distance if ok else 0
    s.throws.append(
        FreeThrow(
            side=f.side,
            fighter=f.id,
            distance=c.distance,
            die=die,
            needed=needed,
            points=points,
            round=round_,
        )
    )
    p.say_counted(
        P_(
            "Free throw of {name} from {distance} square: {die}, {result}.",
            "Free throw of {name} from {distance} squares: {die}, {result}.",
        ),
        "distance",
        name=f.label,
        distance=c.distance,
        die=die,
        result=Msg(N_("in") if ok else N_("missed")),
    )
    if len([t for t in s.throws if t.round == round_]) == len(throw_order(s)):
        a = s.team("A").score + sum(t.points for t in s.throws if t.side == "A")
        b = s.team("B").score + sum(t.points for t in s.throws if t.side == "B")
        if a == b:
            p.say(N_("Still tied at {a} – {b}: two new tries."), a=a, b=b)
        else:
            p.close(("won", "lost") if a > b else ("lost", "won"))
