"""What every game's commands and settings are made of."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class Strict(BaseModel):
    """A command, a part of one, or a game's settings: a field it does not know is refused with
    its name ("“weapon”: this field is not expected"), never ignored. An ignored field is a
    command that silently does something else than its sender meant (an answer sent with
    "evade" instead of "yes" would be a "no")."""

    model_config = ConfigDict(extra="forbid")
