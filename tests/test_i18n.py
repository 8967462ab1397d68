"""Every message Arbitre can show has its French translation, with the same placeholders."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from server.catalogues import catalogue_paths, read
from server.catalogues import extracted as found_in_code
from server.config import ROOT
from server.i18n import Msg, current_language
from tests.scene import declared


def extracted() -> set[str]:
    """Every message id the code and the templates hold (a plural one by its singular)."""
    return {
        m.id[0] if isinstance(m.id, tuple) else m.id
        for catalogue in found_in_code().values()
        for m in catalogue
        if m.id
    }


def catalogues() -> list[Any]:
    """Every French message of every catalogue (the platform's and each game's)."""
    return [m for path in catalogue_paths("fr") for m in read(path)]


def placeholders(text: str) -> set[str]:
    """`{name}` (our messages) and `%(name)s` (templates)."""
    return {a or b for a, b in re.findall(r"\{(\w+)\}|%\((\w+)\)s", text)}


def test_every_message_has_a_french_translation_with_the_same_placeholders() -> None:
    catalog = catalogues()
    # A plural message (ngettext) is found by its singular; each of its forms must be there.
    translated: dict[str, tuple[str, ...]] = {}
    for m in catalog:
        if not m.id:
            continue
        key = m.id[0] if isinstance(m.id, tuple) else m.id
        forms = m.string if isinstance(m.string, tuple) else (m.string,)
        # A fuzzy entry is left out of the compiled catalogue: the page would be in English.
        translated[key] = () if m.fuzzy else tuple(forms)
    ids = extracted()
    assert len(ids) > 100  # the extraction does find the messages
    missing = sorted(i for i in ids if not all(translated.get(i) or ("",)))  # absent or fuzzy
    assert not missing, f"untranslated (run `make i18n` and fill the French): {missing}"
    for msgid in ids:
        for form in translated[msgid]:
            assert placeholders(msgid) == placeholders(form), msgid


def test_no_template_writes_visible_text_outside_the_translations() -> None:
    """A crude guard: French words typed straight into a template escape the catalog."""
    for path in Path(ROOT / "templates").rglob("*.html"):
        text = path.read_text()
        for word in ("Partie", "Joueur", "Arbitres", "Annuler"):
            assert f">{word}<" not in text, (path, word)


# Each game's dice purposes as its journal says them in French, by kind (`ROLL_WORDS`), read in
# a fresh game's state or the one the game declares (`ROLL_STATES`).
ROLL_WORDS: dict[str, dict[str, str | None]] = declared("ROLL_WORDS")
ROLL_STATES: dict[str, Callable[[], Any]] = declared("ROLL_STATES")


@pytest.mark.parametrize(
    ("kind", "purpose", "french"),
    [
        (kind, purpose, french)
        for kind, words in sorted(ROLL_WORDS.items())
        for purpose, french in words.items()
    ],
)
def test_the_journal_says_each_die_in_words(kind: str, purpose: str, french: str | None) -> None:
    """Issue 17, item 10: "damage = 3, answer_location = 2, shuffle_31" was the journal."""
    from server.platform.kinds import KINDS

    k = KINDS[kind]
    state = ROLL_STATES[kind]() if kind in ROLL_STATES else k.new_state(k.settings_model())
    token = current_language.set("fr")
    try:
        label = k.roll_label(purpose, state)
        said = label.render() if isinstance(label, Msg) else label
    finally:
        current_language.reset(token)
    assert said == french


# Nouns a count is said with: "{turns} turns" is wrong English and French for 1 (« 1 tours »).
COUNTED = (
    "turns|squares|cards|points|tokens|matches|increases|dice|wounds|zombies|gladiators|"
    "damage points|wound points|objective cards|bluff cards|placed tokens|infections|players"
)


def test_a_count_is_said_in_its_plural_form() -> None:
    """Issue 35, class C: a number said with its noun is a plural message (ngettext, `P_`,
    `Msg.counted`), never "{turns} turns" for 1 turn nor "card(s)"."""
    catalog = catalogues()
    counted = re.compile(r"(\{\w+\}|%\(\w+\)s) (" + COUNTED + r")\b")
    wrong = [
        m.id
        for m in catalog
        if m.id
        and isinstance(m.id, str)
        and (counted.search(m.id) or "(s)" in m.id or "(s)" in str(m.string))
    ]
    assert wrong == []
