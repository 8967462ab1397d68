"""A referee's queue of taps made offline, sent in order once the network is back (issue 36).

Each queued tap is the form it was made on, with its own idempotency key and the sequence number
of the screen it was made on: applied once at most, whatever happened to the first sending. The
game may have moved meanwhile. A tap is applied unless a change made by someone else touches
what it names (the kind's `subjects`, the stale-screen check of every tap); then it comes back
as a conflict, saying what changed and who changed it, and every later tap of the queue that
names the same people comes back with it, not applied, for its referee to confirm (sent again on
the present screen), edit or drop. Nothing is dropped without the referee saying so.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qsl

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData, UploadFile

from server.errors import ArbitreError, InvalidInput, StaleScreen
from server.i18n import N_, Msg
from server.platform.kinds import Viewer
from server.platform.service import GameService
from server.web.deps import ServiceDep, session_viewer
from server.web.forms import form_command, idem_of, int_field

router = APIRouter(include_in_schema=False)

MAX_QUEUED = 50  # taps a phone may hold; a field's dead zone is minutes, not hours
MAX_BODY = 8_000  # characters of one tap's form


@router.post("/g/{game_id}/queue")
async def drain(game_id: str, request: Request, service: ServiceDep) -> JSONResponse:
    """The phone's queue, in the order its taps were made: what became of each."""
    # JSON alone: the body limits (size, depth) read it as such before this route does.
    if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
        raise InvalidInput(N_("This queue cannot be read."))
    try:
        sent = await request.json()
        taps = [t["body"] for t in sent["taps"]]
    except (ValueError, KeyError, TypeError):
        raise InvalidInput(N_("This queue cannot be read.")) from None
    if not all(isinstance(t, str) for t in taps):
        raise InvalidInput(N_("This queue cannot be read."))
    if len(taps) > MAX_QUEUED:
        raise InvalidInput(N_("Too many actions waiting: at most {n}."), n=MAX_QUEUED)
    if any(len(t) > MAX_BODY for t in taps):
        raise InvalidInput(N_("An action waiting is too long to be one of this game's forms."))
    viewer = await run_in_threadpool(session_viewer, request, game_id, service)
    return JSONResponse(
        {"results": await run_in_threadpool(apply_all, service, game_id, viewer, taps)}
    )


def apply_all(
    service: GameService, game_id: str, viewer: Viewer, taps: list[str]
) -> list[dict[str, Any]]:
    held: set[int] | None = set()  # whom the conflicts name (None: the whole game)
    results = []
    kind = service.load(game_id).kind
    for body in taps:
        fields: list[tuple[str, str | UploadFile]] = list(parse_qsl(body, keep_blank_values=True))
        form = FormData(fields)
        subjects: list[int] | None = None  # unknown until the tap is read: then all
        try:
            payload, rolls = form_command(form)
            command = kind.from_form(payload)
            key, seen = idem_of(form), int_field(form, "seq")
            done = service.replayed(
                game_id, viewer, command, idem_key=key, seen_seq=seen, rolls=rolls
            )
            if done is not None:  # its first sending reached the server: applied, once
                said = done.summary.render()
                results.append({"status": "applied", "message": said, "seq": done.seq})
                continue
            subjects = service.subjects_of(game_id, viewer, command)
            if held is None or (held and (subjects is None or held & set(subjects))):
                said = N_(
                    "Waiting for your answer on an earlier action that names the same people."
                )
                results.append({"status": "held", "message": Msg(said).render()})
                held = None if subjects is None or held is None else held | set(subjects)
                continue
            done = service.perform(
                game_id, viewer, command, idem_key=key, seen_seq=seen, rolls=rolls
            )
            results.append({"status": "applied", "message": done.summary.render(), "seq": done.seq})
        except ArbitreError as error:
            # A conflict, or a refusal (a die out of range): either comes back to its referee,
            # and the later taps naming the same people wait behind it, in their order.
            status = "conflict" if isinstance(error, StaleScreen) else "refused"
            results.append({"status": status, "message": error.msg.render()})
            held = None if subjects is None or held is None else held | set(subjects)
    return results
