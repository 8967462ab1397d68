"""The French catalogues, one per game and one for the platform: `make i18n` (`python -m
server.catalogues`) extracts the messages of `server/` and `templates/` and gives each to the
catalogue of the folder it was found in: a game's code (`server/games/<game>/`) and templates
(`templates/<game>/`, `templates/<game>_<part>/`) to `server/games/<game>/locale`, everything else
to `server/locale`. A message new to a catalogue takes the French another catalogue already has
for it (a message moved); the rest is left to fill in. `server.i18n` reads them all as one.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

from server.i18n import LOCALE_DIR

ROOT = LOCALE_DIR.parent.parent
GAMES = ROOT / "server" / "games"
METHOD_MAP = [("server/**.py", "python"), ("templates/**.html", "jinja2")]
OPTIONS_MAP = {"templates/**.html": {"trim_blocks": "True", "lstrip_blocks": "True"}}
KEYWORDS = {
    "_": None,
    "gettext": None,
    "ngettext": (1, 2),
    "pgettext": ((1, "c"), 2),
    "N_": None,
    "Msg": None,
    "P_": (1, 2),
}
PLATFORM = "platform"
LANGUAGE = "fr"


def games() -> list[str]:
    """The games' folders: each package of `server/games/`."""
    return sorted(p.name for p in GAMES.iterdir() if (p / "__init__.py").exists())


def owner(path: str, names: Iterable[str]) -> str:
    """Whose catalogue a message found in `path` (relative to the root) goes to."""
    parts = Path(path).parts
    for game in names:
        if parts[:3] == ("server", "games", game):
            return game
        if parts[0] == "templates" and len(parts) > 2:
            folder = parts[1]
            if folder == game or folder.startswith(f"{game}_"):
                return game
    return PLATFORM


def po_path(name: str, language: str = LANGUAGE) -> Path:
    base = LOCALE_DIR if name == PLATFORM else GAMES / name / "locale"
    return base / language / "LC_MESSAGES" / "messages.po"


def catalogue_paths(language: str) -> list[Path]:
    """Every catalogue of a language: the platform's, then each game's."""
    return [po_path(PLATFORM, language), *(po_path(g, language) for g in games())]


def extracted() -> dict[str, Catalog]:
    """Each catalogue's messages as found in the code today (no French yet)."""
    names = games()
    found: dict[str, Catalog] = {n: Catalog(locale=LANGUAGE) for n in [PLATFORM, *names]}
    for path, line, message, _comments, context in extract_from_dir(
        ROOT, METHOD_MAP, OPTIONS_MAP, keywords=KEYWORDS
    ):
        found[owner(path, names)].add(message, None, [(path, line)], context=context)
    return found


def read(path: Path) -> Catalog:
    with path.open("rb") as handle:
        return read_po(handle, locale=LANGUAGE)


def translated(message: Message) -> bool:
    strings = message.string if isinstance(message.string, tuple) else (message.string,)
    return all(strings) and not message.fuzzy


def new_catalogue(platform: Catalog) -> Catalog:
    """A game's first catalogue, with the platform's header (its plural forms)."""
    catalogue = Catalog(locale=LANGUAGE, fuzzy=False)
    catalogue.mime_headers = platform.mime_headers
    return catalogue


def update() -> list[tuple[str, int]]:
    """Every catalogue made anew from the code, keeping the French it has and taking the French
    of another catalogue for a message new to it; the untranslated count of each."""
    existing = {p: read(p) for p in catalogue_paths(LANGUAGE) if p.exists()}
    platform = existing[po_path(PLATFORM)]
    known = {m.id: m.string for c in existing.values() for m in c if m.id and translated(m)}
    counts = []
    for name, template in extracted().items():
        path = po_path(name)
        catalogue = existing.get(path) or new_catalogue(platform)
        template.creation_date = catalogue.creation_date  # no new date where nothing changed
        catalogue.update(template, no_fuzzy_matching=True)
        for message in catalogue:
            if message.id and not translated(message) and message.id in known:
                message.string = known[message.id]
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("wb") as handle:
            write_po(
                handle,
                catalogue,
                width=100,
                no_location=True,
                omit_header=False,
                sort_output=True,
                ignore_obsolete=True,
            )
        missing = sum(1 for m in catalogue if m.id and not translated(m))
        counts.append((str(path.relative_to(ROOT)), missing))
    return counts


def main() -> int:
    for path, missing in update():
        print(f"{path}: {missing} to translate" if missing else f"{path}: complete")
    return 0


if __name__ == "__main__":
    sys.exit(main())
