"""One table: its seats, the game in play, its clock and its bots; no socket, no timer.

A table is the authority over its game. Called with a request or a wake-up and the host's
clock reading (``now``, monotonic seconds), it changes its state and returns an
:class:`Outbox`: the journal records to write first, then what each member must be sent
(:class:`net.fanout.Push` and plain messages). The host does the sending, and arms one
timer per table at :meth:`Table.next_wake` (its game's deadline or its bots' next look)
and calls :meth:`Table.wake` then: a table's rules are tested with a hand-held clock
(``tests/test_table.py``). The lobby's requests are in :mod:`net.lobby`.

Engine time is seconds since the game started, *frozen* while a game waits for its
people (resumed by a restarted host, or a person away while its clock ran: ``net.away``).
Turn-based bots are paced (``bot_delay`` after a move); real-time bots pace themselves.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

import msgpack

import engine
from engine.record import PRIVATE_ACTIONS, Tape, who
from net import away
from net import journal as j
from net.botseats import BotSeats
from net.fanout import Outbox, Push, Recipient, wire_time
from net.journal_resume import replay_game
from net.past import Past
from net.seats import HouseRules, Member, RequestError, Seat, check_moves, watch_allowance
from net.wire import errors

if TYPE_CHECKING:
    from net.shared_review import SharedReview

log = logging.getLogger("hiddenhand.host")

#: When a request is refused for the table's phase, in a player's words.
PHASE_WORDS = {"lobby": "before the game has started", "play": "once the game has started",
               "over": "once the game is over"}


class Table:
    """One table: lobby, seats, the game in play, its deadline and its bots."""

    def __init__(self, table_id: str, name: str, game_id: str, seats: int,
                 options: dict[str, Any], house: HouseRules) -> None:
        self.house, self.id, self.name = house, table_id, name
        self.game_id, self.options = game_id, options
        self.seats = [Seat() for _ in range(seats)]
        self.creator: int | None = None
        self.phase = "lobby"
        self.game: engine.Game | None = None
        self.spectators: list[Member] = []
        self.watchers = watch_allowance()  # (spectators coming: ``net.lobby.watch``)
        #: The host-clock time at which engine time was 0.
        self.t0 = 0.0
        #: Tables the host opened stay (players' go when idle); who opened it (``net.idle``).
        self.permanent = False
        self.opened_by: str | None = None
        self.opener: str | None = None
        #: The creator's seat while a present player stands in for its absent creator.
        self.creator_home: int | None = None
        #: This table's identity, part of every seat token (``net.seats.new_token``).
        self.uid = os.urandom(4).hex()
        #: Engine time held still while paused (or resumed, not yet run), or ``None``;
        #: paused: a game whose clock runs waits for every person (``net.away``); closed:
        #: no moves; resumed: restored by a restarted host, nobody back yet (``net.idle``).
        self.frozen: float | None = None
        self.paused, self.closed, self.resumed = False, False, False
        #: Set by a host that journals this table: its outboxes then carry records.
        self.journaling = False
        #: ``state_key()`` when last journaled, and ``act``/``adv`` records since.
        self._journaled: tuple[Any, ...] | None = None
        self._since_snapshot = 0
        self._public_packed: tuple[tuple[Any, ...], bytes] | None = None
        self._pack: Callable[[Any], bytes] = msgpack.Packer(use_bin_type=True).pack
        #: A deadline acted on that changed nothing (not woken for again).
        self._deadline_done: float | None = None
        self.bots = BotSeats()
        #: The game in play's moves, made its record when it is over (``engine.record``).
        self.tape: Tape | None = None
        #: The creator asked for the same game again: it is dealt once everyone is ready.
        self.rematch = False
        #: Host-clock time each absent person went (``net.away``: a bot may stand in);
        #: the tokens of people the creator removed, and their names (``net.lobby.kick``).
        self.away_since: dict[int, float] = {}
        self.removed: dict[str, str] = {}
        #: The table's recent past, as everyone at it was told it (``net.past``).
        self.past = Past(self._pack)
        #: The review of the game just over everyone follows (``net.shared_review``), and
        self.review: SharedReview | None = None  # the game played again for it, kept
        self.reviewed: SharedReview | None = None  # while the game is

    # ---- what others may know ----------------------------------------------------

    def public(self) -> dict[str, Any]:
        """The table as everyone at it may see it."""
        return {
            "id": self.id, "name": self.name, "game": self.game_id,
            "options": dict(self.options), "phase": self.phase, "creator": self.creator,
            "seats": [s.public(i) for i, s in enumerate(self.seats)],
            "spectators": len(self.spectators), "paused": self.paused,
            "review": self.review is not None, "rematch": self.rematch,
        }

    def state_key(self) -> tuple[Any, ...]:
        """Everything :meth:`public` and :meth:`persisted` read but the game: while it
        compares equal, both are what they were (cheap to compare, unlike packing)."""
        return (
            self.id, self.uid, self.name, self.game_id, tuple(self.options.items()),
            self.phase, self.creator, self.creator_home, self.permanent, self.opened_by,
            self.opener, len(self.spectators), self.paused, self.review is not None, self.rematch,
            tuple((s.kind, s.name, s.token, s.ready, s.conn is not None, s.stand_in_for,
                   s.player) for s in self.seats))

    def public_packed(self, key: tuple[Any, ...] | None = None) -> bytes:
        """:meth:`public`, packed with msgpack; packed again only when it changed
        (``key``: its ``state_key()``, if the caller has it already)."""
        if key is None:
            key = self.state_key()
        if self._public_packed is None or self._public_packed[0] != key:
            self._public_packed = (key, msgpack.packb(self.public(), use_bin_type=True))
        return self._public_packed[1]

    def summary(self) -> dict[str, Any]:
        """The short description used by ``list_tables`` and discovery."""
        return {
            "id": self.id, "name": self.name, "game": self.game_id, "seats": len(self.seats),
            "free": sum(1 for s in self.seats if s.kind == "empty"), "phase": self.phase,
            "uid": self.uid,  # (a seat token names it: which table of this id after a restart)
            # (Seats played from a live connection: an app keeping one says joining takes it.)
            "online": [i for i, s in enumerate(self.seats) if s.conn is not None],
        }

    def connections(self) -> list[Member]:
        """Every member connected at the table (seated players, then spectators)."""
        return [s.conn for s in self.seats if s.conn is not None] + list(self.spectators)

    def elapsed(self, now: float) -> float:
        """Engine time at host-clock time ``now``: seconds since the game started
        (standing still while the table is frozen)."""
        if self.frozen is not None:
            return self.frozen
        return now - self.t0

    def push(self, out: Outbox, now: float, events: Iterable[dict[str, Any]] = (),
             notices: Iterable[dict[str, Any]] = ()) -> None:
        """Add to ``out`` an update for everyone at the table (journaled first if changed)."""
        notices = [*notices, *away.hold(self, now)]  # (a person away as a clock runs)
        away.seat_movers(self)
        key = self.state_key()
        if self.journaling and key != self._journaled:
            self._record_state(out, key)
        if self.review is not None:
            # Someone came or went: the review's leader sees who follows now.
            self.review.tell(self, out)
        elapsed = self.elapsed(now)
        to: list[tuple[Recipient, int | None]] = [
            (s.conn, i) for i, s in enumerate(self.seats) if s.conn is not None]
        seats: list[int | None] = [i for _, i in to]
        if self.spectators:
            seats.append(None)
            to += [(c, None) for c in self.spectators]
        sent = [wire_time(e, elapsed) for e in events]
        told = list(notices)
        out.pushes.append(Push(
            self.game, self.public_packed(key), sent, told, to, elapsed=elapsed,
            pack=self._pack, seats=seats))
        out.changed = True
        if sent or told:
            self.remember(out, {"type": "update", "game": self.game_id, "events": sent,
                                "notices": told, "names": [s.name for s in self.seats]})

    def remember(self, out: Outbox, entry: dict[str, Any]) -> None:
        """Keep ``entry`` in the table's past, and in the journal (it outlives a crash)."""
        self.past.remember(entry)
        if self.journaling:
            out.records.append({"k": "past", "t": self.id, "e": entry})

    def update_for(self, member: Member, seat: int | None, events: list[dict[str, Any]],
                   notices: list[dict[str, Any]], now: float) -> Push:
        """An update for ``member`` alone, at ``seat``: an action only its own view
        shows, or the one update that catches up a member that was not reading."""
        return Push(self.game, self.public_packed(), events, notices, [(member, seat)],
                    elapsed=self.elapsed(now), pack=self._pack, seats=[seat])

    # ---- the journal (``net.journal``) ----------------------------------------------

    def persisted(self) -> dict[str, Any]:
        """The table as a journal ``table`` record (host-only: tokens, the game's secrets)."""
        return {
            "k": "table", "t": self.id, "uid": self.uid, "name": self.name,
            "game": self.game_id, "options": self.options, "phase": self.phase,
            "creator": self.creator, "permanent": self.permanent, "opened_by": self.opened_by,
            "opener": self.opener, "creator_home": self.creator_home,
            "seats": [{"kind": s.kind, "name": s.name, "token": s.token, "ready": s.ready,
                       "for": s.stand_in_for, "player": s.player} for s in self.seats],
            "snapshot": self.game.snapshot() if self.game is not None else None,
            "tape": self.tape.data() if self.tape is not None else None,
        }

    def checkpoint(self) -> dict[str, Any]:
        """The whole table as a journal record, counted as journaled from here on (the
        host rewrites its journal from these)."""
        self._journaled = self.state_key()
        self._since_snapshot = 0
        return self.persisted()

    def _record_state(self, out: Outbox, key: tuple[Any, ...], force: bool = False) -> None:
        if not self.journaling or (not force and key == self._journaled):
            return
        self._journaled = key
        self._since_snapshot = 0
        out.records.append(self.persisted())

    def _record_op(self, out: Outbox, record: dict[str, Any]) -> None:
        if not self.journaling:
            return
        out.records.append(record)
        self._since_snapshot += 1
        if j.snapshot_due(self._since_snapshot, len(self.tape.moves) if self.tape else 0):
            self._record_state(out, self.state_key(), force=True)  # the periodic snapshot

    @classmethod
    def restore(cls, record: dict[str, Any], ops: list[dict[str, Any]],
                house: HouseRules, past: Iterable[dict[str, Any]] = ()) -> Table:
        """Rebuild a table from its last ``table`` record and the actions after it: each
        person's seat disconnected, with its name and token; a game in play frozen at the
        engine time of its last acknowledged change."""
        seats = record["seats"]
        table = cls(record["t"], record["name"], record["game"], len(seats),
                    dict(record["options"]), house)
        table.uid, table.phase = record["uid"], record["phase"]
        table.creator, table.permanent = record["creator"], bool(record["permanent"])
        table.opened_by, table.opener = record.get("opened_by"), record.get("opener")
        table.creator_home = record.get("creator_home")  # (checked: net.journal_resume)
        for entry in past:
            table.past.remember(entry)
        for seat, saved in zip(table.seats, seats, strict=True):
            seat.kind, seat.name, seat.token = saved["kind"], saved["name"], saved["token"]
            seat.stand_in_for, seat.player = saved.get("for"), saved.get("player")
            seat.ready = bool(saved["ready"]) and seat.kind != "human"
        if record.get("snapshot") is not None:
            game, table.tape = replay_game(record["snapshot"], ops, record.get("tape"))
            table.game = game
            if game.over and table.phase == "play":
                table.phase = "over"
            if table.phase == "play":
                table.frozen = game.now
                table.paused = game.deadline is not None
                for i, s in enumerate(table.seats):
                    if s.kind == "bot":
                        s.bot = house.bot_factory(table.game_id, i, house.seed_source())
        return table

    # ---- seats ----------------------------------------------------------------------

    def seat_of(self, member: Member) -> int:
        """The seat bound to ``member``, or a refusal if it holds none here."""
        if member.table is not self or member.seat is None:
            raise RequestError(errors.NO_SEAT, "you hold no seat at this table")
        return member.seat

    def require_phase(self, *phases: str) -> None:
        """Refuse unless the table is in one of ``phases``."""
        if self.phase not in phases:
            when = PHASE_WORDS.get(self.phase, f"while the table is in its {self.phase} phase")
            raise RequestError(errors.WRONG_PHASE, f"that is not possible {when}")

    def away(self) -> list[int]:
        """Seats of people who are not connected."""
        return [i for i, s in enumerate(self.seats) if s.kind == "human" and s.conn is None]

    def detach(self, member: Member) -> list[dict[str, Any]]:
        """Unbind ``member``; a held seat stays (disconnected). The notices that say so."""
        notice: dict[str, Any] | None = None
        notices: list[dict[str, Any]] = []
        if self.review is not None:
            self.review.inside.discard(member)
            self.review.alone.pop(member, None)
        if member in self.spectators:
            self.spectators.remove(member)
            notice = {"type": "stopped_watching", "name": member.name}
        elif member.seat is not None and self.seats[member.seat].conn is member:
            self.seats[member.seat].conn = None
            self.seats[member.seat].ready = False
            notice = {"type": "disconnected", "seat": member.seat}
            if self.creator == member.seat:
                # The table must not stall on an absent creator: a present player stands
                # in, said so, until the creator is back (``net.lobby.rejoin``).
                present = [i for i, s in enumerate(self.seats) if s.conn is not None]
                if present:
                    if self.creator_home is None:
                        self.creator_home = member.seat
                    self.creator = present[0]
                    notices.append({"type": "creator", "seat": present[0]})
        member.table, member.seat = None, None
        return [notice, *notices] if notice is not None else notices

    def disconnect(self, member: Member, now: float) -> Outbox:
        """``member``'s connection is gone: its seat waits for it, and everyone is told."""
        seat = member.seat
        notices = self.detach(member)
        if any(n["type"] == "disconnected" for n in notices) and seat is not None:
            away.went_away(self, seat, now)
        out = Outbox()
        self.push(out, now, notices=notices)  # journals a new creator too
        return out

    # ---- the game ---------------------------------------------------------------------

    def start(self, now: float, notices: Iterable[dict[str, Any]] = ()) -> Outbox:
        """Deal the game: every seat filled, every other human ready (``notices``: told
        with the start)."""
        for i, s in enumerate(self.seats):
            if s.kind == "empty":
                raise RequestError(
                    errors.BAD_REQUEST, f"seat {i + 1} is empty: wait for a player or add a bot"
                )
        for i, s in enumerate(self.seats):
            if s.kind == "human" and i != self.creator and not s.ready:
                raise RequestError(errors.BAD_REQUEST, f"{s.name} (seat {i + 1}) is not ready yet")
        house, seed = self.house, self.house.seed_source()
        try:
            self.game = engine.new_game(self.game_id, len(self.seats), seed, self.options)
        except ValueError as exc:
            raise RequestError(errors.BAD_REQUEST, str(exc)) from None
        self.tape = Tape(self.game_id, len(self.seats), seed, self.game.options, [
            {"name": s.name, "kind": "bot" if s.kind == "bot" else "human"} for s in self.seats])
        for i, s in enumerate(self.seats):
            if s.kind == "bot":
                s.bot = house.bot_factory(self.game_id, i, house.seed_source())
        self.t0 = now
        self.phase, self.rematch = "play", False
        return self.changed([], [*notices, {"type": "started"}], now)

    def act(self, seat: int, action: dict[str, Any], now: float) -> Outbox:
        """Apply ``seat``'s action (the seat bound to its member, never a message's)."""
        out = Outbox()
        self.apply(out, seat, action, now)
        return out

    def apply(self, out: Outbox, seat: int, action: dict[str, Any], now: float,
              at: float | None = None) -> None:
        """Apply ``seat``'s action, adding what it changes to ``out``."""
        self.require_phase("play")
        away.check_paused(self)
        check_moves(self.tape, seat, len(self.seats), action)
        game = self.game
        assert game is not None
        if at is None:
            # A deadline met a hair before the clock may have moved engine time past it.
            at = max(self.elapsed(now), game.now)
        try:
            events = game.act(seat, action, now=at)
        except engine.IllegalAction as exc:
            raise RequestError(errors.ILLEGAL_ACTION, str(exc)) from None
        if self.tape is not None:
            self.tape.act(seat, action, at)
        self._record_op(out, {"k": "act", "t": self.id, "s": seat, "a": action, "n": at})
        if (self.game_id, action.get("type")) in PRIVATE_ACTIONS and not events:
            # Only the acting seat's view changed; telling the others would be wasted
            # traffic, and would tell them when this seat marks its board.
            conn = self.seats[seat].conn
            if conn is not None:
                out.pushes.append(self.update_for(conn, seat, [], [], now))
            self._deadline_done = None
            return
        self._changed(out, events, [], now)

    def changed(self, events: list[dict[str, Any]], notices: list[dict[str, Any]],
                now: float) -> Outbox:
        """After any change to the game (also one made from outside, by a tool or a
        test): note the end, push to everyone, let the deadline and the bots look again."""
        out = Outbox()
        self._changed(out, events, notices, now)
        return out

    def _changed(self, out: Outbox, events: list[dict[str, Any]],
                 notices: list[dict[str, Any]], now: float) -> None:
        assert self.game is not None
        if self.game.over and self.phase == "play":
            self.phase = "over"
            notices = [*notices, {"type": "game_over", "result": self.game.result}]
            if (record := self.record()) is not None:
                out.finished.append(record)
        self.push(out, now, events, notices)
        self._deadline_done = None
        self.wake_bots(now)

    def record(self) -> dict[str, Any] | None:
        """The game's record as it stands (over, or ended unfinished: its result then
        ``None``), whose each person's seat was in it (for their eyes only in a review);
        ``None`` for a game not taped."""
        if self.tape is None or self.game is None:
            return None
        record = self.tape.record(self.game)
        for p, s in zip(record["players"], self.seats, strict=True):
            if p["kind"] == "human" and s.player:
                p["who"] = who(s.player)
        return record

    def unfinished_record(self) -> dict[str, Any] | None:
        """:meth:`record` of a game ended early, if a person moved in it (a solo game left
        at once was kept: the bots arranging, nothing of the player's)."""
        return self.record() if self.tape is not None and self.tape.person_moved() else None

    def thaw(self, now: float) -> None:
        """Let engine time run again from where it stood."""
        if self.frozen is not None:
            self.t0 = now - self.frozen
            self.frozen = None
        self._deadline_done = None
        self.wake_bots(now)

    # ---- waking: the deadline and the bots ---------------------------------------------

    def _running(self) -> bool:
        return (self.game is not None and self.phase == "play" and self.frozen is None
                and not self.closed)

    def next_wake(self) -> float | None:
        """The host-clock time at which :meth:`wake` must be called next: the game's
        deadline or the bots' next look, whichever comes first (``None``: neither)."""
        game = self.game
        if game is None or self.phase != "play" or self.closed:
            return None
        stand_in = away.due(self)
        if self.frozen is not None:  # (paused: only a bot standing in lets it run on)
            return stand_in
        when = self.bots.due
        if stand_in is not None and (when is None or stand_in < when):
            when = stand_in
        deadline = game.deadline
        if deadline is not None and deadline != self._deadline_done:
            at = self.t0 + deadline
            if when is None or at < when:
                when = at
        return when

    def wake(self, now: float) -> Outbox:
        """Called at :meth:`next_wake` (``now`` never before it): let time act on the
        game if its deadline has come, else let the bots move if it is their time."""
        out = Outbox()
        game = self.game
        if game is None or self.phase != "play" or self.closed:
            return out
        deadline = game.deadline if self.frozen is None else None
        if (deadline is not None and deadline != self._deadline_done
                and now >= self.t0 + deadline):
            # Woken for the deadline: it has come, whatever the sum of floats says.
            at = max(self.elapsed(now), deadline, game.now)
            events = game.advance(at)
            if self.tape is not None:
                self.tape.advance(at)
            if events:
                self._record_op(out, {"k": "adv", "t": self.id, "n": at})
                self._changed(out, events, [], now)
                return out
            later = game.deadline
            if later is not None and later <= at:
                self._deadline_done = later
        stand_in = away.due(self)
        if stand_in is not None and now >= stand_in:
            away.hand_over(self, out, now)
        if self.frozen is None and self.bots.due is not None and now >= self.bots.due:
            self._try_bots(out, now)
        return out

    def wake_bots(self, now: float) -> None:
        """Let the table's bots look at the new state now, or once a paced bot's rest
        is over."""
        if self.frozen is None and self.phase == "play" and any(
                s.kind == "bot" for s in self.seats):
            self.bots.wake(now)

    def move_bots(self, now: float) -> Outbox:
        """Let the bots look at the table now: the first in turn with something to do
        moves (one move a call). Then the bots look again at once after a real-time
        bot's move, ``bot_delay`` later after a turn-based one's, at the earliest time a
        real-time bot asked for if none moved, or at the next change."""
        out = Outbox()
        if self._running():
            self._try_bots(out, now)
        return out

    def _try_bots(self, out: Outbox, now: float) -> None:
        try:
            self.bots.move(self, out, now)
        except Exception:
            log.exception("bots at table %s failed", self.id)
            self.bots.due = None

    def close(self) -> None:
        """Stop the table: no more wake-ups, no more bot moves."""
        self.closed = True
