"""What each viewer of the league sees: the table and the results for all, a team's sheet for its
coach and the staff; the journal's words."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from server.games.killpower import rules
from server.games.killpower.league.commands import (
    RecordMatch,
)
from server.games.killpower.league.state import (
    EQUIPMENT_TITLES,
    FATE_TITLES,
    SPECIALIZATION_TITLES,
    LeagueState,
    Team,
)
from server.games.killpower.league.teams import equipment_offered
from server.games.killpower.powers import KIND_TITLES
from server.games.killpower.rules import (
    LOCATION_TITLES,
    OUTCOME_TITLES,
)
from server.i18n import N_, P_, Msg, joined
from server.platform.kinds import (
    LoggedEvent,
    Part,
    Viewer,
    full_event,
    rolls_for,
)
from server.platform.now import Now


def label(command: Any, state: LeagueState, declared: Msg) -> Msg:
    if isinstance(command, RecordMatch):
        names = [state.teams.get(str(t)) for t in (command.team_a, command.team_b)]
        return Msg(
            N_("the match {a} – {b}"),
            {"a": names[0].name if names[0] else "?", "b": names[1].name if names[1] else "?"},
        )
    return declared


def table_part(state: LeagueState, viewer: Viewer, now: datetime) -> dict[str, Any]:
    return public(state)


def office_part(state: LeagueState, viewer: Viewer, now: datetime) -> dict[str, Any]:
    """The staff's: every team sheet, the deck, the coaches."""
    return {
        "teams": [sheet(state, t) for t in sorted_teams(state)],
        "deck": state.deck.model_dump(mode="json"),
        "coaches": dict(state.coaches),
    }


def coach_part(state: LeagueState, viewer: Viewer, now: datetime) -> dict[str, Any] | None:
    """A coach's: their own teams' sheets and the deck they draw from."""
    if viewer.role != "coach" or viewer.is_staff:
        return None
    mine = [sheet(state, t) for t in sorted_teams(state) if t.coach == viewer.person_id]
    return {"teams": mine, "deck": state.deck.model_dump(mode="json")}


# What viewers see: the table and the results for all, the office for the staff, a coach's
# own team sheets (who holds which power) for that coach.
PARTS: tuple[Part[LeagueState], ...] = (
    Part("table", "game", table_part),
    Part("office", "staff", office_part),
    Part("coach", "person", coach_part),
)


def sorted_teams(state: LeagueState) -> list[Team]:
    """13.1: the team with the most ranking points first."""
    return sorted(
        state.teams.values(), key=lambda t: (-t.ranking, -t.won, -t.total_exp, t.name.lower())
    )


def table_rows(state: LeagueState) -> list[dict[str, Any]]:
    """13.1: the championship table, the team with the most ranking points first."""
    rows = []
    for place, t in enumerate(sorted_teams(state), start=1):
        power = t.power()
        rows.append(
            {
                "place": place,
                "id": t.id,
                "name": t.name,
                "coach": t.coach_name,
                "kept": t.coach is None,  # kept by the league's owner
                "played": t.played,
                "won": t.won,
                "lost": t.lost,
                "drawn": t.drawn,
                "abandoned": t.abandoned,
                "ranking": t.ranking,
                "exp": t.total_exp,
                "power": power.power,
                "division": power.division,
                "complete": len(t.gladiators) == rules.TEAM_SIZE,
                "paper": t.paper,
            }
        )
    return rows


def match_rows(state: LeagueState) -> list[dict[str, Any]]:
    """The results, the latest first."""
    return [
        {
            "number": m.number,
            "at": m.at.isoformat(),
            "names": list(m.names),
            "teams": list(m.teams),
            "score": list(m.score),
            "powers": list(m.powers),
            "divisions": list(m.divisions),
            "margins": list(m.margins),
            "outcomes": list(m.outcomes),
            "surrendered": m.surrendered,
            "eliminated": m.eliminated,
            "ranking_before": list(m.ranking_before),
            "ranking_after": list(m.ranking_after),
            "risks": [r.model_dump() for r in m.risks],
            "free_throws": [list(t) for t in m.free_throws] if m.free_throws else None,
            "note": m.note,
        }
        for m in reversed(state.matches)
    ]


def bracket_rows(state: LeagueState) -> list[list[dict[str, Any]]]:
    """13.2: the tournament's rounds, each pairing with its winner once known."""

    def name(team: int | None) -> str | None:
        return state.teams[str(team)].name if team else None

    return [
        [
            {
                "a": name(p.a),
                "b": name(p.b),
                "a_id": p.a,
                "b_id": p.b,
                "winner": name(p.winner),
                "match": p.match,
            }
            for p in round_
        ]
        for round_ in state.bracket
    ]


def public(state: LeagueState) -> dict[str, Any]:
    """What anyone may read: the table and the results, never a team's equipment."""
    return {
        "mode": state.mode,
        "draw_points": state.draw_points,
        "surrender_points": state.surrender_points,
        "table": table_rows(state),
        "matches": match_rows(state),
        "bracket": bracket_rows(state),
        "champion": state.teams[str(state.champion)].name if state.champion else None,
        "deck_size": len(state.deck.powers),
        "deck_sample": state.deck.sample,
        "coach_count": len(state.coaches),
        "live": [
            {
                "game": m.game,
                "names": list(m.names),
                "teams": list(m.teams),
                "mode": m.mode,
                "recorded": m.recorded,
            }
            for m in reversed(state.live)
        ],
    }


def sheet(state: LeagueState, team: Team) -> dict[str, Any]:
    """A team sheet (2, LA FEUILLE D'EQUIPE): for its coach and the staff only."""
    power = team.power()
    names = {p.key: p.name for p in state.deck.powers}
    return {
        "id": team.id,
        "name": team.name,
        "coach": team.coach_name,
        "coach_id": team.coach,
        "ranking": team.ranking,
        "played": team.played,
        "won": team.won,
        "lost": team.lost,
        "drawn": team.drawn,
        "abandoned": team.abandoned,
        "exp": team.total_exp,
        "power": power.power,
        "division": power.division,
        "power_explained": power.explain().render(),
        "complete": len(team.gladiators) == rules.TEAM_SIZE,
        "paper": team.paper,
        # A magic armour not rolled yet (a paper sheet's left blank, a tournament's): rolled
        # before the team's first match can open.
        "unrolled": [
            g.name for g in team.gladiators if g.equipment == "armour" and g.armour is None
        ],
        "gladiators": [
            {
                **g.model_dump(mode="json"),
                "shield": g.shield,
                "increases_left": g.increases_left,
                "power_names": [names.get(p, p) for p in g.powers],
                # 2.1: only those equipped play (a magic armour rolled): the others are not
                # offered as having played (`matches.check_lineups`).
                "may_play": g.equipment is not None
                and not (g.equipment == "armour" and g.armour is None),
                # What a new equipment may be (`teams.equipment_offered`: cards left to draw).
                "equipment_offered": equipment_offered(state, team, g),
            }
            for g in sorted(team.gladiators, key=lambda g: g.number)
        ],
        "fallen": [g.model_dump(mode="json") for g in team.fallen],
        "history": [
            {
                "number": m.number,
                "at": m.at.isoformat(),
                "other": m.names[1 - side],
                "score": [m.score[side], m.score[1 - side]],
                "outcome": m.outcomes[side],
                "ranking": [m.ranking_before[side], m.ranking_after[side]],
            }
            for m in state.matches
            for side in (0, 1)
            if m.teams[side] == team.id
        ],
    }


def log_view(event: LoggedEvent, viewer: Viewer) -> dict[str, Any] | None:
    if viewer.is_staff:
        return full_event(event)
    if event.type not in ("command", "undo"):
        return None
    # Summaries never name a power card; commands stay with the staff. The dice show, each
    # marked when entered by hand; a team's secret dice (its armour, the cards it drew) keep
    # their value for the coach whose action rolled them.
    mine = event.actor_id is not None and event.actor_id == viewer.person_id
    entry: dict[str, Any] = {
        "seq": event.seq,
        "at": event.at.isoformat(),
        "summary": event.summary.render(),
        "undone": event.undone,
        "rolls": rolls_for(event.rolls, lambda roll: mine),
    }
    if mine:  # what one's own action gave (the new team's number)
        entry["result"] = dict(event.result)
    return entry


def template_globals() -> dict[str, Any]:
    return {
        "killpower_specializations": SPECIALIZATION_TITLES,
        "killpower_equipment": EQUIPMENT_TITLES,
        "killpower_outcomes": OUTCOME_TITLES,
        "killpower_fates": FATE_TITLES,
        "killpower_locations": LOCATION_TITLES,
        "killpower_improvable": rules.IMPROVABLE,
        "killpower_characteristics": rules.CHARACTERISTICS,
        "killpower_maxima": rules.RACE_MAXIMA,  # TABLE 11: what a paper sheet's figure may be
        "killpower_team_size": rules.TEAM_SIZE,
        "killpower_power_kinds": KIND_TITLES,
    }


def now(view: Mapping[str, Any], viewer: Viewer) -> Now:
    """Where the league stands, and what this coach or the organizer does now."""
    if view["champion"]:
        where = Msg(N_("The tournament is over: {name} is champion."), {"name": view["champion"]})
    else:
        teams, played = len(view["table"]), len(view["matches"])
        where = joined(
            [
                Msg.counted(P_("{n} team", "{n} teams"), "n", {"n": teams}),
                Msg.counted(P_("{n} match played", "{n} matches played"), "n", {"n": played}),
            ],
            " · ",
        )
    unrolled = [t for t in view.get("teams") or () if t["unrolled"]]
    if unrolled:  # no match opens for these teams before their armour is rolled
        said = Msg(
            N_("Your turn: roll the magic armour of {teams} before its first match."),
            {"teams": ", ".join(t["name"] for t in unrolled)},
        )
        # To the button: the staff's panel on top, a coach's on the team's sheet.
        to = "armour-title" if viewer.is_staff else f"armour-{unrolled[0]['id']}"
        return Now(where, said, yours=True, to=to)
    if viewer.is_staff:
        if len(view["table"]) < 2:
            return Now(where, Msg(N_("Invite the coaches: each creates their team.")))
        return Now(where, Msg(N_("Open a match on the live sheet, or record one played on paper.")))
    if viewer.role != "coach":
        return Now(where)
    if not view["teams"]:
        return Now(where, Msg(N_("Your turn: create your team.")), yours=True)
    mine = {t["id"] for t in view["teams"]}
    for live in view["live"]:
        if not live["recorded"] and mine & set(live["teams"]):
            return Now(
                where,
                Msg(N_("Your match is open: go to it.")),
                yours=True,
                to=f"waiting-{live['game']}",
            )
    gains = sum(g["increases_left"] for t in view["teams"] for g in t["gladiators"])
    if gains:  # the increases their EXP has earned (rules.EXP_PER_INCREASE each), to spend
        said = Msg.counted(
            P_(
                "Your turn: {n} increase to give your gladiators.",
                "Your turn: {n} increases to give your gladiators.",
            ),
            "n",
            {"n": gains},
        )
        return Now(where, said, yours=True)
    return Now(where, Msg(N_("Between matches: no match of yours is open.")))
