"""Adversaries consent (platform.md): where two sides play without a referee, a command one side
sends on the other side's pieces outside the rules' own flow (a condition, a wound or an
expulsion entered by hand, an undo of the other side's action) is a proposal: nothing changes
until the other side's member accepts it. A kind declares which commands (`consent_commands`)
and whose pieces a command names (`touches`); the service keeps the proposals on the game row
(`Game.proposals`), applies an accepted one through the normal path, and logs all three.

A proposal expires when the game moves on past it: the kind's `moment` (a match's turn and
phase) is no longer the one it was made at; where a kind has none, any later action."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel

from server.errors import ArbitreError
from server.i18n import N_, Msg
from server.platform.kinds import Context, Viewer

UNDO = "undo"
# The events by which someone changes the game (an undo needs consent once someone else did
# since); a proposal or a refusal changes nothing.
TOLD = ("command", "undo")


Status = Literal["open", "expired", "accepted", "refused", "withdrawn"]


class Proposal(BaseModel):
    id: int  # the sequence number of the event that made it
    side: str  # whose member must agree
    proposer: int
    proposer_role: str
    proposer_name: str
    command: dict[str, Any]  # as the proposer sent it; an undo: {"type": "undo", "seq": n}
    what: dict[str, Any]  # what it would do, as `Msg` JSON
    moment: Any = None
    status: Status = "open"
    answered_by: str = ""  # who accepted or refused it
    ended: Any = None  # the moment it ended at: its notice stays for the proposer until the next

    @property
    def is_undo(self) -> bool:
        return self.command.get("type") == UNDO

    def ending(self, status: Status, moment: Any, by: str = "") -> Proposal:
        return self.model_copy(update={"status": status, "ended": moment, "answered_by": by})


def proposals_of(stored: list[dict[str, Any]] | None) -> list[Proposal]:
    return [Proposal.model_validate(p) for p in stored or []]


def stored(proposals: list[Proposal]) -> list[dict[str, Any]] | None:
    return [p.model_dump(mode="json") for p in proposals] or None


def moved_on(
    proposals: list[Proposal], moment: Any, still: Callable[[Proposal], bool] = lambda p: True
) -> list[Proposal]:
    """After an action: a proposal made at another moment than the game's now (every one, for a
    kind without moments), or that can no longer apply (`still`: the rules would refuse it now,
    an undo whose action is no longer the last), expires; the notices of proposals that ended at
    an earlier moment go."""
    kept = []
    for p in proposals:
        if p.status != "open":
            if moment is not None and p.ended == moment:
                kept.append(p)
        elif moment is None or p.moment != moment or not still(p):
            kept.append(p.ending("expired", moment))
        else:
            kept.append(p)
    return kept


NOTICES: dict[str, str] = {
    "expired": N_("Expired: the game moved on, or it can no longer apply. Nothing changed."),
    "accepted": N_("Accepted by %(name)s: done."),
    "refused": N_("Refused by %(name)s: nothing changed."),
    "withdrawn": N_("Withdrawn: nothing changed."),
}


def shown_to(
    proposals: list[Proposal], viewer_side: str | None, person_id: int | None, staff: bool
) -> list[dict[str, Any]]:
    """The proposals a page shows its viewer: those they answer, those they made (waiting, or
    how they ended), and the open ones to the staff, who answer none."""
    shown = []
    for p in proposals:
        mine = p.proposer == person_id
        to_me = p.status == "open" and viewer_side is not None and p.side == viewer_side
        if not (mine or to_me or (staff and p.status == "open")):
            continue
        shown.append(
            {
                "id": p.id,
                "what": Msg.from_json(p.what),
                "by": p.proposer_name,
                "side": p.side,
                "mine": mine,
                "to_me": to_me and not mine,
                "status": p.status,
                "notice": NOTICES.get(p.status),
                "answered_by": p.answered_by,
            }
        )
    return shown


class NoDice:
    """The dice of a proposal's trial run (would the rules take it now, and what would it do?):
    every die shows 1, nothing is kept, and how many were asked is counted."""

    def __init__(self) -> None:
        self.asked = 0

    def roll(
        self, sides: int, purpose: str, *, owner: str | None = None, secret: bool = False
    ) -> int:
        self.asked += 1
        return 1


def trial(kind: Any, state: Any, command: Any, actor: Any, now: datetime) -> Msg:
    """What a command would do, for the side asked to agree: the rules' own sentence when no die
    decides it, else the kind's description (`GameKind.describe`); a command the rules refuse
    now is refused (their error, to the proposer)."""
    dice = NoDice()
    outcome = kind.apply(state, command, Context(actor, dice, now))
    return outcome.summary if dice.asked == 0 else kind.describe(command, state)


def applies(kind: Any, state: Any, proposal: Proposal, now: datetime) -> bool:
    """Whether the rules would still take a proposal's command now, as its proposer sent it."""
    proposer = Viewer(proposal.proposer_role, proposal.proposer, proposal.proposer_name)
    try:
        kind.apply(state, kind.parse(proposal.command), Context(proposer, NoDice(), now))
    except (ArbitreError, ValueError, KeyError):
        return False
    return True


def proposed(proposer: Any, what: Msg) -> Msg:
    return Msg(
        N_("{name} proposes: {what}. The other side accepts or refuses."),
        {"name": proposer.name, "what": what},
    )


def refused(actor: Any, proposer: Any, what: Msg, withdrawn: bool) -> Msg:
    if withdrawn:
        return Msg(N_("{name} withdraws the proposal: {what}."), {"name": actor.name, "what": what})
    return Msg(
        N_("{name} refuses the proposal of {proposer}: {what}."),
        {"name": actor.name, "proposer": proposer.name, "what": what},
    )


def agreed_summary(summary: Msg, agreed: Any) -> Msg:
    return Msg(N_("{summary} (agreed by {name})"), {"summary": summary, "name": agreed.name})


def alone_undoes(target: Any, later: Sequence[Any], actor: Any) -> bool:
    """Whether a side's member undoes `target` alone: it is their own action, nobody else
    agreed to it, and nobody else has acted since (`later`: the events after it)."""
    return (
        target.actor_id == actor.person_id
        and target.result.get("agreed_by") in (None, actor.person_id)
        and all(e.actor_id in (None, actor.person_id) for e in later)
    )


def undo_of(target: Any) -> Msg:
    """An undo proposed: of what, and whose action it was."""
    return Msg(
        N_("Undo: {label} (by {name})"),
        {"label": Msg.from_json(target.label), "name": target.actor_name or "Arbitre"},
    )
