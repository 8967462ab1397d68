"""Errors with a stable code, an HTTP status and a message translated for whoever reads it."""

from __future__ import annotations

import math
from typing import Any, Self

from server.i18n import N_, Msg


class ArbitreError(Exception):
    status = 400
    code = "bad_request"
    retry_after: int | None = None  # seconds: when asking again may be answered (`Retry-After`)

    def __init__(self, message: str, *, field: str | None = None, **params: Any) -> None:
        self.msg = Msg(message, params)
        self.field = field
        super().__init__(message.format(**params) if params else message)

    @classmethod
    def counted(
        cls, forms: tuple[str, str], by: str, /, *, field: str | None = None, **params: Any
    ) -> Self:
        """The error said in the form that fits the number `params[by]` (ngettext)."""
        error = cls(forms[0], field=field, **params)
        error.msg = Msg.counted(forms, by, params)
        return error

    @property
    def message(self) -> str:
        return self.msg.render()

    def __str__(self) -> str:
        return self.message


class RuleError(ArbitreError, ValueError):
    """A game rule refuses the action; nothing is changed."""

    status = 422
    code = "rule"


class InvalidInput(ArbitreError, ValueError):
    status = 422
    code = "invalid"


class FileTooLarge(InvalidInput):
    status = 413
    code = "too_large"


class NotFound(ArbitreError):
    status = 404
    code = "not_found"


class LinkInvalid(ArbitreError):
    """Unknown, revoked or re-issued link: the same answer whether it ever existed or not."""

    status = 404
    code = "link_invalid"


class SeatTaken(ArbitreError):
    """A personal link (a ticket) whose seat another phone took: it opens nothing any more."""

    status = 409
    code = "seat_taken"
    game_id: str = ""
    person_id: int | None = None


class GameMoved(ArbitreError):
    """A game sealed to another server: it goes on there, and here nothing changes it again."""

    status = 409
    code = "moved"


class NotAllowed(ArbitreError):
    status = 403
    code = "forbidden"


class NotSignedIn(ArbitreError):
    status = 401
    code = "unauthenticated"


class StaleScreen(ArbitreError):
    status = 409
    code = "stale"


class TooManyAttempts(ArbitreError):
    """A budget spent (join codes, games created, live streams): said with the seconds to wait,
    which the answer's `Retry-After` header repeats."""

    status = 429
    code = "rate_limited"

    def __init__(self, message: str, *, seconds: float, field: str | None = None) -> None:
        self.retry_after = max(1, math.ceil(seconds))
        super().__init__(message, field=field, seconds=self.retry_after)


class Unavailable(ArbitreError):
    """The server is stopping (a restart, say): asked again in a moment, it may answer. The
    answer's `Retry-After` header says when to ask."""

    status = 503
    code = "unavailable"
    retry_after = 5


class DatabaseUnreachable(Unavailable):
    """The database out of reach for a moment (PostgreSQL restarting): asked again, the same
    action (its same key) is applied once."""

    code = "database_unreachable"


class StorageFull(Unavailable):
    """The server's disk is full (a field laptop's): the action was not recorded, the database
    stands as it was, and the same action sent again once space is freed is applied."""

    code = "storage_full"
    retry_after = 30


class CsrfFailed(ArbitreError):
    status = 403
    code = "csrf"


# What pydantic found wrong, said in the user's language (its own messages are English only).
VALIDATION_MESSAGES = {
    "missing": N_("this field is required"),
    "string_too_short": N_("at least {min_length} characters"),
    "string_too_long": N_("at most {max_length} characters"),
    "int_parsing": N_("a whole number is expected"),
    "int_type": N_("a whole number is expected"),
    "int_from_float": N_("a whole number is expected"),
    "float_parsing": N_("a number is expected"),
    "bool_parsing": N_("yes or no is expected"),
    "greater_than_equal": N_("at least {ge}"),
    "greater_than": N_("more than {gt}"),
    "less_than_equal": N_("at most {le}"),
    "less_than": N_("less than {lt}"),
    "literal_error": N_("expected one of: {expected}"),
    "union_tag_invalid": N_("unknown action “{tag}”"),
    "union_tag_not_found": N_("the action has no “{discriminator}”"),
    "json_invalid": N_("this is not valid JSON"),
    "dict_type": N_("an object is expected"),
    "model_attributes_type": N_("an object is expected"),
    "list_type": N_("a list is expected"),
    "string_type": N_("text is expected"),
    "extra_forbidden": N_("this field is not expected"),
    "enum": N_("expected one of: {expected}"),
    "too_short": N_("too few, at least {min_length}"),
    "too_long": N_("too many, at most {max_length}"),
    "string_pattern_mismatch": N_("not in the expected form"),
    "bool_type": N_("yes or no is expected"),
    "float_type": N_("a number is expected"),
    "tuple_type": N_("a list is expected"),
    "set_type": N_("a list is expected"),
    "date_parsing": N_("a date is expected"),
    "datetime_parsing": N_("a date and a time are expected"),
    "datetime_from_date_parsing": N_("a date and a time are expected"),
    "multiple_of": N_("a multiple of {multiple_of} is expected"),
    "union_tag_invalid_value": N_("unknown action"),
}
# Anything else pydantic says (a validator's own sentence is English): said plainly.
UNACCEPTED = N_("this value is not accepted")


def validation_problem(error: dict[str, Any], *, named: bool = True) -> tuple[str | None, Msg]:
    """The field and the problem of pydantic's first error, translatable; the field's path is
    in the sentence when `named` (a request's body, for whoever programs against the API), not
    for a command, whose refusal a page shows next to its field (a path such as
    "choose.values" means nothing to a player; an API caller has it as the error's `field`)."""
    where = ".".join(str(p) for p in error.get("loc", ()) if p not in ("body", "query", "path"))
    context = {k: str(v) for k, v in (error.get("ctx") or {}).items()}
    own = context.get("error") if error.get("type") == "value_error" else None
    if own:
        problem = Msg(own)  # a validator's own sentence (a card's step, a table)
    else:
        problem = Msg(VALIDATION_MESSAGES.get(str(error.get("type")), UNACCEPTED), context)
    if not named:
        return where or None, Msg(N_("Not accepted: {problem}."), {"problem": problem})
    return where or None, Msg(
        N_("“{where}”: {problem}"), {"where": where or "?", "problem": problem}
    )
