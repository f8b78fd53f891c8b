"""One client connection at the host: its frames out, back-pressure and its heartbeat.

No peer may slow the others. Output per connection is bounded: while the transport holds
more than ``limits.out_high`` unsent bytes the connection is *congested*: new updates are
not framed but held (their events and notices), other frames wait in a bounded queue, and
one flusher task sends, once the peer reads again, a single catch-up update (made by the
host, with the latest view) and then the queue. A peer that stays congested for
``limits.max_skipped`` updates, or whose queue passes ``limits.out_limit`` bytes, is
dropped. Nobody else ever waits for it.

The heartbeat pings every interval and drops a peer silent for longer than the timeout;
time the host itself was too busy to run (:class:`LoopWatch`) is not the peer's silence.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import os
import socket
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from net.fanout import Sent
from net.limits import Bucket, Limits
from net.wire import codec, errors, framing, stream

if TYPE_CHECKING:
    from net.table import Table

log = logging.getLogger("hiddenhand.host")

#: Refused frames of one connection that each get a line in the log.
LOGGED_REFUSALS = 5
#: Seconds a closed connection has to take its last frames before it is cut off.
CLOSE_GRACE = 5.0

#: ``catch_up(conn, events, notices)``: the one update that brings a connection that
#: was not reading up to date (its latest view, with the events and notices it missed),
#: or ``None`` if there is none to send.
CatchUp = Callable[["Connection", list[dict[str, Any]], list[dict[str, Any]]], bytes | None]

_connection_ids = itertools.count(1)
#: Who an in-process connection is (``Host.open_local``): the person whose app runs the
#: host, and whose games it keeps (``net.whose.reviewer``).
LOCAL_PLAYER = "local"


def socket_time() -> float:
    """What a connection's liveness and message rate are measured on: the event loop's
    clock (real sockets, real seconds), whatever clock the host's tables run on."""
    return asyncio.get_running_loop().time()


class LoopWatch:
    """Measures how long the event loop was too busy to run anything: a peer cannot
    answer pings the host did not send, nor be heard while the host reads nothing."""

    def __init__(self) -> None:
        #: Seconds the loop was measured too busy to run, in all.
        self.stalled = 0.0

    async def run(self, tick: float) -> None:
        """Sleep ``tick`` after ``tick``; count lateness past one tick as stalled."""
        loop = asyncio.get_running_loop()
        while True:
            before = loop.time()
            await asyncio.sleep(tick)
            late = loop.time() - before - tick
            if late > tick:
                self.stalled += late


def room_to_return(connections: set[Connection], reserve: int) -> None:
    """A connection is let in past a full host's limit to take a seat back: if that
    makes more than ``reserve`` such, the one waiting longest goes (strangers that
    reopened theirs as fast as they were closed held the room shut for good; now a
    returning player has until as many more have come)."""
    waiting = sorted((c for c in connections if c.returning), key=lambda c: c.opened)
    for conn in waiting[:max(0, len(waiting) - reserve)]:
        conn.returning = False
        conn.fail(errors.HOST_FULL, "this host takes no more connections now, and others "
                  "came to take their seat back; closing the connection")
        conn.close()


class Connection:
    """One client connection: its stream, its name, and the seat bound to it (see the
    module for how its output is bounded)."""

    def __init__(
        self,
        reader: stream.FrameReader,
        writer: stream.FrameWriter,
        now: float,
        burst: int,
        limits: Limits | None = None,
        catch_up: CatchUp | None = None,
    ) -> None:
        self.id = next(_connection_ids)
        self.reader = reader
        self.writer = writer
        self.limits = limits or Limits()
        self.catch_up = catch_up
        self.name = ""
        #: Who this is across connections (``net.idle``): a new key, until a seat's
        #: token shows it is the person who took that seat.
        self.player = os.urandom(8).hex()
        self.welcomed = False
        #: Let in past the host's connection limit to take a seat back, and nothing
        #: else until it has (``Limits.returning_reserve``).
        self.returning = False
        self.table: Table | None = None
        self.seat: int | None = None
        self.last_seen = now
        #: The loop watch's ``stalled`` total when this peer was last heard.
        self.stalled_seen = 0.0
        self.opened = now
        self.allowance = float(burst)
        self.warned = False
        #: Frames of this peer that were no message (``Limits.max_bad_frames``).
        self.bad_frames = 0
        #: When this peer began sending faster than the rate, or ``None`` while it keeps
        #: within it (``Limits.flood_close``).
        self.flooding_since: float | None = None
        #: Refusals of this peer's frames written to the log (see :meth:`log_refusal`).
        self.refusals_logged = 0
        self.closed = False
        #: Human-scale rate limits by kind of request (chat, rename, lobby).
        self.buckets: dict[str, Bucket] = {}
        self.congested = False
        self.skipped = 0
        #: What this connection was last sent (``net.fanout``).
        self.sent = Sent()
        self._held: Table | None = None
        self._held_events: list[dict[str, Any]] = []
        self._held_notices: list[dict[str, Any]] = []
        self._queued: list[bytes] = []
        self._queued_bytes = 0
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

    async def serve(self, on_frame: Callable[[bytes], None]) -> None:
        """Hand each frame the peer sends to ``on_frame`` the moment it has arrived,
        until the stream ends (with a last ``error`` if it broke the framing)."""
        # Before hello only a small frame is read: a hello is tiny, and nothing big
        # may cost the host anything before the peer has said who it is.
        self.reader.deliver(
            on_frame, lambda: framing.MAX_FRAME if self.welcomed else framing.MAX_HELLO_FRAME)
        end = await self.reader.ended
        if isinstance(end, errors.ProtocolError):
            log.info("connection %d: %s: %s", self.id, end.code, end.message)
            self.fail(end.code, end.message)
            self.close()

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
        if transport.is_closing():
            # The peer is gone (a reset) or going: its loss is on its way to us. Writing
            # on would only have asyncio log "socket.send() raised exception." each time.
            return
        try:
            transport.write(frame)
        except (ConnectionError, RuntimeError):
            self.abort()
            return
        if transport.get_write_buffer_size() > self.limits.out_high:
            self._congest()

    def hold(self, events: list[dict[str, Any]], notices: list[dict[str, Any]]) -> None:
        """While congested: keep an update's events and notices for the catch-up."""
        if self.closed:
            return
        if self._held is not self.table:
            self._held_events, self._held_notices = [], []
        self._held = self.table
        self._held_events.extend(events)
        self._held_notices.extend(notices)
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
        until one flusher has sent what waits (see the module)."""
        if not self.congested:
            self.congested = True
            self._flusher = asyncio.get_running_loop().create_task(self._flush())

    async def _flush(self) -> None:
        """Once the peer reads again: its catch-up update, then whatever else waited."""
        try:
            while not self.closed:
                await self.writer.drain()
                if self.closed:
                    return
                table, self._held = self._held, None
                events, notices = self._held_events, self._held_notices
                self._held_events, self._held_notices = [], []
                queued, self._queued, self._queued_bytes = self._queued, [], 0
                if table is not None and table is self.table and self.catch_up is not None:
                    frame = self.catch_up(self, events, notices)
                    if frame is not None:
                        self.writer.write(frame)
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

    def log_refusal(self, code: str, message: str) -> None:
        """One short line for a refused frame, for the first :data:`LOGGED_REFUSALS`;
        then one line saying the rest go unlogged (a peer sending garbage at the rate
        limit would otherwise write the host's log full)."""
        self.refusals_logged += 1
        if self.refusals_logged <= LOGGED_REFUSALS:
            log.info("connection %d: %s: %s", self.id, code, message)
        elif self.refusals_logged == LOGGED_REFUSALS + 1:
            log.info("connection %d: more refused frames; not logging them", self.id)

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
            transport = self.writer.transport
            # (Only while it has something left to send: the timer holds the connection
            # for its grace, and strangers refused a few thousand times a second were
            # tens of MB held for nothing.)
            if transport.get_write_buffer_size():
                asyncio.get_running_loop().call_later(CLOSE_GRACE, transport.abort)

    def abort(self) -> None:
        """Close at once, discarding anything unsent."""
        self.closed = True
        self._queued, self._queued_bytes, self._held = [], 0, None
        self._held_events, self._held_notices = [], []
        if self._flusher is not None and self._flusher is not asyncio.current_task():
            self._flusher.cancel()
        with contextlib.suppress(Exception):
            self.writer.transport.abort()

    def silent(self, now: float, watch: LoopWatch) -> float:
        """Seconds the peer has been silent, not counting time the host was stalled."""
        return now - self.last_seen - (watch.stalled - self.stalled_seen)

    async def heartbeat(self, interval: float, timeout: float, watch: LoopWatch) -> None:
        """Ping every ``interval``; drop the peer once silent for longer than
        ``timeout`` (or without a hello for twice that)."""
        loop = asyncio.get_running_loop()
        while not self.closed:
            due = loop.time() + interval
            await asyncio.sleep(interval)
            now = loop.time()
            if now - due > interval / 2:
                # The host itself was busy: the peer had no chance to be heard. Ping it
                # and judge it on the next round.
                self.send({"type": "ping"})
                continue
            if not self.welcomed and now - self.opened > 2 * timeout:
                self.fail(errors.TIMEOUT, "no hello in time; closing the connection")
                self.close()
                return
            if self.returning and now - self.opened > 2 * timeout:
                # (Let in past a full host's limit to take a seat back: one that only
                # answers pings would hold that room for as long as it liked.)
                self.fail(errors.HOST_FULL, "this host takes no more connections now, "
                          "and no seat was taken back in time; closing the connection")
                self.close()
                return
            if self.silent(now, watch) > timeout:
                log.info("connection %d went silent; dropping it", self.id)
                self.fail(errors.TIMEOUT, "no word from you in time; closing the connection")
                self.abort()
                return
            self.send({"type": "ping"})
