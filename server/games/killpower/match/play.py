"""The match engine: one command applied to a copy of the state, with the sentences both coaches
read and those only one side reads (`Play`), and `played`, which makes an engine rule a handler
of the platform's one signature."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from server.errors import NotAllowed, RuleError
from server.games.killpower import match_rules as mr
from server.games.killpower import rules
from server.games.killpower.match.state import (
    CASE_TITLES,
    CONDITION_TITLES,
    PENDING_TITLES,
    PHASE_TITLES,
    SIDES,
    Fighter,
    MatchState,
    Until,
)
from server.games.killpower.match_rules import Side, Where, other
from server.games.killpower.rules import OUTCOME_TITLES
from server.i18n import N_, P_, Msg, joined
from server.platform.dice import Dice
from server.platform.kinds import (
    Applied,
    Context,
    Handler,
    Viewer,
)


class Refused(RuleError):
    """6.3: an error that cannot be made is cancelled, with the reason."""


def side_of(state: MatchState, viewer: Viewer) -> Side | None:
    if viewer.role != "coach":
        return None
    for side in SIDES:
        team = state.teams.get(side)
        if team is not None and team.coach == viewer.person_id:
            return side
    return None


def act_refusal(
    s: MatchState, f: Fighter, *, phase3_order: bool = True, anywhere: bool = False
) -> Refused | None:
    """Why a gladiator may not spend its action now (3.3, TABLE 10, 5.1), or None: what the
    rules refuse, and what the pages read to offer an action (`anywhere`: also from its
    side-line zone, to be expelled for it, TABLE 6)."""
    if anywhere and f.where == "zt":
        pass
    elif f.where != "field" and not (f.where == "zt" and s.carrier is f):
        return Refused(N_("{name} is not on the field."), field="gladiator", name=f.label)
    if f.acted:
        return Refused(
            N_("{name} has already used their action this turn."),
            field="gladiator",
            name=f.label,
        )
    if f.inert:
        return Refused(N_("{name} is inert and cannot act."), field="gladiator", name=f.label)
    if f.has("afraid"):
        return Refused(N_("{name} flees and no longer acts."), field="gladiator", name=f.label)
    if s.phase in (1, 2) and f.side != s.moving:
        return Refused(
            N_("Only the moving team plays the ball now; {name} may pick, intercept or resist."),
            field="gladiator",
            name=f.label,
        )
    if s.phase == 3 and phase3_order and both_teams_act(s):
        due = next_actor(s)
        if not f.waiting and (due is None or due.id != f.id):
            return Refused(
                N_("Not {name}'s turn: a faster gladiator acts first."),
                field="gladiator",
                name=f.label,
            )
    return None


def both_teams_act(s: MatchState) -> bool:
    """3.3: "Si une seule des deux équipes a des actions à faire, on néglige cette règle sur
    la RAP": the order of phase 3 holds while both teams have someone to act."""
    sides = {
        f.side for f in s.fighters.values() if f.where == "field" and not f.acted and can_act(f)
    }
    return len(sides) == 2


def next_actor(s: MatchState) -> Fighter | None:
    """3.3: the fastest gladiator who has not acted nor chosen to wait; ties to the hand."""
    actors = [
        mr.Actor(str(f.id), f.side, f.rap)
        for f in s.fighters.values()
        if f.where == "field" and not f.acted and not f.waiting and can_act(f)
    ]
    order = mr.phase3_order(actors, s.hand)
    return s.fighters[order[0].key] if order else None


def can_act(f: Fighter) -> bool:
    return not f.inert and not f.has("afraid")


class Play:
    """One command applied to a copy of the state: the summary both sides read, what only one
    side reads, and the rolls' dice."""

    def __init__(self, state: MatchState, ctx: Context, side: Side | None) -> None:
        self.s = state
        self.dice: Dice = ctx.dice
        self.actor = ctx.actor
        self.side = side  # the side the actor plays, none for the staff
        self.public: list[Msg] = []
        self.private: dict[str, list[Msg]] = {"A": [], "B": []}

    # -- helpers

    def say(self, message: str, **params: Any) -> None:
        self.public.append(Msg(message, params))

    def say_counted(self, forms: tuple[str, str], count: str, **params: Any) -> None:
        self.public.append(Msg.counted(forms, count, params))

    def tell(self, side: Side, message: str, **params: Any) -> None:
        self.private[side].append(Msg(message, params))

    def own(self, fighter_id: int) -> Fighter:
        f = self.s.fighter(fighter_id)
        if self.side is not None and f.side != self.side:
            raise NotAllowed(N_("This gladiator belongs to the other team."))
        return f

    def roll(self, f: Fighter, what: str, needed: int, token: bool = False) -> tuple[int, bool]:
        """A roll under a value; the mandatory-success token makes it succeed without a die
        (3.2). The die is public; the value needed is told to the roller's side only."""
        if token:
            self.use_token(f.side)
            self.say(N_("{name} uses the mandatory-success token."), name=f.label)
            return 0, True
        die = self.dice.roll(10, f"{what} of {f.name}", owner=f.side)
        ok = mr.succeeds(die, needed)
        self.tell(
            f.side, N_("{name}: {die} for {needed} or less."), name=f.label, die=die, needed=needed
        )
        return die, ok

    def use_token(self, side: Side) -> None:
        if self.s.token != side:
            raise RuleError(
                N_("Your team does not hold the mandatory-success token."), field="token"
            )
        self.s.token = None

    def ready_to_act(
        self, f: Fighter, *, phase3_order: bool = True, anywhere: bool = False
    ) -> None:
        """Whether a gladiator may spend its action now (`act_refusal`); a sprint ends when
        the next gladiator acts (5.2)."""
        s = self.s
        if s.stage != "running":
            raise RuleError(N_("The match is not being played."))
        if s.sprinting is not None and s.sprinting != f.id:
            s.sprinting = None  # 5.2: the sprint ends when the next gladiator acts
        refusal = act_refusal(s, f, phase3_order=phase3_order, anywhere=anywhere)
        if refusal is not None:
            raise refusal

    def both_teams_act(self) -> bool:
        return both_teams_act(self.s)

    def next_actor(self) -> Fighter | None:
        return next_actor(self.s)

    can_act = staticmethod(can_act)

    def spend(self, f: Fighter) -> None:
        f.acted = True
        f.waiting = False
        if f.concentration and self.s.phase != 3:
            f.concentration = 0
        if f.side == self.s.moving and self.s.phase in (1, 2):
            self.s.moved = True

    def drop_ball(self, f: Fighter, note: str = "") -> None:
        if self.s.carrier is f:
            self.s.ball = "ground"
            self.s.ball_note = note
            if self.s.board:  # on the carrier's square (5.1: "lâche le ballon sur sa case")
                found = self.s.at.get(str(f.id))
                self.s.ball_at = (found[0], found[1]) if found else None
            self.say(N_("The ball falls on {name}'s square."), name=f.label)

    # -- leaving the field

    def off(self, f: Fighter, where: Where, state: int | None = None) -> None:
        """Off the field (badly wounded, coma, expelled): 3.3, CAS PARTICULIER, "sous l'effet
        d'un pouvoir sur le terrain, est expulsé [...] est BG, il n'est plus affecté par le
        pouvoir": every state ends (asleep, blind, on the ground...), a fleeing gladiator badly
        wounded no longer flees; an expulsion keeps the fear to serve after (`expel`)."""
        self.drop_ball(f)
        f.where = where
        f.state = state
        # 3.3: a power stops when its bearer leaves, and its states end, « sauf contre-indication
        # du pouvoir »: what its card says it outlasts (an expulsion, a badly wounded gladiator).
        event = "expulsion" if where == "expelled" else "bg" if where == "bg" else None
        self.outlast(f, event)
        # 4.2: "Pour qu'un pouvoir fonctionne, son lanceur doit être sur le terrain".
        self.s.armed = [a for a in self.s.armed if a.fighter != f.id]
        f.concentration = 0
        f.waiting = False

    def outlast(self, f: Fighter, event: str | None) -> None:
        """What of a gladiator's powers and powers' states outlasts `event` (3.3, 3.4: « sauf
        contre-indication du pouvoir »): those whose card says so (`PowerCard.survives`); the
        rest, and every state no power put, end. None: nothing outlasts (a coma, a death)."""

        def lasts(key: str | None) -> bool:
            card = self.s.cards.get(key or "")
            return event is not None and card is not None and event in card.survives

        f.active = [k for k in f.active if lasts(k)]
        f.conditions = {c: u for c, u in f.conditions.items() if lasts(f.causes.get(c))}
        f.causes = {c: k for c, k in f.causes.items() if c in f.conditions}

    def expel(self, f: Fighter, offence: mr.Offence, reason: str = "") -> None:
        """6.2 and TABLE 6: out for 1D5+5 (or 1D5, or 1D10) turns; started in phase 3, it ends at
        the start of phase 3; fear is served after (3.3, CAS PARTICULIER)."""
        turns = mr.expulsion_turns(offence, self.dice, f.name)
        fear = f.conditions.get("afraid")
        if "afraid" in f.conditions:
            f.after["afraid"] = fear.left(self.s.turn) if fear else 0
        self.off(f, "expelled")
        f.conditions.pop("afraid", None)
        f.conditions.pop("held", None)
        end = mr.timer_end(self.s.turn, self.s.phase, turns)
        f.back = Until(turn=end.turn, phase=end.phase)
        f.square = None
        if end.turn < 1:
            self.say_counted(
                P_(
                    "{name} is expelled for {turns} turn, past the end of the match{reason}.",
                    "{name} is expelled for {turns} turns, past the end of the match{reason}.",
                ),
                "turns",
                name=f.label,
                turns=turns,
                reason=f" ({reason})" if reason else "",
            )
        else:
            self.say_counted(
                P_(
                    "{name} is expelled for {turns} turn: back at {phase} of turn {turn}{reason}.",
                    "{name} is expelled for {turns} turns: back at {phase} of turn {turn}{reason}.",
                ),
                "turns",
                name=f.label,
                turns=turns,
                phase=Msg(PHASE_TITLES[end.phase]),
                turn=end.turn,
                reason=f" ({reason})" if reason else "",
            )

    def come_back(self, f: Fighter) -> None:
        """6.2, FIN D'EXPULSION: back in the team's side-line zone on the square 1D2 / 1D10."""
        f.where = "zt"
        f.back = None
        f.square = mr.reentry_square(self.dice, f.name)
        self.say(
            N_("{name} comes back from expulsion on the side-line square {row}-{square}."),
            name=f.label,
            row=f.square[0],
            square=f.square[1],
        )
        for condition, turns in f.after.items():
            if turns:
                end = mr.timer_end(self.s.turn, self.s.phase, turns)
                f.conditions[condition] = Until(turn=end.turn, phase=end.phase)
            else:
                f.conditions[condition] = None
            self.say_counted(
                P_(
                    "{name} now serves {turns} turn {condition}.",
                    "{name} now serves {turns} turns {condition}.",
                ),
                "turns",
                name=f.label,
                turns=turns,
                condition=Msg(CONDITION_TITLES[condition]),
            )
        f.after = {}

    # -- time

    def tick(self) -> None:
        """At the start of phase 1 and of phase 3: timed states and expulsions that end now."""
        s = self.s
        for f in sorted(s.fighters.values(), key=lambda f: f.id):
            if f.where == "expelled" and f.back and f.back.moment.reached(s.turn, s.phase):
                self.come_back(f)
            for condition, until in list(f.conditions.items()):
                if until is not None and until.moment.reached(s.turn, s.phase):
                    del f.conditions[condition]
                    self.say(
                        N_("{name} is no longer {condition}."),
                        name=f.label,
                        condition=Msg(CONDITION_TITLES[condition]),
                    )

    def begin_turn(self, hand: Side | None = None) -> None:
        s = self.s
        s.turn -= 1
        if s.turn < 1:
            self.finish()
            return
        s.hand = hand or other(s.hand)
        s.phase = 1
        s.moved = False
        for f in s.fighters.values():
            f.acted = False
            f.waiting = False
        self.say(
            N_("Turn {turn}: {team} has the hand."), turn=s.turn, team=s.team(s.hand).roster.name
        )
        self.tick()
        idle = [
            side
            for side in SIDES
            if (since := s.team(side).idle_since) is not None and since - s.turn >= mr.FORFEIT_TURNS
        ]
        if len(idle) == 2:
            # TABLE 7, case II for both: each would win by the other's forfeit; neither does, and
            # the match goes on to its end (Arbitre's reading, docs/readings.md).
            self.say(N_("Neither team has put anybody on the field for 5 turns: no forfeit."))
        elif idle:
            # TABLE 7, case II: nobody entered within 5 turns, the other team wins.
            self.say(
                N_("{team} has put nobody on the field for 5 turns: forfeit."),
                team=s.team(idle[0]).roster.name,
            )
            s.surrendered = idle[0]
            self.finish()

    def end_movement(self) -> None:
        """End of a movement phase: the sixth gladiator (6.1) and a ball kept in the side-line
        zone (3.3, TABLE 6) are expelled; then the next phase begins."""
        s = self.s
        side = s.moving
        on_field = sorted(
            (f for f in s.fighters.values() if f.side == side and f.where == "field"),
            key=lambda f: f.entered,
        )
        while len(on_field) > mr.MAX_ON_FIELD:
            last = on_field.pop()
            # Each one past the fifth, the last entered first (a seventh is not "the sixth").
            self.say(
                N_("{name} is one gladiator too many on the field (five at most)."), name=last.label
            )
            self.expel(last, "table6", "")
        carrier = s.carrier
        if carrier is not None and carrier.side == side and carrier.where == "zt":
            s.ball = "basket"
            s.ball_note = ""
            if s.board:  # the carrier's own basket (3.4, by analogy: "la case de son panier")
                s.ball_at = (1, 8) if side == "A" else (27, 8)
            self.say(N_("The ball stayed in the side-line zone: it goes on the basket square."))
            self.expel(carrier, "table6", "")
        if s.phase == 1:
            s.phase = 2
            s.moved = False
        else:
            s.phase = 3
            self.tick()
        self.say(N_("On to {phase} of turn {turn}."), phase=Msg(PHASE_TITLES[s.phase]), turn=s.turn)

    def end_phase3(self) -> None:
        """End of phase 3: a gift point of TABLE 7 case IV is validated now (3.4), then the next
        turn."""
        s = self.s
        s.sprinting = None
        if s.gift is not None and s.team(s.gift).case != "IV":
            # 3.4: "Le don d'un point n'est validé qu'à la fin de la PHASE 3": a team out of case
            # IV by then (someone back on the field or able to enter) gives nothing.
            s.gift = None
        if s.gift is not None:
            giver = s.gift
            s.gift = None
            receiver = other(giver)
            s.team(receiver).score += 1
            self.say(
                N_("{giver} gives a point to {team} (badly wounded team): {a} – {b}."),
                giver=s.team(giver).roster.name,
                team=s.team(receiver).roster.name,
                a=s.team("A").score,
                b=s.team("B").score,
            )
            self.reset(receiver, giver)
            return
        self.begin_turn()

    def maybe_end_phase3(self) -> None:
        s = self.s
        if s.stage != "running" or s.phase != 3 or s.pending is not None:
            return
        if s.sprinting is not None:
            sprinter = s.fighter(s.sprinting)
            if sprinter.where == "field" and s.dep_left(sprinter) > 0:
                return  # 5.2: the sprinter moves first (or their coach ends the phase)
        if not any(
            f.where == "field" and not f.acted and self.can_act(f) for f in s.fighters.values()
        ):
            self.end_phase3()

    # -- scoring (3.4)

    def score(self, side: Side, points: int) -> None:
        s = self.s
        s.team(side).score += points
        self.say_counted(
            P_(
                "Basket for {team}: {points} point. {a} – {b}.",
                "Basket for {team}: {points} points. {a} – {b}.",
            ),
            "points",
            team=s.team(side).roster.name,
            points=points,
            a=s.team("A").score,
            b=s.team("B").score,
        )

    def reset(self, first: Side, receiver: Side) -> None:
        """3.4, PANIER OU DON D'UN POINT: the gladiators on the field and the badly wounded go back
        to their coaches and start again normally from their side-line zone (3.3: a state from a
        power on the field ends; one off the field, a fear served in the side-line zone, stays);
        `first` places first, `receiver` second with the ball, the hand and the mandatory-success
        token. "On reprend donc le match à la séquence 9": phase 1 of the same turn, whose box was
        already checked (3.3, GESTION DES TOURS checks the next one only after a phase 3 "si aucun
        panier n'a été marqué")."""
        s = self.s
        s.sprinting = None
        for f in s.fighters.values():
            if f.where in ("field", "bg"):
                f.where = "zt"
                f.state = None
                self.outlast(f, "reset")
            f.concentration = 0
        s.armed = []  # 3.4: "Reprenez en main les cartes pouvoir qui ne sont plus actifs"
        s.spent, s.spent_in, s.free = {}, [], []  # the board: everyone starts again from the ZT
        s.first = first
        s.gift = None  # the badly wounded are back: a point still owed lapses
        s.token = receiver
        s.ball_note = ""
        s.pending = None
        self.say(
            N_(
                "Back to the side-line zones: {first} places first, {team} gets the ball and the hand."
            ),
            first=s.team(first).roster.name,
            team=s.team(receiver).roster.name,
        )
        self.ball_to(receiver)
        s.phase, s.hand, s.moved = 1, receiver, False
        for f in s.fighters.values():
            f.acted = f.waiting = False
        self.say(N_("The match goes on at phase 1 of turn {turn}."), turn=s.turn)

    def ball_to(self, side: Side) -> None:
        """The ball to give to one of `side`'s gladiators in its side-line zone; 3.4: "Si un
        entraîneur [...] n'a que des gladiateurs expulsés ou en ZT involontaire : alors le ballon
        est placé sur la case de son panier et l'équipe adverse joue seule"."""
        s = self.s
        if any(self.may_receive(f) for f in s.side_fighters(side)):
            s.ball = f"zt:{side}"
            return
        s.ball, s.ball_note = "basket", ""
        if s.board:
            s.ball_at = (1, 8) if side == "A" else (27, 8)  # H1 or H27, the basket of its half
        self.say(
            N_("{team} has nobody to take the ball: it goes on its basket square."),
            team=s.team(side).roster.name,
        )

    @staticmethod
    def may_receive(f: Fighter) -> bool:
        """Who may be given the ball in the side-line zone: not fleeing, kept off or inert
        (as who may enter the field: `Fighter.may_enter`, which the pages read)."""
        return f.may_enter

    def tidy_board(self) -> None:
        """The board, when kept: a gladiator off the field has no square; a ball carried is where
        its carrier is, one in a side-line zone nowhere; the basket square when put there."""
        s = self.s
        if not s.board:
            return
        for key in list(s.at):
            f = s.fighters.get(key)
            if f is None or f.where != "field":
                del s.at[key]
        if s.carrier is not None or s.ball.startswith("zt:") or s.ball == "air":
            s.ball_at = None
        elif s.ball == "center":
            s.ball_at = (14, 8)  # 3.2: "sur la case H14"

    # -- team states (TABLE 7)

    def check_teams(self) -> None:
        s = self.s
        if s.stage != "running":
            return
        cases = {}
        for side in SIDES:
            case = mr.team_case(f.standing(s.turn) for f in s.side_fighters(side))
            team = s.team(side)
            if case != team.case:
                self.say(N_("{team}: {case}."), team=team.roster.name, case=Msg(CASE_TITLES[case]))
            team.case = case
            if case == "II":
                if team.idle_since is None:
                    team.idle_since = s.turn
            else:
                team.idle_since = None
            cases[side] = case
        if cases["A"] == "VI" or cases["B"] == "VI":
            if cases["A"] == cases["B"]:
                self.finish()
            else:
                s.eliminated = "A" if cases["A"] == "VI" else "B"
                self.finish()
            return
        for side in SIDES:
            if cases[side] == "IV" and s.gift is None and cases[other(side)] != "IV":
                s.gift = side

    def finish(self) -> None:
        """3.4: after turn 1, or at once by surrender or elimination; a tournament draw goes to the
        free throws (13.2)."""
        s = self.s
        s.turn = max(s.turn, 1)
        score = (s.team("A").score, s.team("B").score)
        margins = (s.team("A").margin, s.team("B").margin)
        outcomes = rules.result_of(score, margins, s.surrendered or "", s.eliminated or "")
        s.pending = None
        if outcomes == ("drawn", "drawn") and s.tournament:
            s.stage = "free_throws"
            self.say(N_("Draw after 20 turns: free throws decide (13.2)."))
            return
        self.close(outcomes)

    def close(self, outcomes: tuple[str, str]) -> None:
        s = self.s
        s.stage = "finished"
        s.outcomes = outcomes
        self.say(
            N_("End of the match: {a} {sa} – {sb} {b} ({oa} / {ob})."),
            a=s.team("A").roster.name,
            b=s.team("B").roster.name,
            sa=s.team("A").score,
            sb=s.team("B").score,
            oa=Msg(OUTCOME_TITLES[outcomes[0]]),
            ob=Msg(OUTCOME_TITLES[outcomes[1]]),
        )


def played(rule: Callable[[Play, Any], None]) -> Handler:
    """An engine rule as a handler of the platform's one signature: who may play it, what must be
    answered first, and what every command ends with (the team states of TABLE 7, the end of phase
    3), then the sentences both coaches read and those only one side reads."""

    def handler(state: MatchState, command: Any, ctx: Context) -> Applied:
        side = side_of(state, ctx.actor)
        if ctx.actor.role == "coach":
            if side is None:
                raise NotAllowed(N_("This phone is not a coach of this match."))
            if state.mode == "referee" and command.type != "lineup":
                raise NotAllowed(N_("The referee holds the sheet: tell them what you do."))
        if state.pending is not None and command.type != "answer":
            raise RuleError(
                N_("First, {team} answers: {question}."),
                team=state.team(state.pending.side).roster.name,
                question=Msg(PENDING_TITLES[state.pending.kind]),
            )
        play = Play(state, ctx, side)
        rule(play, command)
        play.check_teams()
        play.maybe_end_phase3()
        play.check_teams()  # a new turn may have brought gladiators back (or not)
        play.tidy_board()
        if not play.public:
            play.say(N_("Done."))
        result: dict[str, Any] = {"coaches": {k: t.coach for k, t in state.teams.items()}}
        if state.stage == "finished":
            result["finished"] = True
        return Applied(joined(play.public), result, private=dict(play.private))

    handler.__name__ = handler.__qualname__ = rule.__name__
    return handler
