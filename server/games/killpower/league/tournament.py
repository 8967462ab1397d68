"""Tournaments (13.2): the bracket drawn, the pairings of a round, a draw decided by free throws,
the winner going on with its team as it came."""

from __future__ import annotations

from server.errors import RuleError
from server.games.killpower import rules
from server.games.killpower.league.commands import (
    DrawBracket,
    RecordMatch,
)
from server.games.killpower.league.state import (
    LeagueState,
    Pairing,
    Team,
    match_record,
)
from server.games.killpower.rules import (
    Verdict,
)
from server.i18n import N_, Msg, joined
from server.platform.kinds import (
    Applied,
    Context,
)


def on_bracket(state: LeagueState, c: DrawBracket, ctx: Context) -> Applied:
    if state.mode != "tournament":
        raise RuleError(N_("A bracket is drawn in a tournament only."))
    if any(p.match is not None for r in state.bracket for p in r):
        raise RuleError(N_("The tournament has begun: its bracket no longer changes."))
    teams = [t.id for t in state.teams.values() if len(t.gladiators) == rules.TEAM_SIZE]
    if len(teams) < 2:
        raise RuleError(N_("A tournament needs at least two teams of 7 gladiators."))
    order: list[int] = []
    pool = sorted(teams)
    while pool:  # drawn one by one, every draw a die in the log
        order.append(
            pool.pop(ctx.dice.roll(len(pool), "bracket draw") - 1) if len(pool) > 1 else pool.pop()
        )
    size = 1
    while size < len(order):
        size *= 2
    half = size // 2
    first = [
        Pairing(a=order[i], b=order[size - 1 - i] if size - 1 - i < len(order) else None)
        for i in range(half)
    ]
    for p in first:
        if p.b is None:
            p.winner = p.a  # a bye
    state.bracket = [first]
    state.champion = None
    advance(state)
    names = [
        f"{state.team(p.a).name if p.a else '—'} – {state.team(p.b).name if p.b else '—'}"
        for p in first
    ]
    return Applied(Msg(N_("Bracket drawn: {pairs}."), {"pairs": ", ".join(names)}), {})


def pairing_of(state: LeagueState, teams: tuple[Team, Team]) -> Pairing:
    if not state.bracket:
        raise RuleError(N_("Draw the tournament bracket first."), field="team_a")
    ids = {teams[0].id, teams[1].id}
    for p in state.bracket[-1]:
        if p.winner is None and {p.a, p.b} == ids:
            return p
    raise RuleError(
        N_("{a} and {b} do not meet in this round of the bracket."),
        field="team_a",
        a=teams[0].name,
        b=teams[1].name,
    )


def free_throws(c: RecordMatch) -> tuple[Verdict, Verdict]:
    """13.2, LANCERS FRANCS: a draw after 20 turns is decided by free throws."""
    if not c.throws_a and not c.throws_b:
        raise RuleError(
            N_("A draw in a tournament is decided by free throws: enter each try's points."),
            field="throws_a",
        )
    winner = rules.free_throw_winner((c.score_a, c.score_b), c.throws_a, c.throws_b)
    if not winner:
        raise RuleError(
            N_("Still tied after the free throws: two new tries with the same gladiators."),
            field="throws_a",
        )
    return ("won", "lost") if winner == "A" else ("lost", "won")


def tournament_match(
    state: LeagueState,
    c: RecordMatch,
    teams: tuple[Team, Team],
    pairing: Pairing,
    powers: list[rules.Power],
    margins: tuple[int, int],
    outcomes: tuple[Verdict, Verdict],
    free_throws: tuple[list[int], list[int]] | None,
    number: int,
    ctx: Context,
) -> Applied:
    """13.2: only the winner goes on, with its team as it came to the tournament (the armour
    rolled at its first match kept; RAP is rolled again at every match)."""
    for team in teams:
        entered = state.entered.setdefault(
            str(team.id), [g.model_copy(deep=True) for g in team.gladiators]
        )
        team.gladiators = [g.model_copy(deep=True) for g in entered]
    winner = teams[0] if outcomes[0] == "won" else teams[1]
    pairing.winner, pairing.match = winner.id, number
    state.matches.append(
        match_record(
            c,
            number,
            ctx.now,
            teams,
            powers,
            margins,
            outcomes,
            (teams[0].ranking, teams[1].ranking),
            free_throws=free_throws,
        )
    )
    advance(state)
    pieces = [
        Msg(
            N_("Match {number}: {a} {sa} – {sb} {b}; {winner} goes on."),
            {
                "number": number,
                "a": teams[0].name,
                "b": teams[1].name,
                "sa": c.score_a + sum(c.throws_a),
                "sb": c.score_b + sum(c.throws_b),
                "winner": winner.name,
            },
        )
    ]
    if state.champion is not None:
        pieces.append(
            Msg(N_("{team} wins the tournament!"), {"team": state.team(state.champion).name})
        )
    return Applied(joined(pieces), {"match": number, "outcomes": list(outcomes)})


def advance(state: LeagueState) -> None:
    """When a round is over, its winners meet in the next; the last one left is champion."""
    while state.bracket and all(p.winner is not None for p in state.bracket[-1]):
        winners = [p.winner for p in state.bracket[-1]]
        if len(winners) == 1:
            state.champion = winners[0]
            return
        state.bracket.append(
            [Pairing(a=winners[i], b=winners[i + 1]) for i in range(0, len(winners), 2)]
        )
