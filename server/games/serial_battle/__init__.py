"""Serial Battle (outdoor): the referee console, from the deal to the last survivor."""

from server.games.serial_battle.kind import SERIAL_BATTLE
from server.i18n import N_, renamed
from server.platform.kinds import register

register(SERIAL_BATTLE)

# Journals written before English said HP (issue 54: "PV" was the book's word in both) read as
# they are said now; an end written before it named who ended it keeps its words.
renamed(
    {
        old: old.replace(" PV", " HP").replace("PV {", "HP {")
        for old in (
            ". {target} is knocked out ({left} PV left).",
            ". {target}: {left} PV left.",
            "PV {old} → {new}",
            "{striker} hits {target} {where} with bare hands: {pv} PV",
            "{striker} hits {target} {where} with the card {card}: {pv} PV",
            "{striker} → {target}: {pv} PV",
            "{striker} → {target}: {pv} PV, out",
        )
    }
)
N_("The referee ends the game.")

from server.games.serial_battle import demo  # noqa: E402, F401  (registers the demo)
