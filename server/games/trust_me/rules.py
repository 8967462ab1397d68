"""Trust Me's moves: which rule handles which command, who may send it, and when (the kind's
`moves`)."""

from __future__ import annotations

from typing import Any

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
from server.i18n import N_
from server.platform.kinds import PLAYERS, STAFF, Applied, Context, Move, Phase

NOT_OVER = Phase(lambda s: s.phase != "finished", N_("The game is over."))
SETUP = Phase(lambda s: s.phase == "setup", N_("This is settled before the deal."))
PREPARING = Phase(
    lambda s: s.phase == "preparing", N_("This is done between the deal and the first round.")
)
PLAYING = Phase(lambda s: s.phase in ("players", "zombies"), N_("The game has not begun."))
# The table's (the zombies, the dice), and the answers a staff member may give for a player.
EITHER = STAFF | PLAYERS


def on_aimed(state: TMState, c: Aimed, ctx: Context) -> Applied:
    return turn.on_aimed(state, c.answer, ctx)


def move(command: type, rule: Any, by: frozenset[str], phase: Phase, label: str) -> Move:
    return Move(command, rule, by, (NOT_OVER, phase), label)


MOVES = (
    # the setup (12)
    move(SetBox, setup.on_box, STAFF, SETUP, N_("the box")),
    move(SetPassport, setup.on_passport, STAFF, SETUP, N_("the passport")),
    move(SetDecor, setup.on_decor, STAFF, SETUP, N_("the décor")),
    move(TableDeal, setup.on_deal, STAFF, SETUP, N_("the deal")),
    move(Redraw, setup.on_redraw, PLAYERS, PREPARING, N_("the objective redrawn")),
    move(Keep, setup.on_keep, PLAYERS, PREPARING, N_("the starting tokens")),
    move(Community, setup.on_community, STAFF, PREPARING, N_("the Community roll")),
    # a turn (9, 11)
    move(SurvivorAct, turn.on_action, PLAYERS, PLAYING, N_("the action")),
    move(Search, turn.on_action, PLAYERS, PLAYING, N_("the search")),
    move(Arrange, turn.on_action, PLAYERS, PLAYING, N_("the rearrangement")),
    move(Use, turn.on_action, PLAYERS, PLAYING, N_("the object used")),
    move(SurvivorAttack, turn.on_action, PLAYERS, PLAYING, N_("the attack")),
    # a fight (10, 12): a staff member may answer for a player
    move(Reroll, combat.on_reroll, EITHER, PLAYING, N_("the die rolled again")),
    move(Defend, combat.on_defend, EITHER, PLAYING, N_("the defence")),
    move(Endure, combat.on_endure, EITHER, PLAYING, N_("the Fatigue or wound")),
    move(PlaceWounds, combat.on_wounds, EITHER, PLAYING, N_("the wounds placed")),
    move(Usage, combat.on_usage, EITHER, PLAYING, N_("the green die")),
    move(Zombies, combat.on_zombies, EITHER, PLAYING, N_("the zombies' attack")),
    move(Aimed, on_aimed, PLAYERS, PLAYING, N_("the answer to the aim")),
    move(Drop, turn.on_drop, PLAYERS, PLAYING, N_("the objects dropped")),
    move(Bandage, turn.on_bandage, PLAYERS, PLAYING, N_("the bandage")),
    move(Retarget, turn.on_retarget, PLAYERS, PLAYING, N_("the Cible marker moved")),
    move(Give, turn.on_give, PLAYERS, PLAYING, N_("the object given")),
    move(EndExchange, turn.on_end_exchange, PLAYERS, PLAYING, N_("the end of the exchange")),
    move(Roll, turn.on_roll, EITHER, PLAYING, N_("the table's dice")),
    # the zombie phase (12)
    move(Infections, zombies.on_infections, EITHER, PLAYING, N_("the infection dice")),
    move(Spawn, zombies.on_spawn, EITHER, PLAYING, N_("the zombies' spawn")),
    move(Recover, zombies.on_recover, EITHER, PLAYING, N_("the tokens taken back")),
    # the end (13, 14)
    move(Claim, ending.on_claim, PLAYERS, PLAYING, N_("the objective noted")),
    move(Leave, ending.on_leave, PLAYERS, PLAYING, N_("the exit")),
)
