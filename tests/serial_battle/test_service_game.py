"""A whole 12-player Serial Battle played through the service on a real database: three
referees act, one undoes a mistake, one retries a tap; the zone shrinks on the clock; the log
replays to the stored state and the summary says who won and how."""

from __future__ import annotations

from typing import Any

from server.games.serial_battle.assault import default_weapon
from server.platform.clock import FakeClock
from server.platform.dice import ScriptedRolls
from server.platform.kinds import Viewer
from server.platform.service import GameService
from tests.conftest import key, viewer_of

NAMES = ["Ana", "Ben", "Cléo", "Dan", "Eva", "Fred", "Gus", "Hana", "Ivo", "Jade", "Kim", "Lou"]


def test_a_whole_game_to_the_last_survivor(
    service: GameService, rolls: ScriptedRolls, clock: FakeClock
) -> None:
    game, organizer = service.create_game(
        "serial_battle", "Forêt", "Orga", idem_key=key(), settings={"deal_mode": "scattered"}
    )
    org = viewer_of(organizer)
    refs = [
        viewer_of(service.register(game.id, org, "referee", f"Arbitre {n}", idem_key=key()))
        for n in (1, 2, 3)
    ]
    ids = {
        n: viewer_of(service.register(game.id, org, "player", n, idem_key=key())).person_id
        for n in NAMES
    }

    def act(referee: Viewer, command: dict[str, Any], *dice: int, idem: str | None = None) -> Any:
        rolls.push(*dice)
        return service.perform(game.id, referee, command, idem_key=idem or key())

    def state() -> Any:
        return service.load(game.id).state

    def kill(
        referee: Viewer, attacker: str, victim: str, card: str, idem: str | None = None
    ) -> Any:
        # Face 6 of the sample Couteau and Pistolet is a critical blow: it kills outright. The
        # referee names the victim's card, as the page's preselected choice does.
        now = state()
        answer = default_weapon(now, now.players[str(ids[victim])]) or "bare"
        done = act(
            referee,
            {
                "type": "assault",
                "attacker": ids[attacker],
                "defenders": [ids[victim]],
                "card": card,
                "defender_card": answer,
                "answer": False,
            },
            6,
            1,
            idem=idem,
        )
        for pending in state().pending:
            if pending.kind == "loot":
                winner = state().players[str(pending.winner)]
                loser = state().players[str(pending.loser)]
                room = 5 - len(winner.cards)
                take = [h.copy_id for h in loser.cards][:room]
                act(referee, {"type": "loot", "pending": pending.id, "take": take})
        return done

    act(org, {"type": "sectors", "names": "Nord, Sud, Est, Ouest"})
    act(org, {"type": "start"})
    r1, r2, r3 = refs
    for player, card in (
        ("Ana", "couteau"),
        ("Ben", "couteau#2"),
        ("Cléo", "pistolet"),
        ("Dan", "matraque"),
        ("Eva", "garrot"),
        ("Hana", "trousse-de-secours"),
    ):
        act(r1, {"type": "give", "player": ids[player], "card": card})

    kill(r1, "Ana", "Fred", "couteau")
    kill(r2, "Cléo", "Dan", "pistolet")  # Cléo takes Dan's matraque
    assert [h.copy_id for h in state().players[str(ids["Cléo"])].cards] == ["pistolet", "matraque"]

    # A mistake, undone by the referee who made it.
    act(
        r2,
        {
            "type": "assault",
            "attacker": ids["Ben"],
            "defenders": [ids["Gus"]],
            "card": "couteau#2",
            "answer": False,
        },
        3,
        3,
    )
    assert state().players[str(ids["Gus"])].pv == 33
    undone = service.undo(game.id, r2, idem_key=key())
    assert undone.summary.render() == "Annulé : assaut de Ben sur Gus"
    assert state().players[str(ids["Gus"])].pv == 36
    # The undone blow's dice stay with the game (issue 31): the assault entered again rolls
    # them again, whatever is pushed, so an undo never buys a better roll.
    rolls.push(6, 6)
    act(
        r2,
        {
            "type": "assault",
            "attacker": ids["Ben"],
            "defenders": [ids["Gus"]],
            "card": "couteau#2",
            "answer": False,
        },
    )
    assert state().players[str(ids["Gus"])].pv == 33 and rolls.values == [6, 6]
    rolls.values.clear()

    # Eva strangles Hana (Garrot face 4: 6 PV, strangled), then takes her card and leaves.
    act(
        r3,
        {
            "type": "assault",
            "attacker": ids["Eva"],
            "defenders": [ids["Hana"]],
            "card": "garrot",
            "answer": False,
        },
        4,
        1,
    )
    pending = state().pending[0]
    assert pending.kind == "knockout" and state().players[str(ids["Hana"])].knocked_out
    act(r3, {"type": "knockout_take", "pending": pending.id, "card": "trousse-de-secours"})

    # The zone: ten minutes later the referee closes Est, where Ivo hides.
    act(r1, {"type": "place", "players": [ids["Ivo"]], "sector": "Est"})
    clock.advance(600)
    assert service.run_due() == 1
    assert state().shrink_due
    act(r1, {"type": "close", "sectors": ["Est"]})
    act(r1, {"type": "eliminate", "player": ids["Ivo"], "cause": "zone"})

    # A tap sent twice (the phone lost the first answer): applied once.
    first = kill(r3, "Ana", "Jade", "couteau", idem="tap-jade")
    again = kill(r3, "Ana", "Jade", "couteau", idem="tap-jade")
    assert again.replayed and again.seq == first.seq

    for referee, attacker, victim, card in [
        (r1, "Ana", "Kim", "couteau"),
        (r2, "Ben", "Lou", "couteau#2"),
        (r3, "Cléo", "Gus", "pistolet"),
        (r1, "Ana", "Hana", "couteau"),
        (r2, "Ben", "Eva", "couteau#2"),
        (r3, "Cléo", "Ben", "pistolet"),
    ]:
        kill(referee, attacker, victim, card)
    last = kill(r1, "Ana", "Cléo", "couteau")
    assert "Ana gagne !" in last.summary.render()

    final = state()
    assert final.phase == "finished" and final.result.winner == ids["Ana"]
    order = [final.players[str(e.player)].name for e in final.eliminations]
    assert order == [
        "Fred",
        "Dan",
        "Ivo",
        "Jade",
        "Kim",
        "Lou",
        "Gus",
        "Hana",
        "Eva",
        "Ben",
        "Cléo",
    ]
    ana = final.players[str(ids["Ana"])]
    assert (ana.kills, ana.assaults, ana.damage_dealt) == (5, 5, 30)
    board = service.load(game.id).kind.view(final, Viewer("public"), clock.now())
    assert board["result"] == {"winner": "Ana", "reason": "last_survivor"}
    assert board["elimination_details"][2] == {"name": "Ivo", "by": None, "cause": "zone"}
    assert service.verify(game.id)
