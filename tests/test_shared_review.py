"""The review everyone at a table follows (``net.shared_review``), without a socket.

What a review sends each member is checked against what that seat may know: its own
view at each move and nothing of another seat's hand or private board, though the game
is over.
"""

from __future__ import annotations

from typing import Any

import msgpack
import pytest

from engine.record import Replay
from net import fanout, lobby, shared_review
from net.seats import RequestError
from net.wire import errors, framing
from tests.test_table import Guest, _finish, card_ids, seated, send


def reviews(guest: Guest) -> list[dict[str, Any]]:
    """The review frames ``guest`` was sent since last asked (other messages kept)."""
    kinds = {"review", "review_at", "review_moves", "review_closed"}
    out = [m for m in guest.messages if m["type"] in kinds]
    guest.messages = [m for m in guest.messages if m["type"] not in kinds]
    return out


def moves_of(frames: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The move list a member rebuilds from its ``review_moves`` frames."""
    moves: list[dict[str, Any]] = []
    for f in frames:
        if f["type"] == "review_moves":
            assert f["from"] == len(moves)
            moves += f["moves"]
    return moves


def finished(game_id: str, options: dict[str, Any], names: list[str],
             spectator: bool = False) -> tuple[Any, list[Guest], Replay]:
    table, guests = seated(game_id, options, names)
    if spectator:
        watcher = Guest("Wes")
        send(lobby.watch(table, watcher, 0.0))
        guests.append(watcher)
    send(lobby.start(table, guests[0], 1.0))
    _finish(table)
    for g in guests:
        g.updates()
        g.messages.clear()
    assert table.tape is not None and table.game is not None
    return table, guests, Replay(table.tape.record(table.game))


def wire_view(replay: Replay, at: int, seat: int | None) -> dict[str, Any]:
    game = replay.game_at(at)
    return msgpack.unpackb(msgpack.packb(fanout.wire_time(game.view(seat), game.now)))


def test_only_the_creator_opens_a_review_and_only_once_the_game_is_over() -> None:
    table, (ann, bob) = seated("getout", {"match": False, "first": 0}, ["Ann", "Bob"])
    send(lobby.start(table, ann, 1.0))
    with pytest.raises(RequestError) as refused:
        shared_review.open_review(table, ann, 2.0)
    assert refused.value.code == errors.WRONG_PHASE
    with pytest.raises(RequestError) as refused:
        shared_review.go(table, ann, 1)
    assert refused.value.code == errors.WRONG_PHASE
    _finish(table)
    with pytest.raises(RequestError) as refused:
        shared_review.open_review(table, bob, 90.0)
    assert refused.value.code == errors.NOT_CREATOR
    assert table.review is None and not reviews(bob)


def test_each_member_is_sent_its_own_view_at_each_move_and_no_other_hand() -> None:
    table, (ann, bob, wes), replay = finished(
        "getout", {"match": False, "first": 0}, ["Ann", "Bob"], spectator=True)
    ann.updates()
    send(shared_review.open_review(table, ann, 100.0))
    assert table.public()["review"] is True
    assert all(u["table"]["review"] for u in bob.updates())
    length = len(replay)
    for at in [1, 2, length // 2, length, 0]:
        send(shared_review.go(table, ann, at))
    for guest, seat in ((ann, 0), (bob, 1), (wes, None)):
        frames = reviews(guest)
        opened = [f for f in frames if f["type"] == "review"]
        assert len(opened) == 1 and opened[0]["seat"] == seat
        assert opened[0]["length"] == length and opened[0]["names"] == ["Ann", "Bob"]
        shown = [f for f in frames if f["type"] in {"review", "review_at"}]
        assert [f["at"] for f in shown] == [0, 1, 2, length // 2, length, 0]
        for f in shown:
            assert f["following"] and f["view"] == wire_view(replay, f["at"], seat)
        moves = moves_of(frames)
        assert [m["n"] for m in moves] == list(range(1, length + 1))
        others = [m for m in moves if m["seat"] is not None and m["seat"] != seat]
        assert others and all(set(m["action"]) <= set(shared_review.SHOWN) for m in others)
        assert not any("drew" in m for m in others)
        # A card of another hand is never named: only the cards this seat saw at some
        # move (its hands, the discards, the call cards) and the public events'.
        seen = set().union(*(card_ids(wire_view(replay, k, seat)) for k in range(length + 1)))
        seen |= card_ids([m["events"] for m in moves])
        assert card_ids(frames) <= seen


def test_a_gotfive_mark_is_in_its_markers_list_alone() -> None:
    table, (ann, bob) = seated("gotfive", {"first": 0}, ["Ann", "Bob"])
    send(lobby.start(table, ann, 1.0))
    game = table.game
    assert game is not None
    send(table.act(0, {"type": "mark", "n": 17, "mark": "cross"}, 2.0))
    send(table.act(1, {"type": "mark", "n": 40, "mark": "circle"}, 3.0))
    send(table.act(0, game.legal_actions(0)[0], 4.0))  # a clue
    send(table.act(1, {"type": "mark", "n": 41, "mark": "cross"}, 5.0))
    for seat, now in ((0, 6.0), (1, 7.0)):
        if not game.over:
            send(table.act(seat, {"type": "announce", "numbers": [1, 2, 3, 4, 5]}, now))
    assert table.phase == "over" and table.tape is not None
    replay = Replay(table.tape.record(game))
    marked = [k for k, (seat, action, _) in enumerate(replay.moves, 1)
              if action and action["type"] == "mark"]
    send(shared_review.open_review(table, ann, 100.0))
    for guest, seat in ((ann, 0), (bob, 1)):
        moves = moves_of(reviews(guest))
        mine = [k for k in marked if replay.moves[k - 1][0] == seat]
        listed = [m for m in moves if m.get("action", {}).get("type") == "mark"]
        # Each counts the moves it knew of, one after another: no gap for another's.
        assert [m["n"] for m in moves] == list(range(1, len(moves) + 1))
        assert len(moves) == len(replay) - (len(marked) - len(mine))
        assert len(listed) == len(mine) and all(m["seat"] == seat for m in listed)
        assert all({"n", "mark"} <= set(m["action"]) for m in listed)


def test_stepping_onto_a_mark_tells_nobody_else_that_it_was_made() -> None:
    """Marks were left out of another's list, but the leader stepping onto their own
    sent everyone following a frame with the mark's number and time (and ``length``
    counted every mark): when, and how often, another player marked their board."""
    table, (ann, bob) = seated("gotfive", {"first": 0}, ["Ann", "Bob"])
    send(lobby.start(table, ann, 1.0))
    game = table.game
    assert game is not None
    send(table.act(0, {"type": "mark", "n": 17, "mark": "cross"}, 2.0))
    send(table.act(0, game.legal_actions(0)[0], 3.0))  # a clue
    send(table.act(0, {"type": "mark", "n": 23, "mark": "circle"}, 4.0))
    send(table.act(1, {"type": "mark", "n": 40, "mark": "circle"}, 5.0))
    for seat, now in ((1, 6.0), (0, 7.0), (1, 8.0)):
        if not game.over:
            send(table.act(seat, {"type": "announce", "numbers": [1, 2, 3, 4, 5]}, now))
    assert table.phase == "over" and table.tape is not None
    replay = Replay(table.tape.record(game))
    send(shared_review.open_review(table, ann, 100.0))
    opened = [f for f in bob.messages if f["type"] == "review"]
    ann_moves = moves_of(reviews(ann))
    bob_moves = moves_of(reviews(bob))
    marks = [k for k, (seat, action, _) in enumerate(replay.moves, 1)
             if seat == 0 and action and action["type"] == "mark"]
    # Bob counts the moves he knew of: the game's length to him is without her marks.
    assert marks and opened[0]["length"] == len(bob_moves) == len(replay) - len(marks)
    assert not any(m["seat"] == 0 and m["action"]["type"] == "mark" for m in bob_moves)
    bob.messages.clear()
    for at in range(1, len(ann_moves) + 1):  # Ann leads through every entry, her marks too
        send(shared_review.go(table, ann, at))
    frames = [f for f in bob.messages if f["type"].startswith("review")]
    # One frame a move he knew of that she stepped onto (his own mark was not hers to
    # step onto: the step after it shows it made), counted as he counts them.
    ats = [f["at"] for f in frames]
    assert ats == sorted(set(ats)) and ats[-1] == len(bob_moves), ats
    # Nor do his views' versions jump over her marks: one a move he knew of.
    assert all(f["view"]["version"] == f["at"] for f in [*opened, *frames])
    send(shared_review.go(table, bob, 1))  # on his own now
    bob.messages.clear()
    for at in (1, 2, 3):  # (from the end: Ann's mark, her clue, her mark)
        send(shared_review.go(table, ann, at))
    told = [f for f in bob.messages if f["type"] == "review_state"]
    assert [f["leader_at"] for f in told] == [0, 1]  # back to the deal, the clue: no more


def test_the_creator_leads_anyone_steps_alone_follows_again_and_leaves() -> None:
    table, (ann, bob, cy), replay = finished("getout", {"match": False, "first": 0},
                                              ["Ann", "Bob", "Cy"])
    send(shared_review.open_review(table, ann, 100.0))
    for g in (ann, bob, cy):
        reviews(g)
    send(shared_review.go(table, bob, 5))  # Bob steps alone
    assert [(f["at"], f["following"], f["leader_at"]) for f in reviews(bob)] == [(5, False, 0)]
    assert not reviews(ann) and not reviews(cy)
    send(shared_review.go(table, ann, 3))
    assert [f["at"] for f in reviews(cy)] == [3] and [f["at"] for f in reviews(ann)] == [3]
    assert not reviews(bob)  # stepping alone: the leader's steps leave him be
    send(shared_review.follow(table, bob))
    again = reviews(bob)
    assert [(f["type"], f["at"]) for f in again if f["type"] != "review_moves"] == [("review", 3)]
    assert again[-1]["following"]
    send(shared_review.close(table, cy, 101.0))  # Cy leaves it; it goes on for the others
    # Cy's app back at the table (asking by itself) is not taken in again; Cy asking is.
    send(shared_review.follow(table, cy, auto=True))
    assert not reviews(cy)
    send(shared_review.follow(table, cy))
    assert [f["type"] for f in reviews(cy)][-1] == "review"
    send(shared_review.close(table, cy, 101.0))
    send(shared_review.go(table, ann, 4))
    assert not reviews(cy) and [f["at"] for f in reviews(bob)] == [4]
    with pytest.raises(RequestError) as refused:
        shared_review.go(table, cy, 2)
    assert refused.value.code == errors.BAD_REQUEST
    with pytest.raises(RequestError) as refused:
        shared_review.go(table, ann, len(replay) + 1)
    assert refused.value.code == errors.BAD_REQUEST
    first = table.review
    send(shared_review.close(table, ann, 102.0))  # the creator ends it for everyone
    assert table.review is None and table.public()["review"] is False
    assert reviews(bob) == [{"type": "review_closed", "seat": 0}] and not reviews(cy)
    # Opened again, the game is not played again (opening and closing costs a creator
    # nothing of the host's time but the frames).
    send(shared_review.open_review(table, ann, 103.0))
    assert table.review is first and [f["at"] for f in reviews(bob)
                                      if f["type"] == "review"] == [4]


def test_a_rematch_or_the_lobby_ends_the_review() -> None:
    table, (ann, bob), _ = finished("getout", {"match": False, "first": 0}, ["Ann", "Bob"])
    send(shared_review.open_review(table, ann, 100.0))
    send(lobby.rematch(table, ann, 101.0))
    assert table.review is None and table.reviewed is None
    assert table.public()["review"] is False
    with pytest.raises(RequestError):
        shared_review.go(table, ann, 1)
    assert bob.updates()[-1]["table"]["phase"] == "lobby"


def test_a_long_move_list_comes_in_frames_the_wire_holds(monkeypatch: Any) -> None:
    table, (ann, bob), _ = finished("getout", {"match": True, "first": 0},
                                         ["Ann", "Bob"])
    monkeypatch.setattr(shared_review, "MOVES_PER_FRAME", 2000)
    send(shared_review.open_review(table, ann, 100.0))
    frames = reviews(bob)
    parts = [f for f in frames if f["type"] == "review_moves"]
    assert len(parts) > 1
    assert moves_of(frames) == table.review.moves_for(1)
    for f in frames:
        assert len(msgpack.packb(f)) < framing.MAX_FRAME


def test_a_member_who_leaves_the_table_is_sent_no_more_of_it() -> None:
    table, (ann, bob), _ = finished("getout", {"match": False, "first": 0}, ["Ann", "Bob"])
    send(shared_review.open_review(table, ann, 100.0))
    reviews(bob)
    send(lobby.leave(table, bob, 101.0))
    send(shared_review.go(table, ann, 2))
    assert not reviews(bob)


def test_steps_through_a_review_are_held_to_a_players_pace() -> None:
    """A step makes the host replay moves and send a view to everyone following: a
    script stepping as fast as it can is refused past a player's pace."""
    from net.limits import Gate, Limits

    gate, mine, lim = Gate(Limits()), {}, Limits()
    said = [gate.take(mine, "192.0.2.7", "review_go", 5.0) for _ in range(lim.review_burst + 1)]
    assert said[:-1] == [None] * lim.review_burst and "too fast" in str(said[-1])
    assert gate.take(mine, "192.0.2.7", "review_go", 5.0 + 2 / lim.review_rate) is None


def test_the_leader_sees_who_follows_and_those_on_their_own_see_where_the_leader_is() -> None:
    table, (ann, bob, cy), _ = finished("getout", {"match": False, "first": 0},
                                        ["Ann", "Bob", "Cy"])

    def states(guest: Guest) -> list[tuple[int, int, int]]:
        said = [m for m in guest.messages if m["type"] == "review_state"]
        guest.messages = [m for m in guest.messages if m["type"] != "review_state"]
        return [(m["leader_at"], m["following"], m["alone"]) for m in said]

    send(shared_review.open_review(table, ann, 100.0))
    assert states(ann)[-1] == (0, 2, 0) and not states(bob)
    send(shared_review.go(table, bob, 4))
    assert states(ann) == [(0, 1, 1)]
    send(shared_review.go(table, ann, 2))
    assert states(bob) == [(2, 1, 1)] and not states(cy) and not states(ann)
    send(shared_review.close(table, cy, 101.0))
    assert states(ann) == [(2, 0, 1)]
    send(lobby.leave(table, bob, 102.0))
    assert states(ann) == [(2, 0, 0)]
