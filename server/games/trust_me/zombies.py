"""The zombie phase (12), a checklist: infection rolls first, then the zombies move (the table moves
them; Arbitre shows the priorities) and attack, then they spawn; each player takes their tokens
back (6), and the next round begins (9), or the game ends three rounds after the first exit (14).
"""

from __future__ import annotations

from server.errors import NotAllowed, RuleError
from server.games.trust_me import combat
from server.games.trust_me.commands import Infections, Recover, Spawn
from server.games.trust_me.ending import finish
from server.games.trust_me.state import Placement, TMState, ZombiePhase
from server.games.trust_me.table import advance, at_the_table, check_fight_over
from server.i18n import N_, P_, Msg, joined
from server.platform.kinds import Applied, Context

INFECTION_AT = 3  # 12: "sur un résultat de trois ou moins, son survivant subit une blessure"
SPAWN_ROLLS = 2  # 12: "on lance deux fois le dé à 20 faces"
SPAWN_TWICE = 19  # 12: "Si le résultat [...] est 19 ou 20, lancez une nouvelle fois [...] deux"
ROUNDS_AFTER_EXIT = 3  # 14: "3 tours après que le premier joueur soit sorti du plateau"
PRIORITIES = (  # 12: where each zombie moves, 10 cm
    N_("towards a survivor 20 cm or less away, in clear line of sight"),
    N_("towards the Racket marker"),
    N_("towards a Noise or Echo marker 20 cm or less away"),
    N_("towards a survivor less than 20 cm away"),
    N_("it does not move"),
)


def phase(state: TMState) -> ZombiePhase:
    if state.phase != "zombies" or state.zombies is None:
        raise RuleError(N_("This is done in the zombie phase."))
    check_fight_over(state)
    return state.zombies


def on_infections(state: TMState, c: Infections, ctx: Context) -> Applied:
    """6: "Au début du tour des zombies, le joueur possédant une infection lance le dé vert"."""
    z = phase(state)
    at_the_table(state, ctx)
    if z.infections_rolled:
        raise RuleError(N_("The infection dice are rolled already."))
    said: list[Msg] = []
    for s in state.playing():
        if not s.infections:
            continue
        total, shown = combat.green(state, ctx.dice, s, "infection")
        if total <= INFECTION_AT:
            state.placements.append(Placement(placer=s.id, survivor=s.id, wounds=1))
            said.append(
                Msg(
                    N_("{name}: green die {total}, one more wound."),
                    {"name": s.name, "total": shown},
                )
            )
        else:
            said.append(
                Msg(N_("{name}: green die {total}, no wound."), {"name": s.name, "total": shown})
            )
    z.infections_rolled = True
    return Applied(joined(said) if said else Msg(N_("Nobody is infected.")))


def on_spawn(state: TMState, c: Spawn, ctx: Context) -> Applied:
    """12: the two d20 around the circular template; 19 or 20, roll again and place two; 8: the
    metro brings one more."""
    z = phase(state)
    at_the_table(state, ctx)
    if not z.infections_rolled:
        raise RuleError(N_("Roll the infection dice first."))
    if z.spawned:
        raise RuleError(N_("The zombies have spawned already this round."))
    said: list[Msg] = []
    for n in range(1, SPAWN_ROLLS + 1):
        value = ctx.dice.roll(20, f"zombie spawn {n}")
        count, again = 1, 0
        while value >= SPAWN_TWICE:
            again += 1  # each die its own name: entered from physical dice one by one
            value = ctx.dice.roll(20, f"zombie spawn {n}, again {again}")
            count = 2
        z.spawns.append(value)
        said.append(
            Msg.counted(
                P_("{count} zombie towards {direction}.", "{count} zombies towards {direction}."),
                "count",
                {"count": count, "direction": value},
            )
        )
    if "metro" in state.specials:
        said.append(Msg(N_("One more zombie on the metro.")))
    z.spawned = True
    if state.first_exit is not None and state.round >= state.first_exit + ROUNDS_AFTER_EXIT:
        said.append(finish(state))  # 14: the last round's zombies are out; nothing to take back
    return Applied(joined(said))


def on_recover(state: TMState, c: Recover, ctx: Context) -> Applied:
    """6: "les joueurs récupèrent au choix tous leurs pions Action ou un seul pion Fatigue"."""
    z = phase(state)
    if not z.spawned:
        raise RuleError(N_("The zombies spawn before the tokens are taken back."))
    person = c.player if ctx.actor.is_staff and c.player is not None else ctx.actor.person_id
    if not ctx.actor.is_staff and c.player not in (None, person):
        raise NotAllowed(N_("Each player takes back their own tokens."))
    s = combat.playing(state, person, "player")
    if s.id in z.recovered:
        raise RuleError(N_("{name} has taken their tokens back already."), name=s.name)
    if c.take == "actions":
        back = [t for t in s.tokens if t.slot is not None and t.face == "action"]
    else:
        tired = [i for i, t in enumerate(s.tokens) if t.slot is not None and t.face == "fatigue"]
        if not tired:
            raise RuleError(N_("{name} has no Fatigue token placed."), field="take", name=s.name)
        back = [s.tokens[c.fatigue if c.fatigue in tired else tired[0]]]
    for token in back:
        token.slot, token.face = None, "action"
    z.recovered.append(s.id)
    said = Msg.counted(
        P_("{name} takes {count} token back.", "{name} takes {count} tokens back."),
        "count",
        {"name": s.name, "count": len(back)},
    )
    if all(o.id in z.recovered for o in state.playing()):
        return Applied(joined([said, next_round(state)]))
    return Applied(said)


def next_round(state: TMState) -> Msg:
    """6: the racket turns to its echo at the end of the round; 14: the end, three rounds after
    the first exit; 9: the first player begins again."""
    if state.racket == "racket" and "vehicle" not in state.specials:
        state.racket = "echo"
    if state.first_exit is not None and state.round >= state.first_exit + ROUNDS_AFTER_EXIT:
        return finish(state)
    state.round += 1
    state.phase, state.zombies, state.turn, state.last_acted = "players", None, None, None
    state.turn = state.order[-1]  # `advance` starts from the one after: the first player
    advance(state)
    return Msg(N_("Round {round} begins."), {"round": state.round})
