"""What each viewer of the match sees (the sheet, a coach's side with its secrets, the public
board) and the journal's words; built from the state only."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from server.games.killpower import board
from server.games.killpower import match_rules as mr
from server.games.killpower.match import effects, field
from server.games.killpower.match.ball import (
    offered_interceptors,
)
from server.games.killpower.match.play import (
    Play,
    act_refusal,
    can_act,
    side_of,
)
from server.games.killpower.match.records import (
    next_thrower,
)
from server.games.killpower.match.state import (
    CASE_TITLES,
    CONDITION_TITLES,
    OFFENCE_TITLES,
    PENDING_TITLES,
    PHASE_TITLES,
    SIDES,
    WHERE_TITLES,
    Fighter,
    MatchState,
)
from server.games.killpower.match_rules import Side
from server.games.killpower.rules import LOCATION_TITLES, OUTCOME_TITLES
from server.i18n import N_, P_, Msg
from server.platform.kinds import (
    LoggedEvent,
    Part,
    Viewer,
    full_event,
    rolls_for,
)
from server.platform.now import NOTHING_LEFT, WATCH, Now

# The second type of a command sent as two (its move's label names the first).
SECOND_LABELS = {
    "leave": N_("the return to the side-line zone"),
    "drop": N_("putting the ball down"),
}


def viewer_side(event: LoggedEvent, viewer: Viewer) -> str | None:
    """A coach's side, as the match's log knows it (the coach person ids ride on every event's
    result under "coaches")."""
    coaches = event.result.get("coaches", {})
    for side, person in coaches.items():
        if person == viewer.person_id:
            return str(side)
    return None


def ball_text(state: MatchState) -> Msg:
    carrier = state.carrier
    if carrier is not None:
        return Msg(N_("held by {name}"), {"name": carrier.label})
    if state.ball.startswith("zt:"):
        return Msg(N_("with {team}, to give"), {"team": state.team(state.ball[3:]).roster.name})
    texts = {
        "ground": N_("on the ground"),
        "basket": N_("on the basket square"),
        "center": N_("on H14, the centre"),
        "air": N_("in the air"),
    }
    text = Msg(texts.get(state.ball, N_("not in play")))
    if state.board and state.ball_at is not None and state.ball in ("ground", "basket"):
        return Msg(N_("{text}, on {square}"), {"text": text, "square": board.name(state.ball_at)})
    if state.ball == "ground" and state.ball_note:
        return Msg(N_("{text} (from the aim: {note})"), {"text": text, "note": state.ball_note})
    return text


def power_view(state: MatchState, f: Fighter, key: str) -> dict[str, Any]:
    card = state.cards.get(key)
    if card is None:
        return {"key": key, "name": key, "text": "", "cost": 0, "uses_left": None, "active": False}
    return {
        "key": key,
        "name": card.name,
        "text": card.text,
        "read_aloud": card.read_aloud,
        "cost": card.activation.cost,
        "roll": card.activation.characteristic,
        "uses_left": None if card.uses is None else card.uses - f.uses.get(key, 0),
        # A card whose effect aims at someone asks whom (`powers.aimed_at`).
        "aims": card.effect is not None and card.effect.target != "bearer" and not card.read_when,
        # A card that sets its bearer on a square (Téléportation) asks which.
        "places": card.effect is not None and card.effect.kind == "teleport",
        "active": key in f.active,
        "kind": card.activation.kind,
        # What the card menu offers: a use left, and not an end-of-match power (the league
        # plays Dernière chance when it rolls the risks of death).
        "playable": (card.uses is None or f.uses.get(key, 0) < card.uses)
        and not (card.effect is not None and card.effect.kind == "second_chance"),
    }


def fighter_view(f: Fighter, state: MatchState, secret: bool) -> dict[str, Any]:
    """A gladiator as a viewer sees it: its state for everyone; RAP, characteristics and power
    cards only for its own coach and the staff."""
    view: dict[str, Any] = {
        "id": f.id,
        "side": f.side,
        "number": f.number,
        "name": f.name,
        "label": f.label,
        "where": f.where,
        "acted": f.acted,
        "waiting": f.waiting,
        "may_enter": f.may_enter,
        "inert": f.inert,  # 8.4: a blow may then choose where it lands
        # 7, RAMASSER LE BALLON: on the field, its action not spent, standing, able to act
        # (`ball.on_pick`'s own conditions; the reach is the board's `reaches_ball`).
        "may_pick": f.where == "field" and not f.acted and can_act(f) and not f.has("on_ground"),
        "ball": state.carrier is f,
        "conditions": [
            {"key": c, "left": u.left(state.turn) if u else None}
            for c, u in sorted(f.conditions.items())
        ],
        # 6.2: either coach may ask how long an expulsion still lasts; the sheet shows it.
        "expelled_left": f.back.left(state.turn) if f.where == "expelled" and f.back else None,
        "past_end": bool(f.where == "expelled" and f.back and f.back.turn < 1),
        "square": list(f.square) if f.square else None,
        "cards_down": len(f.active),
        "concentration": f.concentration,
        # 5.2: what the sprint button offers is what the rules take (the board is public).
        "may_sprint": not (f.has("immobile") or f.has("blind"))
        and not (state.board and f.where == "field" and field.zones_on(state, f)),
    }
    if secret:
        view.update(
            # 3.3, TABLE 10: whether its action may be spent now (what a roll "costing the
            # action" is offered for, as the rules judge it: `play.act_refusal`); its own
            # coach's and the staff's, as the RAP it reads.
            may_act=state.stage == "running" and act_refusal(state, f) is None,
            # ...and out of phase 3's order: the receiver of a hand-off takes the ball with its
            # action (7, `ball.on_handoff`), the passer reaching out spends its own.
            may_act_free=state.stage == "running"
            and act_refusal(state, f, phase3_order=False) is None,
            # 5.1: back to the side-line zone; with the board, from the edge in front of it, one
            # DEP left (`field.leave`): its own coach's and the staff's, as the DEP it reads.
            may_leave=f.where == "field"
            and (
                not state.board
                or (
                    field.square_of(state, f) in field.edge_of(f.side)
                    and field.allowance(state, f) >= 1
                )
            ),
            rap=f.rap,
            characteristics=f.characteristics,
            armour=effects.armour_of(state, f),  # with a card that adds to it (Peau de pierre)
            gloves=f.gloves,
            state=f.state,
            powers=[power_view(state, f, k) for k in f.powers],
            after=f.after,
            # 8: « Elle doit être dans sa ZA »: with the board, whom a blow can reach (the
            # attack form offers them only); none without the board (the table judges).
            reach=[
                g.id
                for g in state.fighters.values()
                if g.where == "field" and board.near(state.square_of(f), state.square_of(g))
            ]
            if state.board
            else None,
            # 7, PASSER LE BALLON DE LA MAIN: with the board, how far each friend is from it (1:
            # in its action zone, handed; 2: one square between, the passer reaching out).
            apart=apart(state, f),
            # 7, RAMASSER: with the board, whether a loose ball is in its action zone.
            reaches_ball=board.near(state.square_of(f), field.ball_square(state))
            if state.board and state.ball in ("ground", "basket", "center")
            else None,
        )
    return view


def apart(state: MatchState, f: Fighter) -> dict[str, int] | None:
    """How many squares each friend on the field is from the ball carrier `f` (the board's; None
    for anyone else, or without the board)."""
    here = state.square_of(f)
    if not state.board or state.carrier is not f or here is None:
        return None
    return {
        str(g.id): board.distance(here, there)
        for g in state.fighters.values()
        if g.side == f.side
        and g.id != f.id
        and g.where == "field"
        and (there := state.square_of(g)) is not None
    }


def board_part(state: MatchState, viewer: Viewer, now: datetime) -> dict[str, Any]:
    """What both coaches and the public see: no RAP value, no lineup, no card."""
    return match_view(state, staff=False, side=None)


def sheet_part(state: MatchState, viewer: Viewer, now: datetime) -> dict[str, Any]:
    """The referee's sheet: everything, both sides' secrets included."""
    return match_view(state, staff=True, side=None)


def side_part(state: MatchState, viewer: Viewer, now: datetime) -> dict[str, Any] | None:
    """A coach's: the match with their own side's secrets (RAP, lineup, cards, bluffs)."""
    side = side_of(state, viewer)
    return match_view(state, staff=False, side=side) if side is not None else None


# Each part is the whole match as its viewers may see it: the board's for all, the sheet for the
# staff, a side's for that side's coach.
PARTS: tuple[Part[MatchState], ...] = (
    Part("board", "game", board_part),
    Part("sheet", "staff", sheet_part),
    Part("side", "side", side_part),
)


def team_view(state: MatchState, key: Side, secret: bool) -> dict[str, Any]:
    """A team on the sheet; `secret`: with its lineup, bluffs, RAP values and armed cards."""
    team = state.teams[key]
    entry: dict[str, Any] = {
        "side": key,
        "name": team.roster.name,
        "coach": team.roster.coach_name,
        "ready": team.ready,
        "score": team.score,
        "power": team.power if state.stage != "lineup" else None,
        "margin": team.margin if state.stage != "lineup" else None,
        "case": team.case,
        "idle_since": team.idle_since,
        "fighters": [fighter_view(f, state, secret) for f in state.side_fighters(key)],
    }
    if secret:
        entry["bluff"] = team.bluff
        # 4.4: the bluff cards still in hand (those down are on the table): what may be played.
        down = sum(f.active.count("bluff") for f in state.side_fighters(key))
        entry["bluff_in_hand"] = max(0, team.bluff - down)
        entry["lineup"] = team.lineup
        entry["roster"] = team.roster.gladiators
        entry["armed"] = [
            {
                "fighter": a.fighter,
                "label": state.fighter(a.fighter).label,
                "card": a.card,
                "name": state.cards[a.card].name,
                "when": state.cards[a.card].read_when,
            }
            for a in state.armed
            if a.side == key
        ]
    return entry


def order_view(state: MatchState, staff: bool, side: Side | None) -> list[dict[str, Any]]:
    """Phase 3's order, as the referee calls it aloud: RAP values stay with their coach."""
    if not (state.stage == "running" and state.phase == 3 and state.pending is None):
        return []
    play_order = mr.phase3_order(
        [
            mr.Actor(str(f.id), f.side, f.rap)
            for f in state.fighters.values()
            if f.where == "field" and not f.acted and not f.waiting and Play.can_act(f)
        ],
        state.hand,
    )
    return [
        {
            "id": int(a.key),
            "side": a.side,
            "label": state.fighters[a.key].label,
            "rap": a.rap if staff or a.side == side else None,
        }
        for a in play_order
    ]


def pending_view(state: MatchState, staff: bool, side: Side | None) -> dict[str, Any] | None:
    """The question a side must answer before anything else (evade, intercept, resist)."""
    if state.pending is None:
        return None
    data = state.pending.data
    pending: dict[str, Any] = {
        "kind": state.pending.kind,
        "side": state.pending.side,
        "mine": staff or side == state.pending.side,
    }
    if state.pending.kind == "evade":
        pending["target"] = state.fighter(data["target"]).label
        pending["hits"] = [{"id": h, "label": state.fighter(h).label} for h in data["hits"]]
    elif state.pending.kind == "intercept":
        offered = offered_interceptors(state, state.pending.side, data)
        pending["who"] = [{"id": f.id, "label": f.label} for f in offered]
    else:
        pending["taker"] = state.fighter(data["taker"]).label
    return pending


def board_view(state: MatchState, *, staff: bool, side: Side | None) -> dict[str, Any] | None:
    """The board when the match keeps it: squares are public (issue 22: "positions are public"),
    no RAP, card or lineup in it; the squares each gladiator may go to, for whoever moves it."""
    if not state.board:
        return None
    carrier = state.carrier
    pieces = [
        {
            "id": f.id,
            "side": f.side,
            "number": f.number,
            "name": f.label,
            "square": board.name(sq),
            "column": sq[0],
            "row": sq[1],
            "ball": f is carrier,
            "down": f.inert or f.has("on_ground"),
        }
        for f, sq in sorted(field.on_field(state), key=lambda p: (p[0].side, p[0].number))
    ]
    ball = field.ball_square(state)
    taken = field.occupied(state)
    moves: dict[str, list[str]] = {}
    if staff or (side is not None and state.mode == "self"):
        for f in state.fighters.values():
            if side is not None and f.side != side:
                continue
            options = field.legal_moves(state, f)
            if options:
                moves[str(f.id)] = sorted(board.name(sq) for sq in options)
    shot = aims = None
    if carrier is not None and (staff or side == carrier.side) and field.square_of(state, carrier):
        shot, aims = carrier_hints(state, carrier)
    return {
        "shot": shot,
        "aims": aims,
        "pieces": pieces,
        "ball": board.name(ball) if ball is not None and carrier is None else None,
        "ball_square": list(ball) if ball is not None else None,
        "moves": moves,
        "movers": [
            {
                "id": f.id,
                "name": f.label,
                "where": f.where,
                "blind": f.has("blind"),
                # 5.1, AVEUGLE: the squares a blind walk may announce (its DEP left).
                "steps": field.allowance(state, f),
            }
            for f in sorted(state.fighters.values(), key=lambda f: (f.side, f.number))
            if str(f.id) in moves
        ],
        "columns": board.COLUMNS,
        "rows": board.ROWS,
        "letters": board.LETTERS,
        "zones": {k: sorted(board.basket_zone(k)) for k in SIDES},
        # 7: where a carrier in its side-line zone puts the ball down (the edge in front of it);
        # 4 (Téléportation): the free squares of each half, where a card sets its bearer.
        "edges": {k: sorted(board.name(sq) for sq in field.edge_of(k)) for k in SIDES},
        "free": {
            k: sorted(
                board.name((c, r))
                for c in range(1, board.COLUMNS + 1)
                for r in range(1, board.ROWS + 1)
                if board.half_of((c, r)) == k and (c, r) not in taken
            )
            for k in SIDES
        },
    }


def carrier_hints(state: MatchState, carrier: Fighter) -> tuple[str, str]:
    """What the carrier's side reads before shooting or throwing (TABLE 9, from the squares):
    the shot at the other basket, and what a throw needs by distance. Its BAL is its side's."""
    g = field.shot_geometry(state, carrier, own=False)
    bal = carrier.characteristics["BAL"]
    basket = board.name(g["basket"])
    if g["other_half"]:
        shot = Msg(
            N_("From {square}, {basket} is on the other half: a basket would be refused."),
            {
                "square": board.name(field.square_of(state, carrier) or g["basket"]),
                "basket": basket,
            },
        )
    elif g["near"]:
        shot = Msg(N_("{basket} within reach: 1 point, no roll."), {"basket": basket})
    else:
        needed = mr.shot_needed(
            bal,
            g["distance"],
            carrier.concentration,
            blind=g["blind"],
            long_shot=effects.long_shot(state, carrier),
        )
        shot = Msg.counted(
            P_(
                "{distance} square to {basket}{seen}: a die of {needed} or less scores {distance} point.",
                "{distance} squares to {basket}{seen}: a die of {needed} or less scores {distance} points.",
            ),
            "distance",
            {
                "distance": g["distance"],
                "basket": basket,
                "seen": Msg(N_(", not seen")) if g["blind"] else "",
                "needed": needed,
            },
        )
    steps = " · ".join(f"{d}: {mr.throw_needed(bal, d)}" for d in (3, 6, 9, 12, 15))
    aims = Msg(N_("A throw needs, by squares: {steps} (or less)."), {"steps": steps})
    return shot.render(), aims.render()


def sprinter_of(state: MatchState) -> Fighter | None:
    return state.fighter(state.sprinting) if state.sprinting is not None else None


def match_view(state: MatchState, *, staff: bool, side: Side | None) -> dict[str, Any]:
    teams = {
        key: team_view(state, key, staff or side == key) for key in SIDES if key in state.teams
    }
    order = order_view(state, staff, side)
    due = order[0] if order else None
    pending = pending_view(state, staff, side)
    throws = []
    if state.throws or state.stage == "free_throws":
        throws = [t.model_dump() | {"label": state.fighter(t.fighter).label} for t in state.throws]
    return {
        "stage": state.stage,
        "mode": state.mode,
        "tournament": state.tournament,
        "me": side,
        "plays": staff or (side is not None and state.mode == "self"),
        "turn": state.turn,
        "turns": list(range(mr.TURNS, 0, -1)),
        "phase": state.phase,
        "hand": state.hand,
        "moving": state.moving if state.stage == "running" and state.phase != 3 else None,
        "may_surrender": state.stage == "running" and state.phase != 3 and not state.moved,
        "token": state.token,
        "first": state.first,
        "ball": ball_text(state).render(),
        "ball_to_give": state.ball[3:] if state.ball.startswith("zt:") else None,
        "ball_loose": state.ball in ("ground", "basket", "center"),
        "teams": teams,
        "due": due,
        "order": order,
        "pending": pending,
        # 5.2: a sprint moves its gladiator now, before the next gladiator acts (which ends it).
        "sprinting": {
            "side": sprinter.side,
            "label": sprinter.label,
            # its move not spent yet: the board still lights a square for it
            "can_move": bool(field.legal_moves(state, sprinter)) if state.board else False,
        }
        if state.stage == "running" and state.phase == 3 and (sprinter := sprinter_of(state))
        else None,
        "gift": state.gift,
        "reveals": [r.model_dump() for r in state.reveals],
        "surrendered": state.surrendered,
        "eliminated": state.eliminated,
        "outcomes": list(state.outcomes) if state.outcomes else None,
        "throws": throws,
        "next_thrower": next_thrower(state) if state.stage == "free_throws" else None,
        "league": state.league,
        "board": board_view(state, staff=staff, side=side),
    }


def reads_everything(state: MatchState, viewer: Viewer) -> bool:
    """Self-refereed, Arbitre is the referee and each coach's RAP is theirs alone until the end:
    no staff reads the whole record meanwhile (its file goes sealed); refereed, the referee
    reads both sides, by the book."""
    return viewer.is_staff and (state.mode == "referee" or state.stage == "finished")


def log_view(event: LoggedEvent, viewer: Viewer) -> dict[str, Any] | None:
    if viewer.is_staff:
        return full_event(event)
    if event.type not in ("command", "undo"):
        return None
    # Coaches read the summaries (written for both) and their own side's private notes (the
    # platform adds them, see `KillpowerMatch.audiences`); never
    # the commands, which hold the other side's lineup and cards. The dice show, each marked when
    # entered by hand, the other side's RAP without its value.
    side = viewer_side(event, viewer)
    entry: dict[str, Any] = {
        "seq": event.seq,
        "at": event.at.isoformat(),
        "summary": event.summary.render(),
        "undone": event.undone,
        "rolls": rolls_for(
            event.rolls, lambda roll: side is not None and roll.get("owner") == side
        ),
    }
    return entry


def template_globals() -> dict[str, Any]:
    return {
        "killpower_conditions": CONDITION_TITLES,
        "killpower_where": WHERE_TITLES,
        "killpower_cases": CASE_TITLES,
        "killpower_phases": PHASE_TITLES,
        "killpower_outcomes": OUTCOME_TITLES,
        "killpower_offences": OFFENCE_TITLES,
        "killpower_pending": PENDING_TITLES,
        "killpower_locations": LOCATION_TITLES,
    }


def described(command: Any, state: MatchState) -> Msg | None:
    """What a coach's hand tool would do, for the other coach asked to agree to it (None: its
    label says it)."""
    fighter = state.fighters.get(str(getattr(command, "gladiator", "")))
    name = fighter.label if fighter is not None else str(getattr(command, "gladiator", "?"))
    if command.type == "hurt":
        if command.wound_points:
            return Msg.counted(
                P_("{name} takes {points} wound point", "{name} takes {points} wound points"),
                "points",
                {"name": name, "points": command.points},
            )
        return Msg.counted(
            P_("{name} takes {points} damage point", "{name} takes {points} damage points"),
            "points",
            {"name": name, "points": command.points},
        )
    if command.type == "condition":
        condition = Msg(CONDITION_TITLES[command.condition])
        if command.clear:
            return Msg(
                N_("{name} is no longer {condition}"), {"name": name, "condition": condition}
            )
        if command.turns:
            return Msg.counted(
                P_(
                    "{name} is {condition} for {turns} turn",
                    "{name} is {condition} for {turns} turns",
                ),
                "turns",
                {"name": name, "condition": condition, "turns": command.turns},
            )
        return Msg(N_("{name} is {condition}"), {"name": name, "condition": condition})
    if command.type == "expel":
        offence = {"name": name, "offence": Msg(OFFENCE_TITLES[command.offence])}
        if command.reason.strip():  # the coach's words reach the coach asked (issue 54)
            return Msg(
                N_("{name} is expelled for {offence}: “{reason}”"),
                offence | {"reason": command.reason.strip()},
            )
        return Msg(N_("{name} is expelled for {offence}"), offence)
    return None


def now(view: Mapping[str, Any], viewer: Viewer) -> Now:
    """The turn, the phase and the side the match waits for, and what this coach or referee
    does now. A coach of a refereed match plays through the referee ("plays" is False)."""
    teams, me, staff, plays = view["teams"], view["me"], viewer.is_staff, view["plays"]
    stage = view["stage"]
    at_match = staff or me is not None

    def name(side: str) -> str:
        return str(teams[side]["name"])

    if stage == "lineup":
        where = Msg(N_("Before the match: each coach gives their lineup"))
        if me is not None and not teams[me]["ready"]:
            return Now(
                where,
                Msg(N_("Your turn: choose who plays and your bluff cards.")),
                yours=True,
                to=f"lineup-{me}",
            )
        if staff:
            return Now(where, Msg(N_("Each coach gives their lineup; you may enter it for them.")))
        return Now(where, Msg(N_("Wait: the other coach gives their lineup.")) if me else None)
    if stage == "finished":
        a, b = (teams[s] for s in SIDES)
        where = Msg(
            N_("The match is over: {a} {sa} – {sb} {b}"),
            {"a": a["name"], "b": b["name"], "sa": a["score"], "sb": b["score"]},
        )
        if me is not None and view["league"]:
            return Now(where, Msg(N_("Nothing left to do here: the league has the result.")))
        return Now(where, Msg(NOTHING_LEFT) if at_match else None)
    phase, pending = view["phase"], view["pending"]
    turn = {"turn": view["turn"], "phase": Msg(PHASE_TITLES[phase])}
    if stage == "free_throws":
        side, to = view["next_thrower"], None
        where = Msg(N_("Free throws · {team} throws"), {"team": name(side)})
    elif pending is not None:
        side, to, kind = pending["side"], "pending-title", pending["kind"]
        what = Msg(PENDING_TITLES[kind])
        where = Msg(
            N_("Turn {turn} · {phase} · {team}: {what}"), {**turn, "team": name(side), "what": what}
        )
    elif view["moving"] is not None:
        side = view["moving"]
        to = f"kp-move-{side}" if staff else "kp-your-move"
        where = Msg(N_("Turn {turn} · {phase} · {team} moves"), {**turn, "team": name(side)})
    elif view.get("sprinting") and view["sprinting"]["can_move"]:
        side, to = view["sprinting"]["side"], f"play-{view['sprinting']['side']}"
        who = view["sprinting"]["label"]
        where = Msg(
            N_("Turn {turn} · {phase} · {name} of {team} sprints: the move first"),
            {**turn, "name": who, "team": name(side)},
        )
    elif view["due"] is not None:
        side, to = view["due"]["side"], f"play-{view['due']['side']}"
        who = view["due"]["label"]
        where = Msg(
            N_("Turn {turn} · {phase} · {name} of {team} acts"),
            {**turn, "name": who, "team": name(side)},
        )
    else:
        return Now(Msg(N_("Turn {turn} · {phase}"), turn), Msg(WATCH) if at_match else None)
    if staff and plays:
        return Now(
            where, Msg(N_("Enter what {team} does."), {"team": name(side)}), yours=True, to=to
        )
    if me == side:
        if not plays:
            return Now(where, Msg(N_("Your turn: tell the referee what you do.")), yours=True)
        return Now(where, Msg(N_("Your turn.")), yours=True, to=to)
    if me is not None:
        return Now(where, Msg(N_("Wait: {team} plays."), {"team": name(side)}))
    return Now(where, Msg(WATCH) if staff else None)
