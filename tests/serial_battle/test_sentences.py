"""What the referee reads aloud says what happened to the cards (issue 17, item 6): a projectile
recovered or lost on its 1D6 (Récupération des munitions), a weapon run out to take back
(Munitions); and the end summary counts the assaults each took part in (item 11)."""

from __future__ import annotations

from typing import Any

from server.catalogues import catalogue_paths, read
from server.i18n import RENAMED, Msg, current_language
from server.platform.dice import ScriptedRolls
from server.platform.kinds import Viewer
from server.platform.service import GameService
from tests.conftest import key, viewer_of
from tests.serial_battle.scenes import sb_no_survivor


def test_projectiles_and_empty_weapons_are_said(service: GameService, rolls: ScriptedRolls) -> None:
    game, organizer = service.create_game(
        "serial_battle", "Parc", "Orga", idem_key=key(), settings={"deal_mode": "scattered"}
    )
    org = viewer_of(organizer)
    ids = {
        n: viewer_of(service.register(game.id, org, "player", n, idem_key=key())).person_id
        for n in ("Léa", "Hugo", "Zoé")
    }
    service.perform(game.id, org, {"type": "sectors", "names": "Nord, Sud"}, idem_key=key())
    rolls.endless = True
    service.perform(game.id, org, {"type": "start"}, idem_key=key())
    rolls.endless = False
    rolls.values.clear()

    def act(command: dict[str, Any], *dice: int) -> str:
        rolls.push(*dice)
        return service.perform(game.id, org, command, idem_key=key()).summary.render()

    act({"type": "give", "player": ids["Léa"], "card": "shuriken"})
    lea = service.load(game.id).state.players[str(ids["Léa"])]  # type: ignore[attr-defined]
    shuriken = lea.cards[0].copy_id
    throw = {
        "type": "assault",
        "attacker": ids["Léa"],
        "defenders": [ids["Hugo"]],
        "card": shuriken,
        "answer": False,
    }
    # Damage 1, location 3, then the recovery die: 5 brings the shuriken back (1 to 5).
    said = act(throw, 1, 3, 5)
    assert "Léa récupère le projectile de la carte Shuriken (dé : 5)." in said, said
    # The last shuriken, thrown and lost on a 6: the card is empty and goes back.
    act(
        {
            "type": "correct",
            "player": ids["Léa"],
            "pv": 36,
            "card": shuriken,
            "ammo": 1,
            "reason": "un seul shuriken",
        }
    )
    said = act({**throw, "defenders": [ids["Zoé"]]}, 1, 3, 6)
    assert "Léa perd le projectile de la carte Shuriken (dé : 6)." in said, said
    assert "La carte Shuriken de Léa est vide : reprenez-la." in said, said
    assert not service.load(game.id).state.players[str(ids["Léa"])].cards  # type: ignore[attr-defined]

    # Hugo and Zoé each defended once, Léa attacked twice: an assault counts for both sides.
    counts = {p.name: p.assaults for p in service.load(game.id).state.players.values()}  # type: ignore[attr-defined]
    assert counts == {"Léa": 2, "Hugo": 1, "Zoé": 1}


def test_the_public_replay_says_who_struck_whom_and_never_with_what(
    service: GameService, rolls: ScriptedRolls
) -> None:
    """Issue 54: a replay's step that the public board's journal says nothing of is said as the
    end reveals it (each player's assaults and damage), « Léa → Hugo : 3 PV », with no card nor
    where it hit."""

    scene = sb_no_survivor(service, rolls)
    lines = service.step_lines(scene.game, Viewer("public"))
    said = [m.render() if isinstance(m, Msg) else m for m in lines.values()]
    blows = [line for line in said if "→" in line]
    assert blows and all("PV" in line for line in blows), said
    assert blows == ["Léa → Hugo : 6 PV, hors jeu · Hugo → Léa : 6 PV, hors jeu"], said
    assert not any("couteau" in line.lower() for line in said), said
    assert "Action : carte donnée" in said, said  # a move said by its words, not what it gave


def test_a_sentence_kept_in_a_journal_reads_as_it_is_said_now() -> None:
    """A journal written before English said HP (issue 54) keeps its old message ids: each
    reads as the new one, in both languages, and every renamed id still has its words."""
    kept = {
        "text": "{striker} hits {target} {where} with the card {card}: {pv} PV",
        "params": {"striker": "Léa", "target": "Hugo", "where": "", "card": "Katana", "pv": 3},
    }
    said = {}
    for language in ("fr", "en"):
        token = current_language.set(language)
        try:
            said[language] = Msg.from_json(kept).render()
        finally:
            current_language.reset(token)
    assert said["en"].endswith(": 3 HP")
    assert said["fr"].startswith("Léa frappe Hugo") and said["fr"].endswith("3 PV")
    ids = {
        m.id if isinstance(m.id, str) else m.id[0]
        for path in catalogue_paths("fr")
        for m in read(path)
        if m.id
    }
    assert RENAMED and set(RENAMED.values()) <= ids
