"""The journal and the downloads: the log page, its JSON and CSV, and the game file, each a
projection for its reader."""

from __future__ import annotations

import csv
import io
import json
from typing import Annotated

from fastapi import APIRouter, Form, Query, Request
from fastapi.responses import Response

from server.i18n import N_, Msg
from server.platform.data_import import csv_cell
from server.platform.kinds import SECRET_PURPOSE
from server.web.answers import download
from server.web.deps import (
    PageViewerDep,
    ServiceDep,
    TemplatesDep,
)

router = APIRouter(include_in_schema=False)

After = Annotated[int, Query(ge=0, le=2_147_483_647)]
LOG_PAGE = 100  # actions a page of the journal shows


@router.get("/g/{game_id}/log")
def log_page(
    game_id: str,
    request: Request,
    viewer: PageViewerDep,
    service: ServiceDep,
    templates: TemplatesDep,
    after: After = 0,
    before: Annotated[int | None, Query(ge=1, le=2_147_483_647)] = None,
) -> Response:
    """The log as the viewer may read it, newest first, a page of `LOG_PAGE` actions at a time
    (`before`: the older ones; a long game's journal was 8,500 px in one page)."""
    loaded = service.load(game_id)
    events = service.log(game_id, viewer, after=after)
    if before is not None:
        events = [e for e in events if e["seq"] < before]
    older = events[0]["seq"] if len(events) > LOG_PAGE else None
    events = events[-LOG_PAGE:]
    for e in events:  # the page says each die in words; the exports keep the purposes
        for r in e.get("rolls", []):
            r["label"] = (
                Msg(N_("a secret die, entered by hand"))
                if r["purpose"] == SECRET_PURPOSE
                else loaded.kind.roll_label(r["purpose"], loaded.state)
            )
    return templates.response(
        request,
        "platform/log.html",
        {
            "game": loaded.game,
            "kind": loaded.kind,
            "viewer": viewer,
            "events": events,
            "after": after,
            "before": before,
            "older": events[0]["seq"] if older is not None and events else None,
        },
    )


@router.get("/g/{game_id}/log.json")
def log_json(
    game_id: str, viewer: PageViewerDep, service: ServiceDep, after: After = 0
) -> Response:
    loaded = service.load(game_id)
    body = {
        "game": {"id": game_id, "kind": loaded.game.kind, "name": loaded.game.name},
        "events": service.log(game_id, viewer, after=after),
    }
    return download(
        json.dumps(body, ensure_ascii=False, indent=1),
        "application/json",
        f"arbitre-{game_id}.json",
    )


@router.get("/g/{game_id}/game.json")
def game_file(game_id: str, viewer: PageViewerDep, service: ServiceDep) -> Response:
    """The game's file, the organizer's alone, never a token: what they may read of it, and
    what replays it when they may read all of it, else left out (`GameService.export_game`)."""
    body = service.export_game(game_id, viewer)
    return download(
        json.dumps(body, ensure_ascii=False, indent=1),
        "application/json",
        f"arbitre-game-{game_id}.json",
    )


@router.post("/g/{game_id}/game.json")
def move_game(
    game_id: str,
    viewer: PageViewerDep,
    service: ServiceDep,
    ticket: Annotated[str, Form(max_length=400)],
) -> Response:
    """The game moved: its file sealed to the import ticket of the server it goes to, and the
    game here left as its record (a change, so a form's post, never a link's get)."""
    body = service.export_game(game_id, viewer, ticket=ticket)
    return download(
        json.dumps(body, ensure_ascii=False, indent=1),
        "application/json",
        f"arbitre-game-{game_id}.json",
    )


@router.get("/g/{game_id}/log.csv")
def log_csv(game_id: str, viewer: PageViewerDep, service: ServiceDep, after: After = 0) -> Response:
    events = service.log(game_id, viewer, after=after)
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(
        ["seq", "at", "type", "actor", "role", "summary", "rolls", "undone", "command", "from_file"]
    )
    for e in events:
        actor = e.get("actor", {})
        rolls = " ".join(
            f"{r['purpose']}={'?' if r['value'] is None else r['value']}"
            f"{'*' if r.get('manual') else ''}"
            for r in e.get("rolls", [])
        )
        row = [
            e.get("seq"),
            e.get("at", ""),
            e.get("type", ""),
            actor.get("name", ""),
            actor.get("role", ""),
            e.get("summary", ""),
            rolls,
            "yes" if e.get("undone") else "",
            json.dumps(e.get("command", {}), ensure_ascii=False),
            "yes" if any(r.get("from_file") for r in e.get("rolls", [])) else "",
        ]
        writer.writerow([csv_cell(cell) for cell in row])
    return download(out.getvalue(), "text/csv; charset=utf-8", f"arbitre-{game_id}.csv")


# ---------------------------------------------------------------------- app shell
