"""A finished game replayed move by move (issue 37): each step is the reader's view of the game
as it stood just after one action of its journal, through the same projection as its live page.

The public replays the public board (a hand, a role, an objective shown only where the end
reveals it); a person of the game replays their own page (a coach's RAP, a player's cards), with
no form, countdown or undo on it. A step is rebuilt from the nearest snapshot
(`Replay.state_at`) and kept by the browser with an ETag while the game has not moved.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import RedirectResponse, Response
from markupsafe import Markup

from server.errors import NotFound
from server.i18n import N_, Msg, current_language
from server.platform.now import Now
from server.platform.service import Loaded
from server.web.answers import page_context
from server.web.deps import ClockDep, PageViewerDep, ServiceDep, TemplatesDep
from server.web.templating import base_context

router = APIRouter(include_in_schema=False)

NEAR = 12  # steps of the timeline listed on each side of the one shown
StepQuery = Annotated[str | None, Query(max_length=12)]
JournalQuery = Annotated[str | None, Query(alias="seq", max_length=12)]


@dataclass(frozen=True)
class Step:
    """An action of the timeline: its number in the replay, in the log, its words, undone."""

    n: int
    seq: int
    summary: Any
    undone: bool


@router.get("/g/{game_id}/replay")
def replay(
    game_id: str,
    request: Request,
    viewer: PageViewerDep,
    service: ServiceDep,
    templates: TemplatesDep,
    clock: ClockDep,
    step: StepQuery = None,
    number: JournalQuery = None,
) -> Response:
    """Step `step` of the game's replay (0: before its first action; none: its end). A step
    past the end, or no number, is the end, at its own address. `seq`, a number of the journal,
    leads to the step of that action (the next one, where it is no action: a person joining)."""
    loaded = service.load(game_id)
    if loaded.game.status != "finished":
        raise NotFound(N_("A game's replay opens once the game is over."))
    # A finished game can still change (an undo, a reveal): a step is kept by the browser only
    # as long as the game stands where it did (its sequence number), asked again otherwise.
    asked = int(step) if step is not None and step.isascii() and step.isdigit() else None
    tag = f'"{loaded.game.seq}-{viewer.role}-{viewer.person_id}-{asked}-{current_language.get()}"'
    if request.headers.get("if-none-match") == tag:
        return Response(status_code=304, headers={"ETag": tag, **KEPT})
    # Every action is a step, numbered as the journal numbers it; those the timeline lists are
    # said as this reader's journal says them, else as anyone may know them once the game is
    # over (`GameKind.replay_line`: a public board that reads no journal).
    actions = service.steps(game_id)
    last = len(actions)
    if number is not None:  # a number of the journal: the step that action is
        wanted = int(number) if number.isascii() and number.isdigit() else 0
        at = next((n for n, (s, _) in enumerate(actions, 1) if s >= wanted), last)
        return RedirectResponse(f"/g/{game_id}/replay?step={at}", status_code=303)
    shown = last if asked is None else min(asked, last)
    if step is not None and asked != shown:
        return RedirectResponse(f"/g/{game_id}/replay?step={shown}", status_code=303)
    near = range(max(shown - NEAR, 1), min(shown + NEAR, last) + 1)
    said: dict[int, Msg | str] = {}
    if actions:
        first_seq, last_seq = actions[near.start - 1][0], actions[near.stop - 2][0]
        said = service.step_lines(game_id, viewer, after=first_seq - 1, upto=last_seq)
    steps = [
        Step(n, seq, said.get(seq) or Msg(N_("An action")), undone)
        for n in near
        for seq, undone in [actions[n - 1]]
    ]
    seq = actions[shown - 1][0] if shown else (actions[0][0] - 1 if actions else 0)
    game, state = service.state_at(game_id, seq)
    # The reader's own page as it was (a player's hand, a coach's RAP, the game master's cards),
    # in replay: no form, no countdown, no undo (`templates/_macros.html`).
    page = loaded.kind.page_for(viewer)
    context = page_context(service, clock, Loaded(game, loaded.kind, state), viewer, page)
    now = next((s.summary for s in steps if s.n == shown), Msg(N_("The game as it began.")))
    where = (
        Msg(N_("Replay · #{seq}, step {n} of {count}"), {"seq": seq, "n": shown, "count": last})
        if shown
        else Msg(N_("Replay · step {n} of {count}"), {"n": shown, "count": last})
    )
    context.update(
        now_line=Now(where, now if isinstance(now, Msg) else Msg(str(now))),
        match_log=None,  # the page's own "last action" is the step's
        undoable=None,
        recent=None,
        proposals=[],
        replay=True,
        step=shown,
        last=last,
        steps=steps,
        path=f"/g/{game_id}/replay?step={shown}",
        numbers=(actions[0][0], actions[-1][0])
        if actions
        else (0, 0),  # the language switch comes back to this step
    )
    full = {"request": request, **base_context(request), **context}
    context["board"] = Markup(templates.render(loaded.kind.template(page), full, "live"))
    response = templates.response(request, "platform/replay.html", context)
    response.headers.update({"ETag": tag, **KEPT})
    return response


# Each reader's own, never a shared cache's (a page carries its reader's form token), and asked
# again with its ETag each time: a 304 while the game has not moved.
KEPT = {"Cache-Control": "private, no-cache", "Vary": "Cookie, Accept-Language, HX-Request"}
