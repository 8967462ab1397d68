"""What a finished match tells its league (3.4): the record of the league's end-of-match
operations, performed there by Arbitre."""

from __future__ import annotations

from typing import Any

from server.games.killpower.match.state import (
    MatchState,
)


def league_record(game_id: str, state: MatchState) -> dict[str, Any]:
    """The league's RecordMatch command for a finished match (3.4, sequence 16)."""
    a, b = state.team("A"), state.team("B")
    return {
        "type": "match",
        "team_a": a.roster.team,
        "team_b": b.roster.team,
        "played_a": a.lineup,
        "played_b": b.lineup,
        "score_a": a.score,
        "score_b": b.score,
        "surrendered": state.surrendered or "",
        "eliminated": state.eliminated or "",
        "risk": {
            str(f.id): f.state
            for f in state.fighters.values()
            if f.where == "coma" and f.state is not None
        },
        # 8.4: a blow aimed at a location decides it for TABLE 8 (no location die).
        "located": {
            str(f.id): f.location
            for f in state.fighters.values()
            if f.where == "coma" and f.state is not None and f.location
        },
        "throws_a": [t.points for t in state.throws if t.side == "A"],
        "throws_b": [t.points for t in state.throws if t.side == "B"],
        "match_game": game_id,
    }
