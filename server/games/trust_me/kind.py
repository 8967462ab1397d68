"""Trust Me as a game kind: the wiring of its state, commands, rule handlers and views.

Where a rule goes: `catalog.py` the box as data (passports, weapons, objects, objectives, the
wound table, the nine cells), `sheet.py` the survivor's sheet (1, 5, 6), `setup.py` the setup (12),
`turn.py` a turn and its actions (9, 11), `combat.py` a fight (10, 12), `zombies.py` the zombie
phase (12), `ending.py` points and the end (13, 14); `views.py` says what each viewer sees.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from typing import Any, ClassVar

from pydantic import BaseModel

from server.errors import RuleError
from server.games.trust_me import ending, forms, turn, views
from server.games.trust_me.catalog import sample_box
from server.games.trust_me.rules import MOVES
from server.games.trust_me.setup import MAX_PLAYERS
from server.games.trust_me.state import Survivor, TMSettings, TMState
from server.i18n import N_, Msg
from server.platform.kinds import (
    Context,
    GameKind,
    PersonInfo,
    Viewer,
)


class TrustMe(GameKind[TMState]):
    key = "trust_me"
    title = N_("Trust Me")
    tagline = N_(
        "Zombie survival at the table: Arbitre keeps the sheets, the dice and the secrets."
    )
    roles = ("player",)
    max_people: ClassVar[Mapping[str, int]] = {"player": MAX_PLAYERS}
    allows_referees = False  # the table referees itself; the organizer runs the zombies
    page_log = 0
    state_model = TMState
    invite_title = N_("Invite the players")
    settings_model = TMSettings
    moves = MOVES
    parts = views.PARTS

    def reads_everything(self, state: TMState, viewer: Viewer) -> bool:
        """The organizer runs the table and reads no objective, hidden token or draw order
        (1, 3.3, 5) until the end reveals everything."""
        return viewer.is_staff and state.phase == "finished"

    def new_state(self, settings: BaseModel) -> TMState:
        return TMState(box=sample_box())

    def add_person(self, state: TMState, person: PersonInfo) -> TMState:
        if person.role != "player" or str(person.id) in state.survivors:
            return state  # a link re-issued: the survivor stays theirs
        if state.phase != "setup":
            raise RuleError(N_("Players join before the deal."))
        if len(state.survivors) >= MAX_PLAYERS:
            raise RuleError(
                N_("Trust Me is played by 2 to 4 players, not {count}."), count=MAX_PLAYERS + 1
            )
        state = state.model_copy(deep=True)
        state.survivors[str(person.id)] = Survivor(id=person.id, name=person.name)
        return state

    def remove_person(self, state: TMState, person: PersonInfo) -> TMState:
        if state.phase != "setup" or str(person.id) not in state.survivors:
            return state
        state = state.model_copy(deep=True)
        del state.survivors[str(person.id)]
        return state

    def after(self, before: TMState, after: TMState, command: Any, ctx: Context) -> Msg | None:
        """What follows by itself: the turn passing once nothing waits (9), the end once nobody
        is left on the board (14)."""
        turn.settle(after)
        return ending.check_end(after)

    from_form = staticmethod(forms.from_form)

    def may_enter_dice(
        self, state: TMState, actor: Viewer, physical: bool
    ) -> Callable[[str | None], bool]:
        """A player rolls their own survivor's dice (and the table's: zombies, spawns); the
        staff enter any."""
        if actor.is_staff:
            return lambda owner: True
        mine = f"player:{actor.person_id}"
        return lambda owner: owner in (mine, None)

    def references(self, state: TMState) -> Mapping[str, Collection[Any]]:
        box = state.box
        keys = [p.key for p in box.passports] + [w.key for w in box.weapons]
        keys += [t.key for t in box.things] + [o.key for o in box.objectives]
        # Every item id ever given in this game, kept or gone: which ids are still held (a token
        # hidden in the "?" cell) is not told by the refusal.
        return {"item": range(1, state.next_item), "box": set(keys)}

    def status(self, state: TMState) -> str:
        return {"setup": "setup", "preparing": "setup", "finished": "finished"}.get(
            state.phase, "running"
        )

    log_view = staticmethod(views.log_view)

    def roll_label(self, purpose: str, state: TMState) -> Msg | str | None:
        return views.roll_label(purpose)

    template_globals = staticmethod(views.template_globals)

    now = staticmethod(views.now)


TRUST_ME = TrustMe()
