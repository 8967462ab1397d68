"""Before a game (1.1, 2.1): the collection, how decks are made, each player's deck, the start;
and the next game of a match (2.1.6)."""

from __future__ import annotations

import hashlib
import json

from server.errors import InvalidInput, NotAllowed, RuleError
from server.games.battlefight import engine
from server.games.battlefight.cards import CardError, Technique
from server.games.battlefight.commands import (
    ChooseDeck,
    Collection,
    NextGame,
    OpenBoosters,
    SetCards,
    SetDeckMode,
    Start,
)
from server.games.battlefight.decks import (
    chosen_deck,
    random_deck,
    read_any,
    sample_collection,
    sealed_pool,
    within,
)
from server.games.battlefight.state import (
    CARDS_AT_TITLES,
    DECK_MODE_TITLES,
    MAX_PLAYERS,
    MIN_PLAYERS,
    BFState,
    Player,
)
from server.i18n import N_, P_, Msg
from server.platform.kinds import Applied, Context, Viewer


def as_rule_error(error: CardError, field: str) -> RuleError:
    """A card or deck refused, said next to the form field it came from."""
    return RuleError(error.msg.text, field=field, **error.msg.params)


def acting_for(state: BFState, actor: Viewer, named: int | None) -> Player:
    """A player acts for themselves; the organizer names the player."""
    if actor.role == "player":
        if named is not None and named != actor.person_id:
            raise NotAllowed(N_("A player builds their own deck only."))
        named = actor.person_id
    if named is None or str(named) not in state.players:
        raise RuleError(N_("Choose the player."), field="player")
    return state.player(named)


def clear_decks(state: BFState) -> None:
    for player in state.players.values():
        player.deck, player.pool = [], []


def on_collection(state: BFState, c: Collection, ctx: Context) -> Applied:
    try:
        cards = read_any(c.text) if c.text.strip() else sample_collection()
    except CardError as error:
        raise as_rule_error(error, "text") from None
    except InvalidInput as error:
        raise RuleError(error.msg.text, field="text", **error.msg.params) from None
    state.collection, state.sample = cards, not c.text.strip()
    clear_decks(state)  # decks are made of the collection's cards
    saved = P_("New collection: {count} card.", "New collection: {count} cards.")
    return Applied(Msg.counted(saved, "count", {"count": len(cards)}))


def on_deck_mode(state: BFState, c: SetDeckMode, ctx: Context) -> Applied:
    state.deck_mode = c.mode
    clear_decks(state)
    return Applied(Msg(N_("Decks: {mode}."), {"mode": Msg(DECK_MODE_TITLES[c.mode])}))


def on_cards(state: BFState, c: SetCards, ctx: Context) -> Applied:
    state.cards = c.at
    clear_decks(state)
    return Applied(Msg(N_("Cards: {where}."), {"where": Msg(CARDS_AT_TITLES[c.at])}))


def on_boosters(state: BFState, c: OpenBoosters, ctx: Context) -> Applied:
    player = acting_for(state, ctx.actor, c.player)
    owner = f"player:{player.id}"
    if state.cards == "table":
        raise RuleError(
            N_("With physical cards, boosters are opened at the table: enter the deck.")
        )
    if state.deck_mode == "constructed":
        raise RuleError(N_("A constructed deck is chosen from the collection, not opened."))
    if player.deck or player.pool:
        raise RuleError(N_("{name}'s boosters are already open."), name=player.name)
    try:
        if state.deck_mode == "random":
            player.deck = [t.key for t in random_deck(state.collection, ctx.dice, owner)]
        else:
            player.pool = [t.key for t in sealed_pool(state.collection, ctx.dice, owner)]
    except CardError as error:
        raise as_rule_error(error, "player") from None
    return Applied(Msg(N_("{name} opens their boosters."), {"name": player.name}))


def on_deck(state: BFState, c: ChooseDeck, ctx: Context) -> Applied:
    player = acting_for(state, ctx.actor, c.player)
    try:
        if state.cards == "table":  # 1.1.3: the boosters were opened at the table
            if not ctx.actor.is_staff:
                raise NotAllowed(N_("At this table the organizer enters every deck."))
            chosen_deck(c.cards, state.collection)
        elif state.deck_mode == "random":
            raise RuleError(N_("A random deck comes from two boosters: open them."))
        elif state.deck_mode == "sealed":
            if ctx.actor.role != "player":
                # 1.1.2: the boosters are opened "secrètement": only their player chooses.
                raise NotAllowed(N_("A sealed deck is chosen by its player, on their phone."))
            if not player.pool:
                raise RuleError(N_("Open the three boosters first."))
            pool = [t for k in player.pool if (t := state.technique(k)) is not None]
            within(c.cards, pool)
            chosen_deck(c.cards, pool)
        else:
            chosen_deck(c.cards, state.collection)
    except CardError as error:
        raise as_rule_error(error, "cards") from None
    player.deck = list(c.cards)
    return Applied(Msg(N_("{name}'s deck is ready."), {"name": player.name}))


def deck_of(state: BFState, player: Player) -> list[Technique]:
    return [t for k in player.deck if (t := state.technique(k)) is not None]


def deal(state: BFState, ctx: Context, first: int | None) -> None:
    players = list(state.players.values())
    seats = [(p.id, p.name, deck_of(state, p)) for p in players]
    state.table = engine.new_table(seats, ctx.dice, first, physical=state.cards == "table")
    state.phase, state.result, state.draw_offer, state.positions = "playing", None, [], {}
    remember_position(state)


def on_start(state: BFState, c: Start, ctx: Context) -> Applied:
    count = len(state.players)
    if not MIN_PLAYERS <= count <= MAX_PLAYERS:
        raise RuleError(N_("BattleFight is played by 2 to 6 players, not {count}."), count=count)
    waiting = [p.name for p in state.players.values() if len(p.deck) != 20]
    if waiting:
        raise RuleError(N_("{name} has no deck yet."), name=waiting[0])
    deal(state, ctx, first=None)  # 2.1.6: the first game's first player by lot
    return Applied(Msg(N_("The game begins: {name} plays first."), {"name": first_name(state)}))


def on_next_game(state: BFState, c: NextGame, ctx: Context) -> Applied:
    """2.1.6: who lost the last game first plays first; after a draw, by lot."""
    if state.phase != "finished":
        raise RuleError(N_("The game is not over."))
    order = [p.id for p in state.players.values()]
    first = (
        order.index(state.first_out) if state.first_out in order and state.result == "won" else None
    )
    state.games += 1
    deal(state, ctx, first)
    return Applied(
        Msg(N_("The next game begins: {name} plays first."), {"name": first_name(state)})
    )


def first_name(state: BFState) -> str:
    assert state.table is not None
    return state.table.seats[state.table.turn].name


def remember_position(state: BFState) -> None:
    """2.6.2: the state of the game at the start of a turn, counted."""
    assert state.table is not None
    key = position_key(state.table)
    state.positions[key] = state.positions.get(key, 0) + 1


def position_key(table: engine.Table) -> str:
    def cards(zone: list[str]) -> list[str]:  # 2.6.2: which cards, not which copies
        return sorted(table.technique(c).key for c in zone)

    # Seats by their place at the table, not their person's number: the same position whatever
    # server the game is on (a moved game keeps counting its repetitions).
    place = {s.id: n for n, s in enumerate(table.seats)}
    seats = [
        (n, s.cell, s.life, s.damage, cards(s.hand), cards(s.discard), cards(s.draw), s.lost)
        for n, s in enumerate(table.seats)
    ]
    active = [
        (
            a.technique,
            place.get(a.owner),
            place.get(a.target) if a.target is not None else None,
            a.next,
            a.stable,
            a.cost,
            [e.model_dump() for e in a.effects],
        )
        for a in table.active
    ]
    text = json.dumps([seats, active, table.turn], sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]
