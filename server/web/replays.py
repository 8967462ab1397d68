"""A finished game replayed move by move (issue 37): each step is the reader's view of the game
as it stood just after one action of its journal, through the same projection as its live page.

The public's board replays the public view (a hand, a role, an objective shown only where the end
reveals it); a person of the game replays their own (a coach's RAP, a player's cards). A step is
rebuilt from the nearest snapshot (`Replay.state_at`), and a finished game never changes, so its
steps are cached by the browser.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response
from markupsafe import Markup

from server.errors import NotFound
from server.i18n import N_, Msg
from server.platform.kinds import PUBLIC
from server.platform.now import Now
from server.platform.service import Loaded
from server.web.answers import page_context
from server.web.deps import ClockDep, PageViewerDep, ServiceDep, TemplatesDep
from server.web.templating import base_context

router = APIRouter(include_in_schema=False)

NEAR = 12  # steps of the timeline listed on each side of the one shown
StepQuery = Annotated[int | None, Query(ge=0, le=2_147_483_647)]


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
) -> Response:
    """Step `step` of the game's replay (0: before its first action; none: its end)."""
    loaded = service.load(game_id)
    if loaded.game.status != "finished":
        raise NotFound(N_("A game's replay opens once the game is over."))
    # Every action is a step; those the timeline lists are labelled as this reader's journal
    # says them, or by number where it says nothing to them (a Serial Battle's public board).
    actions = service.steps(game_id)
    last = len(actions)
    shown = last if step is None else min(step, last)
    near = range(max(shown - NEAR, 1), min(shown + NEAR, last) + 1)
    said = {}
    if actions:
        first_seq, last_seq = actions[near.start - 1][0], actions[near.stop - 2][0]
        said = {
            e["seq"]: e["summary"]
            for e in service.log(game_id, viewer, after=first_seq - 1, upto=last_seq)
            if e.get("summary")
        }
    steps = [
        Step(n, seq, said.get(seq) or Msg(N_("Action no. {seq}"), {"seq": seq}), undone)
        for n in near
        for seq, undone in [actions[n - 1]]
    ]
    seq = actions[shown - 1][0] if shown else (actions[0][0] - 1 if actions else 0)
    game, state = service.state_at(game_id, seq)
    context = page_context(service, clock, Loaded(game, loaded.kind, state), viewer, "board")
    now = next((s.summary for s in steps if s.n == shown), Msg(N_("The game as it began.")))
    where = Msg(N_("Replay · step {n} of {count}"), {"n": shown, "count": last})
    context.update(
        now_line=Now(where, now if isinstance(now, Msg) else Msg(str(now))),
        match_log=None,  # the page's own "last action" is the step's
        undoable=None,
        proposals=[],
        replay=True,
        step=shown,
        last=last,
        steps=steps,
    )
    full = {"request": request, **base_context(request), **context}
    context["board"] = Markup(templates.render(loaded.kind.template("board"), full, "live"))
    response = templates.response(request, "platform/replay.html", context)
    # A finished game never changes: a step is the same bytes tomorrow (its reader's own).
    scope = "public" if viewer is PUBLIC else "private"
    response.headers["Cache-Control"] = f"{scope}, max-age=86400"
    response.headers["Vary"] = "Cookie, Accept-Language, HX-Request"
    return response
