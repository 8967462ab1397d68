"""Lighthouse (mobile) on the referee, player and public pages of each game, against a real server
on loopback with Debian's Chromium: scores, and the metrics the performance score is made of.

    python -m bench.lighthouse [--kinds trust_me,serial_battle]
                                      (needs `npm install lighthouse@12` in bench/node_modules)

A score under 100 is followed by the audits that cost it points.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import tempfile
import uuid
from pathlib import Path
from typing import Any

from sqlmodel import col, select

import server.games  # noqa: F401  (registers the kinds and their demos)
from server.config import Settings
from server.db import Database
from server.games.demo import DEMOS
from server.migrate import upgrade
from server.models import Person
from server.platform.clock import SystemClock
from server.platform.dice import secret_roll
from server.platform.kinds import Viewer
from server.platform.live import Broker
from server.platform.service import GameService, Registered
from tests.server_process import SECRET, Server

HERE = Path(__file__).parent
LIGHTHOUSE = HERE / "node_modules" / ".bin" / "lighthouse"
FLAGS = (
    "--headless=new --no-sandbox --disable-gpu --disable-background-networking"
    " --disable-component-update --disable-sync --no-first-run"
)


# The kinds whose pages come from another demo: a match is played in the demo league.
FROM_DEMO = {"killpower_match": "killpower_league"}


def pages(db_url: str, kinds: set[str] | None = None) -> list[tuple[str, str, str]]:
    """(game, page, path) for each demo: the organizer's console, a player's page, the board."""
    upgrade(db_url)
    db = Database.connect(Settings(database_url=db_url))
    service = GameService(db, SECRET, SystemClock(), secret_roll, Broker())
    found = []
    for kind, make in DEMOS.items():
        if kinds and kind not in kinds | {FROM_DEMO.get(k) for k in kinds}:
            continue
        game, organizer = make(service, uuid.uuid4().hex)
        found.append((kind, "staff", f"/t/{organizer.link.token}"))
        with db.read() as s:
            player = s.exec(
                select(Person)
                .where(Person.game_id == game.id, Person.role != "organizer")
                .where(Person.role != "referee")
                .order_by(col(Person.id))
            ).first()
        if player is not None:
            # Its seat taken first (issue 51): its own key opens it on each of the audit's loads.
            found.append(
                (
                    kind,
                    "player",
                    f"/t/{service.claim(token=service.link_of(player).token).link.token}",
                )
            )
        found.append((kind, "board", f"/g/{game.id}/board"))
        if kind == "killpower_league":
            found += match_pages(service, db, game.id, organizer)
    db.dispose()
    return [page for page in found if not kinds or page[0] in kinds]


def match_pages(
    service: GameService, db: Database, league_id: str, owner: Registered
) -> list[tuple[str, str, str]]:
    """A self-refereed match between the demo league's first two teams, lineups given."""
    org = Viewer(owner.person.role, owner.person.id, owner.person.name)
    teams = sorted(service.load(league_id).state.teams.values(), key=lambda t: t.id)[:2]
    match_id = service.open_linked(
        league_id,
        org,
        {"team_a": teams[0].id, "team_b": teams[1].id, "mode": "self"},
        idem_key="bench",
    )
    with db.read() as s:
        people = list(
            s.exec(select(Person).where(Person.game_id == match_id).order_by(col(Person.id)))
        )
    host = next(p for p in people if p.role == "organizer")
    coaches = [p for p in people if p.role == "coach"]
    for coach, team in zip(coaches, teams, strict=True):
        viewer = Viewer("coach", coach.id, coach.name)
        lineup = {"type": "lineup", "gladiators": [g.id for g in team.gladiators]}
        service.perform(match_id, viewer, lineup, idem_key=f"bench-{coach.id}")
    return [
        ("killpower_match", "staff", f"/t/{service.link_of(host).token}"),
        (
            "killpower_match",
            "player",
            f"/t/{service.claim(token=service.link_of(coaches[0]).token).link.token}",
        ),
        ("killpower_match", "board", f"/g/{match_id}/board"),
    ]


def audit(url: str, out: Path) -> dict[str, Any]:
    subprocess.run(
        [
            str(LIGHTHOUSE),
            url,
            f"--chrome-flags={FLAGS}",
            "--only-categories=performance,accessibility,best-practices",
            "--output=json",
            f"--output-path={out}",
            "--quiet",
        ],
        env={**os.environ, "CHROME_PATH": shutil.which("chromium") or "/usr/bin/chromium"},
        check=True,
        timeout=180,
    )
    report = json.loads(out.read_text())
    score = {k: round(v["score"] * 100) for k, v in report["categories"].items()}
    audits = report["audits"]
    lost = [  # what cost points, in the categories under 100
        f"{category}: {ref['id']}"
        for category, scored in report["categories"].items()
        if scored["score"] < 1
        for ref in scored["auditRefs"]
        if ref.get("weight")
        and (audits[ref["id"]].get("score") or 0) < 1
        and audits[ref["id"]].get("scoreDisplayMode") in ("binary", "numeric")
    ]
    return {
        "lost": lost,
        "performance": score["performance"],
        "accessibility": score["accessibility"],
        "best-practices": score["best-practices"],
        "FCP ms": audits["first-contentful-paint"]["numericValue"],
        "SI ms": audits["speed-index"]["numericValue"],
        "LCP ms": audits["largest-contentful-paint"]["numericValue"],
        "TBT ms": audits["total-blocking-time"]["numericValue"],
        "CLS": audits["cumulative-layout-shift"]["numericValue"],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--kinds", default="", help="comma-separated kinds (default: every demo)")
    kinds = {k.strip() for k in parser.parse_args().kinds.split(",") if k.strip()} or None
    if not LIGHTHOUSE.exists():
        raise SystemExit("Lighthouse is missing: cd bench && npm install lighthouse@12")
    with tempfile.TemporaryDirectory() as folder:
        db_url = f"sqlite:///{Path(folder) / 'lighthouse.db'}"
        targets = pages(db_url, kinds)
        server = Server(db_url)
        server.start()
        try:
            print(
                f"{'game':<14} {'page':<7} {'perf':>5} {'a11y':>5} {'best':>5} {'FCP ms':>7}"
                f" {'SI ms':>6} {'LCP ms':>7} {'TBT ms':>7} {'CLS':>6}"
            )
            for kind, page, path in targets:
                row = audit(server.url + path, Path(folder) / "report.json")
                print(
                    f"{kind:<14} {page:<7} {row['performance']:>5} {row['accessibility']:>5}"
                    f" {row['best-practices']:>5} {row['FCP ms']:>7.0f} {row['SI ms']:>6.0f}"
                    f" {row['LCP ms']:>7.0f} {row['TBT ms']:>7.0f}"
                    f" {row['CLS']:>6.3f}",
                    flush=True,
                )
                for what in row["lost"]:
                    print(f"    lost points: {what}", flush=True)
        finally:
            server.stop()


if __name__ == "__main__":
    main()
