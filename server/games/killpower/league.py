"""A Killpower Ball league: its teams, its power deck, its matches and its championship table.

The owner (the organizer) runs the league and its settings; coaches join with their link and build
their teams with the chapter 2 wizard; the owner or a referee records each finished match, and the
end-of-match operations of 3.4 follow at once: risk-of-death rolls on TABLE 8, experience, ranking
points. A team's sheet (its gladiators' equipment and power cards) is seen by its coach and the
staff only; everyone else sees the table and the results.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from datetime import datetime
from typing import Annotated, Any, ClassVar, Literal

from pydantic import BaseModel, Field, TypeAdapter, field_validator, model_validator

from server.errors import NotAllowed, RuleError
from server.games.killpower import rules
from server.games.killpower.match import KILLPOWER_MATCH, roster_of
from server.games.killpower.powers import KIND_TITLES, PowerDeck, sample_deck
from server.games.killpower.rules import (
    LOCATION_TITLES,
    OUTCOME_TITLES,
    Characteristic,
    Equipment,
    Outcome,
    Specialization,
)
from server.platform.dice import Dice
from server.platform.i18n import N_, Msg, joined
from server.platform.kinds import (
    Context,
    GameKind,
    LinkedGame,
    LoggedEvent,
    PersonInfo,
    Viewer,
    full_event,
    rolls_for,
)
from server.platform.kinds import (
    Outcome as Done,
)
from server.platform.refs import PersonRef, Ref

Mode = Literal["championship", "tournament"]
Side = Literal["", "A", "B"]
SPECIALIZATION_TITLES = {
    "archer": N_("Archer (+1 HAB)"),
    "defender": N_("Defender (+1 VIE)"),
    "warrior": N_("Warrior (+1 PHY)"),
    "mentor": N_("Mentor (+1 POU)"),
    "shooter": N_("Shooter (+1 BAL)"),
}
EQUIPMENT_TITLES = {
    "gloves": N_("combat gloves (1D10 damage)"),
    "armour": N_("magic armour (1D5+6)"),
    "powers": N_("two power cards"),
}
FATE_TITLES = {
    "badly_wounded": N_("badly wounded, back to the coach"),
    "coma": N_("coma, back to the coach"),
    "dead": N_("dead"),
}


# ---------------------------------------------------------------------------- state


class Gladiator(BaseModel):
    id: int
    number: int
    name: str
    specialization: Specialization
    equipment: Equipment | None  # none: lost in a match, to draw again before playing (3.4)
    armour: int | None = None  # magic armour, rolled once; none until rolled (tournament)
    powers: list[str] = Field(default_factory=list)
    characteristics: dict[Characteristic, int]
    exp: int = 0
    increases: int = 0  # EXP is never erased (12): increases allowed = exp // 10 - increases
    matches: int = 0
    may_reequip: bool = False  # played the last match: its equipment may be exchanged (3.4)
    died_in: int | None = None

    @property
    def shield(self) -> int | None:
        """The "Bouclier" box: the magic armour, or 1 for normal armour (2.1)."""
        return self.armour if self.equipment == "armour" else rules.NORMAL_ARMOUR

    @property
    def increases_left(self) -> int:
        return self.exp // rules.EXP_PER_INCREASE - self.increases


class Team(BaseModel):
    id: int
    name: str
    coach: int | None  # the coach's person id; none when the owner keeps the team
    coach_name: str
    gladiators: list[Gladiator]
    fallen: list[Gladiator] = Field(default_factory=list)
    ranking: int = 0
    played: int = 0
    won: int = 0
    lost: int = 0
    drawn: int = 0
    abandoned: int = 0

    def gladiator(self, gladiator_id: int) -> Gladiator:
        for g in self.gladiators:
            if g.id == gladiator_id:
                return g
        raise RuleError(
            N_("No gladiator {gladiator} in {team}."),
            field="gladiator",
            gladiator=gladiator_id,
            team=self.name,
        )

    @property
    def total_exp(self) -> int:
        return sum(g.exp for g in self.gladiators)

    def power(self, playing: list[int] | None = None) -> rules.Power:
        chosen = [g for g in self.gladiators if playing is None or g.id in playing]
        return rules.team_power(self.ranking, [g.exp for g in chosen])


class Risk(BaseModel):
    team: Literal["A", "B"]
    gladiator: int
    name: str
    state: int
    die: int | None  # none when the blow chose the location (8.4)
    location: str
    fate: rules.Fate


class MatchRecord(BaseModel):
    number: int
    at: datetime
    teams: tuple[int, int]
    names: tuple[str, str]
    powers: tuple[int, int]
    divisions: tuple[int, int]
    margins: tuple[int, int]
    score: tuple[int, int]
    surrendered: Side = ""
    eliminated: Side = ""
    outcomes: tuple[Outcome, Outcome]
    ranking_before: tuple[int, int]
    ranking_after: tuple[int, int]
    played: tuple[list[int], list[int]]
    risks: list[Risk] = Field(default_factory=list)
    lost_equipment: list[int] = Field(default_factory=list)
    free_throws: tuple[list[int], list[int]] | None = None
    note: str = ""


def match_record(
    c: Any,
    number: int,
    at: datetime,
    teams: tuple[Team, Team],
    powers: list[rules.Power],
    margins: tuple[int, int],
    outcomes: tuple[Outcome, Outcome],
    before: tuple[int, int],
    **extra: Any,
) -> MatchRecord:
    """The archive's line of a recorded match (`c`: the RecordMatch command), its ranking points
    as they are now."""
    return MatchRecord(
        number=number,
        at=at,
        teams=(teams[0].id, teams[1].id),
        names=(teams[0].name, teams[1].name),
        powers=(powers[0].power, powers[1].power),
        divisions=(powers[0].division, powers[1].division),
        margins=margins,
        score=(c.score_a, c.score_b),
        surrendered=c.surrendered,
        eliminated=c.eliminated,
        outcomes=outcomes,
        ranking_before=before,
        ranking_after=(teams[0].ranking, teams[1].ranking),
        played=(list(c.played_a), list(c.played_b)),
        note=c.note.strip(),
        **extra,
    )


class LeagueSettings(BaseModel):
    mode: Mode = "championship"
    draw_points: int = Field(default=1, ge=-5, le=5)
    surrender_points: int = Field(default=-3, ge=-10, le=0)


class Pairing(BaseModel):
    a: int | None  # a team id; none: a bye
    b: int | None
    winner: int | None = None
    match: int | None = None


class LiveMatch(BaseModel):
    """A match played with Arbitre's referee sheet (its own game), opened from the league."""

    game: str
    teams: tuple[int, int]
    names: tuple[str, str]
    mode: Literal["referee", "self"]
    coaches: tuple[int, int]  # the coaches' person ids in the match game
    organizer: int  # the match game's organizer (the league's staff open it with that link)
    recorded: int | None = None  # the league's match number once the result came back


class LeagueState(BaseModel):
    mode: Mode = "championship"
    draw_points: int = 1
    surrender_points: int = -3
    deck: PowerDeck = Field(default_factory=sample_deck)
    coaches: dict[str, str] = Field(default_factory=dict)
    teams: dict[str, Team] = Field(default_factory=dict)
    matches: list[MatchRecord] = Field(default_factory=list)
    next_id: int = 1
    # Tournament (13.2): the direct-elimination bracket, round by round, and each team as it came
    # to the tournament (after its armour roll): a team is given back that way after each match.
    bracket: list[list[Pairing]] = Field(default_factory=list)
    entered: dict[str, list[Gladiator]] = Field(default_factory=dict)
    champion: int | None = None
    live: list[LiveMatch] = Field(default_factory=list)

    def team(self, team_id: int) -> Team:
        team = self.teams.get(str(team_id))
        if team is None:
            raise RuleError(N_("No team {team} in this league."), field="team", team=team_id)
        return team

    def new_id(self) -> int:
        self.next_id += 1
        return self.next_id - 1


# ---------------------------------------------------------------------------- commands


class Recruit(BaseModel):
    """One gladiator of the wizard (2.1): name, number, specialization and magic equipment; in a
    tournament, the two powers chosen."""

    name: str = Field(min_length=1, max_length=40)
    number: int = Field(ge=0, le=99)
    specialization: Specialization
    equipment: Equipment
    powers: list[str] = Field(default_factory=list, max_length=2)

    @field_validator("name")
    @classmethod
    def _strip(cls, value: str) -> str:
        value = " ".join(value.split())
        if not value:
            raise ValueError("empty")
        return value


def _gather(data: Any, size: int) -> Any:
    """Form fields name_1 ... name_7 (number_i, specialization_i, equipment_i, powers_i) as a list
    of recruits; an API client sends `gladiators` itself."""
    if not isinstance(data, dict) or "gladiators" in data:
        return data
    data = dict(data)
    recruits = []
    for i in range(1, size + 1):
        fields = {
            k: data.pop(f"{k}_{i}", None)
            for k in ("name", "number", "specialization", "equipment", "powers")
        }
        if any(v not in (None, "", []) for v in fields.values()):
            powers = fields["powers"] or []
            fields["powers"] = [powers] if isinstance(powers, str) else powers
            recruits.append({k: v for k, v in fields.items() if v is not None})
    data["gladiators"] = recruits
    return data


class CreateTeam(BaseModel):
    type: Literal["team"]
    name: str = Field(min_length=1, max_length=40)
    coach: PersonRef | None = None  # the owner creates a team for a coach; a coach for themselves
    gladiators: list[Recruit] = Field(max_length=rules.TEAM_SIZE + 1)

    @model_validator(mode="before")
    @classmethod
    def _from_form(cls, data: Any) -> Any:
        return _gather(data, rules.TEAM_SIZE + 1)


# What commands name (checked by the platform against `KillpowerLeague.references`): a team, a
# gladiator of a team, a power card of the league's deck.
TeamRef = Annotated[int, Ref("team")]
GladiatorRef = Annotated[int, Ref("gladiator")]
PowerRef = Annotated[str, Ref("power")]


class Replace(BaseModel):
    """A dead (or dismissed) gladiator replaced through the wizard (3.4)."""

    type: Literal["replace"]
    team: TeamRef
    gladiator: GladiatorRef | None = None  # the one dismissed; none to fill a place left by a death
    recruit: Recruit

    @model_validator(mode="before")
    @classmethod
    def _from_form(cls, data: Any) -> Any:
        if isinstance(data, dict) and "recruit" not in data:
            gathered = _gather(data, 1)
            data = {k: v for k, v in gathered.items() if k != "gladiators"}
            data["recruit"] = gathered["gladiators"][0] if gathered["gladiators"] else None
        return data


class Improve(BaseModel):
    type: Literal["improve"]
    team: TeamRef
    gladiator: GladiatorRef
    characteristic: Characteristic


class Reequip(BaseModel):
    type: Literal["reequip"]
    team: TeamRef
    gladiator: GladiatorRef
    equipment: Equipment
    powers: list[PowerRef] = Field(default_factory=list, max_length=2)


class RollArmour(BaseModel):
    """Tournament (13.2): magic armour is rolled with the referee at the first match."""

    type: Literal["roll_armour"]
    team: TeamRef


class DrawBracket(BaseModel):
    """Tournament (13.2): a direct-elimination bracket drawn by Arbitre among the complete teams."""

    type: Literal["bracket"]


class SetMode(BaseModel):
    type: Literal["mode"]
    mode: Mode


class SetPoints(BaseModel):
    type: Literal["points"]
    draw_points: int = Field(ge=-5, le=5)
    surrender_points: int = Field(ge=-10, le=0)


class SetDeck(BaseModel):
    type: Literal["deck"]
    deck: PowerDeck


class RecordMatch(BaseModel):
    """A finished match, from the referee sheet: who played, the score, a surrender or an
    elimination, who left the field with a risk of death and how low they fell, which magic
    equipment was lost."""

    type: Literal["match"]
    team_a: TeamRef
    team_b: TeamRef
    played_a: list[GladiatorRef] = Field(min_length=1, max_length=rules.TEAM_SIZE)
    played_b: list[GladiatorRef] = Field(min_length=1, max_length=rules.TEAM_SIZE)
    score_a: int = Field(ge=0, le=999)
    score_b: int = Field(ge=0, le=999)
    surrendered: Side = ""
    eliminated: Side = ""
    risk: dict[GladiatorRef, int] = Field(default_factory=dict)  # gladiator -> state (-11 or less)
    # 8.4: the location a blow on an inert target chose, for TABLE 8 (no location die then).
    located: dict[GladiatorRef, rules.Location] = Field(default_factory=dict)
    lost_equipment: list[GladiatorRef] = Field(default_factory=list, max_length=14)
    # Tournament draws (13.2): the points of each free throw, 0 for a miss, every try in order.
    throws_a: list[int] = Field(default_factory=list, max_length=20)
    throws_b: list[int] = Field(default_factory=list, max_length=20)
    note: str = Field(default="", max_length=500)
    match_game: str = Field(default="", max_length=40)  # the match played with the live sheet

    @model_validator(mode="before")
    @classmethod
    def _from_form(cls, data: Any) -> Any:
        """Form fields risk_<gladiator> hold the state of those who left with a risk of death."""
        if not isinstance(data, dict):
            return data
        data = dict(data)
        risk = dict(data.get("risk") or {})
        for key in [k for k in data if isinstance(k, str) and k.startswith("risk_")]:
            value = data.pop(key)
            if value not in (None, ""):
                risk[key[5:]] = value
        data["risk"] = risk
        how, _, side = str(data.pop("ending", "") or "").partition(":")
        if how in ("surrendered", "eliminated"):
            data[how] = side
        return data


class OpenMatch(BaseModel):
    """A match opened with the live referee sheet: its game, created just before."""

    type: Literal["open_match"]
    game: str = Field(min_length=1, max_length=40)
    team_a: int
    team_b: int
    mode: Literal["referee", "self"] = "self"
    coach_a: int
    coach_b: int
    organizer: int


Command = Annotated[
    OpenMatch
    | CreateTeam
    | Replace
    | Improve
    | Reequip
    | RollArmour
    | DrawBracket
    | SetMode
    | SetPoints
    | SetDeck
    | RecordMatch,
    Field(discriminator="type"),
]
COACH_COMMANDS = (CreateTeam, Replace, Improve, Reequip)


def team_owner(team: Team) -> str:
    """The owner of a team's dice (its armour, its power draws, its risks of death)."""
    return f"team:{team.id}"


# ---------------------------------------------------------------------------- the kind


class KillpowerLeague(GameKind[LeagueState]):
    key = "kpb_league"
    title = N_("Killpower Ball league")
    tagline = N_("Teams, power cards, match results and the championship table.")
    roles = ("coach",)
    open_role = "coach"  # coaches join the league by its invitation link
    role_titles: ClassVar[dict[str, str]] = {
        "coach": N_("coach"),
        "organizer": N_("league owner"),
    }
    state_model = LeagueState
    settings_model = LeagueSettings
    commands: TypeAdapter[Any] = TypeAdapter(Command)

    def new_state(self, settings: BaseModel) -> LeagueState:
        assert isinstance(settings, LeagueSettings)
        return LeagueState(
            mode=settings.mode,
            draw_points=settings.draw_points,
            surrender_points=settings.surrender_points,
        )

    def add_person(self, state: LeagueState, person: PersonInfo) -> LeagueState:
        if person.role != "coach":
            return state
        state = state.model_copy(deep=True)
        state.coaches[str(person.id)] = person.name
        return state

    def remove_person(self, state: LeagueState, person: PersonInfo) -> LeagueState:
        """A coach who leaves: a team that never played leaves with them; one with a history
        stays in the ranking, kept by the league's owner."""
        if str(person.id) not in state.coaches:
            return state
        state = state.model_copy(deep=True)
        del state.coaches[str(person.id)]
        drawn = {p.a for r in state.bracket for p in r} | {p.b for r in state.bracket for p in r}
        busy = drawn | {t for m in state.live for t in m.teams}
        for key, team in list(state.teams.items()):
            if team.coach != person.id:
                continue
            if team.played == 0 and team.id not in busy:
                del state.teams[key]
            else:
                team.coach = None
        return state

    def references(self, state: LeagueState) -> Mapping[str, Collection[Any]]:
        return {
            "team": {t.id for t in state.teams.values()},
            "gladiator": {g.id for t in state.teams.values() for g in t.gladiators},
            "power": {c.key for c in state.deck.powers},
        }

    def may_enter_dice(
        self, state: LeagueState, actor: Viewer, physical: bool
    ) -> Callable[[str | None], bool]:
        """The staff enter any die; with physical dice, a coach their own teams' (the armour
        they roll, the power cards they draw); server dice are never a coach's to choose."""
        if actor.is_staff:
            return lambda owner: True
        mine = {
            team_owner(t) for t in state.teams.values() if physical and t.coach == actor.person_id
        }
        return lambda owner: owner in mine

    def may_send(self, viewer: Viewer, command: Any) -> bool:
        if isinstance(command, OpenMatch):
            # Recorded by the platform when it opens a match (`linked_game`), never sent.
            return False
        if isinstance(command, RecordMatch) and command.match_game and viewer.role != "system":
            # A match played on the live sheet is recorded by its own game alone (3.4): nobody
            # records another result in its name, nor blocks the true one.
            return False
        if viewer.role == "system":  # a finished match's result, sent by its game (3.4)
            return isinstance(command, RecordMatch)
        if viewer.is_staff:
            return viewer.is_organizer or isinstance(command, RecordMatch | RollArmour)
        return viewer.role == "coach" and isinstance(command, COACH_COMMANDS)

    def apply(self, state: LeagueState, command: Any, ctx: Context) -> Done[LeagueState]:
        state = state.model_copy(deep=True)
        summary, result = getattr(self, f"_{command.type}")(state, command, ctx)
        return Done(state, summary, result)

    # -- who may touch a team

    def _own_team(self, state: LeagueState, team_id: int, actor: Viewer) -> Team:
        team = state.team(team_id)
        if actor.role == "coach" and team.coach != actor.person_id:
            raise NotAllowed(N_("This team belongs to another coach."))
        return team

    # -- building gladiators (2.1)

    def _recruit(
        self, state: LeagueState, team: Team, spec: Recruit, held: list[str], dice: Dice
    ) -> Gladiator:
        gladiator = Gladiator(
            id=state.new_id(),
            number=spec.number,
            name=spec.name,
            specialization=spec.specialization,
            equipment=spec.equipment,
            characteristics=rules.starting_characteristics(spec.specialization),
        )
        self._equip(state, team, gladiator, spec.equipment, spec.powers, held, dice)
        return gladiator

    def _equip(
        self,
        state: LeagueState,
        team: Team,
        gladiator: Gladiator,
        equipment: Equipment,
        chosen: list[str],
        held: list[str],
        dice: Dice,
    ) -> None:
        """2.1 ÉQUIPEMENT MAGIQUE. `held`: the powers the rest of the team holds (a team draws
        from its own pack, without putting cards back). The dice are the team's: which card
        was drawn stays with its coach."""
        owner = team_owner(team)
        gladiator.equipment = equipment
        gladiator.powers = []
        gladiator.armour = None
        if equipment == "armour" and state.mode == "championship":
            die = rules.d5(dice, f"magic armour of {gladiator.name}", owner=owner, secret=True)
            gladiator.armour = rules.MAGIC_ARMOUR_BASE + die
        if equipment != "powers":
            return
        if state.mode == "tournament":
            if len(chosen) != rules.POWERS_PER_GLADIATOR:
                raise RuleError(
                    N_("{name}: choose two powers."), field="powers", name=gladiator.name
                )
            for key in chosen:
                if state.deck.card(key) is None:
                    raise RuleError(N_("Unknown power “{power}”."), field="powers", power=key)
            gladiator.powers = list(chosen)
            return
        pack = state.deck.copies()
        for key in held:
            if key in pack:
                pack.remove(key)
        for _ in range(rules.POWERS_PER_GLADIATOR):
            choices = [key for key in pack if key not in gladiator.powers]
            if not choices:
                raise RuleError(
                    N_("The power deck has no card left to draw for {name}: add cards to it."),
                    field="equipment",
                    name=gladiator.name,
                )
            die = dice.roll(
                len(choices), f"power card for {gladiator.name}", owner=owner, secret=True
            )
            key = choices[die - 1]
            gladiator.powers.append(key)
            pack.remove(key)

    def _team(self, state: LeagueState, c: CreateTeam, ctx: Context) -> Any:
        actor = ctx.actor
        coach = actor.person_id if actor.role == "coach" else c.coach
        if coach is not None and str(coach) not in state.coaches:
            raise RuleError(N_("No coach {coach} in this league."), field="coach", coach=coach)
        if len(c.gladiators) != rules.TEAM_SIZE:
            raise RuleError(
                N_("A team has exactly 7 gladiators, not {count}."),
                field="gladiators",
                count=len(c.gladiators),
            )
        name = " ".join(c.name.split())
        taken = next((t for t in state.teams.values() if t.name.lower() == name.lower()), None)
        if taken is not None:
            raise RuleError(N_("A team is already named “{name}”."), field="name", name=taken.name)
        numbers = [g.number for g in c.gladiators]
        if len(set(numbers)) != len(numbers):
            raise RuleError(N_("Two gladiators wear the same number."), field="gladiators")
        if state.mode == "tournament":
            rules.check_tournament_powers(
                [g.powers for g in c.gladiators if g.equipment == "powers"]
            )
        team = Team(
            id=state.new_id(),
            name=name,
            coach=coach,
            coach_name=state.coaches.get(str(coach), actor.name) if coach else actor.name,
            gladiators=[],
        )
        for spec in c.gladiators:
            held = [p for g in team.gladiators for p in g.powers]
            team.gladiators.append(self._recruit(state, team, spec, held, ctx.dice))
        state.teams[str(team.id)] = team
        return Msg(
            N_("{coach} creates the team {team}: seven gladiators."),
            {"coach": team.coach_name, "team": team.name},
        ), {"team": team.id}

    def _replace(self, state: LeagueState, c: Replace, ctx: Context) -> Any:
        team = self._own_team(state, c.team, ctx.actor)
        if c.gladiator is not None:
            old = team.gladiator(c.gladiator)
            if not old.may_reequip:
                # 3.4: a gladiator may be dismissed only if they played the match just ended.
                raise RuleError(
                    N_("{name} can be dismissed only just after a match they played."),
                    field="gladiator",
                    name=old.name,
                )
            team.gladiators.remove(old)  # 3.4: their magic equipment leaves with them
        elif len(team.gladiators) >= rules.TEAM_SIZE:
            raise RuleError(
                N_("{team} already has 7 gladiators: say who is dismissed."),
                field="gladiator",
                team=team.name,
            )
        if c.recruit.number in {g.number for g in team.gladiators}:
            raise RuleError(N_("Two gladiators wear the same number."), field="number")
        if state.mode == "tournament" and c.recruit.equipment == "powers":
            rules.check_tournament_powers(
                [g.powers for g in team.gladiators if g.equipment == "powers"] + [c.recruit.powers]
            )
        held = [p for g in team.gladiators for p in g.powers]
        recruit = self._recruit(state, team, c.recruit, held, ctx.dice)
        team.gladiators.append(recruit)
        team.gladiators.sort(key=lambda g: g.number)
        return Msg(
            N_("{team} recruits {name} (no. {number})."),
            {"team": team.name, "name": recruit.name, "number": recruit.number},
        ), {"gladiator": recruit.id}

    def _improve(self, state: LeagueState, c: Improve, ctx: Context) -> Any:
        team = self._own_team(state, c.team, ctx.actor)
        g = team.gladiator(c.gladiator)
        value = g.characteristics[c.characteristic]
        rules.check_increase(c.characteristic, value, g.exp, g.increases)
        g.characteristics[c.characteristic] = value + 1
        g.increases += 1
        return Msg(
            N_("{name} ({team}) gains 1 {characteristic}: {value}."),
            {
                "name": g.name,
                "team": team.name,
                "characteristic": c.characteristic,
                "value": value + 1,
            },
        ), {}

    def _reequip(self, state: LeagueState, c: Reequip, ctx: Context) -> Any:
        team = self._own_team(state, c.team, ctx.actor)
        g = team.gladiator(c.gladiator)
        if g.equipment is not None and not g.may_reequip:
            # 3.4: only after a match this gladiator played, and the new one is kept until the
            # next match even if it is worse.
            raise RuleError(
                N_("{name} changes equipment only just after a match they played."),
                field="equipment",
                name=g.name,
            )
        if state.mode == "tournament" and c.equipment == "powers":
            rules.check_tournament_powers(
                [x.powers for x in team.gladiators if x.equipment == "powers" and x.id != g.id]
                + [c.powers]
            )
        held = [p for x in team.gladiators if x.id != g.id for p in x.powers]
        self._equip(state, team, g, c.equipment, c.powers, held, ctx.dice)
        g.may_reequip = False
        return Msg(
            N_("{name} ({team}) gets new magic equipment."), {"name": g.name, "team": team.name}
        ), {}

    def _roll_armour(self, state: LeagueState, c: RollArmour, ctx: Context) -> Any:
        team = state.team(c.team)
        rolled = []
        for g in team.gladiators:
            if g.equipment == "armour" and g.armour is None:
                die = rules.d5(
                    ctx.dice, f"magic armour of {g.name}", owner=team_owner(team), secret=True
                )
                g.armour = rules.MAGIC_ARMOUR_BASE + die
                rolled.append(g.name)
        if not rolled:
            raise RuleError(N_("Every magic armour of {team} is rolled."), team=team.name)
        return Msg(
            N_("Magic armour rolled for {team}: {names}."),
            {"team": team.name, "names": ", ".join(rolled)},
        ), {}

    def _mode(self, state: LeagueState, c: SetMode, ctx: Context) -> Any:
        """Championship or tournament (13): chosen before the first team, since a tournament's
        teams choose their powers and roll their armour at the first match."""
        if state.teams:
            raise RuleError(
                N_("The mode is chosen before the first team is created."), field="mode"
            )
        state.mode = c.mode
        return Msg(
            N_("The league plays a {mode}."),
            {"mode": Msg(N_("championship") if c.mode == "championship" else N_("tournament"))},
        ), {}

    def _points(self, state: LeagueState, c: SetPoints, ctx: Context) -> Any:
        state.draw_points, state.surrender_points = c.draw_points, c.surrender_points
        return Msg(
            N_("Ranking points: draw {draw}, surrender {surrender}."),
            {"draw": c.draw_points, "surrender": c.surrender_points},
        ), {}

    def _deck(self, state: LeagueState, c: SetDeck, ctx: Context) -> Any:
        state.deck = c.deck
        return Msg(
            N_("New power deck: {count} cards, {bluff} bluff cards."),
            {"count": len(c.deck.powers), "bluff": c.deck.bluff},
        ), {}

    # -- a finished match and the end-of-match operations (3.4, sequence 16)

    def check_pairing(self, state: LeagueState, team_a: int, team_b: int, actor: Viewer) -> None:
        """Whether these two teams may meet now: two complete teams, one of the coach's own,
        and in a tournament, a pairing of the current round."""
        if team_a == team_b:
            raise RuleError(N_("A team does not play itself."), field="team_b")
        teams = (state.team(team_a), state.team(team_b))
        if actor.role == "coach" and teams[0].coach != actor.person_id:
            raise NotAllowed(N_("This team belongs to another coach."))
        for team in teams:
            if len(team.gladiators) != rules.TEAM_SIZE:
                raise RuleError(
                    N_("{team} must have 7 gladiators before playing."),
                    field="team_a",
                    team=team.name,
                )
        if state.mode == "tournament":
            self._pairing(state, teams)

    def linked_game(
        self, game_id: str, state: LeagueState, actor: Viewer, request: Mapping[str, Any]
    ) -> LinkedGame:
        """A match with the live referee sheet (3.4): a game of its own holding both teams as they
        are now, a coach for each team (acting for the league's coach of that team), and the
        league's staff as its organizer."""
        if not actor.is_staff and actor.role != "coach":
            raise NotAllowed(N_("Only the league's coaches and staff open matches."))
        team_a, team_b = request.get("team_a"), request.get("team_b")
        if not isinstance(team_a, int) or not isinstance(team_b, int):
            raise RuleError(N_("Choose the two teams."), field="team_b")
        mode = request.get("mode") or "self"
        if mode not in ("self", "referee"):
            raise RuleError(N_("Choose a referee or self-refereeing."), field="mode")
        self.check_pairing(state, team_a, team_b, actor)
        teams = (state.team(team_a), state.team(team_b))
        keys = {p for t in teams for g in t.gladiators for p in g.powers}
        settings = {
            "league": game_id,
            "mode": mode,
            "tournament": state.mode == "tournament",
            "teams": [roster_of(t).model_dump(mode="json") for t in teams],
            "cards": [c.model_dump(mode="json") for c in state.deck.powers if c.key in keys],
        }

        def record(game_id: str, people: list[int]) -> dict[str, Any]:
            organizer, coach_a, coach_b = people
            return {
                "type": "open_match",
                "game": game_id,
                "team_a": team_a,
                "team_b": team_b,
                "mode": mode,
                "coach_a": coach_a,
                "coach_b": coach_b,
                "organizer": organizer,
            }

        return LinkedGame(
            kind=KILLPOWER_MATCH.key,
            name=f"{teams[0].name} – {teams[1].name}",
            organizer=actor.name or N_("League owner"),
            settings=settings,
            people=[("coach", f"{t.coach_name} ({t.name})", t.coach or "staff") for t in teams],
            record=record,
        )

    def _open_match(self, state: LeagueState, c: OpenMatch, ctx: Context) -> Any:
        self.check_pairing(state, c.team_a, c.team_b, ctx.actor)
        if any(m.game == c.game for m in state.live):
            raise RuleError(N_("This match is already open."))
        teams = (state.team(c.team_a), state.team(c.team_b))
        state.live.append(
            LiveMatch(
                game=c.game,
                teams=(c.team_a, c.team_b),
                names=(teams[0].name, teams[1].name),
                mode=c.mode,
                coaches=(c.coach_a, c.coach_b),
                organizer=c.organizer,
            )
        )
        return Msg(N_("Match opened: {a} – {b}."), {"a": teams[0].name, "b": teams[1].name}), {
            "game": c.game
        }

    def _match(self, state: LeagueState, c: RecordMatch, ctx: Context) -> Any:
        live = None
        if c.match_game:
            live = next((m for m in state.live if m.game == c.match_game), None)
            if live is None or live.recorded is not None:
                raise RuleError(
                    N_("This match is not open in the league, or already recorded."),
                    field="match_game",
                )
        if c.team_a == c.team_b:
            raise RuleError(N_("A team does not play itself."), field="team_b")
        teams = (state.team(c.team_a), state.team(c.team_b))
        played = (c.played_a, c.played_b)
        if c.surrendered and c.eliminated:
            raise RuleError(
                N_("A match ends by a surrender or an elimination, not both."),
                field="surrendered",
            )
        for team, ids in zip(teams, played, strict=True):
            if len(team.gladiators) != rules.TEAM_SIZE:
                raise RuleError(
                    N_("{team} must have 7 gladiators before playing."),
                    field="team_a",
                    team=team.name,
                )
            for gid in ids:
                g = team.gladiator(gid)
                if g.equipment is None:
                    raise RuleError(
                        N_("{name} has no magic equipment and cannot play."),
                        field="played_a",
                        name=g.name,
                    )
                if g.equipment == "armour" and g.armour is None:
                    raise RuleError(
                        N_("{name}'s magic armour is not rolled yet."),
                        field="played_a",
                        name=g.name,
                    )
            if len(set(ids)) != len(ids):
                raise RuleError(N_("A gladiator is listed twice."), field="played_a")
        side_of: dict[int, int] = {}
        for side, ids in enumerate(played):
            for gid in ids:
                side_of[gid] = side
        for gid, value in c.risk.items():
            if gid not in side_of:
                raise RuleError(
                    N_("Gladiator {gladiator} did not play this match."),
                    field="risk",
                    gladiator=gid,
                )
            if value > -11:
                raise RuleError(
                    N_("Only a gladiator below -10 (coma) has a risk of death, not {value}."),
                    field="risk",
                    value=value,
                )
        for gid in c.located:
            if gid not in c.risk:
                raise RuleError(
                    N_("A location is chosen only for a gladiator with a risk of death."),
                    field="located",
                )
        for gid in c.lost_equipment:
            if gid not in side_of:
                raise RuleError(
                    N_("Gladiator {gladiator} did not play this match."),
                    field="lost_equipment",
                    gladiator=gid,
                )

        championship = state.mode == "championship"
        pairing = None if championship else self._pairing(state, teams)
        # 3.2: power from the ranking and the EXP of those who play; TABLE 3: the margins.
        powers = [t.power(ids) for t, ids in zip(teams, played, strict=True)]
        margins = rules.targets(powers[0].power, powers[1].power)
        outcomes = rules.result_of((c.score_a, c.score_b), margins, c.surrendered, c.eliminated)
        free_throws = None
        if pairing is not None and outcomes == ("drawn", "drawn"):
            outcomes = self._free_throws(c)
            free_throws = (list(c.throws_a), list(c.throws_b))
        before = (teams[0].ranking, teams[1].ranking)
        for i, team in enumerate(teams):
            if championship:
                change = rules.ranking_change(
                    outcomes[i],
                    powers[i].division,
                    powers[1 - i].division,
                    state.draw_points,
                    state.surrender_points,
                )
                team.ranking = rules.new_ranking(team.ranking, change, championship)
            team.played += 1
            setattr(team, outcomes[i], getattr(team, outcomes[i]) + 1)
        number = len(state.matches) + 1
        if live is not None:
            live.recorded = number
        if pairing is not None:
            return self._tournament_match(
                state, c, teams, pairing, powers, margins, outcomes, free_throws, number, ctx
            )

        # Sequence 16: risks of death (TABLE 8), experience (12), equipment lost and restored.
        risks = []
        for gid, value in sorted(c.risk.items()):
            side = side_of[gid]
            g = teams[side].gladiator(gid)
            chosen = c.located.get(gid)
            die: int | None = None
            if chosen is None:
                rolled = ctx.dice.roll(
                    10, f"risk of death of {g.name}", owner=team_owner(teams[side])
                )
                die, where = rolled, rules.location(rolled)
            else:
                where = (
                    chosen  # TABLE 8: "Jetez 1D10 pour localiser [...] sauf si vous avez localisé"
                )
            fate = rules.fate_at(where, value)
            risks.append(
                Risk(
                    team="AB"[side],
                    gladiator=gid,
                    name=g.name,
                    state=value,
                    die=die,
                    location=where,
                    fate=fate,
                )
            )
        dead = {r.gladiator for r in risks if r.fate == "dead"}
        for side, team in enumerate(teams):
            for g in team.gladiators:
                g.may_reequip = g.id in played[side]
                if g.id in played[side]:
                    g.exp += rules.EXP_PER_MATCH
                    g.matches += 1
                if g.id in c.lost_equipment:
                    g.equipment, g.powers, g.armour = None, [], None
            for g in [g for g in team.gladiators if g.id in dead]:
                g.died_in = number
                team.gladiators.remove(g)
                team.fallen.append(g)
        state.matches.append(
            match_record(
                c,
                number,
                ctx.now,
                teams,
                powers,
                margins,
                outcomes,
                before,
                risks=risks,
                lost_equipment=list(c.lost_equipment),
            )
        )
        pieces = [
            Msg(
                N_("Match {number}: {a} {sa} – {sb} {b}; {a}: {oa}, {b}: {ob}."),
                {
                    "number": number,
                    "a": teams[0].name,
                    "b": teams[1].name,
                    "sa": c.score_a,
                    "sb": c.score_b,
                    "oa": Msg(OUTCOME_TITLES[outcomes[0]]),
                    "ob": Msg(OUTCOME_TITLES[outcomes[1]]),
                },
            ),
            Msg(
                N_("Ranking points: {a} {ra}, {b} {rb}."),
                {
                    "a": teams[0].name,
                    "b": teams[1].name,
                    "ra": teams[0].ranking,
                    "rb": teams[1].ranking,
                },
            ),
        ]
        for r in risks:
            pieces.append(
                Msg(
                    N_("Risk of death for {name}: {location}, {fate}."),
                    {
                        "name": r.name,
                        "location": Msg(LOCATION_TITLES[r.location]),
                        "fate": Msg(FATE_TITLES[r.fate]),
                    },
                )
            )
        return joined(pieces), {"match": number, "outcomes": list(outcomes)}

    # -- tournaments (13.2)

    def _bracket(self, state: LeagueState, c: DrawBracket, ctx: Context) -> Any:
        if state.mode != "tournament":
            raise RuleError(N_("A bracket is drawn in a tournament only."))
        if any(p.match is not None for r in state.bracket for p in r):
            raise RuleError(N_("The tournament has begun: its bracket no longer changes."))
        teams = [t.id for t in state.teams.values() if len(t.gladiators) == rules.TEAM_SIZE]
        if len(teams) < 2:
            raise RuleError(N_("A tournament needs at least two teams of 7 gladiators."))
        order: list[int] = []
        pool = sorted(teams)
        while pool:  # drawn one by one, every draw a die in the log
            order.append(
                pool.pop(ctx.dice.roll(len(pool), "bracket draw") - 1)
                if len(pool) > 1
                else pool.pop()
            )
        size = 1
        while size < len(order):
            size *= 2
        half = size // 2
        first = [
            Pairing(a=order[i], b=order[size - 1 - i] if size - 1 - i < len(order) else None)
            for i in range(half)
        ]
        for p in first:
            if p.b is None:
                p.winner = p.a  # a bye
        state.bracket = [first]
        state.champion = None
        self._advance(state)
        names = [
            f"{state.team(p.a).name if p.a else '—'} – {state.team(p.b).name if p.b else '—'}"
            for p in first
        ]
        return Msg(N_("Bracket drawn: {pairs}."), {"pairs": ", ".join(names)}), {}

    def _pairing(self, state: LeagueState, teams: tuple[Team, Team]) -> Pairing:
        if not state.bracket:
            raise RuleError(N_("Draw the tournament bracket first."), field="team_a")
        ids = {teams[0].id, teams[1].id}
        for p in state.bracket[-1]:
            if p.winner is None and {p.a, p.b} == ids:
                return p
        raise RuleError(
            N_("{a} and {b} do not meet in this round of the bracket."),
            field="team_a",
            a=teams[0].name,
            b=teams[1].name,
        )

    def _free_throws(self, c: RecordMatch) -> tuple[Outcome, Outcome]:
        """13.2, LANCERS FRANCS: a draw after 20 turns is decided by free throws."""
        if not c.throws_a and not c.throws_b:
            raise RuleError(
                N_("A draw in a tournament is decided by free throws: enter each try's points."),
                field="throws_a",
            )
        winner = rules.free_throw_winner((c.score_a, c.score_b), c.throws_a, c.throws_b)
        if not winner:
            raise RuleError(
                N_("Still tied after the free throws: two new tries with the same gladiators."),
                field="throws_a",
            )
        return ("won", "lost") if winner == "A" else ("lost", "won")

    def _tournament_match(
        self,
        state: LeagueState,
        c: RecordMatch,
        teams: tuple[Team, Team],
        pairing: Pairing,
        powers: list[rules.Power],
        margins: tuple[int, int],
        outcomes: tuple[Outcome, Outcome],
        free_throws: tuple[list[int], list[int]] | None,
        number: int,
        ctx: Context,
    ) -> Any:
        """13.2: only the winner goes on, with its team as it came to the tournament (the armour
        rolled at its first match kept; RAP is rolled again at every match)."""
        for team in teams:
            entered = state.entered.setdefault(
                str(team.id), [g.model_copy(deep=True) for g in team.gladiators]
            )
            team.gladiators = [g.model_copy(deep=True) for g in entered]
        winner = teams[0] if outcomes[0] == "won" else teams[1]
        pairing.winner, pairing.match = winner.id, number
        state.matches.append(
            match_record(
                c,
                number,
                ctx.now,
                teams,
                powers,
                margins,
                outcomes,
                (teams[0].ranking, teams[1].ranking),
                free_throws=free_throws,
            )
        )
        self._advance(state)
        pieces = [
            Msg(
                N_("Match {number}: {a} {sa} – {sb} {b}; {winner} goes on."),
                {
                    "number": number,
                    "a": teams[0].name,
                    "b": teams[1].name,
                    "sa": c.score_a + sum(c.throws_a),
                    "sb": c.score_b + sum(c.throws_b),
                    "winner": winner.name,
                },
            )
        ]
        if state.champion is not None:
            pieces.append(
                Msg(N_("{team} wins the tournament!"), {"team": state.team(state.champion).name})
            )
        return joined(pieces), {"match": number, "outcomes": list(outcomes)}

    def _advance(self, state: LeagueState) -> None:
        """When a round is over, its winners meet in the next; the last one left is champion."""
        while state.bracket and all(p.winner is not None for p in state.bracket[-1]):
            winners = [p.winner for p in state.bracket[-1]]
            if len(winners) == 1:
                state.champion = winners[0]
                return
            state.bracket.append(
                [Pairing(a=winners[i], b=winners[i + 1]) for i in range(0, len(winners), 2)]
            )

    # ------------------------------------------------------------------ platform questions

    def status(self, state: LeagueState) -> str:
        return "running"

    def roll_label(self, purpose: str, state: LeagueState) -> Msg | str | None:
        return rules.roll_label(purpose)

    def label(self, command: Any, state: LeagueState) -> Msg:
        if isinstance(command, RecordMatch):
            names = [state.teams.get(str(t)) for t in (command.team_a, command.team_b)]
            return Msg(
                N_("the match {a} – {b}"),
                {"a": names[0].name if names[0] else "?", "b": names[1].name if names[1] else "?"},
            )
        labels = {
            "team": N_("the team's creation"),
            "replace": N_("the recruit"),
            "improve": N_("the increase"),
            "reequip": N_("the new equipment"),
            "roll_armour": N_("the armour roll"),
            "bracket": N_("the bracket draw"),
            "points": N_("the ranking settings"),
            "mode": N_("the choice of mode"),
            "deck": N_("the new power deck"),
            "open_match": N_("the opening of the match"),
        }
        return Msg(labels[command.type])

    # ------------------------------------------------------------------ views

    def page_for(self, viewer: Viewer) -> str:
        if viewer.is_staff:
            return "staff"
        return "board" if viewer.role == "public" else "player"

    def view(self, state: LeagueState, viewer: Viewer, now: datetime) -> dict[str, Any]:
        view = self.public(state)
        if viewer.is_staff:
            view["teams"] = [self.sheet(state, t) for t in self.sorted_teams(state)]
            view["deck"] = state.deck.model_dump(mode="json")
            view["coaches"] = dict(state.coaches)
        elif viewer.role == "coach":
            view["teams"] = [
                self.sheet(state, t)
                for t in self.sorted_teams(state)
                if t.coach == viewer.person_id
            ]
            view["deck"] = state.deck.model_dump(mode="json")
        return view

    def sorted_teams(self, state: LeagueState) -> list[Team]:
        """13.1: the team with the most ranking points first."""
        return sorted(
            state.teams.values(), key=lambda t: (-t.ranking, -t.won, -t.total_exp, t.name.lower())
        )

    def public(self, state: LeagueState) -> dict[str, Any]:
        """What anyone may read: the table and the results, never a team's equipment."""
        rows = []
        for place, t in enumerate(self.sorted_teams(state), start=1):
            power = t.power()
            rows.append(
                {
                    "place": place,
                    "id": t.id,
                    "name": t.name,
                    "coach": t.coach_name,
                    "played": t.played,
                    "won": t.won,
                    "lost": t.lost,
                    "drawn": t.drawn,
                    "abandoned": t.abandoned,
                    "ranking": t.ranking,
                    "exp": t.total_exp,
                    "power": power.power,
                    "division": power.division,
                    "complete": len(t.gladiators) == rules.TEAM_SIZE,
                }
            )
        return {
            "mode": state.mode,
            "draw_points": state.draw_points,
            "surrender_points": state.surrender_points,
            "table": rows,
            "matches": [
                {
                    "number": m.number,
                    "at": m.at.isoformat(),
                    "names": list(m.names),
                    "teams": list(m.teams),
                    "score": list(m.score),
                    "powers": list(m.powers),
                    "divisions": list(m.divisions),
                    "margins": list(m.margins),
                    "outcomes": list(m.outcomes),
                    "surrendered": m.surrendered,
                    "eliminated": m.eliminated,
                    "ranking_before": list(m.ranking_before),
                    "ranking_after": list(m.ranking_after),
                    "risks": [r.model_dump() for r in m.risks],
                    "free_throws": [list(t) for t in m.free_throws] if m.free_throws else None,
                    "note": m.note,
                }
                for m in reversed(state.matches)
            ],
            "bracket": [
                [
                    {
                        "a": state.teams[str(p.a)].name if p.a else None,
                        "b": state.teams[str(p.b)].name if p.b else None,
                        "a_id": p.a,
                        "b_id": p.b,
                        "winner": state.teams[str(p.winner)].name if p.winner else None,
                        "match": p.match,
                    }
                    for p in round_
                ]
                for round_ in state.bracket
            ],
            "champion": state.teams[str(state.champion)].name if state.champion else None,
            "deck_size": len(state.deck.powers),
            "deck_sample": state.deck.sample,
            "coach_count": len(state.coaches),
            "live": [
                {
                    "game": m.game,
                    "names": list(m.names),
                    "teams": list(m.teams),
                    "mode": m.mode,
                    "recorded": m.recorded,
                }
                for m in reversed(state.live)
            ],
        }

    def sheet(self, state: LeagueState, team: Team) -> dict[str, Any]:
        """A team sheet (2, LA FEUILLE D'EQUIPE): for its coach and the staff only."""
        power = team.power()
        names = {p.key: p.name for p in state.deck.powers}
        return {
            "id": team.id,
            "name": team.name,
            "coach": team.coach_name,
            "coach_id": team.coach,
            "ranking": team.ranking,
            "played": team.played,
            "won": team.won,
            "lost": team.lost,
            "drawn": team.drawn,
            "abandoned": team.abandoned,
            "exp": team.total_exp,
            "power": power.power,
            "division": power.division,
            "power_explained": power.explain().render(),
            "complete": len(team.gladiators) == rules.TEAM_SIZE,
            "gladiators": [
                {
                    **g.model_dump(mode="json"),
                    "shield": g.shield,
                    "increases_left": g.increases_left,
                    "power_names": [names.get(p, p) for p in g.powers],
                }
                for g in sorted(team.gladiators, key=lambda g: g.number)
            ],
            "fallen": [g.model_dump(mode="json") for g in team.fallen],
            "history": [
                {
                    "number": m.number,
                    "at": m.at.isoformat(),
                    "other": m.names[1 - side],
                    "score": [m.score[side], m.score[1 - side]],
                    "outcome": m.outcomes[side],
                    "ranking": [m.ranking_before[side], m.ranking_after[side]],
                }
                for m in state.matches
                for side in (0, 1)
                if m.teams[side] == team.id
            ],
        }

    def log_view(self, event: LoggedEvent, viewer: Viewer) -> dict[str, Any] | None:
        if viewer.is_staff:
            return full_event(event)
        if event.type not in ("command", "undo"):
            return None
        # Summaries never name a power card; commands stay with the staff. The dice show, each
        # marked when entered by hand; a team's secret dice (its armour, the cards it drew) keep
        # their value for the coach whose action rolled them.
        mine = event.actor_id is not None and event.actor_id == viewer.person_id
        entry: dict[str, Any] = {
            "seq": event.seq,
            "at": event.at.isoformat(),
            "summary": event.summary.render(),
            "undone": event.undone,
            "rolls": rolls_for(event.rolls, lambda roll: mine),
        }
        if mine:  # what one's own action gave (the new team's number)
            entry["result"] = dict(event.result)
        return entry

    def template_globals(self) -> dict[str, Any]:
        return {
            "kpb_specializations": SPECIALIZATION_TITLES,
            "kpb_equipment": EQUIPMENT_TITLES,
            "kpb_outcomes": OUTCOME_TITLES,
            "kpb_fates": FATE_TITLES,
            "kpb_locations": LOCATION_TITLES,
            "kpb_improvable": rules.IMPROVABLE,
            "kpb_characteristics": rules.CHARACTERISTICS,
            "kpb_team_size": rules.TEAM_SIZE,
            "kpb_power_kinds": KIND_TITLES,
        }


KILLPOWER_LEAGUE = KillpowerLeague()
