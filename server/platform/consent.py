"""Adversaries consent (platform.md): where two sides play without a referee, a command one side
sends on the other side's pieces outside the rules' own flow (a condition, a wound or an
expulsion entered by hand, an undo of the other side's action) is a proposal: nothing changes
until the other side's member accepts it. A kind declares which commands (`consent_commands`)
and whose pieces a command names (`touches`); the service keeps the proposals on the game row
(`Game.proposals`), applies an accepted one through the normal path, and logs all three.

A proposal expires when the game moves on past it: the kind's `moment` (a match's turn and
phase) is no longer the one it was made at; where a kind has none, any later action."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

from pydantic import BaseModel

from server.i18n import N_, Msg

UNDO = "undo"
# The events by which someone changes the game (an undo needs consent once someone else did
# since); a proposal or a refusal changes nothing.
TOLD = ("command", "undo")


class Proposal(BaseModel):
    id: int  # the sequence number of the event that made it
    side: str  # whose member must agree
    proposer: int
    proposer_role: str
    proposer_name: str
    command: dict[str, Any]  # as the proposer sent it; an undo: {"type": "undo", "seq": n}
    what: dict[str, Any]  # what it would do, as `Msg` JSON
    moment: Any = None
    status: Literal["open", "expired"] = "open"

    @property
    def is_undo(self) -> bool:
        return self.command.get("type") == UNDO


def proposals_of(stored: list[dict[str, Any]] | None) -> list[Proposal]:
    return [Proposal.model_validate(p) for p in stored or []]


def stored(proposals: list[Proposal]) -> list[dict[str, Any]] | None:
    return [p.model_dump(mode="json") for p in proposals] or None


def moved_on(proposals: list[Proposal], moment: Any) -> list[Proposal]:
    """After an action: the proposals made at another moment than the game's now (every one,
    for a kind without moments) expire."""
    return [
        p.model_copy(update={"status": "expired"})
        if p.status == "open" and (moment is None or p.moment != moment)
        else p
        for p in proposals
    ]


def shown_to(
    proposals: list[Proposal], viewer_side: str | None, person_id: int | None, staff: bool
) -> list[dict[str, Any]]:
    """The proposals a page shows its viewer: those they answer, those they made (waiting, or
    expired), and all of them to the staff, who answer none."""
    shown = []
    for p in proposals:
        mine = p.proposer == person_id
        to_me = p.status == "open" and viewer_side is not None and p.side == viewer_side
        if not (mine or to_me or staff):
            continue
        shown.append(
            {
                "id": p.id,
                "what": Msg.from_json(p.what),
                "by": p.proposer_name,
                "side": p.side,
                "mine": mine,
                "to_me": to_me and not mine,
                "expired": p.status == "expired",
            }
        )
    return shown


class NoDice:
    """The dice of a proposal's trial run (would the rules take it now?): every die shows 1,
    and nothing is kept."""

    def roll(
        self, sides: int, purpose: str, *, owner: str | None = None, secret: bool = False
    ) -> int:
        return 1


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
