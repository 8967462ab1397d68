"""Power cards' effects (4): what Arbitre does when a card with an effect works (its data,
`PowerCard.effect`), and what a card on the table changes while it lies there (an armour, a
ghost, a long shot, a blow that knocks down, a friend shielded). `powers.py` plays the cards;
combat, the ball and the board ask here."""

from __future__ import annotations

from server.games.killpower import board
from server.games.killpower import match_rules as mr
from server.games.killpower.match.play import Play, Refused
from server.games.killpower.match.state import (
    CONDITION_TITLES,
    INERT,
    PHASE_TITLES,
    Fighter,
    MatchState,
    Until,
)
from server.games.killpower.powers import EffectKind, PowerCard
from server.i18n import N_, P_, Msg


def is_kind(s: MatchState, key: str, kind: EffectKind) -> bool:
    card = s.cards.get(key)
    return card is not None and card.effect is not None and card.effect.kind == kind


def lying(s: MatchState, f: Fighter, kind: EffectKind) -> list[PowerCard]:
    """The cards of this effect `f` has on the table (4.2: « Un pouvoir actif [...] doit être
    posé sur la table »: a card forgotten in hand does nothing)."""
    return [s.cards[k] for k in f.active if is_kind(s, k, kind)]


def armour_of(s: MatchState, f: Fighter) -> int:
    """The "Bouclier", and what a card on the table adds (Peau de pierre: +3)."""
    return f.armour + sum(card.effect.amount for card in lying(s, f, "armour") if card.effect)


def is_ghost(s: MatchState, f: Fighter) -> bool:
    """Fantôme: « traverse les cases occupées et ne peut être ni touché ni intercepté »."""
    return f.where == "field" and bool(lying(s, f, "ghost"))


def long_shot(s: MatchState, f: Fighter) -> bool:
    """Œil de lynx: « ne subit pas le malus de distance pour ses tirs au panier de plus de 8
    cases »."""
    return bool(lying(s, f, "long_shot"))


def knocks_down(s: MatchState, f: Fighter) -> bool:
    """Main de fer: « Si le porteur touche, la cible lâche le ballon et tombe à terre ; on ne fait
    pas les dégâts »."""
    return bool(lying(s, f, "knockdown"))


def guard_of(s: MatchState, target: Fighter) -> Fighter | None:
    """Bouclier humain: a friend on the field who shields `target` with the card on the table,
    next to them on the board."""
    for g in s.side_fighters(target.side):
        if g.guards != target.id or g is target or g.where != "field" or g.inert:
            continue
        if not lying(s, g, "shield"):
            continue
        if s.board and not board.near(s.square_of(g), s.square_of(target)):
            continue
        return g
    return None


def shield_used(s: MatchState, g: Fighter) -> None:
    """The shield took the blow: its card goes back to its coach (it worked)."""
    g.active = [k for k in g.active if not is_kind(s, k, "shield")]
    g.guards = None


def put_condition(p: Play, f: Fighter, condition: str, turns: int, card: str | None) -> None:
    """A state on a gladiator, for `turns` (0: until cleared), put by `card` (or by the table)."""
    s = p.s
    if f.where in ("dead", "coma"):
        raise Refused(N_("{name} is out of the match."), field="gladiator", name=f.label)
    title = Msg(CONDITION_TITLES[condition])
    until = None
    if turns:
        end = mr.timer_end(s.turn, s.phase, turns)
        until = Until(turn=end.turn, phase=end.phase)
    if f.where == "expelled" and condition == "afraid":
        f.after["afraid"] = turns  # 3.3: served after the expulsion
    else:
        f.conditions[condition] = until
        if card is not None:
            f.causes[condition] = card
        else:
            f.causes.pop(condition, None)
    if condition in INERT or condition == "on_ground":
        p.drop_ball(f)  # 5.1 and 10: an inert or fallen gladiator lets the ball go
        f.concentration = 0
    if condition in INERT:
        f.active = [
            k for k in f.active if s.cards.get(k) and s.cards[k].activation.kind == "automatic"
        ]
    if condition == "on_ground":  # Fantôme: « s'annule [...] s'il [...] tombe à terre »
        f.active = [k for k in f.active if not is_kind(s, k, "ghost")]
    if until is None:
        p.say(N_("{name} is {condition}."), name=f.label, condition=title)
    else:
        p.say_counted(
            P_(
                "{name} is {condition} for {turns} turn, until {phase} of turn {turn}.",
                "{name} is {condition} for {turns} turns, until {phase} of turn {turn}.",
            ),
            "turns",
            name=f.label,
            condition=title,
            turns=turns,
            phase=Msg(PHASE_TITLES[until.phase]),
            turn=until.turn,
        )
