"""The authoritative host: one asyncio server holding one or more tables.

A table has a game, its options and seats (human, bot or empty). In the lobby players
join, pick seats, rename, get ready and chat; the table's creator changes the game and
options, adds and removes bots, kicks and starts. In play the host applies each seat's
actions to the engine and, after every change, pushes to each connection only
``view(its seat)`` (the spectator view for spectators) with that seat's legal actions
and the public events — never a snapshot, the seed or another seat's view. A view's
engine-time ``deadline`` crosses the wire as ``remaining`` seconds, and timed games are
woken by a timer set at the next deadline.

A seat is bound to the connection that holds it; an action's seat is never read from
the message. Each seat has a random token that lets a dropped player take it back.

No peer may slow the others: output per connection is bounded and a peer that does not
read gets its updates coalesced, then is dropped; limits per client address and
human-scale allowances (``net.limits``) keep one machine from filling the host or
flooding a table. With a journal (``net.journal``) every acknowledged change is durable
first, and ``Host.resume`` brings the tables back after a crash.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import errno
import itertools
import logging
import os
import re
import socket
import time
import unicodedata
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any, Protocol

import msgpack

import engine
from engine.bots import RandomBot, make_bot
from net import journal as j
from net.limits import Bucket, Limits
from net.wire import codec, errors, framing, schemas, stream

log = logging.getLogger("hiddenhand.host")

#: Seconds a closed connection has to take its last frames before it is cut off.
CLOSE_GRACE = 5.0
#: Requests that reach other people, by the human-scale allowance they spend.
SOCIAL = {
    "chat": "chat",
    "rename": "rename",
    **{
        kind: "lobby"
        for kind in ("create_table", "join", "leave", "pick_seat", "ready", "configure",
                     "add_bot", "remove_bot", "kick", "start", "to_lobby")
    },
}
#: What a peer is told when it spends an allowance too fast.
SLOW_DOWN = {
    "chat": "you are sending chat lines too fast; wait a moment",
    "rename": "you are changing your name too often; wait a moment",
    "lobby": "you are joining, leaving or changing the table too fast; wait a moment",
}
#: One address may spend this many times one connection's allowances.
ADDRESS_FACTOR = 3
#: Actions that change only the acting seat's own view: pushed to that seat alone.
PRIVATE_ACTIONS = frozenset({("gotfive", "mark")})


class Bot(Protocol):
    """What the host needs of a bot: pick an action from its view and legal actions."""

    def choose(self, view: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any] | None:
        """One of ``legal`` (or ``None`` to do nothing now)."""
        ...


#: ``bot_factory(game_id, seat, seed)`` makes the bot that plays ``seat``.
BotFactory = Callable[[str, int, int], Bot]


def random_bot_factory(game_id: str, seat: int, seed: int) -> Bot:
    """A random-legal player (it cannot finish Get It! or Got Five!: tests only)."""
    return RandomBot(seed)


def real_bot_factory(game_id: str, seat: int, seed: int) -> Bot:
    """The default bot factory: the strongest bot of each game (``engine.bots.make_bot``)."""
    return make_bot(game_id, seat, seed)


def _random_seed() -> int:
    """A seed from the system's secure generator, below 2**62. (``os.urandom`` is what
    ``secrets`` draws from; importing ``secrets`` would cost every start ~1 ms.)"""
    return int.from_bytes(os.urandom(8), "big") >> 2


def _same_secret(a: str, b: str) -> bool:
    """``a == b`` in time that does not tell how much of ``b`` was right."""
    from hmac import compare_digest  # only when a seat is taken back

    return compare_digest(a.encode(), b.encode())


def _token(nbytes: int) -> str:
    """A URL-safe random text of ``nbytes`` secure random bytes (``secrets.token_urlsafe``)."""
    return base64.urlsafe_b64encode(os.urandom(nbytes)).rstrip(b"=").decode("ascii")


#: Cyrillic and Greek letters (casefolded) that look like a Latin letter in either case:
#: "Аnn" with a Cyrillic А, or "Βοt 2" in Greek, is "Ann" and "Bot 2" to the eye.
#: (The common look-alikes of Unicode's confusables list; other scripts are not folded.)
_LOOK_ALIKES = str.maketrans(
    "авекмнорстухіјѕԁԛԝүһӏь"  # Cyrillic
    "αβεζηικμνορτυχ",  # Greek
    "abekmhopctyxijsdqwyhlb"
    "abezhikmnoptyx",
)


def name_key(name: str) -> str:
    """What two names are compared by: "ANN", "Ann", "ａｎｎ" and "Аnn" (a Cyrillic А)
    are one name."""
    return unicodedata.normalize("NFKC", name).casefold().translate(_LOOK_ALIKES).strip()


#: Names a person may not take: they would pass for a bot, a seat or a spectator.
_RESERVED_NAME = re.compile(r"^(bot|seat|spectator) ?\d*$|\((spectator|seat\b.*|bot\b.*)\)$")


def check_name(name: str) -> str:
    """Refuse a display name that imitates a bot, a seat or a spectator label."""
    key = name_key(name)
    squeezed = re.sub(r"[\s._\-]+", " ", key)
    if _RESERVED_NAME.search(squeezed):
        raise RequestError(
            errors.BAD_REQUEST,
            f"the name {name!r} would pass for a bot, a seat or a spectator; choose another",
        )
    return name


class RequestError(Exception):
    """A request the host refuses; becomes an ``error`` frame with ``code``."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class Seat:
    """One seat of a table: who sits there and how to reach them.

    (A plain class: as a dataclass, making the class took ~1.3 ms of the solo table's
    first frame, scripts/bench_startup.py.)"""

    __slots__ = ("bot", "conn", "kind", "name", "ready", "token")

    def __init__(self, kind: str = "empty", name: str = "", token: str | None = None,
                 conn: Connection | None = None, ready: bool = False,
                 bot: Bot | None = None) -> None:
        self.kind = kind  # "human" | "bot" | "empty"
        self.name = name
        self.token = token
        self.conn = conn
        self.ready = ready
        self.bot = bot

    def __repr__(self) -> str:
        return (f"Seat(kind={self.kind!r}, name={self.name!r}, conn={self.conn!r}, "
                f"ready={self.ready!r}, bot={self.bot!r})")

    def public(self, index: int) -> dict[str, Any]:
        """What everyone at the table may know of this seat."""
        return {
            "seat": index,
            "kind": self.kind,
            "name": self.name,
            "connected": self.kind == "bot" or self.conn is not None,
            "ready": self.ready or self.kind == "bot",
        }

    def clear(self) -> None:
        """Empty the seat; its token stops working."""
        self.kind, self.name, self.token, self.conn = "empty", "", None, None
        self.ready, self.bot = False, None


_connection_ids = itertools.count(1)


class Connection:
    """One client connection: its stream, its name, and the seat bound to it.

    Output is bounded: while the transport holds more than ``limits.out_high`` unsent
    bytes the connection is *congested* — new updates are not queued but coalesced into
    one (the latest view, with the events and notices of those skipped), other frames
    wait in a bounded queue, and one flusher task sends them once the peer reads again.
    A peer that stays congested for ``limits.max_skipped`` updates, or whose queue
    passes ``limits.out_limit`` bytes, is dropped. Nobody else ever waits for it.
    """

    def __init__(
        self,
        reader: stream.FrameReader,
        writer: stream.FrameWriter,
        now: float,
        burst: int,
        limits: Limits | None = None,
    ) -> None:
        self.id = next(_connection_ids)
        self.reader = reader
        self.writer = writer
        self.limits = limits or Limits()
        self.name = ""
        self.welcomed = False
        self.table: Table | None = None
        self.seat: int | None = None
        self.last_seen = now
        #: The host's ``stalled`` total when this peer was last heard.
        self.stalled_seen = 0.0
        self.opened = now
        self.allowance = float(burst)
        self.warned = False
        self.closed = False
        #: Human-scale rate limits by kind of request (chat, rename, lobby).
        self.buckets: dict[str, Bucket] = {}
        self.congested = False
        self.skipped = 0
        self._held: Table | None = None
        self._held_events: list[dict[str, Any]] = []
        self._held_notices: list[dict[str, Any]] = []
        self._queued: list[bytes] = []
        self._queued_bytes = 0
        #: The table's public part (packed) in the last update sent here: an update
        #: carries it only when it changed (``docs/protocol.md``).
        self.table_sent: bytes | None = None
        #: The game, seat and view (its shared and its own part, ``Game.view_parts``)
        #: of the last update sent here: the next update of the same game and seat
        #: carries only what changed (``view_changes``).
        self.view_sent: (
            tuple[engine.Game, int | None, dict[str, Any], dict[str, Any]] | None) = None
        self._flusher: asyncio.Task[None] | None = None
        #: Frames go straight to the transport (what ``StreamWriter.write`` does).
        self.transport: asyncio.WriteTransport = writer.transport
        peer = writer.get_extra_info("peername")
        self.address = peer[0] if isinstance(peer, tuple) else "local"
        self.peer = f"{peer[0]}:{peer[1]}" if isinstance(peer, tuple) else "local"
        with contextlib.suppress(AttributeError, NotImplementedError):
            writer.transport.set_write_buffer_limits(high=self.limits.out_high)
        sock = writer.get_extra_info("socket")
        if sock is not None and self.limits.send_buffer:
            # A fixed kernel buffer: autotuning would let megabytes pile up unseen
            # behind a peer that does not read, before the host could notice it.
            with contextlib.suppress(OSError):
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, self.limits.send_buffer)

    def send(self, message: dict[str, Any]) -> None:
        """Queue one message; a peer that stops reading is dropped, not waited for."""
        if self.closed:
            return
        try:
            frame = codec.pack(message)
        except ValueError:
            # Only a bug can make a message too big; say so rather than send half of it.
            log.error("connection %d: a %s message is too large", self.id, message["type"])
            frame = codec.pack(errors.error(errors.INTERNAL, "the host could not send a message"))
        self.send_frame(frame)

    def send_frame(self, frame: bytes) -> None:
        """Queue one packed frame (behind the others if the peer is not reading)."""
        if self.closed:
            return
        if self.congested:
            self._queued.append(frame)
            self._queued_bytes += len(frame)
            if self._queued_bytes > self.limits.out_limit:
                self.drop_slow(f"over {self.limits.out_limit} bytes wait for it")
            return
        transport = self.transport
        try:
            transport.write(frame)
        except (ConnectionError, RuntimeError):
            self.abort()
            return
        if transport.get_write_buffer_size() > self.limits.out_high:
            self._congest()

    def send_update(self, table: Table, seat: int | None, push: Push) -> None:
        """Send this connection its update of ``push``, or coalesce it while congested."""
        if self.closed:
            return
        if not self.congested:
            self.send_frame(table.frame_for(self, seat, push))
            return
        if self._held is not table:
            self._held_events, self._held_notices = [], []
        self._held = table
        self._held_events.extend(push.events)
        self._held_notices.extend(push.notices)
        self.skipped += 1
        if self.skipped > self.limits.max_skipped:
            self.drop_slow(f"{self.skipped} updates behind")

    def queued_bytes(self) -> int:
        """Bytes this connection holds unsent (transport and queue)."""
        size = self._queued_bytes
        with contextlib.suppress(Exception):
            size += self.writer.transport.get_write_buffer_size()
        return size

    def _congest(self) -> None:
        """The transport holds more than ``limits.out_high``: hold further updates back
        until one flusher has sent what waits (see the class)."""
        if not self.congested:
            self.congested = True
            self._flusher = asyncio.get_running_loop().create_task(self._flush())

    async def _flush(self) -> None:
        """Once the peer reads again: its latest view, then whatever else waited."""
        try:
            while not self.closed:
                await self.writer.drain()
                if self.closed:
                    return
                table, self._held = self._held, None
                events, notices = self._held_events, self._held_notices
                self._held_events, self._held_notices = [], []
                queued, self._queued, self._queued_bytes = self._queued, [], 0
                if table is not None and table is self.table:
                    push = Push(table, events, notices, seats=[self.seat])
                    self.writer.write(table.frame_for(self, self.seat, push))
                for frame in queued:
                    self.writer.write(frame)
                if self.writer.transport.get_write_buffer_size() <= self.limits.out_high:
                    self.congested, self.skipped = False, 0
                    return
        except Exception:
            self.abort()
        finally:
            self._flusher = None

    def drop_slow(self, why: str) -> None:
        """Drop a peer that does not read what it is sent."""
        log.warning("connection %d reads too slowly (%s); dropping it", self.id, why)
        self.abort()

    def fail(self, code: str, message: str, ref: int | str | None = None) -> None:
        """Send an ``error`` frame."""
        self.send(errors.error(code, message, ref))

    def close(self) -> None:
        """Close after the queued frames are sent (a peer that is not reading them is cut
        off at once, and any peer within a few seconds: a close never waits on it)."""
        if self.closed:
            return
        if self.congested:
            self.abort()
            return
        self.closed = True
        with contextlib.suppress(Exception):
            self.writer.close()
            asyncio.get_running_loop().call_later(CLOSE_GRACE, self.writer.transport.abort)

    def abort(self) -> None:
        """Close at once, discarding anything unsent."""
        self.closed = True
        self._queued, self._queued_bytes, self._held = [], 0, None
        self._held_events, self._held_notices = [], []
        if self._flusher is not None and self._flusher is not asyncio.current_task():
            self._flusher.cancel()
        with contextlib.suppress(Exception):
            self.writer.transport.abort()


_NIL = msgpack.packb(None)
_EMPTY = msgpack.packb([])
_NO_ENTRIES = (0, b"")


class Push:
    """What one push sends every connection at a table, made once for all of them: the
    table's public part, the events and notices, and the part of the views every seat
    shares (``Game.view_parts``: built, compared and packed once, not once a seat)."""

    __slots__ = ("_changes", "_own", "_seats", "_shared", "_shared_entries", "events",
                 "notices", "table", "tail", "where")

    def __init__(
        self,
        table: Table,
        events: list[dict[str, Any]],
        notices: list[dict[str, Any]],
        key: tuple[Any, ...] | None = None,
        seats: list[int | None] | None = None,
    ) -> None:
        self.where = table
        self.events = events
        self.notices = notices
        self.table = table.public_packed(key)
        self.tail = codec.update_tail(events, notices)
        #: The seats whose views this push sends (``None``: the spectators'); by default
        #: those of every connection at the table.
        self._seats = seats
        self._shared: dict[str, Any] | None = None
        self._own: dict[int | None, dict[str, Any]] = {}
        self._shared_entries: tuple[int, bytes] | None = None
        #: What changed in the shared part since one sent before, by that part's id
        #: (most connections were sent the same one): the part itself and the result.
        self._changes: dict[int, tuple[dict[str, Any], tuple[int, bytes] | None]] = {}

    def view_of(self, seat: int | None) -> tuple[dict[str, Any], dict[str, Any]]:
        """The shared part and ``seat``'s own part of its view, fit for the wire."""
        if self._shared is None or seat not in self._own:
            table = self.where
            assert table.game is not None
            seats = self._seats if self._seats is not None else table.audience()
            if seat not in seats:
                seats = [*seats, seat]
            shared, own = table.game.view_parts(seats)
            self._shared = table.wire_time(shared)
            self._own = {s: table.wire_time(o) for s, o in zip(seats, own, strict=True)}
            self._shared_entries = None
            self._changes.clear()
        return self._shared, self._own[seat]

    def shared_entries(self, pack: Callable[[Any], bytes]) -> tuple[int, bytes]:
        """The shared part, packed as map entries (see ``protocol.map_entries``)."""
        if self._shared_entries is None:
            self._shared_entries = codec.map_entries(pack(self._shared))
        return self._shared_entries

    def shared_changes(
        self, before: dict[str, Any], pack: Callable[[Any], bytes]
    ) -> tuple[int, bytes] | None:
        """What changed in the shared part since ``before``, packed as map entries, or
        ``None`` if only the whole view can say it (``protocol.view_changes``)."""
        known = self._changes.get(id(before))
        if known is not None and known[0] is before:
            return known[1]
        assert self._shared is not None
        delta = codec.view_changes(before, self._shared)
        result = None if delta is None else codec.map_entries(pack(delta))
        self._changes[id(before)] = (before, result)
        return result


class Table:
    """One table: lobby, seats, the game in play, its timer and its bots."""

    def __init__(
        self,
        host: Host,
        table_id: str,
        name: str,
        game_id: str,
        seats: int,
        options: dict[str, Any],
    ) -> None:
        self.host = host
        self.id = table_id
        self.name = name
        self.game_id = game_id
        self.options = options
        self.seats = [Seat() for _ in range(seats)]
        self.creator: int | None = None
        self.phase = "lobby"
        self.game: engine.Game | None = None
        self.spectators: list[Connection] = []
        self.t0 = 0.0
        self._timer: asyncio.TimerHandle | None = None
        self._bot_wake = asyncio.Event()
        self._bot_task: asyncio.Task[None] | None = None
        self._bot_timer: asyncio.TimerHandle | None = None
        self._bot_turn = 0
        #: Tables opened by the host itself stay; tables opened by players go when idle.
        self.permanent = False
        #: The client address that opened the table (``None``: the host did).
        self.opened_by: str | None = None
        #: This table's identity, part of every seat token: a token from a table that
        #: is gone (the host restarted without it) is recognised as such.
        self.uid = os.urandom(4).hex()
        #: Engine time held still (a resumed game waiting to run again), or ``None``.
        self.frozen: float | None = None
        #: A resumed game with a running clock waits until every person is back.
        self.paused = False
        #: ``state_key()`` when the table was last journaled / its public part packed.
        self._journaled: tuple[Any, ...] | None = None
        self._public_packed: tuple[tuple[Any, ...], bytes] | None = None
        self._since_snapshot = 0
        self.idle_timer: asyncio.TimerHandle | None = None

    # ---- what others may know ----------------------------------------------------

    def public(self) -> dict[str, Any]:
        """The table as everyone at it may see it."""
        return {
            "id": self.id,
            "name": self.name,
            "game": self.game_id,
            "options": dict(self.options),
            "phase": self.phase,
            "creator": self.creator,
            "seats": [s.public(i) for i, s in enumerate(self.seats)],
            "spectators": len(self.spectators),
            "paused": self.paused,
        }

    def state_key(self) -> tuple[Any, ...]:
        """Everything :meth:`public` and ``persisted(with_game=False)`` read, as a
        tuple: while it compares equal, both are what they were (cheap to compare on
        every push, unlike packing either)."""
        return (
            self.id, self.uid, self.name, self.game_id, tuple(self.options.items()),
            self.phase, self.creator, self.permanent, self.opened_by, len(self.spectators),
            self.paused,
            tuple((s.kind, s.name, s.token, s.ready, s.conn is not None) for s in self.seats),
        )

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
            "id": self.id,
            "name": self.name,
            "game": self.game_id,
            "seats": len(self.seats),
            "free": sum(1 for s in self.seats if s.kind == "empty"),
            "phase": self.phase,
        }

    def connections(self) -> list[Connection]:
        """Every live connection at the table (seated players, then spectators)."""
        conns = [s.conn for s in self.seats if s.conn is not None]
        return conns + list(self.spectators)

    def elapsed(self) -> float:
        """Engine time: seconds since the game started, on the host's monotonic clock.

        While the table is frozen (resumed, not yet running) engine time stands still.
        """
        if self.frozen is not None:
            return self.frozen
        return self.host.clock() - self.t0

    # ---- crash recovery ---------------------------------------------------------------

    def persisted(self, *, with_game: bool = True) -> dict[str, Any]:
        """The table as a journal ``table`` record (host-only: tokens, the game's secrets)."""
        record: dict[str, Any] = {
            "k": "table",
            "t": self.id,
            "uid": self.uid,
            "name": self.name,
            "game": self.game_id,
            "options": self.options,
            "phase": self.phase,
            "creator": self.creator,
            "permanent": self.permanent,
            "opened_by": self.opened_by,
            "seats": [
                {"kind": s.kind, "name": s.name, "token": s.token, "ready": s.ready}
                for s in self.seats
            ],
        }
        if with_game:
            record["snapshot"] = self.game.snapshot() if self.game is not None else None
        return record

    @classmethod
    def restore(
        cls, host: Host, record: dict[str, Any], ops: list[dict[str, Any]]
    ) -> Table:
        """Rebuild a table from its last ``table`` record and the actions after it.

        Every person's seat comes back disconnected, with its name and token; a game in
        play comes back frozen at the engine time of its last acknowledged change.
        """
        seats = record["seats"]
        table = cls(host, record["t"], record["name"], record["game"], len(seats),
                    dict(record["options"]))
        table.uid, table.phase = record["uid"], record["phase"]
        table.creator, table.permanent = record["creator"], bool(record["permanent"])
        table.opened_by = record.get("opened_by")
        for seat, saved in zip(table.seats, seats, strict=True):
            seat.kind, seat.name, seat.token = saved["kind"], saved["name"], saved["token"]
            seat.ready = bool(saved["ready"]) and seat.kind != "human"
        if record.get("snapshot") is not None:
            game = engine.restore(record["snapshot"])
            for op in ops:
                if op["k"] == "act":
                    game.act(op["s"], op["a"], now=op["n"])
                else:
                    game.advance(op["n"])
            table.game = game
            if game.over and table.phase == "play":
                table.phase = "over"
            if table.phase == "play":
                table.frozen = game.now
                table.paused = game.deadline is not None
                for i, s in enumerate(table.seats):
                    if s.kind == "bot":
                        s.bot = host.bot_factory(table.game_id, i, host.seed_source())
        return table

    def away(self) -> list[int]:
        """Seats of people who are not connected."""
        return [i for i, s in enumerate(self.seats) if s.kind == "human" and s.conn is None]

    def thaw(self) -> None:
        """Let engine time run again from where it stood."""
        if self.frozen is not None:
            self.t0 = self.host.clock() - self.frozen
            self.frozen = None
        self.arm_timer()
        self.wake_bots()

    def resume_if_everyone_is_back(self) -> None:
        """A paused resumed game goes on once every person has their seat back."""
        if self.paused and not self.away():
            self.paused = False
            log.info("table %s: everyone is back; the game goes on", self.id)
            self.thaw()
            self.push(notices=[{"type": "resumed"}])

    def check_paused(self) -> None:
        """Refuse while a resumed game waits for its players."""
        if self.paused:
            names = ", ".join(f"{self.seats[i].name} (seat {i + 1})" for i in self.away())
            raise RequestError(
                errors.WRONG_PHASE,
                f"the game is paused until everyone is back after the host restarted; "
                f"waiting for {names}",
            )

    def seat_view(self, seat: int | None) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """``view(seat)`` fit for the wire, and that seat's legal actions.

        The engine's ``deadline`` (engine time) becomes ``remaining`` seconds.
        """
        assert self.game is not None
        view = self.wire_time(self.game.view(seat))
        legal = self.game.legal_actions(seat) if seat is not None else []
        return view, legal

    def wire_time(self, data: dict[str, Any]) -> dict[str, Any]:
        """``data`` with its engine-time ``deadline`` turned into ``remaining`` seconds.

        Engine time means nothing to a client; the seconds left do, on any clock.
        """
        if "deadline" not in data:
            return data
        data = dict(data)
        deadline = data.pop("deadline")
        if isinstance(deadline, int | float) and not isinstance(deadline, bool):
            data["remaining"] = round(max(0.0, deadline - self.elapsed()), 3)
        else:
            data["remaining"] = None
        return data

    def audience(self) -> list[int | None]:
        """The seats whose views a push sends: every seat with a connection, and
        ``None`` (the spectators' view) if anyone watches."""
        seats: list[int | None] = [i for i, s in enumerate(self.seats) if s.conn is not None]
        if self.spectators:
            seats.append(None)
        return seats

    def frame_for(self, conn: Connection, seat: int | None, push: Push) -> bytes:
        """The ``update`` frame of ``push`` for ``conn`` (at ``seat``), ready to write.

        The table's public part goes in only if ``conn`` has not been sent it as it is;
        the view goes in whole the first time ``conn`` sees this game from this seat,
        and after that only what changed since the last one sent to ``conn``. The part
        of the view every seat shares is compared and packed once per push.
        """
        changes = False
        game = self.game
        if game is None:
            view, legal = _NIL, _EMPTY
            seen = None
        else:
            pack = self.host.packb
            shared, own = push.view_of(seat)
            actions = game.legal_actions(seat) if seat is not None else None
            legal = pack(actions) if actions else _EMPTY
            sent = conn.view_sent
            parts = None
            if sent is not None and sent[0] is game and sent[1] == seat:
                common = push.shared_changes(sent[2], pack)
                mine = codec.view_changes(sent[3], own)
                if common is not None and mine is not None:
                    parts = (common, codec.map_entries(pack(mine)) if mine else _NO_ENTRIES)
                    changes = True
            if parts is None:
                parts = (push.shared_entries(pack), codec.map_entries(pack(own)))
            view = codec.joined_map(*parts)
            seen = (game, seat, shared, own)
        table = None if conn.table_sent == push.table else push.table
        try:
            frame = codec.update_frame(table, seat, view, legal, push.tail, changes=changes)
        except ValueError:
            # Only a bug can make an update too big; say so rather than send half of it.
            log.error("connection %d: an update is too large", conn.id)
            return codec.pack(errors.error(errors.INTERNAL, "the host could not send an update"))
        if table is not None:
            conn.table_sent = table
        conn.view_sent = seen
        return frame

    def push(
        self,
        events: Iterable[dict[str, Any]] = (),
        notices: Iterable[dict[str, Any]] = (),
    ) -> None:
        """Send every connection at the table its own update."""
        # What others are about to see is journaled first.
        key = self.state_key()
        self.host.journal_table(self, key=key)
        update = Push(self, [self.wire_time(e) for e in events], list(notices), key)
        for i, s in enumerate(self.seats):
            if s.conn is not None:
                s.conn.send_update(self, i, update)
        for conn in list(self.spectators):
            conn.send_update(self, None, update)
        self.host.changed()

    # ---- seats ----------------------------------------------------------------------

    def seat_of(self, conn: Connection) -> int:
        """The seat bound to ``conn``, or a refusal if it holds none here."""
        if conn.table is not self or conn.seat is None:
            raise RequestError(errors.NO_SEAT, "you hold no seat at this table")
        return conn.seat

    def require_creator(self, conn: Connection) -> None:
        """Refuse unless ``conn`` holds the creator's seat."""
        if conn.table is not self or conn.seat is None or conn.seat != self.creator:
            raise RequestError(errors.NOT_CREATOR, "only the table's creator may do that")

    def require_phase(self, *phases: str) -> None:
        """Refuse unless the table is in one of ``phases``."""
        if self.phase not in phases:
            raise RequestError(
                errors.WRONG_PHASE,
                f"that is not possible while the table is in its {self.phase} phase",
            )

    def check_seat_index(self, seat: int) -> Seat:
        """The seat at ``seat``, or a refusal naming the seats there are."""
        if not 0 <= seat < len(self.seats):
            raise RequestError(
                errors.NO_SEAT, f"there is no seat {seat + 1}; seats are 1 to {len(self.seats)}"
            )
        return self.seats[seat]

    def seat_human(self, conn: Connection, index: int) -> str:
        """Put ``conn`` in the empty seat ``index``; return the seat's new token."""
        seat = self.seats[index]
        name = self.unique_name(conn.name, index)
        seat.kind, seat.name, seat.conn, seat.ready = "human", name, conn, False
        seat.token = f"{self.uid}.{_token(24)}"
        conn.table, conn.seat = self, index
        if self.creator is None:
            self.creator = index
        return seat.token

    def unique_name(self, name: str, index: int) -> str:
        """``name``, or ``name (2)``, ``name (3)`` … if another seat already uses it.

        Two players called "root" would make every message about one of them ambiguous.
        """
        taken = {
            name_key(s.name) for i, s in enumerate(self.seats) if i != index and s.kind != "empty"
        }
        if name_key(name) not in taken:
            return name
        n = 2
        while name_key(f"{name} ({n})") in taken:
            n += 1
        return f"{name} ({n})"

    def free_seat(self, index: int) -> None:
        """Empty a seat; the creator's role passes on if it was theirs."""
        self.seats[index].clear()
        if self.creator == index:
            humans = [i for i, s in enumerate(self.seats) if s.kind == "human"]
            connected = [i for i in humans if self.seats[i].conn is not None]
            choice = connected or humans
            self.creator = choice[0] if choice else None

    def detach(self, conn: Connection) -> dict[str, Any] | None:
        """Unbind ``conn`` from the table; a held seat stays (shown as disconnected)."""
        notice: dict[str, Any] | None = None
        if conn in self.spectators:
            self.spectators.remove(conn)
            notice = {"type": "stopped_watching", "name": conn.name}
        elif conn.seat is not None and self.seats[conn.seat].conn is conn:
            self.seats[conn.seat].conn = None
            self.seats[conn.seat].ready = False
            notice = {"type": "disconnected", "seat": conn.seat}
            if self.creator == conn.seat:
                # The table must not stall on an absent creator: a present player takes over.
                present = [i for i, s in enumerate(self.seats) if s.conn is not None]
                if present:
                    self.creator = present[0]
        conn.table, conn.seat = None, None
        return notice

    # ---- the game ---------------------------------------------------------------------

    def start(self) -> None:
        """Deal the game: every seat filled, every other human ready."""
        for i, s in enumerate(self.seats):
            if s.kind == "empty":
                raise RequestError(
                    errors.BAD_REQUEST, f"seat {i + 1} is empty: wait for a player or add a bot"
                )
        for i, s in enumerate(self.seats):
            if s.kind == "human" and i != self.creator and not s.ready:
                raise RequestError(errors.BAD_REQUEST, f"{s.name} (seat {i + 1}) is not ready yet")
        seed = self.host.seed_source()
        try:
            self.game = engine.new_game(self.game_id, len(self.seats), seed, self.options)
        except ValueError as exc:
            raise RequestError(errors.BAD_REQUEST, str(exc)) from None
        for i, s in enumerate(self.seats):
            if s.kind == "bot":
                s.bot = self.host.bot_factory(self.game_id, i, self.host.seed_source())
        self.t0 = self.host.clock()
        self.phase = "play"
        self.game_changed([], [{"type": "started"}])

    def act(self, seat: int, action: dict[str, Any]) -> None:
        """Apply ``seat``'s action (the seat bound to its connection)."""
        self.require_phase("play")
        self.check_paused()
        assert self.game is not None
        # The deadline timer may have moved engine time a hair past the clock.
        now = max(self.elapsed(), self.game.now)
        try:
            events = self.game.act(seat, action, now=now)
        except engine.IllegalAction as exc:
            raise RequestError(errors.ILLEGAL_ACTION, str(exc)) from None
        # Journaled before anyone hears of it (the ``ok`` and the updates come after).
        self.host.journal_op(self, {"k": "act", "t": self.id, "s": seat, "a": action, "n": now})
        if (self.game_id, action.get("type")) in PRIVATE_ACTIONS and not events:
            # Only the acting seat's view changed; telling the others would be wasted
            # traffic, and would tell them when this seat marks its board.
            conn = self.seats[seat].conn
            if conn is not None:
                conn.send_update(self, seat, Push(self, [], [], seats=[seat]))
            self.arm_timer()
            return
        self.game_changed(events, [])

    def game_changed(self, events: list[dict[str, Any]], notices: list[dict[str, Any]]) -> None:
        """After any change to the game: note the end, push, re-arm timer and bots."""
        assert self.game is not None
        if self.game.over and self.phase == "play":
            self.phase = "over"
            notices = [*notices, {"type": "game_over", "result": self.game.result}]
        self.push(events, notices)
        self.arm_timer()
        self.wake_bots()

    def arm_timer(self) -> None:
        """Wake at the game's next deadline, if it has one (no polling)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self.game is None or self.phase != "play" or self.frozen is not None:
            return
        deadline = self.game.deadline
        if deadline is None:
            return
        loop = asyncio.get_running_loop()
        # The loop's clock is the host's clock, so the deadline maps onto it exactly.
        self._timer = loop.call_at(self.t0 + deadline, self._on_deadline, float(deadline))

    def _on_deadline(self, deadline: float) -> None:
        self._timer = None
        if self.game is None or self.phase != "play":
            return
        # asyncio may fire a timer up to its clock resolution early.
        now = max(self.elapsed(), deadline, self.game.now)
        events = self.game.advance(now)
        if not events:
            later = self.game.deadline
            if later is not None and later > now:
                self.arm_timer()
            return
        self.host.journal_op(self, {"k": "adv", "t": self.id, "n": now})
        self.game_changed(events, [])

    # ---- bots -------------------------------------------------------------------------

    def wake_bots(self) -> None:
        """Let the table's bots look at the new state."""
        if not any(s.kind == "bot" for s in self.seats) or self.phase != "play":
            return
        if self.frozen is not None:
            return
        if self._bot_task is None or self._bot_task.done():
            self._bot_task = asyncio.get_running_loop().create_task(self._run_bots())
        self._bot_wake.set()

    async def _run_bots(self) -> None:
        """Wake the bots on every change, for as long as the table lives."""
        while True:
            await self._bot_wake.wait()
            self._bot_wake.clear()
            try:
                await self._move_bots()
            except Exception:
                log.exception("bots at table %s failed", self.id)

    async def _move_bots(self) -> None:
        """Move bots one action at a time while any has something to do.

        Turn-based bots answer ``choose(view, legal)`` and are paced by ``bot_delay``.
        Real-time bots (Get It!) answer ``step(view, legal, now)`` with an action and the
        engine time they want to be asked again; they pace themselves (reaction times),
        so the host asks them after every change and wakes them when they asked to be.
        """
        while self.game is not None and self.phase == "play":
            bots = [i for i, s in enumerate(self.seats) if s.kind == "bot" and s.bot]
            # Between rounds the people at the table decide when to go on: a bot that
            # dealt at once would snatch the round's summary from under their eyes.
            people = any(
                s.kind == "human" and s.conn is not None
                and {"type": "next_round"} in self.game.legal_actions(i)
                for i, s in enumerate(self.seats)
            )
            moved = paced = False
            wakes: list[float] = []
            for k in range(len(bots)):
                i = bots[(self._bot_turn + k) % len(bots)]
                view, legal = self.seat_view(i)
                if people:
                    legal = [a for a in legal if a.get("type") != "next_round"]
                if not legal:
                    continue
                bot = self.seats[i].bot
                assert bot is not None
                step = getattr(bot, "step", None)
                try:
                    if step is not None:
                        action, wake = step(view, legal, max(self.elapsed(), self.game.now))
                        if wake is not None:
                            wakes.append(float(wake))
                    else:
                        action = bot.choose(view, legal)
                except Exception:
                    log.exception("bot at table %s seat %d failed", self.id, i)
                    action = None
                if action is None:
                    continue
                self._bot_turn = (self._bot_turn + k + 1) % len(bots)
                try:
                    self.act(i, action)
                except RequestError as exc:
                    log.warning("bot at table %s seat %d: %s", self.id, i, exc.message)
                    continue
                moved, paced = True, step is None
                break
            if not moved:
                self._arm_bot_timer(wakes)
                break
            self._bot_wake.clear()
            # Bots never wait for readers: a slow one gets its updates coalesced (see
            # ``Connection``) and costs the others nothing. Turn-based bots are paced.
            await asyncio.sleep(self.host.bot_delay if paced else 0)

    def _arm_bot_timer(self, wakes: list[float]) -> None:
        """Wake the real-time bots at the earliest engine time one of them asked for."""
        if self._bot_timer is not None:
            self._bot_timer.cancel()
            self._bot_timer = None
        if wakes:
            loop = asyncio.get_running_loop()
            self._bot_timer = loop.call_at(self.t0 + min(wakes), self.wake_bots)

    def close(self) -> None:
        """Stop the table's timers and bots."""
        if self.idle_timer is not None:
            self.idle_timer.cancel()
        if self._timer is not None:
            self._timer.cancel()
        if self._bot_timer is not None:
            self._bot_timer.cancel()
        if self._bot_task is not None:
            self._bot_task.cancel()


class Host:
    """The authoritative server: connections, tables, heartbeats.

    ``heartbeat`` is the ping interval in seconds and ``timeout`` how long a silent
    peer is kept (default three intervals). ``bot_delay`` paces bot moves. Each
    connection may send ``rate`` messages a second on average, ``burst`` at once; a
    player-opened table nobody is connected to closes after ``idle_timeout`` seconds.
    Game and bot seeds come from ``seed_source`` (default: the system's secure
    generator; tests pass a seeded one to replay games). Seeds never leave the host.
    ``limits`` (``net.limits.Limits``) bound what one peer or address may cost. With
    ``journal`` (a path, e.g. ``net.journal.new_journal_path()``) every acknowledged
    change is journaled there first, and :meth:`resume` brings the tables back after a
    crash; ``fsync`` says how it reaches the disk (``net.journal.SYNC_MODES``:
    ``background`` by default, ``each`` to fsync before every acknowledgement).
    """

    def __init__(
        self,
        name: str = "hiddenhand",
        *,
        heartbeat: float = 1.5,
        timeout: float | None = None,
        bot_factory: BotFactory = real_bot_factory,
        bot_delay: float = 0.4,
        rate: float = 500.0,
        burst: int = 1000,
        max_connections: int | None = None,
        max_tables: int | None = None,
        idle_timeout: float = 600.0,
        seed_source: Callable[[], int] | None = None,
        limits: Limits | None = None,
        journal: Path | str | None = None,
        fsync: str = "background",
    ) -> None:
        self.name = name
        self.heartbeat = heartbeat
        self.timeout = timeout if timeout is not None else 3 * heartbeat
        self.bot_factory = bot_factory
        self.bot_delay = bot_delay
        self.rate = rate
        self.burst = burst
        self.limits = limits or Limits()
        self.max_connections = (
            max_connections if max_connections is not None else self.limits.max_connections
        )
        self.max_tables = max_tables if max_tables is not None else self.limits.max_tables
        self.idle_timeout = idle_timeout
        self.seed_source = seed_source or _random_seed
        self.tables: dict[str, Table] = {}
        self.connections: set[Connection] = set()
        self.listeners: list[Callable[[], None]] = []
        self.server: asyncio.Server | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self._next_table = 1
        #: Tables came from a journal and wait for the loop to run (``_run_resumed``).
        self._resumed = False
        self._address_buckets: dict[tuple[str, str], Bucket] = {}
        #: The crash-recovery journal (``net.journal``), if this host keeps one.
        self.journal: j.Journal | None = None
        self.created = time.time()
        #: The port a resumed host listened on before (clients come back to it).
        self.resumed_port: int | None = None
        self._listen: dict[str, Any] | None = None
        #: How the journal reaches the disk (``net.journal.SYNC_MODES``).
        if fsync not in j.SYNC_MODES:
            raise ValueError(f"fsync must be one of {', '.join(j.SYNC_MODES)}, not {fsync!r}")
        self.fsync = fsync
        if journal is not None:
            self.journal = j.Journal.create(Path(journal), self._journal_header(), sync=fsync)
        self._closing = False
        #: ``msgpack.packb`` without a new ``Packer`` for every call (a push packs a few
        #: small values per seat); the host runs on one event loop, so one is enough.
        self.packb: Callable[[Any], bytes] = msgpack.Packer(use_bin_type=True).pack
        #: Seconds the event loop was measured too busy to run (see ``_watch_loop``).
        self.stalled = 0.0
        self._watcher: asyncio.Task[None] | None = None

    # ---- lifecycle --------------------------------------------------------------------

    def clock(self) -> float:
        """The host's monotonic clock (the event loop's); never sent over the wire."""
        return asyncio.get_running_loop().time()

    async def start(self, host: str | None = "127.0.0.1", port: int = 0) -> None:
        """Listen for TCP connections on ``host:port`` (port 0 picks a free one)."""
        self.server = await asyncio.get_running_loop().create_server(
            stream.frame_protocol(self.handle_connection), host, port,
            family=socket.AF_UNSPEC, reuse_address=True,
        )
        self._listen = {"k": "listen", "port": self.port, "bind": host}
        self._journal(self._listen)
        self._run_resumed()

    # ---- crash recovery ---------------------------------------------------------------

    def _journal_header(self) -> dict[str, Any]:
        return {"name": self.name, "created": self.created}

    def _journal(self, record: dict[str, Any]) -> None:
        if self.journal is not None:
            self.journal.append(record)

    def journal_table(
        self, table: Table, *, force: bool = False, key: tuple[Any, ...] | None = None
    ) -> None:
        """Journal ``table``'s state if it changed since last time (or ``force``);
        ``key`` is its ``state_key()`` if the caller has it already."""
        if self.journal is None or self.tables.get(table.id) is not table:
            return
        meta = table.state_key() if key is None else key
        if not force and meta == table._journaled:
            return
        table._journaled = meta
        table._since_snapshot = 0
        self._journal(table.persisted())
        self._maybe_compact()

    def journal_op(self, table: Table, record: dict[str, Any]) -> None:
        """Journal one action or advance of time at ``table`` (before anyone hears of it)."""
        if self.journal is None or self.tables.get(table.id) is not table:
            return
        self._journal(record)
        table._since_snapshot += 1
        if table._since_snapshot >= j.SNAPSHOT_EVERY:
            self.journal_table(table, force=True)  # the periodic snapshot
        else:
            self._maybe_compact()

    def _maybe_compact(self) -> None:
        if self.journal is not None and self.journal.records > j.COMPACT_AFTER:
            self.compact()

    def compact(self) -> None:
        """Rewrite the journal as the host's current state (one record per table)."""
        if self.journal is None:
            return
        records = [{"k": "host", "v": j.JOURNAL_VERSION, **self._journal_header(),
                    "next_table": self._peek_table_id()}]
        if self._listen is not None:
            records.append(self._listen)
        for table in self.tables.values():
            records.append(table.persisted())
            table._journaled = table.state_key()
            table._since_snapshot = 0
        self.journal.rewrite(records)

    def _peek_table_id(self) -> int:
        ids = [int(t[1:]) for t in self.tables if t[1:].isdigit()]
        return max([*ids, self._next_table - 1]) + 1

    @classmethod
    def resume(cls, path: Path | str, **settings: Any) -> Host:
        """A host with the tables of the journal at ``path``, as they were last acknowledged.

        Seats, names and tokens come back; every person is shown disconnected until
        their client reconnects with its token (``net.client``/``tui.session`` do that
        by themselves). A game in play stays frozen: an untimed one runs again as soon
        as the host starts, one with a running clock (a Get It! round) once every person
        is back (``docs/reliability.md``). ``settings`` are those of :class:`Host`
        (``name`` defaults to the journaled one); the host goes on journaling to
        ``path``, and ``resumed_port`` is the port it listened on before.
        Raises ``net.journal.JournalError`` with a plain message if it cannot.
        """
        path = Path(path)
        if j.in_use(path):
            raise j.JournalError(
                f"{path.name} is in use: its game is still running in another hiddenhand"
            )
        header, records = j.read_journal(path)
        settings.pop("journal", None)
        name = settings.pop("name", None) or str(header.get("name", "hiddenhand"))
        host = cls(name, **settings)
        tables: dict[str, tuple[dict[str, Any], list[dict[str, Any]]]] = {}
        for record in records:
            kind, tid = record.get("k"), record.get("t")
            if kind == "table" and isinstance(tid, str):
                tables[tid] = (record, [])
            elif kind in ("act", "adv") and tid in tables:
                tables[tid][1].append(record)
            elif kind == "drop":
                tables.pop(str(tid), None)
            elif kind == "listen" and isinstance(record.get("port"), int):
                host.resumed_port = record["port"]
        for tid, (record, ops) in tables.items():
            try:
                host.tables[tid] = Table.restore(host, record, ops)
            except Exception as exc:
                raise j.JournalError(
                    f"table {tid} in {path} cannot be restored: {exc}"
                ) from None
        host._next_table = max(host._peek_table_id(), int(header.get("next_table", 1) or 1))
        host._resumed = True
        host.journal = j.Journal.reopen(path, len(records) + 1, sync=host.fsync)
        host.compact()
        log.info("resumed %d table(s) from %s", len(host.tables), path)
        return host

    def _run_resumed(self) -> None:
        """Once the loop runs: resumed games without a running clock go on at once, and
        resumed tables nobody comes back to close as any other would."""
        if not self._resumed:
            return
        self._resumed = False
        for table in list(self.tables.values()):
            if table.frozen is not None and not table.paused:
                table.thaw()
            self.check_idle(table)

    @property
    def port(self) -> int:
        """The TCP port the host listens on."""
        assert self.server is not None and self.server.sockets, "the host is not listening"
        port: int = self.server.sockets[0].getsockname()[1]
        return port

    async def close(self, *, keep_journal: bool | None = None) -> None:
        """Tell every client the host is stopping, then close everything.

        The journal is kept (to resume from) if a game is in play, or if
        ``keep_journal`` says so; otherwise it is deleted.
        """
        self._closing = True
        keep = False
        if self.journal is not None:
            if keep_journal is None:
                keep = any(t.phase == "play" for t in self.tables.values())
            else:
                keep = keep_journal
            self.journal.close(remove=not keep)
        if self.server is not None:
            self.server.close()
        for table in self.tables.values():
            table.close()
        for conn in list(self.connections):
            # Whether there is a game to come back to: a player waits for the host to
            # resume it, or goes back to their menu at once.
            if keep and conn.table is not None and conn.table.phase == "play":
                conn.fail(errors.SHUTTING_DOWN, "the host stopped; it can resume this game "
                          "later, and your seat stays yours")
            elif conn.table is not None:
                conn.fail(errors.TABLE_CLOSED, "the host closed the table")
            else:
                conn.fail(errors.SHUTTING_DOWN, "the host is shutting down")
            conn.close()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        if self.server is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.server.wait_closed(), 2)

    async def __aenter__(self) -> Host:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    def changed(self) -> None:
        """Tell listeners (discovery) that something visible may have changed."""
        for listener in list(self.listeners):
            try:
                listener()
            except Exception:
                log.exception("host listener failed")

    def summary(self) -> list[dict[str, Any]]:
        """Every table's short description."""
        return [t.summary() for t in self.tables.values()]

    def create_table(
        self,
        name: str,
        game_id: str,
        seats: int,
        options: dict[str, Any] | None = None,
        *,
        bots: int = 0,
        permanent: bool = False,
    ) -> Table:
        """Open a table; ``bots`` fills the last seats with bots.

        Raises ``ValueError`` with a plain message for a bad game, seat count or option.
        """
        if len(self.tables) >= self.max_tables:
            raise ValueError(f"this host already holds {self.max_tables} tables")
        if game_id not in engine.GAMES:
            raise ValueError(f"unknown game {game_id!r}; known games: {', '.join(engine.GAMES)}")
        spec = engine.GAMES[game_id]
        spec.check_seats(seats)
        checked = spec.check_options(options, seats)
        if not 0 <= bots <= seats:
            raise ValueError(f"bots must be from 0 to {seats}, not {bots}")
        table_id = f"t{self._next_table}"
        self._next_table += 1
        table = Table(self, table_id, name, game_id, seats, checked)
        for i in range(seats - bots, seats):
            table.seats[i].kind, table.seats[i].name = "bot", f"Bot {i + 1}"
        table.permanent = permanent
        self.tables[table_id] = table
        self.journal_table(table)
        self.changed()
        return table

    def check_idle(self, table: Table) -> None:
        """Close a player-opened table nobody is connected to.

        At once if no player holds a seat there; otherwise after ``idle_timeout``,
        as disconnected players keep their seats (and tokens) until then.
        """
        if table.idle_timer is not None:
            table.idle_timer.cancel()
            table.idle_timer = None
        if table.permanent or table.connections() or table.id not in self.tables:
            return
        if not any(s.kind == "human" for s in table.seats):
            # Nobody could come back to it: it goes at once (and frees its slot).
            self._remove_if_idle(table)
            return
        # A game in play is worth waiting for; a lobby nobody is at is not.
        wait = self.idle_timeout
        if table.phase != "play":
            wait = min(wait, self.limits.empty_table_timeout)
        table.idle_timer = asyncio.get_running_loop().call_later(
            wait, self._remove_if_idle, table
        )

    def _remove_if_idle(self, table: Table) -> None:
        table.idle_timer = None
        if table.connections() or self.tables.get(table.id) is not table:
            return
        log.info("table %s has nobody at it; closing it", table.id)
        table.close()
        del self.tables[table.id]
        self._journal({"k": "drop", "t": table.id})
        self.changed()

    # ---- connections ------------------------------------------------------------------

    async def open_local(self) -> tuple[stream.FrameReader, stream.FrameWriter]:
        """A connection to this host through a socket pair: no TCP port, no network.

        Returns the client's end as asyncio streams; the host serves the other end.
        """
        self._run_resumed()
        mine, theirs = socket.socketpair()
        host_reader, host_writer = await stream.open_connection(sock=theirs)
        task = asyncio.get_running_loop().create_task(
            self.handle_connection(host_reader, host_writer)
        )
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return await stream.open_connection(sock=mine)

    async def handle_connection(
        self, reader: stream.FrameReader, writer: stream.FrameWriter
    ) -> None:
        """Serve one client until it leaves, breaks the framing or goes silent."""
        conn = Connection(reader, writer, self.clock(), self.burst, self.limits)
        conn.stalled_seen = self.stalled
        if self._watcher is None or self._watcher.done():
            self._watcher = asyncio.get_running_loop().create_task(self._watch_loop())
            self._tasks.add(self._watcher)
        refusal = self._admission(conn)
        if refusal is not None:
            log.info("connection from %s refused: %s", conn.peer, refusal)
            conn.fail(errors.HOST_FULL, refusal)
            conn.close()
            return
        self.connections.add(conn)
        log.info("connection %d from %s", conn.id, conn.peer)
        task = asyncio.current_task()
        if task is not None:
            self._tasks.add(task)
        beat = asyncio.get_running_loop().create_task(self._heartbeat(conn))
        self._tasks.add(beat)
        try:
            await self._serve(conn)
        except asyncio.CancelledError:
            pass
        finally:
            beat.cancel()
            self._tasks.discard(beat)
            if task is not None:
                self._tasks.discard(task)
            self._drop(conn)

    def _admission(self, conn: Connection) -> str | None:
        """Why ``conn`` may not come in now, or ``None``.

        Limits per client address keep one machine from taking every slot; in-process
        connections (the app's own player) have no address and are not counted.
        """
        if self._closing or len(self.connections) >= self.max_connections:
            return "this host takes no more connections now"
        if not self.counts_address(conn):
            return None
        same = [c for c in self.connections if c.address == conn.address]
        if len(same) >= self.limits.max_per_address:
            return (
                f"this host takes at most {self.limits.max_per_address} connections from "
                f"one address ({conn.address})"
            )
        idle = sum(1 for c in same if c.table is None)
        if idle >= self.limits.max_unjoined_per_address:
            return (
                f"{idle} connections from your address ({conn.address}) are not at a table; "
                "close one or join a table with it first"
            )
        return None

    def _take(self, conn: Connection, kind: str) -> None:
        """Spend one of ``conn``'s (and its address's) human-scale allowances for ``kind``."""
        bucket_kind = SOCIAL.get(kind)
        if bucket_kind is None:
            return
        now = self.clock()
        rate, burst = self.limits_for(bucket_kind)
        mine = conn.buckets.get(bucket_kind)
        if mine is None:
            mine = conn.buckets[bucket_kind] = Bucket(rate, burst, now)
        shared = None
        if self.counts_address(conn):
            key = (conn.address, bucket_kind)
            shared = self._address_buckets.get(key)
            if shared is None:
                factor = ADDRESS_FACTOR
                shared = self._address_buckets[key] = Bucket(rate * factor, burst * factor, now)
        if not mine.take(now) or (shared is not None and not shared.take(now)):
            raise RequestError(errors.RATE_LIMITED, SLOW_DOWN[bucket_kind])

    def counts_address(self, conn: Connection) -> bool:
        """True if limits per client address apply to ``conn`` (not to the app's own
        in-process player, nor to an address many people share)."""
        return conn.address != "local" and conn.address not in self.limits.shared_addresses

    def limits_for(self, kind: str) -> tuple[float, int]:
        """The rate and burst of one kind of human-scale limit."""
        lim = self.limits
        return {
            "chat": (lim.chat_rate, lim.chat_burst),
            "rename": (lim.rename_rate, lim.rename_burst),
            "lobby": (lim.lobby_rate, lim.lobby_burst),
        }[kind]

    async def _serve(self, conn: Connection) -> None:
        """Handle ``conn``'s frames as they arrive, until its stream ends."""
        reader = conn.reader
        # Before hello only a small frame is read: a hello is tiny, and nothing big
        # may cost the host anything before the peer has said who it is.
        reader.deliver(
            lambda body: self._on_frame(conn, body),
            lambda: framing.MAX_FRAME if conn.welcomed else framing.MAX_HELLO_FRAME,
        )
        end = await reader.ended
        if isinstance(end, errors.ProtocolError):
            log.info("connection %d: %s: %s", conn.id, end.code, end.message)
            conn.fail(end.code, end.message)
            conn.close()

    def _on_frame(self, conn: Connection, body: bytes) -> None:
        """One frame from ``conn``, the moment it has arrived."""
        if conn.closed:
            conn.reader.stop()
            return
        try:
            raw = codec.unpack_client_body(body)
        except errors.ProtocolError as exc:
            log.info("connection %d: %s: %s", conn.id, exc.code, exc.message)
            conn.fail(exc.code, exc.message)
            return
        now = self.clock()
        conn.allowance = min(
            float(self.burst), conn.allowance + (now - conn.last_seen) * self.rate
        )
        conn.last_seen, conn.stalled_seen = now, self.stalled
        if conn.allowance < 1:
            if not conn.warned:
                log.info("connection %d sends too fast; refusing its messages", conn.id)
            conn.warned = True
            # A request still gets its answer, so no client waits forever for it.
            ref = schemas.reply_ref(raw)
            if ref is not None:
                conn.fail(errors.RATE_LIMITED, "too many messages; slow down", ref)
            return
        conn.allowance -= 1
        conn.warned = False
        try:
            msg = schemas.validate_client_message(raw)
        except errors.ProtocolError as exc:
            # One short line per invalid message, never a traceback.
            log.info("connection %d: %s: %s", conn.id, exc.code, exc.message)
            conn.fail(exc.code, exc.message, schemas.reply_ref(raw))
            return
        try:
            self._dispatch(conn, msg)
        except RequestError as exc:
            conn.fail(exc.code, exc.message, msg.get("ref"))
        except errors.ProtocolError as exc:
            conn.fail(exc.code, exc.message, msg.get("ref"))
            if exc.fatal:
                conn.close()
                conn.reader.stop()
        except Exception:
            # A bug must not take the host down for everyone else.
            log.exception("connection %d: %s request failed", conn.id, msg["type"])
            conn.fail(errors.INTERNAL, "the host failed to handle that request", msg.get("ref"))
        if conn.closed:
            conn.reader.stop()

    async def _watch_loop(self) -> None:
        """Measure how long the event loop was too busy to run anything.

        A peer cannot answer pings the host did not send, nor be heard while the host
        reads nothing: that time is not the peer's silence (see :meth:`_silent`).
        """
        loop = asyncio.get_running_loop()
        tick = min(0.1, self.heartbeat / 4)
        while True:
            before = loop.time()
            await asyncio.sleep(tick)
            late = loop.time() - before - tick
            if late > tick:
                self.stalled += late

    def _silent(self, conn: Connection) -> float:
        """Seconds ``conn`` has been silent, not counting time the host was stalled."""
        return self.clock() - conn.last_seen - (self.stalled - conn.stalled_seen)

    async def _heartbeat(self, conn: Connection) -> None:
        """Ping every interval; drop a peer silent for longer than the timeout."""
        loop = asyncio.get_running_loop()
        while not conn.closed:
            due = loop.time() + self.heartbeat
            await asyncio.sleep(self.heartbeat)
            if loop.time() - due > self.heartbeat / 2:
                # The host itself was busy: the peer had no chance to be heard. Ping it
                # and judge it on the next round.
                conn.send({"type": "ping"})
                continue
            if not conn.welcomed and self.clock() - conn.opened > 2 * self.timeout:
                conn.fail(errors.TIMEOUT, "no hello in time; closing the connection")
                conn.close()
                return
            if self._silent(conn) > self.timeout:
                log.info("connection %d went silent; dropping it", conn.id)
                conn.fail(errors.TIMEOUT, "no word from you in time; closing the connection")
                conn.abort()
                return
            conn.send({"type": "ping"})

    def _drop(self, conn: Connection) -> None:
        self.connections.discard(conn)
        if not any(c.address == conn.address for c in self.connections):
            # Forget an address's allowances once they are full again (not before, or
            # reconnecting would be a way to refill them).
            now = self.clock()
            for key in [k for k in self._address_buckets if k[0] == conn.address]:
                bucket = self._address_buckets[key]
                if bucket.level + (now - bucket.stamp) * bucket.rate >= bucket.burst:
                    del self._address_buckets[key]
        table = conn.table
        if table is not None:
            notice = table.detach(conn)
            table.push(notices=[notice] if notice else [])  # journals a new creator too
            self.check_idle(table)
        # Gracefully: a last error frame (version mismatch, bad framing) still goes out.
        conn.close()
        log.info("connection %d closed", conn.id)

    # ---- requests ---------------------------------------------------------------------

    def _dispatch(self, conn: Connection, msg: dict[str, Any]) -> None:
        kind = msg["type"]
        if kind == "ping":
            conn.send({"type": "pong", **({"ref": msg["ref"]} if "ref" in msg else {})})
            return
        if kind == "pong":
            return
        if kind == "hello":
            self._hello(conn, msg)
            return
        if not conn.welcomed:
            raise RequestError(errors.NOT_WELCOMED, "say hello (with the protocol version) first")
        self._take(conn, kind)
        handler = getattr(self, f"_on_{kind}")
        handler(conn, msg)

    def _reply(self, conn: Connection, msg: dict[str, Any], reply: dict[str, Any]) -> None:
        if "ref" in msg:
            reply["ref"] = msg["ref"]
        conn.send(reply)

    def _ok(self, conn: Connection, msg: dict[str, Any]) -> None:
        self._reply(conn, msg, {"type": "ok"})

    def _table(self, table_id: str) -> Table:
        table = self.tables.get(table_id)
        if table is None:
            raise RequestError(errors.NO_TABLE, f"there is no table {table_id!r} on this host")
        return table

    def _at_table(self, conn: Connection) -> Table:
        if conn.table is None:
            raise RequestError(errors.NO_TABLE, "you are not at a table; join one first")
        return conn.table

    def _not_at_table(self, conn: Connection) -> None:
        if conn.table is not None:
            raise RequestError(errors.BAD_REQUEST, "you are already at a table; leave it first")

    def _hello(self, conn: Connection, msg: dict[str, Any]) -> None:
        if conn.welcomed:
            raise RequestError(errors.BAD_REQUEST, "you have already said hello")
        if msg["version"] != framing.PROTOCOL_VERSION:
            raise errors.ProtocolError(
                errors.VERSION_MISMATCH,
                f"this host speaks protocol version {framing.PROTOCOL_VERSION} but your client "
                f"speaks version {msg['version']}; use the same hiddenhand release on both sides",
                fatal=True,
            )
        conn.name = check_name(msg["name"])
        conn.welcomed = True
        self._reply(
            conn,
            msg,
            {
                "type": "welcome",
                "version": framing.PROTOCOL_VERSION,
                "host": self.name,
                "heartbeat": self.heartbeat,
                "tables": self.summary(),
            },
        )

    def _on_list_tables(self, conn: Connection, msg: dict[str, Any]) -> None:
        self._reply(conn, msg, {"type": "tables", "tables": self.summary()})

    def _joined(
        self, conn: Connection, msg: dict[str, Any], table: Table, token: str | None
    ) -> None:
        self.check_idle(table)
        self.journal_table(table)  # the token is durable before it is handed out
        self._reply(
            conn,
            msg,
            {"type": "joined", "table": table.id, "seat": conn.seat, "token": token},
        )

    def _on_create_table(self, conn: Connection, msg: dict[str, Any]) -> None:
        self._not_at_table(conn)
        if self.counts_address(conn):
            mine = [t for t in self.tables.values() if t.opened_by == conn.address]
            if len(mine) >= self.limits.max_tables_per_address:
                raise RequestError(
                    errors.BAD_REQUEST,
                    f"your address already has {len(mine)} tables open on this host "
                    f"(at most {self.limits.max_tables_per_address}); join one of them instead",
                )
        try:
            table = self.create_table(msg["name"], msg["game"], msg["seats"], msg.get("options"))
        except ValueError as exc:
            raise RequestError(errors.BAD_REQUEST, str(exc)) from None
        table.opened_by = conn.address
        token = table.seat_human(conn, 0)
        log.info("%s created table %s (%s)", conn.name, table.id, table.game_id)
        self._joined(conn, msg, table, token)
        table.push(notices=[{"type": "joined", "seat": 0, "name": conn.name}])

    def _on_join(self, conn: Connection, msg: dict[str, Any]) -> None:
        self._not_at_table(conn)
        if "token" in msg and msg["table"] not in self.tables:
            raise RequestError(
                errors.NO_TABLE,
                f"this host has no table {msg['table']!r} any more: the game your seat was "
                "at is gone (the host was restarted without it, or the table closed)",
            )
        table = self._table(msg["table"])
        if "token" in msg:
            self._rejoin(conn, msg, table)
            return
        if msg.get("spectate"):
            table.spectators.append(conn)
            conn.table, conn.seat = table, None
            self._joined(conn, msg, table, None)
            table.push(notices=[{"type": "watching", "name": conn.name}])
            return
        table.require_phase("lobby")
        seat = msg.get("seat")
        if seat is None:
            free = [i for i, s in enumerate(table.seats) if s.kind == "empty"]
            if not free:
                raise RequestError(errors.TABLE_FULL, "every seat at this table is taken")
            seat = free[0]
        elif table.check_seat_index(seat).kind != "empty":
            raise RequestError(errors.SEAT_TAKEN, f"seat {seat + 1} is taken")
        token = table.seat_human(conn, seat)
        self._joined(conn, msg, table, token)
        table.push(notices=[{"type": "joined", "seat": seat, "name": table.seats[seat].name}])

    def _rejoin(self, conn: Connection, msg: dict[str, Any], table: Table) -> None:
        index = msg.get("seat")
        if index is None:
            raise RequestError(errors.BAD_TOKEN, "a token is presented together with its seat")
        seat = table.check_seat_index(index)
        uid, dot, _ = msg["token"].partition(".")
        if dot and re.fullmatch(r"[0-9a-f]{8}", uid) and uid != table.uid:
            raise RequestError(
                errors.NO_TABLE,
                f"table {table.id!r} on this host is not the table your seat was at: the "
                "host was restarted without your game, which is gone",
            )
        if (
            seat.kind not in ("human", "bot")
            or seat.token is None
            or not _same_secret(seat.token, msg["token"])
        ):
            raise RequestError(errors.BAD_TOKEN, f"that token does not hold seat {index + 1} here")
        if seat.kind == "bot":
            # The player whose seat a bot took over is back: the bot leaves at once.
            seat.kind, seat.bot, seat.ready = "human", None, False
        old = seat.conn
        if old is not None and old is not conn:
            # The old connection is a half-open leftover: the token's owner is back.
            old.fail(errors.REPLACED, "your seat was taken back by a new connection with its token")
            old.table, old.seat = None, None
            old.close()
        seat.conn, seat.name = conn, table.unique_name(conn.name, index)
        conn.table, conn.seat = table, index
        self._joined(conn, msg, table, seat.token)
        notices: list[dict[str, Any]] = [
            {"type": "reconnected", "seat": index, "name": seat.name}
        ]
        if table.paused and table.away():
            notices.append({"type": "paused", "waiting": table.away()})
        table.push(notices=notices)
        table.resume_if_everyone_is_back()

    def _on_leave(self, conn: Connection, msg: dict[str, Any]) -> None:
        table = self._at_table(conn)
        seat = conn.seat
        notices = []
        if seat is not None and table.phase == "lobby":
            table.seats[seat].conn = None
            table.free_seat(seat)
            conn.table, conn.seat = None, None
            notices.append({"type": "left", "seat": seat})
        else:
            notice = table.detach(conn)
            if notice and notice["type"] == "disconnected":
                # On purpose, not a lost connection: the seat waits all the same.
                notice = {"type": "stepped_away", "seat": seat}
            if notice:
                notices.append(notice)
        self._ok(conn, msg)
        table.push(notices=notices)
        self.check_idle(table)

    def _on_pick_seat(self, conn: Connection, msg: dict[str, Any]) -> None:
        table = self._at_table(conn)
        old = table.seat_of(conn)
        table.require_phase("lobby")
        new = msg["seat"]
        target = table.check_seat_index(new)
        if new == old:
            self._ok(conn, msg)
            return
        if target.kind != "empty":
            raise RequestError(errors.SEAT_TAKEN, f"seat {new + 1} is taken")
        source = table.seats[old]
        table.seats[new], table.seats[old] = source, target
        source.ready = False
        if table.creator == old:
            table.creator = new
        conn.seat = new
        self._ok(conn, msg)
        table.push(notices=[{"type": "moved", "from": old, "to": new}])

    def _on_rename(self, conn: Connection, msg: dict[str, Any]) -> None:
        conn.name = check_name(msg["name"])
        table = conn.table
        name = conn.name
        if table is not None and conn.seat is not None:
            name = table.seats[conn.seat].name = table.unique_name(conn.name, conn.seat)
        self._ok(conn, msg)
        if table is not None:
            table.push(notices=[{"type": "renamed", "seat": conn.seat, "name": name}])

    def _on_ready(self, conn: Connection, msg: dict[str, Any]) -> None:
        table = self._at_table(conn)
        seat = table.seat_of(conn)
        table.require_phase("lobby")
        table.seats[seat].ready = msg["ready"]
        self._ok(conn, msg)
        table.push()

    def _on_chat(self, conn: Connection, msg: dict[str, Any]) -> None:
        table = self._at_table(conn)
        self._ok(conn, msg)
        # The name is the seat's (unique at the table, never a bot's), or marked as a
        # spectator's: nobody can chat under someone else's name.
        seat = conn.seat
        name = table.seats[seat].name if seat is not None else f"{conn.name} (spectator)"
        line = {
            "type": "chat",
            "table": table.id,
            "seat": conn.seat,
            "name": name,
            "text": msg["text"],
        }
        for other in table.connections():
            other.send(line)

    def _on_configure(self, conn: Connection, msg: dict[str, Any]) -> None:
        table = self._at_table(conn)
        table.require_creator(conn)
        table.require_phase("lobby")
        game_id = msg.get("game", table.game_id)
        if game_id not in engine.GAMES:
            raise RequestError(
                errors.BAD_REQUEST,
                f"unknown game {game_id!r}; known games: {', '.join(engine.GAMES)}",
            )
        spec = engine.GAMES[game_id]
        seats = msg.get("seats", len(table.seats))
        if "seats" not in msg:
            seats = min(max(seats, spec.min_seats), spec.max_seats)
        base = dict(table.options) if game_id == table.game_id else {}
        options = {**base, **msg.get("options", {})}
        try:
            spec.check_seats(seats)
            options = spec.check_options(options, seats)
        except ValueError as exc:
            raise RequestError(errors.BAD_REQUEST, str(exc)) from None
        for i in range(seats, len(table.seats)):
            s = table.seats[i]
            if s.kind == "human":
                raise RequestError(
                    errors.BAD_REQUEST,
                    f"seat {i + 1} is taken by {s.name}; they must move or leave first",
                )
        changed: dict[str, Any] = {}  # what the players are told changed
        if game_id != table.game_id:
            changed["game"] = game_id
        if seats != len(table.seats):
            changed["seats"] = seats
        new_options = {k: v for k, v in options.items()
                       if game_id != table.game_id or table.options.get(k) != v}
        if new_options:
            changed["options"] = new_options
        table.game_id, table.options = game_id, options
        table.seats = table.seats[:seats] + [Seat() for _ in range(seats - len(table.seats))]
        for s in table.seats:
            s.ready = False
        self._ok(conn, msg)
        table.push(notices=[{"type": "configured", "changed": changed}])

    def _on_add_bot(self, conn: Connection, msg: dict[str, Any]) -> None:
        table = self._at_table(conn)
        table.require_creator(conn)
        table.require_phase("lobby", "play")
        index = msg["seat"]
        seat = table.check_seat_index(index)
        if table.phase == "lobby" and seat.kind != "empty":
            raise RequestError(errors.SEAT_TAKEN, f"seat {index + 1} is not empty")
        if table.phase == "play" and not (seat.kind == "human" and seat.conn is None):
            raise RequestError(
                errors.SEAT_TAKEN, "during play only a disconnected player's seat can go to a bot"
            )
        # The away player's token stays with the seat: they may take it back from the bot.
        token = seat.token if table.phase == "play" else None
        seat.clear()
        seat.kind, seat.name, seat.token = "bot", f"Bot {index + 1}", token
        if table.phase == "play":
            seat.bot = self.bot_factory(table.game_id, index, self.seed_source())
        self._ok(conn, msg)
        table.push(notices=[{"type": "bot_added", "seat": index}])
        table.resume_if_everyone_is_back()
        table.wake_bots()

    def _on_remove_bot(self, conn: Connection, msg: dict[str, Any]) -> None:
        table = self._at_table(conn)
        table.require_creator(conn)
        table.require_phase("lobby")
        index = msg["seat"]
        if table.check_seat_index(index).kind != "bot":
            raise RequestError(errors.BAD_REQUEST, f"seat {index + 1} holds no bot")
        table.free_seat(index)
        self._ok(conn, msg)
        table.push(notices=[{"type": "bot_removed", "seat": index}])

    def _on_kick(self, conn: Connection, msg: dict[str, Any]) -> None:
        table = self._at_table(conn)
        table.require_creator(conn)
        table.require_phase("lobby")
        index = msg["seat"]
        seat = table.check_seat_index(index)
        if seat.kind != "human":
            raise RequestError(errors.BAD_REQUEST, f"seat {index + 1} holds no player")
        if index == conn.seat:
            raise RequestError(errors.BAD_REQUEST, "you cannot kick yourself; leave instead")
        victim = seat.conn
        table.free_seat(index)
        if victim is not None:
            victim.table, victim.seat = None, None
            victim.fail(errors.KICKED, f"you were removed from table {table.name!r} by its creator")
        self._ok(conn, msg)
        table.push(notices=[{"type": "kicked", "seat": index}])

    def _on_start(self, conn: Connection, msg: dict[str, Any]) -> None:
        table = self._at_table(conn)
        table.require_creator(conn)
        table.require_phase("lobby")
        table.start()
        log.info("table %s started %s", table.id, table.game_id)
        self._ok(conn, msg)

    def _on_to_lobby(self, conn: Connection, msg: dict[str, Any]) -> None:
        table = self._at_table(conn)
        table.require_creator(conn)
        table.require_phase("over")
        table.game, table.phase = None, "lobby"
        for s in table.seats:
            s.ready, s.bot = False, None
        self._ok(conn, msg)
        table.push(notices=[{"type": "back_to_lobby"}])

    def _on_act(self, conn: Connection, msg: dict[str, Any]) -> None:
        table = self._at_table(conn)
        # The acting seat is the one bound to this connection, never one named in the message.
        seat = table.seat_of(conn)
        table.act(seat, msg["action"])
        self._ok(conn, msg)


def listen_error(exc: OSError, port: int, bind: str | None) -> str:
    """Why the host could not listen, in plain words (the OS's own text only as a last resort)."""
    if exc.errno == errno.EADDRINUSE:
        return (f"port {port} is already in use on this computer (is another host running?); "
                "pick another with --port, or --port 0 for any free one")
    if exc.errno == errno.EADDRNOTAVAIL:
        return f"{bind} is not an address of this computer; leave out --bind to listen on all"
    if exc.errno == errno.EACCES:
        return f"port {port} needs administrator rights here; pick one above 1023"
    return exc.strerror or str(exc)
