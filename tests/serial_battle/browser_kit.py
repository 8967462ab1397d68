"""Serial Battle's browser helpers: a running forest with two referees, and an assault's chips
tapped online and offline."""

from __future__ import annotations

import re
from dataclasses import dataclass

from playwright.sync_api import Page, expect

from server.platform.kinds import Viewer
from server.platform.service import GameService, Registered
from tests.conftest import key, viewer_of


@dataclass
class Forest:
    """A running Serial Battle with two referees, its cards scattered (none dealt at the start,
    so a test gives the ones it needs), for the offline tests of issue 36."""

    service: GameService
    game: str
    org: Viewer
    referee: Registered
    other: Viewer
    players: dict[str, Viewer]

    def console(self, base: str) -> str:
        return f"{base}/t/{self.service.link_of(self.referee.person).token}"

    def assaults(self) -> list[tuple[int, int]]:
        """The assaults applied, in order: (attacker, first defender)."""
        return [
            (e["command"]["attacker"], e["command"]["defenders"][0])
            for e in self.service.log(self.game, self.org)
            if e["type"] == "command" and e["command"]["type"] == "assault"
        ]

    def pair(self, attacker: str, defender: str) -> tuple[int, int]:
        return (self.players[attacker].person_id, self.players[defender].person_id)  # type: ignore[return-value]


def forest(service: GameService, names: tuple[str, ...], dice: str = "server") -> Forest:
    game, organizer = service.create_game(
        "serial_battle",
        "Forêt",
        "Orga",
        dice=dice,
        idem_key=key(),
        settings={"deal_mode": "scattered"},
    )
    org = viewer_of(organizer)
    referee = service.register(game.id, org, "referee", "Arbitre Nord", idem_key=key())
    other = viewer_of(service.register(game.id, org, "referee", "Arbitre Sud", idem_key=key()))
    players = {
        n: viewer_of(service.register(game.id, org, "player", n, idem_key=key())) for n in names
    }
    service.perform(game.id, org, {"type": "sectors", "names": "Nord, Sud"}, idem_key=key())
    service.perform(game.id, org, {"type": "start"}, idem_key=key())
    return Forest(service, game.id, org, referee, other, players)


def pick(page: Page, attacker: str, defender: str) -> None:
    """The two chips of an assault, online, each tap seen through before the next (a tap on the
    chips before the last answer has redrawn them picks from the old list)."""
    chips = page.locator("#assault-chips")
    chips.get_by_role("link", name=re.compile(attacker)).tap()
    expect(page.get_by_role("heading", name=f"{attacker} attaque. Qui défend ?")).to_be_visible()
    chips.get_by_role("link", name=re.compile(defender)).tap()
    expect(page.get_by_role("heading", name=f"{attacker} → {defender}")).to_be_visible()


def assault_offline(page: Page, attacker: str, defender: str, dice: tuple[int, ...] = ()) -> None:
    """An assault entered on the chips with no network: the phone builds its form and keeps it."""
    chips = page.locator("#assault-chips")
    chips.get_by_role("link", name=re.compile(attacker)).tap()
    expect(page.locator("#assault-title")).to_contain_text(attacker)
    chips.get_by_role("link", name=re.compile(defender)).tap()
    form = page.locator("form.offline-assault")
    expect(form.locator("[data-who]")).to_have_text(f"{attacker} → {defender}")
    # Nothing decisive starts chosen: who touched first, whether the defender answers.
    form.locator('[name="touch"][value="attacker"]').check()
    form.locator('[name="answer"][value="true"]').check()
    for field, value in zip(("roll_damage", "roll_location"), dice, strict=False):
        form.locator(f'[name="{field}"]').fill(str(value))
    form.get_by_role("button", name="Garder cet assaut").tap()
    expect(page.locator("#assault-chips")).to_be_visible()  # the chips, for the next one
