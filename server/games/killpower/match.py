"""A Killpower Ball match: the referee sheet, live, for a referee or for two self-refereeing coaches.

A match is its own game, opened from a league with a snapshot of both teams. Each coach has a link;
with a referee, the referee's phone holds the sheet and the coaches follow; self-refereed, each coach
plays their own team from their phone and Arbitre is the neutral referee: it rolls, keeps the order
of phase 3, runs the timers and the team states of TABLE 7, and keeps each coach's RAP values,
power cards and bluff cards away from the other until the rules reveal them (4.3: the underlined
part of a power once activated). When the match ends, its result goes to the league's end-of-match
operations (3.4).

Summaries in the log are what both coaches may read; what only one side may read (a die against a
hidden value, a power's name, a bluff) goes to `result["private"][side]`.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from datetime import datetime
from typing import Annotated, Any, ClassVar, Literal

from pydantic import BaseModel, Field, TypeAdapter

from server.errors import NotAllowed, RuleError
from server.games.killpower import match_rules as mr
from server.games.killpower import rules
from server.games.killpower.match_rules import Side, Where, other
from server.games.killpower.powers import PowerCard
from server.games.killpower.rules import LOCATION_TITLES, OUTCOME_TITLES, Location
from server.platform.dice import Dice
from server.platform.i18n import N_, P_, Msg, joined
from server.platform.kinds import (
    Context,
    GameKind,
    LoggedEvent,
    PersonInfo,
    Viewer,
    full_event,
    rolls_for,
)
from server.platform.kinds import Outcome as Done
from server.platform.refs import Ref

Stage = Literal["lineup", "running", "free_throws", "finished"]
Mode = Literal["referee", "self"]
Condition = Literal["asleep", "ko", "afraid", "blind", "immobile", "on_ground", "held"]
SIDES: tuple[Side, Side] = ("A", "B")
INERT = ("asleep", "ko")  # 5.1, GUERRIER INERTE: KO, coma or asleep (coma leaves the field)
CONDITION_TITLES = {
    "asleep": N_("asleep"),
    "ko": N_("knocked out"),
    "afraid": N_("afraid, fleeing"),
    "blind": N_("blind"),
    "immobile": N_("immobile"),
    "on_ground": N_("on the ground"),
    "held": N_("kept in the side-line zone"),
}
WHERE_TITLES = {
    "zt": N_("side-line zone"),
    "field": N_("on the field"),
    "bg": N_("badly wounded"),
    "coma": N_("coma (risk of death)"),
    "dead": N_("dead"),
    "expelled": N_("expelled"),
}
CASE_TITLES = {
    "I": N_("I · on the field: the match goes on"),
    "II": N_("II · side-line zone: forfeit if nobody enters within 5 turns"),
    "III": N_("III · expelled: the other team plays alone"),
    "IV": N_("IV · badly wounded: a point to the other team"),
    "V": N_("V · kept off: the other team plays alone"),
    "VI": N_("VI · nobody left: victory of the other team"),
}
OFFENCE_TITLES = {
    "table6": N_("an offence of TABLE 6 (1D5+5 turns)"),
    "basket_zone": N_("in their own basket zone (1D5 turns)"),
    "again": N_("no room to come back (1D10 turns)"),
}
PHASE_TITLES = {1: N_("phase 1"), 2: N_("phase 2"), 3: N_("phase 3")}


# ---------------------------------------------------------------------------- state


class Until(BaseModel):
    turn: int
    phase: int

    @property
    def moment(self) -> mr.Moment:
        return mr.Moment(self.turn, self.phase)

    def left(self, turn: int) -> int:
        """Turns left on the sheet, as a coach asking the referee hears it (6.2)."""
        return max(0, turn - self.turn)


class Fighter(BaseModel):
    """A gladiator of the match, from the league's team sheet."""

    id: int
    side: Side
    number: int
    name: str
    characteristics: dict[str, int]
    armour: int  # the "Bouclier": magic armour or normal armour 1
    gloves: bool = False
    powers: list[str] = Field(default_factory=list)
    rap: int = 0
    where: Where = "zt"
    state: int | None = None  # (VIE + armour) - damage when it left the field
    acted: bool = False  # its action of this turn is used (phase 1, 2 or 3)
    waiting: bool = False  # phase 3: it let its turn pass and may act later
    entered: int = 0  # order of entry on the field (the sixth one is expelled, 6.1)
    conditions: dict[str, Until | None] = Field(default_factory=dict)
    back: Until | None = None  # end of an expulsion
    after: dict[str, int] = Field(default_factory=dict)  # served after the expulsion (3.3)
    square: tuple[int, int] | None = None  # re-entry square rolled (1D2, 1D10), 6.2
    location: str | None = None  # 8.4: the location chosen by the blow that left it in a coma
    concentration: int = 0
    uses: dict[str, int] = Field(default_factory=dict)  # activations of each power
    active: list[str] = Field(default_factory=list)  # power cards on the table

    @property
    def label(self) -> str:
        return f"{self.name} (#{self.number})"

    def has(self, condition: str) -> bool:
        return condition in self.conditions

    @property
    def inert(self) -> bool:
        return any(c in self.conditions for c in INERT)

    def standing(self, turn: int) -> mr.Standing:
        until = self.back if self.where == "expelled" else None
        # TABLE 7 (4), ZT involontaire: "s'ils fuient ou subissent un pouvoir dans leur ZT" (a
        # sleeping one cannot enter either, nor be given the ball).
        held = [u for c, u in self.conditions.items() if c in ("afraid", "held", "asleep")]
        involuntary = self.where == "zt" and bool(held)
        back_in_time = True
        if until is not None and until.turn < 1:
            back_in_time = False
        if involuntary and any(u is None or u.turn < 1 for u in held):
            back_in_time = False
        return mr.Standing(self.where, involuntary, back_in_time)


class Roster(BaseModel):
    """A team as the league gave it to the match (its sheet at the time the match opened)."""

    team: int
    name: str
    coach_name: str
    ranking: int
    gladiators: list[dict[str, Any]]  # id, number, name, characteristics, armour, gloves, ...


class TeamPlay(BaseModel):
    roster: Roster
    coach: int | None = None  # the coach's person id in this match
    lineup: list[int] = Field(default_factory=list)  # secret until both are given
    # RAP rolled with the lineup, its side's alone (3.2: "en cachant le résultat à
    # l'adversaire"), kept for a gladiator once rolled: a lineup given again rolls no one twice.
    raps: dict[str, int] = Field(default_factory=dict)
    bluff: int = 0
    ready: bool = False
    power: int = 0
    exp: int = 0
    margin: int = 0
    score: int = 0
    idle_since: int | None = None  # turn at which case II began (forfeit after 5 turns)
    case: str = "II"


class Pending(BaseModel):
    """A question the other side answers before the match goes on (evade, intercept, resist)."""

    kind: Literal["evade", "intercept", "resist"]
    side: Side
    data: dict[str, Any]


class Reveal(BaseModel):
    """4.3: what is read to the other coach when a power is activated."""

    side: Side
    fighter: int
    text: str  # the underlined part only: the card's name stays with its coach
    turn: int


class Armed(BaseModel):
    """4.3: a power activated whose underlined part is read only once a condition happens (Rayon
    laser: when a gladiator crosses line 14). Its bearer's coach alone knows it is there."""

    side: Side
    fighter: int
    card: str
    turn: int


class FreeThrow(BaseModel):
    side: Side
    fighter: int
    distance: int
    die: int
    needed: int
    points: int
    round: int


class MatchSettings(BaseModel):
    league: str = ""
    mode: Mode = "self"
    tournament: bool = False
    teams: list[Roster] = Field(default_factory=list, max_length=2)
    cards: list[PowerCard] = Field(default_factory=list)


class MatchState(BaseModel):
    league: str = ""
    mode: Mode = "self"
    tournament: bool = False
    stage: Stage = "lineup"
    teams: dict[str, TeamPlay] = Field(default_factory=dict)
    cards: dict[str, PowerCard] = Field(default_factory=dict)
    fighters: dict[str, Fighter] = Field(default_factory=dict)
    turn: int = mr.TURNS
    phase: int = 1
    hand: Side = "A"
    token: Side | None = None  # who holds the mandatory-success token; none once used
    first: Side = "A"  # who placed first
    kickoff_reason: str = ""
    ball: str = ""  # "f:<id>" carried, "zt:<side>" to give, "ground", "basket", "center"
    ball_note: str = ""
    entries: int = 0
    moved: bool = False  # the moving team did something in this movement phase
    gift: Side | None = None  # who owes a point at the end of phase 3 (TABLE 7, case IV)
    pending: Pending | None = None
    reveals: list[Reveal] = Field(default_factory=list)
    armed: list[Armed] = Field(default_factory=list)
    surrendered: Side | None = None
    eliminated: Side | None = None
    outcomes: tuple[str, str] | None = None
    throws: list[FreeThrow] = Field(default_factory=list)
    coaches_joined: int = 0

    def team(self, side: str) -> TeamPlay:
        return self.teams[side]

    def fighter(self, fighter_id: int) -> Fighter:
        f = self.fighters.get(str(fighter_id))
        if f is None:
            raise RuleError(
                N_("Gladiator {gladiator} does not play this match."),
                field="gladiator",
                gladiator=fighter_id,
            )
        return f

    def side_fighters(self, side: str) -> list[Fighter]:
        return sorted((f for f in self.fighters.values() if f.side == side), key=lambda f: f.number)

    @property
    def moving(self) -> Side:
        """Who moves in phase 1 (the hand) and phase 2 (the other team)."""
        return self.hand if self.phase == 1 else other(self.hand)

    @property
    def carrier(self) -> Fighter | None:
        if self.ball.startswith("f:"):
            return self.fighters.get(self.ball[2:])
        return None


# ---------------------------------------------------------------------------- commands


# What commands name (checked by the platform against `KillpowerMatch.references`): a gladiator
# of either team's sheet, a power card of the match (or "bluff").
GladiatorRef = Annotated[int, Ref("gladiator")]
PowerRef = Annotated[str, Ref("power")]


class Lineup(BaseModel):
    """3.2, COMPOSITION: the gladiators who play, told secretly, and the bluff cards (4.4)."""

    type: Literal["lineup"]
    side: Side | None = None  # the referee gives it for a side; a coach for their own
    gladiators: list[GladiatorRef] = Field(min_length=1, max_length=rules.TEAM_SIZE)
    # 3.2: 1 to 3 bluff cards; 13.2, a tournament: "autant que vous le souhaitez".
    bluff: int = Field(default=1, ge=mr.BLUFF_CARDS[0], le=mr.TOURNAMENT_BLUFF_CARDS)


class GiveBall(BaseModel):
    type: Literal["give_ball"]
    gladiator: GladiatorRef


class Enter(BaseModel):
    type: Literal["enter", "leave"]
    gladiator: GladiatorRef


class EndPhase(BaseModel):
    type: Literal["end_phase"]
    side: Side | None = None  # phase 3: the side whose remaining gladiators do nothing


class Act(BaseModel):
    """Phase 3 without a roll: do nothing, wait for later, stand up, sprint, concentrate."""

    type: Literal["act"]
    gladiator: GladiatorRef
    action: Literal["pass", "wait", "stand", "sprint", "concentrate"]


class Shot(BaseModel):
    type: Literal["shot"]
    gladiator: GladiatorRef
    distance: int = Field(ge=0, le=30)
    near: bool = False  # on the basket square or with the basket in the action zone
    blind: bool = False  # the basket is not seen (9.F)
    own: bool = False  # into the team's own basket
    other_half: bool = False  # from the other half of the field: refused
    token: bool = False  # the mandatory-success token


class Throw(BaseModel):
    type: Literal["throw"]
    gladiator: GladiatorRef
    distance: int = Field(ge=1, le=30)
    to: GladiatorRef | None = None  # a friend; none: a square
    blind: bool = False
    token: bool = False


class Handoff(BaseModel):
    """7, hand to hand: no roll, no interception; reaching one square away costs the passer 1A."""

    type: Literal["handoff"]
    gladiator: GladiatorRef
    to: GladiatorRef
    reach: bool = False


class Take(BaseModel):
    type: Literal["take"]
    gladiator: GladiatorRef
    token: bool = False


class Pick(BaseModel):
    type: Literal["pick", "drop"]
    gladiator: GladiatorRef
    zone: bool = False  # drop on a square of the action zone (1A) instead of one's own (0A)


class Attack(BaseModel):
    """8: one attacker or a group attack on a target in their action zones."""

    type: Literal["attack"]
    attackers: list[GladiatorRef] = Field(min_length=1, max_length=8)
    target: GladiatorRef
    located: bool = False  # an inert target hit on a chosen location (7 or less)
    location: Location | None = None  # 8.4: the location chosen (the head, by example)
    token: bool = False


class Answer(BaseModel):
    """The answer to a pending question: evade (with whom to evade in a group), intercept (with
    whom, none: let the ball go), resist a take."""

    type: Literal["answer"]
    yes: bool = False
    gladiator: GladiatorRef | None = None
    token: bool = False  # 3.2: the mandatory-success token, "intercepter le ballon" included


class Hurt(BaseModel):
    """Damage or wound points from a power (9.1: wound points ignore the armour)."""

    type: Literal["hurt"]
    gladiator: GladiatorRef
    points: int = Field(ge=1, le=99)
    wound_points: bool = False


class SetCondition(BaseModel):
    type: Literal["condition"]
    gladiator: GladiatorRef
    condition: Condition
    turns: int = Field(default=0, ge=0, le=20)  # 0: until cleared
    clear: bool = False


class Expel(BaseModel):
    type: Literal["expel"]
    gladiator: GladiatorRef
    offence: Literal["table6", "basket_zone"] = "table6"
    reason: str = Field(default="", max_length=200)


class Reentry(BaseModel):
    """6.2: the square rolled is taken (roll again) or the side-line zone is full (1D10 more)."""

    type: Literal["reentry"]
    gladiator: GladiatorRef
    outcome: Literal["taken", "no_room"]


class UsePower(BaseModel):
    type: Literal["power"]
    gladiator: GladiatorRef
    card: PowerRef = Field(min_length=1, max_length=40)  # a power key, or "bluff"
    deactivate: bool = False
    # 4.4: what a bluff passes for, so that it is played as such a card would be (in phase 3 at
    # its turn for 1A; from the ground or the side-line zone for an automatic one).
    bluff_as: Literal["0A", "1A", "automatic"] = "0A"
    bluff_stays: bool = True  # on the table as a power that works, or taken back as one that failed


class Check(BaseModel):
    """A roll under a characteristic (HAB to move on through action zones, POU to resist)."""

    type: Literal["check"]
    gladiator: GladiatorRef
    characteristic: Literal["DEP", "PHY", "HAB", "POU", "BAL", "VIE"]
    zones: int = Field(default=1, ge=1, le=8)  # HAB divided by the enemy action zones
    action: bool = False  # the roll costs the action (1A)
    # Resisting a power: 3.3, "La règle sur la RAP n'intervient pas [...] de résister à un
    # pouvoir qui coûte 1A": no waiting for one's turn, in any phase (TABLE 10, HORS PHASE).
    resist: bool = False
    token: bool = False  # 3.2: the mandatory-success token makes the resistance succeed


class Trigger(BaseModel):
    """4.3: the condition of a power armed earlier happened (Rayon laser: a gladiator crossed
    line 14); its underlined part is read now, unless the target resists."""

    type: Literal["trigger"]
    gladiator: GladiatorRef  # the power's bearer
    card: PowerRef
    target: GladiatorRef | None = None  # who it strikes (rolls the resistance, if the card has one)


class Surrender(BaseModel):
    type: Literal["surrender"]
    side: Side | None = None


class FreeShot(BaseModel):
    type: Literal["free_throw"]
    gladiator: GladiatorRef
    distance: int = Field(ge=2, le=12)


Command = Annotated[
    Lineup
    | GiveBall
    | Enter
    | EndPhase
    | Act
    | Shot
    | Throw
    | Handoff
    | Take
    | Pick
    | Attack
    | Answer
    | Hurt
    | SetCondition
    | Expel
    | Reentry
    | UsePower
    | Check
    | Trigger
    | Surrender
    | FreeShot,
    Field(discriminator="type"),
]


class Refused(RuleError):
    """6.3: an error that cannot be made is cancelled, with the reason."""


# ---------------------------------------------------------------------------- the rules


class Play:
    """One command applied to a copy of the state: the summary both sides read, what only one
    side reads, and the rolls' dice."""

    def __init__(self, state: MatchState, ctx: Context, side: Side | None) -> None:
        self.s = state
        self.dice: Dice = ctx.dice
        self.actor = ctx.actor
        self.side = side  # the side the actor plays, none for the staff
        self.public: list[Msg] = []
        self.private: dict[str, list[Msg]] = {"A": [], "B": []}

    # -- helpers

    def say(self, message: str, **params: Any) -> None:
        self.public.append(Msg(message, params))

    def say_counted(self, forms: tuple[str, str], count: str, **params: Any) -> None:
        self.public.append(Msg.counted(forms, count, params))

    def tell(self, side: Side, message: str, **params: Any) -> None:
        self.private[side].append(Msg(message, params))

    def own(self, fighter_id: int) -> Fighter:
        f = self.s.fighter(fighter_id)
        if self.side is not None and f.side != self.side:
            raise NotAllowed(N_("This gladiator belongs to the other team."))
        return f

    def roll(self, f: Fighter, what: str, needed: int, token: bool = False) -> tuple[int, bool]:
        """A roll under a value; the mandatory-success token makes it succeed without a die
        (3.2). The die is public; the value needed is told to the roller's side only."""
        if token:
            self.use_token(f.side)
            self.say(N_("{name} uses the mandatory-success token."), name=f.label)
            return 0, True
        die = self.dice.roll(10, f"{what} of {f.name}", owner=f.side)
        ok = mr.succeeds(die, needed)
        self.tell(
            f.side, N_("{name}: {die} for {needed} or less."), name=f.label, die=die, needed=needed
        )
        return die, ok

    def use_token(self, side: Side) -> None:
        if self.s.token != side:
            raise RuleError(
                N_("Your team does not hold the mandatory-success token."), field="token"
            )
        self.s.token = None

    def ready_to_act(
        self, f: Fighter, *, phase3_order: bool = True, anywhere: bool = False
    ) -> None:
        """Whether a gladiator may spend its action now (3.3, TABLE 10, 5.1). `anywhere`: also
        from its side-line zone (to be expelled for it, TABLE 6)."""
        s = self.s
        if s.stage != "running":
            raise RuleError(N_("The match is not being played."))
        if anywhere and f.where == "zt":
            pass
        elif f.where != "field" and not (f.where == "zt" and s.carrier is f):
            raise Refused(N_("{name} is not on the field."), field="gladiator", name=f.label)
        if f.acted:
            raise Refused(
                N_("{name} has already used their action this turn."),
                field="gladiator",
                name=f.label,
            )
        if f.inert:
            raise Refused(N_("{name} is inert and cannot act."), field="gladiator", name=f.label)
        if f.has("afraid"):
            raise Refused(N_("{name} flees and no longer acts."), field="gladiator", name=f.label)
        if s.phase in (1, 2) and f.side != s.moving:
            raise Refused(
                N_(
                    "Only the moving team plays the ball now; {name} may pick, intercept or resist."
                ),
                field="gladiator",
                name=f.label,
            )
        if s.phase == 3 and phase3_order and self.both_teams_act():
            due = self.next_actor()
            if not f.waiting and (due is None or due.id != f.id):
                raise Refused(
                    N_("Not {name}'s turn: a faster gladiator acts first."),
                    field="gladiator",
                    name=f.label,
                )

    def both_teams_act(self) -> bool:
        """3.3: "Si une seule des deux équipes a des actions à faire, on néglige cette règle sur
        la RAP": the order of phase 3 holds while both teams have someone to act."""
        sides = {
            f.side
            for f in self.s.fighters.values()
            if f.where == "field" and not f.acted and self.can_act(f)
        }
        return len(sides) == 2

    def next_actor(self) -> Fighter | None:
        """3.3: the fastest gladiator who has not acted nor chosen to wait; ties to the hand."""
        actors = [
            mr.Actor(str(f.id), f.side, f.rap)
            for f in self.s.fighters.values()
            if f.where == "field" and not f.acted and not f.waiting and self.can_act(f)
        ]
        order = mr.phase3_order(actors, self.s.hand)
        return self.s.fighters[order[0].key] if order else None

    @staticmethod
    def can_act(f: Fighter) -> bool:
        return not f.inert and not f.has("afraid")

    def spend(self, f: Fighter) -> None:
        f.acted = True
        f.waiting = False
        if f.concentration and self.s.phase != 3:
            f.concentration = 0
        if f.side == self.s.moving and self.s.phase in (1, 2):
            self.s.moved = True

    def drop_ball(self, f: Fighter, note: str = "") -> None:
        if self.s.carrier is f:
            self.s.ball = "ground"
            self.s.ball_note = note
            self.say(N_("The ball falls on {name}'s square."), name=f.label)

    # -- leaving the field

    def off(self, f: Fighter, where: Where, state: int | None = None) -> None:
        """Off the field (badly wounded, coma, expelled): 3.3, CAS PARTICULIER, "sous l'effet
        d'un pouvoir sur le terrain, est expulsé [...] est BG, il n'est plus affecté par le
        pouvoir": every state ends (asleep, blind, on the ground...), a fleeing gladiator badly
        wounded no longer flees; an expulsion keeps the fear to serve after (`expel`)."""
        self.drop_ball(f)
        f.where = where
        f.state = state
        f.active = []  # 3.3: a power stops when its bearer leaves (unless its card says not)
        # 4.2: "Pour qu'un pouvoir fonctionne, son lanceur doit être sur le terrain".
        self.s.armed = [a for a in self.s.armed if a.fighter != f.id]
        f.concentration = 0
        f.waiting = False
        f.conditions = {}

    def expel(self, f: Fighter, offence: mr.Offence, reason: str = "") -> None:
        """6.2 and TABLE 6: out for 1D5+5 (or 1D5, or 1D10) turns; started in phase 3, it ends at
        the start of phase 3; fear is served after (3.3, CAS PARTICULIER)."""
        turns = mr.expulsion_turns(offence, self.dice, f.name)
        fear = f.conditions.get("afraid")
        if "afraid" in f.conditions:
            f.after["afraid"] = fear.left(self.s.turn) if fear else 0
        self.off(f, "expelled")
        f.conditions.pop("afraid", None)
        f.conditions.pop("held", None)
        end = mr.timer_end(self.s.turn, self.s.phase, turns)
        f.back = Until(turn=end.turn, phase=end.phase)
        f.square = None
        if end.turn < 1:
            self.say(
                N_("{name} is expelled for {turns} turns, past the end of the match{reason}."),
                name=f.label,
                turns=turns,
                reason=f" ({reason})" if reason else "",
            )
        else:
            self.say(
                N_("{name} is expelled for {turns} turns: back at {phase} of turn {turn}{reason}."),
                name=f.label,
                turns=turns,
                phase=Msg(PHASE_TITLES[end.phase]),
                turn=end.turn,
                reason=f" ({reason})" if reason else "",
            )

    def come_back(self, f: Fighter) -> None:
        """6.2, FIN D'EXPULSION: back in the team's side-line zone on the square 1D2 / 1D10."""
        f.where = "zt"
        f.back = None
        f.square = mr.reentry_square(self.dice, f.name)
        self.say(
            N_("{name} comes back from expulsion on the side-line square {row}-{square}."),
            name=f.label,
            row=f.square[0],
            square=f.square[1],
        )
        for condition, turns in f.after.items():
            if turns:
                end = mr.timer_end(self.s.turn, self.s.phase, turns)
                f.conditions[condition] = Until(turn=end.turn, phase=end.phase)
            else:
                f.conditions[condition] = None
            self.say(
                N_("{name} now serves {turns} turns {condition}."),
                name=f.label,
                turns=turns,
                condition=Msg(CONDITION_TITLES[condition]),
            )
        f.after = {}

    # -- time

    def tick(self) -> None:
        """At the start of phase 1 and of phase 3: timed states and expulsions that end now."""
        s = self.s
        for f in sorted(s.fighters.values(), key=lambda f: f.id):
            if f.where == "expelled" and f.back and f.back.moment.reached(s.turn, s.phase):
                self.come_back(f)
            for condition, until in list(f.conditions.items()):
                if until is not None and until.moment.reached(s.turn, s.phase):
                    del f.conditions[condition]
                    self.say(
                        N_("{name} is no longer {condition}."),
                        name=f.label,
                        condition=Msg(CONDITION_TITLES[condition]),
                    )

    def begin_turn(self, hand: Side | None = None) -> None:
        s = self.s
        s.turn -= 1
        if s.turn < 1:
            self.finish()
            return
        s.hand = hand or other(s.hand)
        s.phase = 1
        s.moved = False
        for f in s.fighters.values():
            f.acted = False
            f.waiting = False
        self.say(
            N_("Turn {turn}: {team} has the hand."), turn=s.turn, team=s.team(s.hand).roster.name
        )
        self.tick()
        idle = [
            side
            for side in SIDES
            if (since := s.team(side).idle_since) is not None and since - s.turn >= mr.FORFEIT_TURNS
        ]
        if len(idle) == 2:
            # TABLE 7, case II for both: each would win by the other's forfeit; neither does, and
            # the match goes on to its end (Arbitre's reading, docs/readings.md).
            self.say(N_("Neither team has put anybody on the field for 5 turns: no forfeit."))
        elif idle:
            # TABLE 7, case II: nobody entered within 5 turns, the other team wins.
            self.say(
                N_("{team} has put nobody on the field for 5 turns: forfeit."),
                team=s.team(idle[0]).roster.name,
            )
            s.surrendered = idle[0]
            self.finish()

    def end_movement(self) -> None:
        """End of a movement phase: the sixth gladiator (6.1) and a ball kept in the side-line
        zone (3.3, TABLE 6) are expelled; then the next phase begins."""
        s = self.s
        side = s.moving
        on_field = sorted(
            (f for f in s.fighters.values() if f.side == side and f.where == "field"),
            key=lambda f: f.entered,
        )
        while len(on_field) > mr.MAX_ON_FIELD:
            last = on_field.pop()
            self.say(N_("{name} is the sixth gladiator on the field."), name=last.label)
            self.expel(last, "table6", "")
        carrier = s.carrier
        if carrier is not None and carrier.side == side and carrier.where == "zt":
            s.ball = "basket"
            s.ball_note = ""
            self.say(N_("The ball stayed in the side-line zone: it goes on the basket square."))
            self.expel(carrier, "table6", "")
        if s.phase == 1:
            s.phase = 2
            s.moved = False
        else:
            s.phase = 3
            self.tick()
        self.say(N_("On to {phase} of turn {turn}."), phase=Msg(PHASE_TITLES[s.phase]), turn=s.turn)

    def end_phase3(self) -> None:
        """End of phase 3: a gift point of TABLE 7 case IV is validated now (3.4), then the next
        turn."""
        s = self.s
        if s.gift is not None and s.team(s.gift).case != "IV":
            # 3.4: "Le don d'un point n'est validé qu'à la fin de la PHASE 3": a team out of case
            # IV by then (someone back on the field or able to enter) gives nothing.
            s.gift = None
        if s.gift is not None:
            giver = s.gift
            s.gift = None
            receiver = other(giver)
            s.team(receiver).score += 1
            self.say(
                N_("{giver} gives a point to {team} (badly wounded team): {a} – {b}."),
                giver=s.team(giver).roster.name,
                team=s.team(receiver).roster.name,
                a=s.team("A").score,
                b=s.team("B").score,
            )
            self.reset(receiver, giver)
            return
        self.begin_turn()

    def maybe_end_phase3(self) -> None:
        s = self.s
        if s.stage != "running" or s.phase != 3 or s.pending is not None:
            return
        if not any(
            f.where == "field" and not f.acted and self.can_act(f) for f in s.fighters.values()
        ):
            self.end_phase3()

    # -- scoring (3.4)

    def score(self, side: Side, points: int) -> None:
        s = self.s
        s.team(side).score += points
        self.say(
            N_("Basket for {team}: {points} points. {a} – {b}."),
            team=s.team(side).roster.name,
            points=points,
            a=s.team("A").score,
            b=s.team("B").score,
        )

    def reset(self, first: Side, receiver: Side) -> None:
        """3.4, PANIER OU DON D'UN POINT: the gladiators on the field and the badly wounded go back
        to their coaches and start again normally from their side-line zone (3.3: a state from a
        power on the field ends; one off the field, a fear served in the side-line zone, stays);
        `first` places first, `receiver` second with the ball, the hand and the mandatory-success
        token. "On reprend donc le match à la séquence 9": phase 1 of the same turn, whose box was
        already checked (3.3, GESTION DES TOURS checks the next one only after a phase 3 "si aucun
        panier n'a été marqué")."""
        s = self.s
        for f in s.fighters.values():
            if f.where in ("field", "bg"):
                f.where = "zt"
                f.state = None
                f.active = []
                f.conditions = {}
            f.concentration = 0
        s.armed = []  # 3.4: "Reprenez en main les cartes pouvoir qui ne sont plus actifs"
        s.first = first
        s.gift = None  # the badly wounded are back: a point still owed lapses
        s.token = receiver
        s.ball_note = ""
        s.pending = None
        self.say(
            N_(
                "Back to the side-line zones: {first} places first, {team} gets the ball and the hand."
            ),
            first=s.team(first).roster.name,
            team=s.team(receiver).roster.name,
        )
        self.ball_to(receiver)
        s.phase, s.hand, s.moved = 1, receiver, False
        for f in s.fighters.values():
            f.acted = f.waiting = False
        self.say(N_("The match goes on at phase 1 of turn {turn}."), turn=s.turn)

    def ball_to(self, side: Side) -> None:
        """The ball to give to one of `side`'s gladiators in its side-line zone; 3.4: "Si un
        entraîneur [...] n'a que des gladiateurs expulsés ou en ZT involontaire : alors le ballon
        est placé sur la case de son panier et l'équipe adverse joue seule"."""
        s = self.s
        if any(self.may_receive(f) for f in s.side_fighters(side)):
            s.ball = f"zt:{side}"
            return
        s.ball, s.ball_note = "basket", ""
        self.say(
            N_("{team} has nobody to take the ball: it goes on its basket square."),
            team=s.team(side).roster.name,
        )

    @staticmethod
    def may_receive(f: Fighter) -> bool:
        """Who may be given the ball in the side-line zone: not fleeing, kept off or inert."""
        return f.where == "zt" and not f.has("afraid") and not f.has("held") and not f.inert

    # -- team states (TABLE 7)

    def check_teams(self) -> None:
        s = self.s
        if s.stage != "running":
            return
        cases = {}
        for side in SIDES:
            case = mr.team_case(f.standing(s.turn) for f in s.side_fighters(side))
            team = s.team(side)
            if case != team.case:
                self.say(
                    N_("{team}: case {case}."), team=team.roster.name, case=Msg(CASE_TITLES[case])
                )
            team.case = case
            if case == "II":
                if team.idle_since is None:
                    team.idle_since = s.turn
            else:
                team.idle_since = None
            cases[side] = case
        if cases["A"] == "VI" or cases["B"] == "VI":
            if cases["A"] == cases["B"]:
                self.finish()
            else:
                s.eliminated = "A" if cases["A"] == "VI" else "B"
                self.finish()
            return
        for side in SIDES:
            if cases[side] == "IV" and s.gift is None and cases[other(side)] != "IV":
                s.gift = side

    def finish(self) -> None:
        """3.4: after turn 1, or at once by surrender or elimination; a tournament draw goes to the
        free throws (13.2)."""
        s = self.s
        s.turn = max(s.turn, 1)
        score = (s.team("A").score, s.team("B").score)
        margins = (s.team("A").margin, s.team("B").margin)
        outcomes = rules.result_of(score, margins, s.surrendered or "", s.eliminated or "")
        s.pending = None
        if outcomes == ("drawn", "drawn") and s.tournament:
            s.stage = "free_throws"
            self.say(N_("Draw after 20 turns: free throws decide (13.2)."))
            return
        self.close(outcomes)

    def close(self, outcomes: tuple[str, str]) -> None:
        s = self.s
        s.stage = "finished"
        s.outcomes = outcomes
        self.say(
            N_("End of the match: {a} {sa} – {sb} {b} ({oa} / {ob})."),
            a=s.team("A").roster.name,
            b=s.team("B").roster.name,
            sa=s.team("A").score,
            sb=s.team("B").score,
            oa=Msg(OUTCOME_TITLES[outcomes[0]]),
            ob=Msg(OUTCOME_TITLES[outcomes[1]]),
        )


def make_fighter(side: Side, g: dict[str, Any]) -> Fighter:
    return Fighter(
        id=g["id"],
        side=side,
        number=g["number"],
        name=g["name"],
        characteristics=dict(g["characteristics"]),
        armour=g["armour"],
        gloves=g["gloves"],
        powers=list(g["powers"]),
    )


def roster_of(team: Any) -> Roster:
    """The league's team as the match keeps it (rules.Gladiator -> plain data)."""
    return Roster(
        team=team.id,
        name=team.name,
        coach_name=team.coach_name,
        ranking=team.ranking,
        gladiators=[
            {
                "id": g.id,
                "number": g.number,
                "name": g.name,
                "characteristics": dict(g.characteristics),
                "armour": g.shield,
                "gloves": g.equipment == "gloves",
                "powers": list(g.powers),
                "exp": g.exp,
                "equipment": g.equipment,
                "armour_rolled": g.equipment != "armour" or g.armour is not None,
            }
            for g in sorted(team.gladiators, key=lambda g: g.number)
        ],
    )


# ---------------------------------------------------------------------------- the kind


class KillpowerMatch(GameKind[MatchState]):
    key = "kpb_match"
    title = N_("Killpower Ball match")
    tagline = N_("The referee sheet, live: turns, phases, rolls, timers and the score.")
    roles = ("coach",)
    role_titles: ClassVar[dict[str, str]] = {"coach": N_("coach")}
    standalone = False  # opened from a league only (`KillpowerLeague.linked_game`)
    page_log = 40
    state_model = MatchState
    settings_model = MatchSettings
    commands: TypeAdapter[Any] = TypeAdapter(Command)

    def new_state(self, settings: BaseModel) -> MatchState:
        assert isinstance(settings, MatchSettings)
        state = MatchState(
            league=settings.league,
            mode=settings.mode,
            tournament=settings.tournament,
            cards={c.key: c for c in settings.cards},
        )
        for side, roster in zip(("A", "B"), settings.teams, strict=False):
            state.teams[side] = TeamPlay(roster=roster)
        return state

    def add_person(self, state: MatchState, person: PersonInfo) -> MatchState:
        if person.role != "coach":
            return state
        state = state.model_copy(deep=True)
        for side in SIDES:
            team = state.teams.get(side)
            if team is not None and team.coach is None:
                team.coach = person.id
                break
        return state

    def references(self, state: MatchState) -> Mapping[str, Collection[Any]]:
        return {
            "gladiator": {g["id"] for t in state.teams.values() for g in t.roster.gladiators},
            "power": {"bluff", *state.cards},
        }

    def may_send(self, viewer: Viewer, command: Any) -> bool:
        return viewer.is_staff or viewer.role == "coach"

    def may_enter_dice(
        self, state: MatchState, actor: Viewer, physical: bool
    ) -> Callable[[str | None], bool]:
        """The referee (or the staff) enters any die. With physical dice, a self-refereeing coach
        enters their own side's (the rolls of their gladiators); the other side's and the
        referee's (TABLE 4, an expulsion's length, who places first) are Arbitre's to roll."""
        if actor.is_staff:
            return lambda owner: True
        side = self.side_of(state, actor) if physical else None
        return lambda owner: side is not None and owner == side

    @staticmethod
    def side_of(state: MatchState, viewer: Viewer) -> Side | None:
        if viewer.role != "coach":
            return None
        for side in SIDES:
            team = state.teams.get(side)
            if team is not None and team.coach == viewer.person_id:
                return side
        return None

    def apply(self, state: MatchState, command: Any, ctx: Context) -> Done[MatchState]:
        state = state.model_copy(deep=True)
        side = self.side_of(state, ctx.actor)
        if ctx.actor.role == "coach":
            if side is None:
                raise NotAllowed(N_("This phone is not a coach of this match."))
            if state.mode == "referee" and not isinstance(command, Lineup):
                raise NotAllowed(N_("The referee holds the sheet: tell them what you do."))
        play = Play(state, ctx, side)
        if state.pending is not None and not isinstance(command, Answer):
            raise RuleError(
                N_("First, {team} answers: {question}."),
                team=state.team(state.pending.side).roster.name,
                question=Msg(PENDING_TITLES[state.pending.kind]),
            )
        getattr(self, f"_{command.type}")(play, command)
        play.check_teams()
        play.maybe_end_phase3()
        play.check_teams()  # a new turn may have brought gladiators back (or not)
        if not play.public:
            play.say(N_("Done."))
        result: dict[str, Any] = {
            "private": {k: [m.to_json() for m in v] for k, v in play.private.items() if v}
        }
        result["coaches"] = {k: t.coach for k, t in state.teams.items()}
        if state.stage == "finished":
            result["finished"] = True
        return Done(state, joined(play.public), result)

    # -- preparation (3.2)

    def _lineup(self, p: Play, c: Lineup) -> None:
        s = p.s
        if s.stage != "lineup":
            raise RuleError(N_("The lineups are given before the match only."))
        side = p.side or c.side
        if side is None:
            raise RuleError(N_("Say which team this lineup is for."), field="side")
        team = s.team(side)
        if team.ready:
            # 3.2: announced, then RAP rolled: a second lineup would choose among rolled RAPs.
            raise RuleError(
                N_("{team} has given its lineup: an undo by the referee may change it."),
                field="gladiators",
                team=team.roster.name,
            )
        roster = {g["id"]: g for g in team.roster.gladiators}
        if len(set(c.gladiators)) != len(c.gladiators):
            raise RuleError(N_("A gladiator is listed twice."), field="gladiators")
        for gid in c.gladiators:
            g = roster.get(gid)
            if g is None:
                raise RuleError(
                    N_("Gladiator {gladiator} is not in {team}."),
                    field="gladiators",
                    gladiator=gid,
                    team=team.roster.name,
                )
            if g["equipment"] is None:
                # 3.4: "Sans équipement magique, un gladiateur ne peut pas jouer."
                raise RuleError(
                    N_("{name} has no magic equipment and cannot play."),
                    field="gladiators",
                    name=g["name"],
                )
            if not g["armour_rolled"]:
                raise RuleError(
                    N_("{name}'s magic armour is not rolled yet."),
                    field="gladiators",
                    name=g["name"],
                )
        if not s.tournament and c.bluff > mr.BLUFF_CARDS[1]:
            raise RuleError(
                N_("A championship match takes 1 to 3 bluff cards (3.2)."), field="bluff"
            )
        team.lineup = sorted(c.gladiators, key=lambda gid: roster[gid]["number"])
        team.bluff = c.bluff
        team.ready = True
        for gid in team.lineup:
            # 3.2: "Faites tirer la RAP des gladiateurs en cachant le résultat à l'adversaire":
            # each coach rolls their own (or enters it, with physical dice), with their lineup.
            if str(gid) not in team.raps:
                label = f"{roster[gid]['name']} (#{roster[gid]['number']})"
                team.raps[str(gid)] = mr.rap(p.dice, roster[gid]["name"], side)
                p.tell(side, N_("RAP of {name}: {rap}."), name=label, rap=team.raps[str(gid)])
        p.say(N_("{team} has given its lineup."), team=team.roster.name)
        if all(t.ready for t in s.teams.values()) and len(s.teams) == 2:
            self._prepare(p)

    def _prepare(self, p: Play) -> None:
        """Sequences 1 to 8: RAP rolled in secret, powers and margins (TABLE 2, TABLE 3),
        placement, ball, hand and mandatory-success token by the tie-breaks of 3.2."""
        s = p.s
        raps = {}
        for side in SIDES:
            team = s.team(side)
            roster = {g["id"]: g for g in team.roster.gladiators}
            chosen = [roster[gid] for gid in team.lineup]
            for g in chosen:
                f = make_fighter(side, g)
                f.rap = team.raps[str(f.id)]
                s.fighters[str(f.id)] = f
            power = rules.team_power(team.roster.ranking, [g["exp"] for g in chosen])
            team.power, team.exp = power.power, power.exp
            raps[side] = sum(s.fighters[str(g["id"])].rap for g in chosen)
        a, b = s.team("A"), s.team("B")
        a.margin, b.margin = rules.targets(a.power, b.power)
        kick = mr.kickoff(
            (a.power, b.power),
            (a.exp, b.exp),
            (raps["A"], raps["B"]),
            p.dice,
            tournament=s.tournament,
        )
        s.first, s.hand, s.token = kick.first, kick.hand, kick.token
        s.kickoff_reason = kick.reason
        s.ball = f"zt:{kick.ball}" if kick.ball else "center"
        s.stage, s.turn, s.phase = "running", mr.TURNS, 1
        for team in (a, b):
            team.idle_since = mr.TURNS
        p.say(
            N_("Powers: {a} {pa}, {b} {pb}. To win, {a} must score {ma} more, {b} {mb} more."),
            a=a.roster.name,
            b=b.roster.name,
            pa=a.power,
            pb=b.power,
            ma=a.margin,
            mb=b.margin,
        )
        p.say(
            N_("{first} places first; {hand} has the hand and the mandatory-success token."),
            first=s.team(s.first).roster.name,
            hand=s.team(s.hand).roster.name,
        )
        if kick.ball is None:
            p.say(N_("Tied on power, EXP and RAP: the ball is put on H14."))
        p.say(N_("Turn 20, phase 1."))

    def _give_ball(self, p: Play, c: GiveBall) -> None:
        f = p.own(c.gladiator)
        if p.s.ball != f"zt:{f.side}":
            raise RuleError(N_("Your team has no ball to give."), field="gladiator")
        if f.where != "zt":
            raise RuleError(
                N_("{name} is not in the side-line zone."), field="gladiator", name=f.label
            )
        if not p.may_receive(f):
            # 5.1: fleeing, kept off or inert, nobody can take the ball.
            raise RuleError(N_("{name} cannot take the ball now."), field="gladiator", name=f.label)
        p.s.ball = f"f:{f.id}"
        p.say(N_("{name} holds the ball."), name=f.label)

    # -- movement phases (5, TABLE 10)

    def _enter(self, p: Play, c: Enter) -> None:
        s = p.s
        f = p.own(c.gladiator)
        if s.stage != "running" or s.phase == 3 or f.side != s.moving:
            raise Refused(
                N_("{name} moves in their team's movement phase only."),
                field="gladiator",
                name=f.label,
            )
        if c.type == "enter":
            if f.where != "zt":
                raise Refused(
                    N_("{name} is not in the side-line zone."), field="gladiator", name=f.label
                )
            if f.has("afraid") or f.has("held") or f.inert:
                # 6.3: an impossible error is cancelled (a fleeing gladiator cannot enter).
                raise Refused(
                    N_("{name} cannot enter the field now."), field="gladiator", name=f.label
                )
            s.entries += 1
            f.where, f.entered = "field", s.entries
            p.say(N_("{name} enters the field."), name=f.label)
        else:
            if f.where != "field":
                raise Refused(N_("{name} is not on the field."), field="gladiator", name=f.label)
            f.where = "zt"
            f.concentration = 0
            p.say(N_("{name} goes back to the side-line zone."), name=f.label)
        s.moved = True

    def _leave(self, p: Play, c: Enter) -> None:
        self._enter(p, c)

    def _end_phase(self, p: Play, c: EndPhase) -> None:
        s = p.s
        if s.stage != "running":
            raise RuleError(N_("The match is not being played."))
        if s.phase in (1, 2):
            if p.side is not None and p.side != s.moving:
                raise NotAllowed(N_("The other team is moving."))
            if s.ball == f"zt:{s.moving}":
                if any(p.may_receive(f) for f in s.side_fighters(s.moving)):
                    raise RuleError(
                        N_("Give the ball to one of your gladiators first."), field="gladiator"
                    )
                p.ball_to(s.moving)  # nobody left to take it since (3.4): on the basket square
            p.end_movement()
            return
        side = p.side or c.side
        sides = [side] if side else ["A", "B"]
        for f in s.fighters.values():
            if f.side in sides and f.where == "field" and not f.acted:
                f.acted, f.waiting = True, False
        p.say(
            N_("{team}: the gladiators left do nothing this phase."),
            team=s.team(side).roster.name if side else "—",
        )

    # -- phase 3 without a roll

    def _act(self, p: Play, c: Act) -> None:
        s = p.s
        f = p.own(c.gladiator)
        if s.phase != 3:
            raise Refused(N_("This is done in phase 3."), field="gladiator")
        p.ready_to_act(f)
        if f.has("on_ground") and c.action not in ("stand", "pass"):
            raise Refused(
                N_("{name} is on the ground: standing up costs the action."),
                field="gladiator",
                name=f.label,
            )
        if c.action == "wait":
            f.waiting = True
            p.say(N_("{name} waits."), name=f.label)
            return
        if c.action == "stand":
            if not f.has("on_ground"):
                raise Refused(N_("{name} is not on the ground."), field="gladiator", name=f.label)
            del f.conditions["on_ground"]
            p.say(N_("{name} stands up."), name=f.label)
        elif c.action == "sprint":
            if f.has("immobile") or f.has("blind"):
                raise Refused(N_("{name} cannot sprint."), field="gladiator", name=f.label)
            p.say(N_("{name} sprints."), name=f.label)  # 5.2
        elif c.action == "concentrate":
            # 7, CONCENTRATION: +1 BAL per turn, at most +4; an immobile target meanwhile.
            f.concentration = min(mr.MAX_CONCENTRATION, f.concentration + 1)
            p.say(N_("{name} concentrates (+{bonus})."), name=f.label, bonus=f.concentration)
            p.spend(f)
            return
        else:
            p.say(N_("{name} does nothing."), name=f.label)
        f.concentration = 0
        p.spend(f)

    # -- the ball (7, TABLE 9)

    def _carrier(self, p: Play, gladiator: int) -> Fighter:
        f = p.own(gladiator)
        if p.s.carrier is not f:
            raise Refused(N_("{name} does not hold the ball."), field="gladiator", name=f.label)
        p.ready_to_act(f)
        if f.has("on_ground"):
            raise Refused(N_("{name} is on the ground."), field="gladiator", name=f.label)
        return f

    def _shot(self, p: Play, c: Shot) -> None:
        s = p.s
        f = self._carrier(p, c.gladiator)
        concentration, f.concentration = f.concentration, 0
        p.spend(f)
        scorer = other(f.side) if c.own else f.side
        if c.near:
            # 7, SUR LA CASE DU PANIER: 1 point, no roll, nobody can prevent it.
            p.say(N_("{name} scores from the basket's reach."), name=f.label)
            self._basket(p, scorer, 1, own=c.own)
            return
        bal = f.characteristics["BAL"]
        needed = mr.shot_needed(bal, c.distance, concentration, blind=c.blind or f.has("blind"))
        die, ok = p.roll(f, "shot", needed, c.token)
        if ok and (c.blind or f.has("blind")) and not c.token:
            ok = (
                p.dice.roll(10, f"blind basket of {f.name}", owner=f.side) == 1
            )  # 9.F: then 1 on 1D10
            if not ok:
                s.ball, s.ball_note = "basket", ""
                p.say(N_("{name}'s blind shot lands on the basket square."), name=f.label)
                return
        if ok and c.other_half:
            s.ball, s.ball_note = "basket", ""
            p.say(
                N_(
                    "{name} scores from the other half: refused, the ball is put on the basket square."
                ),
                name=f.label,
            )
            return
        if ok:
            points = mr.basket_value(c.distance, token=c.token)
            p.say(
                N_("{name} shoots from {distance} squares: {die}, in!"),
                name=f.label,
                distance=c.distance,
                die=die,
            )
            self._fly(p, f, {"kind": "shot", "scorer": scorer, "points": points, "own": c.own})
            return
        self._miss(p, f, die, needed, N_("the basket"))

    def _miss(self, p: Play, f: Fighter, die: int, needed: int, aimed: str) -> None:
        """TABLE 9.E: (die - needed) squares from the target, in a TABLE 4 direction."""
        s = p.s
        away = max(1, die - needed)
        way = mr.direction(p.dice)
        s.ball = "ground"
        s.ball_note = f"{away} {mr.DIRECTIONS[way]} ({way})"
        p.say(
            N_(
                "{name} misses ({die}): the ball lands {away} squares from {aimed}, direction {way} {arrow}."
            ),
            name=f.label,
            die=die,
            away=away,
            aimed=Msg(aimed),
            way=way,
            arrow=mr.DIRECTIONS[way],
        )
        self._fly(p, f, {"kind": "loose"})

    def _fly(self, p: Play, thrower: Fighter, data: dict[str, Any]) -> None:
        """7, ATTRAPER LE BALLON: after the thrower's roll, the other team says whether a
        gladiator whose action zone the ball crosses tries to intercept it."""
        s = p.s
        if data["kind"] != "loose":
            s.ball = "air"
        side = other(thrower.side)
        if self._interceptors(s, side):
            s.pending = Pending(kind="intercept", side=side, data={**data, "thrower": thrower.id})
            p.say(N_("{team} may try to intercept."), team=s.team(side).roster.name)
        else:
            self._land(p, data)

    @staticmethod
    def _interceptors(s: MatchState, side: Side) -> list[Fighter]:
        return [
            f
            for f in s.side_fighters(side)
            if f.where == "field" and not f.acted and Play.can_act(f) and not f.has("on_ground")
        ]

    def _land(self, p: Play, data: dict[str, Any]) -> None:
        s = p.s
        if data["kind"] == "shot":
            self._basket(p, data["scorer"], data["points"], own=data["own"])
        elif data["kind"] == "pass" and data.get("to"):
            to = s.fighter(data["to"])
            if to.where == "field" and not to.inert:
                s.ball, s.ball_note = f"f:{to.id}", ""
                p.say(N_("{name} catches the ball."), name=to.label)
            else:
                s.ball = "ground"
                p.say(N_("The ball falls next to {name}."), name=to.label)
        elif data["kind"] == "pass":
            s.ball, s.ball_note = "ground", ""
            p.say(N_("The ball lands on the aimed square."))

    def _basket(self, p: Play, scorer: Side, points: int, *, own: bool) -> None:
        """`scorer` gets the points. 3.4: the team that put the ball in a basket places first;
        after an own basket (7, TIRER DANS UN PANIER) "la balle revient à l'équipe adverse, même
        si elle se place en second": the shooter's team places first, the scorer gets the ball."""
        p.score(scorer, points)
        if own:
            p.reset(other(scorer), scorer)
        else:
            p.reset(scorer, other(scorer))

    def _throw(self, p: Play, c: Throw) -> None:
        s = p.s
        f = self._carrier(p, c.gladiator)
        if c.to is not None:
            to = s.fighter(c.to)
            if to.side != f.side or to.id == f.id:
                raise Refused(N_("A pass goes to a friend."), field="to")
        f.concentration = 0
        p.spend(f)
        needed = mr.throw_needed(
            f.characteristics["BAL"], c.distance, blind=c.blind or f.has("blind")
        )
        die, ok = p.roll(f, "throw", needed, c.token)
        if ok:
            p.say(
                N_("{name} throws {distance} squares: {die}, on target."),
                name=f.label,
                distance=c.distance,
                die=die,
            )
            self._fly(p, f, {"kind": "pass", "to": c.to})
        else:
            self._miss(p, f, die, needed, N_("the aimed square"))

    def _handoff(self, p: Play, c: Handoff) -> None:
        s = p.s
        f = p.own(c.gladiator)
        if s.carrier is not f:
            raise Refused(N_("{name} does not hold the ball."), field="gladiator", name=f.label)
        to = s.fighter(c.to)
        if to.side != f.side or to.id == f.id or to.where != "field" or to.inert:
            raise Refused(N_("The ball is handed to a friend on the field."), field="to")
        # 7: the passer lets go (0A) and the receiver takes it (1A); reaching out costs the passer.
        taker = f if c.reach else to
        p.ready_to_act(taker, phase3_order=False)
        p.spend(taker)
        s.ball = f"f:{to.id}"
        p.say(N_("{name} hands the ball to {to}."), name=f.label, to=to.label)

    def _take(self, p: Play, c: Take) -> None:
        s = p.s
        f = p.own(c.gladiator)
        carrier = s.carrier
        if carrier is None or carrier.side == f.side or carrier.where != "field":
            raise Refused(N_("No enemy holds the ball on the field."), field="gladiator")
        p.ready_to_act(f)
        f.concentration = 0
        p.spend(f)
        die, ok = p.roll(f, "take", f.characteristics["BAL"], c.token)
        if not ok:
            p.say(N_("{name} fails to take the ball ({die})."), name=f.label, die=die)
            return
        p.say(
            N_("{name} grabs the ball from {carrier} ({die})."),
            name=f.label,
            carrier=carrier.label,
            die=die,
        )
        if not carrier.acted and Play.can_act(carrier):
            s.pending = Pending(kind="resist", side=carrier.side, data={"taker": f.id})
        else:
            s.ball = f"f:{f.id}"

    def _pick(self, p: Play, c: Pick) -> None:
        s = p.s
        f = p.own(c.gladiator)
        if c.type == "drop":
            if s.carrier is not f:
                raise Refused(N_("{name} does not hold the ball."), field="gladiator", name=f.label)
            if c.zone:  # 1A to a square of the action zone, 0A on one's own square
                p.ready_to_act(f, phase3_order=False)
                p.spend(f)
            s.ball, s.ball_note = "ground", ""
            p.say(N_("{name} puts the ball down."), name=f.label)
            return
        if s.ball not in ("ground", "basket", "center"):
            raise Refused(N_("The ball is not on the ground."), field="gladiator")
        if not (s.phase in (1, 2) and f.side != s.moving):
            p.ready_to_act(f)  # TABLE 10: the team that is not moving may pick the ball up too
        if f.where != "field" or f.acted or not Play.can_act(f) or f.has("on_ground"):
            raise Refused(
                N_("{name} cannot pick the ball up now."), field="gladiator", name=f.label
            )
        f.concentration = 0
        p.spend(f)
        s.ball, s.ball_note = f"f:{f.id}", ""
        p.say(N_("{name} picks the ball up."), name=f.label)

    def _drop(self, p: Play, c: Pick) -> None:
        self._pick(p, c)

    # -- combat (8, 9)

    def _attack(self, p: Play, c: Attack) -> None:
        s = p.s
        if s.phase != 3:
            raise Refused(N_("Combat happens in phase 3."), field="attackers")
        attackers = [p.own(a) for a in dict.fromkeys(c.attackers)]
        target = s.fighter(c.target)
        group = len(attackers) > 1
        if group and c.token:
            raise RuleError(
                N_("No mandatory-success token in a group attack (8.2)."), field="token"
            )
        if group and any(a.side != attackers[0].side for a in attackers):
            raise Refused(N_("A group attack is made by one team."), field="attackers")
        for a in attackers:
            # 6.3: a blow that cannot be given (its action spent, not its turn) is cancelled,
            # never punished; only then TABLE 6 applies.
            p.ready_to_act(a, phase3_order=not group, anywhere=True)
        offenders = [a for a in attackers if a.has("on_ground") or a.where == "zt"]
        if target.where == "zt" and any(a.where == "field" for a in attackers):
            # TABLE 6: "Combattre [...] sur la ou les ZT, tout en étant sur le terrain".
            offenders = [*offenders, *(a for a in attackers if a.where == "field")]
        if offenders:
            # TABLE 6: "Combattre [...] alors que vous êtes à terre", "sur le terrain alors que
            # vous êtes dans la ZT": 1D5+5 turns; 6.2, the blow is ignored.
            for a in {a.id: a for a in offenders}.values():
                p.say(N_("{name} fights from the ground or across the side line."), name=a.label)
                p.expel(a, "table6", "")
            return
        located = c.located or c.location is not None
        if located and (not target.inert or c.location is None):
            raise RuleError(
                N_("Choose the location of a blow on an inert target (8.4), and only then."),
                field="location",
            )
        due = p.next_actor()
        for a in attackers:
            if group and p.both_teams_act() and not a.waiting and (due is None or due.id != a.id):
                raise Refused(
                    N_(
                        "A group attack acts at the RAP of its slowest member: {name} must wait until then."
                    ),
                    field="attackers",
                    name=a.label,
                )
            p.ready_to_act(a, phase3_order=not group)
        if target.where != "field":
            raise Refused(N_("{name} is not on the field."), field="target", name=target.label)
        if target in attackers:
            # 8.4, AUTOMUTILATION: the blow always lands, is ignored, and the gladiator is expelled.
            p.spend(target)
            p.say(N_("{name} hits themself."), name=target.label)
            p.expel(target, "table6", "")
            return
        for a in attackers:
            a.concentration = 0
            p.spend(a)
        names = ", ".join(a.label for a in attackers)
        if c.token:
            p.use_token(attackers[0].side)
            hits = attackers
            p.say(
                N_("{names} hits {target} with the mandatory-success token."),
                names=names,
                target=target.label,
            )
        else:
            die = p.dice.roll(10, f"attack on {target.name}", owner=attackers[0].side)
            hits = []
            for a in attackers:
                needed = mr.hit_needed(
                    a.characteristics["PHY"],
                    inert=target.inert,
                    located=located,
                    blind=a.has("blind"),
                )
                p.tell(
                    a.side,
                    N_("{name}: {die} for {needed} or less."),
                    name=a.label,
                    die=die,
                    needed=needed,
                )
                if mr.succeeds(die, needed):
                    hits.append(a)
            if hits:
                p.say_counted(
                    P_(
                        "Attack of {names} on {target}: the die shows {die}, {hits} blow lands.",
                        "Attack of {names} on {target}: the die shows {die}, {hits} blows land.",
                    ),
                    "hits",
                    names=names,
                    target=target.label,
                    die=die,
                    hits=len(hits),
                )
            else:
                p.say(
                    N_("Attack of {names} on {target}: the die shows {die}, no blow lands."),
                    names=names,
                    target=target.label,
                    die=die,
                )
        if not hits:
            return
        data: dict[str, Any] = {"hits": [a.id for a in hits], "target": target.id, "group": group}
        evader = (
            not target.inert
            and not target.acted
            and not target.has("afraid")
            and not target.has("blind")
        )
        if evader:
            s.pending = Pending(kind="evade", side=target.side, data=data)
            p.say(N_("{target} may use their action to evade."), target=target.label)
        else:
            self._damage(p, hits, target, c.location if located else None)

    def _damage(
        self, p: Play, hits: list[Fighter], target: Fighter, location: str | None = None
    ) -> None:
        """TABLE 1 and 8.3: PHY of every attacker who hit, + 1D10 for each one with gloves."""
        damage = 0
        for a in hits:
            damage += a.characteristics["PHY"]
            if a.gloves:
                damage += p.dice.roll(10, f"gloves of {a.name}", owner=a.side)
        result = mr.damage_state(target.characteristics["VIE"], target.armour, damage)
        self._wound(p, target, damage, result, location)

    def _wound(
        self, p: Play, target: Fighter, damage: int, result: int, location: str | None = None
    ) -> None:
        outcome = mr.wound(result)
        p.tell(
            target.side,
            N_("{name}: (VIE + armour) - damage = {result}."),
            name=target.label,
            result=result,
        )
        if outcome == "unhurt":
            p.say(
                N_("{target} takes {damage} damage: no effect."), target=target.label, damage=damage
            )
        elif outcome == "badly_wounded":
            p.say(
                N_("{target} takes {damage} damage: badly wounded, off until the next basket."),
                target=target.label,
                damage=damage,
            )
            p.off(target, "bg", result)
        else:
            p.say(
                N_("{target} takes {damage} damage: coma, off for the match with a risk of death."),
                target=target.label,
                damage=damage,
            )
            p.off(target, "coma", result)
            # 8.4: a blow on a chosen location needs no location die at the end (TABLE 8).
            target.location = location
            if location:
                p.say(
                    N_("The blow was aimed at: {location}."),
                    location=Msg(LOCATION_TITLES[location]),
                )

    def _answer(self, p: Play, c: Answer) -> None:
        s = p.s
        pending = s.pending
        if pending is None:
            raise RuleError(N_("Nothing to answer."))
        if p.side is not None and p.side != pending.side:
            raise NotAllowed(N_("The other team answers this."))
        data = pending.data
        if c.token and (not c.yes or (pending.kind == "evade" and data.get("group"))):
            # 8.2: no mandatory-success token in a group attack, "même pour la cible".
            raise RuleError(
                N_("The token makes an action succeed: here there is none."), field="token"
            )
        if pending.kind == "evade":
            target = s.fighter(data["target"])
            hits = [s.fighter(h) for h in data["hits"]]
            s.pending = None
            if c.yes:
                # 8.1: the target spends its action on a PHY roll; in a group, one blow only (8.2).
                target.acted, target.waiting = True, False
                die, ok = p.roll(target, "evade", target.characteristics["PHY"], c.token)
                if ok:
                    dodged = next((h for h in hits if h.id == c.gladiator), None) or max(
                        hits, key=lambda h: h.characteristics["PHY"]
                    )
                    hits.remove(dodged)
                    p.say(
                        N_("{target} evades {name}'s blow ({die})."),
                        target=target.label,
                        name=dodged.label,
                        die=die,
                    )
                else:
                    p.say(N_("{target} fails to evade ({die})."), target=target.label, die=die)
            if hits:
                self._damage(p, hits, target)
        elif pending.kind == "intercept":
            if not c.yes or c.gladiator is None:
                s.pending = None
                p.say(N_("{team} lets the ball go."), team=s.team(pending.side).roster.name)
                self._land(p, data)
                return
            g = s.fighter(c.gladiator)
            if g not in self._interceptors(s, pending.side):
                raise Refused(N_("{name} cannot intercept now."), field="gladiator", name=g.label)
            g.concentration = 0
            g.acted, g.waiting = True, False
            # 9.C; 3.2: the token may make it ("intercepter le ballon").
            die, ok = p.roll(g, "interception", g.characteristics["BAL"], c.token)
            if ok:
                s.pending = None
                s.ball, s.ball_note = f"f:{g.id}", ""
                p.say(N_("{name} intercepts the ball ({die})!"), name=g.label, die=die)
            else:
                p.say(N_("{name} misses the interception ({die})."), name=g.label, die=die)
                if not self._interceptors(s, pending.side):
                    s.pending = None
                    self._land(p, data)
        else:
            taker = s.fighter(data["taker"])
            carrier = s.carrier
            s.pending = None
            if c.yes and carrier is not None:
                carrier.acted, carrier.waiting = True, False
                die, ok = p.roll(carrier, "resist", carrier.characteristics["BAL"], c.token)  # 9.D
                if ok:
                    p.say(N_("{name} keeps the ball ({die})."), name=carrier.label, die=die)
                    return
                p.say(N_("{name} fails to keep the ball ({die})."), name=carrier.label, die=die)
            s.ball, s.ball_note = f"f:{taker.id}", ""
            p.say(N_("{name} has the ball."), name=taker.label)

    # -- what a referee (or both self-refereeing coaches) records

    def _hurt(self, p: Play, c: Hurt) -> None:
        f = p.s.fighter(c.gladiator)
        if f.where != "field":
            raise Refused(N_("{name} is not on the field."), field="gladiator", name=f.label)
        result = mr.damage_state(
            f.characteristics["VIE"], f.armour, c.points, wound_points=c.wound_points
        )
        self._wound(p, f, c.points, result)

    def _condition(self, p: Play, c: SetCondition) -> None:
        s = p.s
        f = s.fighter(c.gladiator)
        title = Msg(CONDITION_TITLES[c.condition])
        if c.clear:
            if c.condition not in f.conditions:
                raise RuleError(
                    N_("{name} is not {condition}."),
                    field="condition",
                    name=f.label,
                    condition=title,
                )
            del f.conditions[c.condition]
            p.say(N_("{name} is no longer {condition}."), name=f.label, condition=title)
            return
        if f.where in ("dead", "coma"):
            raise Refused(N_("{name} is out of the match."), field="gladiator", name=f.label)
        until = None
        if c.turns:
            end = mr.timer_end(s.turn, s.phase, c.turns)
            until = Until(turn=end.turn, phase=end.phase)
        if f.where == "expelled" and c.condition == "afraid":
            f.after["afraid"] = c.turns  # 3.3: served after the expulsion
        else:
            f.conditions[c.condition] = until
        if c.condition in INERT or c.condition == "on_ground":
            p.drop_ball(f)  # 5.1 and 10: an inert or fallen gladiator lets the ball go
            f.concentration = 0
        if c.condition in INERT:
            f.active = [
                k for k in f.active if s.cards.get(k) and s.cards[k].activation.kind == "automatic"
            ]
        if until is None:
            p.say(N_("{name} is {condition}."), name=f.label, condition=title)
        else:
            p.say(
                N_("{name} is {condition} for {turns} turns, until {phase} of turn {turn}."),
                name=f.label,
                condition=title,
                turns=c.turns,
                phase=Msg(PHASE_TITLES[until.phase]),
                turn=until.turn,
            )

    def _expel(self, p: Play, c: Expel) -> None:
        f = p.s.fighter(c.gladiator)
        if f.where not in ("field", "zt"):
            raise Refused(N_("{name} is not in play."), field="gladiator", name=f.label)
        p.expel(f, c.offence, c.reason.strip())

    def _reentry(self, p: Play, c: Reentry) -> None:
        f = p.own(c.gladiator)
        if f.where != "zt" or f.square is None:
            raise RuleError(
                N_("{name} is not coming back from an expulsion."), field="gladiator", name=f.label
            )
        if c.outcome == "taken":
            f.square = mr.reentry_square(p.dice, f.name)
            p.say(
                N_("Square taken: {name} comes back on {row}-{square}."),
                name=f.label,
                row=f.square[0],
                square=f.square[1],
            )
        else:
            p.say(N_("No room in the side-line zone for {name}."), name=f.label)
            p.expel(f, "again")

    def _power(self, p: Play, c: UsePower) -> None:
        """4.2 to 4.4: a card placed face down; a real one rolls its activation, counts its uses
        and, once activated, has its underlined part read to the other coach; a bluff does
        nothing. The other coach sees the same either way: the same sentence, one activation die
        each (secret, whatever the card), the same timing for what it passes for, and a bluff
        stays on the table like a power that works (4.4: "en la plaçant face cachée")."""
        s = p.s
        f = p.own(c.gladiator)
        if s.stage != "running":
            raise RuleError(N_("The match is not being played."))
        if c.deactivate:
            if c.card not in f.active:
                raise RuleError(N_("This card is not on the table."), field="card")
            f.active.remove(c.card)
            p.say(N_("{name} takes a power card back."), name=f.label)
            return
        if f.where not in ("field", "zt"):
            raise Refused(N_("{name} is not on the field."), field="gladiator", name=f.label)
        if f.inert:
            raise Refused(N_("{name} is inert and cannot act."), field="gladiator", name=f.label)
        bluff = c.card == "bluff"
        card = s.cards.get(c.card)
        if bluff:
            down = sum(g.active.count("bluff") for g in s.side_fighters(f.side))
            if down >= s.team(f.side).bluff:
                raise RuleError(N_("Your team has no bluff card left in hand."), field="card")
            cost, automatic = int(c.bluff_as == "1A"), c.bluff_as == "automatic"
        else:
            if card is None or c.card not in f.powers:
                raise RuleError(N_("{name} does not hold this power."), field="card", name=f.label)
            if card.uses is not None and f.uses.get(card.key, 0) >= card.uses:
                raise RuleError(
                    N_("“{power}” has no use left in this match."), field="card", power=card.name
                )
            if c.card in f.active:
                raise RuleError(N_("This card is already on the table."), field="card")
            cost, automatic = card.activation.cost, card.activation.kind == "automatic"
        if (f.where == "zt" or f.has("on_ground")) and not automatic:
            # TABLE 6: "Faire des pouvoirs dans la ZT", "activer des pouvoirs alors que vous êtes
            # à terre": 1D5+5 turns, the power ignored (6.2); an automatic power works (notes 2,
            # 3). A bluff is put down and punished the same: it must look the same.
            p.say(N_("{name} places a power card face down."), name=f.label)
            p.say(N_("{name} uses a power from the ground or the side-line zone."), name=f.label)
            p.expel(f, "table6", "")
            return
        if cost:
            if s.phase != 3:
                raise Refused(
                    N_("A power that costs an action is activated in phase 3."), field="card"
                )
            p.ready_to_act(f)
            f.concentration = 0
            p.spend(f)
        p.say(N_("{name} places a power card face down."), name=f.label)
        die = p.dice.roll(10, f"activation of {f.name}", owner=f.side, secret=True)
        if bluff:
            if c.bluff_stays:  # passing for a power that worked; else for one that failed
                f.active.append("bluff")
            p.tell(f.side, N_("It is a bluff: nothing happens."))
            return
        assert card is not None
        ok = True
        if card.activation.characteristic:
            needed = f.characteristics[card.activation.characteristic]
            ok = mr.succeeds(die, needed)
            p.tell(
                f.side,
                N_("“{power}”: {die} for {needed} or less: {result}."),
                power=card.name,
                die=die,
                needed=needed,
                result=Msg(N_("activated") if ok else N_("not activated")),
            )
        else:
            p.tell(f.side, N_("“{power}” is on the table."), power=card.name)
        if not ok:
            return
        f.uses[card.key] = f.uses.get(card.key, 0) + 1
        # 4.2: "Un pouvoir actif ou activé doit être posé sur la table face cachée".
        f.active.append(card.key)
        if card.read_when:
            # 4.3: "on ne dira rien à l'adversaire tant que [...]": armed, read at its moment.
            s.armed.append(Armed(side=f.side, fighter=f.id, card=card.key, turn=s.turn))
            p.tell(
                f.side, N_("“{power}” waits: read it {when}."), power=card.name, when=card.read_when
            )
        elif card.read_aloud:
            self._read(p, f, card.read_aloud)

    @staticmethod
    def _read(p: Play, f: Fighter, text: str) -> None:
        """4.3: the underlined part, read to the other coach (the card's name stays hidden)."""
        p.s.reveals.append(Reveal(side=f.side, fighter=f.id, text=text, turn=p.s.turn))
        p.say(N_("Read to the other coach: “{text}”"), text=text)

    def _trigger(self, p: Play, c: Trigger) -> None:
        """4.3, Rayon laser: once its condition happens, the underlined part is read "à condition
        qu'il ait raté son jet de résistance, sinon il ne se passera rien"."""
        s = p.s
        f = p.own(c.gladiator)
        armed = next((a for a in s.armed if a.fighter == f.id and a.card == c.card), None)
        if armed is None:
            raise RuleError(
                N_("No power of {name} waits for its moment."), field="card", name=f.label
            )
        card = s.cards[c.card]
        if card.resistance and c.target is None:
            raise RuleError(N_("Say whom the power strikes: they may resist."), field="target")
        s.armed.remove(armed)
        if c.card in f.active:
            f.active.remove(c.card)  # read (or resisted): the card goes back to its coach
        p.say(N_("The moment of {name}'s power has come."), name=f.label)
        if card.resistance and c.target is not None:
            target = s.fighter(c.target)
            value = target.characteristics[card.resistance]
            if target.has("afraid") and card.resistance == "POU":
                value = mr.divided(value, 2)  # 5.1: a fleeing gladiator resists at POU / 2
            if not (target.inert and card.resistance == "POU"):  # 5.1: an inert one cannot
                die = p.dice.roll(10, f"resistance of {target.name}", owner=target.side)
                if mr.succeeds(die, value):
                    p.say(
                        N_("{name} resists ({die}): nothing happens."), name=target.label, die=die
                    )
                    return
                p.say(N_("{name} fails to resist ({die})."), name=target.label, die=die)
        self._read(p, f, card.read_aloud)

    def _check(self, p: Play, c: Check) -> None:
        f = p.own(c.gladiator)
        if f.inert and c.characteristic == "POU":
            # 5.1, GUERRIER INERTE: "Il ne peut pas résister par des jets de POU (0A)".
            raise Refused(N_("{name} is inert and cannot resist."), field="gladiator", name=f.label)
        value = f.characteristics[c.characteristic]
        if c.characteristic == "HAB":
            value = mr.divided(value, c.zones)  # 5.1: HAB / number of enemy action zones
        if f.has("afraid") and c.characteristic == "POU":
            value = mr.divided(value, 2)  # 5.1: a fleeing gladiator resists at POU / 2
        if c.action and c.resist:
            # TABLE 10, HORS PHASE: a resistance costing 1A "sera fait immédiatement", in any
            # phase, whoever moves; 3.3: the RAP order does not apply.
            if f.acted or f.where != "field":
                raise Refused(
                    N_("{name} has no action left to resist with."), field="gladiator", name=f.label
                )
            f.acted, f.waiting = True, False
            f.concentration = 0
        elif c.action:
            p.ready_to_act(f)
            p.spend(f)
        if c.token and not c.resist:
            raise RuleError(
                N_("The token makes an action succeed: here there is none."), field="token"
            )
        die, ok = p.roll(f, c.characteristic, value, c.token)
        p.say(
            N_("{name} rolls {characteristic}: {die}, {result}."),
            name=f.label,
            characteristic=c.characteristic,
            die=die,
            result=Msg(N_("success") if ok else N_("failure")),
        )

    def _surrender(self, p: Play, c: Surrender) -> None:
        s = p.s
        side = p.side or c.side
        if side is None:
            raise RuleError(N_("Say which team surrenders."), field="side")
        # 3.4, ABANDON: only at the start of the team's own movement phase.
        if s.stage != "running" or s.phase == 3 or s.moving != side or s.moved:
            raise Refused(
                N_("A team surrenders only at the start of its own movement phase."), field="side"
            )
        s.surrendered = side
        p.say(N_("{team} surrenders."), team=s.team(side).roster.name)
        p.finish()

    def _free_throw(self, p: Play, c: FreeShot) -> None:
        """13.2, LANCERS FRANCS: two living gladiators per team, 2 to 12 squares, BAL with the
        distance malus only, the stronger team first; tied again, two more tries by the same."""
        s = p.s
        if s.stage != "free_throws":
            raise RuleError(N_("Free throws follow a tournament draw only."))
        f = s.fighter(c.gladiator)
        expected = self.next_thrower(s)
        if f.side != expected or (p.side is not None and p.side != f.side):
            raise NotAllowed(N_("{team} throws now."), team=s.team(expected).roster.name)
        if f.where in ("dead", "coma") or (f.where == "expelled" and f.back and f.back.turn < 1):
            raise Refused(N_("{name} cannot take a free throw."), field="gladiator", name=f.label)
        round_ = self.throw_round(s)
        mine = [t for t in s.throws if t.side == f.side]
        this_round = [t.fighter for t in mine if t.round == round_]
        if f.id in this_round:
            raise Refused(N_("Another gladiator takes the second throw."), field="gladiator")
        first_round = [t.fighter for t in mine if t.round == 1]
        if round_ > 1 and f.id not in first_round:
            raise Refused(N_("The new tries are taken by the same gladiators."), field="gladiator")
        needed = mr.shot_needed(f.characteristics["BAL"], c.distance)
        die = p.dice.roll(10, f"free throw of {f.name}", owner=f.side)
        ok = mr.succeeds(die, needed)
        points = c.distance if ok else 0
        s.throws.append(
            FreeThrow(
                side=f.side,
                fighter=f.id,
                distance=c.distance,
                die=die,
                needed=needed,
                points=points,
                round=round_,
            )
        )
        p.say(
            N_("Free throw of {name} from {distance} squares: {die}, {result}."),
            name=f.label,
            distance=c.distance,
            die=die,
            result=Msg(N_("in") if ok else N_("missed")),
        )
        if len([t for t in s.throws if t.round == round_]) == len(self.throw_order(s)):
            a = s.team("A").score + sum(t.points for t in s.throws if t.side == "A")
            b = s.team("B").score + sum(t.points for t in s.throws if t.side == "B")
            if a == b:
                p.say(N_("Still tied at {a} – {b}: two new tries."), a=a, b=b)
            else:
                p.close(("won", "lost") if a > b else ("lost", "won"))

    @staticmethod
    def throw_order(s: MatchState) -> list[Side]:
        living: dict[Side, int] = {
            side: min(
                mr.FREE_THROWS,
                len([f for f in s.side_fighters(side) if f.where not in ("dead", "coma")]),
            )
            for side in SIDES
        }
        stronger: Side = "A" if s.team("A").power >= s.team("B").power else "B"
        return mr.free_throw_order(stronger, living)

    @staticmethod
    def throw_round(s: MatchState) -> int:
        per_round = len(KillpowerMatch.throw_order(s))
        return len(s.throws) // max(1, per_round) + 1

    @classmethod
    def next_thrower(cls, s: MatchState) -> Side:
        order = cls.throw_order(s)
        return order[len(s.throws) % len(order)]

    # ------------------------------------------------------------------ platform questions

    def status(self, state: MatchState) -> str:
        if state.stage == "lineup":
            return "setup"
        return "finished" if state.stage == "finished" else "running"

    def followups(
        self, game_id: str, state: MatchState, result: Mapping[str, Any]
    ) -> list[dict[str, Any]]:
        """3.4: the finished match goes to its league's end-of-match operations."""
        if not result.get("finished") or state.outcomes is None:
            return []
        return [league_record(game_id, state)]

    def roll_label(self, purpose: str, state: MatchState) -> Msg | str | None:
        return rules.roll_label(purpose)

    def label(self, command: Any, state: MatchState) -> Msg:
        return Msg(LABELS.get(command.type, N_("the action")))

    def page_for(self, viewer: Viewer) -> str:
        if viewer.is_staff:
            return "staff"
        return "board" if viewer.role == "public" else "player"

    def view(self, state: MatchState, viewer: Viewer, now: datetime) -> dict[str, Any]:
        return match_view(state, viewer, self.side_of(state, viewer))

    def log_view(self, event: LoggedEvent, viewer: Viewer) -> dict[str, Any] | None:
        if viewer.is_staff:
            return full_event(event)
        if event.type not in ("command", "undo"):
            return None
        # Coaches read the summaries (written for both) and their own side's private notes;
        # never the commands, which hold the other side's lineup and cards. The dice show, each
        # marked when entered by hand, the other side's RAP without its value.
        side = viewer_side(event, viewer)
        entry: dict[str, Any] = {
            "seq": event.seq,
            "at": event.at.isoformat(),
            "summary": event.summary.render(),
            "undone": event.undone,
            "rolls": rolls_for(
                event.rolls, lambda roll: side is not None and roll.get("owner") == side
            ),
        }
        if viewer.role == "coach":
            private = event.result.get("private", {})
            notes = [
                Msg.from_json(m).render()
                for owner, ms in private.items()
                for m in ms
                if owner == side
            ]
            if notes:
                entry["private"] = notes
        return entry

    def template_globals(self) -> dict[str, Any]:
        return {
            "kpm_conditions": CONDITION_TITLES,
            "kpm_where": WHERE_TITLES,
            "kpm_cases": CASE_TITLES,
            "kpm_phases": PHASE_TITLES,
            "kpm_outcomes": OUTCOME_TITLES,
            "kpm_offences": OFFENCE_TITLES,
            "kpm_pending": PENDING_TITLES,
        }


PENDING_TITLES = {
    "evade": N_("evade the blow?"),
    "intercept": N_("intercept the ball?"),
    "resist": N_("keep the ball?"),
}
LABELS = {
    "lineup": N_("the lineup"),
    "give_ball": N_("giving the ball"),
    "enter": N_("the entry on the field"),
    "leave": N_("the return to the side-line zone"),
    "end_phase": N_("the end of the phase"),
    "act": N_("the action"),
    "shot": N_("the shot"),
    "throw": N_("the throw"),
    "handoff": N_("the hand-off"),
    "take": N_("taking the ball"),
    "pick": N_("picking the ball up"),
    "drop": N_("putting the ball down"),
    "attack": N_("the attack"),
    "answer": N_("the answer"),
    "hurt": N_("the damage"),
    "condition": N_("the state"),
    "expel": N_("the expulsion"),
    "reentry": N_("the re-entry"),
    "power": N_("the power card"),
    "check": N_("the roll"),
    "trigger": N_("the power's moment"),
    "surrender": N_("the surrender"),
    "free_throw": N_("the free throw"),
}


def viewer_side(event: LoggedEvent, viewer: Viewer) -> str | None:
    """A coach's side, as the match's log knows it (the coach person ids ride on every event's
    result under "coaches")."""
    coaches = event.result.get("coaches", {})
    for side, person in coaches.items():
        if person == viewer.person_id:
            return str(side)
    return None


# ---------------------------------------------------------------------------- views


def ball_text(state: MatchState) -> Msg:
    carrier = state.carrier
    if carrier is not None:
        return Msg(N_("held by {name}"), {"name": carrier.label})
    if state.ball.startswith("zt:"):
        return Msg(N_("with {team}, to give"), {"team": state.team(state.ball[3:]).roster.name})
    texts = {
        "ground": N_("on the ground"),
        "basket": N_("on the basket square"),
        "center": N_("on H14, the centre"),
        "air": N_("in the air"),
    }
    text = Msg(texts.get(state.ball, N_("not in play")))
    if state.ball == "ground" and state.ball_note:
        return Msg(
            N_("{text} ({note} squares from the aim)"), {"text": text, "note": state.ball_note}
        )
    return text


def power_view(state: MatchState, f: Fighter, key: str) -> dict[str, Any]:
    card = state.cards.get(key)
    if card is None:
        return {"key": key, "name": key, "text": "", "cost": 0, "uses_left": None, "active": False}
    return {
        "key": key,
        "name": card.name,
        "text": card.text,
        "read_aloud": card.read_aloud,
        "cost": card.activation.cost,
        "roll": card.activation.characteristic,
        "uses_left": None if card.uses is None else card.uses - f.uses.get(key, 0),
        "active": key in f.active,
    }


def fighter_view(f: Fighter, state: MatchState, secret: bool) -> dict[str, Any]:
    """A gladiator as a viewer sees it: its state for everyone; RAP, characteristics and power
    cards only for its own coach and the staff."""
    view: dict[str, Any] = {
        "id": f.id,
        "side": f.side,
        "number": f.number,
        "name": f.name,
        "label": f.label,
        "where": f.where,
        "acted": f.acted,
        "waiting": f.waiting,
        "ball": state.carrier is f,
        "conditions": [
            {"key": c, "left": u.left(state.turn) if u else None}
            for c, u in sorted(f.conditions.items())
        ],
        # 6.2: either coach may ask how long an expulsion still lasts; the sheet shows it.
        "expelled_left": f.back.left(state.turn) if f.where == "expelled" and f.back else None,
        "past_end": bool(f.where == "expelled" and f.back and f.back.turn < 1),
        "square": list(f.square) if f.square else None,
        "cards_down": len(f.active),
        "concentration": f.concentration,
    }
    if secret:
        view.update(
            rap=f.rap,
            characteristics=f.characteristics,
            armour=f.armour,
            gloves=f.gloves,
            state=f.state,
            powers=[power_view(state, f, k) for k in f.powers],
            after=f.after,
        )
    return view


def match_view(state: MatchState, viewer: Viewer, side: Side | None) -> dict[str, Any]:
    staff = viewer.is_staff
    teams = {}
    for key, team in state.teams.items():
        secret = staff or side == key
        entry: dict[str, Any] = {
            "side": key,
            "name": team.roster.name,
            "coach": team.roster.coach_name,
            "ready": team.ready,
            "score": team.score,
            "power": team.power if state.stage != "lineup" else None,
            "margin": team.margin if state.stage != "lineup" else None,
            "case": team.case,
            "idle_since": team.idle_since,
            "fighters": [fighter_view(f, state, secret) for f in state.side_fighters(key)],
        }
        if secret:
            entry["bluff"] = team.bluff
            entry["lineup"] = team.lineup
            entry["roster"] = team.roster.gladiators
            entry["armed"] = [
                {
                    "fighter": a.fighter,
                    "label": state.fighter(a.fighter).label,
                    "card": a.card,
                    "name": state.cards[a.card].name,
                    "when": state.cards[a.card].read_when,
                }
                for a in state.armed
                if a.side == key
            ]
        teams[key] = entry
    due = None
    order: list[dict[str, Any]] = []
    if state.stage == "running" and state.phase == 3 and state.pending is None:
        play_order = mr.phase3_order(
            [
                mr.Actor(str(f.id), f.side, f.rap)
                for f in state.fighters.values()
                if f.where == "field" and not f.acted and not f.waiting and Play.can_act(f)
            ],
            state.hand,
        )
        order = [
            {
                "id": int(a.key),
                "side": a.side,
                "label": state.fighters[a.key].label,
                # The order is what the referee calls aloud; RAP values stay with their coach.
                "rap": a.rap if staff or a.side == side else None,
            }
            for a in play_order
        ]
        due = order[0] if order else None
    pending: dict[str, Any] | None = None
    if state.pending is not None:
        data = state.pending.data
        pending = {
            "kind": state.pending.kind,
            "side": state.pending.side,
            "mine": staff or side == state.pending.side,
        }
        if state.pending.kind == "evade":
            pending["target"] = state.fighter(data["target"]).label
            pending["hits"] = [{"id": h, "label": state.fighter(h).label} for h in data["hits"]]
        elif state.pending.kind == "intercept":
            pending["who"] = [
                {"id": f.id, "label": f.label}
                for f in KillpowerMatch._interceptors(state, state.pending.side)
            ]
        else:
            pending["taker"] = state.fighter(data["taker"]).label
    throws = []
    if state.throws or state.stage == "free_throws":
        throws = [t.model_dump() | {"label": state.fighter(t.fighter).label} for t in state.throws]
    return {
        "stage": state.stage,
        "mode": state.mode,
        "tournament": state.tournament,
        "me": side,
        "plays": staff or (side is not None and state.mode == "self"),
        "turn": state.turn,
        "turns": list(range(mr.TURNS, 0, -1)),
        "phase": state.phase,
        "hand": state.hand,
        "moving": state.moving if state.stage == "running" and state.phase != 3 else None,
        "may_surrender": state.stage == "running" and state.phase != 3 and not state.moved,
        "token": state.token,
        "first": state.first,
        "ball": ball_text(state).render(),
        "ball_to_give": state.ball[3:] if state.ball.startswith("zt:") else None,
        "ball_loose": state.ball in ("ground", "basket", "center"),
        "teams": teams,
        "due": due,
        "order": order,
        "pending": pending,
        "gift": state.gift,
        "reveals": [r.model_dump() for r in state.reveals],
        "surrendered": state.surrendered,
        "eliminated": state.eliminated,
        "outcomes": list(state.outcomes) if state.outcomes else None,
        "throws": throws,
        "next_thrower": KillpowerMatch.next_thrower(state)
        if state.stage == "free_throws"
        else None,
        "league": state.league,
    }


def league_record(game_id: str, state: MatchState) -> dict[str, Any]:
    """The league's RecordMatch command for a finished match (3.4, sequence 16)."""
    a, b = state.team("A"), state.team("B")
    return {
        "type": "match",
        "team_a": a.roster.team,
        "team_b": b.roster.team,
        "played_a": a.lineup,
        "played_b": b.lineup,
        "score_a": a.score,
        "score_b": b.score,
        "surrendered": state.surrendered or "",
        "eliminated": state.eliminated or "",
        "risk": {
            str(f.id): f.state
            for f in state.fighters.values()
            if f.where == "coma" and f.state is not None
        },
        # 8.4: a blow aimed at a location decides it for TABLE 8 (no location die).
        "located": {
            str(f.id): f.location
            for f in state.fighters.values()
            if f.where == "coma" and f.state is not None and f.location
        },
        "throws_a": [t.points for t in state.throws if t.side == "A"],
        "throws_b": [t.points for t in state.throws if t.side == "B"],
        "match_game": game_id,
    }


KILLPOWER_MATCH = KillpowerMatch()
