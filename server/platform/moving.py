"""A game that moves between servers: the file it travels in, and what changes on the way.

The file holds a game's log (with every die it rolled), its settings and, to verify the replay,
the state the log gave; the games it opened (a league's matches) travel with it. It never holds a
token, a link or an idempotency key: the server that imports it replays the log, checks that it
gives the same state, and issues fresh links.

On the new server the people get new numbers (ids are the database's) and the games new ids, so
everything that names them is renamed on the way: a command's person fields (`Ref("person")`), a
die's owner ("player:12"), the platform's settings of a linked game. The comparison with the
exported state then allows exactly these renamings, nothing else.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field, ValidationError

from server.errors import FileTooLarge, InvalidInput
from server.i18n import N_
from server.platform.data_import import json_depth

FORMAT = 2  # the file's own layout; a newer one is refused (1: the replay alone, in clear)
DEPTH = 64  # a state nests deeper than a deck
MAX_CONTAINERS = 2_000_000  # objects and lists in a file: a season's league is far below


@dataclass(frozen=True)
class ImportLimits:
    """What a file may hold, checked before any work (`IMPORT_MAX_*`); people per role are each
    kind's (`GameKind.people_limit`)."""

    bytes: int = 16 * 1024 * 1024
    events: int = 20_000
    games: int = 100


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class MovedEvent(_Strict):
    """One entry of the log, as the rules need it to replay; what the server derives from it
    (summary, result, subjects) is derived again on import."""

    seq: int = Field(ge=1)
    type: Literal["command", "undo", "person", "access", "proposal", "consent"]
    at: AwareDatetime
    actor_id: int | None = None
    actor_role: str = Field(max_length=20)
    actor_name: str = Field(default="", max_length=80)
    command: dict[str, Any]
    rolls: list[dict[str, Any]] = Field(default_factory=list)
    # A command or an undo one side proposed and the other accepted: who accepted it (platform.md,
    # "Adversaries consent"); checked again on import like the rest.
    agreed_by: int | None = None


class MovedGame(_Strict):
    """What replays one game: its settings, its log with every die, and the state it gave."""

    id: str = Field(min_length=1, max_length=24)
    kind: str = Field(max_length=40)
    name: str = Field(min_length=1, max_length=120)
    created_at: AwareDatetime
    settings: dict[str, Any]
    state: dict[str, Any]
    events: list[MovedEvent]


class Record(BaseModel):
    """One game as the file's reader may know it (their view and their journal): to read, never
    replayed."""

    id: str
    kind: str
    name: str
    status: str = ""
    view: dict[str, Any] = Field(default_factory=dict)
    log: list[dict[str, Any]] = Field(default_factory=list)


class Sealed(_Strict):
    ticket: str = Field(max_length=32)  # the destination's import ticket
    box: str  # the replay, sealed to the ticket's key (`server.platform.sealing`)


class Witness(_Strict):
    by: str = Field(max_length=60)
    signature: str = Field(max_length=100)


class GameFile(_Strict):
    """A game's file: what its reader may know (`records`), and what replays it, either in clear
    (when its reader may know all of it) or sealed for one destination; `witness`: the key of the
    server that wrote it and its signature of the replay (`server.platform.sealing`)."""

    arbitre: Literal["game"]
    format: int = Field(ge=1)
    schema_: str = Field(alias="schema", max_length=40)
    exported_at: AwareDatetime
    records: list[Record] = Field(default_factory=list)
    replay: list[MovedGame] | None = None
    sealed: Sealed | None = None
    witness: Witness | None = None


def read_game_file(text: str, known_schemas: tuple[str, ...], limits: ImportLimits) -> GameFile:
    """The file, or a clear refusal: too big, not a game file, from a newer Arbitre, badly formed,
    more games or entries than this server takes."""
    if len(text.encode("utf-8", "replace")) > limits.bytes:
        raise FileTooLarge(
            N_("This file is bigger than this server takes ({size} MiB at most)."),
            field="file",
            size=limits.bytes // (1024 * 1024) or 1,
        )
    not_a_game = InvalidInput(N_("This is not a game exported by Arbitre."), field="file")
    # Counted before parsing: a small file of empty objects would cost the parser gigabytes.
    if json_depth(text, DEPTH) > DEPTH or text.count("{") + text.count("[") > MAX_CONTAINERS:
        raise not_a_game
    try:
        data = json.loads(text)
    except ValueError:  # not JSON, or a number longer than Python reads
        raise not_a_game from None
    if not isinstance(data, dict) or data.get("arbitre") != "game":
        raise not_a_game
    # The same characters refused as when the game was played (emoji sequences are text).
    from server.platform.service.inputs import check_text

    check_text(data)
    newer = N_("This game comes from a newer Arbitre: update this server, then import it again.")
    version = data.get("format")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise not_a_game
    if version > FORMAT:
        raise InvalidInput(newer, field="file")
    if data.get("schema") not in known_schemas:
        raise InvalidInput(newer, field="file")
    if version == 1:  # the first layout: the replay alone, in clear, never witnessed
        data = {k: v for k, v in data.items() if k != "games"} | {"replay": data.get("games")}
    replay = data.get("replay")
    check_size(replay if isinstance(replay, list) else [], limits)
    try:
        return GameFile.model_validate(data)
    except ValidationError as error:
        raise damaged_file(error) from None


def check_size(games: list[Any], limits: ImportLimits) -> None:
    """No more games, and no more entries in all their logs, than this server takes."""
    if len(games) > limits.games:
        raise InvalidInput(
            N_("This file holds {count} games; this server takes {limit} at most."),
            field="file",
            count=len(games),
            limit=limits.games,
        )
    entries = sum(len(g.get("events") or []) for g in games if isinstance(g, dict))
    if entries > limits.events:
        raise InvalidInput(
            N_("This file's logs hold {count} entries; this server takes {limit} at most."),
            field="file",
            count=entries,
            limit=limits.events,
        )


def read_replay(data: Any, limits: ImportLimits) -> list[MovedGame]:
    """What replays the games, once opened from a sealed box."""
    if not isinstance(data, list):
        raise InvalidInput(N_("This is not a game exported by Arbitre."), field="file")
    check_size(data, limits)
    try:
        return [MovedGame.model_validate(g) for g in data]
    except ValidationError as error:
        raise damaged_file(error) from None


def damaged_file(error: ValidationError) -> InvalidInput:
    first = error.errors()[0]
    return InvalidInput(
        N_("The game file is damaged ({where}): export it again."),
        field="file",
        where=".".join(str(p) for p in first["loc"]),
    )


# A person named inside a text: a die's owner ("player:12"), its purpose ("booster for player:12").
PLATFORM_TEXTS = (r"\b(?:player|person):(?P<id>\d+)\b",)


class Renaming:
    """Old person numbers and game ids to new ones, and the texts that hold a person's number
    (the platform's and those the kinds declare, `GameKind.person_texts`)."""

    def __init__(
        self, people: Mapping[int, int], games: Mapping[str, str], texts: Iterable[str] = ()
    ) -> None:
        self.people = dict(people)
        self.games = dict(games)
        self.texts = [re.compile(p) for p in (*PLATFORM_TEXTS, *texts)]

    def person(self, value: int) -> int:
        return self.people.get(value, value)

    def text(self, value: str) -> str:
        """A game id, or a text naming people ("player:12", a card copy "12:3")."""
        if value in self.games:
            return self.games[value]
        for pattern in self.texts:  # one pattern renames: never a number renamed twice
            renamed = pattern.sub(self._renamed, value)
            if renamed != value:
                return renamed
        return value

    def _renamed(self, found: re.Match[str]) -> str:
        start, end = found.span("id")
        number = int(found["id"])
        if number not in self.people:
            return found[0]
        whole = found[0]
        offset = found.start()
        return f"{whole[: start - offset]}{self.people[number]}{whole[end - offset :]}"

    def key(self, value: str) -> str:
        """A mapping's key in a state: a person's number as text ("12"), or as `text`."""
        if value.isdigit() and int(value) in self.people:
            return str(self.people[int(value)])
        return self.text(value)

    def texts_in(self, data: Any) -> Any:
        """Every text of a command renamed (`text`); numbers are renamed by the command's types."""
        if isinstance(data, str):
            return self.text(data)
        if isinstance(data, list):
            return [self.texts_in(v) for v in data]
        if isinstance(data, dict):
            return {k: self.texts_in(v) for k, v in data.items()}
        return data

    def rolls(self, rolls: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [
            {
                k: self.text(v) if k in ("owner", "purpose") and isinstance(v, str) else v
                for k, v in r.items()
            }
            for r in rolls
        ]

    def platform_settings(self, settings: Mapping[str, Any]) -> dict[str, Any]:
        """The platform's settings of a moved game: its dice and its kind's settings; the link to
        the game that opened it only if that game moves too; never an invitation."""
        kept: dict[str, Any] = {"dice": settings.get("dice", "server")}
        if "kind" in settings:
            kept["kind"] = settings["kind"]
        parent = settings.get("parent")
        if isinstance(parent, str) and parent in self.games:
            kept["parent"] = self.games[parent]
            delegates = settings.get("delegates") or {}
            kept["delegates"] = {
                self.key(str(k)): self.person(v) if isinstance(v, int) else v
                for k, v in delegates.items()
            }
        return kept

    def difference(self, before: Any, after: Any, path: str = "") -> str | None:
        """Where `after` (the replayed state) differs from `before` (the exported one) other
        than by these renamings; None when they agree."""
        if isinstance(before, dict) and isinstance(after, dict):
            if len(before) != len(after):
                return path or "/"
            for key, value in before.items():
                # A number as a key may be a person's (renamed) or a gladiator's (kept).
                found: str | None = f"{path}/{key}"
                for renamed in dict.fromkeys((key, self.key(key))):
                    if renamed in after:
                        found = self.difference(value, after[renamed], f"{path}/{key}")
                        if found is None:
                            break
                if found is not None:
                    return found
            return None
        if isinstance(before, list) and isinstance(after, list):
            if len(before) != len(after):
                return path or "/"
            for i, (a, b) in enumerate(zip(before, after, strict=True)):
                found = self.difference(a, b, f"{path}/{i}")
                if found is not None:
                    return found
            return None
        if before == after and type(before) is type(after):
            return None
        if (
            isinstance(before, int)
            and not isinstance(before, bool)
            and after == self.person(before)
        ):
            return None
        if isinstance(before, str) and after in (self.text(before), self.key(before)):
            return None
        return path or "/"
