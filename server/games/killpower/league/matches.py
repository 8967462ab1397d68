"""A match and the end-of-match operations (3.4, sequence 16): two teams that may meet, a match
opened with the live sheet, a result recorded with its risks of death, experience and ranking points."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from server.errors import NotAllowed, RuleError
from server.games.killpower import rules
from server.games.killpower.league.commands import (
    OpenMatch,
    RecordMatch,
)
from server.games.killpower.league.state import (
    FATE_TITLES,
    Gladiator,
    LeagueState,
    LiveMatch,
    Risk,
    Team,
    match_record,
    team_owner,
)
from server.games.killpower.league.tournament import (
    free_throws,
    pairing_of,
    tournament_match,
)
from server.games.killpower.match import KILLPOWER_MATCH, roster_of
from server.games.killpower.powers import PowerDeck
from server.games.killpower.rules import (
    LOCATION_TITLES,
    OUTCOME_TITLES,
    Verdict,
)
from server.i18n import N_, Msg, joined
from server.platform.dice import Dice
from server.platform.kinds import (
    Applied,
    Context,
    LinkedGame,
    Viewer,
)


def check_pairing(state: LeagueState, team_a: int, team_b: int, actor: Viewer) -> None:
    """Whether these two teams may meet now: two complete teams, one of the coach's own,
    and in a tournament, a pairing of the current round."""
    if team_a == team_b:
        raise RuleError(N_("A team does not play itself."), field="team_b")
    teams = (state.team(team_a), state.team(team_b))
    if actor.role == "coach" and teams[0].coach != actor.person_id:
        raise NotAllowed(N_("This team belongs to another coach."))
    for team in teams:
        if len(team.gladiators) != rules.TEAM_SIZE:
            raise RuleError(
                N_("{team} must have 7 gladiators before playing."),
                field="team_a",
                team=team.name,
            )
        unrolled = [g.name for g in team.gladiators if g.equipment == "armour" and g.armour is None]
        if unrolled:  # 13.2: rolled with the referee before the first match, never during it
            raise RuleError(
                N_("Roll the magic armour of {team} first ({names})."),
                field="team_a",
                team=team.name,
                names=", ".join(unrolled),
            )
    if state.mode == "tournament":
        pairing_of(state, teams)


def linked_game(
    game_id: str, state: LeagueState, actor: Viewer, request: Mapping[str, Any]
) -> LinkedGame:
    """A match with the live referee sheet (3.4): a game of its own holding both teams as they
    are now, a coach for each team (acting for the league's coach of that team), and the
    league's staff as its organizer."""
    if not actor.is_staff and actor.role != "coach":
        raise NotAllowed(N_("Only the league's coaches and staff open matches."))
    team_a, team_b = request.get("team_a"), request.get("team_b")
    if not isinstance(team_a, int) or not isinstance(team_b, int):
        raise RuleError(N_("Choose the two teams."), field="team_b")
    mode = request.get("mode") or "self"
    if mode not in ("self", "referee"):
        raise RuleError(N_("Choose a referee or self-refereeing."), field="mode")
    check_pairing(state, team_a, team_b, actor)
    teams = (state.team(team_a), state.team(team_b))
    if mode == "referee" and any(t.coach is None for t in teams):
        # The owner plays this match, and registers the league's referees: whoever referees it
        # could be them, reading the other side's RAP. Arbitre referees it (issue 51).
        raise RuleError(
            N_(
                "The league's owner plays this match: it is self-refereed, Arbitre keeps each "
                "side's secrets."
            ),
            field="mode",
        )
    settings = {
        "league": game_id,
        "mode": mode,
        "board": request.get("board") is True,
        "tournament": state.mode == "tournament",
        "teams": [roster_of(t).model_dump(mode="json") for t in teams],
        # The whole deck, not the cards the two teams hold: which cards the match knows must not
        # tell a coach which the other team drew (a card named is checked against the match).
        "cards": [c.model_dump(mode="json") for c in state.deck.powers],
    }

    def record(game_id: str, people: list[int]) -> dict[str, Any]:
        organizer, coach_a, coach_b = people
        return {
            "type": "open_match",
            "game": game_id,
            "team_a": team_a,
            "team_b": team_b,
            "mode": mode,
            "coach_a": coach_a,
            "coach_b": coach_b,
            "organizer": organizer,
        }

    return LinkedGame(
        kind=KILLPOWER_MATCH.key,
        name=f"{teams[0].name} – {teams[1].name}",
        settings=settings,
        # A team the owner keeps is played by the owner as its coach, not as the match's staff
        # who see both sides, whoever opens the match (`open_linked`: "organizer").
        people=[("coach", f"{t.coach_name} ({t.name})", t.coach or "organizer") for t in teams],
        record=record,
        # Self-refereed, Arbitre is the neutral referee and each coach's RAP is theirs alone
        # (spec, "Teams and leagues"): the league's staff get no seat that reads both sides (an
        # owner who plays, or registered a coach or a referee of their own, would read the
        # other side's); they watch the board. With a referee, the referee reads both, by the book.
        staffed=mode == "referee",
    )


def on_open_match(state: LeagueState, c: OpenMatch, ctx: Context) -> Applied:
    check_pairing(state, c.team_a, c.team_b, ctx.actor)
    if any(m.game == c.game for m in state.live):
        raise RuleError(N_("This match is already open."))
    teams = (state.team(c.team_a), state.team(c.team_b))
    state.live.append(
        LiveMatch(
            game=c.game,
            teams=(c.team_a, c.team_b),
            names=(teams[0].name, teams[1].name),
            mode=c.mode,
            coaches=(c.coach_a, c.coach_b),
            organizer=c.organizer,
        )
    )
    return Applied(
        Msg(N_("Match opened: {a} – {b}."), {"a": teams[0].name, "b": teams[1].name}),
        {"game": c.game},
    )


def open_match_of(state: LeagueState, c: RecordMatch) -> LiveMatch | None:
    """The live match this result comes from (played on the sheet), still waiting for it."""
    if not c.match_game:
        return None
    live = next((m for m in state.live if m.game == c.match_game), None)
    if live is None or live.recorded is not None:
        raise RuleError(
            N_("This match is not open in the league, or already recorded."), field="match_game"
        )
    return live


def check_lineups(teams: tuple[Team, Team], played: tuple[list[int], list[int]]) -> None:
    """Seven gladiators a side, and those who played equipped (2.1) and listed once."""
    for team, ids in zip(teams, played, strict=True):
        if len(team.gladiators) != rules.TEAM_SIZE:
            raise RuleError(
                N_("{team} must have 7 gladiators before playing."), field="team_a", team=team.name
            )
        for gid in ids:
            g = team.gladiator(gid)
            if g.equipment is None:
                raise RuleError(
                    N_("{name} has no magic equipment and cannot play."),
                    field="played_a",
                    name=g.name,
                )
            if g.equipment == "armour" and g.armour is None:
                raise RuleError(
                    N_("{name}'s magic armour is not rolled yet."), field="played_a", name=g.name
                )
        if len(set(ids)) != len(ids):
            raise RuleError(N_("A gladiator is listed twice."), field="played_a")


def check_casualties(c: RecordMatch, side_of: Mapping[int, int]) -> None:
    """Risks of death for those who played and fell below -10 (coma); locations only for them;
    equipment lost only by those who played."""
    for gid, value in c.risk.items():
        if gid not in side_of:
            raise RuleError(
                N_("Gladiator {gladiator} did not play this match."), field="risk", gladiator=gid
            )
        if value > -11:
            raise RuleError(
                N_("Only a gladiator below -10 (coma) has a risk of death, not {value}."),
                field="risk",
                value=value,
            )
    if any(gid not in c.risk for gid in c.located):
        raise RuleError(
            N_("A location is chosen only for a gladiator with a risk of death."), field="located"
        )
    for gid in c.lost_equipment:
        if gid not in side_of:
            raise RuleError(
                N_("Gladiator {gladiator} did not play this match."),
                field="lost_equipment",
                gladiator=gid,
            )


def count_result(
    state: LeagueState,
    teams: tuple[Team, Team],
    powers: list[rules.Power],
    outcomes: tuple[Verdict, Verdict],
) -> None:
    """13.1: the ranking points of a championship (TABLE 3), and each team's record."""
    championship = state.mode == "championship"
    for i, team in enumerate(teams):
        if championship:
            change = rules.ranking_change(
                outcomes[i],
                powers[i].division,
                powers[1 - i].division,
                state.draw_points,
                state.surrender_points,
            )
            team.ranking = rules.new_ranking(team.ranking, change, championship)
        team.played += 1
        setattr(team, outcomes[i], getattr(team, outcomes[i]) + 1)


def second_chance(deck: PowerDeck, g: Gladiator) -> bool:
    """A power card of the gladiator whose effect rolls a failed risk of death again."""
    return any(
        (card := deck.card(key)) is not None
        and card.effect is not None
        and card.effect.kind == "second_chance"
        for key in g.powers
    )


def roll_risks(
    c: RecordMatch,
    teams: tuple[Team, Team],
    side_of: Mapping[int, int],
    dice: Dice,
    deck: PowerDeck,
) -> list[Risk]:
    """TABLE 8: each risk of death located (by a die, unless the blow chose its location) and
    read against how low the gladiator fell."""
    risks = []
    for gid, value in sorted(c.risk.items()):
        side = side_of[gid]
        g = teams[side].gladiator(gid)
        chosen = c.located.get(gid)
        die: int | None = None
        if chosen is None:
            die = dice.roll(10, f"risk of death of {g.name}", owner=team_owner(teams[side]))
            where = rules.location(die)
            if rules.fate_at(where, value) == "dead" and second_chance(deck, g):
                # Dernière chance: « à la fin du match, le porteur peut relancer un jet de
                # risque de mort raté » (the end-of-match powers come first, 3.4).
                die = dice.roll(
                    10, f"risk of death again of {g.name}", owner=team_owner(teams[side])
                )
                where = rules.location(die)
        else:
            where = chosen  # TABLE 8: "Jetez 1D10 pour localiser [...] sauf si vous avez localisé"
        risks.append(
            Risk(
                team="AB"[side],
                gladiator=gid,
                name=g.name,
                state=value,
                die=die,
                location=where,
                fate=rules.fate_at(where, value),
            )
        )
    return risks


def after_match(
    c: RecordMatch,
    teams: tuple[Team, Team],
    played: tuple[list[int], list[int]],
    risks: list[Risk],
    number: int,
) -> None:
    """Sequence 16: experience (12), equipment lost, the dead to the fallen; who played may
    change equipment or be dismissed until the next match."""
    dead = {r.gladiator for r in risks if r.fate == "dead"}
    for side, team in enumerate(teams):
        for g in team.gladiators:
            g.may_reequip = g.id in played[side]
            if g.id in played[side]:
                g.exp += rules.EXP_PER_MATCH
                g.matches += 1
            if g.id in c.lost_equipment:
                g.equipment, g.powers, g.armour = None, [], None
        for g in [g for g in team.gladiators if g.id in dead]:
            g.died_in = number
            team.gladiators.remove(g)
            team.fallen.append(g)


def match_summary(
    c: RecordMatch,
    number: int,
    teams: tuple[Team, Team],
    outcomes: tuple[Verdict, Verdict],
    risks: list[Risk],
) -> Msg:
    a, b = teams[0].name, teams[1].name
    pieces = [
        Msg(
            N_("Match {number}: {a} {sa} – {sb} {b}; {a}: {oa}, {b}: {ob}."),
            {
                "number": number,
                "a": a,
                "b": b,
                "sa": c.score_a,
                "sb": c.score_b,
                "oa": Msg(OUTCOME_TITLES[outcomes[0]]),
                "ob": Msg(OUTCOME_TITLES[outcomes[1]]),
            },
        ),
        Msg(
            N_("Ranking points: {a} {ra}, {b} {rb}."),
            {"a": a, "b": b, "ra": teams[0].ranking, "rb": teams[1].ranking},
        ),
    ]
    for r in risks:
        pieces.append(
            Msg(
                N_("Risk of death for {name}: {location}, {fate}."),
                {
                    "name": r.name,
                    "location": Msg(LOCATION_TITLES[r.location]),
                    "fate": Msg(FATE_TITLES[r.fate]),
                },
            )
        )
    return joined(pieces)


def on_match(state: LeagueState, c: RecordMatch, ctx: Context) -> Applied:
    """3.4: a finished match recorded, and the end-of-match operations at once."""
    live = open_match_of(state, c)
    if c.team_a == c.team_b:
        raise RuleError(N_("A team does not play itself."), field="team_b")
    if c.surrendered and c.eliminated:
        raise RuleError(
            N_("A match ends by a surrender or an elimination, not both."), field="surrendered"
        )
    teams = (state.team(c.team_a), state.team(c.team_b))
    played = (c.played_a, c.played_b)
    check_lineups(teams, played)
    side_of = {gid: side for side, ids in enumerate(played) for gid in ids}
    check_casualties(c, side_of)
    pairing = None if state.mode == "championship" else pairing_of(state, teams)
    # 3.2: power from the ranking and the EXP of those who play; TABLE 3: the margins.
    powers = [t.power(ids) for t, ids in zip(teams, played, strict=True)]
    margins = rules.targets(powers[0].power, powers[1].power)
    outcomes = rules.result_of((c.score_a, c.score_b), margins, c.surrendered, c.eliminated)
    throws = None
    if pairing is not None and outcomes == ("drawn", "drawn"):
        outcomes = free_throws(c)
        throws = (list(c.throws_a), list(c.throws_b))
    before = (teams[0].ranking, teams[1].ranking)
    count_result(state, teams, powers, outcomes)
    number = len(state.matches) + 1
    if live is not None:
        live.recorded = number
    if pairing is not None:
        return tournament_match(
            state, c, teams, pairing, powers, margins, outcomes, throws, number, ctx
        )
    risks = roll_risks(c, teams, side_of, ctx.dice, state.deck)
    after_match(c, teams, played, risks, number)
    state.matches.append(
        match_record(
            c,
            number,
            ctx.now,
            teams,
            powers,
            margins,
            outcomes,
            before,
            risks=risks,
            lost_equipment=list(c.lost_equipment),
        )
    )
    summary = match_summary(c, number, teams, outcomes, risks)
    return Applied(summary, {"match": number, "outcomes": list(outcomes)})
