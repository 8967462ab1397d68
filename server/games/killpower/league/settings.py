"""What the league's owner settles: championship or tournament (13), the ranking points, the
power deck."""

from __future__ import annotations

from server.errors import RuleError
from server.games.killpower.league.commands import (
    SetDeck,
    SetMode,
    SetPoints,
)
from server.games.killpower.league.state import (
    LeagueState,
)
from server.i18n import N_, P_, Msg
from server.platform.kinds import (
    Applied,
    Context,
)


def on_mode(state: LeagueState, c: SetMode, ctx: Context) -> Applied:
    """Championship or tournament (13): chosen before the first team, since a tournament's
    teams choose their powers and roll their armour at the first match."""
    if state.teams:
        raise RuleError(N_("The mode is chosen before the first team is created."), field="mode")
    state.mode = c.mode
    return Applied(
        Msg(
            N_("The league plays a {mode}."),
            {"mode": Msg(N_("championship") if c.mode == "championship" else N_("tournament"))},
        ),
        {},
    )


def on_points(state: LeagueState, c: SetPoints, ctx: Context) -> Applied:
    state.draw_points, state.surrender_points = c.draw_points, c.surrender_points
    return Applied(
        Msg(
            N_("Ranking points: draw {draw}, surrender {surrender}."),
            {"draw": c.draw_points, "surrender": c.surrender_points},
        ),
        {},
    )


def on_deck(state: LeagueState, c: SetDeck, ctx: Context) -> Applied:
    state.deck = c.deck
    return Applied(
        Msg(
            N_("New power deck: {cards}, {bluffs}."),
            {
                "cards": Msg.counted(
                    P_("{count} card", "{count} cards"), "count", {"count": len(c.deck.powers)}
                ),
                "bluffs": Msg.counted(
                    P_("{count} bluff card", "{count} bluff cards"),
                    "count",
                    {"count": c.deck.bluff},
                ),
            },
        ),
        {},
    )
