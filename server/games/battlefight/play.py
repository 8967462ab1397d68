"""Playing (2.4 to 2.6, 3.4): a player's answer to what the engine asks, draws by agreement and
by repetition, a game the book cannot settle called null (0.2)."""

from __future__ import annotations

from server.errors import NotAllowed, RuleError
from server.games.battlefight import engine
from server.games.battlefight.commands import Choose, ClaimRepetition, DeclareNull, OfferDraw
from server.games.battlefight.setup import position_key, remember_position
from server.games.battlefight.state import BFState
from server.i18n import N_, Msg, joined
from server.platform.kinds import Applied, Context

CHOICE_WORDS = {
    "technique": N_("chooses a technique"),
    "target": N_("chooses whom to target"),
    "cell": N_("chooses a cell"),
    "push": N_("chooses where to push"),
    "discard": N_("chooses the cards to discard"),
    "destabilise": N_("chooses a technique to destabilise"),
    "drawn": N_("draws a card: which one?"),
}


SAID_KEPT = 12  # the latest sentences the board shows (views.py)


# The same, said to the player asked, on their own phone.
CHOICE_ASKS = {
    "technique": N_("Choose a technique"),
    "target": N_("Choose whom to target"),
    "cell": N_("Choose a cell"),
    "push": N_("Choose where to push"),
    "discard": N_("Choose the cards to discard"),
    "destabilise": N_("Choose a technique to destabilise"),
    "drawn": N_("Which card did you draw?"),
}


def table_of(state: BFState) -> engine.Table:
    if state.table is None or state.phase != "playing":
        raise RuleError(N_("No game is being played."))
    return state.table


def finish(state: BFState, result: str) -> None:
    table = state.table
    assert table is not None
    state.phase, state.result = "finished", result
    state.draw_offer = []
    table.pending = None
    if result == "won" and table.winner is not None:
        state.player(table.winner).wins += 1
        state.first_out = table.out[0] if table.out else None
    elif result != "null":
        state.draws += 1


def on_choose(state: BFState, c: Choose, ctx: Context) -> Applied:
    table = table_of(state)
    pending = table.pending
    if pending is None:
        raise RuleError(N_("Nothing is asked now."))
    name = table.seat(pending.player).name
    if ctx.actor.is_staff:
        if state.cards != "table":  # 1.3.2: on phones, a hand and its choices are its player's
            raise NotAllowed(N_("{name} chooses on their own phone."), name=name)
    elif ctx.actor.person_id != pending.player:
        raise NotAllowed(N_("It is {name}'s choice."), name=name)
    elif state.cards == "table":  # the cards are on the table: one person enters them all
        raise NotAllowed(N_("At this table the organizer enters every choice."))
    said, turns = len(table.said), table.turns
    try:
        engine.answer(table, pending.player, list(c.values), ctx.dice)
    except engine.EngineError:
        raise RuleError(N_("That is not one of the choices offered."), field="values") from None
    state.draw_offer = []  # 2.6.1: an offer stands until the next move
    if table.finished:
        finish(state, "won" if table.winner is not None else "null")
    elif table.turns > turns:
        remember_position(state)
    pieces = [Msg.from_json(m) for m in table.said[said:]]
    del table.said[:-SAID_KEPT]  # the log keeps every sentence; the state, what the board shows
    if not pieces:
        pieces = [
            Msg(N_("{name} {chooses}."), {"name": name, "chooses": Msg(CHOICE_WORDS[pending.kind])})
        ]
    return Applied(joined(pieces))


def on_offer_draw(state: BFState, c: OfferDraw, ctx: Context) -> Applied:
    table = table_of(state)
    me = ctx.actor.person_id
    if me is None or me not in [s.id for s in table.playing()]:
        raise NotAllowed(N_("Only a player still in the game agrees to a draw."))
    if me not in state.draw_offer:
        state.draw_offer.append(me)
    name = table.seat(me).name
    if all(s.id in state.draw_offer for s in table.playing()):
        finish(state, "draw_agreed")
        return Applied(Msg(N_("Every player agrees: the game is a draw (2.6.1)."), {}))
    return Applied(Msg(N_("{name} offers a draw."), {"name": name}))


def on_repetition(state: BFState, c: ClaimRepetition, ctx: Context) -> Applied:
    table = table_of(state)
    me = ctx.actor.person_id
    if me is None or me not in [s.id for s in table.playing()]:
        raise NotAllowed(N_("Only a player still in the game claims a draw."))
    if state.positions.get(position_key(table), 0) < 3:
        raise RuleError(N_("This state of the game has not been reached twice before (2.6.2)."))
    finish(state, "draw_repetition")
    return Applied(
        Msg(N_("Draw by repetition, claimed by {name} (2.6.2)."), {"name": table.seat(me).name})
    )


def on_null(state: BFState, c: DeclareNull, ctx: Context) -> Applied:
    table = table_of(state)
    if table.unsettled is None:
        raise RuleError(
            N_("The game can go on: only a situation the book does not settle is null.")
        )
    finish(state, "null")
    return Applied(Msg(N_("The game is null (0.2): the book does not settle what happened."), {}))
