"""Languages: French first, English second.

Message ids are English; French catalogues translate them: the platform's,
`server/locale/fr/LC_MESSAGES/messages.po`, and each game's, `server/games/<game>/locale/fr/...`
(`make i18n`: `server.catalogues`), read together as one.
The current language lives in a context variable set once per request, so rules and services
can build messages (`Msg`) without knowing who will read them, and templates translate with
`jinja2.ext.i18n` through the same functions.
"""

from __future__ import annotations

import gettext as _gettext
import io
import re
import unicodedata
from collections.abc import Iterable, Mapping
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from babel.lists import format_list
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

LANGUAGES = ("fr", "en")
LANGUAGE_NAMES = {"fr": "Français", "en": "English"}
LOCALE_DIR = Path(__file__).resolve().parent / "locale"

current_language: ContextVar[str] = ContextVar("current_language", default="fr")


def N_(message: str) -> str:
    """Marks a message id for extraction; translated later, where it is shown."""
    return message


def P_(singular: str, plural: str) -> tuple[str, str]:
    """Marks a message with a plural for extraction (`Msg.count`): the form fits the number."""
    return singular, plural


# French, put right once a name is in the sentence: "Carte de Alice" is "Carte d’Alice", "à Les
# Hoplites" is "aux Hoplites", "Pauline B.." ends with one dot. The catalogue itself is written
# right: these only ever meet the names that fill its placeholders.
# A Y elides before a consonant ("d’Yves") but not before a vowel ("de Yann"); an H is left
# alone (aspirated or not, only a dictionary knows: "de Hache" is the safe mistake).
_ELISION = re.compile(
    r"\b([Dd]|[Qq]u)e (?=[AEIOUÀÂÉÈÊËÎÏÔÛaeiouàâéèêëîïôû]|[Yy][^aeiouyàâéèêëîïôûAEIOUY])"
)
_CONTRACTIONS = [
    (re.compile(r"\b([àÀ]) [lL]es "), lambda m: "aux " if m.group(1) == "à" else "Aux "),
    (re.compile(r"\b([àÀ]) [lL]e "), lambda m: "au " if m.group(1) == "à" else "Au "),
    (re.compile(r"\b([dD])e [lL]es "), lambda m: m.group(1) + "es "),
    (re.compile(r"\b([dD])e [lL]e "), lambda m: m.group(1) + "u "),
]
_DOUBLE_DOT = re.compile(r"(?<!\.)\.\.(?!\.)")


def polish(text: str) -> str:
    """A sentence with its names in, as a reader expects it in the current language."""
    text = _DOUBLE_DOT.sub(".", text)
    if current_language.get() != "fr":
        return text
    for pattern, repl in _CONTRACTIONS:
        text = pattern.sub(repl, text)
    return _ELISION.sub(lambda m: m.group(1) + "’", text)


def colon() -> str:
    """What goes between a label and its value: "Code : 4821" in French (a no-break space before
    the colon), "Code: 4821" in English."""
    return "\u00a0: " if current_language.get() == "fr" else ": "


def quoted(text: str) -> str:
    """A sentence said by someone, in the reader's quotation marks."""
    return f"«\u00a0{text}\u00a0»" if current_language.get() == "fr" else f"“{text}”"


@cache
def translations(language: str) -> _gettext.NullTranslations:
    """A language's catalogues (the platform's, then each game's) as one."""
    found = [LOCALE_DIR / language / "LC_MESSAGES" / "messages.po"]
    found += sorted(LOCALE_DIR.parent.glob(f"games/*/locale/{language}/LC_MESSAGES/messages.po"))
    read = []
    for po in found:
        if po.exists():
            with po.open("rb") as handle:
                read.append(read_po(handle, locale=language))
    if not read:
        return _gettext.NullTranslations()
    catalog = read[0]  # its header (the plural forms) is the language's
    for other in read[1:]:
        for message in other:
            if message.id:
                catalog[message.id] = message
    buffer = io.BytesIO()
    write_mo(buffer, catalog)
    buffer.seek(0)
    return _gettext.GNUTranslations(buffer)


def gettext(message: str) -> str:
    return translations(current_language.get()).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    return translations(current_language.get()).ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    return translations(current_language.get()).pgettext(context, message)


def npgettext(context: str, singular: str, plural: str, n: int) -> str:
    return translations(current_language.get()).npgettext(context, singular, plural, n)


# Sentences whose words changed after journals were written with them: an old message id and
# its new one (the same parameters), so that a sentence kept in a journal reads as it is said
# now, in every language. Each game adds its own (`renamed`).
RENAMED: dict[str, str] = {}


def renamed(old_to_new: Mapping[str, str]) -> None:
    RENAMED.update(old_to_new)


@dataclass(frozen=True)
class Msg:
    """A sentence to translate when shown: a message id and its parameters.

    Parameters may be Msg themselves (a hit location, a card category), translated too. A
    sentence with a plural (`Msg.counted`) names its plural form and the parameter whose number
    chooses between them (ngettext: "1 card goes back", "3 cards go back").
    """

    text: str
    params: Mapping[str, Any] = field(default_factory=dict)
    plural: str | None = None
    count: str | None = None

    @classmethod
    def counted(cls, forms: tuple[str, str], count: str, params: Mapping[str, Any]) -> Msg:
        return cls(forms[0], params, plural=forms[1], count=count)

    def render(self) -> str:
        if self.text == _LIST:  # `listed`: "Sud et Est", "North, South and East"
            items = [str(i) for i in self.params.get("items", [])]
            return format_list(items, locale=current_language.get()) if items else "—"
        values = {k: v.render() if isinstance(v, Msg) else v for k, v in self.params.items()}
        if self.plural is not None and self.count is not None:
            number = values.get(self.count, 0)
            translated = ngettext(self.text, self.plural, number if isinstance(number, int) else 0)
        else:
            translated = gettext(self.text)
        try:
            return polish(translated.format(**values))
        except (KeyError, IndexError, ValueError):
            return translated

    def __str__(self) -> str:
        return self.render()

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "text": self.text,
            "params": {k: v.to_json() if isinstance(v, Msg) else v for k, v in self.params.items()},
        }
        if self.plural is not None:
            data["plural"], data["count"] = self.plural, self.count
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | None) -> Msg:
        if not data:
            return cls("")
        params = {
            k: cls.from_json(v) if isinstance(v, dict) and "text" in v else v
            for k, v in (data.get("params") or {}).items()
        }
        plural, count = data.get("plural"), data.get("count")
        text = str(data.get("text", ""))
        return cls(
            RENAMED.get(text, text),
            params,
            plural=RENAMED.get(str(plural), str(plural)) if plural else None,
            count=str(count) if count else None,
        )


def pick_language(cookie: str | None, accept_language: str | None, default: str) -> str:
    """The remembered choice first, then the browser's preference, then the server default."""
    if cookie in LANGUAGES:
        return cookie
    if accept_language:
        for part in accept_language.split(","):
            code = part.split(";")[0].strip().lower()[:2]
            if code in LANGUAGES:
                return code
    return default


def sort_key(text: str) -> tuple[str, str]:
    """A name's place in a list as a French reader expects it: accents and case set aside ("É"
    with the "E", not after "Z"), then the exact name to break ties."""
    folded = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().casefold()
    return folded, text


_LIST = "\x1flist"


def listed(items: Iterable[str]) -> Msg:
    """Names as a reader lists them in their language ("Sud et Est", "North, South and East"),
    kept as names so that the journal says them in each reader's language."""
    return Msg(_LIST, {"items": list(items)})


def joined(pieces: list[Msg], sep: str = " ") -> Msg:
    """Sentences put together, each translated on its own."""
    text = sep.join(f"{{s{i}}}" for i in range(len(pieces)))
    params = {f"s{i}": piece for i, piece in enumerate(pieces)}
    return Msg(text, params)
