"""Every page, live part and export of every kind, in every phase, for every role: never a 500,
and every page reads right in both languages (issue 17, item 19).

A scene (`tests/security/conftest.py`) is a game driven to one of its phases or ends (a surrender,
a forfeit, a perfect tie, no winner...). Each person of the scene, the public and a stranger open
every GET route of the app that names a game, in French and in English, and the part htmx asks
for: each answer is a page or a refusal with a message, never a server error. A route added later
is walked too. The pages are read once, for both:

- Both languages: no identifier ("answer_location = 2").
- English: no space before a colon, no « ».
- French: "d’Alice" and "aux Hoplites" (never "de Alice", "à Les Hoplites"), no "1 arbitres" or
  "0 cartes reviennent", no "·e" in a sentence, no "B..".
"""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from server.platform.dice import ScriptedRolls
from server.platform.service import GameService
from tests.conftest import all_routes
from tests.scene import declared
from tests.security.conftest import HX, SCENES, addresses, phones

SCRIPT = re.compile(r"<(script|style)\b.*?</\1>", re.S)
TAG = re.compile(r"<(/?)(\w+)[^>]*>")
INLINE = {"strong", "em", "span", "a", "small", "b", "i", "abbr", "time", "code", "output"}
IDENTIFIERS = [  # item 10: the journal speaks sentences ("damage = 3, answer_location = 2")
    (re.compile(r"\b[a-z]+_[a-z0-9_]+\b"), "an identifier"),
    (re.compile(r"\w = \d"), "a variable"),
    # Issue 35, class C: a count said in its plural form, never "card(s)" or "1 turns".
    (re.compile(r"\w\(s\)"), "a (s) plural"),
    # A malus is printed with a minus sign ("−2", as the rule books set it), never a hyphen.
    (re.compile(r"(?<![\w\-–/])-\d"), "a hyphen for a minus"),
]
ENGLISH = [
    *IDENTIFIERS,
    (re.compile(r"\w[ \u00a0]:[ \u00a0]"), "a space before a colon"),
    (re.compile(r"[«»]"), "French quotation marks"),
    (
        re.compile(r"\b1 (?:turns|squares|matches|cards|points|players|wounds|zombies)\b"),
        "1 and a plural",
    ),
]
FRENCH = [
    *IDENTIFIERS,
    (re.compile(r"\b[Dd]e [AEIOUYÉÈaeiouyéè]\w"), "de before a vowel"),
    (re.compile(r"\b[àÀ] [Ll]es? "), "à le / à les"),
    (re.compile(r"\b[Dd]e [Ll]es? "), "de le / de les"),
    (re.compile(r"(?<![\d,.–-] )\b(?:0|1) [a-zàâçéèêëîïôûù]+s\b"), "a plural after 0 or 1"),
    (re.compile(r"·e\b"), "a ·e in a sentence"),
    (re.compile(r" (?:of|for) [A-Z]"), "English in French"),
    (
        re.compile(r"\b1 (?:tours|cases|matchs|cartes|points|joueurs|blessures|zombies)\b"),
        "1 and a plural",
    ),
    (re.compile(r"\w\.\.(?!\.)"), "a double dot"),
]
# A drawing holds no id (nor has one): htmx's morph makes an element again from its tag name alone
# when an id inside it is kept across a change, and an <svg> made so is an unknown HTML element,
# drawn at no size (Killpower Ball's board vanished after each change: issue 54).
SVG = re.compile(r"<svg\b.*?</svg>", re.S)
ID = re.compile(r"\sid=[\"']([^\"']+)")


def ids_in_drawings(html: str) -> list[str]:
    return [found for drawing in SVG.findall(html) for found in ID.findall(drawing)]


# Words that end in s in the singular, and the abbreviations that are not plurals.
SINGULAR_S = {"pas", "temps", "fois", "cours", "tours", "bras", "corps", "dos", "gras", "succès"}


def text_of(html: str) -> str:
    text = TAG.sub(lambda m: "" if m.group(2) in INLINE else " ", SCRIPT.sub(" ", html)).replace(
        "&nbsp;", "\u00a0"
    )
    return re.sub(r"[ \t\r\n]+", " ", text)


def faults(text: str, rules: list[tuple[re.Pattern[str], str]]) -> list[str]:
    found = []
    for pattern, why in rules:
        for m in pattern.finditer(text):
            word = m.group(0).split()[-1].lower()
            if why == "a plural after 0 or 1" and (word in SINGULAR_S or word.isupper()):
                continue
            found.append(f"{why}: …{text[max(0, m.start() - 30) : m.end() + 30]}…")
    return found


@pytest.mark.parametrize("label", sorted(SCENES))
def test_every_page_of_every_phase_answers_without_a_server_error_and_reads_right(
    client: TestClient, rolls: ScriptedRolls, label: str
) -> None:
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    scene = SCENES[label](service, rolls)
    routes = all_routes(client.app.routes)  # type: ignore[attr-defined]
    urls = addresses(routes, scene, service)
    assert any(u.endswith("/live/board") for u in urls)
    failures: list[tuple[str, str, str, int]] = []
    problems: set[str] = set()
    read = 0
    for persona, phone in phones(client, service, scene).items():
        for url in urls:
            # The part htmx asks for, and the page in French; a page (not a refusal, not a
            # download) in English too, to be read in both.
            for lang, rules in (("hx", None), ("fr", FRENCH), ("en", ENGLISH)):
                if lang == "hx":
                    answer = phone.get(url, headers=HX)
                else:
                    headers = {"Accept-Language": lang, "Cookie": f"lang={lang}"}
                    answer = phone.get(url, headers=headers)
                if answer.status_code >= 500:
                    failures.append((persona, url, lang, answer.status_code))
                if rules is None:
                    continue
                if (
                    answer.status_code != 200
                    or "html" not in answer.headers.get("content-type", "")
                    or url.endswith(".svg")
                ):
                    break
                read += 1
                for found in ids_in_drawings(answer.text):
                    problems.add(f"{url}: id {found!r} in a drawing")
                for fault in faults(text_of(answer.text), rules):
                    problems.add(f"{lang} {url}: {fault}")
    assert not failures, failures
    assert read, "no page read"
    assert not problems, "\n".join(sorted(problems))


def test_the_scenes_cover_every_kind_and_end() -> None:
    """Each kind has its phases and its ends among the scenes (a new kind must add its own): its
    scenes declare its ends (`ENDS`), or why it has none (`ENDLESS`)."""
    from server.platform.kinds import KINDS

    kinds = {label.split(":")[0] for label in SCENES}
    assert kinds == set(KINDS) - {"tally"}
    ends, endless = declared("ENDS"), declared("ENDLESS")
    assert set(ends) <= set(SCENES), sorted(set(ends) - set(SCENES))
    assert {label.split(":")[0] for label in ends} == kinds - set(endless)
    assert set(endless) <= kinds
