"""Who is at the table and whose turn it is (9): a survivor in play, one's own survivor, the
table's moves, the turn passed on to the left, then the zombies (12). The floor under the turn,
the fights and the zombie phase."""

from __future__ import annotations

from server.errors import NotAllowed, RuleError
from server.games.trust_me.state import Survivor, TMState, ZombiePhase
from server.i18n import N_
from server.platform.kinds import Context, Viewer


def playing(state: TMState, person: int | None, field: str) -> Survivor:
    if person is None or str(person) not in state.survivors:
        raise RuleError(N_("Choose a survivor of this game."), field=field)
    s = state.survivor(person)
    if s.dead:
        raise RuleError(N_("{name} is dead."), field=field, name=s.name)
    if s.exited:
        raise RuleError(N_("{name} has left the board."), field=field, name=s.name)
    return s


def fight_over(state: TMState) -> bool:
    """No fight in progress and no wound waiting for its place: what the table's moves (a
    zombie attack, the zombie phase's dice) wait for, said to the pages as to the rules."""
    return state.fight is None and not state.placements


def check_fight_over(state: TMState) -> None:
    if not fight_over(state):
        raise RuleError(N_("Finish the fight in progress first."))


def check_free(state: TMState) -> None:
    check_fight_over(state)
    if state.declared is not None:
        raise RuleError(N_("An action waits: the survivor aiming decides first."))


def own(state: TMState, ctx: Context) -> Survivor:
    person = ctx.actor.person_id
    if ctx.actor.role != "player" or person is None or str(person) not in state.survivors:
        raise NotAllowed(N_("Only a survivor's player does this, on their own phone."))
    return playing(state, person, "player")


def at_table(state: TMState, viewer: Viewer) -> bool:
    """The table's own moves (zombies, spawns, dice) come from the staff or a survivor still in
    play: a player whose survivor died or left watches."""
    if viewer.is_staff:
        return True
    person = viewer.person_id
    return person is not None and str(person) in state.survivors and state.survivor(person).playing


def at_the_table(state: TMState, ctx: Context) -> None:
    if not at_table(state, ctx.actor):
        raise NotAllowed(N_("A survivor still in play, or the organizer, does this."))


def advance(state: TMState) -> None:
    """9: "On passe ensuite au joueur de gauche [...] jusqu'à ce qu'il n'y ait plus de pion
    Action ou Fatigue à poser", then the zombies (12)."""
    order = state.order
    start = order.index(state.turn) + 1 if state.turn in order else 0
    for k in range(len(order)):
        s = state.survivor(order[(start + k) % len(order)])
        if s.playing and s.free_tokens():
            state.turn = s.id
            return
    begin_zombies(state)


def begin_zombies(state: TMState) -> None:
    state.phase, state.turn, state.zombies = "zombies", None, ZombiePhase()
    if not any(s.infections for s in state.playing()):
        state.zombies.infections_rolled = True  # nobody to roll for
