"""What the referee reads aloud after any action: the choices a player now owes, the end."""

from __future__ import annotations

from server.games.serial_battle.state import SBState
from server.i18n import N_, Msg


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
