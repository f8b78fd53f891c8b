"""A review of the game just over that everyone at the table follows (hanab.live's shared
replay): the table's creator leads it move by move; anyone may step alone and follow again.

The wire never carries a record, a seed, a snapshot or another seat's view
(``CONTRACT.md``), and the game being over does not change that: what a seat may not
know while the game runs (another GET OUT! hand, the cards of one's own Get It! pile) it
may not learn from a review either. So the host plays the game again from its record
(``engine.record.Replay``) and sends each member, for the move it is at, only
``view(its seat)`` as the game stood then (the spectator's view to a spectator), with the
list of moves as that seat knew them: each move's public events, its kind and aim, the
card a GET OUT! draw brought only to the seat that drew it, and nothing at all of a move
only its mover saw (a Got Five! mark).

Requests (``net.handlers``): ``review_open`` (the creator, once the game is over),
``review_go`` (the creator moves everyone following; anyone else steps alone),
``review_follow`` (back with the leader, also after closing it), ``review_close`` (the
creator ends it for everyone; anyone else just stops receiving it). Frames:
``review_moves`` (the move list, in parts a frame can hold), ``review`` (opened: what to
show), ``review_at`` (a position), ``review_state`` (where the leader is and how many
follow: for the leader, and for those stepping alone), ``review_closed``. A review
lives in the host's memory only and ends with the finished game: a rematch or the lobby
ends it.
"""

from __future__ import annotations

from bisect import bisect_right
from typing import Any

import msgpack

from engine.core import Game
from engine.record import PRIVATE_ACTIONS, RecordError, Replay
from net.fanout import Outbox, wire_time
from net.lobby import require_creator
from net.seats import Member, RequestError
from net.table import Table
from net.wire import errors

#: What anyone may know of a move besides its events: its kind and its aim.
SHOWN = ("type", "target", "on")
#: What the mover knew of its own move besides (a Got Five! mark's tile and mark).
OWN = (*SHOWN, "n", "mark")
#: Bytes of moves a ``review_moves`` frame holds at most, well inside a frame
#: (``net.wire.framing.MAX_FRAME``): a long Get It! game makes thousands of moves.
MOVES_PER_FRAME = 64 * 1024


class SharedReview:
    """One finished game played again, and where each member of the table is in it."""

    def __init__(self, record: dict[str, Any]) -> None:
        self.record = record
        self.game_id: str = record["game"]
        self.replay = Replay(record)
        #: The move the leader is at (0: as dealt); members following see it.
        self.at = 0
        #: Members the review was sent to and that have not closed it: only they are
        #: sent its positions (one who came back to the table follows it first).
        self.inside: set[Member] = set()
        #: Members stepping alone, and the move each is at.
        self.alone: dict[Member, int] = {}
        #: Seats whose player left the review (Esc): an app coming back to the table
        #: (``review_follow`` with ``auto``) does not take them into it again.
        self.left: set[int] = set()
        self._moves: dict[int | None, list[dict[str, Any]]] = {}
        #: For each seat, the record's number of each move it knew of, in order: a seat
        #: counts only those (another's Got Five! marks skipped in the numbering told,
        #: by its gaps, how many marks were made, and when).
        self._known: dict[int | None, list[int]] = {}
        self._parts: dict[int | None, list[tuple[int, list[dict[str, Any]]]]] = {}
        #: The game at the move last asked for (a step sends it to everyone following).
        self._game: tuple[int, Game] | None = None

    def __len__(self) -> int:
        return len(self.replay)

    # ---- what one seat knew --------------------------------------------------------

    def moves_for(self, seat: int | None) -> list[dict[str, Any]]:
        """Every move as ``seat`` knew it (``None``: a spectator): its number among
        those (the "moves" this seat counts: :meth:`seen_at`), mover (``None``: time
        acted), engine time, what may be known of the action, the public events and,
        for the seat's own GET OUT! draw, the card it drew."""
        if seat in self._moves:
            return self._moves[seat]
        drawn = self.replay.drawn() if self.game_id == "getout" else {}
        out: list[dict[str, Any]] = []
        known: list[int] = []
        for k, ((mover, action, now), events) in enumerate(
                zip(self.replay.moves, self.replay.events, strict=True), 1):
            entry: dict[str, Any] = {"n": len(out) + 1, "seat": mover, "time": now,
                                     "events": [wire_time(e, now) for e in events]}
            if mover is not None:
                kind = action.get("type")
                if mover != seat and (self.game_id, kind) in PRIVATE_ACTIONS and not events:
                    continue  # (only its mover saw it)
                keys = OWN if mover == seat else SHOWN
                entry["action"] = {key: action[key] for key in keys if key in action}
                if mover == seat and k in drawn:
                    entry["drew"] = drawn[k]
            out.append(entry)
            known.append(k)
        self._moves[seat], self._known[seat] = out, known
        return out

    def seen_at(self, at: int, seat: int | None) -> int:
        """How many moves ``seat`` knew of, of the record's first ``at``: its number
        for the last of them. Stepping onto another's Got Five! mark moves nobody else
        (its number, its time, a frame at all would tell them a mark was made, and
        when)."""
        self.moves_for(seat)
        return bisect_right(self._known[seat], at)

    def record_at(self, seen: int, seat: int | None) -> int:
        """The record's number of ``seat``'s move number ``seen`` (0: as dealt)."""
        self.moves_for(seat)
        return self._known[seat][seen - 1] if seen > 0 else 0

    def position(self, at: int, seat: int | None) -> dict[str, Any]:
        """``seat``'s view after ``at`` moves (its time left as seconds, as on the wire)."""
        if self._game is None or self._game[0] != at:
            self._game = (at, self.replay.game_at(at))
        game = self._game[1]
        return wire_time(game.view(seat), game.now)

    def time_at(self, at: int) -> float:
        """The engine time of move ``at`` (0 before the first)."""
        return float(self.replay.moves[at - 1][2]) if at > 0 else 0.0

    # ---- frames ------------------------------------------------------------------------

    def following(self, member: Member) -> bool:
        return member not in self.alone

    def at_of(self, member: Member) -> int:
        return self.alone.get(member, self.at)

    def frame_at(self, member: Member, leader: int | None) -> dict[str, Any]:
        """Where ``member`` is now, as it may see it."""
        seen = self.seen_at(self.at_of(member), member.seat)
        at = self.record_at(seen, member.seat)
        return {"type": "review_at", "at": seen, "time": self.time_at(at),
                "following": self.following(member),
                "leader_at": self.seen_at(self.at, member.seat), "leader": leader,
                "view": self.position(at, member.seat)}

    def state(self, table: Table, seat: int | None) -> dict[str, Any]:
        """Who is where, as ``seat`` may know it: the leader's move, and how many
        others follow or step alone."""
        others = [m for m in table.connections() if m in self.inside
                  and not (m.seat is not None and m.seat == table.creator)]
        alone = sum(1 for m in others if m in self.alone)
        return {"type": "review_state", "leader": table.creator,
                "leader_at": self.seen_at(self.at, seat),
                "following": len(others) - alone, "alone": alone}

    def tell(self, table: Table, out: Outbox, *, leader: bool = True,
             alone: bool = False, moved_from: int | None = None) -> None:
        """Add to ``out`` :meth:`state` for the leader and/or those stepping alone (they
        see where the leader is, the leader who follows); ``moved_from``: the leader
        stepped from there, and one who knew of no move between is told nothing."""
        for m in table.connections():
            if m not in self.inside:
                continue
            leads = m.seat is not None and m.seat == table.creator
            if moved_from is not None and not leads \
                    and self.seen_at(moved_from, m.seat) == self.seen_at(self.at, m.seat):
                continue
            if (leader and leads) or (alone and m in self.alone):
                out.messages.append((m, self.state(table, m.seat)))

    def opened(self, member: Member, leader: int | None, out: Outbox) -> None:
        """Add to ``out`` everything ``member`` needs to show the review: its list of
        moves (in parts), then the review itself at its position."""
        self.inside.add(member)
        moves = self.moves_for(member.seat)
        if member.seat not in self._parts:
            self._parts[member.seat] = _parts(moves)
        for start, part in self._parts[member.seat]:
            out.messages.append((member, {"type": "review_moves", "from": start,
                                          "moves": part}))
        frame = self.frame_at(member, leader)
        frame.update(type="review", game=self.game_id,
                     length=self.seen_at(len(self), member.seat),
                     moves=len(moves), seat=member.seat,
                     names=[p["name"] for p in self.record["players"]],
                     # (Who came to move for a seat after how many moves: as it counts.)
                     seated=[[self.seen_at(after, member.seat), *rest]
                             for after, *rest in self.record.get("seated", [])],
                     result=self.replay.final.result)
        out.messages.append((member, frame))


def _parts(moves: list[dict[str, Any]]) -> list[tuple[int, list[dict[str, Any]]]]:
    """``moves`` cut into parts of at most :data:`MOVES_PER_FRAME` packed bytes, each
    with the index of its first move."""
    parts: list[tuple[int, list[dict[str, Any]]]] = []
    start, size = 0, 0
    for i, move in enumerate(moves):
        length = len(msgpack.packb(move, use_bin_type=True))
        if size + length > MOVES_PER_FRAME and i > start:
            parts.append((start, moves[start:i]))
            start, size = i, 0
        size += length
    if start < len(moves):
        parts.append((start, moves[start:]))
    return parts


# ---- the requests (``net.handlers``) ----------------------------------------------------


def _review(table: Table) -> SharedReview:
    if table.review is None:
        raise RequestError(errors.WRONG_PHASE, "no review is open at this table")
    return table.review


def open_review(table: Table, member: Member, now: float) -> Outbox:
    """The creator opens a review of the game just over for everyone at the table (or
    brings everyone back to it, at the move where it stands)."""
    require_creator(table, member)
    table.require_phase("over")
    if table.review is None:
        # A review closed and opened again is the same game played again once: opening
        # costs one replay of the game per finished game, however often it is asked for.
        if table.reviewed is None:
            if table.game is None or table.tape is None:
                raise RequestError(errors.WRONG_PHASE, "this table keeps no game to review")
            try:
                table.reviewed = SharedReview(table.tape.record(table.game))
            except RecordError as exc:  # (a bug: the host's own tape did not replay)
                raise RequestError(errors.INTERNAL,
                                   f"the game cannot be replayed: {exc}") from None
        table.review = table.reviewed
    review = table.review
    review.alone.clear()
    review.inside.clear()
    out = Outbox()
    for m in table.connections():
        review.opened(m, table.creator, out)
    table.push(out, now)  # (the table says a review is open: one who closed it may follow)
    return out


def go(table: Table, member: Member, at: int) -> Outbox:
    """Move to ``at``: the creator takes everyone following along; anyone else steps
    alone (the creator's steps no longer move them until they follow again)."""
    review = _review(table)
    if member not in review.inside:
        raise RequestError(errors.BAD_REQUEST,
                           "you are not in the review: follow it first (review_follow)")
    length = review.seen_at(len(review), member.seat)  # (as this seat counts them)
    if at > length:
        raise RequestError(errors.BAD_REQUEST,
                           f"the game had {length} moves; there is no move {at}")
    at = review.record_at(at, member.seat)
    out = Outbox()
    leads = member.seat is not None and member.seat == table.creator
    if leads:
        was, review.at = review.at, at
        review.alone.pop(member, None)
        for m in table.connections():
            if m in review.inside and review.following(m) and (
                    m is member or review.seen_at(was, m.seat) != review.seen_at(at, m.seat)):
                out.messages.append((m, review.frame_at(m, table.creator)))
        review.tell(table, out, leader=False, alone=True, moved_from=was)
    else:
        went = member not in review.alone
        review.alone[member] = at
        out.messages.append((member, review.frame_at(member, table.creator)))
        if went:
            review.tell(table, out)
    return out


def follow(table: Table, member: Member, *, auto: bool = False) -> Outbox:
    """Back with the leader: the whole review again (it may have been closed). ``auto``:
    an app back at the table asks, not its player: not for a seat that left it."""
    review = _review(table)
    out = Outbox()
    if auto and member.seat in review.left:
        return out
    if member.seat is not None:
        review.left.discard(member.seat)
    review.alone.pop(member, None)
    review.opened(member, table.creator, out)
    review.tell(table, out)
    return out


def close(table: Table, member: Member, now: float) -> Outbox:
    """The creator ends the review for everyone; anyone else leaves it (and may come
    back with ``review_follow`` while it is open)."""
    review = _review(table)
    out = Outbox()
    if member.seat is not None and member.seat == table.creator:
        table.review = None
        for m in table.connections():
            if m in review.inside:
                out.messages.append((m, {"type": "review_closed", "seat": member.seat}))
        table.push(out, now)
    else:
        review.inside.discard(member)
        review.alone.pop(member, None)
        if member.seat is not None:
            review.left.add(member.seat)
        review.tell(table, out)
    return out
