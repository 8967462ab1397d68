"""Before the first round (12, Mise en place): the box, passports, the décor each player placed,
then the deal: the spare sheets' décors (8), the search tokens (12.4), three objectives each with
one redraw (12.5), four starting tokens of which each keeps two (12.6), the Community and zombie
rolls (12.7, 12.8) and the first player (12.9)."""

from __future__ import annotations

from server.errors import InvalidInput, NotAllowed, RuleError
from server.games.trust_me.catalog import read_box_text, sample_box
from server.games.trust_me.commands import (
    Community,
    Keep,
    Redraw,
    SetBox,
    SetDecor,
    SetPassport,
    TableDeal,
)
from server.games.trust_me.sheet import put
from server.games.trust_me.state import Item, Survivor, TMState
from server.i18n import N_, P_, Msg, joined
from server.platform.dice import SERVER, Dice
from server.platform.kinds import Applied, Context

MIN_PLAYERS, MAX_PLAYERS = 2, 4  # "De 2 à 4 joueurs"
DECOR_POINTS = {  # 12.3
    "bus": 3,
    "defensive": 3,
    "car": 2,
    "dumpster": 2,
    "sandbags": 1,
    "sandbags_corner": 1,
    "crevasse": 1,
}
DECOR_TITLES = {
    "bus": N_("bus"),
    "defensive": N_("military defensive position"),
    "car": N_("car"),
    "dumpster": N_("dumpster"),
    "sandbags": N_("sandbag wall"),
    "sandbags_corner": N_("sandbag corner wall"),
    "crevasse": N_("crevasse"),
}
# 8: the décor on the back of each player's sheet: (search tokens, zombies at the start).
SPECIALS = {"corpse": (4, 5), "crevasse": (0, 0), "vehicle": (3, 3), "metro": (0, 0)}
SPECIAL_TITLES = {
    "corpse": N_("the survivor's corpse and his dog: 4 tokens to search, 5 zombies start there"),
    "crevasse": N_("the crevasse: no survivor's move may touch it; a zombie's removes it"),
    "vehicle": N_("the noisy military vehicle: a permanent racket, 3 zombies and 3 tokens"),
    "metro": N_("the metro: one more zombie on it after every zombie activation"),
}


def survivor_of(state: TMState, person: int) -> Survivor:
    if str(person) not in state.survivors:
        raise RuleError(N_("Choose a player of this game."), field="player")
    return state.survivor(person)


def on_box(state: TMState, c: SetBox, ctx: Context) -> Applied:
    try:
        box = read_box_text(c.text) if c.text.strip() else sample_box()
    except InvalidInput as error:
        raise RuleError(error.msg.text, field="text", **error.msg.params) from None
    state.box = box
    for s in state.survivors.values():
        if s.passport and box.passport(s.passport) is None:
            s.passport = None
    counts = {"passports": len(box.passports), "weapons": len(box.weapons)}
    counts |= {"things": len(box.things), "objectives": len(box.objectives)}
    return Applied(
        Msg(
            N_(
                "New box: {passports} passports, {weapons} weapons, {things} objects, {objectives} objectives."
            ),
            counts,
        )
    )


def on_passport(state: TMState, c: SetPassport, ctx: Context) -> Applied:
    s = survivor_of(state, c.player)
    taken = {o.passport for o in state.survivors.values() if o.id != s.id}
    if c.passport is None:
        draw_passport(state, s, ctx.dice)
    else:
        if state.box.passport(c.passport) is None:
            raise RuleError(N_("No passport “{key}” in the box."), field="passport", key=c.passport)
        if c.passport in taken:
            raise RuleError(N_("Another survivor has this passport."), field="passport")
        s.passport = c.passport
    name = state.box.passport(s.passport) if s.passport else None
    assert name is not None
    return Applied(Msg(N_("{player} plays {survivor}."), {"player": s.name, "survivor": name.name}))


def on_decor(state: TMState, c: SetDecor, ctx: Context) -> Applied:
    s = survivor_of(state, c.player)
    points = sum(DECOR_POINTS[p] for p in c.pieces)
    if points == 0:  # left to chance: drawn at the deal
        s.decor = []
        return Applied(Msg(N_("{player}’s décor will be drawn at the deal."), {"player": s.name}))
    if not 2 <= points <= 4:  # 12.3: "Chaque joueur place entre 2 et 4 points de décors"
        raise RuleError(
            N_("Each player places 2 to 4 points of décor, not {points}."),
            field="pieces",
            points=points,
        )
    s.decor = list(c.pieces)
    return Applied(
        Msg.counted(
            P_(
                "{player} placed {points} point of décor.",
                "{player} placed {points} points of décor.",
            ),
            "points",
            {"player": s.name, "points": points},
        )
    )


def on_deal(state: TMState, c: TableDeal, ctx: Context) -> Applied:
    survivors = list(state.survivors.values())
    if not MIN_PLAYERS <= len(survivors) <= MAX_PLAYERS:
        raise RuleError(
            N_("Trust Me is played by 2 to 4 players, not {count}."), count=len(survivors)
        )
    for s in survivors:  # what the organizer left to chance is drawn now
        if s.passport is None:
            draw_passport(state, s, ctx.dice)
        if not s.decor:
            s.decor = draw_decor(s, ctx.dice)
    specials(state, ctx.dice)
    deal_objectives(state, ctx.dice)
    for s in survivors:
        offer_starting(state, s, ctx.dice)
        s.community = ctx.dice.roll(20, f"Community of {s.name}", owner=f"player:{s.id}")
    state.zombie_starts = [ctx.dice.roll(20, f"zombie {n}") for n in (1, 2)]  # 12.8
    first = ctx.dice.roll(len(survivors), "first player") - 1  # 12.9
    ids = [s.id for s in survivors]
    state.order = ids[first:] + ids[:first]
    state.search_tokens = len(state.box.resources()) + 8 + len(survivors)  # 12.4
    state.search_tokens += sum(SPECIALS[k][0] for k in state.specials)
    state.phase = "preparing"
    return Applied(
        Msg(
            N_("The deal is done: {name} will play first. Each player keeps two starting tokens."),
            {"name": state.survivor(state.order[0]).name},
        )
    )


def draw_passport(state: TMState, s: Survivor, dice: Dice) -> None:
    """A passport drawn among those no other survivor has."""
    taken = {o.passport for o in state.survivors.values() if o.id != s.id}
    left = [p.key for p in state.box.passports if p.key not in taken]
    if not left:
        raise RuleError(N_("No passport is left to draw."), field="passport")
    s.passport = left[dice.roll(len(left), f"passport of {s.name}", owner=SERVER) - 1]


def draw_decor(s: Survivor, dice: Dice) -> list[str]:
    """12.3: 2 to 4 points of décor, the pieces drawn: one, then another while under 2."""
    pieces: list[str] = []
    while sum(DECOR_POINTS[p] for p in pieces) < 2:
        room = 4 - sum(DECOR_POINTS[p] for p in pieces)
        fitting = [k for k, points in DECOR_POINTS.items() if points <= room]
        pieces.append(fitting[dice.roll(len(fitting), f"décor of {s.name}", owner=SERVER) - 1])
    return pieces


def specials(state: TMState, dice: Dice) -> None:
    """8: the sheets no player uses, turned to their décor side, drawn at random."""
    left = list(SPECIALS)
    state.specials = []
    for _ in range(MAX_PLAYERS - len(state.survivors)):
        state.specials.append(left.pop(dice.roll(len(left), "spare sheet", owner=SERVER) - 1))
    if "vehicle" in state.specials:
        # p. 8: « Ce véhicule produit en permanence le marqueur "Vacarme" »: in play all game
        # (the zombies' second movement priority), from the start.
        state.racket = "racket"


def shuffle(cards: list[str], dice: Dice, purpose: str) -> list[str]:
    """A face-down deck shuffled by the server (nobody enters it), each die logged for replay."""
    cards = list(cards)
    for i in range(len(cards) - 1, 0, -1):
        j = dice.roll(i + 1, purpose, owner=SERVER, secret=True) - 1
        cards[i], cards[j] = cards[j], cards[i]
    return cards


def deal_objectives(state: TMState, dice: Dice) -> None:
    """12.5: "Distribuez 3 cartes Objectif aux joueurs"."""
    deck = [o.key for o in state.box.objectives for _ in range(o.copies)]
    need = 3 * len(state.survivors)
    if len(deck) < need:
        raise RuleError.counted(
            P_(
                "The box holds {count} objective card; {need} are dealt.",
                "The box holds {count} objective cards; {need} are dealt.",
            ),
            "count",
            count=len(deck),
            need=need,
        )
    state.objective_deck = shuffle(deck, dice, "objectives")
    for s in state.survivors.values():
        s.objectives = [state.objective_deck.pop(0) for _ in range(3)]
        s.redrawn = False


def new_item(state: TMState, key: str) -> int:
    item = Item(id=state.next_item, key=key)
    state.items[str(item.id)] = item
    state.next_item += 1
    return item.id


def offer_starting(state: TMState, s: Survivor, dice: Dice) -> None:
    """12.6: "2 pions Arme de départ et 2 pions Objet de départ qu'il consulte secrètement"."""
    weapons = [w.key for w in state.box.weapons for _ in range(w.starting)]
    things = [t.key for t in state.box.things for _ in range(t.starting)]
    used = [state.item(i).key for o in state.survivors.values() for i in o.offered]
    for key in used:
        for pool in (weapons, things):
            if key in pool:
                pool.remove(key)
                break
    if len(weapons) < 2 or len(things) < 2:
        raise RuleError(N_("The box has too few starting weapons or objects for every player."))
    drawn = []
    for pool in (weapons, things):
        for _ in range(2):
            drawn.append(
                pool.pop(
                    dice.roll(len(pool), f"starting tokens of {s.name}", owner=SERVER, secret=True)
                    - 1
                )
            )
    s.offered = [new_item(state, key) for key in drawn]


def on_redraw(state: TMState, c: Redraw, ctx: Context) -> Applied:
    s = own(state, ctx)
    if s.redrawn or s.kept:
        raise RuleError(N_("An objective is redrawn once, before the starting tokens are kept."))
    if c.objective >= len(s.objectives) or not state.objective_deck:
        raise RuleError(N_("Choose one of your objectives."), field="objective")
    s.objectives.pop(c.objective)  # discarded face down: nobody reads it
    s.objectives.append(state.objective_deck.pop(0))
    s.redrawn = True
    return Applied(Msg(N_("{name} redraws an objective."), {"name": s.name}))


def own(state: TMState, ctx: Context) -> Survivor:
    person = ctx.actor.person_id
    if ctx.actor.role != "player" or person is None or str(person) not in state.survivors:
        raise NotAllowed(N_("Only a survivor's player does this, on their own phone."))
    return state.survivor(person)


def on_keep(state: TMState, c: Keep, ctx: Context) -> Applied:
    s = own(state, ctx)
    if state.phase != "preparing" or s.kept:
        raise RuleError(N_("The starting tokens are kept once, after the deal."))
    chosen = [p.item for p in c.items]
    if len(chosen) != 2 or len(set(chosen)) != 2 or any(i not in s.offered for i in chosen):
        raise RuleError(N_("Keep two of the four tokens you drew."), field="items")
    for place in c.items:
        put(state, s, place.item, place.slot)
    for item in s.offered:  # "défausse le reste dans la boîte"
        if item not in chosen:
            del state.items[str(item)]
    s.offered, s.kept = [], True
    if all(o.kept for o in state.survivors.values()):
        begin(state)
    return Applied(Msg(N_("{name} keeps two starting tokens."), {"name": s.name}))


def begin(state: TMState) -> None:
    state.phase, state.round, state.turn = "players", 1, state.order[0]


def on_community(state: TMState, c: Community, ctx: Context) -> Applied:
    """12.7: "Deux pions Communauté doivent être séparés d'au moins 20cm": the table measures."""
    s = survivor_of(state, c.player)
    if state.phase != "preparing":
        raise RuleError(N_("The Community tokens are placed before the first round."))
    s.community = ctx.dice.roll(20, f"Community of {s.name}", owner=f"player:{s.id}")
    return Applied(
        Msg(
            N_("{name}'s Community: direction {direction}."),
            {"name": s.name, "direction": s.community},
        )
    )


def said(*pieces: Msg) -> Msg:
    return joined(list(pieces))
