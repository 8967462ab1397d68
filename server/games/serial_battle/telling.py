"""What the referee reads aloud after any action: the choices a player now owes, the end; and
the dice of an assault in words."""

from __future__ import annotations

import re

from server.games.serial_battle.state import SBState
from server.i18n import N_, Msg

# The dice of an assault (rules.assault): "damage", "answer_location", "3_recovery" (against the
# third player of a multiple assault), "hit_3".
_ROLL = re.compile(r"(?P<answer>answer_)?(?:(?P<id>\d+)_)?(?P<what>damage|location|recovery|hit)")

_ROLL_WHAT = {
    "damage": N_("damage"),
    "location": N_("location"),
    "recovery": N_("projectile recovery"),
}


def pending_notes(state: SBState, *players: int) -> list[Msg]:
    notes = []
    for pending in state.pending:
        if pending.winner in players or pending.loser in players:
            winner, loser = state.player(pending.winner), state.player(pending.loser)
            if pending.kind != "knockout":
                text = N_("{winner} may take {loser}’s cards.")
            elif loser.cards:
                text = N_("{winner} chooses: take a card from {loser}, or a second assault.")
            else:  # Assommé, nothing to take: leaving is still a choice
                text = N_(
                    "{winner} chooses: leave ({loser} has no card to take), or a second assault."
                )
            notes.append(Msg(text, {"winner": winner.name, "loser": loser.name}))
    return notes


def roll_label(purpose: str, state: SBState) -> Msg | str | None:
    """ "answer_3_location" is said "answer of Hugo: location"."""
    m = _ROLL.fullmatch(
        purpose.replace("hit_", "") + "_hit" if purpose.startswith("hit_") else purpose
    )
    if m is None:
        return purpose
    player = state.players.get(m["id"] or "")
    name = player.name if player else m["id"]
    if m["what"] == "hit":
        return Msg(N_("hit on {name}"), {"name": name})
    what = Msg(_ROLL_WHAT[m.group(3)])
    if m["answer"] and name:
        return Msg(N_("answer of {name}: {what}"), {"name": name, "what": what})
    if m["answer"]:
        return Msg(N_("answer: {what}"), {"what": what})
    if name:
        return Msg(N_("{what} on {name}"), {"name": name, "what": what})
    return what
