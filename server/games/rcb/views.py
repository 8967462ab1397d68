"""What each viewer may see, built per viewer from the state (never the full state filtered in
a template): a team's view holds no role but its own fighters'; the journal's words."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from server.games.rcb.round import max_stake
from server.games.rcb.setup import DEAL_TABLE, deal_refusal
from server.games.rcb.state import ROLE_TITLES, ROLES, RCBState, Team
from server.i18n import N_, Msg
from server.platform.kinds import LoggedEvent, Part, Viewer, full_event
from server.platform.now import NOTHING_LEFT, Now


def board_part(state: RCBState, viewer: Viewer, now: datetime) -> dict[str, Any]:
    return {**public(state), "me": None}


def gm_part(state: RCBState, viewer: Viewer, now: datetime) -> dict[str, Any]:
    return {"gm": gm_view(state)}


def team_of(state: RCBState, viewer: Viewer) -> Team | None:
    """The team of a fighter or of a team's phone."""
    holder = state.fighters.get(str(viewer.person_id)) or state.phones.get(str(viewer.person_id))
    return holder.team if holder is not None else None


def team_part(state: RCBState, viewer: Viewer, now: datetime) -> dict[str, Any] | None:
    team = team_of(state, viewer)
    return {"own": team_view(state, team)} if team is not None else None


def me_part(state: RCBState, viewer: Viewer, now: datetime) -> dict[str, Any] | None:
    fighter = state.fighters.get(str(viewer.person_id))
    if fighter is None or viewer.is_organizer:
        return None
    role = fighter.role if not fighter.ghost else None
    return {
        "me": {"name": fighter.name, "team": fighter.team, "ghost": fighter.ghost, "role": role}
    }


# What viewers see: the board for all (never a role), the game master's table, a team's own
# part (its roles), a fighter's own card.
PARTS: tuple[Part[RCBState], ...] = (
    Part("board", "game", board_part),
    Part("gm", "organizer", gm_part),
    Part("team", "side", team_part),
    Part("me", "person", me_part),
)


def public(state: RCBState) -> dict[str, Any]:
    """What anyone sees: never a role, unless the game master revealed them at the end."""
    current = state.current
    names = {str(f.id): f.name for f in state.fighters.values()}
    view: dict[str, Any] = {
        "phase": state.phase,
        "team_names": state.team_names,
        "round": (current.number if current else len(state.rounds)),
        "timer": state.timer.model_dump(mode="json") if state.timer else None,
        "time_up": state.time_up,
        "bets": dict(state.bets),
        "bank": state.bank,
        "middle": {
            "A": state.carry["A"] + ((current.stake_a or 0) + current.carried_a if current else 0),
            "B": state.carry["B"] + ((current.stake_b or 0) + current.carried_b if current else 0),
        },
        "teams": {
            team: [
                {"name": f.name, "ghost": f.ghost}
                for f in sorted(state.team(team), key=lambda f: f.name)
            ]
            for team in ("A", "B")
        },
        "left": {"A": len(state.standing("A")), "B": len(state.standing("B"))},
        "current": None,
        "history": [
            {
                "number": r.number,
                "a": names.get(str(r.fighter_a)),
                "b": names.get(str(r.fighter_b)),
                "outcome": r.outcome,
                "taxes": [r.taxes_a, r.taxes_b],
            }
            for r in state.rounds
        ],
        "result": state.result.model_dump() if state.result else None,
        "revealed": None,
        "fighter_count": len(state.fighters),
    }
    if current is not None:
        view["current"] = {
            "number": current.number,
            "a": names.get(str(current.fighter_a)),
            "b": names.get(str(current.fighter_b)),
            "stake_a": current.stake_a,
            "stake_b": current.stake_b,
            "carried_a": current.carried_a,
            "carried_b": current.carried_b,
        }
    if state.revealed:
        view["revealed"] = [
            {"name": f.name, "team": f.team, "role": f.role, "ghost": f.ghost}
            for f in sorted(state.fighters.values(), key=lambda f: (f.team or "", f.name))
        ]
    return view


def team_view(state: RCBState, team: Team) -> dict[str, Any]:
    """A team's own view: its members' roles (ghosts' cards stay with the game master)."""
    return {
        "team": team,
        "name": state.team_names[team],
        "members": [
            {"name": f.name, "ghost": f.ghost, "role": None if f.ghost else f.role}
            for f in sorted(state.team(team), key=lambda f: f.name)
        ],
        "bets": state.bets[team],
        "max_stake": max_stake(state.bets[team]),
    }


def gm_view(state: RCBState) -> dict[str, Any]:
    return {
        "fighters": [f.model_dump() for f in sorted(state.fighters.values(), key=lambda f: f.name)],
        "phones": [p.model_dump() for p in state.phones.values()],
        "beats": state.matrix.beats,
        "set_aside": state.set_aside,
        "settings": {
            "bets": state.bets_setting,
            "bank": state.bank_setting,
            "designation_seconds": state.designation_seconds,
        },
        "deal_table": DEAL_TABLE,
        "deal_refusal": refusal.message if (refusal := deal_refusal(state)) else None,
        "rounds": [r.model_dump() for r in state.rounds],
        "current": state.current.model_dump() if state.current else None,
        "max_stake": {t: max_stake(state.bets[t]) for t in ("A", "B")},
        "cards_total": state.total_cards(),
    }


def log_view(event: LoggedEvent, viewer: Viewer) -> dict[str, Any] | None:
    if viewer.is_organizer:
        return full_event(event)
    if event.type not in ("command", "undo"):
        return None
    # Summaries never name a role; the commands and results stay with the game master.
    return {
        "seq": event.seq,
        "at": event.at.isoformat(),
        "summary": event.summary.render(),
        "undone": event.undone,
    }


def roll_label(purpose: str, state: RCBState) -> Msg | str | None:
    """The shuffle's dice are secret steps of one draw: the journal names the draw only."""
    if purpose.startswith("shuffle_"):
        return None
    if purpose.startswith("team_"):
        return Msg(N_("drawing the teams"))
    return purpose


def template_globals() -> dict[str, Any]:
    return {"character_title": lambda role: ROLE_TITLES.get(role, role), "rcb_roles": ROLES}


def now(view: Mapping[str, Any], viewer: Viewer) -> Now:
    """The round and its step, and what the game master, a team or a fighter does now."""
    phase, gm = view["phase"], viewer.is_organizer
    names, current = view["team_names"], view.get("current")
    player = None if viewer.role == "public" else viewer.role
    if phase == "setup":
        where = Msg(N_("Setting up: the cards are not dealt yet."))
        if gm:
            return Now(where, Msg(N_("Make the teams, then deal the character cards.")), yours=True)
        return Now(
            where, Msg(N_("Wait for the deal: your card will show here.")) if player else None
        )
    if phase == "finished":
        result = view.get("result") or {"winners": [], "reason": ""}
        if result["reason"] == "perfect_tie":
            ended = Msg(N_("perfect tie, both teams win"))
        elif len(result["winners"]) == 2:
            ended = Msg(N_("equal bet cards, both teams win"))
        else:
            ended = Msg(N_("team {team} wins"), {"team": names[result["winners"][0]]})
        where = Msg(N_("The game is over: {result}."), {"result": ended})
        if gm and not view.get("revealed"):
            return Now(where, Msg(N_("Reveal every card to the table when you wish.")), yours=True)
        return Now(where, Msg(NOTHING_LEFT) if gm or player else None)
    number = current["number"] if current else view["round"]
    if phase == "ready":
        where = Msg(N_("Before round {n}"), {"n": number + 1})
        if gm:
            return Now(where, Msg(N_("Call the next round: “Choose your fighter!”")), yours=True)
        return Now(
            where, Msg(N_("Wait: the game master calls the next round.")) if player else None
        )
    steps = {
        "designation": N_("Round {n} · each team chooses its fighter"),
        "stakes": N_("Round {n} · {a} against {b}: the bets"),
        "duel": N_("Round {n} · {a} against {b}: the duel"),
    }
    pair = {"n": number, "a": current and current["a"], "b": current and current["b"]}
    where = Msg(steps[phase], pair)
    if gm:
        yours = {
            "designation": N_("Enter the two fighters the teams send."),
            "stakes": N_("Enter each team’s stake."),
            "duel": N_("Settle the duel: Arbitre compares the two cards."),
        }
        return Now(where, Msg(yours[phase]), yours=True)
    if player is None:
        return Now(where)
    says = {
        "designation": N_("Your turn: with your team, choose who steps forward, and say it."),
        "stakes": N_("Your turn: with your team, choose your stake, and say it."),
        "duel": N_("Wait: the game master settles the duel."),
    }
    return Now(where, Msg(says[phase]), yours=phase != "duel", aloud=True)
