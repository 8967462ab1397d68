"""What each viewer sees: the board, the players' points and zones as the book makes them public
(1.3: a hand is its owner's, a draw pile's order nobody's, activity zones and discards
everyone's), and a player's own hand and choices; the journal's words."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from server.games.battlefight import board
from server.games.battlefight.cards import TYPE_TITLES, Technique
from server.games.battlefight.engine import Choice, Table
from server.games.battlefight.play import CHOICE_ASKS, CHOICE_WORDS, SAID_KEPT
from server.games.battlefight.setup import position_key
from server.games.battlefight.state import CARDS_AT_TITLES, DECK_MODE_TITLES, BFState
from server.i18n import N_, P_, Msg
from server.platform.kinds import LoggedEvent, Part, Viewer, sentences_only
from server.platform.now import WATCH, Now

CELL_SIZE = 24  # the SVG's unit: a cell's circumradius

RESULT_TITLES = {
    "won": N_("won"),
    "draw_agreed": N_("a draw by agreement (2.6.1)"),
    "draw_repetition": N_("a draw by repetition (2.6.2)"),
    "null": N_("a null game (0.2)"),
}


def technique_view(t: Technique) -> dict[str, Any]:
    return {"key": t.key, "title": t.title, "type": t.type, "steps": t.steps, "base": t.base}


def cells_view(table: Table) -> list[dict[str, Any]]:
    """The 37 cells for the SVG: outline, centre, label, and the pawn on it."""
    on = {s.cell: s for s in table.seats if s.cell is not None and not s.lost}
    out = []
    for cell in board.cells():
        x, y = board.centre(cell, CELL_SIZE)
        seat = on.get(cell)
        out.append(
            {
                "label": board.label(cell),
                "x": round(x, 1),
                "y": round(y, 1),
                "points": " ".join(
                    f"{px:.1f},{py:.1f}" for px, py in board.outline(cell, CELL_SIZE)
                ),
                "seat": seat.id if seat else None,
                "initial": seat.name[:2] if seat else None,
            }
        )
    return out


def table_view(state: BFState, table: Table) -> dict[str, Any]:
    names = {s.id: s.name for s in table.seats}
    seats = []
    for i, s in enumerate(table.seats):
        seats.append(
            {
                "id": s.id,
                "name": s.name,
                "order": i + 1,
                "turn": i == table.turn and not table.finished,
                "life": s.life,
                "damage": s.damage,
                "force": table.points(s.id, "force"),
                "protection": table.points(s.id, "protection"),
                "speed": table.points(s.id, "speed"),
                "charm": table.points(s.id, "charm"),
                "cell": board.label(s.cell) if s.cell is not None else None,
                "hand": len(s.hand),  # 1.3.2: the cards are the player's; their count is not
                "draw": len(s.draw),  # 1.3.1: face down
                "discard": [table.technique(c).title for c in s.discard],  # 1.3.4: face up
                "lost": s.lost,
            }
        )
    active = []
    for a in table.active:
        t = table.technique(a.technique)
        active.append(
            {
                "uid": a.uid,
                "title": t.title,
                "type": t.type,
                "steps": t.steps,
                "next": a.next,
                "owner": names.get(a.owner, "?"),
                "target": names.get(a.target, "") if a.target is not None else "",
                "stable": a.stable,
                "cost": a.cost,
            }
        )
    pending = None
    if table.pending is not None:
        pending = {
            "player": names[table.pending.player],
            "player_id": table.pending.player,
            "what": Msg(CHOICE_WORDS[table.pending.kind]).render(),
        }
    return {
        "cells": cells_view(table),
        "seats": seats,
        "active": active,
        "pending": pending,
        "said": [Msg.from_json(m).render() for m in table.said[-SAID_KEPT:]][::-1],
        "winner": names.get(table.winner) if table.winner is not None else None,
        "unsettled": table.unsettled is not None,
        "repetition": state.phase == "playing" and state.positions.get(position_key(table), 0) >= 3,
        "draw_offer": [names[p] for p in state.draw_offer if p in names],
    }


def board_part(state: BFState, viewer: Viewer, now: datetime) -> dict[str, Any]:
    """What everyone sees."""
    return {
        "phase": state.phase,
        "deck_mode": state.deck_mode,
        "deck_mode_title": Msg(DECK_MODE_TITLES[state.deck_mode]).render(),
        "cards": state.cards,
        "sample": state.sample,
        # The cards to build decks from, while they are built; in play, the cards.json export.
        "collection": [technique_view(t) for t in state.collection]
        if state.phase == "setup"
        else [],
        "players": [
            {
                "id": p.id,
                "name": p.name,
                "wins": p.wins,
                "ready": len(p.deck) == 20,
                "opened": bool(p.deck or p.pool),
            }
            for p in state.players.values()
        ],
        "games": state.games,
        "draws": state.draws,
        "result": state.result,
        "result_title": Msg(RESULT_TITLES[state.result]).render() if state.result else None,
        "table": table_view(state, state.table) if state.table is not None else None,
        "me": None,
    }


def option_label(table: Table, choice: Choice, value: str) -> str:
    if choice.kind == "drawn":  # the card is in the organizer's hand: its name finds it
        return table.technique(value).title
    if choice.kind in ("technique", "discard"):
        t = table.technique(value)
        return f"{t.title} · {' · '.join(t.steps)}"
    if choice.kind == "target":
        return table.seat(int(value)).name
    if choice.kind == "destabilise":
        if value == "none":
            return Msg(N_("none")).render()
        a = next(a for a in table.active if a.uid == int(value))
        price = max(0, a.cost - table.points(choice.player, "charm"))  # 4.4.8: I - C
        return Msg(
            N_("{technique} ({owner}): discard {price}"),
            {
                "technique": table.technique(a.technique).title,
                "owner": table.seat(a.owner).name,
                "price": price,
            },
        ).render()
    if value == "off":
        return Msg(N_("off the board")).render()
    if value == "stay":
        return Msg(N_("leave them there")).render()
    return value


def because(table: Table) -> str | None:
    """The technique whose step asks (someone else's, or one played through Rejouer)."""
    if not table.stack:
        return None
    active = next((a for a in table.active if a.uid == table.stack[-1].uid), None)
    if active is None:
        return None
    return Msg(
        N_("{technique}, played by {name}"),
        {
            "technique": table.technique(active.technique).title,
            "name": table.seat(active.owner).name,
        },
    ).render()


def choice_view(table: Table, choice: Choice) -> dict[str, Any]:
    """A pending choice as its form shows it: what is asked, why, and every option in words."""
    return {
        "kind": choice.kind,
        "count": choice.count,
        "player": table.seat(choice.player).name,
        "what": Msg(CHOICE_WORDS[choice.kind]).render(),
        "ask": Msg(CHOICE_ASKS[choice.kind]).render(),
        "because": because(table),
        "options": [option_view(table, choice, v) for v in choice.options],
    }


def option_view(table: Table, choice: Choice, value: str) -> dict[str, str]:
    """An option in words; a technique's also as its title and its steps apart (a button names
    it big, its steps small under: two across on a phone, issue 54), and what would make it
    fail from where everyone stands now."""
    option = {"value": value, "label": option_label(table, choice, value)}
    if choice.kind in ("technique", "discard"):
        t = table.technique(value)
        option |= {"title": t.title, "detail": " · ".join(t.steps)}
        if choice.kind == "technique" and (why := out_of_reach(table, choice.player, t)):
            option["note"] = why.render()
    return option


# Steps after which where everyone stands may have changed: a reach is no longer foretold.
MOVING_STEPS = {"move", "push", "play_again", "destabilise"}


def out_of_reach(table: Table, player: int, technique: Technique) -> Msg | None:
    """A melee or ranged step, with no move before it, that fails against every opponent from
    where everyone stands now (4.4.4: further than one cell; 4.4.6: closer than its range): said
    on the technique's button, which stays offered (a technique played out of reach fails, and
    the turn is spent: the rule book's choice, a newcomer's surprise, issue 54)."""
    here = table.seat(player).cell
    there = [s.cell for s in table.seats if s.id != player and not s.lost and s.cell is not None]
    if here is None or not there:
        return None
    for step in technique.parsed:
        if step.keyword in MOVING_STEPS:
            return None
        if step.keyword == "melee" and all(board.distance(here, c) > 1 for c in there):
            return Msg(N_("out of reach: it fails"))
        if step.keyword == "ranged" and all(board.distance(here, c) < (step.n or 0) for c in there):
            return Msg(N_("too close: it fails"))
    return None


def me_part(state: BFState, viewer: Viewer, now: datetime) -> dict[str, Any] | None:
    """A player's own: their deck, a sealed pool, their hand, and the choice asked of them."""
    player = state.players.get(str(viewer.person_id))
    if player is None or viewer.role != "player":
        return None
    mine: dict[str, Any] = {
        "id": player.id,
        "name": player.name,
        "deck": [t.title for k in player.deck if (t := state.technique(k))],
        "pool": [technique_view(t) for k in player.pool if (t := state.technique(k))],
        "hand": [],
        "choice": None,
    }
    table = state.table
    if table is not None:
        seat = next((s for s in table.seats if s.id == player.id), None)
        if seat is not None:
            mine["hand"] = [technique_view(table.technique(c)) | {"copy": c} for c in seat.hand]
        choice = table.pending
        if choice is not None and choice.player == player.id:
            mine["choice"] = choice_view(table, choice)
    return {"me": mine}


def console_part(state: BFState, viewer: Viewer, now: datetime) -> dict[str, Any] | None:
    """At a table of physical cards, the organizer enters every deck, card drawn and choice: they
    see the decks, the hands and the choice asked, whoever it is asked of. On phones, nothing
    more than the board: hands stay with their players (1.3.2)."""
    if not viewer.is_staff or state.cards != "table":
        return None
    table = state.table
    decks = [
        {"id": p.id, "name": p.name, "deck": [t.key for k in p.deck if (t := state.technique(k))]}
        for p in state.players.values()
    ]
    hands = []
    choice = None
    if table is not None:
        hands = [
            {
                "name": s.name,
                "hand": [technique_view(table.technique(c)) for c in s.hand],
            }
            for s in table.seats
            if not s.lost
        ]
        if table.pending is not None and state.phase == "playing":
            choice = choice_view(table, table.pending)
    return {"console": {"decks": decks, "hands": hands, "choice": choice}}


# What viewers see: the table for all; a player's hand and choices for that player alone. The
# staff see the table like everyone (hands stay with their players), and at a table of physical
# cards what they enter: decks, hands and the choice asked.
PARTS: tuple[Part[BFState], ...] = (
    Part("board", "game", board_part),
    Part("me", "person", me_part),
    Part("console", "staff", console_part),
)


def log_view(event: LoggedEvent, viewer: Viewer) -> dict[str, Any] | None:
    """The journal: the summaries for everyone; the dice without the secret ones (a shuffle, a
    booster); the commands (a choice names a card once it is public) for the staff only."""
    return sentences_only(event, viewer)


def template_globals() -> dict[str, Any]:
    return {
        "bf_types": TYPE_TITLES,
        "bf_deck_modes": DECK_MODE_TITLES,
        "bf_cards_at": CARDS_AT_TITLES,
    }


def now(view: Mapping[str, Any], viewer: Viewer) -> Now:
    """Where the match stands, whose choice the game waits for, and what this viewer does."""
    me, table, console = view.get("me"), view.get("table"), view.get("console")
    phase, staff = view["phase"], viewer.is_staff
    at_table = view["cards"] == "table"
    if phase == "setup":
        ready = sum(1 for p in view["players"] if p["ready"])
        where = Msg.counted(
            P_(
                "Before the game: {ready} deck of {count} ready",
                "Before the game: {ready} decks of {count} ready",
            ),
            "ready",
            {"ready": ready, "count": len(view["players"])},
        )
        if staff:
            enter = at_table and ready < len(view["players"])
            you = (
                N_("Enter the decks, then start the game.")
                if enter
                else N_("Start the game once every deck is ready.")
            )
            return Now(where, Msg(you), yours=True)
        if me is None:
            return Now(where, None if viewer.role == "public" else Msg(WATCH))
        if me["deck"]:
            return Now(where, Msg(N_("Your deck is ready: the organizer starts the game.")))
        if at_table:
            return Now(where, Msg(N_("The organizer enters your deck.")))
        return Now(where, Msg(N_("Make your deck.")), yours=True)
    number = view["games"] + 1  # 2.1.6: a match of several games; the first says no number
    if phase == "finished":
        result = (
            Msg(N_("{name} wins"), {"name": table["winner"]})
            if view["result"] == "won" and table and table["winner"]
            else Msg(str(view.get("result_title")))
        )
        where = (
            Msg(N_("Game {n} of the match is over: {result}"), {"n": number, "result": result})
            if number > 1
            else Msg(N_("The game is over: {result}."), {"result": result})
        )
        if staff:
            said = N_("Deal the next game of the match, or stop here.")
            return Now(where, Msg(said), yours=True)
        said = N_("The organizer deals the next game, if you play on.")
        return Now(where, None if viewer.role == "public" else Msg(said))
    pending = table["pending"] if table else None
    game = Msg(N_("Game {n} of the match"), {"n": number}) if number > 1 else Msg(N_("In play"))
    if pending is None:
        return Now(game, None if viewer.role == "public" else Msg(WATCH))
    where = Msg(
        N_("{game} · {name} {what}"),
        {"game": game, "name": pending["player"], "what": pending["what"]},
    )
    if staff:
        if at_table and console and console["choice"]:
            return Now(
                where,
                Msg(N_("Enter {name}’s choice."), {"name": pending["player"]}),
                yours=True,
            )
        return Now(where, Msg(N_("The players choose on their phones: nothing to enter.")))
    if me is None:
        return Now(where, None if viewer.role == "public" else Msg(WATCH))
    if me["choice"] is not None:
        if at_table:
            return Now(
                where,
                Msg(N_("Your turn: say your choice aloud to the organizer.")),
                yours=True,
                aloud=True,
            )
        return Now(where, Msg(N_("Your turn.")), yours=True)
    offers = [n for n in (table or {}).get("draw_offer", []) if n != me["name"]]
    if offers:
        said = N_("{names} offers a draw: accept it, or wait for {name} to play on.")
        return Now(where, Msg(said, {"names": ", ".join(offers), "name": pending["player"]}))
    return Now(where, Msg(N_("Wait: {name} chooses."), {"name": pending["player"]}))
