"""The service on a real database: the log is the truth."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from pydantic import BaseModel

import server.games  # noqa: F401  (registers the kinds and their demos)
from server.errors import InvalidInput, LinkInvalid, NotAllowed, RuleError, StaleScreen
from server.games.demo import DEMOS
from server.models import Game
from server.platform.clock import FakeClock
from server.platform.dice import ScriptedRolls
from server.platform.idempotency import AlreadyCreated, IdempotencyMismatch, session_caller
from server.platform.service import GameService
from tests.conftest import key, tally_game, viewer_of
from tests.scene import declared


def test_create_game_gives_an_organizer_with_a_working_link(service: GameService) -> None:
    browser = session_caller("session-of-camille")
    game, organizer = service.create_game(
        "tally", "Forêt", "Camille", idem_key="create-1", caller=browser
    )
    assert organizer.person.role == "organizer"
    assert service.person_by_token(organizer.link.token).id == organizer.person.id
    assert service.person_by_code(organizer.link.code.lower()).id == organizer.person.id
    # The same browser's retry: the same game and link.
    again, same = service.create_game(
        "tally", "Forêt", "Camille", idem_key="create-1", caller=browser
    )
    assert again.id == game.id and same.link == organizer.link
    # Anyone else sending that key gets a game of their own, never Camille's link.
    other, theirs = service.create_game(
        "tally", "Forêt", "Camille", idem_key="create-1", caller=session_caller("another")
    )
    assert other.id != game.id and theirs.link != organizer.link
    service.create_game("tally", "Forêt", "Camille", idem_key="anon-1")
    with pytest.raises(AlreadyCreated):  # an API call without credentials is nobody's retry
        service.create_game("tally", "Forêt", "Camille", idem_key="anon-1")
    with pytest.raises(IdempotencyMismatch):  # the same key for another request
        service.create_game("tally", "Plaine", "Camille", idem_key="create-1", caller=browser)


@pytest.mark.parametrize(
    ("kind", "name", "organizer", "dice", "field"),
    [
        ("chess", "x", "y", "server", "kind"),
        ("tally", "   ", "y", "server", "name"),
        ("tally", "x", "", "server", "organizer"),
        ("tally", "x" * 121, "y", "server", "name"),
        ("tally", "x", "y", "loaded", "dice"),
    ],
)
def test_bad_game_creation_says_which_field(
    service: GameService, kind: str, name: str, organizer: str, dice: str, field: str
) -> None:
    with pytest.raises(InvalidInput) as error:
        service.create_game(kind, name, organizer, dice=dice, idem_key=key())
    assert error.value.field == field


def test_registering_people_is_logged_and_idempotent(service: GameService) -> None:
    game, org, _referee, (lea, _hugo) = tally_game(service)
    loaded = service.load(game.id)
    assert [p.name for p in loaded.state.players.values()] == ["Léa", "Hugo"]  # type: ignore[attr-defined]
    first = service.register(game.id, org, "player", "Zoé", idem_key="reg-zoe")
    second = service.register(game.id, org, "player", "Zoé", idem_key="reg-zoe")
    assert first.person.id == second.person.id and first.link == second.link
    with pytest.raises(InvalidInput, match=r"(?i)zoé"):
        service.register(game.id, org, "player", "zoé", idem_key=key())
    with pytest.raises(InvalidInput):
        service.register(game.id, org, "wizard", "Merlin", idem_key=key())
    with pytest.raises(NotAllowed):
        service.register(game.id, lea, "player", "Intrus", idem_key=key())
    assert service.verify(game.id)


def test_an_action_is_applied_once_logged_with_its_dice(
    service: GameService, rolls: ScriptedRolls
) -> None:
    game, _org, referee, (lea, _hugo) = tally_game(service)
    rolls.push(5)
    done = service.perform(
        game.id, referee, {"type": "roll", "player": lea.person_id}, idem_key="tap-1"
    )
    retry = service.perform(
        game.id, referee, {"type": "roll", "player": lea.person_id}, idem_key="tap-1"
    )
    assert retry.replayed and retry.seq == done.seq and retry.result == {"points": 5}
    assert done.summary.render() == "Léa scores 5."
    log = service.log(game.id, referee)
    assert log[-1]["rolls"] == [{"purpose": "points", "sides": 6, "value": 5, "manual": False}]
    assert log[-1]["actor"] == {"role": "referee", "name": "Arbitre 1"}
    state = service.load(game.id).state
    assert state.players[str(lea.person_id)].points == 5  # type: ignore[attr-defined]
    assert service.verify(game.id)


def test_dice_entered_by_hand_are_marked_so(service: GameService) -> None:
    game, _org, referee, (lea, _hugo) = tally_game(service)
    service.perform(
        game.id,
        referee,
        {"type": "roll", "player": lea.person_id},
        idem_key=key(),
        rolls={"points": 2},
    )
    assert service.log(game.id, referee)[-1]["rolls"][0]["manual"] is True


def test_physical_dice_games_refuse_an_action_without_the_die(service: GameService) -> None:
    game, organizer = service.create_game("tally", "x", "y", dice="physical", idem_key=key())
    from tests.conftest import viewer_of

    org = viewer_of(organizer)
    lea = viewer_of(service.register(game.id, org, "player", "Léa", idem_key=key()))
    seq = service.load(game.id).game.seq
    with pytest.raises(RuleError, match="points"):
        service.perform(game.id, org, {"type": "roll", "player": lea.person_id}, idem_key=key())
    assert service.load(game.id).game.seq == seq  # nothing was appended


def test_a_refused_action_changes_nothing(service: GameService) -> None:
    game, _org, referee, (lea, _hugo) = tally_game(service)
    before = service.load(game.id)
    stored = stored_state(service, game.id)
    with pytest.raises(InvalidInput, match="99"):  # nobody 99 in this game
        service.perform(
            game.id, referee, {"type": "score", "player": 99, "points": 3}, idem_key=key()
        )
    with pytest.raises(RuleError):  # someone of this game, but no player: the rules refuse
        service.perform(
            game.id,
            referee,
            {"type": "score", "player": referee.person_id, "points": 3},
            idem_key=key(),
        )
    with pytest.raises(InvalidInput) as refused:
        service.perform(
            game.id,
            referee,
            {"type": "score", "player": lea.person_id, "points": 11},
            idem_key=key(),
        )
    assert refused.value.field == "points" and "10" in refused.value.message
    with pytest.raises(InvalidInput):
        service.perform(game.id, referee, {"type": "teleport"}, idem_key=key())
    after = service.load(game.id)
    assert after.game.seq == before.game.seq
    assert stored_state(service, game.id) == stored
    assert after.state.model_dump(mode="json") == stored  # the kept state is untouched too


def stored_state(service: GameService, game_id: str) -> dict[str, object]:
    with service.db.read() as s:
        game = s.get(Game, game_id)
        assert game is not None
        return dict(game.state)


def test_players_may_only_send_what_the_kind_allows(
    service: GameService, rolls: ScriptedRolls
) -> None:
    game, _org, _referee, (lea, hugo) = tally_game(service)
    rolls.push(3)
    service.perform(game.id, lea, {"type": "roll", "player": lea.person_id}, idem_key=key())
    with pytest.raises(NotAllowed):
        service.perform(game.id, lea, {"type": "roll", "player": hugo.person_id}, idem_key=key())
    with pytest.raises(NotAllowed):
        service.undo(game.id, lea, idem_key=key())


def test_a_stale_screen_is_refused_only_when_someone_else_changed_its_people(
    service: GameService,
) -> None:
    game, org, referee, (lea, hugo) = tally_game(service)
    other = viewer_of(service.register(game.id, org, "referee", "Arbitre 2", idem_key=key()))
    seen = service.load(game.id).game.seq
    service.perform(
        game.id,
        referee,
        {"type": "score", "player": lea.person_id, "points": 2},
        idem_key=key(),
        seen_seq=seen,
    )
    # The same referee again, from the same screen: what they did, they know.
    service.perform(
        game.id,
        referee,
        {"type": "score", "player": lea.person_id, "points": 3},
        idem_key=key(),
        seen_seq=seen,
    )
    # Another referee, whose screen still shows `seen`, acts on Hugo: nothing of his changed.
    service.perform(
        game.id,
        other,
        {"type": "score", "player": hugo.person_id, "points": 1},
        idem_key=key(),
        seen_seq=seen,
    )
    with pytest.raises(StaleScreen, match="Léa"):  # ...on Léa: her points changed meanwhile
        service.perform(
            game.id,
            other,
            {"type": "score", "player": lea.person_id, "points": 1},
            idem_key=key(),
            seen_seq=seen,
        )
    with pytest.raises(StaleScreen):  # a whole-game command after any change by another
        service.perform(
            game.id, other, {"type": "timer.start", "seconds": 60}, idem_key=key(), seen_seq=seen
        )


def test_undo_removes_the_last_action_and_is_itself_logged(service: GameService) -> None:
    game, _org, referee, (lea, hugo) = tally_game(service)
    service.perform(
        game.id, referee, {"type": "score", "player": lea.person_id, "points": 4}, idem_key=key()
    )
    service.perform(
        game.id, referee, {"type": "score", "player": hugo.person_id, "points": 2}, idem_key=key()
    )
    target_seq, label = service.last_undoable(game.id)  # type: ignore[misc]
    assert label.render() == "score for Hugo"
    undone = service.undo(game.id, referee, idem_key="undo-1", target_seq=target_seq)
    assert undone.summary.render() == "Annulé : score for Hugo"  # French by default
    retry = service.undo(game.id, referee, idem_key="undo-1", target_seq=target_seq)
    assert retry.seq == undone.seq and retry.replayed
    state = service.load(game.id).state
    assert state.players[str(hugo.person_id)].points == 0  # type: ignore[attr-defined]
    assert state.players[str(lea.person_id)].points == 4  # type: ignore[attr-defined]
    with pytest.raises(StaleScreen):  # the screen still offers to undo Hugo's score
        service.undo(game.id, referee, idem_key=key(), target_seq=target_seq)
    service.undo(game.id, referee, idem_key=key())
    with pytest.raises(RuleError, match="rien à annuler"):
        service.undo(game.id, referee, idem_key=key())
    log = service.log(game.id, referee)
    assert [e["type"] for e in log[-4:]] == ["command", "command", "undo", "undo"]
    assert all(e["undone"] for e in log[-4:-2])
    assert service.verify(game.id)


def test_undoing_a_pause_sets_the_timer_running_again(service: GameService) -> None:
    game, _org, referee, (_lea, _hugo) = tally_game(service)
    service.perform(game.id, referee, {"type": "timer.start", "seconds": 60}, idem_key=key())
    service.perform(game.id, referee, {"type": "timer.pause"}, idem_key=key())
    service.undo(game.id, referee, idem_key=key())  # the pause
    assert service.load(game.id).state.timer.running  # type: ignore[attr-defined]
    assert service.verify(game.id)


def test_timers_fall_due_with_no_phone_connected(service: GameService, clock: FakeClock) -> None:
    game, _org, referee, _players = tally_game(service)
    service.perform(game.id, referee, {"type": "timer.start", "seconds": 600}, idem_key=key())
    clock.advance(300)
    service.perform(game.id, referee, {"type": "timer.pause"}, idem_key=key())
    clock.advance(3600)
    assert service.run_due() == 0  # paused: nothing falls due
    service.perform(game.id, referee, {"type": "timer.resume"}, idem_key=key())
    assert service.load(game.id).game.next_deadline == clock.now() + timedelta(seconds=300)
    clock.advance(299)
    assert service.run_due() == 0
    clock.advance(1)
    assert service.run_due() == 1
    loaded = service.load(game.id)
    assert loaded.state.rings == 1 and loaded.game.next_deadline is None  # type: ignore[attr-defined]
    assert service.log(game.id, referee)[-1]["actor"]["role"] == "system"
    assert service.verify(game.id)


def test_reissue_and_revoke_kill_old_links_at_once(service: GameService) -> None:
    game, org, _referee, (lea, _hugo) = tally_game(service)
    person = service.person(game.id, lea.person_id)  # type: ignore[arg-type]
    ticket = service.link_of(person)
    # A seat no phone took opens for no session; taken, its key (a new version) does.
    assert service.viewer(game.id, person.id, person.version) is None  # type: ignore[arg-type]
    held = service.claim(token=ticket.token)
    assert held.link != ticket and held.person.version == person.version + 1
    assert service.viewer(game.id, person.id, held.person.version) is not None  # type: ignore[arg-type]
    new = service.reissue(game.id, org, person.id, idem_key=key())  # type: ignore[arg-type]
    assert new.link not in (ticket, held.link) and new.person.claimed_at is None
    for old in (ticket, held.link):
        with pytest.raises(LinkInvalid):
            service.person_by_token(old.token)
        with pytest.raises(LinkInvalid):
            service.person_by_code(old.code)
    assert service.viewer(game.id, person.id, held.person.version) is None  # type: ignore[arg-type]
    assert service.person_by_token(new.link.token).id == person.id
    service.revoke(game.id, org, person.id, idem_key=key())  # type: ignore[arg-type]
    with pytest.raises(LinkInvalid):
        service.person_by_token(new.link.token)
    with pytest.raises(InvalidInput):
        service.revoke(game.id, org, org.person_id, idem_key=key())  # type: ignore[arg-type]
    assert service.verify(game.id)


def test_log_is_filtered_for_each_viewer(service: GameService, rolls: ScriptedRolls) -> None:
    game, _org, referee, (lea, hugo) = tally_game(service)
    rolls.push(1, 2)
    service.perform(game.id, referee, {"type": "roll", "player": lea.person_id}, idem_key=key())
    service.perform(game.id, referee, {"type": "roll", "player": hugo.person_id}, idem_key=key())
    mine = service.log(game.id, lea)
    assert [e["summary"] for e in mine] == ["Léa scores 1."]
    assert "rolls" not in mine[0]


def test_a_referee_undoes_their_own_actions_the_organizer_anyones(service: GameService) -> None:
    game, org, referee, (lea, _hugo) = tally_game(service)
    other = viewer_of(service.register(game.id, org, "referee", "Arbitre 2", idem_key=key()))
    service.perform(
        game.id, referee, {"type": "score", "player": lea.person_id, "points": 4}, idem_key=key()
    )
    with pytest.raises(NotAllowed, match="Arbitre 1"):
        service.undo(game.id, other, idem_key=key())
    service.undo(game.id, org, idem_key=key())
    assert service.load(game.id).state.players[str(lea.person_id)].points == 0  # type: ignore[attr-defined]


def test_a_revoked_person_leaves_the_lists_and_frees_the_name(service: GameService) -> None:
    """Issue 17, item 16: a person revoked before the deal was still dealt a card, and the
    name could not be given to whoever replaced them. Every kind that lists its people (each
    game's `PERSON_LISTS`): before the game begins the person leaves its lists; a re-issued link
    brings them back; the log rebuilds it all."""
    cases = [
        (kind, role, listed)
        for kind, roles in sorted(declared("PERSON_LISTS").items())
        for role, listed in roles.items()
    ]
    assert cases
    for kind, role, listed in cases:
        game, organizer = service.create_game(kind, "Partie", "Orga", idem_key=key())
        org = viewer_of(organizer)
        lea = service.register(game.id, org, role, "Léa", idem_key=key()).person
        assert str(lea.id) in listed(service.load(game.id).state), kind
        with pytest.raises(InvalidInput, match="déjà inscrit"):
            service.register(game.id, org, role, "léa", idem_key=key())
        service.revoke(game.id, org, lea.id, idem_key=key())  # type: ignore[arg-type]
        assert str(lea.id) not in listed(service.load(game.id).state), (kind, role)
        assert service.verify(game.id)
        # Her name is free again; re-issuing her old link is refused while it is taken.
        other = service.register(game.id, org, role, "Léa", idem_key=key()).person
        with pytest.raises(InvalidInput, match="déjà inscrit"):
            service.reissue(game.id, org, lea.id, idem_key=key())  # type: ignore[arg-type]
        service.revoke(game.id, org, other.id, idem_key=key())  # type: ignore[arg-type]
        service.reissue(game.id, org, lea.id, idem_key=key())  # type: ignore[arg-type]
        assert str(lea.id) in listed(service.load(game.id).state), kind
        assert service.verify(game.id)


@pytest.mark.parametrize("kind", sorted(DEMOS))
def test_the_copy_a_handler_changes_is_equal_and_shares_nothing_it_may_change(
    service: GameService, rolls: ScriptedRolls, kind: str
) -> None:
    """An action's copy of the state (`GameKind.copy`: through the model, not `deepcopy`) is the
    state itself, and changing it leaves the cached state alone: nothing shared but a game's
    deck (`state.deck`), which is never changed in place."""
    rolls.endless = True
    game, _ = DEMOS[kind](service, key())
    loaded = service.load(game.id)
    state = loaded.state
    work = loaded.kind.copy(state)
    assert work == state and work is not state

    def containers(value: Any, path: str) -> Iterator[tuple[str, Any]]:
        if isinstance(value, BaseModel):
            yield path, value
            for name in type(value).model_fields:
                yield from containers(getattr(value, name), f"{path}.{name}")
        elif isinstance(value, dict | list):
            yield path, value
            items = value.items() if isinstance(value, dict) else enumerate(value)
            for name, item in items:
                yield from containers(item, f"{path}[{name}]")

    mine = {id(v): p for p, v in containers(state, "state") if not p.startswith("state.deck")}
    shared = [p for p, v in containers(work, "state") if id(v) in mine]
    assert shared == []


@pytest.mark.parametrize("kind", sorted(DEMOS))
def test_the_state_stored_is_its_model_s_dump(
    service: GameService, rolls: ScriptedRolls, kind: str
) -> None:
    """What an action stores (`GameKind.dump`, a deck dumped once for the states that share it)
    is the model's own dump, before and after the copy a handler changes, and after a deck is
    replaced whole: the stored game reads back equal."""
    rolls.endless = True
    game, _ = DEMOS[kind](service, key())
    loaded = service.load(game.id)
    state, kind_ = loaded.state, loaded.kind
    assert kind_.dump(state) == state.model_dump(mode="json")
    work = kind_.copy(state)
    assert kind_.dump(work) == state.model_dump(mode="json")
    if isinstance(getattr(work, "deck", None), list):
        work.deck = work.deck[:-1]  # a deck is replaced whole, never changed in place
        assert kind_.dump(work) == work.model_dump(mode="json")
        assert kind_.dump(work) != kind_.dump(state)
    assert service.verify(game.id)
