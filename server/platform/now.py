"""The line at the top of every live part (issue 35, class B): where the game stands and whose
turn it is, then what this viewer can do now.

A kind says it from the viewer's view alone (`GameKind.now`), so the line shows nothing the
viewer's projection does not, and it changes with the live part that carries it.
`tests/test_now_line.py` reads it for every role of every kind in every phase.
"""

from __future__ import annotations

from dataclasses import dataclass

from server.i18n import N_, Msg


@dataclass(frozen=True)
class Now:
    """`where`: the moment of the game and whose turn it is ("Turn 3 · Hugo chooses a
    technique"). `you`: what this viewer can do now, None on the public's board. `yours`: the
    game waits for this viewer. `to`: the id of the viewer's controls, when the page has them
    further down. `aloud`: the viewer's turn is said aloud at the table, for the staff to enter
    (a team's stake, a player's choice at a table game): their page offers no control for it."""

    where: Msg
    you: Msg | None = None
    yours: bool = False
    to: str | None = None
    aloud: bool = False


NOTHING_LEFT = N_("Nothing left to do.")
WATCH = N_("Nothing to do for now: the page follows the game.")
