"""An imported game's log replayed on this server (`server.platform.service.moves`): entry by
entry, through the guards of a live action (who may send what, as whom, the dice's owners and
faces, the consent of the other side), with the summaries, results and subjects this server's
rules give, under the new names; then checked against the state the file was exported with."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from pydantic import BaseModel, ValidationError

from server.errors import ArbitreError, InvalidInput, NotAllowed
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
    proposed,
    refused,
    stored,
    trial,
    undo_of,
)
from server.platform.dice import RecordedDice, ReplayDiverged, held_after_undo, take_held
from server.platform.kinds import (
    KINDS,
    SYSTEM,
    Context,
    GameKind,
    PersonInfo,
    Viewer,
    consent_of,
)
from server.platform.moving import (
    MovedEvent,
    MovedGame,
    Renaming,
)
from server.platform.refs import refs_of, renumbered
from server.platform.service.actions import parsed
from server.platform.service.inputs import invalid_from
from server.platform.service.people import joined, link_changed
from server.platform.service.store import SNAPSHOT_EVERY, dumped

# What a crafted or damaged log may raise while the rules replay it.
BROKEN = (
    ArbitreError,
    ReplayDiverged,
    ValidationError,
    KeyError,
    ValueError,
    TypeError,
    IndexError,
    AssertionError,
)


class Damaged(InvalidInput):
    """A game file that does not replay; said with the game and the entry."""


def damaged(game: MovedGame, seq: int | str, problem: str | Msg) -> Damaged:
    return Damaged(
        N_("“{name}” does not replay at entry {seq} ({problem}): nothing was imported."),
        field="file",
        name=game.name,
        seq=seq,
        problem=problem,
    )


@dataclass
class Replayed:
    """One game rebuilt on this server: its rows, its people's final access, and the states kept
    on the way (every MOVED_SNAPSHOTS entries) to replay an undo from."""

    game: Game
    events: list[Event] = field(default_factory=list)
    revoked: dict[int, bool] = field(default_factory=dict)
    people: dict[int, tuple[str, str]] = field(default_factory=dict)  # role and name
    snapshots: dict[int, dict[str, Any]] = field(default_factory=dict)
    before: dict[int, BaseModel] = field(default_factory=dict)  # the state before a command
    active: list[Event] = field(default_factory=list)  # commands not undone, in order
    person_rows: list[Event] = field(default_factory=list)
    held: list[dict[str, Any]] = field(default_factory=list)  # dice held by undo, as the game's
    in_play: Counter[str] = field(default_factory=Counter)  # people of each role, links alive
    snapshotted: list[Event] = field(default_factory=list)  # rows that keep a snapshot
    proposals: list[Proposal] = field(default_factory=list)  # waiting for the other side

    def snapshot(self, row: Event, state: BaseModel) -> None:
        """The state after `row`, kept with it every SNAPSHOT_EVERY entries, as the live service
        keeps them."""
        if row.seq % SNAPSHOT_EVERY == 0:
            row.snapshot = state.model_dump(mode="json")
            self.snapshotted.append(row)


# An undo replays from the state before the action it undoes, kept for the latest commands, or
# from a snapshot taken every MOVED_SNAPSHOTS entries.
KEPT_BEFORE = 2048
MOVED_SNAPSHOTS = 20


Join = tuple[int, MovedGame, MovedEvent]
REJOINS = 4  # people of a role a file may hold: its room, times this (those who left included)


def joins(games: Sequence[MovedGame]) -> list[Join]:
    """Everyone who joined any of the games, by their old number, checked: a number, a role and
    a name each, nobody twice, one organizer a game."""
    joins: list[Join] = []
    for g in games:
        organizers = 0
        for e in g.events:
            if e.type != "person":
                continue
            old, role, name = e.command.get("id"), e.command.get("role"), e.command.get("name")
            if not isinstance(old, int) or isinstance(old, bool):
                raise damaged(g, e.seq, Msg(N_("a person without a number")))
            if not isinstance(role, str) or not isinstance(name, str) or not 0 < len(name) <= 80:
                raise damaged(g, e.seq, Msg(N_("a person without a role or a name")))
            organizers += role == "organizer"
            joins.append((old, g, e))
        if organizers != 1:
            raise damaged(
                g, "-", Msg(N_("a game has one organizer, not {count}"), {"count": organizers})
            )
        # Before anything is reserved: no more people of a role than the kind holds, counting
        # those who left and came back (`REJOINS` times its room) (an outside attack's file of
        # 50,000 referees held the write lock 14 s reserving them).
        kind = KINDS[g.kind]
        roles = Counter(str(e.command.get("role")) for e in g.events if e.type == "person")
        for role, count in roles.items():
            if role != "organizer" and count > REJOINS * kind.people_limit(role):
                raise InvalidInput(
                    N_("This game has no room for another {role}: {count} at most."),
                    field="file",
                    role=Msg(kind.role_title(role)),
                    count=kind.people_limit(role),
                )
    if len({old for old, _, _ in joins}) != len(joins):
        raise damaged(games[0], "-", Msg(N_("a person who joined twice")))
    return joins


@dataclass(frozen=True)
class Replayer:
    """Replays the games of a file; `rebuild` is the service's (`Replay.rebuild`), which an
    undo in the file replays from."""

    rebuild: Callable[..., BaseModel]

    def replay(
        self,
        g: MovedGame,
        renaming: Renaming,
        people: list[Person],
        from_file: bool,
        games: list[MovedGame],
    ) -> Replayed:
        """The game's log applied again, entry by entry, as this server's service would have
        applied it as a live action: the same guards, summaries, results and subjects, under the
        new names."""
        kind = KINDS[g.kind]
        game = Game(id=renaming.games[g.id], kind=g.kind, name=g.name, created_at=g.created_at)
        settings = renaming.platform_settings(g.settings)
        try:
            kind_settings = kind.settings_model.model_validate(
                renaming.texts_in(settings.get("kind", {}))
            )
        except ValidationError as error:
            raise damaged(g, 0, invalid_from(error).msg) from None
        settings["kind"] = kind_settings.model_dump(mode="json")
        game.settings = settings
        replayed = Replayed(game)
        roles = {"organizer", *kind.roles, *(("referee",) if kind.allows_referees else ())}
        for p in people:
            if p.role not in roles:
                raise damaged(
                    g, "-", Msg(N_("a role this game does not have: “{role}”"), {"role": p.role})
                )
        guard = _Guard(
            kind=kind,
            mine={p.id for p in people},
            physical=settings.get("dice") == "physical",
            from_file=from_file,
            opens=any(o.settings.get("parent") == g.id for o in games),
        )
        state: BaseModel = kind.new_state(kind_settings)
        for number, e in enumerate(g.events, start=1):
            if e.seq != number:
                raise damaged(g, e.seq, Msg(N_("entries out of order")))
            try:
                state = self._entry(guard, game, replayed, e, renaming, state)
            except Damaged:
                raise
            except ValidationError as error:
                raise damaged(g, e.seq, invalid_from(error).msg) from None
            except ArbitreError as error:
                raise damaged(g, e.seq, error.msg) from None
            except BROKEN:
                raise damaged(g, e.seq, Msg(N_("the rules do not play it so"))) from None
        after = state.model_dump(mode="json")
        where = renaming.difference(g.state, after)
        if where is not None:
            raise InvalidInput(
                N_(
                    "“{name}” does not give back its exported state (at {where}): nothing was "
                    "imported."
                ),
                field="file",
                name=g.name,
                where=where[:120],
            )
        game.state, game.seq = after, len(g.events)
        game.held_dice = replayed.held or None
        game.proposals = stored(replayed.proposals)
        game.status, game.next_deadline = kind.status(state), kind.next_deadline(state)
        return replayed

    def _entry(
        self,
        guard: _Guard,
        game: Game,
        replayed: Replayed,
        e: MovedEvent,
        renaming: Renaming,
        state: BaseModel,
    ) -> BaseModel:
        """One entry of the log: its event row added to `replayed`, the state after it returned."""
        kind = guard.kind
        actor = guard.actor(e, renaming, replayed)
        row = Event(
            game_id=game.id,
            seq=e.seq,
            type=e.type,
            at=e.at,
            actor_id=actor.person_id,
            actor_role=e.actor_role,
            actor_name=e.actor_name,
        )
        if e.type in ("person", "access"):
            state = self._people_entry(guard, replayed, e, renaming, row, actor, state)
        elif e.type == "proposal":
            self._proposal_entry(guard, replayed, e, renaming, row, actor, state)
        elif e.type == "consent":
            self._refusal_entry(guard, replayed, e, row, actor, state)
        elif e.type == "command":
            command = guard.admitted(actor, renaming, e.command)
            self._check_names(kind, state, command, guard.mine)
            side = consent_of(kind, state, command, actor)
            agreed = None
            if side is not None:  # sent on another side's pieces: that side agreed
                agreed = self._agreed(guard, replayed, e, renaming, actor, dumped(command), state)
            dice = RecordedDice(
                renaming.rolls(e.rolls),
                may_enter=kind.may_enter_dice(state, actor, guard.physical),
                physical_only=guard.physical,
                from_file=guard.from_file,
            )
            label = kind.label(command, state)
            row.subjects = kind.subjects(state, command, actor)
            before = state
            outcome = kind.apply(state, command, Context(actor, dice, e.at))
            if dice.pending:
                raise ReplayDiverged("dice left over")
            self._roll_again(replayed, dice.rolls)
            state = outcome.state
            row.command, row.rolls, row.result = dumped(command), dice.rolls, dict(outcome.result)
            row.summary, row.label = outcome.summary.to_json(), label.to_json()
            if agreed is not None:
                row.result["agreed_by"] = agreed.person_id
                row.summary = agreed_summary(outcome.summary, agreed).to_json()
            replayed.before[e.seq] = before
            replayed.active.append(row)
            guard.move_on(replayed, state, e.at)
            if len(replayed.before) > KEPT_BEFORE:
                del replayed.before[next(iter(replayed.before))]
            if e.seq % MOVED_SNAPSHOTS == 0:
                replayed.snapshots[e.seq] = state.model_dump(mode="json")
        else:
            state = self._undo_entry(guard, game, replayed, e, row, actor, renaming, state)
            guard.move_on(replayed, state, e.at)
            return state
        replayed.events.append(row)
        replayed.snapshot(row, state)
        return state

    def _proposal_entry(
        self,
        guard: _Guard,
        replayed: Replayed,
        e: MovedEvent,
        renaming: Renaming,
        row: Event,
        actor: Viewer,
        state: BaseModel,
    ) -> None:
        """A proposal, as the live service makes one: by a side's member, of a command on
        another side's pieces the rules accept now, or of an undo that needs consent."""
        kind = guard.kind
        if actor.is_staff or actor.person_id is None:
            raise NotAllowed(N_("Only a side proposes."))
        if e.command.get("type") == UNDO:
            target = replayed.active[-1] if replayed.active else None
            if target is None or target.seq != e.command.get("seq"):
                raise KeyError("an undo of what was not the last action")
            side = guard.undo_consent(replayed, state, actor, target)
            what = undo_of(target)
            command: dict[str, Any] = {"type": UNDO, "seq": target.seq}
        else:
            parsed_command = guard.admitted(actor, renaming, e.command)
            self._check_names(kind, state, parsed_command, guard.mine)
            side = consent_of(kind, state, parsed_command, actor)
            what = trial(kind, state, parsed_command, actor, e.at)
            command = dumped(parsed_command)
        if side is None:
            raise KeyError("a proposal of what needs nobody's consent")
        row.command, row.result, row.subjects = command, {"side": side}, []
        row.summary = proposed(actor, what).to_json()
        row.label = what.to_json()
        replayed.proposals = [  # as `Actions._propose`: the proposer's notices give way
            p for p in replayed.proposals if p.status == "open" or p.proposer != actor.person_id
        ]
        replayed.proposals.append(
            Proposal(
                id=e.seq,
                side=side,
                proposer=actor.person_id,
                proposer_role=actor.role,
                proposer_name=actor.name,
                command=command,
                what=what.to_json(),
                moment=kind.moment(state),
            )
        )

    def _refusal_entry(
        self,
        guard: _Guard,
        replayed: Replayed,
        e: MovedEvent,
        row: Event,
        actor: Viewer,
        state: BaseModel,
    ) -> None:
        """A proposal refused by the side it was made to, or withdrawn by its proposer."""
        proposal = guard.open_proposal(replayed, e.command.get("proposal"), state)
        withdrawn = proposal.proposer == actor.person_id
        if not withdrawn and guard.kind.side_of(state, actor) != proposal.side:
            raise NotAllowed(N_("Only the other side answers this proposal."))
        guard.ended(replayed, proposal, "withdrawn" if withdrawn else "refused", actor, state)
        proposer = Viewer(proposal.proposer_role, proposal.proposer, proposal.proposer_name)
        row.command = {"type": "refuse", "proposal": proposal.id}
        row.result, row.subjects = {"proposal": proposal.id, "accepted": False}, []
        row.summary = refused(actor, proposer, Msg.from_json(proposal.what), withdrawn).to_json()
        row.label = proposal.what
        replayed.events.append(row)

    def _agreed(
        self,
        guard: _Guard,
        replayed: Replayed,
        e: MovedEvent,
        renaming: Renaming,
        actor: Viewer,
        command: dict[str, Any],
        state: BaseModel,
    ) -> Viewer:
        """Who agreed to a command that needed consent: a member of the side it was proposed
        to, to this very command, proposed by its sender at this moment of the game."""
        person = renaming.people.get(e.agreed_by) if e.agreed_by is not None else None
        known = replayed.people.get(person) if person is not None else None
        if person is None or known is None or replayed.revoked.get(person, True):
            raise NotAllowed(N_("Only the other side answers this proposal."))
        agreed = Viewer(known[0], person, known[1])
        proposal = next(
            (
                p
                for p in replayed.proposals
                if p.status == "open" and p.proposer == actor.person_id and p.command == command
            ),
            None,
        )
        if proposal is None or guard.kind.moment(state) != proposal.moment:
            raise KeyError("a command on another side's pieces nobody agreed to")
        if guard.kind.side_of(state, agreed) != proposal.side:
            raise NotAllowed(N_("Only the other side answers this proposal."))
        guard.ended(replayed, proposal, "accepted", agreed, state)
        return agreed

    def _people_entry(
        self,
        guard: _Guard,
        replayed: Replayed,
        e: MovedEvent,
        renaming: Renaming,
        row: Event,
        actor: Viewer,
        state: BaseModel,
    ) -> BaseModel:
        """Someone joined, or their link was revoked or re-issued, within the kind's room."""
        kind = guard.kind
        c = e.command
        person = renaming.people[c["id"]]
        if person not in guard.mine:
            raise KeyError("a person of another game")
        # Older logs said only the number in a link's entry: the person is the one who joined.
        known = replayed.people.get(person)
        role, name = c.get("role", known and known[0]), c.get("name", known and known[1])
        if not isinstance(role, str) or not isinstance(name, str):
            raise KeyError("a person without a role or a name")
        info = PersonInfo(person, role, name)
        linked = "parent" in (replayed.game.settings or {})
        guard.may_change_people(actor, e, role, linked, person)
        row.command = {**c, "id": person, "role": role, "name": name}
        if e.type == "access":
            row.command["was_revoked"] = replayed.revoked.get(person, False)
        if e.type == "person":
            guard.room(replayed, role, +1)
            state = kind.add_person(state, info)
            replayed.revoked[person] = False
            replayed.people[person] = (role, name)
            row.summary = row.label = joined(kind, info.role, info.name).to_json()
        else:
            revoke = c["type"] == "link.revoke"
            if revoke and not replayed.revoked[person]:
                guard.room(replayed, role, -1)
                state = kind.remove_person(state, info)
            elif not revoke and replayed.revoked[person]:
                guard.room(replayed, role, +1)
                state = kind.add_person(state, info)
            replayed.revoked[person] = revoke
            row.summary = row.label = link_changed(info.name, revoke=revoke).to_json()
        row.subjects = []
        replayed.person_rows.append(row)
        replayed.events.append(row)
        return state

    def _undo_entry(
        self,
        guard: _Guard,
        game: Game,
        replayed: Replayed,
        e: MovedEvent,
        row: Event,
        actor: Viewer,
        renaming: Renaming,
        state: BaseModel,
    ) -> BaseModel:
        """An undo: the last action not undone, replayed without it, as the service does; by
        the staff (a referee their own actions only), or by a side's member: their own last
        action while nobody else acted since, else with the other side's consent."""
        target = replayed.active[-1] if replayed.active else None
        if target is None or target.seq != e.command.get("seq"):
            raise KeyError("an undo of what was not the last action")
        agreed = None
        if actor.is_staff:
            if not actor.is_organizer and target.actor_id not in (None, actor.person_id):
                raise NotAllowed(N_("Only referees undo actions."))
        elif not guard.kind.consent_commands or actor.person_id is None:
            raise NotAllowed(N_("Only referees undo actions."))
        elif guard.undo_consent(replayed, state, actor, target) is not None:
            command = {"type": UNDO, "seq": target.seq}
            agreed = self._agreed(guard, replayed, e, renaming, actor, command, state)
        row.command, row.undoes = {"type": "undo", "seq": target.seq}, target.seq
        target.undone_by = e.seq
        replayed.active.pop()
        replayed.held = held_after_undo(replayed.held, target.rolls)
        row.subjects = target.subjects
        summary = Msg(N_("Undone: {label}"), {"label": Msg.from_json(target.label)})
        row.summary = row.label = summary.to_json()
        if agreed is not None:
            row.result = {"agreed_by": agreed.person_id}
            row.summary = row.label = agreed_summary(summary, agreed).to_json()
        replayed.events.append(row)
        # The snapshots after the target hold what is undone.
        while replayed.snapshotted and replayed.snapshotted[-1].seq >= target.seq:
            replayed.snapshotted.pop().snapshot = None
        # From the state just before the target when it is kept (the rules never change their
        # input), else from the last snapshot before it (those after it hold what is undone):
        # a log of many undos replays in a time that follows its length, not its square.
        for seq in [k for k in replayed.snapshots if k >= target.seq]:
            del replayed.snapshots[seq]
        kind = KINDS[game.kind]
        kept_state = replayed.before.pop(target.seq, None)
        if kept_state is not None:  # only people may have come since: add them back
            later = [p for p in replayed.person_rows if p.seq > target.seq]
            state = kept_state.model_copy(deep=True) if later else kept_state
            for entry in later:
                state = self._person_entry(kind, state, entry)
            replayed.snapshot(row, state)
            return state
        start = max(replayed.snapshots, default=0)
        snapshot = replayed.snapshots.get(start)
        if snapshot is None:
            state = self.rebuild(game, replayed.events)
        else:
            held = Event(
                game_id=game.id, seq=start, type="command", actor_role="system", snapshot=snapshot
            )
            state = self.rebuild(game, replayed.events, start=held)
        replayed.snapshot(row, state)
        return state

    @staticmethod
    def _roll_again(replayed: Replayed, rolls: list[dict[str, Any]]) -> None:
        """A die the server rolled takes the held die of its purpose, as the live service does
        (undo never re-rolls): a file whose action, done again after its undo, rolled otherwise
        was not played here."""
        for roll in rolls:
            if roll.get("manual"):
                continue
            held = take_held(replayed.held, roll["sides"], roll["purpose"])
            if held is not None and held["value"] != roll["value"]:
                raise KeyError("a die rolled again otherwise after its action was undone")

    @staticmethod
    def _person_entry(kind: GameKind[Any], state: BaseModel, event: Event) -> BaseModel:
        """A person's entry replayed as `rebuild` does (joined, or a link revoked or re-issued)."""
        c = event.command
        info = PersonInfo(c["id"], c["role"], c["name"])
        if event.type == "person":
            return kind.add_person(state, info)
        if c["type"] == "link.revoke" and not c.get("was_revoked"):
            return kind.remove_person(state, info)
        if c["type"] == "link.reissue" and c.get("was_revoked"):
            return kind.add_person(state, info)
        return state

    @staticmethod
    def _check_names(
        kind: GameKind[Any], state: BaseModel, command: Any, mine: set[int | None]
    ) -> None:
        """What a replayed command names is of its own game, as when it was first sent."""
        known = kind.references(state)
        for what, _, value in refs_of(command):
            if (what == "person" and value not in mine) or (
                what != "person" and value not in known.get(what, ())
            ):
                raise KeyError(f"{what} {value} is not of this game")


@dataclass
class _Guard:
    """The checks a live action passes, for the entries of one game brought in a file: who acts
    (a person of the game in the role they joined with, their link alive, or the clock), what
    they may send, the room each role has."""

    kind: GameKind[Any]
    mine: set[int | None]
    physical: bool
    from_file: bool
    opens: bool  # the file holds a game this one opened (its record of it is the platform's)

    def actor(self, e: MovedEvent, renaming: Renaming, replayed: Replayed) -> Viewer:
        """Who acted: the clock, someone joining by the game's invitation, or a person of this
        game in the role they joined with, their link alive then."""
        if e.actor_id is None:
            if e.actor_role == SYSTEM.role:
                return SYSTEM
            if e.type == "person" and e.actor_role == self.kind.open_role:
                return Viewer(e.actor_role, None, e.actor_name)
            raise KeyError("an actor without a number")
        person = renaming.people.get(e.actor_id)
        if person is None or person not in self.mine:
            raise KeyError("an actor of another game")
        known = replayed.people.get(person)
        if known is None or known[0] != e.actor_role or replayed.revoked.get(person, True):
            raise KeyError("an actor who was not that person then")
        return Viewer(known[0], person, known[1])

    def may_change_people(
        self, actor: Viewer, e: MovedEvent, role: str, linked: bool, joining: int | None
    ) -> None:
        """Who brings a person in or changes a link, as the live service lets them: the game
        itself its organizer (and a linked game its people), the organizer anyone of the roles
        the organizer gives, the invitation its own role; the organizer the links."""
        if e.type == "access":
            allowed = actor.is_organizer
        elif actor is SYSTEM:
            allowed = role == "organizer" or (linked and role in self.kind.roles)
        elif actor.person_id is None:  # by the invitation
            allowed = role == self.kind.open_role == actor.role and joining is not None
        else:
            allowed = actor.is_organizer and role in self.kind.registrable_roles()
        if not allowed:
            raise NotAllowed(N_("Only the organizer registers people."))

    def admitted(self, actor: Viewer, renaming: Renaming, payload: dict[str, Any]) -> Any:
        """The command as a live one is read: typed, renamed, and sent by someone who may."""
        command = renumbered(self.kind.parse(renaming.texts_in(payload)), renaming.people)
        internal = isinstance(command, self.kind.internal)
        # The platform's own commands: the clock's, and a record of a game this one opened.
        trusted = internal and (actor is SYSTEM or self.opens)
        return parsed(self.kind, actor, dumped(command), trusted=trusted)

    def undo_consent(
        self, replayed: Replayed, state: BaseModel, actor: Viewer, target: Event
    ) -> str | None:
        """As the live service decides (`Actions._undo_consent`): None when it is the actor's
        own last action and nobody else acted since, else the side that must agree."""
        later = [e for e in replayed.events if e.seq > target.seq and e.type in TOLD]
        if alone_undoes(target, later, actor):
            return None
        own = self.kind.side_of(state, actor)
        others = [side for side in self.kind.sides(state) if side != own]
        if own is None or not others:
            raise NotAllowed(N_("Only referees undo actions."))
        return others[0]

    def move_on(self, replayed: Replayed, state: BaseModel, at: datetime) -> None:
        """As the live service after a change (`Actions._move_on`): the proposals it moved past,
        or that can no longer apply (an undo whose action is no longer the last, a command the
        rules would refuse now), expire."""

        def still(p: Proposal) -> bool:
            if p.is_undo:
                return bool(replayed.active) and replayed.active[-1].seq == p.command.get("seq")
            return applies(self.kind, state, p, at)

        replayed.proposals = moved_on(replayed.proposals, self.kind.moment(state), still)

    def ended(
        self,
        replayed: Replayed,
        proposal: Proposal,
        status: Status,
        by: Viewer,
        state: BaseModel,
    ) -> None:
        """An answered proposal: its proposer's notice, as the live service keeps it (`answer`)."""
        done = proposal.ending(status, self.kind.moment(state), by.name)
        replayed.proposals = [done if p is proposal else p for p in replayed.proposals]

    def open_proposal(self, replayed: Replayed, number: Any, state: BaseModel) -> Proposal:
        proposal = next((p for p in replayed.proposals if p.id == number), None)
        if proposal is None or proposal.status != "open":
            raise KeyError("an answer to no open proposal")
        if self.kind.moment(state) != proposal.moment:
            raise KeyError("an answer to an expired proposal")
        return proposal

    def room(self, replayed: Replayed, role: str, change: int) -> None:
        replayed.in_play[role] += change
        if role != "organizer" and replayed.in_play[role] > self.kind.people_limit(role):
            raise InvalidInput(
                N_("This game has no room for another {role}: {count} at most."),
                field="file",
                role=Msg(self.kind.role_title(role)),
                count=self.kind.people_limit(role),
            )
