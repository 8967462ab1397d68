"""Dice: rolled by the server with `secrets`, entered from physical dice, or scripted by tests.

Rules only ever call `dice.roll(sides, purpose, owner=..., secret=...)`: every die is declared with
its purpose and its owner (None: the referee's; a side or a team; SERVER: a draw nobody rolls by
hand, such as a shuffle), and `secret` when its value is its owner's alone (a RAP). Each command
gets a `CommandDice` that takes the values entered by hand for this roll (by purpose) when the
actor may enter that owner's dice, falls back to the game's source, and records every roll so that
the log says which die decided what, who could see it, and whether it was entered by hand; replay
uses the same values.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from server.errors import RuleError
from server.i18n import N_

SERVER = "server"  # the owner of a draw that is never rolled by hand (a shuffle)


class Dice(Protocol):
    def roll(
        self, sides: int, purpose: str, *, owner: str | None = None, secret: bool = False
    ) -> int: ...


class DiceSource(Protocol):
    """Where the server's own rolls come from."""

    def __call__(self, sides: int) -> int: ...


def secret_roll(sides: int) -> int:
    return secrets.randbelow(sides) + 1


class ScriptedRolls:
    """Test dice: hands out the given values in order and fails loudly when they run out."""

    def __init__(self, values: Iterable[int] = ()) -> None:
        self.values = list(values)

    @classmethod
    def cycle(cls) -> ScriptedRolls:
        """Endless predictable rolls (1, 2, ... 6, 1, ...) for browser tests."""
        rolls = cls()
        rolls.endless = True
        return rolls

    endless = False
    _next = 0

    def push(self, *values: int) -> None:
        self.values.extend(values)

    def __call__(self, sides: int) -> int:
        if not self.values and self.endless:
            self._next += 1
            return (self._next - 1) % sides + 1
        if not self.values:
            raise AssertionError(f"scripted dice ran out (a d{sides} was asked)")
        value = self.values.pop(0)
        if not 1 <= value <= sides:
            raise AssertionError(f"scripted value {value} does not fit a d{sides}")
        return value


class MissingRoll(RuleError):
    code = "roll_needed"


class BadRoll(RuleError):
    code = "bad_roll"


def everyone(owner: str | None) -> bool:
    return True


@dataclass
class CommandDice:
    """The dice of one command: entered values first, for the dice the actor may enter, then the
    server's source (unless the game says every die is physical), each roll recorded.

    `may_enter(owner)` says whether the actor may enter that owner's dice by hand (the kind
    decides: in a self-refereed match a coach enters their own side's dice only). A value entered
    for a die the actor may not enter, or for a die the command never rolls, is refused.

    `held`: the dice of undone actions (the game's `held_dice`), oldest undo last. A die the
    server would roll takes the first held one of the same purpose and faces instead: an action
    undone and done again rolls what it rolled (a shuffle, a deal, a draw, a blow), so nobody
    fishes for a better roll with undo. What is left stays held for the game."""

    source: DiceSource
    entered: Mapping[str, int] = field(default_factory=dict)
    physical_only: bool = False
    rolls: list[dict[str, Any]] = field(default_factory=list)
    may_enter: Callable[[str | None], bool] = everyone
    held: list[dict[str, Any]] = field(default_factory=list)
    _asked: dict[str, int] = field(default_factory=dict)
    _used: set[str] = field(default_factory=set)

    def key(self, purpose: str) -> str:
        """The name an entered value goes by: the purpose, then "purpose #2", "#3"... for the
        same purpose asked again in one action (two power cards drawn for one gladiator, TABLE
        4's "roll again"), so each entered value serves one roll and the next is asked by its
        own name. The log keeps the purpose."""
        self._asked[purpose] = self._asked.get(purpose, 0) + 1
        n = self._asked[purpose]
        return purpose if n == 1 else f"{purpose} #{n}"

    def roll(
        self, sides: int, purpose: str, *, owner: str | None = None, secret: bool = False
    ) -> int:
        by_hand = owner != SERVER and self.may_enter(owner)
        name = self.key(purpose)
        if name in self.entered:
            self._used.add(name)
            if not by_hand:
                raise BadRoll(
                    N_("The die for “{purpose}” is not yours to enter: Arbitre rolls it."),
                    field=f"roll_{name}",
                    purpose=name,
                )
            value = self.entered[name]
            if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= sides:
                raise BadRoll(
                    N_("The die for “{purpose}” must be between 1 and {sides}, not {value}."),
                    field=f"roll_{name}",
                    purpose=name,
                    sides=sides,
                    value=value,
                )
            manual = True
        elif self.physical_only and by_hand:
            raise MissingRoll(
                N_("Enter the die rolled for “{purpose}” (1 to {sides})."),
                field=f"roll_{name}",
                purpose=name,
                sides=sides,
            )
        else:
            value, manual = self._held(sides, purpose) or self.source(sides), False
        roll: dict[str, Any] = {
            "purpose": purpose,
            "sides": sides,
            "value": value,
            "manual": manual,
        }
        if owner is not None:
            roll["owner"] = owner
        if secret:
            roll["secret"] = True
        self.rolls.append(roll)
        return value

    def _held(self, sides: int, purpose: str) -> int | None:
        """The first held die of this purpose and faces, taken; None if there is none."""
        found = take_held(self.held, sides, purpose)
        return found["value"] if found is not None else None

    def spare(self, *purposes: str) -> list[str]:
        """Rolls entered ahead whose need hung on the outcome (the answer to a blow that knocked
        its defender out, the blow of an attacker a quicker defender put down): one of these
        entered and not rolled is no error (`check_all_used`). Returns those left unused, for
        the action to say so."""
        unused = [p for p in purposes if p in self.entered and p not in self._used]
        self._used.update(unused)
        return unused

    def check_all_used(self) -> None:
        """After the rules ran: a value entered for a die this action never rolled is refused,
        not silently dropped."""
        for purpose in self.entered:
            if purpose not in self._used:
                raise BadRoll(
                    N_("This action rolls no die “{purpose}”: leave it empty."),
                    field=f"roll_{purpose}",
                    purpose=purpose,
                )


def take_held(held: list[dict[str, Any]], sides: int, purpose: str) -> dict[str, Any] | None:
    """Takes the first die of `held` rolled for this purpose with these faces out of it."""
    for index, roll in enumerate(held):
        if roll.get("purpose") == purpose and roll.get("sides") == sides:
            return held.pop(index)
    return None


def held_after_undo(held: list[dict[str, Any]] | None, undone: list[dict[str, Any]]) -> list[Any]:
    """The dice held once an action is undone: its own that the server rolled (a die entered by
    hand is rolled again by hand), before those already held."""
    kept = [
        {"purpose": r["purpose"], "sides": r["sides"], "value": r["value"]}
        for r in undone
        if not r.get("manual") and isinstance(r.get("value"), int)
    ]
    return kept + list(held or [])


class ReplayDice:
    """Replays the rolls an event recorded, in order, checking they are asked for the same thing."""

    def __init__(self, rolls: list[dict[str, Any]]) -> None:
        self.pending = list(rolls)
        self.rolls = list(rolls)

    def roll(
        self, sides: int, purpose: str, *, owner: str | None = None, secret: bool = False
    ) -> int:
        if not self.pending:
            raise ReplayDiverged(f"no recorded roll left for {purpose!r}")
        roll = self.pending.pop(0)
        if roll["purpose"] != purpose or roll["sides"] != sides:
            raise ReplayDiverged(
                f"recorded {roll['purpose']!r} d{roll['sides']}, asked {purpose!r}"
            )
        return int(roll["value"])


@dataclass
class RecordedDice:
    """The dice of an action brought in a file, replayed through the checks a live action's
    dice pass (`CommandDice`): each die asked for the purpose, faces, owner and secrecy recorded;
    its value within its faces; one entered by hand only where the actor may enter that owner's
    dice, and one rolled by the server only where the server rolls it (a physical game's own
    dice are entered). `from_file`: a file another server wrote marks every die as such."""

    recorded: list[dict[str, Any]]
    may_enter: Callable[[str | None], bool] = everyone
    physical_only: bool = False
    from_file: bool = False
    rolls: list[dict[str, Any]] = field(default_factory=list)

    def roll(
        self, sides: int, purpose: str, *, owner: str | None = None, secret: bool = False
    ) -> int:
        if len(self.rolls) >= len(self.recorded):
            raise ReplayDiverged(f"no recorded roll left for {purpose!r}")
        roll = self.recorded[len(self.rolls)]
        if (
            roll.get("purpose") != purpose
            or roll.get("sides") != sides
            or roll.get("owner") != owner
            or bool(roll.get("secret")) != secret
        ):
            raise ReplayDiverged(f"recorded {roll.get('purpose')!r}, asked {purpose!r}")
        value, manual = roll.get("value"), roll.get("manual")
        if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= sides:
            raise BadRoll(
                N_("The die for “{purpose}” must be between 1 and {sides}, not {value}."),
                purpose=purpose,
                sides=sides,
                value=value,
            )
        by_hand = owner != SERVER and self.may_enter(owner)
        if manual is True and not by_hand:
            raise BadRoll(
                N_("The die for “{purpose}” is not yours to enter: Arbitre rolls it."),
                purpose=purpose,
            )
        if manual is not True and self.physical_only and by_hand:
            raise MissingRoll(
                N_("Enter the die rolled for “{purpose}” (1 to {sides})."),
                purpose=purpose,
                sides=sides,
            )
        kept: dict[str, Any] = {"purpose": purpose, "sides": sides, "value": value}
        kept["manual"] = manual is True
        if owner is not None:
            kept["owner"] = owner
        if secret:
            kept["secret"] = True
        if self.from_file or roll.get("from_file"):
            kept["from_file"] = True
        self.rolls.append(kept)
        return value

    @property
    def pending(self) -> list[dict[str, Any]]:
        return self.recorded[len(self.rolls) :]


class ReplayDiverged(Exception):
    """The log cannot be replayed as recorded (a rule asked for other dice)."""
