"""Actions, the one place that changes a game's story: perform a command, its follow-ups, undo,
the clock's due commands. Each runs in one transaction that locks the game."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
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
from server.platform.consent import (
    TOLD,
    UNDO,
    Proposal,
    Status,
    agreed_summary,
    alone_undoes,
    applies,
    moved_on,
    proposals_of,
    proposed,
    refused,
    shown_to,
    stored,
    trial,
    undo_of,
)
from server.platform.dice import (
    BadRoll,
    CommandDice,
    DiceSource,
    MissingRoll,
    ReplayDiverged,
    held_after_undo,
)
from server.platform.idempotency import (
    SYSTEM_CALLER,
    IdemKey,
    caller_of,
)
from server.platform.kinds import (
    SYSTEM,
    Context,
    GameKind,
    Outcome,
    Viewer,
    consent_of,
    get_kind,
    log_entry,
    logged,
)
from server.platform.refs import refs_of
from server.platform.service.inputs import (
    check_text,
    invalid_from,
)
from server.platform.service.replay import Replay
from server.platform.service.store import (
    Store,
    dumped,
    log,
    make_idem,
    may_undo,
)


@dataclass(frozen=True)
class Applied:
    """What an action left for after its commit: the state, and its follow-ups to the parent."""

    state: BaseModel
    parent: str | None = None
    followups: Sequence[dict[str, Any]] = ()


@dataclass(frozen=True)
class Performed:
    """The answer to an action, as the one who sent it may read it: the same projection as their
    log (a coach's answer holds their own side's private notes, never the other's). A retried
    request with the same key gets the same answer."""

    seq: int
    summary: Msg
    result: Mapping[str, Any]
    replayed: bool = False
    # The proposal the command became (`server.platform.consent`): nothing changed yet.
    proposal: int | None = None

    @classmethod
    def of(
        cls, event: Event, kind: GameKind[Any], viewer: Viewer, replayed: bool = False
    ) -> Performed:
        view = log_entry(kind, logged(event), viewer)
        if view is None or "summary" not in view:
            return cls(event.seq, Msg(N_("Done.")), {}, replayed)
        result = dict(view.get("result") or {})
        if "private" in view:
            result["private"] = view["private"]
        proposal = event.seq if event.type == "proposal" else None
        return cls(event.seq, Msg.from_json(event.summary), result, replayed, proposal)


def parsed(kind: GameKind[Any], actor: Viewer, payload: Mapping[str, Any], *, trusted: bool) -> Any:
    """The kind's typed command, refused if its text hides characters, it does not parse, or the
    actor may not send it (`trusted`: sent by the platform itself)."""
    check_text(payload)
    try:
        command = kind.parse(payload)
    except ValidationError as error:
        raise invalid_from(error, tag=payload.get("type")) from None
    if not trusted and not kind.may_send(actor, command):
        raise NotAllowed(N_("You may not do that in this game."))
    return command


def command_idem(
    actor: Viewer,
    payload: Mapping[str, Any],
    key: str,
    seen_seq: int | None,
    rolls: Mapping[str, int] | None,
) -> IdemKey:
    """A command's key, scoped to its caller, with what it asks: the command, its dice and the
    screen it was made on (the same key for another of these is another request)."""
    body = {"command": dict(payload), "rolls": dict(rolls or {}), "seen": seen_seq}
    return make_idem(caller_of(actor), key, "command", body)


class Actions:
    """A game's story: commands performed, proposals answered, undo, the clock's due commands."""

    def __init__(self, store: Store, replay: Replay) -> None:
        self.store, self.replay = store, replay

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
        idem = command_idem(actor, payload, idem_key, seen_seq, rolls)
        return self.perform_keyed(game_id, actor, payload, idem, seen_seq=seen_seq, rolls=rolls)

    def replayed(
        self,
        game_id: str,
        actor: Viewer,
        payload: Mapping[str, Any],
        *,
        idem_key: str,
        seen_seq: int | None = None,
        rolls: Mapping[str, int] | None = None,
    ) -> Performed | None:
        """The answer `perform` already gave this very request (its key applied once), or None:
        a queued tap whose first sending reached the server is told so, not held back."""
        idem = command_idem(actor, payload, idem_key, seen_seq, rolls)
        with self.store.db.read() as s:
            game = s.get(Game, game_id)
            prior = self.store.by_idem(s, game_id, idem) if game is not None else None
            if game is None or prior is None:
                return None
            return Performed.of(prior, get_kind(game.kind), actor, replayed=True)

    def perform_keyed(
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
        linked game in its parent), which no client may send. A command one side sends on
        another side's pieces, where the kind asks for consent, is a proposal (`propose`)."""
        with self.store.db.write() as s:
            game = self.store.lock(s, game_id)
            kind = get_kind(game.kind)
            prior = self.store.by_idem(s, game_id, idem)
            if prior is not None:
                return Performed.of(prior, kind, actor, replayed=True)
            state = self.store.state_of(game, kind, copy=False)  # apply copies before it changes
            command = self._checked(s, game, kind, state, actor, payload, seen_seq, trusted)
            side = None if trusted else consent_of(kind, state, command, actor)
            if side is not None:
                event = self._propose(s, game, kind, state, actor, command, side, idem)
                applied = Applied(state)
            else:
                event, applied = self._apply(s, game, kind, state, actor, command, rolls, idem)
        return self._applied(game_id, kind, event, applied, actor)

    def try_out(
        self,
        game_id: str,
        actor: Viewer,
        payload: Mapping[str, Any],
        *,
        seen_seq: int | None = None,
        rolls: Mapping[str, int] | None = None,
        dice: DiceSource | None = None,
    ) -> Msg:
        """Would `actor`'s command be taken now? Every check `perform` makes, then the rules on
        the present state with `dice` (the server's when None), and nothing written: what it
        would do in words (a proposal's, where the other side must agree), or the refusal
        `perform` would give. The form walk submits every option a page offers with it."""
        with self.store.db.read() as s:
            game, kind, state = self._present(s, game_id)
            command = self._checked(s, game, kind, state, actor, payload, seen_seq, False)
            if consent_of(kind, state, command, actor) is not None:
                return kind.describe(command, state)
            now = self.store.clock.now()
            outcome, _ = self._decide(game, kind, state, actor, command, rolls, now, dice)
        return outcome.summary

    def subjects_of(
        self, game_id: str, actor: Viewer, payload: Mapping[str, Any]
    ) -> list[int] | None:
        """Whom `actor`'s command names, as the stale-screen check reads it (None: the whole
        game). Refused as a tap would be if it does not parse or is not theirs to send."""
        with self.store.db.read() as s:
            _game, kind, state = self._present(s, game_id)
        return kind.subjects(state, parsed(kind, actor, payload, trusted=False), actor)

    def _present(self, s: Session, game_id: str) -> tuple[Game, GameKind[Any], BaseModel]:
        """A game read without a lock, its kind and its present state (not to be changed)."""
        game = s.get(Game, game_id)
        if game is None:
            raise NotFound(N_("No such game."))
        kind = get_kind(game.kind)
        return game, kind, self.store.state_of(game, kind, copy=False)

    def _checked(
        self,
        s: Session,
        game: Game,
        kind: GameKind[Any],
        state: BaseModel,
        actor: Viewer,
        payload: Mapping[str, Any],
        seen_seq: int | None,
        trusted: bool,
    ) -> Any:
        """The typed command, after every check a tap passes before the rules: parsed and the
        actor's to send, naming only this game's things, made on a screen still current."""
        command = parsed(kind, actor, payload, trusted=trusted)
        self._check_references(s, game.id, kind, state, command)
        if seen_seq is not None:
            subjects = kind.subjects(state, command, actor)
            self.store.check_fresh(s, game, kind, seen_seq, subjects, actor)
        return command

    def _decide(
        self,
        game: Game,
        kind: GameKind[Any],
        state: BaseModel,
        actor: Viewer,
        command: Any,
        rolls: Mapping[str, int] | None,
        now: datetime,
        source: DiceSource | None = None,
    ) -> tuple[Outcome[Any], CommandDice]:
        """The rules' answer to the command, with its dice: nothing written yet."""
        physical = game.settings.get("dice") == "physical"
        may_enter = kind.may_enter_dice(state, actor, physical)
        dice = CommandDice(
            source or self.store.dice,
            rolls or {},
            physical_only=physical,
            may_enter=may_enter,
            held=list(game.held_dice or []),
        )
        try:
            outcome = kind.apply(state, command, Context(actor, dice, now))
            dice.check_all_used()
        except (MissingRoll, BadRoll) as error:
            raise in_words(error, kind, state) from None
        return outcome, dice

    def _apply(
        self,
        s: Session,
        game: Game,
        kind: GameKind[Any],
        state: BaseModel,
        actor: Viewer,
        command: Any,
        rolls: Mapping[str, int] | None,
        idem: IdemKey,
        agreed_by: Viewer | None = None,
    ) -> tuple[Event, Applied]:
        """The command applied, in the caller's transaction: its event appended (with who agreed
        to it, for a proposal accepted), the state stored, the proposals it moves past expired."""
        now = self.store.clock.now()
        label = kind.label(command, state)
        outcome, dice = self._decide(game, kind, state, actor, command, rolls, now)
        summary = outcome.summary
        result = dict(outcome.result)
        if agreed_by is not None:
            summary = agreed_summary(summary, agreed_by)
            result["agreed_by"] = agreed_by.person_id
        event = self.store.append(
            s,
            game,
            "command",
            actor,
            dumped(command),
            rolls=dice.rolls,
            result=result,
            summary=summary,
            label=label,
            subjects=kind.subjects(state, command, actor),
            idem=idem,
            at=now,
        )
        game.held_dice = dice.held or None
        self.store.save_state(s, game, kind, outcome.state)
        self._move_on(s, game, kind, outcome.state)
        followups = kind.followups(game.id, outcome.state, outcome.result)
        return event, Applied(outcome.state, game.settings.get("parent"), followups)

    def _applied(
        self, game_id: str, kind: GameKind[Any], event: Event, applied: Applied, actor: Viewer
    ) -> Performed:
        """Committed: the next action on this game starts from this state without parsing it;
        the phones are told; the follow-ups go to the parent."""
        self.store.remember(game_id, event.seq, applied.state)
        self.store.committed(game_id, event.seq)
        self._follow(game_id, applied.parent, event.seq, list(applied.followups))
        return Performed.of(event, kind, actor)

    def _move_on(self, s: Session, game: Game, kind: GameKind[Any], state: BaseModel) -> None:
        """After a change: the proposals it moved past, or that can no longer apply, expire."""
        if not game.proposals:
            return
        now = self.store.clock.now()

        def still(p: Proposal) -> bool:
            if p.is_undo:
                target = self.store.undo_target(s, game.id)
                return target is not None and target.seq == p.command.get("seq")
            return applies(kind, state, p, now)

        game.proposals = stored(moved_on(proposals_of(game.proposals), kind.moment(state), still))

    # ------------------------------------------------------------------ adversaries consent

    def _propose(
        self,
        s: Session,
        game: Game,
        kind: GameKind[Any],
        state: BaseModel,
        actor: Viewer,
        command: Any,
        side: str,
        idem: IdemKey,
        what: Msg | None = None,
    ) -> Event:
        """A command on another side's pieces, kept for that side to accept: nothing changes.
        The rules are asked first (on a copy, with dice that decide nothing), so a proposal the
        rules would refuse is refused now, to its sender."""
        if what is None:
            what = trial(kind, state, command, actor, self.store.clock.now())
        event = self.store.append(
            s,
            game,
            "proposal",
            actor,
            command if isinstance(command, dict) else dumped(command),
            result={"side": side},
            summary=proposed(actor, what),
            label=what,
            subjects=[],
            idem=idem,
        )
        # The proposer's notices of how their earlier proposals ended give way to this one.
        kept = [
            p
            for p in proposals_of(game.proposals)
            if p.status == "open" or p.proposer != actor.person_id
        ]
        kept.append(
            Proposal(
                id=event.seq,
                side=side,
                proposer=actor.person_id or 0,
                proposer_role=actor.role,
                proposer_name=actor.name,
                command=event.command,
                what=what.to_json(),
                moment=kind.moment(state),
            )
        )
        game.proposals = stored(kept)
        return event

    def answer(
        self,
        game_id: str,
        actor: Viewer,
        proposal_id: int,
        *,
        accept: bool,
        idem_key: str,
    ) -> Performed:
        """The other side's answer to a proposal: accepted, it is applied as if its proposer had
        sent it then, through the normal path, with both names in the log; refused (or withdrawn
        by its proposer), nothing changes and the log says so. A proposal the game moved past
        has expired and says so."""
        idem = make_idem(
            caller_of(actor), idem_key, "answer", {"proposal": proposal_id, "accept": accept}
        )
        with self.store.db.write() as s:
            game = self.store.lock(s, game_id)
            kind = get_kind(game.kind)
            prior = self.store.by_idem(s, game_id, idem)
            if prior is not None:
                return Performed.of(prior, kind, actor, replayed=True)
            proposals = proposals_of(game.proposals)
            proposal = next((p for p in proposals if p.id == proposal_id), None)
            if proposal is None or proposal.status not in ("open", "expired"):
                raise NotFound(N_("No such proposal: it was answered already."))
            state = self.store.state_of(game, kind, copy=False)
            withdrawn = proposal.proposer == actor.person_id
            if not withdrawn and (actor.is_staff or kind.side_of(state, actor) != proposal.side):
                raise NotAllowed(N_("Only the other side answers this proposal."))
            if withdrawn and accept:
                raise NotAllowed(N_("The other side answers your proposal; you may withdraw it."))
            if proposal.status == "expired" or kind.moment(state) != proposal.moment:
                raise StaleScreen(N_("This proposal expired: the game moved on since it was made."))
            # Its proposer's notice of the answer, until the game moves on (`moved_on`).
            status: Status = "withdrawn" if withdrawn else "accepted" if accept else "refused"
            ended = proposal.ending(status, kind.moment(state), actor.name)
            game.proposals = stored([ended if p.id == proposal_id else p for p in proposals])
            proposer = Viewer(proposal.proposer_role, proposal.proposer, proposal.proposer_name)
            what = Msg.from_json(proposal.what)
            if not accept:
                event = self.store.append(
                    s,
                    game,
                    "consent",
                    actor,
                    {"type": "refuse", "proposal": proposal_id},
                    result={"proposal": proposal_id, "accepted": False},
                    summary=refused(actor, proposer, what, withdrawn),
                    label=what,
                    subjects=[],
                    idem=idem,
                )
                applied = Applied(state)
            elif proposal.is_undo:
                target = self.store.undo_target(s, game_id)
                if target is None or target.seq != proposal.command.get("seq"):
                    raise StaleScreen(
                        N_("This proposal expired: the game moved on since it was made.")
                    )
                event, applied = self._undo_in(s, game, kind, proposer, target, idem, actor)
            else:
                command = parsed(kind, proposer, proposal.command, trusted=False)
                self._check_references(s, game_id, kind, state, command)
                event, applied = self._apply(
                    s, game, kind, state, proposer, command, None, idem, agreed_by=actor
                )
        return self._applied(game_id, kind, event, applied, actor)

    def proposals(
        self, game: Game, viewer: Viewer, kind: GameKind[Any], state: BaseModel
    ) -> list[dict[str, Any]]:
        """What a page shows its viewer of the game's proposals (`consent.shown_to`)."""
        if not game.proposals or viewer.role == "public":
            return []
        side = kind.side_of(state, viewer)
        return shown_to(proposals_of(game.proposals), side, viewer.person_id, viewer.is_staff)

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
                self.perform_keyed(parent, SYSTEM, payload, key)
            except ArbitreError as error:
                log.warning("follow-up of %s/%s refused by %s: %s", game_id, seq, parent, error)
            except Exception:
                log.exception("follow-up of %s/%s to %s failed", game_id, seq, parent)

    def resend_followups(self, game_id: str, actor: Viewer) -> int:
        """Sends again what the game's last change sent to its parent (a league that refused a
        match result, then was corrected): by its staff, or a person who played it (a
        self-refereed match has no staff of its own, `LinkedGame.staffed`)."""
        if actor.person_id is None:
            raise NotAllowed(N_("You may not do that in this game."))
        with self.store.db.read() as s:
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
        state = self.store.state_of(game, kind)
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
        if another came since, the screen is stale and nothing is undone. Where sides play
        without a referee (a kind that asks for consent), a side's member undoes their own last
        action alone while no one else has acted since; any other undo is a proposal."""
        idem = make_idem(caller_of(actor), idem_key, "undo", {"target": target_seq})
        with self.store.db.write() as s:
            game = self.store.lock(s, game_id)
            kind = get_kind(game.kind)
            if not actor.is_staff and not kind.consent_commands:
                raise NotAllowed(N_("Only referees undo actions."))
            prior = self.store.by_idem(s, game_id, idem)
            if prior is not None:
                return Performed.of(prior, kind, actor, replayed=True)
            target = self.store.undo_target(s, game_id)
            if target is None:
                raise RuleError(N_("There is nothing to undo."))
            if target_seq is not None and target.seq != target_seq:
                raise StaleScreen(
                    N_("The last action changed since your screen showed it: check and retry.")
                )
            state = self.store.state_of(game, kind, copy=False)
            side = None
            if not actor.is_staff:
                side = self._undo_consent(s, game, kind, state, actor, target)
            elif not may_undo(actor, target.actor_id):
                # A referee undoes their own actions; the organizer may undo anyone's.
                raise NotAllowed(
                    N_("Only {name} or the organizer can undo “{label}”."),
                    name=target.actor_name,
                    label=Msg.from_json(target.label),
                )
            if side is not None:
                what = undo_of(target)
                command = {"type": UNDO, "seq": target.seq}
                event = self._propose(s, game, kind, state, actor, command, side, idem, what=what)
                applied = Applied(state)
            else:
                event, applied = self._undo_in(s, game, kind, actor, target, idem)
        return self._applied(game_id, kind, event, applied, actor)

    def undo_asks(self, game_id: str, actor: Viewer) -> bool:
        """Whether this side member's undo would be a proposal (for the button's words)."""
        with self.store.db.read() as s:
            game = s.get(Game, game_id)
            target = self.store.undo_target(s, game_id)
            if game is None or target is None or actor.is_staff:
                return False
            kind = get_kind(game.kind)
            if not kind.consent_commands:
                return False
            state = self.store.state_of(game, kind, copy=False)
            try:
                return self._undo_consent(s, game, kind, state, actor, target) is not None
            except NotAllowed:
                return False

    def _undo_consent(
        self,
        s: Session,
        game: Game,
        kind: GameKind[Any],
        state: BaseModel,
        actor: Viewer,
        target: Event,
    ) -> str | None:
        """The side that must agree to this side member's undo, or None: it is their own last
        action and nobody else has acted since."""
        later = s.exec(
            select(Event).where(
                Event.game_id == game.id,
                Event.seq > target.seq,
                col(Event.type).in_(TOLD),
            )
        ).all()
        if alone_undoes(target, later, actor):
            return None
        own = kind.side_of(state, actor)
        if own is None:
            raise NotAllowed(N_("Only referees undo actions."))
        others = [side for side in kind.sides(state) if side != own]
        if not others:
            raise NotAllowed(N_("Only referees undo actions."))
        return others[0]

    def _undo_in(
        self,
        s: Session,
        game: Game,
        kind: GameKind[Any],
        actor: Viewer,
        target: Event,
        idem: IdemKey,
        agreed_by: Viewer | None = None,
    ) -> tuple[Event, Applied]:
        """`target` undone, in the caller's transaction: the state replayed without it, its dice
        held for the action done again, the snapshots after it dropped."""
        state = self._without(s, game, target)
        label = Msg.from_json(target.label)
        summary = Msg(N_("Undone: {label}"), {"label": label})
        result: dict[str, Any] = {}
        if agreed_by is not None:
            summary = agreed_summary(summary, agreed_by)
            result["agreed_by"] = agreed_by.person_id
        event = self.store.append(
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
            result=result,
        )
        target.undone_by = event.seq
        s.add(target)
        game.held_dice = held_after_undo(game.held_dice, target.rolls) or None
        # The snapshots at or after the target no longer hold: they include what was undone.
        for stale in self._snapshots(s, game.id, since=target.seq):
            stale.snapshot = None
            s.add(stale)
        self.store.save_state(s, game, kind, state)
        self._move_on(s, game, kind, state)
        return event, Applied(state)

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
        events = self.store.events(s, game.id, after=start.seq if start else 0)
        try:
            return self.replay.rebuild(game, events, skip={target.seq}, start=start)
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
        now = self.store.clock.now()
        with self.store.db.read() as s:
            ids = s.exec(select(Game.id).where(col(Game.next_deadline) <= now)).all()
        applied = 0
        for game_id in ids:
            applied += self._run_due_game(game_id)
        return applied

    def _run_due_game(self, game_id: str) -> int:
        now = self.store.clock.now()
        applied = 0
        with self.store.db.write() as s:
            game = self.store.lock(s, game_id)
            kind = get_kind(game.kind)
            state = self.store.state_of(game, kind)
            held = list(game.held_dice or [])
            for command in kind.due(state, now):
                dice = CommandDice(self.store.dice, held=held)
                label = kind.label(command, state)
                outcome = kind.apply(state, command, Context(SYSTEM, dice, now))
                self.store.append(
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
            self.store.save_state(s, game, kind, state)
        if applied:
            self.store.committed(game_id, game.seq)
        return applied


def in_words(error: MissingRoll | BadRoll, kind: GameKind[Any], state: BaseModel) -> ArbitreError:
    """A die asked or refused, said in the reader's words (the kind's `roll_label`: "RAP de
    Léa", not "RAP of Léa"); its field keeps the die's name, for the form to send it."""
    name = str(error.msg.params.get("purpose", ""))
    base, sep, n = name.rpartition(" #")
    if not (sep and n.isdigit()):
        base, n = name, ""
    words: Msg | str = kind.roll_label(base, state) or base
    if n:
        words = Msg(N_("{die} (no. {n})"), {"die": words, "n": n})
    error.msg = Msg(error.msg.text, {**error.msg.params, "purpose": words})
    return error
