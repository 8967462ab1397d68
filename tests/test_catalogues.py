"""The French catalogues: one for the platform and one for each game, each holding the messages of
its own folders, read together as one (`server.catalogues`, `server.i18n.translations`)."""

from __future__ import annotations

from typing import Any

import pytest

from server.catalogues import PLATFORM, extracted, games, owner, po_path, read, translated
from server.i18n import translations


@pytest.mark.parametrize(
    ("path", "catalogue"),
    [
        ("server/games/chess/rules.py", "chess"),
        ("server/games/go/match/turn.py", "go"),
        ("templates/go_league/staff.html", "go"),
        ("templates/chess/_board.html", "chess"),
        ("templates/gox/page.html", PLATFORM),  # a folder named like a game is not the game's
        ("templates/game_base.html", PLATFORM),
        ("server/games/demo.py", PLATFORM),
        ("server/games/__init__.py", PLATFORM),
        ("server/platform/kinds.py", PLATFORM),
        ("server/web/pages.py", PLATFORM),
    ],
)
def test_a_message_goes_to_the_catalogue_of_the_folder_it_is_in(path: str, catalogue: str) -> None:
    assert owner(path, ["chess", "go"]) == catalogue


def ids(catalogue: Any) -> set[Any]:
    return {m.id for m in catalogue if m.id}


def test_each_catalogue_holds_the_messages_of_its_folders_and_no_other() -> None:
    """`make i18n` has nothing to add or take away: a game's words are in its own catalogue (a
    commit to one game touches one game's file), none is left behind in another."""
    found = extracted()
    assert set(found) == {PLATFORM, *games()}
    for name, in_code in found.items():
        assert po_path(name).exists(), f"{name} has no catalogue: run `make i18n`"
        held = ids(read(po_path(name)))
        assert held == ids(in_code), (name, held ^ ids(in_code))


def test_a_message_in_two_catalogues_says_the_same_in_each() -> None:
    """The catalogues are read as one: a message two games share must not change with the order
    they are read in."""
    said: dict[Any, tuple[str, Any]] = {}
    for name in [PLATFORM, *games()]:
        for m in read(po_path(name)):
            if m.id and translated(m):
                first = said.setdefault(m.id, (name, m.string))
                assert first[1] == m.string, (m.id, first[0], name)


def test_every_catalogue_is_read_with_the_platform_s_plural_forms() -> None:
    fr = translations("fr")
    assert fr.ngettext("%(num)s card", "%(num)s cards", 2) == "%(num)s cartes"
    assert fr.ngettext("%(num)s card", "%(num)s cards", 1) == "%(num)s carte"
    # A game's message (the game master's word) and the platform's, from their own catalogues.
    assert fr.gettext("the stakes") == "les mises"
    assert fr.gettext("Cancel it") == "L’annuler"
