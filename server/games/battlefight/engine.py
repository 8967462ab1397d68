"""The step engine (2.4, 3.4, 4): a technique played, activated, and its steps executed one by one
until the execution is Stable, fails, or has no step left. Where a step asks a player to choose,
the engine stops with a `Choice` addressed to that player, offering only the legal options, and
resumes when `answer` gives one. Everything is plain data: a state serialises, replays from the
log (the dice come in from outside), and the platform's undo works on it.

Decisions where the book is silent are the spec's (`../shared/spec/battlefight.md`): a player
loses at 0 life or pushed off the board, checked after every step; "Déstabiliser" resumes the
chosen technique as its owner's, against its own target; a situation the engine cannot settle
stops it (`unsettled`) and the table may call the game null (0.2).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any, Literal

from pydantic import BaseModel, Field

from server.games.battlefight import board
from server.games.battlefight.board import Cell
from server.games.battlefight.cards import BASE_TECHNIQUES, Step, Technique, TechniqueType
from server.i18n import N_, P_, Msg
from server.platform.dice import SERVER, Dice

STARTING_LIFE = 20  # 2.1.5
Lasting = Literal["force", "protection", "speed", "charm", "forbid_type", "forbid_card"]


class Effect(BaseModel):
    """What a lasting step gives while its technique is active (4.4.3, 4.4.7, ...): to whom."""

    player: int
    keyword: Lasting
    n: int = 0
    type: TechniqueType | None = None


class Active(BaseModel):
    """A technique activated (3.4.3): in its owner's activity zone if a card."""

    uid: int
    technique: str  # a card's copy id in `cards`, or a base technique's key
    owner: int
    target: int | None
    next: int = 0  # the next step to execute
    stable: bool = False
    cost: int = 0  # 4.4.9: the destabilisation cost
    effects: list[Effect] = Field(default_factory=list)


class Seat(BaseModel):
    """A player (1.3, 2.1): pawn, life and damage points, the four zones."""

    id: int
    name: str
    cell: Cell | None = None  # None: off the board
    life: int = STARTING_LIFE
    damage: int = 0
    draw: list[str] = Field(default_factory=list)  # top first; nobody sees its order
    hand: list[str] = Field(default_factory=list)
    discard: list[str] = Field(default_factory=list)
    lost: bool = False


class Frame(BaseModel):
    """An execution in progress: the technique, and where its current step is."""

    uid: int
    repeat: int = 0  # repetitions of the current step done (Piocher 3, Pousser 2, ...)
    everyone: list[int] | None = None  # "Tout le monde a": the players still to act
    actor: int | None = None  # for the current step: whose technique it acts as
    aim: int | None = None  # and whom it targets
    waiting: int | None = None  # a technique chosen by "Déstabiliser", cards to pay first


ChoiceKind = Literal["technique", "target", "cell", "push", "discard", "destabilise", "drawn"]


class Choice(BaseModel):
    """What the engine waits for: one player's choice among legal options (4.4.5, 4.4.8,
    4.4.11, 4.4.15, 3.4.1, 3.4.2, 4.4.2 modifier); at a table of physical cards, also which card
    a player drew (4.4.10), since the pile is on the table."""

    player: int
    kind: ChoiceKind
    options: list[str]
    count: int = 1  # how many options to pick (cards to discard)
    technique: str | None = None  # for "target": the technique chosen


class Table(BaseModel):
    """The whole game as the engine sees it."""

    seats: list[Seat]  # in play order, clockwise (2.3)
    cards: dict[str, Technique] = Field(default_factory=dict)  # copy id -> its technique
    active: list[Active] = Field(default_factory=list)
    stack: list[Frame] = Field(default_factory=list)
    pending: Choice | None = None
    turn: int = 0  # the seat whose turn it is
    turns: int = 0
    next_uid: int = 1
    winner: int | None = None
    finished: bool = False
    unsettled: str | None = None  # a situation the book does not settle (0.2)
    out: list[int] = Field(default_factory=list)  # who lost, in order (2.1.6)
    said: list[dict[str, Any]] = Field(default_factory=list)  # what happened, as `Msg` JSON
    # Physical cards at one table: the piles are shuffled and drawn on the table, and the card
    # drawn is entered; the engine keeps which cards each pile holds, never an order.
    physical: bool = False

    def say(self, message: str, **params: Any) -> None:
        self.said.append(Msg(message, params).to_json())

    def seat(self, player: int) -> Seat:
        return next(s for s in self.seats if s.id == player)

    def playing(self) -> list[Seat]:
        return [s for s in self.seats if not s.lost]

    def technique(self, key: str) -> Technique:
        return self.cards[key] if key in self.cards else BASE[key]

    def points(self, player: int, keyword: Lasting) -> int:
        """Force, Protection, Speed or Charm points (2.1.5: 0 unless an active technique adds)."""
        return sum(
            e.n
            for a in self.active
            for e in a.effects
            if e.player == player and e.keyword == keyword
        )

    def occupied(self) -> list[Cell]:
        return [s.cell for s in self.seats if s.cell is not None and not s.lost]


BASE = {t.key: t for t in BASE_TECHNIQUES}


class EngineError(ValueError):
    """An answer the pending choice does not allow."""


# ---------------------------------------------------------------------------- set-up (2.1)


def shuffle(cards: list[str], dice: Dice, purpose: str) -> list[str]:
    """A shuffle from dice (Fisher-Yates), each die logged: replay gives the same order."""
    cards = list(cards)
    for i in range(len(cards) - 1, 0, -1):
        j = dice.roll(i + 1, purpose, owner=SERVER, secret=True) - 1  # nobody enters a shuffle
        cards[i], cards[j] = cards[j], cards[i]
    return cards


def new_table(
    players: list[tuple[int, str, list[Technique]]],
    dice: Dice,
    first: int | None = None,
    *,
    physical: bool = False,
) -> Table:
    """2.1: pawns in the corners, decks shuffled into the draw piles, 20 life points, hands empty
    (spec: the book draws nothing at the start), the first player drawn by lot. With physical
    cards the decks are shuffled on the table, not here."""
    cells = board.starting_cells(len(players))
    table = Table(seats=[], physical=physical)
    for (pid, name, deck), cell in zip(players, cells, strict=True):
        copies = []
        for n, technique in enumerate(deck, start=1):
            copy_id = f"{pid}:{n}"
            table.cards[copy_id] = technique
            copies.append(copy_id)
        draw = copies if physical else shuffle(copies, dice, f"deck of {name}")
        table.seats.append(Seat(id=pid, name=name, cell=cell, draw=draw))
    table.turn = first if first is not None else dice.roll(len(players), "first player") - 1
    start_turn(table)
    return table


# ---------------------------------------------------------------------------- playing (3.4)


def playable(table: Table, player: int) -> list[str]:
    """3.4.1: the base techniques and the cards of the hand, less what an active "S'empêcher"
    forbids (4.4.16, 4.4.17)."""
    seat = table.seat(player)
    forbidding = [e for a in table.active for e in a.effects if e.player == player]

    def allowed(key: str, card: bool) -> bool:
        kind = table.technique(key).type
        for e in forbidding:
            if e.keyword == "forbid_type" and e.type == kind:
                return False
            if e.keyword == "forbid_card" and card and e.type in (None, kind):
                return False
        return True

    base = [k for k in BASE if allowed(k, card=False)]
    return base + [c for c in dict.fromkeys(seat.hand) if allowed(c, card=True)]


def opponents(table: Table, player: int) -> list[Seat]:
    return [s for s in table.playing() if s.id != player]


def start_turn(table: Table) -> None:
    """The player whose turn it is plays a technique (2.4)."""
    if table.finished:
        return
    player = table.seats[table.turn].id
    ask_technique(table, player)


def ask_technique(table: Table, player: int) -> None:
    options = playable(table, player)
    if not options:
        table.unsettled = f"{table.seat(player).name}: no technique may be played (3.4.1)"
        table.say(
            N_("{name} may play no technique: the book does not say what follows."),
            name=table.seat(player).name,
        )
        return
    table.pending = Choice(player=player, kind="technique", options=options)


def activate(table: Table, player: int, key: str, target: int | None) -> None:
    """3.4.3: the card to the activity zone, the technique active, its execution begins."""
    seat = table.seat(player)
    if key in table.cards:
        seat.hand.remove(key)
    active = Active(uid=table.next_uid, technique=key, owner=player, target=target)
    table.next_uid += 1
    table.active.append(active)
    table.stack.append(Frame(uid=active.uid))
    title = table.technique(key).title
    if target is None:
        table.say(N_("{name} plays {technique}."), name=seat.name, technique=title)
    else:
        table.say(
            N_("{name} plays {technique} against {target}."),
            name=seat.name,
            technique=title,
            target=table.seat(target).name,
        )


def deactivate(table: Table, active: Active) -> None:
    """3.4.4: a card goes to its owner's discard pile."""
    table.active = [a for a in table.active if a.uid != active.uid]
    table.stack = [f for f in table.stack if f.uid != active.uid]
    if active.technique in table.cards:
        table.seat(active.owner).discard.append(active.technique)


# ---------------------------------------------------------------------------- answering


def answer(table: Table, player: int, chosen: list[str], dice: Dice) -> None:
    """A choice made: checked against the options offered, then the engine goes on."""
    pending = table.pending
    if pending is None or table.finished:
        raise EngineError("nothing is asked now")
    if pending.player != player:
        raise EngineError("another player chooses now")
    if len(chosen) != pending.count or any(c not in pending.options for c in chosen):
        raise EngineError("not one of the options offered")
    if pending.kind == "discard" and any(chosen.count(c) > 1 for c in chosen):
        raise EngineError("a card is chosen once")
    table.pending = None
    ANSWERS[pending.kind](table, pending, chosen, dice)
    run(table, dice)


def on_technique(table: Table, pending: Choice, chosen: list[str], dice: Dice) -> None:
    rivals = opponents(table, pending.player)
    if len(rivals) == 1:
        activate(table, pending.player, chosen[0], rivals[0].id)
    elif not names_the_opponent(table.technique(chosen[0])):
        # 3.4.3: "L'annonce de l'adversaire ciblé peut-être omise si ce choix n'a aucune
        # influence sur l'exécution": no step names the opponent, so nobody is asked whom.
        activate(table, pending.player, chosen[0], None)
    else:  # 3.4.2: the player chooses the opponent the technique targets
        table.pending = Choice(
            player=pending.player,
            kind="target",
            options=[str(s.id) for s in rivals],
            technique=chosen[0],
        )


def on_target(table: Table, pending: Choice, chosen: list[str], dice: Dice) -> None:
    frame = table.stack[-1] if table.stack else None
    if pending.technique is not None:
        activate(table, pending.player, pending.technique, int(chosen[0]))
    elif frame is not None:  # "Tout le monde a": this player's own target
        frame.aim = int(chosen[0])


def on_cell(table: Table, pending: Choice, chosen: list[str], dice: Dice) -> None:
    frame = table.stack[-1]
    assert frame.actor is not None
    seat = table.seat(frame.actor)
    seat.cell = board.parse_label(chosen[0])
    table.say(N_("{name} moves to {cell}."), name=seat.name, cell=chosen[0])
    frame.repeat += 1


def on_push(table: Table, pending: Choice, chosen: list[str], dice: Dice) -> None:
    frame = table.stack[-1]
    assert frame.aim is not None
    pushed = table.seat(frame.aim)
    if chosen[0] == "off":
        pushed.cell = None
        table.say(N_("{name} is pushed off the board."), name=pushed.name)
    elif chosen[0] != "stay":
        pushed.cell = board.parse_label(chosen[0])
        table.say(N_("{name} is pushed to {cell}."), name=pushed.name, cell=chosen[0])
    frame.repeat += 1


def on_discard(table: Table, pending: Choice, chosen: list[str], dice: Dice) -> None:
    discarded(table, table.seat(pending.player), chosen)
    frame = table.stack[-1]
    if frame.waiting is not None:  # "Déstabiliser" paid: the chosen technique resumes
        resume(table, frame)
    else:
        frame.repeat += 1


def on_destabilise(table: Table, pending: Choice, chosen: list[str], dice: Dice) -> None:
    frame = table.stack[-1]
    if chosen[0] == "none":
        frame.repeat += 1
        return
    frame.waiting = int(chosen[0])
    chosen_active = next(a for a in table.active if a.uid == frame.waiting)
    price = max(0, chosen_active.cost - table.points(pending.player, "charm"))
    seat = table.seat(pending.player)
    table.say(
        N_("{name} destabilises {technique} ({owner}) for {price}: it resumes."),
        name=seat.name,
        technique=table.technique(chosen_active.technique).title,
        owner=table.seat(chosen_active.owner).name,
        price=Msg.counted(P_("{count} card", "{count} cards"), "count", {"count": price}),
    )
    if price == 0:
        resume(table, frame)
    elif price == len(seat.hand):
        on_discard(table, Choice(player=seat.id, kind="discard", options=[]), list(seat.hand), dice)
    else:
        table.pending = Choice(player=seat.id, kind="discard", options=seat.hand, count=price)


def on_drawn(table: Table, pending: Choice, chosen: list[str], dice: Dice) -> None:
    seat = table.seat(pending.player)
    seat.draw.remove(chosen[0])
    seat.hand.append(chosen[0])
    table.stack[-1].repeat += 1


def resume(table: Table, frame: Frame) -> None:
    """4.4.8: "Reprendre l'exécution de la technique choisie", as its owner's (spec)."""
    chosen = next(a for a in table.active if a.uid == frame.waiting)
    frame.waiting = None
    frame.repeat += 1
    chosen.stable = False
    table.stack.append(Frame(uid=chosen.uid))


ANSWERS: Mapping[ChoiceKind, Callable[[Table, Choice, list[str], Dice], None]] = {
    "technique": on_technique,
    "target": on_target,
    "cell": on_cell,
    "push": on_push,
    "discard": on_discard,
    "destabilise": on_destabilise,
    "drawn": on_drawn,
}


# ---------------------------------------------------------------------------- the loop


def run(table: Table, dice: Dice) -> None:
    """Executes steps until a choice is needed, the turn ends, or the game does."""
    while not table.finished and table.pending is None and table.unsettled is None:
        if not table.stack:
            end_turn(table)
            continue
        frame = table.stack[-1]
        active = next(a for a in table.active if a.uid == frame.uid)
        steps = table.technique(active.technique).parsed
        if active.next >= len(steps):  # 3.4.3.3: no step left
            deactivate(table, active)
            continue
        outcome = execute(table, frame, active, steps[active.next], dice)
        check_losses(table)
        if outcome == "wait":
            continue
        if outcome == "fail":  # 3.4.3.2
            deactivate(table, active)
            continue
        # the step is done (for every player of "Tout le monde a")
        if frame.everyone:
            frame.repeat, frame.actor, frame.aim = 0, None, None
            continue
        active.next += 1
        frame.repeat, frame.everyone, frame.actor, frame.aim = 0, None, None, None
        if outcome == "stable":  # 3.4.3.1: the technique stays active
            active.stable = True
            table.stack.pop()


def end_turn(table: Table) -> None:
    """2.5: the player's damage points back to 0; the next player still in plays (2.3)."""
    current = table.seats[table.turn]
    current.damage = 0
    table.turns += 1
    if table.finished:
        return
    for step in range(1, len(table.seats) + 1):
        following = (table.turn + step) % len(table.seats)
        if not table.seats[following].lost:
            table.turn = following
            break
    start_turn(table)


def check_losses(table: Table) -> None:
    """Spec: a player loses at 0 life or less, or off the board; 2.4: their techniques are
    deactivated; 2.5: the last one left wins."""
    for seat in table.seats:
        if not seat.lost and (seat.life <= 0 or seat.cell is None):
            seat.lost = True
            table.out.append(seat.id)
            table.say(N_("{name} loses."), name=seat.name)
            for active in [a for a in table.active if a.owner == seat.id]:
                deactivate(table, active)
    left = table.playing()
    if len(left) <= 1 and not table.finished:
        table.finished = True
        table.winner = left[0].id if left else None
        table.pending = None


# ---------------------------------------------------------------------------- one step (4)

StepEnd = Literal["done", "wait", "fail", "stable"]


def execute(table: Table, frame: Frame, active: Active, step: Step, dice: Dice) -> StepEnd:
    """One step, for the player it acts as (4.2, the modifiers of 4.4)."""
    if frame.actor is None:
        if step.modifier == "everyone":
            if frame.everyone is None:  # 4.4.2: in play order, from the technique's owner
                order = [s.id for s in table.playing()]
                start = order.index(active.owner) if active.owner in order else 0
                frame.everyone = order[start:] + order[:start]
            while frame.everyone and table.seat(frame.everyone[0]).lost:
                frame.everyone.pop(0)  # 2.4: lost since the step began (a Blesser of this step)
            if not frame.everyone:
                frame.everyone = None
                return "done"
            frame.actor = frame.everyone.pop(0)
            rivals = opponents(table, frame.actor)
            if len(rivals) > 1:
                table.pending = Choice(
                    player=frame.actor, kind="target", options=[str(s.id) for s in rivals]
                )
                return "wait"
            frame.aim = rivals[0].id if rivals else None
        elif step.modifier == "opponent":  # 4.4.1: as if the technique were the target's
            frame.actor, frame.aim = active.target, active.owner
        else:
            frame.actor, frame.aim = active.owner, active.target
    actor, aim = frame.actor, frame.aim
    if actor is None or table.seat(actor).lost:
        return "done"  # 2.4: a step naming an eliminated player is ignored
    if aim is not None and table.seat(aim).lost and step.keyword in NAMES_THE_OPPONENT:
        return "done"
    return KEYWORDS[step.keyword](table, frame, active, step, dice)


NAMES_THE_OPPONENT = {"wound", "melee", "ranged", "push"}


def names_the_opponent(technique: Technique) -> bool:
    """Whether a step of the technique acts on, or as, the opponent it targets (4.2)."""
    return any(
        step.modifier == "opponent" or step.keyword in NAMES_THE_OPPONENT
        for step in technique.parsed
    )


def distance_between(table: Table, a: int, b: int) -> int:
    ca, cb = table.seat(a).cell, table.seat(b).cell
    assert ca is not None and cb is not None
    return board.distance(ca, cb)


def hurt(table: Table, player: int, amount: int) -> None:
    """2.5: damage above zero comes off life and onto the damage points."""
    seat = table.seat(player)
    if amount > 0:
        seat.life -= amount
        seat.damage += amount
        table.say(
            N_("{name} takes {damage} damage: {life} life."),
            name=seat.name,
            damage=amount,
            life=seat.life,
        )
    else:
        table.say(N_("{name} takes no damage."), name=seat.name)


def k_wound(table: Table, frame: Frame, active: Active, step: Step, dice: Dice) -> StepEnd:
    assert frame.actor is not None and frame.aim is not None and step.n is not None
    force = table.points(frame.actor, "force")
    protection = table.points(frame.aim, "protection")
    hurt(table, frame.aim, step.n + force - protection)  # 4.4.1
    return "done"


def k_wound_self(table: Table, frame: Frame, active: Active, step: Step, dice: Dice) -> StepEnd:
    assert frame.actor is not None and step.n is not None
    force, protection = (table.points(frame.actor, k) for k in ("force", "protection"))
    hurt(table, frame.actor, step.n + force - protection)  # 4.4.14
    return "done"


def k_block(table: Table, frame: Frame, active: Active, step: Step, dice: Dice) -> StepEnd:
    assert frame.actor is not None and step.n is not None
    seat = table.seat(frame.actor)
    healed = step.n if step.n < seat.damage else seat.damage  # 4.4.2
    seat.life += healed
    seat.damage -= healed
    table.say(
        N_("{name} blocks and gets {healed} life back: {life} in all."),
        name=seat.name,
        healed=healed,
        life=seat.life,
    )
    return "done"


def k_lasting(table: Table, frame: Frame, active: Active, step: Step, dice: Dice) -> StepEnd:
    """4.4.3, 4.4.7, 4.4.12, 4.4.16, 4.4.17, 4.4.19: while the technique is active."""
    assert frame.actor is not None
    keyword: Lasting = LASTING_KEYWORDS[step.keyword]
    active.effects.append(
        Effect(player=frame.actor, keyword=keyword, n=step.n or 0, type=step.type)
    )
    return "done"


LASTING_KEYWORDS: dict[str, Lasting] = {
    "force": "force",
    "protection": "protection",
    "speed": "speed",
    "charm": "charm",
    "forbid_type": "forbid_type",
    "forbid_card": "forbid_card",
}


def k_melee(table: Table, frame: Frame, active: Active, step: Step, dice: Dice) -> StepEnd:
    assert frame.actor is not None and frame.aim is not None
    if distance_between(table, frame.actor, frame.aim) > 1:  # 4.4.4
        table.say(N_("Too far for a melee blow: the technique fails."))
        return "fail"
    return "done"


def k_ranged(table: Table, frame: Frame, active: Active, step: Step, dice: Dice) -> StepEnd:
    assert frame.actor is not None and frame.aim is not None and step.n is not None
    if distance_between(table, frame.actor, frame.aim) < step.n:  # 4.4.6
        table.say(N_("Too close for a ranged blow: the technique fails."))
        return "fail"
    return "done"


def k_stable(table: Table, frame: Frame, active: Active, step: Step, dice: Dice) -> StepEnd:
    active.cost = step.n or 0  # 4.4.9
    table.say(N_("{technique} is Stable."), technique=table.technique(active.technique).title)
    return "stable"


def k_draw(table: Table, frame: Frame, active: Active, step: Step, dice: Dice) -> StepEnd:
    """4.4.10, N times: an empty draw pile halves life (rounded up) and takes the discard,
    shuffled; then the first card of the pile goes to the hand. At a table of physical cards, the
    card drawn is entered (one option per different card the pile holds)."""
    assert frame.actor is not None and step.n is not None
    seat = table.seat(frame.actor)
    while frame.repeat < step.n:
        if not seat.draw:  # (after a pause for the card drawn, the pile is not empty)
            seat.life = math.ceil(seat.life / 2)
            table.say(
                N_("{name}'s draw pile is empty: life halved to {life}, the discard shuffled in."),
                name=seat.name,
                life=seat.life,
            )
            if seat.discard:
                if table.physical:
                    seat.draw, seat.discard = list(seat.discard), []
                else:
                    seat.draw = shuffle(seat.discard, dice, f"discard of {seat.name}")
                    seat.discard = []
        if seat.draw and table.physical:
            options: dict[str, str] = {}  # one copy of each different card
            for copy in seat.draw:
                options.setdefault(table.technique(copy).key, copy)
            if len(options) > 1:
                table.pending = Choice(player=seat.id, kind="drawn", options=[*options.values()])
                return "wait"
            seat.draw.remove(next(iter(options.values())))
            seat.hand.append(next(iter(options.values())))
        elif seat.draw:
            seat.hand.append(seat.draw.pop(0))
        frame.repeat += 1
    table.say(
        N_("{name} draws: {cards} in hand, {life} life."),
        name=seat.name,
        cards=len(seat.hand),
        life=seat.life,
    )
    return "done"


def k_discard(table: Table, frame: Frame, active: Active, step: Step, dice: Dice) -> StepEnd:
    """4.4.5 and 4.4.18: too few cards, the whole hand goes (and "Défausser" fails); else the
    player chooses which."""
    assert frame.actor is not None and step.n is not None
    seat = table.seat(frame.actor)
    if frame.repeat:  # chosen already
        return "done"
    if len(seat.hand) < step.n:
        discarded(table, seat, list(seat.hand))
        return "fail" if step.keyword == "discard" else "done"
    if step.n == 0:
        return "done"
    if len(seat.hand) == step.n:  # no real choice
        discarded(table, seat, list(seat.hand))
        return "done"
    table.pending = Choice(player=seat.id, kind="discard", options=list(seat.hand), count=step.n)
    return "wait"


def discarded(table: Table, seat: Seat, cards: list[str]) -> None:
    for card in cards:
        seat.hand.remove(card)
        seat.discard.append(card)
    if cards:
        titles = ", ".join(table.technique(c).title for c in cards)
        table.say(N_("{name} discards {cards}."), name=seat.name, cards=titles)


def k_move(table: Table, frame: Frame, active: Active, step: Step, dice: Dice) -> StepEnd:
    """4.4.15: V + N times, one's own cell or a free adjacent one."""
    assert frame.actor is not None and step.n is not None
    times = table.points(frame.actor, "speed") + step.n
    seat = table.seat(frame.actor)
    if times <= 0 or frame.repeat >= times or seat.cell is None:
        return "done"
    options = [board.label(c) for c in board.free_steps(seat.cell, table.occupied())]
    table.pending = Choice(player=seat.id, kind="cell", options=options)
    return "wait"


def k_push(table: Table, frame: Frame, active: Active, step: Step, dice: Dice) -> StepEnd:
    """4.4.11: at the edge, the player may put the opponent off the board; elsewhere, onto a free
    adjacent cell farther from the player."""
    assert frame.actor is not None and frame.aim is not None and step.n is not None
    pusher, pushed = table.seat(frame.actor), table.seat(frame.aim)
    if frame.repeat >= step.n or pushed.cell is None or pusher.cell is None:
        return "done"
    if board.on_edge(pushed.cell):
        options = ["off", "stay"]
    else:
        cells = board.push_cells(pusher.cell, pushed.cell, table.occupied())
        if not cells:
            table.unsettled = f"Pousser: no free cell for {pushed.name} (4.4.11)"
            table.say(
                N_("{name} cannot be pushed anywhere: the book does not say what follows."),
                name=pushed.name,
            )
            return "wait"
        options = [board.label(c) for c in cells]
    table.pending = Choice(player=pusher.id, kind="push", options=options)
    return "wait"


def k_play_again(table: Table, frame: Frame, active: Active, step: Step, dice: Dice) -> StepEnd:
    """4.4.13: the player plays a technique; its execution runs, then this one goes on."""
    assert frame.actor is not None
    if frame.repeat:
        return "done"
    frame.repeat = 1
    ask_technique(table, frame.actor)
    return "wait"


def k_destabilise(table: Table, frame: Frame, active: Active, step: Step, dice: Dice) -> StepEnd:
    """4.4.8: the player may choose a Stable technique, theirs or an opponent's, if their hand
    pays I - C cards; the cards go to the discard and the chosen execution resumes."""
    assert frame.actor is not None
    if frame.repeat:
        return "done"
    seat = table.seat(frame.actor)
    charm = table.points(seat.id, "charm")
    stable = [a for a in table.active if a.stable and len(seat.hand) >= a.cost - charm]
    if not stable:
        return "done"
    options = ["none", *(str(a.uid) for a in stable)]
    table.pending = Choice(player=seat.id, kind="destabilise", options=options)
    return "wait"


KEYWORDS: dict[str, Callable[[Table, Frame, Active, Step, Dice], StepEnd]] = {
    "wound": k_wound,
    "wound_self": k_wound_self,
    "block": k_block,
    "charm": k_lasting,
    "force": k_lasting,
    "protection": k_lasting,
    "speed": k_lasting,
    "forbid_type": k_lasting,
    "forbid_card": k_lasting,
    "melee": k_melee,
    "ranged": k_ranged,
    "stable": k_stable,
    "draw": k_draw,
    "discard": k_discard,
    "discard_if_possible": k_discard,
    "move": k_move,
    "push": k_push,
    "play_again": k_play_again,
    "destabilise": k_destabilise,
}
