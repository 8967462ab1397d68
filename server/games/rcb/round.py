"""A round (steps 6 to 10): the call and its countdown, the two fighters, the stakes, the duel
of secret cards, the bank's payments and taxes."""

from __future__ import annotations

from server.errors import RuleError
from server.games.rcb.commands import DesignationDue, Duel, Fighters, RoundStart, Stakes
from server.games.rcb.ending import maybe_end
from server.games.rcb.state import MAX_STAKE, RCBState, Round, Team, other
from server.i18n import N_, P_, Msg, joined
from server.platform.kinds import Applied, Context
from server.platform.timers import Timer


def cards(count: int) -> Msg:
    """A number of cards, in the form that fits it."""
    return Msg.counted(P_("{count} card", "{count} cards"), "count", {"count": count})


def pay_out(stake_winner: int, stake_loser: int, bank: int) -> tuple[int, int]:
    """Traitement des mises: the loser's stake goes to the bank, then the winner takes back its
    stake and receives as much from the bank, or what the bank still has.
    Returns (cards the winner team gets back in all, the bank after)."""
    bank += stake_loser
    paid = min(stake_winner, bank)
    return stake_winner + paid, bank - paid


def taxes(cards_a: int, cards_b: int) -> tuple[int, int]:
    """An empty bank at the end of a round: each team pays a third of its cards, rounded down
    (28 and 17 pay 9 and 5)."""
    return cards_a // 3, cards_b // 3


def max_stake(cards: int) -> int:
    return min(MAX_STAKE, cards)


def check_stake(state: RCBState, team: Team, stake: int) -> None:
    """Rule 8: 1 to 5 bet cards, compulsory, never more than the team holds; nothing when it
    holds none."""
    held = state.bets[team]
    name = state.team_names[team]
    if held == 0:
        if stake != 0:
            raise RuleError(
                N_("Team {team} has no bet card left: it stakes nothing."),
                field=f"stake_{team.lower()}",
                team=name,
            )
        return
    if not 1 <= stake <= max_stake(held):
        raise RuleError(
            N_("Team {team} stakes 1 to {most} bet cards, not {stake}."),
            field=f"stake_{team.lower()}",
            team=name,
            most=max_stake(held),
            stake=stake,
        )


def settle_duel(state: RCBState, current: Round) -> None:
    """Rules 9-10: the duel by the matrix, then the stakes; then taxes if the bank is empty."""
    a, b = state.fighter(current.fighter_a or 0), state.fighter(current.fighter_b or 0)
    assert a.role is not None and b.role is not None
    outcome = state.matrix.duel(a.role, b.role)
    current.outcome = outcome
    stake = {
        "A": (current.stake_a or 0) + current.carried_a,
        "B": (current.stake_b or 0) + current.carried_b,
    }
    if outcome == "tie":
        # Both go back with their cards; the stakes stay in the middle for the next round.
        state.carry = {"A": stake["A"], "B": stake["B"]}
    else:
        winner: Team = outcome
        loser = other(winner)
        back, state.bank = pay_out(stake[winner], stake[loser], state.bank)
        current.bank_paid = back - stake[winner]
        state.bets[winner] += back
        state.carry = {"A": 0, "B": 0}
        (b if loser == "B" else a).ghost = True
    if state.bank == 0:
        current.taxes_a, current.taxes_b = taxes(state.bets["A"], state.bets["B"])
        state.bets["A"] -= current.taxes_a
        state.bets["B"] -= current.taxes_b
        state.bank += current.taxes_a + current.taxes_b


# -------------------------------------------------------------------- handlers


def on_round(state: RCBState, c: RoundStart, ctx: Context) -> Applied:
    if state.phase != "ready":
        raise RuleError(N_("The current duel is not settled yet."))
    number = len(state.rounds) + 1
    state.current = Round(number=number, carried_a=state.carry["A"], carried_b=state.carry["B"])
    state.carry = {"A": 0, "B": 0}
    state.phase = "designation"
    state.timer = Timer.start(ctx.now, state.designation_seconds)
    state.time_up = False
    return Applied(Msg(N_("Round {number}: choose your fighter!"), {"number": number}))


def on_designation_due(state: RCBState, c: DesignationDue, ctx: Context) -> Applied:
    state.timer = None
    state.time_up = True
    return Applied(Msg(N_("Time is up: fighters, step forward!")))


def on_fighters(state: RCBState, c: Fighters, ctx: Context) -> Applied:
    if state.phase != "designation" or state.current is None:
        raise RuleError(N_("Start a round first; a duel under way must be settled."))
    for team, fighter_id in (("A", c.a), ("B", c.b)):
        fighter = state.fighter(fighter_id)
        if fighter.team != team:
            raise RuleError(
                N_("{name} is not in team {team}."),
                field=f"fighter_{team.lower()}",
                name=fighter.name,
                team=state.team_names[team],  # type: ignore[index]
            )
        if fighter.ghost:
            raise RuleError(
                N_("{name} is a ghost and can no longer fight."),
                field=f"fighter_{team.lower()}",
                name=fighter.name,
            )
    current = state.current
    current.fighter_a, current.fighter_b = c.a, c.b
    current.chosen_by_opponent_a, current.chosen_by_opponent_b = c.opponent_a, c.opponent_b
    state.timer = None
    state.phase = "stakes"
    return Applied(
        Msg(
            N_("Fighters, step forward: {a} against {b}."),
            {"a": state.fighter(c.a).name, "b": state.fighter(c.b).name},
        )
    )


def on_stakes(state: RCBState, c: Stakes, ctx: Context) -> Applied:
    if state.phase != "stakes" or state.current is None:
        raise RuleError(N_("Stakes come after the fighters step forward."))
    check_stake(state, "A", c.a)
    check_stake(state, "B", c.b)
    state.bets["A"] -= c.a
    state.bets["B"] -= c.b
    state.current.stake_a, state.current.stake_b = c.a, c.b
    state.phase = "duel"
    return Applied(
        Msg(
            N_("Place your bets: {a} staked {sa}, {b} staked {sb}."),
            {"a": state.team_names["A"], "b": state.team_names["B"], "sa": c.a, "sb": c.b},
        )
    )


def on_duel(state: RCBState, c: Duel, ctx: Context) -> Applied:
    if state.phase != "duel" or state.current is None:
        raise RuleError(N_("The duel comes after the stakes."))
    current = state.current
    settle_duel(state, current)
    state.rounds.append(current)
    state.current = None
    state.phase = "ready"
    a, b = state.fighter(current.fighter_a or 0), state.fighter(current.fighter_b or 0)
    if current.outcome == "tie":
        text = Msg(
            N_("Round {n}: tie between {a} and {b}; the stakes stay in the middle."),
            {"n": current.number, "a": a.name, "b": b.name},
        )
    else:
        winner, loser = (a, b) if current.outcome == "A" else (b, a)
        text = Msg(
            N_("Round {n}: team {team} wins; {loser} becomes a ghost."),
            {
                "n": current.number,
                "team": state.team_names[current.outcome],  # type: ignore[index]
                "loser": loser.name,
                "winner": winner.name,
            },
        )
    pieces = [text]
    if current.taxes_a or current.taxes_b:
        pieces.append(
            Msg(
                N_("The bank is empty: taxes of {ta} and {tb}."),
                {"ta": cards(current.taxes_a), "tb": cards(current.taxes_b)},
            )
        )
    end = maybe_end(state)
    if end is not None:
        pieces.append(end)
    return Applied(joined(pieces))
