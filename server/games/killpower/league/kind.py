"""A Killpower Ball league as a game kind: the wiring of its state, commands, rule handlers and
views.

The owner (the organizer) runs the league and its settings; coaches join with their link and build
their teams with the chapter 2 wizard; the owner or a referee records each finished match (or the
match's own game does, played on the live sheet), and the end-of-match operations of 3.4 follow at
once: risk-of-death rolls on TABLE 8, experience, ranking points. A team's sheet (its gladiators'
equipment and power cards) is seen by its coach and the staff only; everyone else sees the table
and the results.

Where a rule goes: `state.py` holds what the league is made of, `commands.py` what may be asked
(`forms.py` reads the phone's forms as commands), and each rule module one part of the rule book
(`teams` 2 and 3.4, `matches` 3.4, `tournament` 13.2, `settings` the owner's choices), its
handlers listed in `MOVES` below; `views.py` says what each viewer sees.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from typing import Any, ClassVar

from pydantic import BaseModel

from server.games.killpower import rules
from server.games.killpower.league import forms, matches, paper, settings, teams, tournament, views
from server.games.killpower.league.commands import (
    CreateTeam,
    DrawBracket,
    EnterTeam,
    Improve,
    OpenMatch,
    RecordMatch,
    Reequip,
    Replace,
    RollArmour,
    SetDeck,
    SetMode,
    SetPoints,
)
from server.games.killpower.league.state import LeagueSettings, LeagueState, team_owner
from server.i18n import N_, Msg
from server.platform.kinds import (
    NOBODY,
    ORGANIZER,
    STAFF,
    GameKind,
    Move,
    PersonInfo,
    Viewer,
    staff_reads_all,
)

COACHES = ORGANIZER | {"coach"}  # a team's coach, or the owner for a team they keep
# A finished match's result: its game sends it (3.4), else the owner or a referee enters it.
RECORDERS = STAFF | {"system"}

MOVES = (
    Move(CreateTeam, teams.on_team, COACHES, label=N_("the team's creation")),
    Move(EnterTeam, paper.on_paper_team, ORGANIZER, label=N_("the team entered from paper")),
    Move(Replace, teams.on_replace, COACHES, label=N_("the recruit")),
    Move(Improve, teams.on_improve, COACHES, label=N_("the increase")),
    Move(Reequip, teams.on_reequip, COACHES, label=N_("the new equipment")),
    Move(RollArmour, teams.on_roll_armour, STAFF | COACHES, label=N_("the armour roll")),
    Move(SetMode, settings.on_mode, ORGANIZER, label=N_("the choice of mode")),
    Move(SetPoints, settings.on_points, ORGANIZER, label=N_("the ranking settings")),
    Move(SetDeck, settings.on_deck, ORGANIZER, label=N_("the new power deck")),
    # Recorded by the platform when it opens a match (`linked_game`), never sent.
    Move(OpenMatch, matches.on_open_match, NOBODY, label=N_("the opening of the match")),
    Move(RecordMatch, matches.on_match, RECORDERS),
    Move(DrawBracket, tournament.on_bracket, ORGANIZER, label=N_("the bracket draw")),
)


class KillpowerLeague(GameKind[LeagueState]):
    key = "killpower_league"
    title = N_("Killpower Ball league")
    tagline = N_("Teams, power cards, match results and the championship table.")
    roles = ("coach",)
    open_role = "coach"  # coaches join the league by its invitation link
    role_titles: ClassVar[dict[str, str]] = {
        "coach": N_("coach"),
        "organizer": N_("league owner"),
    }
    state_model = LeagueState
    ready_title = N_("Your league is ready")
    invite_title = N_("Invite the coaches")
    settings_model = LeagueSettings
    moves = MOVES
    # The league's owner and referees keep every team's sheet (a match keeps its own secrets).
    reads_everything = staticmethod(staff_reads_all)
    parts = views.PARTS
    # A match recorded from paper: its two teams picked; a team's sheet open; the paper sheet of
    # a team to enter, asked for.
    page_query = ("a", "b", "team", "paper")
    page_query_ends = frozenset({"match", "paper_team"})

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
        for team in state.teams.values():  # a link re-issued: the coach's teams are theirs again
            if team.coach is None and team.left_by == person.id:
                team.coach, team.left_by = person.id, None
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
                team.coach, team.left_by = None, person.id
        return state

    from_form = staticmethod(forms.from_form)

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
        mine = {team_owner(t) for t in state.teams.values() if t.coach == actor.person_id}
        mine.add(f"team:{state.next_id}")  # the team a coach creates now takes the next id
        return lambda owner: physical and owner in mine

    def may_send(self, viewer: Viewer, command: Any) -> bool:
        if isinstance(command, RecordMatch) and command.match_game:
            # A match played on the live sheet is recorded by its own game alone (3.4): nobody
            # records another result in its name, nor blocks the true one.
            return viewer.role == "system"
        return super().may_send(viewer, command)

    linked_game = staticmethod(matches.linked_game)

    # ------------------------------------------------------------------ the platform's questions

    def status(self, state: LeagueState) -> str:
        return "running"

    def roll_label(self, purpose: str, state: LeagueState) -> Msg | str | None:
        return rules.roll_label(purpose)

    def label(self, command: Any, state: LeagueState) -> Msg:
        return views.label(command, state, super().label(command, state))

    # ------------------------------------------------------------------ what each viewer sees

    def page_for(self, viewer: Viewer) -> str:
        if viewer.is_staff:
            return "staff"
        return "board" if viewer.role == "public" else "player"

    log_view = staticmethod(views.log_view)

    template_globals = staticmethod(views.template_globals)

    now = staticmethod(views.now)


KILLPOWER_LEAGUE = KillpowerLeague()
