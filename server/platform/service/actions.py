"""Actions, the one place that changes a game's story: perform a command, its follow-ups, undo,
the clock's due commands. Each runs in one transaction that locks the game."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ValidationError
from sqlmodel import Session, col, select

from server.errors import (
    ArbitreError,
    InvalidInput,
    NotAllowed,
    NotFound,
    RuleError,
    StaleScreen,
)
from server.i18n import N_, Msg
from server.models import Event, Game, Person
from server.platform.dice import CommandDice, ReplayDiverged, held_after_undo
from server.platform.idempotency import (
    SYSTEM_CALLER,
    IdemKey,
    caller_of,
)
from server.platform.kinds import (
    SYSTEM,
    Context,
    GameKind,
    Viewer,
    get_kind,
    logged,
)
from server.platform.refs import refs_of
from server.platform.service.inputs import (
    check_text,
    invalid_from,
)
from server.platform.service.people import (
    People,
)
from server.platform.service.store import (
    dumped,
    log,
    make_idem,
)


@dataclass(frozen=True)
class Performed:
    """The answer to an action, as the one who sent it may read it: the same projection as their
    log (a coach's answer holds their own side's private notes, never the other's). A retried
    request with the same key gets the same answer."""

    seq: int
    summary: Msg
    result: Mapping[str, Any]
    replayed: bool = False

    @classmethod
    def of(
        cls, event: Event, kind: GameKind[Any], viewer: Viewer, replayed: bool = False
    ) -> Performed:
        view = kind.log_entry(logged(event), viewer)
        if view is None or "summary" not in view:
            return cls(event.seq, Msg(N_("Done.")), {}, replayed)
        result = dict(view.get("result") or {})
        if "private" in view:
            result["private"] = view["private"]
        return cls(event.seq, Msg.from_json(event.summary), result, replayed)


def parsed(kind: GameKind[Any], actor: Viewer, payload: Mapping[str, Any], *, trusted: bool) -> Any:
    """The kind's typed command, refused if its text hides characters, it does not parse, or the
    actor may not send it (`trusted`: sent by the platform itself)."""
    check_text(payload)
    try:
        command = kind.parse(payload)
    except ValidationError as error:
        raise invalid_from(error) from None
    if not trusted and not kind.may_send(actor, command):
        raise NotAllowed(N_("You may not do that in this game."))
    return command


class Actions(People):
    def perform(
        self,
        game_id: str,
        actor: Viewer,
        payload: Mapping[str, Any],
        *,
        idem_key: str,
        seen_seq: int | None = None,
        rolls: Mapping[str, int] | None = None,
    ) -> Performed:
        """A command sent by `actor` (a person of this game; SYSTEM for follow-ups and timers)."""
        body = {"command": dict(payload), "rolls": dict(rolls or {}), "seen": seen_seq}
        idem = make_idem(caller_of(actor), idem_key, "command", body)
        return self._perform(game_id, actor, payload, idem, seen_seq=seen_seq, rolls=rolls)

    def _perform(
        self,
        game_id: str,
        actor: Viewer,
        payload: Mapping[str, Any],
        idem: IdemKey,
        *,
        seen_seq: int | None = None,
        rolls: Mapping[str, int] | None = None,
        trusted: bool = False,
    ) -> Performed:
        """`trusted`: a command the platform itself sends on the actor's behalf (recording a
        linked game in its parent), which no client may send."""
        with self.db.write() as s:
            game = self._lock(s, game_id)
            kind = get_kind(game.kind)
            prior = self._by_idem(s, game_id, idem)
            if prior is not None:
                return Performed.of(prior, kind, actor, replayed=True)
            command = parsed(kind, actor, payload, trusted=trusted)
            state = self._state(game, kind, copy=False)  # apply copies before it changes
            self._check_references(s, game_id, kind, state, command)
            if seen_seq is not None:
                self._check_fresh(s, game, seen_seq, kind.subjects(state, command, actor), actor)
            now = self.clock.now()
            physical = game.settings.get("dice") == "physical"
            may_enter = kind.may_enter_dice(state, actor, physical)
            dice = CommandDice(
                self.dice,
                rolls or {},
                physical_only=physical,
                may_enter=may_enter,
                held=list(game.held_dice or []),
            )
            label = kind.label(command, state)
            outcome = kind.apply(state, command, Context(actor, dice, now))
            dice.check_all_used()
            event = self._append(
                s,
                game,
                "command",
                actor,
                dumped(command),
                rolls=dice.rolls,
                result=outcome.result,
                summary=outcome.summary,
                label=label,
                subjects=kind.subjects(state, command, actor),
                idem=idem,
                at=now,
            )
            game.held_dice = dice.held or None
            self._store(s, game, kind, outcome.state)
            parent = game.settings.get("parent")
        # Committed: the next action on this game starts from this state without parsing it.
        self._remember(game_id, event.seq, outcome.state)
        self.broker.publish(game_id, event.seq)
        self._follow(
            game_id, parent, event.seq, kind.followups(game_id, outcome.state, outcome.result)
        )
        return Performed.of(event, kind, actor)

    def _check_references(
        self, s: Session, game_id: str, kind: GameKind[Any], state: BaseModel, command: Any
    ) -> None:
        """Everything a command names is of this game (its `Ref` fields): a person of another
        game, or a team, gladiator, card... the kind does not list, is refused before the rules
        see it, with the field it came in."""
        named = refs_of(command)
        if not named:
            return
        people = [v for what, _, v in named if what == "person"]
        found = set()
        if people:
            found = set(
                s.exec(
                    select(Person.id).where(Person.game_id == game_id, col(Person.id).in_(people))
                ).all()
            )
        known = kind.references(state)
        for what, field_name, value in named:
            if what == "person":
                if value not in found:
                    raise InvalidInput(
                        N_("Nobody with the number {id} takes part in this game."),
                        field=field_name,
                        id=value,
                    )
            elif value not in known.get(what, ()):
                raise InvalidInput(
                    N_("“{value}” is not part of this game."), field=field_name, value=value
                )

    def _follow(
        self,
        game_id: str,
        parent: str | None,
        seq: int,
        followups: list[dict[str, Any]],
    ) -> None:
        """Each follow-up goes to the game that opened this one (a match's league), as Arbitre,
        in its own transaction, keyed by the event that caused it in a namespace no client can
        write: sent again (`resend_followups`), it is applied once. A refusal, or a fault, is
        logged and left for a resend: the action that caused it is committed and answered."""
        for index, payload in enumerate(followups):
            if parent is None:
                log.warning("follow-up of %s/%s dropped: the game has no parent", game_id, seq)
                return
            key = make_idem(SYSTEM_CALLER, f"follow:{game_id}:{seq}:{index}", "command", payload)
            try:
                self._perform(parent, SYSTEM, payload, key)
            except ArbitreError as error:
                log.warning("follow-up of %s/%s refused by %s: %s", game_id, seq, parent, error)
            except Exception:
                log.exception("follow-up of %s/%s to %s failed", game_id, seq, parent)

    def resend_followups(self, game_id: str, actor: Viewer) -> int:
        """Sends again what the game's last change sent to its parent (a league that refused a
        match result, then was corrected)."""
        if not actor.is_staff:
            raise NotAllowed(N_("You may not do that in this game."))
        with self.db.read() as s:
            game = s.get(Game, game_id)
            if game is None:
                raise NotFound(N_("No such game."))
            event = s.exec(
                select(Event)
                .where(Event.game_id == game_id, Event.type == "command")
                .order_by(col(Event.seq).desc())
                .limit(1)
            ).first()
        if event is None:
            return 0
        kind = get_kind(game.kind)
        state = self._state(game, kind)
        followups = kind.followups(game_id, state, event.result)
        self._follow(game_id, game.settings.get("parent"), event.seq, followups)
        return len(followups)

    def undo(
        self,
        game_id: str,
        actor: Viewer,
        *,
        idem_key: str,
        target_seq: int | None = None,
    ) -> Performed:
        """Undoes the last action not yet undone. `target_seq` is the action the screen named:
        if another came since, the screen is stale and nothing is undone."""
        if not actor.is_staff:
            raise NotAllowed(N_("Only referees undo actions."))
        idem = make_idem(caller_of(actor), idem_key, "undo", {"target": target_seq})
        with self.db.write() as s:
            game = self._lock(s, game_id)
            kind = get_kind(game.kind)
            prior = self._by_idem(s, game_id, idem)
            if prior is not None:
                return Performed.of(prior, kind, actor, replayed=True)
            target = self._undo_target(s, game_id)
            if target is None:
                raise RuleError(N_("There is nothing to undo."))
            if target_seq is not None and target.seq != target_seq:
                raise StaleScreen(
                    N_("The last action changed since your screen showed it: check and retry.")
                )
            if not actor.is_organizer and target.actor_id not in (None, actor.person_id):
                # A referee undoes their own actions; the organizer may undo anyone's.
                raise NotAllowed(
                    N_("Only {name} or the organizer can undo “{label}”."),
                    name=target.actor_name,
                    label=Msg.from_json(target.label),
                )
            state = self._without(s, game, target)
            label = Msg.from_json(target.label)
            summary = Msg(N_("Undone: {label}"), {"label": label})
            event = self._append(
                s,
                game,
                "undo",
                actor,
                {"type": "undo", "seq": target.seq},
                summary=summary,
                label=summary,
                subjects=target.subjects,
                idem=idem,
                undoes=target.seq,
            )
            target.undone_by = event.seq
            s.add(target)
            game.held_dice = held_after_undo(game.held_dice, target.rolls) or None
            # The snapshots at or after the target no longer hold: they include what was undone.
            for stale in self._snapshots(s, game_id, since=target.seq):
                stale.snapshot = None
                s.add(stale)
            self._store(s, game, kind, state)
        self.broker.publish(game_id, event.seq)
        return Performed.of(event, kind, actor)

    def _without(self, s: Session, game: Game, target: Event) -> BaseModel:
        """The game's state replayed without `target`, from the last snapshot before it."""
        start = s.exec(
            select(Event)
            .where(
                Event.game_id == game.id,
                Event.seq < target.seq,
                col(Event.snapshot).is_not(None),
            )
            .order_by(col(Event.seq).desc())
            .limit(1)
        ).first()
        events = self._events(s, game.id, after=start.seq if start else 0)
        try:
            return self.rebuild(game, events, skip={target.seq}, start=start)
        except (RuleError, ReplayDiverged):
            raise RuleError(
                N_("“{label}” cannot be undone: later actions depend on it."),
                label=Msg.from_json(target.label),
            ) from None

    def _snapshots(self, s: Session, game_id: str, since: int) -> Iterable[Event]:
        return s.exec(
            select(Event).where(
                Event.game_id == game_id,
                Event.seq >= since,
                col(Event.snapshot).is_not(None),
            )
        )

    def run_due(self) -> int:
        """Applies what the clock triggered in every game that fell due; returns how many."""
        now = self.clock.now()
        with self.db.read() as s:
            ids = s.exec(select(Game.id).where(col(Game.next_deadline) <= now)).all()
        applied = 0
        for game_id in ids:
            applied += self._run_due_game(game_id)
        return applied

    def _run_due_game(self, game_id: str) -> int:
        now = self.clock.now()
        applied = 0
        with self.db.write() as s:
            game = self._lock(s, game_id)
            kind = get_kind(game.kind)
            state = self._state(game, kind)
            held = list(game.held_dice or [])
            for command in kind.due(state, now):
                dice = CommandDice(self.dice, held=held)
                label = kind.label(command, state)
                outcome = kind.apply(state, command, Context(SYSTEM, dice, now))
                self._append(
                    s,
                    game,
                    "command",
                    SYSTEM,
                    dumped(command),
                    rolls=dice.rolls,
                    result=outcome.result,
                    summary=outcome.summary,
                    label=label,
                    subjects=None,
                    at=now,
                )
                state = outcome.state
                applied += 1
            game.held_dice = held or None
            self._store(s, game, kind, state)
        if applied:
            self.broker.publish(game_id, game.seq)
        return applied
