"""Before and around the game (Début de la partie, Une autre façon de commencer): the
settings, the deck, the start and its cards, pause, resume and the end."""

from __future__ import annotations

from server.errors import RuleError
from server.games.serial_battle.cards import fresh_card
from server.games.serial_battle.catalog import expand, validate_deck
from server.games.serial_battle.commands import (
    End,
    Pause,
    ReplaceDeck,
    Resume,
    SetSettings,
    Start,
    TagPlayer,
)
from server.games.serial_battle.ending import outcome
from server.games.serial_battle.state import ADVISED_PLAYERS, PLAYERS_PER_REFEREE, Result, SBState
from server.i18n import N_, P_, Msg, joined
from server.platform.dice import SERVER
from server.platform.kinds import Applied, Context
from server.platform.timers import Timer


def start_missing(state: SBState) -> list[Msg]:
    """What the game still needs before it can start, said before the tap that would be refused."""
    missing = []
    if len(state.players) < 2:
        missing.append(Msg(N_("A game needs at least two players.")))
    if len(state.sectors) < 2:
        missing.append(Msg(N_("Name at least two sectors: the zone shrinks by closing them.")))
    return missing


def advice(state: SBState) -> list[Msg]:
    """What the rule book advises that this game does not follow (warnings, never refusals)."""
    notes = []
    count = len(state.players)
    low, high = ADVISED_PLAYERS
    if count and not low <= count <= high:
        notes.append(
            Msg(
                N_(
                    "The rule book advises a number of players from {low} to {high}; this game has {count}."
                ),
                {"low": low, "high": high, "count": count},
            )
        )
    referees = len(state.referees)
    needed = -(-count // PLAYERS_PER_REFEREE)
    if count and referees > needed:
        notes.append(
            Msg.counted(
                P_(
                    "Up to one referee per six players: {count} player needs {needed} at most.",
                    "Up to one referee per six players: {count} players need {needed} at most.",
                ),
                "count",
                {"count": count, "needed": needed},
            )
        )
    copies = len(expand(state.deck))
    if state.deal_mode == "random" and count > copies:
        notes.append(
            Msg(
                N_("{players} for {cards}: some start with bare hands."),
                {
                    "players": Msg.counted(
                        P_("{count} player", "{count} players"), "count", {"count": count}
                    ),
                    "cards": Msg.counted(
                        P_("{count} card", "{count} cards"), "count", {"count": copies}
                    ),
                },
            )
        )
    return notes


# -------------------------------------------------------------------- handlers


def on_settings(state: SBState, c: SetSettings, ctx: Context) -> Applied:
    state.shrink_minutes, state.deal_mode, state.closing = (
        c.shrink_minutes,
        c.deal_mode,
        c.closing,
    )
    return Applied(Msg(N_("Settings saved.")), {})


def on_deck(state: SBState, c: ReplaceDeck, ctx: Context) -> Applied:
    validate_deck(c.cards)
    state.deck, state.sample_deck = c.cards, c.sample
    saved = P_("Deck of {count} card saved.", "Deck of {count} cards saved.")
    return Applied(Msg.counted(saved, "count", {"count": len(expand(c.cards))}), {})


def on_tag(state: SBState, c: TagPlayer, ctx: Context) -> Applied:
    state.player(c.player).tag = c.tag.strip()
    return Applied(
        Msg(N_("{player}: “{tag}”."), {"player": state.player(c.player).name, "tag": c.tag}), {}
    )


def on_start(state: SBState, c: Start, ctx: Context) -> Applied:
    missing = start_missing(state)
    if missing:
        raise RuleError(N_("Not yet: {missing}"), missing=joined(missing))
    copies = expand(state.deck)
    dealt: dict[str, str] = {}
    if state.deal_mode == "random":
        # Début de la partie: the deck is shuffled and each player gets one card at random.
        order = list(copies)
        for i in range(len(order) - 1, 0, -1):
            j = ctx.dice.roll(i + 1, f"shuffle_{i}", owner=SERVER, secret=True) - 1
            order[i], order[j] = order[j], order[i]
        for player in state.players.values():
            if order:
                copy_id = order.pop(0)
                player.cards = [fresh_card(state, copy_id)]
                dealt[str(player.id)] = copy_id
        state.pool = order
    else:
        # Une autre façon de commencer: the cards are scattered and picked up later.
        state.pool = copies
    state.phase = "running"
    state.started_at = ctx.now
    state.zone = Timer.start(ctx.now, state.shrink_minutes * 60)
    return Applied(
        Msg.counted(
            P_("The game starts: {count} player.", "The game starts: {count} players."),
            "count",
            {"count": len(state.players)},
        ),
        {"dealt": dealt},
    )


def on_pause(state: SBState, c: Pause, ctx: Context) -> Applied:
    if state.phase != "running":
        raise RuleError(N_("The game is not running."))
    state.phase = "paused"
    state.zone = state.zone.pause(ctx.now) if state.zone else None
    return Applied(Msg(N_("Game paused.")), {})


def on_resume(state: SBState, c: Resume, ctx: Context) -> Applied:
    if state.phase != "paused":
        raise RuleError(N_("The game is not paused."))
    state.phase = "running"
    state.zone = state.zone.resume(ctx.now) if state.zone else None
    return Applied(Msg(N_("Game resumed.")), {})


def on_end(state: SBState, c: End, ctx: Context) -> Applied:
    if state.phase in ("setup", "finished"):
        raise RuleError(N_("Only a game under way can be ended."))
    result = outcome(state)
    state.result = result or Result(winner=None, reason="ended_by_referee")
    state.phase = "finished"
    state.ended_at = ctx.now
    state.zone = state.zone.pause(ctx.now) if state.zone else None
    for pending in state.pending:
        state.player(pending.loser).knocked_out = False
    state.pending = []
    # Said by who ended it: the organizer or a referee (a newcomer read "the referee" for the
    # organizer's end, issue 54).
    return Applied(Msg(N_("{name} ends the game."), {"name": ctx.actor.name}), {})
