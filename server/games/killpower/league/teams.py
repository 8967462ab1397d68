"""Building a team (2): the wizard's seven gladiators, their magic equipment, recruits, increases
and new equipment after a match (3.4), a tournament's armour rolls (13.2)."""

from __future__ import annotations

from server.errors import NotAllowed, RuleError
from server.games.killpower import rules
from server.games.killpower.league.commands import (
    CreateTeam,
    Improve,
    Recruit,
    Reequip,
    Replace,
    RollArmour,
)
from server.games.killpower.league.state import (
    EQUIPMENT_TITLES,
    Gladiator,
    LeagueState,
    Team,
    team_owner,
)
from server.games.killpower.rules import (
    Equipment,
)
from server.i18n import N_, Msg
from server.platform.dice import Dice
from server.platform.kinds import (
    Applied,
    Context,
    Viewer,
)


def own_team(state: LeagueState, team_id: int, actor: Viewer) -> Team:
    team = state.team(team_id)
    if actor.role == "coach" and team.coach != actor.person_id:
        raise NotAllowed(N_("This team belongs to another coach."))
    return team


def recruit(
    state: LeagueState, team: Team, spec: Recruit, held: list[str], dice: Dice
) -> Gladiator:
    gladiator = Gladiator(
        id=state.new_id(),
        number=spec.number,
        name=spec.name,
        specialization=spec.specialization,
        equipment=spec.equipment,
        characteristics=rules.starting_characteristics(spec.specialization),
    )
    equip(state, team, gladiator, spec.equipment, spec.powers, held, dice)
    return gladiator


def equip(
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
            raise RuleError(N_("{name}: choose two powers."), field="powers", name=gladiator.name)
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
        die = dice.roll(len(choices), f"power card for {gladiator.name}", owner=owner, secret=True)
        key = choices[die - 1]
        gladiator.powers.append(key)
        pack.remove(key)


def equipment_offered(state: LeagueState, team: Team, gladiator: Gladiator) -> list[str]:
    """The magic equipment a gladiator may be given now, as `equip` judges it (2.1): power
    cards only where the team's pack still holds two to draw (a tournament's are chosen, by
    the team's sheet, not drawn here)."""
    offered = [key for key in EQUIPMENT_TITLES if key != "powers"]
    if state.mode == "tournament":
        return offered
    pack = state.deck.copies()
    for key in (p for x in team.gladiators if x.id != gladiator.id for p in x.powers):
        if key in pack:
            pack.remove(key)
    if len(set(pack)) >= rules.POWERS_PER_GLADIATOR:
        offered.append("powers")
    return [key for key in EQUIPMENT_TITLES if key in offered]


def check_coach(state: LeagueState, coach: int | None) -> int | None:
    if coach is not None and str(coach) not in state.coaches:
        raise RuleError(N_("No coach {coach} in this league."), field="coach", coach=coach)
    return coach


def team_name(state: LeagueState, raw: str) -> str:
    """The name, its spaces tidied: one team a name in the league, whatever the case."""
    name = " ".join(raw.split())
    if not name:
        raise RuleError(N_("Give the team a name."), field="name")
    taken = next((t for t in state.teams.values() if t.name.lower() == name.lower()), None)
    if taken is not None:
        raise RuleError(N_("A team is already named “{name}”."), field="name", name=taken.name)
    return name


def check_numbers(numbers: list[int]) -> None:
    if len(set(numbers)) != len(numbers):
        raise RuleError(N_("Two gladiators wear the same number."), field="gladiators")


def on_team(state: LeagueState, c: CreateTeam, ctx: Context) -> Applied:
    actor = ctx.actor
    coach = check_coach(state, actor.person_id if actor.role == "coach" else c.coach)
    if len(c.gladiators) != rules.TEAM_SIZE:
        raise RuleError(
            N_("A team has exactly 7 gladiators, not {count}."),
            field="gladiators",
            count=len(c.gladiators),
        )
    name = team_name(state, c.name)
    check_numbers([g.number for g in c.gladiators])
    if state.mode == "tournament":
        rules.check_tournament_powers(
            [g.powers for g in c.gladiators if g.equipment == "powers"], state.deck.names()
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
        team.gladiators.append(recruit(state, team, spec, held, ctx.dice))
    state.teams[str(team.id)] = team
    return Applied(
        Msg(
            N_("{coach} creates the team {team}: seven gladiators."),
            {"coach": team.coach_name, "team": team.name},
        ),
        {"team": team.id},
    )


def on_replace(state: LeagueState, c: Replace, ctx: Context) -> Applied:
    team = own_team(state, c.team, ctx.actor)
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
            [g.powers for g in team.gladiators if g.equipment == "powers"] + [c.recruit.powers],
            state.deck.names(),
        )
    held = [p for g in team.gladiators for p in g.powers]
    newcomer = recruit(state, team, c.recruit, held, ctx.dice)
    team.gladiators.append(newcomer)
    team.gladiators.sort(key=lambda g: g.number)
    return Applied(
        Msg(
            N_("{team} recruits {name} (no. {number})."),
            {"team": team.name, "name": newcomer.name, "number": newcomer.number},
        ),
        {"gladiator": newcomer.id},
    )


def coach_note(team: Team, note: Msg) -> dict[str, list[Msg]]:
    """A private note for the team's coach (the staff read every event whole)."""
    return {f"person:{team.coach}": [note]} if team.coach is not None else {}


def on_improve(state: LeagueState, c: Improve, ctx: Context) -> Applied:
    team = own_team(state, c.team, ctx.actor)
    g = team.gladiator(c.gladiator)
    value = g.characteristics[c.characteristic]
    rules.check_increase(c.characteristic, value, g.exp, g.increases)
    g.characteristics[c.characteristic] = value + 1
    g.increases += 1
    # A team's sheet is its coach's: the table reads that an increase was taken, the coach
    # (and the staff) which.
    detail = Msg(
        N_("{name} ({team}) gains 1 {characteristic}: {value}."),
        {"name": g.name, "team": team.name, "characteristic": c.characteristic, "value": value + 1},
    )
    return Applied(
        Msg(N_("{team} takes an increase."), {"team": team.name}),
        private=coach_note(team, detail),
    )


def on_reequip(state: LeagueState, c: Reequip, ctx: Context) -> Applied:
    team = own_team(state, c.team, ctx.actor)
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
            + [c.powers],
            state.deck.names(),
        )
    held = [p for x in team.gladiators if x.id != g.id for p in x.powers]
    equip(state, team, g, c.equipment, c.powers, held, ctx.dice)
    g.may_reequip = False
    return Applied(
        Msg(N_("{name} ({team}) gets new magic equipment."), {"name": g.name, "team": team.name}),
        {},
    )


def on_roll_armour(state: LeagueState, c: RollArmour, ctx: Context) -> Applied:
    team = own_team(state, c.team, ctx.actor)
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
    # Who wears armour is on the team's sheet: the coach's alone.
    detail = Msg(
        N_("Magic armour rolled for {team}: {names}."),
        {"team": team.name, "names": ", ".join(rolled)},
    )
    return Applied(
        Msg(N_("Magic armour rolled for {team}."), {"team": team.name}),
        private=coach_note(team, detail),
    )
