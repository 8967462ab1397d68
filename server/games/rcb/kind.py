"""Roi / Chevalier / Bourreau as a game kind. Views are built per viewer from the state, never
from the full state filtered in a template: a team's view holds no role but its own fighters'."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, ClassVar, Literal

from pydantic import BaseModel, Field, TypeAdapter, ValidationError

from server.errors import RuleError
from server.games.rcb import rules
from server.games.rcb.rules import (
    ROLE_TITLES,
    ROLES,
    Fighter,
    Matrix,
    Phone,
    RCBSettings,
    RCBState,
    Round,
    Team,
)
from server.platform.dice import Dice
from server.platform.i18n import N_, Msg, joined
from server.platform.kinds import (
    Context,
    GameKind,
    LoggedEvent,
    Outcome,
    PersonInfo,
    Viewer,
    full_event,
)
from server.platform.refs import PersonRef
from server.platform.timers import Timer


class TeamNames(BaseModel):
    type: Literal["team_names"]
    a: str = Field(min_length=1, max_length=30)
    b: str = Field(min_length=1, max_length=30)


class Settings(BaseModel):
    type: Literal["settings"]
    bets: int = Field(ge=1, le=200)
    bank: int = Field(ge=0, le=200)
    designation_seconds: int = Field(ge=5, le=600)


class SetMatrix(BaseModel):
    type: Literal["matrix"]
    wins: list[str] = Field(default_factory=list, max_length=20)  # "king>knight", ...


class Assign(BaseModel):
    type: Literal["assign"]
    person: PersonRef
    team: Literal["A", "B", ""]


class RandomTeams(BaseModel):
    type: Literal["random_teams"]


class Deal(BaseModel):
    type: Literal["deal"]


class RoundStart(BaseModel):
    type: Literal["round"]


class DesignationDue(BaseModel):
    type: Literal["designation_due"]


class Fighters(BaseModel):
    type: Literal["fighters"]
    a: PersonRef
    b: PersonRef
    opponent_a: bool = False  # A was late or sent several: B chose A's fighter
    opponent_b: bool = False


class Stakes(BaseModel):
    type: Literal["stakes"]
    a: int = Field(ge=0, le=rules.MAX_STAKE)
    b: int = Field(ge=0, le=rules.MAX_STAKE)


class Duel(BaseModel):
    type: Literal["duel"]


class Reveal(BaseModel):
    type: Literal["reveal"]


Command = Annotated[
    TeamNames
    | Settings
    | SetMatrix
    | Assign
    | RandomTeams
    | Deal
    | RoundStart
    | DesignationDue
    | Fighters
    | Stakes
    | Duel
    | Reveal,
    Field(discriminator="type"),
]
SETUP = (TeamNames, Settings, SetMatrix, Assign, RandomTeams, Deal)


class RoiChevalierBourreau(GameKind[RCBState]):
    key = "rcb"
    title = N_("King / Knight / Executioner")
    tagline = N_("Two teams, secret characters, bets and a bank: the game master's console.")
    roles = ("fighter", "team")
    role_titles: ClassVar[dict[str, str]] = {
        "fighter": N_("fighter"),
        "team": N_("team phone"),
        "organizer": N_("game master"),
    }
    allows_referees = False
    state_model = RCBState
    settings_model = RCBSettings
    commands: TypeAdapter[Any] = TypeAdapter(Command)

    # ------------------------------------------------------------------ rules

    def new_state(self, settings: BaseModel) -> RCBState:
        assert isinstance(settings, RCBSettings)
        return RCBState(
            bets_setting=settings.bets,
            bank_setting=settings.bank,
            designation_seconds=settings.designation_seconds,
        )

    def add_person(self, state: RCBState, person: PersonInfo) -> RCBState:
        if person.role not in ("fighter", "team"):
            return state
        state = state.model_copy(deep=True)
        if state.phase != "setup":
            raise RuleError(N_("People join before the cards are dealt."))
        if person.role == "fighter":
            state.fighters[str(person.id)] = Fighter(id=person.id, name=person.name)
        else:
            state.phones[str(person.id)] = Phone(id=person.id, name=person.name)
        return state

    def remove_person(self, state: RCBState, person: PersonInfo) -> RCBState:
        key = str(person.id)
        if state.phase != "setup" or (key not in state.fighters and key not in state.phones):
            return state  # dealt: the cards are in play, the referee decides
        state = state.model_copy(deep=True)
        state.fighters.pop(key, None)
        state.phones.pop(key, None)
        return state

    def apply(self, state: RCBState, command: Any, ctx: Context) -> Outcome[RCBState]:
        state = state.model_copy(deep=True)
        if isinstance(command, SETUP) and state.phase != "setup":
            raise RuleError(N_("This is settled before the cards are dealt."))
        if state.phase == "finished" and not isinstance(command, Reveal):
            raise RuleError(N_("The game is over."))
        summary = getattr(self, f"_{command.type}")(state, command, ctx.dice, ctx.now)
        return Outcome(state, summary, {})

    def _team_names(self, state: RCBState, c: TeamNames, dice: Dice, now: datetime) -> Msg:
        state.team_names = {"A": c.a.strip(), "B": c.b.strip()}
        return Msg(N_("Teams: {a} and {b}."), {"a": c.a, "b": c.b})

    def _settings(self, state: RCBState, c: Settings, dice: Dice, now: datetime) -> Msg:
        state.bets_setting, state.bank_setting = c.bets, c.bank
        state.designation_seconds = c.designation_seconds
        return Msg(N_("Settings saved."))

    def _matrix(self, state: RCBState, c: SetMatrix, dice: Dice, now: datetime) -> Msg:
        beats: dict[str, list[str]] = {role: [] for role in ROLES}
        for win in c.wins:
            winner, _, loser = win.partition(">")
            if winner not in ROLES or loser not in ROLES:
                raise RuleError(N_("Unknown pairing “{win}”."), field="wins", win=win)
            beats[winner].append(loser)
        try:
            state.matrix = Matrix.model_validate({"beats": beats})
        except ValidationError:
            raise RuleError(N_("Two characters cannot beat each other."), field="wins") from None
        return Msg(N_("Who beats whom: saved."))

    def _assign(self, state: RCBState, c: Assign, dice: Dice, now: datetime) -> Msg:
        person = state.fighters.get(str(c.person)) or state.phones.get(str(c.person))
        if person is None:
            raise RuleError(N_("No fighter number {id}."), field="person", id=c.person)
        person.team = c.team or None
        if person.team is None:
            return Msg(N_("{name} has no team."), {"name": person.name})
        return Msg(
            N_("{name} joins team {team}."),
            {"name": person.name, "team": state.team_names[person.team]},
        )

    def _random_teams(self, state: RCBState, c: RandomTeams, dice: Dice, now: datetime) -> Msg:
        rules.split_at_random(state, dice)
        return Msg(N_("Teams drawn at random."))

    def _deal(self, state: RCBState, c: Deal, dice: Dice, now: datetime) -> Msg:
        rules.deal(state, dice)
        state.dealt_at = now
        self._maybe_end(state)
        return Msg(N_("Cards dealt to {count} fighters."), {"count": len(state.fighters)})

    def _round(self, state: RCBState, c: RoundStart, dice: Dice, now: datetime) -> Msg:
        if state.phase != "ready":
            raise RuleError(N_("The current duel is not settled yet."))
        number = len(state.rounds) + 1
        state.current = Round(number=number, carried_a=state.carry["A"], carried_b=state.carry["B"])
        state.carry = {"A": 0, "B": 0}
        state.phase = "designation"
        state.timer = Timer.start(now, state.designation_seconds)
        state.time_up = False
        return Msg(N_("Round {number}: choose your fighter!"), {"number": number})

    def _designation_due(
        self, state: RCBState, c: DesignationDue, dice: Dice, now: datetime
    ) -> Msg:
        state.timer = None
        state.time_up = True
        return Msg(N_("Time is up: fighters, step forward!"))

    def _fighters(self, state: RCBState, c: Fighters, dice: Dice, now: datetime) -> Msg:
        if state.phase != "designation" or state.current is None:
            raise RuleError(N_("Start a round first; a duel under way must be settled."))
        for team, fighter_id in (("A", c.a), ("B", c.b)):
            fighter = state.fighter(fighter_id)
            if fighter.team != team:
                raise RuleError(
                    N_("{name} is not in team {team}."),
                    field=f"fighter_{team.lower()}",
                    name=fighter.name,
                    team=state.team_names[team],  # type: ignore[index]
                )
            if fighter.ghost:
                raise RuleError(
                    N_("{name} is a ghost and can no longer fight."),
                    field=f"fighter_{team.lower()}",
                    name=fighter.name,
                )
        current = state.current
        current.fighter_a, current.fighter_b = c.a, c.b
        current.chosen_by_opponent_a, current.chosen_by_opponent_b = c.opponent_a, c.opponent_b
        state.timer = None
        state.phase = "stakes"
        return Msg(
            N_("Fighters, step forward: {a} against {b}."),
            {"a": state.fighter(c.a).name, "b": state.fighter(c.b).name},
        )

    def _stakes(self, state: RCBState, c: Stakes, dice: Dice, now: datetime) -> Msg:
        if state.phase != "stakes" or state.current is None:
            raise RuleError(N_("Stakes come after the fighters step forward."))
        rules.check_stake(state, "A", c.a)
        rules.check_stake(state, "B", c.b)
        state.bets["A"] -= c.a
        state.bets["B"] -= c.b
        state.current.stake_a, state.current.stake_b = c.a, c.b
        state.phase = "duel"
        return Msg(
            N_("Place your bets: {a} staked {sa}, {b} staked {sb}."),
            {"a": state.team_names["A"], "b": state.team_names["B"], "sa": c.a, "sb": c.b},
        )

    def _duel(self, state: RCBState, c: Duel, dice: Dice, now: datetime) -> Msg:
        if state.phase != "duel" or state.current is None:
            raise RuleError(N_("The duel comes after the stakes."))
        current = state.current
        rules.settle_duel(state, current)
        state.rounds.append(current)
        state.current = None
        state.phase = "ready"
        a, b = state.fighter(current.fighter_a or 0), state.fighter(current.fighter_b or 0)
        if current.outcome == "tie":
            text = Msg(
                N_("Round {n}: tie between {a} and {b}; the stakes stay in the middle."),
                {"n": current.number, "a": a.name, "b": b.name},
            )
        else:
            winner, loser = (a, b) if current.outcome == "A" else (b, a)
            text = Msg(
                N_("Round {n}: team {team} wins; {loser} becomes a ghost."),
                {
                    "n": current.number,
                    "team": state.team_names[current.outcome],  # type: ignore[index]
                    "loser": loser.name,
                    "winner": winner.name,
                },
            )
        pieces = [text]
        if current.taxes_a or current.taxes_b:
            pieces.append(
                Msg(
                    N_("The bank is empty: taxes of {ta} and {tb} cards."),
                    {"ta": current.taxes_a, "tb": current.taxes_b},
                )
            )
        end = self._maybe_end(state)
        if end is not None:
            pieces.append(end)
        return joined(pieces)

    def _maybe_end(self, state: RCBState) -> Msg | None:
        result = rules.end_of_game(state)
        if result is None:
            return None
        rules.finish(state, result)
        if result.reason == "perfect_tie":
            return Msg(N_("Perfect tie: no duel can be won any more, both teams win!"))
        if len(result.winners) == 2:
            return Msg(N_("Game over: equal bet cards, both teams win!"))
        return Msg(
            N_("Game over: team {team} wins with {cards} bet cards!"),
            {"team": state.team_names[result.winners[0]], "cards": state.bets[result.winners[0]]},
        )

    def _reveal(self, state: RCBState, c: Reveal, dice: Dice, now: datetime) -> Msg:
        if state.phase != "finished":
            raise RuleError(N_("Roles are revealed only at the end."))
        state.revealed = True
        return Msg(N_("The game master reveals every role."))

    # ------------------------------------------------------------------ platform questions

    def status(self, state: RCBState) -> str:
        return {"setup": "setup", "finished": "finished"}.get(state.phase, "running")

    def next_deadline(self, state: RCBState) -> datetime | None:
        return state.timer.deadline if state.timer else None

    def due(self, state: RCBState, now: datetime) -> list[Any]:
        if state.phase == "designation" and state.timer is not None and state.timer.due(now):
            return [DesignationDue(type="designation_due")]
        return []

    def may_send(self, viewer: Viewer, command: Any) -> bool:
        return viewer.is_organizer and not isinstance(command, DesignationDue)

    def roll_label(self, purpose: str, state: RCBState) -> Msg | str | None:
        """The shuffle's dice are secret steps of one draw: the journal names the draw only."""
        if purpose.startswith("shuffle_"):
            return None
        if purpose.startswith("team_"):
            return Msg(N_("drawing the teams"))
        return purpose

    def label(self, command: Any, state: RCBState) -> Msg:
        labels = {
            "team_names": N_("team names"),
            "settings": N_("settings"),
            "matrix": N_("who beats whom"),
            "assign": N_("team choice"),
            "random_teams": N_("teams drawn"),
            "deal": N_("the deal"),
            "round": N_("round start"),
            "designation_due": N_("end of the countdown"),
            "fighters": N_("the fighters"),
            "stakes": N_("the stakes"),
            "duel": N_("the duel"),
            "reveal": N_("the reveal"),
        }
        return Msg(labels[command.type])

    # ------------------------------------------------------------------ views

    def page_for(self, viewer: Viewer) -> str:
        if viewer.is_organizer:
            return "staff"
        return "board" if viewer.role == "public" else "player"

    def view(self, state: RCBState, viewer: Viewer, now: datetime) -> dict[str, Any]:
        public = self._public(state)
        if viewer.is_organizer:
            return {**public, "gm": self._gm(state)}
        team: Team | None = None
        me: dict[str, Any] | None = None
        fighter = state.fighters.get(str(viewer.person_id))
        phone = state.phones.get(str(viewer.person_id))
        if fighter is not None:
            team = fighter.team
            me = {
                "name": fighter.name,
                "team": team,
                "ghost": fighter.ghost,
                "role": fighter.role if not fighter.ghost else None,
            }
        elif phone is not None:
            team = phone.team
        view = {**public, "me": me}
        if team is not None:
            view["own"] = self._team(state, team)
        return view

    def _public(self, state: RCBState) -> dict[str, Any]:
        """What anyone sees: never a role, unless the game master revealed them at the end."""
        current = state.current
        names = {str(f.id): f.name for f in state.fighters.values()}
        view: dict[str, Any] = {
            "phase": state.phase,
            "team_names": state.team_names,
            "round": (current.number if current else len(state.rounds)),
            "timer": state.timer.model_dump(mode="json") if state.timer else None,
            "time_up": state.time_up,
            "bets": dict(state.bets),
            "bank": state.bank,
            "middle": {
                "A": state.carry["A"]
                + ((current.stake_a or 0) + current.carried_a if current else 0),
                "B": state.carry["B"]
                + ((current.stake_b or 0) + current.carried_b if current else 0),
            },
            "teams": {
                team: [
                    {"name": f.name, "ghost": f.ghost}
                    for f in sorted(state.team(team), key=lambda f: f.name)
                ]
                for team in ("A", "B")
            },
            "left": {"A": len(state.standing("A")), "B": len(state.standing("B"))},
            "current": None,
            "history": [
                {
                    "number": r.number,
                    "a": names.get(str(r.fighter_a)),
                    "b": names.get(str(r.fighter_b)),
                    "outcome": r.outcome,
                    "taxes": [r.taxes_a, r.taxes_b],
                }
                for r in state.rounds
            ],
            "result": state.result.model_dump() if state.result else None,
            "revealed": None,
            "fighter_count": len(state.fighters),
        }
        if current is not None:
            view["current"] = {
                "number": current.number,
                "a": names.get(str(current.fighter_a)),
                "b": names.get(str(current.fighter_b)),
                "stake_a": current.stake_a,
                "stake_b": current.stake_b,
                "carried_a": current.carried_a,
                "carried_b": current.carried_b,
            }
        if state.revealed:
            view["revealed"] = [
                {"name": f.name, "team": f.team, "role": f.role, "ghost": f.ghost}
                for f in sorted(state.fighters.values(), key=lambda f: (f.team or "", f.name))
            ]
        return view

    def _team(self, state: RCBState, team: Team) -> dict[str, Any]:
        """A team's own view: its members' roles (ghosts' cards stay with the game master)."""
        return {
            "team": team,
            "name": state.team_names[team],
            "members": [
                {"name": f.name, "ghost": f.ghost, "role": None if f.ghost else f.role}
                for f in sorted(state.team(team), key=lambda f: f.name)
            ],
            "bets": state.bets[team],
            "max_stake": rules.max_stake(state.bets[team]),
        }

    def _gm(self, state: RCBState) -> dict[str, Any]:
        return {
            "fighters": [
                f.model_dump() for f in sorted(state.fighters.values(), key=lambda f: f.name)
            ],
            "phones": [p.model_dump() for p in state.phones.values()],
            "beats": state.matrix.beats,
            "set_aside": state.set_aside,
            "settings": {
                "bets": state.bets_setting,
                "bank": state.bank_setting,
                "designation_seconds": state.designation_seconds,
            },
            "deal_table": rules.DEAL_TABLE,
            "rounds": [r.model_dump() for r in state.rounds],
            "current": state.current.model_dump() if state.current else None,
            "max_stake": {t: rules.max_stake(state.bets[t]) for t in ("A", "B")},
            "cards_total": state.total_cards(),
        }

    def log_view(self, event: LoggedEvent, viewer: Viewer) -> dict[str, Any] | None:
        if viewer.is_organizer:
            return full_event(event)
        if event.type not in ("command", "undo"):
            return None
        # Summaries never name a role; the commands and results stay with the game master.
        return {
            "seq": event.seq,
            "at": event.at.isoformat(),
            "summary": event.summary.render(),
            "undone": event.undone,
        }

    def template_globals(self) -> dict[str, Any]:
        return {"character_title": lambda role: ROLE_TITLES.get(role, role), "rcb_roles": ROLES}


RCB = RoiChevalierBourreau()
