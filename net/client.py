"""The client library used by the TUI and by bots.

Connect to a host by address (or in-process, with no network at all), say hello,
create or join a table, act, and receive the host's pushes as an async stream::

    client = await Client.connect("192.168.1.20", 4455, name="Ann")
    joined = await client.join("t1")
    async for msg in client:   # "update", "chat", a "warning" or an unsolicited "error"
        if msg["type"] == "update" and msg["legal"]:
            await client.act(msg["legal"][0])

A dropped player comes back with :meth:`Client.join` passing the seat and the token of
the first :class:`Joined`. Requests raise :class:`ServerError` when refused and
:class:`ConnectionLost` once the connection is gone.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any, NamedTuple

from net.host_views import check_message as checked
from net.inbox import Inbox, Message
from net.wire import codec, errors, framing, stream

log = logging.getLogger(__name__)

if TYPE_CHECKING:
    from net.host import Host

#: The code of a :class:`ServerError` raised for a reply that makes no sense.


class ServerError(Exception):
    """The host refused a request; ``code`` is the protocol's error code."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class ConnectionLost(Exception):
    """The connection to the host is closed; ``reason`` says why when known."""


class NotAHost(ConnectionLost):
    """The TCP connection was made, but no hiddenhand host answered the hello on it:
    ``answered`` if bytes came that are not the protocol, else nothing came in time."""

    def __init__(self, message: str, *, answered: bool) -> None:
        super().__init__(message)
        self.answered = answered


class Joined(NamedTuple):
    """Where a join put us: the table, our seat (``None`` for a spectator), our token."""

    table: str
    seat: int | None
    token: str | None


class Client:
    """One connection to a host. Make one with :meth:`connect` or :meth:`local`.

    Every message is checked as it arrives (``net.host_views``): one this app cannot
    read ends the connection with a final ``bad_host`` error saying where. An ``update``
    carries the table's public part only when it changed, and after a game's first view
    only what changed (``view_changes``); the client keeps the last of each and hands on
    every ``update`` (and :attr:`latest`) whole, values that did not change shared
    between views (read them, do not change them). It answers pings itself and gives up
    on a host silent for four heartbeats. ``record_frames`` keeps every raw frame body.
    """

    def __init__(self, reader: stream.FrameReader, writer: stream.FrameWriter, *,
                 record_frames: bool = False) -> None:
        self._reader = reader
        self._writer = writer
        self._refs = itertools.count(1)
        self._pending: dict[int, asyncio.Future[Message]] = {}
        self._queue = Inbox()
        self._task: asyncio.Task[None] | None = None
        self._watchdog: asyncio.Task[None] | None = None
        self._last_seen = 0.0
        self.record_frames = record_frames
        self.raw_frames: list[bytes] = []
        self.welcome: Message = {}
        self.joined: Joined | None = None
        #: The table's recent past the last ``joined`` reply carried (plain data from the
        #: host, checked as messages are: a list of maps, nothing else).
        self.past: list[Message] = []
        self.latest: Message | None = None
        #: Called with every pushed message the moment it is read, before it is queued
        #: for ``next``/``async for`` (which hand it on one event-loop turn later).
        self.listeners: list[Callable[[Message], None]] = []
        #: The table's public part as last sent by the host.
        self.table: dict[str, Any] | None = None
        #: The view of the last update: the next may carry only what changed.
        self.view: dict[str, Any] | None = None
        self._legal: list[Any] | None = None  # (checked: see ``net.host_views``)
        self.result: dict[str, Any] | None = None
        self.closed = False
        self.close_reason: str | None = None
        #: Bytes that are not the protocol came before the welcome (``NotAHost``).
        self._garbled = False
        #: Why the stream will have ended, if the end itself does not say.
        self._reason = "the host closed the connection"
        self._loop = asyncio.get_running_loop()

    # ---- making a connection ----------------------------------------------------------

    @classmethod
    async def connect(cls, host: str, port: int, *, name: str, timeout: float = 5.0,
                      record_frames: bool = False, visitor: str | None = None) -> Client:
        """Connect and say hello (``visitor``: the id a box gave its app's player);
        raises ``OSError``/``ServerError`` on failure."""
        try:
            reader, writer = await asyncio.wait_for(stream.open_connection(host, port), timeout)
        except TimeoutError:
            raise ConnectionLost(f"no answer from {host}:{port} within {timeout} s") from None
        client = cls(reader, writer, record_frames=record_frames)
        await client._start(name, timeout, visitor)
        return client

    @classmethod
    async def local(cls, host: Host, *, name: str, record_frames: bool = False) -> Client:
        """Connect to an in-process host through a socket pair: no TCP port, no network."""
        reader, writer = await host.open_local()
        client = cls(reader, writer, record_frames=record_frames)
        await client._start(name, 5.0)
        return client

    async def _start(self, name: str, timeout: float, visitor: str | None = None) -> None:
        loop = self._loop
        self._last_seen = loop.time()
        self._reader.deliver(self._on_frame)
        self._task = loop.create_task(self._read_loop())
        try:
            self.welcome = await asyncio.wait_for(
                self.request("hello", version=framing.PROTOCOL_VERSION, name=name,
                             **({"visitor": visitor} if visitor else {})), timeout
            )
        except TimeoutError:
            await self.close()
            raise NotAHost(f"no answer to hello within {timeout} s", answered=False) from None
        except ConnectionLost as exc:
            await self.close()
            if self._garbled:
                raise NotAHost(f"the answer was not the protocol: {exc}", answered=True) from None
            raise
        except BaseException:
            await self.close()
            raise
        heartbeat = self.welcome.get("heartbeat")
        if isinstance(heartbeat, int | float) and heartbeat > 0:
            self._watchdog = loop.create_task(self._watch(float(heartbeat)))

    # ---- receiving ----------------------------------------------------------------------

    def _on_frame(self, body: bytes) -> None:
        """Each frame, the moment it has arrived (see :class:`net.wire.stream.FrameReader`)."""
        try:
            msg = codec.unpack_body(body)
        except errors.ProtocolError as exc:
            self._reason = exc.message
            if not self.welcome:
                # Before the welcome, bytes that are not the protocol: no host there.
                self._garbled = True
                self._reader.stop()
            return
        self._last_seen = self._loop.time()
        if self.record_frames:
            self.raw_frames.append(body)
        self._handle(msg)

    async def _read_loop(self) -> None:
        """Wait for the end of the stream (frames are handled as they arrive)."""
        reason = None
        try:
            end = await self._reader.ended
            if isinstance(end, errors.ProtocolError):
                reason = end.message
                self._garbled = self._garbled or not self.welcome
            elif end is not None:
                reason = f"connection lost: {end}"
        finally:
            self._finish(reason or self._reason)

    def _handle(self, msg: Message) -> None:
        kind = msg.get("type")
        try:
            checked(msg, self.table, self._legal)
        except errors.ProtocolError as refused:
            return self._refuse_host(refused)
        self._legal = msg.get("legal") if kind == "update" else self._legal
        if kind == "update":  # nearly every message: looked at first
            self.table = msg.setdefault("table", self.table)
            changes = msg.pop("view_changes", None)
            if changes is not None:
                if self.view is None:
                    log.warning("an update changed a view this client never had")
                    return
                msg["view"] = codec.apply_view_changes(self.view, changes)
            self.view = msg.get("view")
            self.latest = msg
            for notice in msg.get("notices", ()):
                if notice.get("type") == "game_over":
                    self.result = notice.get("result")
                elif notice.get("type") == "started":
                    self.result = None
        else:
            if kind == "ping":
                self._send({"type": "pong"})
                return
            if kind == "pong" and "ref" not in msg:
                return
            ref = msg.get("ref")
            future = self._pending.pop(ref, None) if isinstance(ref, int) else None
            if future is not None:
                if future.done():
                    return
                if kind == "error":
                    future.set_exception(
                        ServerError(str(msg.get("code")), str(msg.get("message")))
                    )
                else:
                    future.set_result(msg)
                return
            if kind == "error" and msg.get("code") in {errors.KICKED, errors.REPLACED}:
                self.joined = None
            elif kind == "error" and msg.get("code") == errors.IDLE:
                # The host closes the connection next: what ends it says why.
                self._reason = str(msg.get("message"))
        for listener in self.listeners:
            try:
                listener(msg)
            except Exception:  # the caller's bug must not cut the connection
                log.exception("a listener of a hiddenhand client failed")
        self._queue.put(msg)

    def _refuse_host(self, exc: errors.ProtocolError) -> None:
        """Leave a host that sent what this app cannot read, with a final error (it
        would only send it again)."""
        reason = self._reason = f"the host sent what this app cannot read ({exc.message})"
        log.warning("%s", reason)
        final = {"type": "error", "code": errors.BAD_HOST, "message": reason}
        for listener in self.listeners:
            with contextlib.suppress(Exception):
                listener(final)
        self._queue.put(final)
        self._reader.stop()
        self._finish(reason)

    def _finish(self, reason: str) -> None:
        if self.close_reason is None:
            self.close_reason = reason
        self.closed = True
        for future in self._pending.values():
            if not future.done():
                future.set_exception(ConnectionLost(self.close_reason))
        self._pending.clear()
        self._queue.put(None)
        with contextlib.suppress(Exception):
            self._writer.close()

    async def _watch(self, heartbeat: float) -> None:
        loop = asyncio.get_running_loop()
        while not self.closed:
            due = loop.time() + heartbeat
            await asyncio.sleep(heartbeat)
            if loop.time() - due > heartbeat / 2:
                # This process was too busy to read (the host's pings may be waiting in
                # the socket): judge the host on the next round, as the host judges us.
                continue
            if loop.time() - self._last_seen > 4 * heartbeat:
                self.close_reason = "the host stopped answering"
                self.abort()
                return

    def __aiter__(self) -> Client:
        return self

    async def __anext__(self) -> Message:
        """The next pushed message; the iteration ends with the stream."""
        msg = await self._queue.get()
        if msg is None:
            self._queue.put(None)
            raise StopAsyncIteration
        return msg

    async def next(self, timeout: float | None = None) -> Message:
        """The next pushed message; ``ConnectionLost`` once the stream has ended."""
        msg = await asyncio.wait_for(self._queue.get(), timeout)
        if msg is None:
            self._queue.put(None)
            raise ConnectionLost(self.close_reason or "closed")
        return msg

    async def wait_for(self, predicate: Callable[[Message], bool], timeout: float = 10.0
                       ) -> Message:
        """Skip pushed messages until one satisfies ``predicate``; ``TimeoutError`` if none."""
        async with asyncio.timeout(timeout):
            while True:
                msg = await self.next()
                if predicate(msg):
                    return msg

    def pending(self) -> list[Message]:
        """Take every pushed message already received, without waiting."""
        out = []
        for msg in self._queue.take_all():
            if msg is None:
                self._queue.put(None)
                break
            out.append(msg)
        return out

    # ---- sending ------------------------------------------------------------------------

    def _send(self, msg: Message) -> None:
        if self.closed:
            raise ConnectionLost(self.close_reason or "closed")
        try:
            self._writer.write(codec.pack(msg))
        except (ConnectionError, RuntimeError) as exc:
            raise ConnectionLost(str(exc)) from None

    async def send_raw(self, data: bytes) -> None:
        """Write bytes as they are (tests use it to send broken frames)."""
        self._writer.write(data)
        await self._writer.drain()

    async def request(self, kind: str, **fields: Any) -> Message:
        """Send a request with a fresh ``ref`` and wait for the reply that echoes it."""
        return await self.send_request(kind, **fields)

    def send_request(self, kind: str, **fields: Any) -> Coroutine[Any, Any, Message]:
        """:meth:`request` in two halves: the request is written before this returns
        (a key's move is on its way before the screen redraws for it), and the coroutine
        returned waits for the reply; ``ConnectionLost`` at once if the line is down."""
        ref = next(self._refs)
        future: asyncio.Future[Message] = asyncio.get_running_loop().create_future()
        self._pending[ref] = future
        try:
            self._send({"type": kind, "ref": ref, **fields})
        except BaseException:
            self._pending.pop(ref, None)
            raise
        return self._reply(ref, future)

    async def _reply(self, ref: int, future: asyncio.Future[Message]) -> Message:
        try:
            await self._writer.drain()
        except BaseException as exc:
            self._pending.pop(ref, None)
            if isinstance(exc, ConnectionError | OSError):
                raise ConnectionLost(str(exc)) from None
            raise
        return await future

    def abort(self) -> None:
        """Drop the connection at once, as a pulled cable or a laptop gone to sleep does:
        nothing more is sent (what is queued is discarded), no goodbye. The stream then
        ends as for any lost connection; the host notices when its writes fail or its
        heartbeat goes unanswered."""
        with contextlib.suppress(Exception):
            self._writer.abort()

    async def close(self) -> None:
        """Close the connection."""
        self.close_reason = self.close_reason or "closed by this client"
        with contextlib.suppress(Exception):
            self._writer.close()
        for task in (self._watchdog, self._task):
            if task is not None and task is not asyncio.current_task():
                task.cancel()
                with contextlib.suppress(BaseException):
                    await task
        if not self.closed:
            self._finish(self.close_reason)

    async def __aenter__(self) -> Client:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # ---- the requests ---------------------------------------------------------------

    async def list_tables(self) -> list[dict[str, Any]]:
        """The host's tables (id, name, game, seats, free, phase: checked on arrival)."""
        tables: list[dict[str, Any]] = (await self.request("list_tables"))["tables"]
        return tables

    def _joined(self, reply: Message) -> Joined:
        # (Its fields were checked on arrival: ``net.host_views.check_message``.)
        self.past = reply.get("past", [])
        self.joined = Joined(reply["table"], reply.get("seat"), reply.get("token"))
        return self.joined

    async def create_table(self, name: str, game: str, seats: int,
                           options: dict[str, Any] | None = None) -> Joined:
        """Open a table and take its seat 0 as its creator."""
        fields: dict[str, Any] = {"name": name, "game": game, "seats": seats}
        if options:
            fields["options"] = options
        return self._joined(await self.request("create_table", **fields))

    async def join(self, table: str, seat: int | None = None, *, token: str | None = None,
                   spectate: bool = False) -> Joined:
        """Take a seat (``seat`` or the first free one), watch, or come back with a token."""
        fields: dict[str, Any] = {"table": table}
        if seat is not None:
            fields["seat"] = seat
        if token is not None:
            fields["token"] = token
        if spectate:
            fields["spectate"] = True
        return self._joined(await self.request("join", **fields))

    async def leave(self) -> None:
        """Leave the table (a seat in play stays yours, reclaimable by token)."""
        await self.request("leave")
        self.joined = None

    async def pick_seat(self, seat: int) -> None:
        """Move to another empty seat in the lobby."""
        await self.request("pick_seat", seat=seat)
        if self.joined is not None:
            self.joined = Joined(self.joined.table, seat, self.joined.token)

    async def rename(self, name: str) -> None:
        """Change the name others see."""
        await self.request("rename", name=name)

    async def ready(self, ready: bool = True) -> None:
        """Say whether we are ready to start."""
        await self.request("ready", ready=ready)

    async def chat(self, text: str) -> None:
        """Say something to everyone at the table."""
        await self.request("chat", text=text)

    async def configure(
        self,
        game: str | None = None,
        seats: int | None = None,
        options: dict[str, Any] | None = None,
    ) -> None:
        """(Creator) change the game, the seat count or options in the lobby."""
        fields: dict[str, Any] = {}
        if game is not None:
            fields["game"] = game
        if seats is not None:
            fields["seats"] = seats
        if options is not None:
            fields["options"] = options
        await self.request("configure", **fields)

    async def add_bot(self, seat: int) -> None:
        """(Creator) give an empty seat (or, in play, a disconnected one) to a bot."""
        await self.request("add_bot", seat=seat)

    async def remove_bot(self, seat: int) -> None:
        """(Creator) empty a bot's seat in the lobby."""
        await self.request("remove_bot", seat=seat)

    async def kick(self, seat: int) -> None:
        """(Creator) remove a player from the lobby."""
        await self.request("kick", seat=seat)

    async def start(self) -> None:
        """(Creator) deal the game."""
        await self.request("start")

    async def to_lobby(self) -> None:
        """(Creator) after the game is over, take the table back to its lobby."""
        await self.request("to_lobby")

    async def rematch(self) -> None:
        """(Creator) after the game is over, the same game again (``net.lobby.rematch``)."""
        await self.request("rematch")

    async def review(self, step: str, **fields: Any) -> None:
        """A request of the table's review (``net.shared_review``): ``open``, ``go``
        (``at=``), ``follow`` or ``close``."""
        await self.request(f"review_{step}", **fields)

    async def act(self, action: dict[str, Any]) -> None:
        """Play an action for our own seat; ``ServerError`` if it is not legal now."""
        await self.request("act", action=action)

    async def ping(self) -> None:
        """Round-trip a ping to the host."""
        await self.request("ping")
