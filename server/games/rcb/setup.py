"""Before the first round (steps 1 to 4): team names, settings, who beats whom, the teams, the
character cards dealt by the rule book's table and the bet cards."""

from __future__ import annotations

from pydantic import ValidationError

from server.errors import RuleError
from server.games.rcb.commands import Assign, Deal, RandomTeams, SetMatrix, Settings, TeamNames
from server.games.rcb.ending import maybe_end
from server.games.rcb.state import ROLES, Matrix, RCBState, Role
from server.i18n import N_, Msg
from server.platform.dice import SERVER, Dice
from server.platform.kinds import Applied, Context

# Cards dealt by number of fighters (the rule book's table): Witch, Dragon, Executioner, Knight, King.
DEAL_TABLE: list[tuple[int, int, dict[Role, int]]] = [
    (6, 7, {"witch": 1, "dragon": 1, "executioner": 2, "knight": 2, "king": 2}),
    (8, 10, {"witch": 1, "dragon": 1, "executioner": 3, "knight": 3, "king": 3}),
    (11, 13, {"witch": 1, "dragon": 1, "executioner": 4, "knight": 4, "king": 4}),
    (14, 17, {"witch": 1, "dragon": 1, "executioner": 5, "knight": 5, "king": 5}),
]


def cards_for(fighters: int) -> dict[Role, int]:
    """The character cards to use for this many fighters (Nombre de joueurs table)."""
    for low, high, cards in DEAL_TABLE:
        if low <= fighters <= high:
            return dict(cards)
    raise RuleError(
        N_("The deal needs 6 to 17 fighters, not {count}."), field="fighters", count=fighters
    )


def deal_refusal(state: RCBState) -> RuleError | None:
    """Why the cards cannot be dealt now, or None: what the deal refuses and what the game
    master's page says instead of the button (issue 53)."""
    fighters = list(state.fighters.values())
    unassigned = [f.name for f in fighters if f.team is None]
    if unassigned:
        return RuleError(
            N_("Put every fighter in a team first: {names}."),
            field="team",
            names=", ".join(unassigned),
        )
    for team in ("A", "B"):
        if not state.team(team):
            return RuleError(N_("Each team needs at least one fighter."), field="team")
    try:
        cards_for(len(fighters))
    except RuleError as error:
        return error
    return None


def deal(state: RCBState, dice: Dice) -> None:
    """Rules 2-4: character cards by the table, shuffled, one to each fighter; 15 bet cards to
    each team, the rest is the bank."""
    refusal = deal_refusal(state)
    if refusal is not None:
        raise refusal
    fighters = list(state.fighters.values())
    counts = cards_for(len(fighters))
    deck: list[Role] = [role for role in ROLES for _ in range(counts[role])]
    for i in range(len(deck) - 1, 0, -1):
        j = dice.roll(i + 1, f"shuffle_{i}", owner=SERVER, secret=True) - 1
        deck[i], deck[j] = deck[j], deck[i]
    for fighter in sorted(fighters, key=lambda f: f.id):
        fighter.role = deck.pop(0)
    state.set_aside = deck
    state.bets = {"A": state.bets_setting, "B": state.bets_setting}
    state.bank = state.bank_setting
    state.phase = "ready"


def split_at_random(state: RCBState, dice: Dice) -> None:
    """Two teams drawn by the dice, as even as the count allows. A team's phone is its team's,
    not a fighter: each phone not yet in a team goes to the team with fewer phones (A first), so
    that no phone is left out of the draw."""
    people = sorted(state.fighters.values(), key=lambda f: f.id)
    for i in range(len(people) - 1, 0, -1):
        j = dice.roll(i + 1, f"team_{i}", owner=SERVER) - 1
        people[i], people[j] = people[j], people[i]
    for index, fighter in enumerate(people):
        fighter.team = "A" if index % 2 == 0 else "B"
    for phone in sorted(state.phones.values(), key=lambda p: p.id):
        if phone.team is None:
            held = {t: sum(p.team == t for p in state.phones.values()) for t in ("A", "B")}
            phone.team = "A" if held["A"] <= held["B"] else "B"


# -------------------------------------------------------------------- handlers


def on_team_names(state: RCBState, c: TeamNames, ctx: Context) -> Applied:
    state.team_names = {"A": c.a.strip(), "B": c.b.strip()}
    return Applied(Msg(N_("Teams: {a} and {b}."), {"a": c.a, "b": c.b}))


def on_settings(state: RCBState, c: Settings, ctx: Context) -> Applied:
    state.bets_setting, state.bank_setting = c.bets, c.bank
    state.designation_seconds = c.designation_seconds
    return Applied(Msg(N_("Settings saved.")))


def on_matrix(state: RCBState, c: SetMatrix, ctx: Context) -> Applied:
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
    return Applied(Msg(N_("Who beats whom: saved.")))


def on_assign(state: RCBState, c: Assign, ctx: Context) -> Applied:
    person = state.fighters.get(str(c.person)) or state.phones.get(str(c.person))
    if person is None:
        raise RuleError(N_("No fighter number {id}."), field="person", id=c.person)
    # Dealt: a fighter's team is settled, and a phone already in a team would show its new
    # team's roles to whoever holds it after the old one's. A phone left out of every team is
    # placed now, once (issue 50).
    placing = str(c.person) in state.phones and person.team is None and bool(c.team)
    if state.phase != "setup" and not placing:
        raise RuleError(N_("This is settled before the cards are dealt."), field="team")
    person.team = c.team or None
    if person.team is None:
        return Applied(Msg(N_("{name} has no team."), {"name": person.name}))
    return Applied(
        Msg(
            N_("{name} joins team {team}."),
            {"name": person.name, "team": state.team_names[person.team]},
        )
    )


def on_random_teams(state: RCBState, c: RandomTeams, ctx: Context) -> Applied:
    split_at_random(state, ctx.dice)
    return Applied(Msg(N_("Teams drawn at random.")))


def on_deal(state: RCBState, c: Deal, ctx: Context) -> Applied:
    deal(state, ctx.dice)
    state.dealt_at = ctx.now
    maybe_end(state)
    return Applied(Msg(N_("Cards dealt to {count} fighters."), {"count": len(state.fighters)}))
