"""A team brought from paper (spec, "Bringing a league from paper"): clubs already play on paper
sheets; the league owner enters a team as its sheet stands (every characteristic, armour, gloves,
powers held, EXP, increases taken, matches, ranking points and record), each figure marked as
entered by hand. What the book bounds is still checked: the race maxima (TABLE 11), the increases
the EXP allows (12), two different powers of the deck (2.1) and, in a tournament, three of a kind
at most (13.2). A figure the wizard could not give (a PHY 3, an armour of 6) is the sheet's."""

from __future__ import annotations

from collections import Counter

from server.errors import RuleError
from server.games.killpower import rules
from server.games.killpower.league.commands import EnterTeam, PaperGladiator
from server.games.killpower.league.state import Gladiator, LeagueState, Team
from server.games.killpower.league.teams import check_coach, check_numbers, team_name
from server.i18n import N_, P_, Msg
from server.platform.kinds import Applied, Context


def gladiator_from_paper(state: LeagueState, g: PaperGladiator) -> Gladiator:
    missing = [c for c in rules.CHARACTERISTICS if c not in g.characteristics]
    if missing:
        raise RuleError(
            N_("{name}: enter every characteristic (missing: {missing})."),
            field="gladiators",
            name=g.name,
            missing=", ".join(missing),
        )
    for c in rules.CHARACTERISTICS:
        value, maximum = g.characteristics[c], rules.RACE_MAXIMA[c]
        if not 1 <= value <= maximum:  # TABLE 11: the race maxima
            raise RuleError(
                N_("{name}: {characteristic} goes from 1 to {maximum}, not {value}."),
                field="gladiators",
                name=g.name,
                characteristic=c,
                maximum=maximum,
                value=value,
            )
    if g.increases > g.exp // rules.EXP_PER_INCREASE:  # 12: 10 EXP an increase
        raise RuleError(
            N_(
                "{name}: with {exp} EXP, the increases taken are at most {allowed}, not {increases}."
            ),
            field="gladiators",
            name=g.name,
            exp=g.exp,
            allowed=g.exp // rules.EXP_PER_INCREASE,
            increases=g.increases,
        )
    if g.equipment != "armour" and g.armour is not None:
        raise RuleError(
            N_("{name}: a magic armour's value goes with magic armour only."),
            field="gladiators",
            name=g.name,
        )
    if g.equipment == "powers":
        if len(g.powers) != rules.POWERS_PER_GLADIATOR or len(set(g.powers)) != len(g.powers):
            raise RuleError(
                N_("{name}: power cards are two different powers of the deck."),
                field="gladiators",
                name=g.name,
            )
    elif g.powers:
        raise RuleError(
            N_("{name}: powers go with the power cards equipment only."),
            field="gladiators",
            name=g.name,
        )
    return Gladiator(
        id=state.new_id(),
        number=g.number,
        name=g.name,
        specialization=g.specialization,
        equipment=g.equipment,
        armour=g.armour,
        powers=list(g.powers),
        characteristics={c: g.characteristics[c] for c in rules.CHARACTERISTICS},
        exp=g.exp,
        increases=g.increases,
        matches=g.matches,
        paper=True,
    )


def check_powers(state: LeagueState, gladiators: list[PaperGladiator]) -> None:
    """13.2: three of a kind at most in a tournament; in a championship a team's powers come from
    its own pack, so no more of a kind than the deck has copies (2.1)."""
    held = [g.powers for g in gladiators if g.equipment == "powers"]
    if state.mode == "tournament":
        rules.check_tournament_powers(held, state.deck.names())
        return
    for key, count in Counter(p for powers in held for p in powers).items():
        card = state.deck.card(key)
        copies = card.copies if card is not None else 0
        if count > copies:
            raise RuleError(
                N_("“{power}”: the deck holds {copies}, the team asks for {count}."),
                field="gladiators",
                power=card.name if card is not None else key,
                copies=copies,
                count=count,
            )


def on_paper_team(state: LeagueState, c: EnterTeam, ctx: Context) -> Applied:
    coach = check_coach(state, c.coach)
    name = team_name(state, c.name)
    # 3.4: « Une équipe doit comporter 7 gladiateurs obligatoirement », a paper one too.
    if len(c.gladiators) != rules.TEAM_SIZE:
        raise RuleError(
            N_("A team has seven gladiators, always (3.4): this sheet has {count}."),
            field="gladiators",
            count=len(c.gladiators),
        )
    # 13.1 and 3.4: « une équipe a au minimum 0 point de classement » in a championship (as
    # `rules.new_ranking` counts them on).
    if c.ranking < 0 and state.mode == "championship":
        raise RuleError(
            N_("In a championship, ranking points are never below 0 (13.1), not {ranking}."),
            field="ranking",
            ranking=c.ranking,
        )
    check_numbers([g.number for g in c.gladiators])
    if c.won + c.lost + c.drawn + c.abandoned > c.played:
        raise RuleError.counted(
            P_(
                "Won, lost, drawn and abandoned add up to more than the {played} match played.",
                "Won, lost, drawn and abandoned add up to more than the {played} matches played.",
            ),
            "played",
            field="played",
            played=c.played,
        )
    gladiators = [gladiator_from_paper(state, g) for g in c.gladiators]
    check_powers(state, c.gladiators)
    team = Team(
        id=state.new_id(),
        name=name,
        coach=coach,
        coach_name=state.coaches.get(str(coach), ctx.actor.name) if coach else ctx.actor.name,
        gladiators=sorted(gladiators, key=lambda g: g.number),
        ranking=c.ranking,
        played=c.played,
        won=c.won,
        lost=c.lost,
        drawn=c.drawn,
        abandoned=c.abandoned,
        paper=True,
    )
    state.teams[str(team.id)] = team
    return Applied(
        Msg(
            N_(
                "{owner} enters the team {team} from its paper sheet, every figure by hand: "
                "{ranking}, {played}."
            ),
            {
                "owner": ctx.actor.name,
                "team": team.name,
                "ranking": Msg.counted(
                    P_("{count} ranking point", "{count} ranking points"),
                    "count",
                    {"count": c.ranking},
                ),
                "played": Msg.counted(
                    P_("{count} match played", "{count} matches played"),
                    "count",
                    {"count": c.played},
                ),
            },
        ),
        {"team": team.id},
    )
