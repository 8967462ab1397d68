"""Dice: rolled by the server with `secrets`, entered from physical dice, or scripted by tests.

Rules only ever call `dice.roll(sides, purpose)`. Each command gets a `CommandDice` that takes
the values the referee entered for this roll (by purpose), falls back to the game's source, and
records every roll so that the log says which die decided what, and replay uses the same values.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from server.errors import RuleError
from server.platform.i18n import N_


class Dice(Protocol):
    def roll(self, sides: int, purpose: str) -> int: ...


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


@dataclass
class CommandDice:
    """The dice of one command: entered values first, then the server's source (unless the game
    says every die is physical), each roll recorded."""

    source: DiceSource
    entered: Mapping[str, int] = field(default_factory=dict)
    physical_only: bool = False
    rolls: list[dict[str, Any]] = field(default_factory=list)

    def roll(self, sides: int, purpose: str) -> int:
        if purpose in self.entered:
            value = self.entered[purpose]
            if not isinstance(value, int) or not 1 <= value <= sides:
                raise BadRoll(
                    N_("The die for “{purpose}” must be between 1 and {sides}, not {value}."),
                    field=f"roll_{purpose}",
                    purpose=purpose,
                    sides=sides,
                    value=value,
                )
            manual = True
        elif self.physical_only:
            raise MissingRoll(
                N_("Enter the die rolled for “{purpose}” (1 to {sides})."),
                field=f"roll_{purpose}",
                purpose=purpose,
                sides=sides,
            )
        else:
            value, manual = self.source(sides), False
        self.rolls.append({"purpose": purpose, "sides": sides, "value": value, "manual": manual})
        return value


class ReplayDice:
    """Replays the rolls an event recorded, in order, checking they are asked for the same thing."""

    def __init__(self, rolls: list[dict[str, Any]]) -> None:
        self.pending = list(rolls)
        self.rolls = list(rolls)

    def roll(self, sides: int, purpose: str) -> int:
        if not self.pending:
            raise ReplayDiverged(f"no recorded roll left for {purpose!r}")
        roll = self.pending.pop(0)
        if roll["purpose"] != purpose or roll["sides"] != sides:
            raise ReplayDiverged(
                f"recorded {roll['purpose']!r} d{roll['sides']}, asked {purpose!r}"
            )
        return int(roll["value"])


class ReplayDiverged(Exception):
    """The log cannot be replayed as recorded (a rule asked for other dice)."""
