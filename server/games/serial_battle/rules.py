"""Serial Battle, outdoor rules: pure functions of the state, the command, the dice and the time.

Section names in comments are the rule book's (`../shared/seeds/000_8fdb4a6c1f31fa4b.txt`).
Where the rule book is silent, `../shared/spec/serial-battle.md` decides, and so do the notes here.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime, timedelta
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field, model_validator

from server.errors import RuleError
from server.games.serial_battle.catalog import (
    BARE_HANDS,
    EFFECT_TITLES,
    LOCATION_HIT,
    Ability,
    Card,
    Effect,
    Location,
    expand,
    key_of,
)
from server.platform.dice import Dice
from server.platform.i18n import N_, P_, Msg, joined
from server.platform.refs import PersonRef, Ref
from server.platform.timers import Timer

START_PV = 36  # Points de vie: "Au départ, vous possédez 36 PV."
MAX_CARDS = 5  # "Un joueur ne peut posséder plus de 5 cartes"
ADVISED_PLAYERS = (12, 32)  # "il faudra prévoir de 12 à 32 joueurs"
PLAYERS_PER_REFEREE = 6  # "jusqu'à un arbitre par tranche de six joueurs"

Touch = Literal["attacker", "defender", "simultaneous"]
Order = Literal["attacker", "defender", "simultaneous"]


# ---------------------------------------------------------------------------- state


class Held(BaseModel):
    copy_id: str
    ammo: int | None = None  # left; none when not counted


class Player(BaseModel):
    id: int
    name: str
    tag: str = ""  # a number or a team colour
    pv: int = START_PV
    cards: list[Held] = Field(default_factory=list)
    wounds: dict[Location, Effect] = Field(default_factory=dict)  # severed or fractured
    knocked_out: bool = False
    eliminated: bool = False
    sector: str | None = None
    assaults: int = 0  # the assaults this player took part in (launched or answered)
    damage_dealt: int = 0
    kills: int = 0
    last_fight: int = 0  # the number of the last assault this player was in (recent first)

    @property
    def alive(self) -> bool:
        return not self.eliminated

    @property
    def arm_disabled(self) -> bool:
        """A severed or fractured arm forbids two-handed cards (Membre tranché/fracture)."""
        return any(location.is_arm for location in self.wounds)

    def holds(self, copy_id: str) -> Held | None:
        return next((h for h in self.cards if h.copy_id == copy_id), None)


class Sector(BaseModel):
    name: str
    open: bool = True
    closed_at: int | None = None  # the shrink that closed it


class Pending(BaseModel):
    """A choice the rules leave to a player, which the referee records."""

    id: int
    kind: Literal["knockout", "loot"]
    winner: int  # who chooses
    loser: int
    copy_id: str | None = None  # the card the winner struck with


class Elimination(BaseModel):
    player: int
    by: int | None = None
    cause: Literal["assault", "zone", "out_of_bounds", "referee"]
    at: datetime
    note: str = ""


class Result(BaseModel):
    winner: int | None
    reason: Literal["last_survivor", "no_survivor", "ended_by_referee"]


class SBSettings(BaseModel):
    shrink_minutes: int = Field(default=10, ge=1, le=120)
    deal_mode: Literal["random", "scattered"] = "random"


class SBState(BaseModel):
    phase: Literal["setup", "running", "paused", "finished"] = "setup"
    deck: list[Card] = Field(default_factory=list)
    sample_deck: bool = True
    pool: list[str] = Field(default_factory=list)  # copies in the referee's hands
    out: list[str] = Field(default_factory=list)  # copies out of the game (no ammunition)
    players: dict[str, Player] = Field(default_factory=dict)
    referees: dict[str, str] = Field(default_factory=dict)
    sectors: list[Sector] = Field(default_factory=list)
    shrink_minutes: int = 10
    deal_mode: Literal["random", "scattered"] = "random"
    closing: Literal["choose", "plan"] = "choose"
    plan: list[list[str]] = Field(default_factory=list)
    zone: Timer | None = None
    shrinks: int = 0
    shrink_due: bool = False  # the referee must say which sectors close
    started_at: datetime | None = None
    ended_at: datetime | None = None
    pending: list[Pending] = Field(default_factory=list)
    next_pending: int = 1
    eliminations: list[Elimination] = Field(default_factory=list)
    result: Result | None = None
    assault_count: int = 0

    def card(self, copy_id: str) -> Card:
        key = key_of(copy_id)
        for card in self.deck:
            if card.key == key:
                return card
        raise RuleError(N_("Unknown card “{card}”."), field="card", card=copy_id)

    def player(self, player_id: int | str) -> Player:
        player = self.players.get(str(player_id))
        if player is None:
            raise RuleError(N_("No player number {player}."), field="player", player=player_id)
        return player

    def alive(self) -> list[Player]:
        return [p for p in self.players.values() if p.alive]

    def open_sectors(self) -> list[Sector]:
        return [s for s in self.sectors if s.open]


# ---------------------------------------------------------------------------- commands

# What commands name (checked by the platform against `SerialBattle.references`): a card copy
# of the deck ("bare": bare hands), a choice the referee owes, a sector.
CardRef = Annotated[str, Ref("card")]
PendingRef = Annotated[int, Ref("pending")]
SectorRef = Annotated[str, Ref("sector")]


class SetSettings(BaseModel):
    type: Literal["settings"]
    shrink_minutes: int = Field(ge=1, le=120)
    deal_mode: Literal["random", "scattered"]
    closing: Literal["choose", "plan"]


class SetSectors(BaseModel):
    type: Literal["sectors"]
    names: str = Field(max_length=2000, description="One sector a line, or separated by commas.")
    plan: str = Field(
        default="", max_length=4000, description="One shrink a line: the sectors it closes."
    )


class ReplaceDeck(BaseModel):
    type: Literal["deck"]
    cards: list[Card] = Field(max_length=200)
    sample: bool = False


class TagPlayer(BaseModel):
    type: Literal["tag"]
    player: PersonRef
    tag: str = Field(default="", max_length=20)


class Start(BaseModel):
    type: Literal["start"]


class Pause(BaseModel):
    type: Literal["pause"]


class Resume(BaseModel):
    type: Literal["resume"]


class End(BaseModel):
    type: Literal["end"]


class Assault(BaseModel):
    """One assault (Assaut), the heart of the console: steps 1-8 of the spec."""

    type: Literal["assault"]
    attacker: PersonRef
    defenders: list[PersonRef] = Field(min_length=1, max_length=32)
    touch: Touch = "attacker"  # who touched or called first
    card: CardRef = "bare"  # the attacker's card copy, or "bare" for bare hands
    defender_card: CardRef | None = None  # the (single) defender's answer card; default: best
    # Each defender's answer card in a group assault (form fields defender_card_<id>); a
    # defender not named answers with their best usable card.
    defender_cards: dict[PersonRef, CardRef] = Field(default_factory=dict, max_length=32)
    answer: bool = True  # does the defender strike back (if still standing)

    @model_validator(mode="before")
    @classmethod
    def _from_form(cls, data: Any) -> Any:
        if not isinstance(data, dict):
            return data
        fields = [k for k in data if isinstance(k, str) and k.startswith("defender_card_")]
        if not fields:
            return data
        data = dict(data)
        cards = dict(data.get("defender_cards") or {})
        for key in fields:
            value = data.pop(key)
            if value not in (None, ""):
                cards[key.removeprefix("defender_card_")] = value
        data["defender_cards"] = cards
        return data


class KnockoutTake(BaseModel):
    type: Literal["knockout_take"]
    pending: PendingRef
    card: CardRef
    # With 5 cards already, one of the winner's own goes back to the referee to make room.
    give_back: CardRef | None = None


class KnockoutAgain(BaseModel):
    type: Literal["knockout_again"]
    pending: PendingRef
    card: CardRef | None = None  # default: the card of the first assault
    # Assommé: woken up, the defender "pourra alors répliquer": with this card, default the best.
    defender_card: CardRef | None = None


class Loot(BaseModel):
    """Points de vie: "le vainqueur peut prendre sa ou ses cartes [...] Un joueur ne peut posséder
    plus de 5 cartes, les autres sont remises à l'arbitre". `take`: the loser's cards the winner
    takes; `give_back`: the winner's own cards handed to the referee to make room. The loser's
    other cards go back to the referee."""

    type: Literal["loot"]
    pending: PendingRef
    take: list[CardRef] = Field(default_factory=list, max_length=32)
    give_back: list[CardRef] = Field(default_factory=list, max_length=5)


class GiveCard(BaseModel):
    type: Literal["give"]
    player: PersonRef
    card: CardRef  # a copy id in the referee's hands


class TakeCard(BaseModel):
    type: Literal["take"]
    player: PersonRef
    card: CardRef


class Correct(BaseModel):
    type: Literal["correct"]
    player: PersonRef
    pv: int | None = Field(default=None, ge=0, le=START_PV)  # no card heals
    card: CardRef | None = None
    ammo: int | None = Field(default=None, ge=0, le=99)
    reason: str = Field(min_length=1, max_length=200)


class Place(BaseModel):
    type: Literal["place"]
    players: list[PersonRef] = Field(min_length=1, max_length=64)
    sector: SectorRef = Field(max_length=60)


class Eliminate(BaseModel):
    type: Literal["eliminate"]
    player: PersonRef
    cause: Literal["zone", "out_of_bounds", "referee"]
    note: str = Field(default="", max_length=200)


class CloseSectors(BaseModel):
    type: Literal["close"]
    sectors: list[SectorRef] = Field(min_length=1, max_length=64)


class ZoneDue(BaseModel):
    """The clock reached a shrink (sent by the server, never by a person)."""

    type: Literal["zone_due"]
    deadline: datetime


Command = (
    SetSettings
    | SetSectors
    | ReplaceDeck
    | TagPlayer
    | Start
    | Pause
    | Resume
    | End
    | Assault
    | KnockoutTake
    | KnockoutAgain
    | Loot
    | GiveCard
    | TakeCard
    | Correct
    | Place
    | Eliminate
    | CloseSectors
    | ZoneDue
)


# ---------------------------------------------------------------------------- small rules


def strike_order(touch: Touch, attacker_level: int, defender_level: int) -> Order:
    """Who strikes first (Initiative, Initiative absolue).

    Touching or calling first gives the initiative; a card with initiative strikes first whatever
    the touch; absolute initiative beats initiative; two equal initiatives cancel, and the fight
    goes as the touch says.
    """
    if attacker_level > defender_level:
        return "attacker"
    if defender_level > attacker_level:
        return "defender"
    return touch


def bare_hands_face(die: int) -> tuple[int, Effect | None]:
    """Puis-je combattre sans carte de jeu ?: 1-2: 0, 3-4: 1 (contusions), 5: 2 assommé,
    6: 3 fracture."""
    face = BARE_HANDS.faces[die - 1]  # type: ignore[index]
    return face.pv, face.effect


def recovered(die: int) -> bool:
    """Récupération des munitions: 1 to 5 the projectile is recovered, 6 it is lost."""
    return die <= 5


def multiple_target_hit(die: int) -> bool:
    """Cible multiple: each opponent rolls, 1 to 5 hit, 6 spared."""
    return die <= 5


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
                N_("The rule book advises {low} to {high} players; this game has {count}."),
                {"low": low, "high": high, "count": count},
            )
        )
    referees = len(state.referees)
    needed = -(-count // PLAYERS_PER_REFEREE)
    if count and referees > needed:
        notes.append(
            Msg(
                N_("Up to one referee per six players: {count} players need {needed} at most."),
                {"count": count, "needed": needed},
            )
        )
    copies = len(expand(state.deck))
    if state.deal_mode == "random" and count > copies:
        notes.append(
            Msg(
                N_("{count} players for {copies} cards: some start with bare hands."),
                {"count": count, "copies": copies},
            )
        )
    return notes


def outcome(state: SBState) -> Result | None:
    """The end of the game (Quand se termine la partie ?): one survivor wins; none, nobody wins."""
    if state.phase in ("setup",):
        return None
    alive = state.alive()
    if len(alive) == 1:
        return Result(winner=alive[0].id, reason="last_survivor")
    if not alive:
        return Result(winner=None, reason="no_survivor")
    return None


# ---------------------------------------------------------------------------- assault


class Strike(BaseModel):
    """One blow: who, with what, the dice, and what it did."""

    striker: int
    target: int
    card: str  # card key, "bare-hands" for bare hands
    damage_die: int | None = None
    location: Location | None = None
    hit: bool = True  # false when a multiple-target roll spared the target
    pv: int = 0
    effect: Effect | None = None
    protected: int = 0  # PV the target's permanent objects stopped
    immune: bool = False
    fatal: bool = False
    remaining: int = 0
    unusable: str | None = None  # the two-handed card the striker could no longer hold


class Weapon(BaseModel):
    copy_id: str | None  # none: bare hands
    card: Card


def weapon_for(state: SBState, player: Player, copy_id: str | None, field: str = "card") -> Weapon:
    """The card a player strikes with, refused when it cannot be used (spec, step 2); `field`
    names the form's field the refusal is about (the attacker's card, a defender's)."""
    if copy_id in (None, "", "bare"):
        return Weapon(copy_id=None, card=BARE_HANDS)
    assert copy_id is not None
    held = player.holds(copy_id)
    card = state.card(copy_id)
    if held is None:
        raise RuleError(
            N_("{player} does not hold “{card}”."), field=field, player=player.name, card=card.name
        )
    if not card.is_weapon:
        # An object with no damage table is fought with bare hands (Puis-je combattre sans carte).
        return Weapon(copy_id=None, card=BARE_HANDS)
    if held.ammo is not None and held.ammo <= 0:
        raise RuleError(N_("“{card}” has no ammunition left."), field=field, card=card.name)
    if card.has(Ability.TWO_HANDS) and player.arm_disabled:
        raise RuleError(
            N_("{player} cannot use “{card}”: it needs two hands and an arm is out of use."),
            field=field,
            player=player.name,
            card=card.name,
        )
    return Weapon(copy_id=copy_id, card=card)


def default_weapon(state: SBState, player: Player) -> str | None:
    """The card a player strikes with when the referee does not say: the best usable one (the
    most PV on average over its six faces, then the most faces with an effect), the first of
    equals."""
    best: tuple[float, int] | None = None
    chosen = None
    for held in player.cards:
        try:
            weapon = weapon_for(state, player, held.copy_id)
        except RuleError:
            continue
        if weapon.copy_id is None:
            continue
        faces = weapon.card.faces or []
        worth = (
            sum(f.pv for f in faces) / max(1, len(faces)),
            sum(1 for f in faces if f.effect),
        )
        if best is None or worth > best:
            best, chosen = worth, weapon.copy_id
    return chosen


def protection(state: SBState, target: Player, location: Location) -> tuple[int, bool]:
    """What the target's permanent objects do at this location: PV removed, or immunity."""
    reduce, immune = 0, False
    for held in target.cards:
        card = state.card(held.copy_id)
        if not card.is_permanent:
            continue
        guard = card.protections.get(location)
        if guard is not None:
            reduce += guard.reduce
            immune = immune or guard.immune
    return reduce, immune


def complementary_bonus(state: SBState, striker: Player) -> int:
    """Complementary cards apply by themselves, alongside the card used (one card per assault,
    sauf cartes complémentaires ou permanentes): their bonus adds to a blow that hurts."""
    return sum(
        state.card(h.copy_id).bonus
        for h in striker.cards
        if state.card(h.copy_id).has(Ability.COMPLEMENTARY)
    )


def roll_blow(
    state: SBState,
    striker: Player,
    target: Player,
    weapon: Weapon,
    dice: Dice,
    prefix: str,
) -> Strike:
    """The damage die read on the card, then the location die (Comment se passe un affrontement)."""
    die = dice.roll(6, f"{prefix}damage")
    location = Location(dice.roll(6, f"{prefix}location"))
    face = (weapon.card.faces or [])[die - 1]
    pv, effect = face.pv, face.effect
    if pv > 0:
        pv += complementary_bonus(state, striker)
    reduce, immune = protection(state, target, location)
    if immune:
        # An immune location takes neither PV nor effect.
        blow = Strike(
            striker=striker.id,
            target=target.id,
            card=weapon.card.key,
            damage_die=die,
            location=location,
            pv=0,
            effect=None,
            protected=pv,
            immune=True,
        )
        return blow
    stopped = min(pv, reduce)
    return Strike(
        striker=striker.id,
        target=target.id,
        card=weapon.card.key,
        damage_die=die,
        location=location,
        pv=pv - stopped,
        effect=effect,
        protected=stopped,
    )


def land(state: SBState, blow: Strike) -> None:
    """Applies a blow to its target (PV, wounds, knock-out) and credits the striker."""
    target = state.player(blow.target)
    striker = state.player(blow.striker)
    if not blow.hit:
        blow.remaining = target.pv
        return
    target.pv = max(0, target.pv - blow.pv)
    striker.damage_dealt += blow.pv
    location = blow.location
    if blow.effect == Effect.CRITICAL:
        blow.fatal = True
    elif blow.effect in (Effect.SEVERED, Effect.FRACTURED) and location is not None:
        # A severed trunk or head is fatal; a fractured skull or ribs is not (Membre tranché).
        if blow.effect == Effect.SEVERED and location.is_vital:
            blow.fatal = True
        if target.wounds.get(location) != Effect.SEVERED:
            target.wounds[location] = blow.effect
    if blow.fatal:
        target.pv = 0
    elif blow.effect is not None and blow.effect.knocks_out and target.pv > 0:
        target.knocked_out = True
    blow.remaining = target.pv


def spend_ammunition(
    state: SBState, striker: Player, weapon: Weapon, dice: Dice, prefix: str
) -> dict[str, int | bool | str | None]:
    """One unit per shot; a recoverable projectile comes back on 1-5; an empty weapon leaves the
    game and goes back to the referee (Munitions)."""
    if weapon.copy_id is None:
        return {}
    held = striker.holds(weapon.copy_id)
    if held is None or held.ammo is None:
        return {}
    held.ammo -= 1
    recovery: int | None = None
    if weapon.card.recoverable:
        recovery = dice.roll(6, f"{prefix}recovery")
        if recovered(recovery):
            held.ammo += 1
    gone = held.ammo <= 0
    if gone:
        striker.cards = [h for h in striker.cards if h.copy_id != weapon.copy_id]
        state.out.append(weapon.copy_id)
    return {"card": weapon.copy_id, "left": held.ammo, "recovery": recovery, "gone": gone}


def new_pending(
    state: SBState,
    kind: Literal["knockout", "loot"],
    winner: int,
    loser: int,
    copy_id: str | None = None,
) -> Pending:
    pending = Pending(id=state.next_pending, kind=kind, winner=winner, loser=loser, copy_id=copy_id)
    state.next_pending += 1
    state.pending.append(pending)
    return pending


def ready_for_assault(state: SBState, player: Player) -> None:
    if player.eliminated:
        raise RuleError(N_("{player} is eliminated."), field="player", player=player.name)
    waiting = [p for p in state.pending if player.id in (p.winner, p.loser)]
    if waiting:
        other = state.player(waiting[0].winner)
        raise RuleError(
            N_("{player} is waiting for a choice by {other}: record it first."),
            field="player",
            player=player.name,
            other=other.name,
        )
    if player.knocked_out:
        raise RuleError(N_("{player} is knocked out."), field="player", player=player.name)


def assault(
    state: SBState, command: Assault, dice: Dice, now: datetime
) -> tuple[list[Strike], dict[str, Any]]:
    """Resolves one assault; the state is changed in place (the caller works on a copy)."""
    if state.phase != "running":
        raise RuleError(N_("Assaults take place while the game is running."))
    attacker = state.player(command.attacker)
    defenders = [state.player(d) for d in dict.fromkeys(command.defenders)]
    if attacker.id in command.defenders:
        raise RuleError(N_("A player cannot assault themselves."), field="defenders")
    for player in (attacker, *defenders):
        ready_for_assault(state, player)
    weapon = weapon_for(state, attacker, command.card)
    group = weapon.card.has(Ability.MULTIPLE_TARGETS) or weapon.card.has(Ability.MASS_DAMAGE)
    if len(defenders) > 1 and not group:
        # Attention: without such a card, challenging a group gives one assault on one defender.
        raise RuleError(
            N_(
                "“{card}” strikes one defender: choose one (only multiple-target or mass-damage "
                "cards hit several)."
            ),
            field="defenders",
            card=weapon.card.name,
        )
    single = len(defenders) == 1
    long_range = weapon.card.has(Ability.LONG_RANGE)
    answers: dict[int, Weapon | None] = {}
    for defender in defenders:
        # Each defender (or the referee for them) picks their answer card; the best usable one
        # otherwise (Comment se passe un affrontement: "d'après sa carte").
        chosen = command.defender_cards.get(defender.id) or (
            command.defender_card if single and command.defender_card else None
        )
        copy_id = chosen if chosen is not None else default_weapon(state, defender)
        answers[defender.id] = (
            weapon_for(state, defender, copy_id, "defender_card")
            if copy_id
            else Weapon(copy_id=None, card=BARE_HANDS)
        )
    state.assault_count += 1
    for player in (attacker, *defenders):
        player.assaults += 1  # the assaults each took part in, launched or answered
        player.last_fight = state.assault_count
    blows: list[Strike] = []
    spent: dict[str, dict[str, int | bool | str | None]] = {}

    def prefix(kind: str, defender: Player) -> str:
        return f"{kind}_" if single else f"{kind}_{defender.id}_"

    def answer_blow(defender: Player) -> Strike:
        answer = answers[defender.id] or Weapon(copy_id=None, card=BARE_HANDS)
        lost: str | None = None
        if answer.card.has(Ability.TWO_HANDS) and defender.arm_disabled:
            # Membre tranché: "vous ne pouvez plus vous servir des armes [...] qui nécessitent
            # d'avoir deux mains". The arm went in this very assault: the answer is bare-handed.
            lost, answer = answer.card.key, Weapon(copy_id=None, card=BARE_HANDS)
        blow = roll_blow(state, defender, attacker, answer, dice, prefix("answer", defender))
        blow.unusable = lost
        spent[str(defender.id)] = spend_ammunition(
            state, defender, answer, dice, prefix("answer", defender)
        )
        return blow

    orders = {
        d.id: strike_order(
            command.touch,
            weapon.card.initiative_level,
            (answers[d.id] or weapon).card.initiative_level,
        )
        for d in defenders
    }
    striking_back = command.answer and not long_range  # Longue portée: no reply

    # 1. Defenders whose initiative beats the attacker's strike first, one after the other.
    for defender in defenders:
        if striking_back and orders[defender.id] == "defender" and attacker.alive:
            if attacker.knocked_out:
                break
            blow = answer_blow(defender)
            land(state, blow)
            blows.append(blow)
            if blow.fatal or attacker.pv <= 0:
                attacker.eliminated = True

    # 2. The attacker strikes (if still standing and awake); simultaneous defenders strike too.
    if attacker.alive and not attacker.knocked_out:
        attack_blows = []
        for defender in defenders:
            hit = True
            if (
                len(defenders) > 1
                and weapon.card.has(Ability.MULTIPLE_TARGETS)
                and not weapon.card.has(Ability.MASS_DAMAGE)
            ):
                hit = multiple_target_hit(dice.roll(6, f"hit_{defender.id}"))
            if hit:
                attack_blows.append(
                    roll_blow(
                        state, attacker, defender, weapon, dice, prefix("", defender).lstrip("_")
                    )
                )
            else:
                attack_blows.append(
                    Strike(striker=attacker.id, target=defender.id, card=weapon.card.key, hit=False)
                )
        spent[str(attacker.id)] = spend_ammunition(state, attacker, weapon, dice, "")
        simultaneous = [
            answer_blow(d) for d in defenders if striking_back and orders[d.id] == "simultaneous"
        ]
        for blow in [*attack_blows, *simultaneous]:
            land(state, blow)
            blows.append(blow)
        for defender in defenders:
            if defender.pv <= 0:
                defender.eliminated = True
        if attacker.pv <= 0:
            attacker.eliminated = True

        # 3. Defenders still standing and awake strike back (if they may).
        for defender in defenders:
            if (
                striking_back
                and orders[defender.id] == "attacker"
                and defender.alive
                and not defender.knocked_out
                and attacker.alive
            ):
                blow = answer_blow(defender)
                land(state, blow)
                blows.append(blow)
                if attacker.pv <= 0:
                    attacker.eliminated = True

    settle(state, blows, now)
    return blows, {"orders": {str(k): v for k, v in orders.items()}, "ammunition": spent}


def settle(state: SBState, blows: list[Strike], now: datetime) -> None:
    """After blows: knock-out choices, eliminations with the winner's card taking, the end."""
    for blow in blows:
        target, striker = state.player(blow.target), state.player(blow.striker)
        # Points de vie: "Si un joueur tombe à zéro PV, il est éliminé et le vainqueur peut
        # prendre sa ou ses cartes": the winner is who struck the blow that left them at 0 (a
        # fatal one), not the first who hit them in a group fight.
        killing = blow.hit and (blow.fatal or blow.remaining <= 0)
        if (
            killing
            and target.eliminated
            and not any(e.player == target.id for e in state.eliminations)
        ):
            state.eliminations.append(
                Elimination(player=target.id, by=striker.id, cause="assault", at=now)
            )
            striker.kills += 1
            target.knocked_out = False
        if (
            target.knocked_out
            and striker.alive
            and not any(p.kind == "knockout" and p.loser == target.id for p in state.pending)
        ):
            new_pending(state, "knockout", striker.id, target.id, copy_for(blow, striker))
    for elimination in state.eliminations:
        loser = state.player(elimination.player)
        if not loser.cards:
            continue
        winner = state.players.get(str(elimination.by)) if elimination.by else None
        already = any(p.kind == "loot" and p.loser == loser.id for p in state.pending)
        if winner is not None and winner.alive and not already:
            # The winner may take the loser's cards, 5 held at most (Points de vie).
            new_pending(state, "loot", winner.id, loser.id)
        elif winner is None or not winner.alive:
            return_cards(state, loser)
    # Choices that can no longer be made: their chooser fell.
    for pending in list(state.pending):
        chooser = state.player(pending.winner)
        if chooser.eliminated:
            state.pending.remove(pending)
            loser = state.player(pending.loser)
            loser.knocked_out = False
            if pending.kind == "loot":
                return_cards(state, loser)
    finish_if_over(state, now)


def eliminate(
    state: SBState,
    player: Player,
    cause: Literal["zone", "out_of_bounds", "referee"],
    now: datetime,
    note: str = "",
) -> None:
    """Out by the referee's word (zone, bounds, a correction to 0 PV): no winner takes the cards,
    and the choices this player was still to make lapse."""
    player.eliminated = True
    player.knocked_out = False
    state.eliminations.append(Elimination(player=player.id, cause=cause, at=now, note=note))
    for pending in list(state.pending):
        if player.id not in (pending.winner, pending.loser):
            continue
        state.pending.remove(pending)
        other = state.player(pending.loser)
        other.knocked_out = False
        if pending.kind == "loot":
            return_cards(state, other)
    return_cards(state, player)
    finish_if_over(state, now)


def copy_for(blow: Strike, striker: Player) -> str | None:
    return next((h.copy_id for h in striker.cards if key_of(h.copy_id) == blow.card), None)


def return_cards(state: SBState, player: Player) -> None:
    state.pool.extend(h.copy_id for h in player.cards)
    player.cards = []


def finish_if_over(state: SBState, now: datetime) -> None:
    result = outcome(state)
    if result is not None and state.phase != "finished":
        state.result = result
        state.phase = "finished"
        state.ended_at = now
        state.zone = state.zone.pause(now) if state.zone else None
        for pending in state.pending:
            loser = state.player(pending.loser)
            loser.knocked_out = False
            if pending.kind == "loot":  # nobody is left to take them
                return_cards(state, loser)
        state.pending = []


def take_pending(state: SBState, pending_id: int, kind: str) -> Pending:
    pending = next((p for p in state.pending if p.id == pending_id and p.kind == kind), None)
    if pending is None:
        raise RuleError(N_("This choice was already made."), field="pending")
    state.pending.remove(pending)
    return pending


def move_card(state: SBState, source: Player, target: Player, copy_id: str) -> None:
    held = source.holds(copy_id)
    if held is None:
        raise RuleError(
            N_("{player} does not hold “{card}”."),
            field="card",
            player=source.name,
            card=state.card(copy_id).name,
        )
    if len(target.cards) >= MAX_CARDS:
        raise RuleError(
            N_("{player} already holds {count} cards, the most allowed."),
            field="card",
            player=target.name,
            count=MAX_CARDS,
        )
    source.cards.remove(held)
    target.cards.append(held)


def fresh_card(state: SBState, copy_id: str) -> Held:
    card = state.card(copy_id)
    return Held(copy_id=copy_id, ammo=card.ammo if not card.unlimited_ammo else None)


# ---------------------------------------------------------------------------- zone


def parse_names(text: str) -> list[str]:
    names = []
    for line in text.replace(",", "\n").replace(";", "\n").splitlines():
        name = " ".join(line.split())
        if name and name not in names:
            names.append(name[:60])
    return names


def close_sectors(state: SBState, names: Iterable[str]) -> list[str]:
    closed = []
    known = {s.name: s for s in state.sectors}
    for name in names:
        sector = known.get(name)
        if sector is None:
            raise RuleError(N_("Unknown sector “{sector}”."), field="sectors", sector=name)
        if sector.open:
            sector.open = False
            sector.closed_at = state.shrinks
            closed.append(name)
    return closed


def next_zone_timer(state: SBState, from_deadline: datetime) -> Timer | None:
    """The next shrink, one interval after the last deadline, while a sector can still close."""
    if len(state.open_sectors()) <= 1:
        return None
    return Timer(
        deadline=from_deadline + timedelta(minutes=state.shrink_minutes),
        duration=state.shrink_minutes * 60,
    )


def zone_due(state: SBState, deadline: datetime) -> list[str]:
    """La zone de combat: every interval some sectors close for good."""
    state.shrinks += 1
    closed: list[str] = []
    if state.closing == "plan" and state.shrinks <= len(state.plan):
        closed = close_sectors(state, state.plan[state.shrinks - 1])
    else:
        state.shrink_due = True
    state.zone = next_zone_timer(state, deadline)
    return closed


def describe_blow(state: SBState, blow: Strike) -> Msg:
    striker, target = state.player(blow.striker), state.player(blow.target)
    card = (
        BARE_HANDS
        if blow.card == BARE_HANDS.key
        else next((c for c in state.deck if c.key == blow.card), BARE_HANDS)
    )
    if not blow.hit:
        return Msg(
            N_("{target} is spared by {striker}."), {"target": target.name, "striker": striker.name}
        )
    params: dict[str, object] = {
        "striker": striker.name,
        "target": target.name,
        "card": card.name,
        "where": Msg(LOCATION_HIT[blow.location]) if blow.location else "",
        "pv": blow.pv,
        "left": blow.remaining,
    }
    said = _blow_sentence(state, blow, card, params)
    if blow.unusable:  # a two-handed card, an arm lost to the blow just before (Membre tranché)
        lead = Msg(
            N_("{striker} cannot hold the card {card} with one arm left: bare hands."),
            {"striker": striker.name, "card": state.card(blow.unusable).name},
        )
        return joined([lead, said])
    return said


def _blow_sentence(state: SBState, blow: Strike, card: Card, params: dict[str, object]) -> Msg:
    target = state.player(blow.target)
    bare = card is BARE_HANDS
    if blow.immune:
        text = (
            N_("{striker} hits {target} {where} with bare hands: protected, no damage.")
            if bare
            else N_("{striker} hits {target} {where} with the card {card}: protected, no damage.")
        )
        return Msg(text, params)
    text = (
        N_("{striker} hits {target} {where} with bare hands: {pv} PV")
        if bare
        else N_("{striker} hits {target} {where} with the card {card}: {pv} PV")
    )
    pieces = [Msg(text, params)]
    if blow.protected:
        pieces.append(
            Msg.counted(
                P_(" ({protected} stopped)", " ({protected} stopped)"),
                "protected",
                {"protected": blow.protected},
            )
        )
    if blow.effect is not None:
        pieces.append(Msg(N_(", {effect}"), {"effect": Msg(EFFECT_TITLES[blow.effect])}))
    if blow.fatal or blow.remaining <= 0:
        pieces.append(Msg(N_(". {target} is out of the game."), {"target": target.name}))
    elif state.player(blow.target).knocked_out and blow.effect and blow.effect.knocks_out:
        pieces.append(
            Msg.counted(
                P_(
                    ". {target} is knocked out ({left} PV left).",
                    ". {target} is knocked out ({left} PV left).",
                ),
                "left",
                params,
            )
        )
    else:
        pieces.append(
            Msg.counted(
                P_(". {target}: {left} PV left.", ". {target}: {left} PV left."), "left", params
            )
        )
    return joined(pieces, sep="")


def ammunition_notes(state: SBState, spent: Mapping[str, Mapping[str, Any]]) -> list[Msg]:
    """Munitions: what became of a projectile (Récupération des munitions: 1 to 5 recovered, 6
    lost) and of a weapon that ran out ("retirée de la partie et remise à l'arbitre")."""
    notes = []
    for player_id, info in spent.items():
        card = info.get("card")
        if not card:
            continue
        player = state.player(player_id)
        params = {"player": player.name, "card": state.card(str(card)).name}
        recovery = info.get("recovery")
        if recovery is not None and not player.eliminated:  # out: the loot says where cards go
            text = (
                N_("{player} recovers the {card} projectile (die: {die}).")
                if recovered(int(recovery))
                else N_("{player} loses the {card} projectile (die: {die}).")
            )
            notes.append(Msg(text, {**params, "die": recovery}))
        if info.get("gone"):
            notes.append(
                Msg(N_("The card {card} of {player} is empty: take the card back."), params)
            )
    return notes
