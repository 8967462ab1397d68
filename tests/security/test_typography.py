"""Every page of every scene reads right in both languages (issue 17, item 19).

Both: no identifier ("answer_location = 2"). English: no space before a colon, no « ». French: "d’Alice" and "aux Hoplites" (never "de Alice",
"à Les Hoplites"), no "1 arbitres" or "0 cartes reviennent", no "·e" in a sentence, no "B..".
The pages are those of `test_every_page`, for each person of each scene.
"""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from server.platform.dice import ScriptedRolls
from server.platform.service import GameService
from tests.security.scenes import SCENES
from tests.security.test_every_page import addresses, phones
from tests.test_authorization import all_routes

SCRIPT = re.compile(r"<(script|style)\b.*?</\1>", re.S)
TAG = re.compile(r"<(/?)(\w+)[^>]*>")
INLINE = {"strong", "em", "span", "a", "small", "b", "i", "abbr", "time", "code", "output"}
IDENTIFIERS = [  # item 10: the journal speaks sentences ("damage = 3, answer_location = 2")
    (re.compile(r"\b[a-z]+_[a-z0-9_]+\b"), "an identifier"),
    (re.compile(r"\w = \d"), "a variable"),
]
ENGLISH = [
    *IDENTIFIERS,
    (re.compile(r"\w[ \u00a0]:[ \u00a0]"), "a space before a colon"),
    (re.compile(r"[«»]"), "French quotation marks"),
]
FRENCH = [
    *IDENTIFIERS,
    (re.compile(r"\b[Dd]e [AEIOUYÉÈaeiouyéè]\w"), "de before a vowel"),
    (re.compile(r"\b[àÀ] [Ll]es? "), "à le / à les"),
    (re.compile(r"\b[Dd]e [Ll]es? "), "de le / de les"),
    (re.compile(r"(?<![\d,.–-] )\b(?:0|1) [a-zàâçéèêëîïôûù]+s\b"), "a plural after 0 or 1"),
    (re.compile(r"·e\b"), "a ·e in a sentence"),
    (re.compile(r" (?:of|for) [A-Z]"), "English in French"),
    (re.compile(r"\w\.\.(?!\.)"), "a double dot"),
]
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
def test_every_page_reads_right_in_english_and_in_french(
    client: TestClient, rolls: ScriptedRolls, label: str
) -> None:
    service: GameService = client.app.state.service  # type: ignore[attr-defined]
    scene = SCENES[label](service, rolls)
    urls = [
        u
        for u in addresses(all_routes(client.app.routes), scene, service)  # type: ignore[attr-defined]
        if not u.endswith((".svg", ".csv", ".json", ".png"))
    ]
    problems: set[str] = set()
    for phone in phones(client, service, scene).values():
        for url in urls:
            for lang, rules in (("en", ENGLISH), ("fr", FRENCH)):
                answer = phone.get(url, headers={"Accept-Language": lang, "Cookie": f"lang={lang}"})
                if answer.status_code != 200 or "html" not in answer.headers.get(
                    "content-type", ""
                ):
                    continue
                for fault in faults(text_of(answer.text), rules):
                    problems.add(f"{lang} {url}: {fault}")
    assert not problems, "\n".join(sorted(problems))
