"""One connection's frames over an asyncio transport, on asyncio's public API only.

:class:`FrameReader` is the connection's ``asyncio.Protocol``: it feeds what arrives to
a :class:`~net.wire.framing.FrameSplitter` and hands each frame on from the event
loop's read callback (:meth:`FrameReader.deliver`, what the host and the client use)
or when asked (:meth:`FrameReader.next_frame`, what tests and scripts use).
:class:`FrameWriter` is its sending half. :func:`open_connection` connects one;
:func:`frame_protocol` serves them with ``loop.create_server``.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from collections.abc import Callable
from typing import Any, cast

from net.wire.errors import ConnectionClosed, ProtocolError
from net.wire.framing import MAX_FRAME, ONE_FRAME, FrameSplitter

log = logging.getLogger(__name__)

#: Frames of one connection handed on in one turn of the event loop; the rest of a
#: burst waits until every other connection had its turn.
FRAMES_PER_TURN = 32


def _max_frame() -> int:
    return MAX_FRAME


class FrameReader(asyncio.Protocol):
    """One connection's protocol: its frames in, and the flow control of its writes.

    Once :meth:`deliver` is called, every complete frame body goes to ``on_frame`` as
    soon as its last byte arrives: no task is woken per frame, and frames that arrive
    together are handed on together. Without it, :meth:`next_frame` returns one frame
    at a time. A frame whose header says it is longer than the limit is refused before
    its body is read. Until frames are delivered it holds at most one frame's worth of
    bytes (reading pauses past that): a peer cannot make it buffer more.

    :attr:`ended` resolves once, when the stream ends and nothing more will come of it:
    with ``None`` for a clean end between frames (or :meth:`stop`), a fatal
    :class:`ProtocolError` for a frame over the limit or cut off by the end, or the
    connection's own exception. Its sending half is a :class:`FrameWriter` (see
    :func:`open_connection` and :func:`frame_protocol`).
    """

    def __init__(
        self, connected: Callable[[FrameReader, FrameWriter], object] | None = None
    ) -> None:
        self._connected = connected
        self._splitter = FrameSplitter()
        self._on_frame: Callable[[bytes], None] | None = None
        self._limit: Callable[[], int] = _max_frame
        self._carrier: asyncio.Transport | None = None
        self._reading_paused = False
        #: Frames wait for the next turn (:meth:`_split`): reading is paused till then.
        self._yielded = False
        self._writing_paused = False
        self._lost = False
        #: How the stream ended, until the end is told (after the frames before it).
        self._end: tuple[BaseException | None] | None = None
        self._frame_waiter: asyncio.Future[None] | None = None
        self._drain_waiters: list[asyncio.Future[None]] = []
        #: The server's task for this connection (``connected``'s coroutine).
        self._task: asyncio.Task[Any] | None = None
        self.ended: asyncio.Future[BaseException | None] = (
            asyncio.get_running_loop().create_future())

    # ---- asyncio.Protocol -------------------------------------------------------------

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        """Keep the transport; on a server, hand the new connection to ``connected``."""
        self._carrier = cast(asyncio.Transport, transport)
        if self._connected is None:
            return
        served = self._connected(self, FrameWriter(self._carrier, self))
        if asyncio.iscoroutine(served):
            self._task = asyncio.get_running_loop().create_task(served)
            self._task.add_done_callback(self._served)

    def _served(self, task: asyncio.Task[Any]) -> None:
        self._task = None
        transport = self._carrier
        if task.cancelled():
            if transport is not None:
                transport.close()
            return
        exc = task.exception()
        if exc is not None:
            task.get_loop().call_exception_handler({
                "message": "serving a connection failed", "exception": exc,
                "transport": transport, "protocol": self})
            if transport is not None:
                transport.close()

    def data_received(self, data: bytes) -> None:
        """Bytes from the peer: frames handed on, or held until someone takes them."""
        if self.ended.done():
            return
        self._splitter.feed(data)
        if self._on_frame is not None:
            self._split(self._on_frame)
            return
        if len(self._splitter) > ONE_FRAME:
            # Nobody takes frames now: hold no more than one (a peer gets no further).
            self._pause_reading(True)
        self._wake()

    def eof_received(self) -> bool:
        """The peer will send no more; keep our half open, so that an error can still
        be sent before the owner closes."""
        self._finish(None)
        return True

    def connection_lost(self, exc: Exception | None) -> None:
        """The connection is gone: the stream ends, and writers waiting are woken."""
        self._lost = True
        self._finish(exc)
        if self._writing_paused:
            for waiter in self._drain_waiters:
                if not waiter.done():
                    if exc is None:
                        waiter.set_result(None)
                    else:
                        waiter.set_exception(exc)

    def pause_writing(self) -> None:
        """The transport holds more than its high-water mark: :meth:`writable` waits."""
        self._writing_paused = True

    def resume_writing(self) -> None:
        """The transport drained below its low-water mark: writers go on."""
        self._writing_paused = False
        for waiter in self._drain_waiters:
            if not waiter.done():
                waiter.set_result(None)

    # ---- frames in --------------------------------------------------------------------

    def deliver(self, on_frame: Callable[[bytes], None],
                limit: Callable[[], int] = _max_frame) -> None:
        """Start handing frames to ``on_frame`` (those already here first).

        ``limit()`` is asked for each frame (a host raises it after ``hello``). If
        ``on_frame`` raises, the stream ends with that exception.
        """
        self._on_frame, self._limit = on_frame, limit
        self._split(on_frame)
        if not self._yielded:
            self._pause_reading(False)
        if self._end is not None:
            self._tell_end()

    async def next_frame(self, limit: int = MAX_FRAME) -> bytes:
        """The next frame's body, for a reader that asks for each frame instead of
        having them delivered: the same splitter and limits as :meth:`deliver`.

        Raises :class:`ConnectionClosed` once the stream ended cleanly after the last
        frame, a fatal :class:`ProtocolError` for a frame over ``limit`` or cut off by
        the end, or the connection's own exception.
        """
        if self._on_frame is not None:
            raise RuntimeError("this connection's frames are delivered to a callback")
        while True:
            if self.ended.done():
                reason = self.ended.result()
                raise reason if reason is not None else ConnectionClosed()
            try:
                body = self._splitter.take(limit)
            except ProtocolError as exc:
                self.stop(exc)
                raise
            if body is not None:
                if len(self._splitter) <= ONE_FRAME:
                    self._pause_reading(False)
                return body
            if self._end is not None:
                self._tell_end()
                continue
            waiter = asyncio.get_running_loop().create_future()
            self._frame_waiter = waiter
            try:
                await waiter
            finally:
                self._frame_waiter = None

    def stop(self, reason: BaseException | None = None) -> None:
        """Hand nothing more on; :attr:`ended` resolves with ``reason``."""
        if not self.ended.done():
            self.ended.set_result(reason)
        self._splitter.clear()
        self._wake()

    def _split(self, on_frame: Callable[[bytes], None]) -> None:
        """Hand on the frames that are in, at most :data:`FRAMES_PER_TURN`: with more,
        reading pauses and the rest waits for every other connection's turn (one peer's
        burst of thousands of frames would otherwise hold the loop from everyone)."""
        take, limit, ended = self._splitter.take, self._limit, self.ended
        for _ in range(FRAMES_PER_TURN):
            if ended.done():
                return
            try:
                body = take(limit())
            except ProtocolError as exc:
                self.stop(exc)
                return
            if body is None:
                if self._yielded:
                    self._yielded = False
                    self._pause_reading(False)
                return
            try:
                on_frame(body)
            except Exception as exc:
                # The taker's bug: this stream ends (the connection's owner closes it).
                log.exception("handling a frame failed; ending the stream")
                self.stop(exc)
        if not ended.done():
            self._yielded = True
            self._pause_reading(True)
            asyncio.get_running_loop().call_soon(self._go_on)

    def _go_on(self) -> None:
        """The next turn of a connection that had more frames in than one turn takes."""
        if self._on_frame is not None and not self.ended.done():
            self._split(self._on_frame)

    def _finish(self, reason: BaseException | None) -> None:
        """The transport ended: told once the frames before the end are taken."""
        if self.ended.done() or self._end is not None:
            return
        self._end = (reason,)
        if self._on_frame is not None:
            self._tell_end()
        else:
            self._wake()

    def _tell_end(self) -> None:
        assert self._end is not None
        reason = self._end[0]
        self.stop(reason if reason is not None else self._splitter.cut_short())

    def _wake(self) -> None:
        waiter = self._frame_waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    def _pause_reading(self, pause: bool) -> None:
        transport = self._carrier
        if transport is not None and pause != self._reading_paused:
            self._reading_paused = pause
            with contextlib.suppress(RuntimeError):  # the transport is closing
                if pause:
                    transport.pause_reading()
                else:
                    transport.resume_reading()

    # ---- flow control of writes ---------------------------------------------------------

    async def writable(self) -> None:
        """Return once the transport takes more writes (at once unless asyncio paused
        writing); raise ``ConnectionResetError`` once the connection is lost."""
        if self._lost:
            raise ConnectionResetError("Connection lost")
        if not self._writing_paused:
            return
        waiter = asyncio.get_running_loop().create_future()
        self._drain_waiters.append(waiter)
        try:
            await waiter
        finally:
            self._drain_waiters.remove(waiter)


class FrameWriter:
    """The sending half of a connection: what the host, the client and tests use of
    its transport (``transport`` itself for the write-buffer size and limits)."""

    __slots__ = ("_reader", "transport")

    def __init__(self, transport: asyncio.Transport, reader: FrameReader) -> None:
        self.transport = transport
        self._reader = reader

    def write(self, data: bytes) -> None:
        """Hand bytes (whole frames) to the transport."""
        self.transport.write(data)

    def write_eof(self) -> None:
        """Send no more (the peer reads an end of stream); reading goes on."""
        self.transport.write_eof()

    def close(self) -> None:
        """Close once what was written is sent."""
        self.transport.close()

    def abort(self) -> None:
        """Close at once, discarding anything unsent."""
        self.transport.abort()

    def is_closing(self) -> bool:
        """True once the connection is closed or closing."""
        return self.transport.is_closing()

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        """The transport's information (``peername``, ``socket`` …)."""
        return self.transport.get_extra_info(name, default)

    async def drain(self) -> None:
        """Wait until the transport takes more writes; ``ConnectionResetError`` once
        the connection is lost."""
        if self.transport.is_closing():
            # One turn of the loop lets a closed connection be told as lost first.
            await asyncio.sleep(0)
        await self._reader.writable()


async def open_connection(
    host: str | None = None, port: int | None = None, **options: Any
) -> tuple[FrameReader, FrameWriter]:
    """Connect to ``host:port`` (to the Unix socket ``host`` if it is an absolute path;
    or, with ``sock=``, over a connected socket); other keywords are
    ``loop.create_connection``'s (``local_addr`` …)."""
    loop = asyncio.get_running_loop()
    if host is not None and host.startswith("/"):
        transport, reader = await loop.create_unix_connection(FrameReader, host, **options)
    elif host is None or port is None:  # over a connected socket (``sock=``)
        transport, reader = await loop.create_connection(FrameReader, **options)
    else:
        transport, reader = await loop.create_connection(FrameReader, host, port, **options)
    return reader, FrameWriter(cast(asyncio.Transport, transport), reader)


def frame_protocol(
    connected: Callable[[FrameReader, FrameWriter], object],
) -> Callable[[], FrameReader]:
    """A protocol factory for ``loop.create_server`` that gives ``connected`` each
    connection's :class:`FrameReader` and :class:`FrameWriter` (a coroutine it returns
    runs as the connection's task; if it fails, the connection is closed)."""
    return functools.partial(FrameReader, connected)
