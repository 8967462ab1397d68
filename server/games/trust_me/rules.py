"""Which rule handles which command (the kind's `handlers`), and who may send the table's."""

from __future__ import annotations

from server.games.trust_me import combat, ending, setup, turn, zombies
from server.games.trust_me.commands import (
    Aimed,
    Arrange,
    Bandage,
    Claim,
    Community,
    Defend,
    Drop,
    EndExchange,
    Endure,
    Give,
    Infections,
    Keep,
    Leave,
    PlaceWounds,
    Recover,
    Redraw,
    Reroll,
    Retarget,
    Roll,
    Search,
    SetBox,
    SetDecor,
    SetPassport,
    Spawn,
    SurvivorAct,
    SurvivorAttack,
    TableDeal,
    Usage,
    Use,
    Zombies,
)
from server.games.trust_me.state import TMState
from server.platform.kinds import (
    Applied,
    Context,
    Handler,
)


def on_aimed(state: TMState, c: Aimed, ctx: Context) -> Applied:
    return turn.on_aimed(state, c.answer, ctx)


HANDLERS: dict[type, Handler] = {
    SetBox: setup.on_box,
    SetPassport: setup.on_passport,
    SetDecor: setup.on_decor,
    TableDeal: setup.on_deal,
    Redraw: setup.on_redraw,
    Keep: setup.on_keep,
    Community: setup.on_community,
    SurvivorAct: turn.on_action,
    Search: turn.on_action,
    Use: turn.on_action,
    Arrange: turn.on_action,
    SurvivorAttack: turn.on_action,
    Aimed: on_aimed,
    Drop: turn.on_drop,
    Bandage: turn.on_bandage,
    Retarget: turn.on_retarget,
    Give: turn.on_give,
    EndExchange: turn.on_end_exchange,
    Roll: turn.on_roll,
    Reroll: combat.on_reroll,
    Defend: combat.on_defend,
    Endure: combat.on_endure,
    PlaceWounds: combat.on_wounds,
    Usage: combat.on_usage,
    Zombies: combat.on_zombies,
    Infections: zombies.on_infections,
    Spawn: zombies.on_spawn,
    Recover: zombies.on_recover,
    Claim: ending.on_claim,
    Leave: ending.on_leave,
}
PREPARING = (Redraw, Keep, Community)
TABLE = (Zombies, Infections, Spawn, Roll)  # the table's: the staff or any player
ANSWERS = (Reroll, Defend, Endure, PlaceWounds, Usage, Recover)  # a staff member may answer for one
