"""Victory points (13) and the end (14): resources held, objectives met (as many times as met, each
copy counted), other survivors' deaths; leaving at one's Community token with 5 points or more;
the end three rounds after the first exit, every secret revealed and every score counted."""

from __future__ import annotations

from typing import Any

from server.errors import RuleError
from server.games.trust_me.catalog import Objective
from server.games.trust_me.commands import Claim, Leave
from server.games.trust_me.setup import own as seated
from server.games.trust_me.sheet import resources_held
from server.games.trust_me.state import Survivor, TMState
from server.games.trust_me.table import check_free, own
from server.i18n import N_, P_, Msg
from server.platform.kinds import Applied, Context

TO_LEAVE = 5  # 14: "atteint son pion Communauté avec au minimum 5 points de Victoire"


def neighbours(state: TMState, s: Survivor) -> tuple[Survivor, Survivor]:
    """(left, right): play goes to the left (9: "On passe ensuite au joueur de gauche")."""
    at = state.order.index(s.id)
    n = len(state.order)
    return state.survivor(state.order[(at + 1) % n]), state.survivor(state.order[(at - 1) % n])


def times_met(state: TMState, s: Survivor, objective: Objective) -> int:
    """3.3: how many times the condition is met now."""
    held = resources_held(state, s)
    if objective.condition == "resource":
        return held.get(objective.resource or "", 0) // objective.count
    if objective.condition == "resources":  # "quand même remplie si [...] deux fois la même"
        return sum(held.values()) // objective.count
    if objective.condition in ("left_dead", "right_dead"):
        left, right = neighbours(state, s)
        other = left if objective.condition == "left_dead" else right
        # "rempli dès que le joueur de votre gauche ou droite est mort [...] Une fois la
        # condition remplie, la carte n'a plus d'effet": once.
        return 1 if other.id != s.id and other.dead else 0
    if objective.condition == "zombies":
        return s.zombies_killed // objective.count
    return s.claims.get(objective.key, 0)


def points(state: TMState, s: Survivor) -> dict[str, Any]:
    """13: the score and its lines, for the survivor's own phone (and everyone's at the end)."""
    held = resources_held(state, s)
    resources = sum(held.values())  # 13.1: one point per resource token on the sheet
    lines = []
    copies: dict[str, int] = {}
    for key in s.objectives:
        copies[key] = copies.get(key, 0) + 1
    objective_points = 0
    for key, count in copies.items():
        objective = state.box.objective(key)
        if objective is None:
            continue
        times = times_met(state, s, objective)
        # 3.3: "il suffit de remplir la condition d'une des cartes pour gagner autant de points
        # que le nombre de copies possédées"
        lines.append(
            {
                "key": key,
                "text": objective.text,
                "copies": count,
                "times": times,
                "points": times * count,
                "manual": objective.condition == "manual",
            }
        )
        objective_points += times * count
    deaths = sum(1 for o in state.survivors.values() if o.id != s.id and o.dead)  # 13.3
    return {
        "resources": resources,
        "objectives": lines,
        "deaths": deaths,
        "total": resources + objective_points + deaths,
    }


def may_leave_now(state: TMState, s: Survivor) -> bool:
    """14: the survivor "atteint son pion Communauté" by their own move: on their turn, or right
    after their action (before the next one acts, or the zombies' dice)."""
    if not s.playing or state.fight is not None or state.placements or state.declared:
        return False
    if state.phase == "players":
        return s.id in (state.turn, state.last_acted)
    zombies = state.zombies
    return (
        state.phase == "zombies"
        and zombies is not None
        and s.id == state.last_acted
        and not zombies.spawned
    )


def on_leave(state: TMState, c: Leave, ctx: Context) -> Applied:
    """14: "S'il atteint le quota de points requis, son survivant sort du plateau"; his cards and
    hidden objects are revealed then (the board shows a survivor who left in full)."""
    s = own(state, ctx)
    check_free(state)
    if not may_leave_now(state, s):
        raise RuleError(N_("A survivor leaves on their turn, or just after their action."))
    score = points(state, s)["total"]
    if score < TO_LEAVE:
        raise RuleError.counted(
            P_(
                "{points} point: a survivor leaves with 5 or more (14).",
                "{points} points: a survivor leaves with 5 or more (14).",
            ),
            "points",
            points=score,
        )
    s.exited = True
    s.aiming = None
    for other in state.survivors.values():
        if other.aiming == s.id:
            other.aiming = None
    if state.first_exit is None:
        state.first_exit = state.round
    state.exchange = [p for p in state.exchange if p != s.id] if s.id not in state.exchange else []
    return Applied(
        Msg.counted(
            P_(
                "{name} reaches their Community with {points} point and leaves the board.",
                "{name} reaches their Community with {points} points and leaves the board.",
            ),
            "points",
            {"name": s.name, "points": score},
        )
    )


def may_claim(s: Survivor) -> bool:
    return not s.dead


def on_claim(state: TMState, c: Claim, ctx: Context) -> Applied:
    """3.3: an objective only the table can judge; its player says how many times it is met.
    Nobody else reads which (the journal keeps this event for its player alone). A survivor
    who left the board still counts their points (14), and may still note what they met; a dead
    one scores nothing."""
    s = seated(state, ctx)
    if not may_claim(s):
        raise RuleError(N_("{name} is dead."), field="objective", name=s.name)
    objective = state.box.objective(c.objective)
    if objective is None or c.objective not in s.objectives or objective.condition != "manual":
        raise RuleError(
            N_("Choose one of your objectives that the table judges."), field="objective"
        )
    s.claims[c.objective] = c.times
    return Applied(Msg(N_("{name} notes an objective."), {"name": s.name}))


def finish(state: TMState) -> Msg:
    """14: "on considère que tous les survivants encore en jeu sont immédiatement sortis du plateau
    [...] et les joueurs comptabilisent leurs points"; "Il peut y avoir plusieurs gagnants"."""
    state.phase, state.turn, state.zombies, state.declared = "finished", None, None, None
    state.scores = {key: points(state, s)["total"] for key, s in state.survivors.items()}
    state.winners = [
        s.id for s in state.survivors.values() if not s.dead and state.scores[str(s.id)] >= TO_LEAVE
    ]
    names = [state.survivor(p).name for p in state.winners]
    if not names:
        return Msg(N_("The game ends: nobody saved their community."))
    return Msg(N_("The game ends. Saved: {names}."), {"names": ", ".join(names)})


def check_end(state: TMState) -> Msg | None:
    """Nobody left on the board: the game ends at once."""
    if state.phase in ("players", "zombies") and not state.playing() and not state.placements:
        return finish(state)
    return None
