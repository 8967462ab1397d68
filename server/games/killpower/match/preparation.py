"""Before the first turn (3.2): the lineups, the bluff cards, the RAP rolls, who places first."""

from __future__ import annotations

from server.errors import RuleError
from server.games.killpower import match_rules as mr
from server.games.killpower import rules
from server.games.killpower.match.commands import (
    Lineup,
)
from server.games.killpower.match.play import (
    Play,
)
from server.games.killpower.match.state import (
    SIDES,
    MatchState,
    make_fighter,
)
from server.i18n import N_, P_
from server.platform.kinds import PersonInfo


def prepare(p: Play) -> None:
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


def on_lineup(p: Play, c: Lineup) -> None:
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
        raise RuleError(N_("A championship match takes 1 to 3 bluff cards (3.2)."), field="bluff")
    if c.bluff > mr.BLUFF_BOUND:  # 13.2 sets no cap: this one is Arbitre's
        raise RuleError.counted(
            P_(
                "Arbitre keeps at most {count} bluff card a team: a bound of the app, the rules "
                "set none (13.2).",
                "Arbitre keeps at most {count} bluff cards a team: a bound of the app, the rules "
                "set none (13.2).",
            ),
            "count",
            field="bluff",
            count=mr.BLUFF_BOUND,
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
        prepare(p)


def seat_coach(state: MatchState, person: PersonInfo) -> MatchState:
    """A coach joining the match takes the first team with no coach yet."""
    if person.role != "coach":
        return state
    if any(t is not None and t.coach == person.id for t in state.teams.values()):
        return state  # a link re-issued: the coach keeps their side, never takes the other
    state = state.model_copy(deep=True)
    for side in SIDES:
        team = state.teams.get(side)
        if team is not None and team.coach is None:
            team.coach = person.id
            break
    return state
