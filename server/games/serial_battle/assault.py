"""The assault (Lexique: Initiative, Assaut, Assommé, Membre tranché; Points de vie): who
strikes first, with what, the blows and what they do, the sentence to read aloud."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel

from server.errors import RuleError
from server.games.serial_battle.cards import (
    ammunition_notes,
    move_card,
    spend_ammunition,
    take_pending,
)
from server.games.serial_battle.catalog import (
    BARE_HANDS,
    EFFECT_TITLES,
    LOCATION_HIT,
    Ability,
    Card,
    Effect,
    Location,
    key_of,
)
from server.games.serial_battle.commands import Assault, KnockoutAgain, KnockoutTake
from server.games.serial_battle.ending import end_note, finish_if_over, return_cards
from server.games.serial_battle.state import (
    Elimination,
    Order,
    Pending,
    Player,
    SBState,
    Touch,
    Weapon,
)
from server.games.serial_battle.telling import pending_notes, roll_label
from server.i18n import N_, P_, Msg, joined
from server.platform.dice import CommandDice, Dice
from server.platform.kinds import Applied, Context


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


def multiple_target_hit(die: int) -> bool:
    """Cible multiple: each opponent rolls, 1 to 5 hit, 6 spared."""
    return die <= 5


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


def answer_weapon(state: SBState, player: Player, chosen: str | None, field: str) -> Weapon:
    """The card a defender answers with: the one named; when none is, their only usable card
    (or bare hands), but never one chosen for them among several (issue 33, item 16: an API
    call that left it out was resolved with the best for them). The page preselects the
    likeliest, visibly, so its form always names one."""
    if chosen is None:
        usable = usable_cards(state, player)
        if len(usable) > 1:
            raise RuleError(
                N_("Say which card {name} answers with: {name} holds several."),
                field=field,
                name=player.name,
            )
        chosen = usable[0] if usable else None
    if not chosen:
        return Weapon(copy_id=None, card=BARE_HANDS)
    return weapon_for(state, player, chosen, field)


def usable_cards(state: SBState, player: Player) -> list[str]:
    """The copies a player could strike with now (ammunition, state and card allowing)."""
    found = []
    for held in player.cards:
        try:
            weapon = weapon_for(state, player, held.copy_id)
        except RuleError:
            continue
        if weapon.copy_id is not None:
            found.append(weapon.copy_id)
    return found


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
    fight = Fight(state, command, dice, attacker, defenders, weapon)
    state.assault_count += 1
    for player in (attacker, *defenders):
        player.assaults += 1  # the assaults each took part in, launched or answered
        player.last_fight = state.assault_count
    fight.strike_first()
    if attacker.alive and not attacker.knocked_out:
        fight.attack()
        fight.strike_back()
    settle(state, fight.blows, now)
    orders = {str(k): v for k, v in fight.orders.items()}
    return fight.blows, {"orders": orders, "ammunition": fight.spent}


class Fight:
    """One assault being fought: who strikes in which order (Initiative), the blows landed so far
    and the ammunition spent."""

    def __init__(
        self,
        state: SBState,
        command: Assault,
        dice: Dice,
        attacker: Player,
        defenders: list[Player],
        weapon: Weapon,
    ) -> None:
        self.state, self.command, self.dice = state, command, dice
        self.attacker, self.defenders, self.weapon = attacker, defenders, weapon
        self.single = len(defenders) == 1
        self.answers = {d.id: self.answer_card(d) for d in defenders}
        self.orders = {
            d.id: strike_order(
                command.touch,
                weapon.card.initiative_level,
                self.answers[d.id].card.initiative_level,
            )
            for d in defenders
        }
        # Longue portée: no reply.
        self.striking_back = command.answer and not weapon.card.has(Ability.LONG_RANGE)
        self.blows: list[Strike] = []
        self.spent: dict[str, dict[str, int | bool | str | None]] = {}

    def answer_card(self, defender: Player) -> Weapon:
        """Each defender (or the referee for them) picks their answer card; the best usable one
        otherwise (Comment se passe un affrontement: "d'après sa carte")."""
        c = self.command
        chosen = c.defender_cards.get(defender.id) or (
            c.defender_card if self.single and c.defender_card else None
        )
        field = "defender_card" if self.single else f"defender_card_{defender.id}"
        return answer_weapon(self.state, defender, chosen, field)

    def prefix(self, kind: str, defender: Player) -> str:
        return f"{kind}_" if self.single else f"{kind}_{defender.id}_"

    def land(self, blow: Strike) -> None:
        land(self.state, blow)
        self.blows.append(blow)

    def answer_blow(self, defender: Player) -> Strike:
        answer = self.answers[defender.id]
        lost: str | None = None
        if answer.card.has(Ability.TWO_HANDS) and defender.arm_disabled:
            # Membre tranché: "vous ne pouvez plus vous servir des armes [...] qui nécessitent
            # d'avoir deux mains". The arm went in this very assault: the answer is bare-handed.
            lost, answer = answer.card.key, Weapon(copy_id=None, card=BARE_HANDS)
        where = self.prefix("answer", defender)
        blow = roll_blow(self.state, defender, self.attacker, answer, self.dice, where)
        blow.unusable = lost
        self.spent[str(defender.id)] = spend_ammunition(
            self.state, defender, answer, self.dice, where
        )
        return blow

    def answers_now(self, order: str) -> list[Player]:
        return [d for d in self.defenders if self.striking_back and self.orders[d.id] == order]

    def strike_first(self) -> None:
        """1. Defenders whose initiative beats the attacker's strike first, one after the other."""
        attacker = self.attacker
        for defender in self.answers_now("defender"):
            if not attacker.alive:
                continue
            if attacker.knocked_out:
                break
            blow = self.answer_blow(defender)
            self.land(blow)
            if blow.fatal or attacker.pv <= 0:
                attacker.eliminated = True

    def attack_blow(self, defender: Player) -> Strike:
        card = self.weapon.card
        hit = True
        if (
            len(self.defenders) > 1
            and card.has(Ability.MULTIPLE_TARGETS)
            and not card.has(Ability.MASS_DAMAGE)
        ):
            hit = multiple_target_hit(self.dice.roll(6, f"hit_{defender.id}"))
        if not hit:
            return Strike(striker=self.attacker.id, target=defender.id, card=card.key, hit=False)
        where = self.prefix("", defender).lstrip("_")
        return roll_blow(self.state, self.attacker, defender, self.weapon, self.dice, where)

    def attack(self) -> None:
        """2. The attacker strikes (standing and awake); simultaneous defenders strike too."""
        attacker = self.attacker
        attack_blows = [self.attack_blow(d) for d in self.defenders]
        self.spent[str(attacker.id)] = spend_ammunition(
            self.state, attacker, self.weapon, self.dice, ""
        )
        simultaneous = [self.answer_blow(d) for d in self.answers_now("simultaneous")]
        for blow in [*attack_blows, *simultaneous]:
            self.land(blow)
        for defender in self.defenders:
            if defender.pv <= 0:
                defender.eliminated = True
        if attacker.pv <= 0:
            attacker.eliminated = True

    def strike_back(self) -> None:
        """3. Defenders still standing and awake strike back (if they may)."""
        attacker = self.attacker
        for defender in self.answers_now("attacker"):
            if defender.alive and not defender.knocked_out and attacker.alive:
                self.land(self.answer_blow(defender))
                if attacker.pv <= 0:
                    attacker.eliminated = True


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


def copy_for(blow: Strike, striker: Player) -> str | None:
    return next((h.copy_id for h in striker.cards if key_of(h.copy_id) == blow.card), None)


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
        N_("{striker} hits {target} {where} with bare hands: {pv} HP")
        if bare
        else N_("{striker} hits {target} {where} with the card {card}: {pv} HP")
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
                    ". {target} is knocked out ({left} HP left).",
                    ". {target} is knocked out ({left} HP left).",
                ),
                "left",
                params,
            )
        )
    else:
        pieces.append(
            Msg.counted(
                P_(". {target}: {left} HP left.", ". {target}: {left} HP left."), "left", params
            )
        )
    return joined(pieces, sep="")


# -------------------------------------------------------------------- handlers


# The dice the assault form takes ahead, rolled by hand on the field: each is rolled or not
# depending on the blows before it (who strikes first, who is still standing to answer).
DICE_AHEAD = ("damage", "location", "answer_damage", "answer_location")


def unused_dice(state: SBState, ctx: Context) -> list[Msg]:
    """The dice entered ahead for blows the assault did not come to: taken, and said (never
    silently dropped)."""
    if not isinstance(ctx.dice, CommandDice) or not (unused := ctx.dice.spare(*DICE_AHEAD)):
        return []
    dice = [
        Msg(N_("{value} ({die})"), {"value": ctx.dice.entered[p], "die": roll_label(p, state)})
        for p in unused
    ]
    return [Msg(N_("Dice entered and not needed: {dice}."), {"dice": joined(dice, ", ")})]


def on_assault(state: SBState, c: Assault, ctx: Context) -> Applied:
    blows, details = assault(state, c, ctx.dice, ctx.now)
    sentences = [describe_blow(state, b) for b in blows]
    sentences.extend(unused_dice(state, ctx))
    sentences.extend(ammunition_notes(state, details["ammunition"]))
    sentences.extend(pending_notes(state, c.attacker, *c.defenders))
    sentences.extend(end_note(state))
    result = {"blows": [b.model_dump(mode="json") for b in blows], **details}
    return Applied(joined(sentences), result)


def on_knockout_take(state: SBState, c: KnockoutTake, ctx: Context) -> Applied:
    pending = take_pending(state, c.pending, "knockout")
    winner, loser = state.player(pending.winner), state.player(pending.loser)
    if c.card is None:
        # Assommé: take a card and leave, or a second assault. With no card to take, leaving
        # is still a choice, and nothing holds the winner back (spec: Assault defaults).
        if loser.cards:
            raise RuleError(
                N_("Choose the card {winner} takes from {loser}."),
                field="card",
                winner=winner.name,
                loser=loser.name,
            )
        loser.knocked_out = False
        return Applied(
            Msg(
                N_("{winner} leaves {loser}, who has no card to take."),
                {"winner": winner.name, "loser": loser.name},
            ),
            {},
        )
    if c.give_back is not None:
        # 5 cards at most (Points de vie): one of the winner's own goes back to the referee
        # to make room ("les autres sont remises à l'arbitre").
        held = winner.holds(c.give_back)
        if held is None:
            raise RuleError(
                N_("{winner} does not hold “{card}”."),
                field="give_back",
                winner=winner.name,
                card=c.give_back,
            )
        winner.cards.remove(held)
        state.pool.append(held.copy_id)
    move_card(state, loser, winner, c.card)
    loser.knocked_out = False
    return Applied(
        Msg(
            N_("{winner} takes the card {card} from {loser} and leaves."),
            {"winner": winner.name, "loser": loser.name, "card": state.card(c.card).name},
        ),
        {},
    )


def on_knockout_again(state: SBState, c: KnockoutAgain, ctx: Context) -> Applied:
    """Assommé: a second assault wakes the defender up, who may then strike back."""
    pending = take_pending(state, c.pending, "knockout")
    winner, loser = state.player(pending.winner), state.player(pending.loser)
    weapon = weapon_for(state, winner, c.card or pending.copy_id)
    blow = roll_blow(state, winner, loser, weapon, ctx.dice, "")
    spent = {str(winner.id): spend_ammunition(state, winner, weapon, ctx.dice, "")}
    loser.knocked_out = False
    land(state, blow)
    blows = [blow]
    if loser.pv <= 0:
        loser.eliminated = True
    elif not loser.knocked_out and not weapon.card.has(Ability.LONG_RANGE):
        # Longue portée: "sans que ceux-ci ne puissent répliquer", the second assault too.
        answer = answer_weapon(state, loser, c.defender_card, "defender_card")
        back = roll_blow(state, loser, winner, answer, ctx.dice, "answer_")
        spent[str(loser.id)] = spend_ammunition(state, loser, answer, ctx.dice, "answer_")
        land(state, back)
        blows.append(back)
        if winner.pv <= 0:
            winner.eliminated = True
    settle(state, blows, ctx.now)
    sentences = [describe_blow(state, b) for b in blows]
    sentences.extend(unused_dice(state, ctx))
    sentences.extend(ammunition_notes(state, spent))
    sentences.extend(pending_notes(state, winner.id, loser.id))
    sentences.extend(end_note(state))
    return Applied(
        joined(sentences),
        {
            "blows": [b.model_dump(mode="json") for b in blows],
            "ammunition": spent,
        },
    )
