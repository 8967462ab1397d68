"""The game kinds Arbitre referees; importing this package registers them."""

from server.games import killpower, rcb, serial_battle  # noqa: F401
