"""The ball (7, TABLE 9): shots at the basket, throws, hand-offs, taking and picking it up, where
a missed ball lands, interceptions, the basket and its reset (3.4)."""

from __future__ import annotations

from typing import Any

from server.games.killpower import board
from server.games.killpower import match_rules as mr
from server.games.killpower.match import effects, field
from server.games.killpower.match.commands import (
    Handoff,
    Pick,
    Shot,
    Take,
    Throw,
)
from server.games.killpower.match.play import (
    Play,
    Refused,
)
from server.games.killpower.match.state import (
    Fighter,
    MatchState,
    Pending,
)
from server.games.killpower.match_rules import Side, other
from server.i18n import N_, P_, Msg


def holding_ball(p: Play, gladiator: int) -> Fighter:
    f = p.own(gladiator)
    if p.s.carrier is not f:
        raise Refused(N_("{name} does not hold the ball."), field="gladiator", name=f.label)
    p.ready_to_act(f)
    if f.has("on_ground"):
        raise Refused(N_("{name} is on the ground."), field="gladiator", name=f.label)
    return f


def score_basket(p: Play, scorer: Side, points: int, *, own: bool) -> None:
    """`scorer` gets the points. 3.4: the team that put the ball in a basket places first;
    after an own basket (7, TIRER DANS UN PANIER) "la balle revient à l'équipe adverse, même
    si elle se place en second": the shooter's team places first, the scorer gets the ball."""
    p.score(scorer, points)
    if own:
        p.reset(other(scorer), scorer)
    else:
        p.reset(scorer, other(scorer))


def land_ball(p: Play, data: dict[str, Any]) -> None:
    s = p.s
    if data["kind"] == "shot":
        score_basket(p, data["scorer"], data["points"], own=data["own"])
    elif data["kind"] == "pass" and data.get("to"):
        to = s.fighter(data["to"])
        if to.where == "field" and not to.inert:
            s.ball, s.ball_note = f"f:{to.id}", ""
            p.say(N_("{name} catches the ball."), name=to.label)
        else:
            s.ball = "ground"
            field.ball_drops(s, to)
            p.say(N_("The ball falls next to {name}."), name=to.label)
    elif data["kind"] == "pass":
        s.ball, s.ball_note = "ground", ""
        p.say(N_("The ball lands on the aimed square."))
    if data.get("at") is not None and s.ball == "ground" and not data.get("to"):
        s.ball_at = (data["at"][0], data["at"][1])  # the board: where it lies


def interceptors_of(s: MatchState, side: Side) -> list[Fighter]:
    return [
        f
        for f in s.side_fighters(side)
        if f.where == "field" and not f.acted and Play.can_act(f) and not f.has("on_ground")
    ]


def offered_interceptors(s: MatchState, side: Side, data: dict[str, Any]) -> list[Fighter]:
    """7: who may try to intercept the ball in the air now: able, and on the board, one whose
    action zone its path crosses (`data["who"]`). What a coach is offered is this, and what the
    engine accepts is this (issue 33, item 3)."""
    return [f for f in interceptors_of(s, side) if "who" not in data or f.id in data["who"]]


def fly(p: Play, thrower: Fighter, data: dict[str, Any]) -> None:
    """7, ATTRAPER LE BALLON: after the thrower's roll, the other team says whether a
    gladiator whose action zone the ball crosses tries to intercept it."""
    s = p.s
    if data["kind"] != "loose":
        s.ball = "air"
    side = other(thrower.side)
    able = interceptors_of(s, side)
    if s.board and data.get("at") is not None:
        # The board: only those whose action zone the ball's path crosses are asked.
        landing = (data["at"][0], data["at"][1])
        who = field.interceptors_on_path(s, thrower, landing, able)
        data = {**data, "who": who}
        able = [f for f in able if f.id in who]
    if able:
        s.pending = Pending(kind="intercept", side=side, data={**data, "thrower": thrower.id})
        p.say(N_("{team} may try to intercept."), team=s.team(side).roster.name)
    else:
        land_ball(p, data)


def miss(
    p: Play, f: Fighter, die: int, needed: int, aimed: str, square: board.Square | None = None
) -> None:
    """TABLE 9.E: (die - needed) squares from the target, in a TABLE 4 direction; with the board,
    from the aimed `square`, and the ball lies where it lands."""
    s = p.s
    away = max(1, die - needed)
    landing = None
    if s.board and square is not None:
        landing, way = field.landing_of_miss(p, f, square, away)
    else:
        way = mr.direction(p.dice)
    s.ball = "ground"
    arrow = board.UPRIGHT_ARROWS[way] if landing is not None else mr.DIRECTIONS[way]
    # The board says where the ball lies; the sheet alone, how far from the aim and which way.
    s.ball_note = "" if landing is not None else f"{away} {arrow} ({way})"
    p.say_counted(
        P_(
            "{name} misses ({die}): the ball lands {away} square from {aimed}, direction {way} {arrow}.",
            "{name} misses ({die}): the ball lands {away} squares from {aimed}, direction {way} {arrow}.",
        ),
        "away",
        name=f.label,
        die=die,
        away=away,
        aimed=Msg(aimed),
        way=way,
        arrow=arrow,
    )
    if landing is not None:
        s.ball_at = landing
        p.say(N_("The ball lies on {square}."), square=board.name(landing))
    fly(p, f, {"kind": "loose", "at": landing})


def on_shot(p: Play, c: Shot) -> None:
    s = p.s
    f = holding_ball(p, c.gladiator)
    field.on_the_board(s, f)
    if s.board:
        # 7: measured on the board, not said by the coach.
        geometry = field.shot_geometry(s, f, c.own)
        basket = geometry.pop("basket")
        c = c.model_copy(update=geometry)
    elif "distance" not in c.model_fields_set:
        raise Refused(N_("Say how many squares from the basket."), field="distance")
    concentration, f.concentration = f.concentration, 0
    p.spend(f)
    scorer = other(f.side) if c.own else f.side
    if c.near:
        # 7, SUR LA CASE DU PANIER: 1 point, no roll, nobody can prevent it.
        p.say(N_("{name} scores from the basket's reach."), name=f.label)
        score_basket(p, scorer, 1, own=c.own)
        return
    bal = f.characteristics["BAL"]
    needed = mr.shot_needed(
        bal,
        c.distance,
        concentration,
        blind=c.blind or f.has("blind"),
        long_shot=effects.long_shot(s, f),
    )
    die, ok = p.roll(f, "shot", needed, c.token)
    if ok and (c.blind or f.has("blind")) and not c.token:
        ok = p.dice.roll(10, f"blind basket of {f.name}", owner=f.side) == 1  # 9.F: then 1 on 1D10
        if not ok:
            s.ball, s.ball_note = "basket", ""
            s.ball_at = basket if s.board else None
            p.say(N_("{name}'s blind shot lands on the basket square."), name=f.label)
            return
    if ok and c.other_half:
        s.ball, s.ball_note = "basket", ""
        s.ball_at = basket if s.board else None
        p.say(
            N_("{name} scores from the other half: refused, the ball is put on the basket square."),
            name=f.label,
        )
        return
    if ok:
        points = mr.basket_value(c.distance, token=c.token)
        p.say_counted(
            P_(
                "{name} shoots from {distance} square: {die}, in!",
                "{name} shoots from {distance} squares: {die}, in!",
            ),
            "distance",
            name=f.label,
            distance=c.distance,
            die=die,
        )
        shot = {"kind": "shot", "scorer": scorer, "points": points, "own": c.own}
        fly(p, f, {**shot, "at": basket} if s.board else shot)
        return
    miss(p, f, die, needed, N_("the basket"), basket if s.board else None)


def on_throw(p: Play, c: Throw) -> None:
    s = p.s
    f = holding_ball(p, c.gladiator)
    field.on_the_board(s, f)
    aimed: board.Square | None = None
    if c.to is not None:
        to = s.fighter(c.to)
        if to.side != f.side or to.id == f.id:
            raise Refused(N_("A pass goes to a friend."), field="to")
        if s.board:
            aimed = field.square_of(s, to)
            if aimed is None:
                raise Refused(N_("{name} is not on the field."), field="to", name=to.label)
    elif s.board:
        aimed = board.parse(c.at or "")
        if aimed is None:
            raise Refused(N_("Tap the square the ball is thrown to."), field="at")
    elif "distance" not in c.model_fields_set:
        raise Refused(N_("Say how many squares the ball flies."), field="distance")
    if aimed is not None:
        c = c.model_copy(update=field.throw_geometry(s, f, aimed))  # 7, measured on the board
    f.concentration = 0
    p.spend(f)
    needed = mr.throw_needed(f.characteristics["BAL"], c.distance, blind=c.blind or f.has("blind"))
    die, ok = p.roll(f, "throw", needed, c.token)
    if ok:
        p.say_counted(
            P_(
                "{name} throws {distance} square: {die}, on target.",
                "{name} throws {distance} squares: {die}, on target.",
            ),
            "distance",
            name=f.label,
            distance=c.distance,
            die=die,
        )
        fly(p, f, {"kind": "pass", "to": c.to, "at": aimed})
    else:
        miss(p, f, die, needed, N_("the aimed square"), aimed)


def on_handoff(p: Play, c: Handoff) -> None:
    s = p.s
    f = p.own(c.gladiator)
    if s.carrier is not f:
        raise Refused(N_("{name} does not hold the ball."), field="gladiator", name=f.label)
    to = s.fighter(c.to)
    if to.side != f.side or to.id == f.id or to.where != "field" or to.inert:
        raise Refused(N_("The ball is handed to a friend on the field."), field="to")
    if s.board and not field.near(
        field.square_of(s, f), field.square_of(s, to), 2 if c.reach else 1
    ):
        # 7: the passer in the receiver's action zone, or one square between when reaching out.
        raise Refused(N_("{name} is too far to hand the ball to."), field="to", name=to.label)
    # 7: the passer lets go (0A) and the receiver takes it (1A); reaching out costs the passer.
    taker = f if c.reach else to
    p.ready_to_act(taker, phase3_order=False)
    p.spend(taker)
    s.ball = f"f:{to.id}"
    p.say(N_("{name} hands the ball to {to}."), name=f.label, to=to.label)


def on_take(p: Play, c: Take) -> None:
    s = p.s
    f = p.own(c.gladiator)
    carrier = s.carrier
    if carrier is None or carrier.side == f.side or carrier.where != "field":
        raise Refused(N_("No enemy holds the ball on the field."), field="gladiator")
    if effects.is_ghost(s, carrier):
        raise Refused(
            N_("{name} is a ghost: the ball cannot be taken from them."),
            field="gladiator",
            name=carrier.label,
        )
    if s.board and not field.near(field.square_of(s, f), field.square_of(s, carrier)):
        # 7, PRENDRE LE BALLON: "la cible doit être dans la ZA de celui qui veut lui prendre".
        raise Refused(N_("{name} is not next to the carrier."), field="gladiator", name=f.label)
    p.ready_to_act(f)
    f.concentration = 0
    p.spend(f)
    die, ok = p.roll(f, "take", f.characteristics["BAL"], c.token)
    if not ok:
        p.say(N_("{name} fails to take the ball ({die})."), name=f.label, die=die)
        return
    p.say(
        N_("{name} grabs the ball from {carrier} ({die})."),
        name=f.label,
        carrier=carrier.label,
        die=die,
    )
    if not carrier.acted and Play.can_act(carrier):
        s.pending = Pending(kind="resist", side=carrier.side, data={"taker": f.id})
    else:
        s.ball = f"f:{f.id}"


def on_pick(p: Play, c: Pick) -> None:
    s = p.s
    f = p.own(c.gladiator)
    if c.type == "drop":
        if s.carrier is not f:
            raise Refused(N_("{name} does not hold the ball."), field="gladiator", name=f.label)
        front = field.drop_square(s, f, c.at)  # from the side-line zone: onto the field (7)
        if c.zone or front is not None:  # 1A to a square of the action zone, 0A on one's own
            p.ready_to_act(f, phase3_order=False)
            p.spend(f)
        s.ball, s.ball_note = "ground", ""
        field.ball_drops(s, f)
        if front is not None:
            s.ball_at = front
        p.say(N_("{name} puts the ball down."), name=f.label)
        return
    if s.ball not in ("ground", "basket", "center"):
        raise Refused(N_("The ball is not on the ground."), field="gladiator")
    if not (s.phase in (1, 2) and f.side != s.moving):
        p.ready_to_act(f)  # TABLE 10: the team that is not moving may pick the ball up too
    if f.where != "field" or f.acted or not Play.can_act(f) or f.has("on_ground"):
        raise Refused(N_("{name} cannot pick the ball up now."), field="gladiator", name=f.label)
    if s.board and not field.near(field.square_of(s, f), field.ball_square(s)):
        # 7, RAMASSER LE BALLON: the ball in one's action zone.
        raise Refused(N_("The ball is not within {name}'s reach."), field="gladiator", name=f.label)
    f.concentration = 0
    p.spend(f)
    s.ball, s.ball_note = f"f:{f.id}", ""
    p.say(N_("{name} picks the ball up."), name=f.label)
