"""The web door's connections, held to limits before aiohttp reads a byte of them.

aiohttp bounds what a request may hold, but not how many connections it keeps nor how
long one may take to send its request: 8,000 requests left half-sent (no join link
needed) stayed open a minute and more, and under the usual limit of 1,024 open files
1,100 of them locked every visitor out (a hostile pass). :class:`Guard` stands between
the listening socket and aiohttp's protocol (``AppRunner.server``, as aiohttp's own
sites pass it to ``loop.create_server``):

- a connection must send its first whole request within :data:`REQUEST_WITHIN`
  seconds of opening (after that aiohttp closes one idle between requests);
- one address keeps at most :data:`PER_ADDRESS` connections; past :data:`MOST` in all,
  the one whose last request is oldest gives way (a tab's websocket never does), so a
  flood must outpace every visitor's requests to keep anyone out.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from aiohttp import web
from aiohttp.http import HttpProcessingError

log = logging.getLogger("hiddenhand.web")

#: Seconds a connection has to send its first whole request.
REQUEST_WITHIN = 15.0
#: Connections from one client address at once (a browser opens about six, and one a tab).
PER_ADDRESS = 32
#: Connections in all (each is an open file; the apps need theirs too).
MOST = 256


class Guard:
    """Counts the door's connections, closes those over its limits (see the module)."""

    def __init__(self, *, most: int = MOST, per_address: int = PER_ADDRESS,
                 request_within: float = REQUEST_WITHIN) -> None:
        self.most = most
        self.per_address = per_address
        self.request_within = request_within
        #: Open connections by transport, oldest request first (a request moves its
        #: connection to the end).
        self.open: dict[asyncio.BaseTransport, _Guarded] = {}

    def protocol_factory(self, inner: Callable[[], asyncio.Protocol]
                         ) -> Callable[[], asyncio.Protocol]:
        """What ``loop.create_server`` takes: ``inner``'s protocols, guarded."""
        return lambda: _Guarded(self, inner())

    @web.middleware
    async def middleware(self, request: web.Request,
                         handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
                         ) -> web.StreamResponse:
        """A request came whole: its connection is in no hurry now, and the last to
        give way."""
        guarded = self.open.pop(request.transport, None) if request.transport else None
        if guarded is not None:
            self.open[guarded.transport] = guarded
            guarded.disarm()
        return await handler(request)

    def websocket(self, request: web.Request) -> None:
        """The request's connection is a tab's websocket now: it stays as long as the
        tab (the visit has its own limits and idle time)."""
        guarded = self.open.get(request.transport) if request.transport else None
        if guarded is not None:
            guarded.lasting = True

    def opened(self, guarded: _Guarded) -> bool:
        """Count ``guarded`` in, closing another if it must; ``False``: refused."""
        address = guarded.address
        if sum(1 for other in self.open.values() if other.address == address) >= (
                self.per_address):
            log.warning("refused a connection from %s: it has %d open", address,
                        self.per_address)
            return False
        if len(self.open) >= self.most:
            oldest = next((g for g in self.open.values() if not g.lasting), None)
            if oldest is None:
                log.warning("refused a connection from %s: %d are open", address, self.most)
                return False
            log.warning("closed a connection from %s waiting for a request: %d are open",
                        oldest.address, self.most)
            oldest.close()
        self.open[guarded.transport] = guarded
        return True

    def closed(self, guarded: _Guarded) -> None:
        """``guarded`` is gone."""
        if self.open.get(guarded.transport) is guarded:
            del self.open[guarded.transport]


class BadRequestsInOneLine(logging.Filter):
    """aiohttp logs a request it cannot parse (a header too long, a malformed line:
    anyone may send one, no join link needed) with its whole traceback, quoting the
    request: one line each now, saying what was wrong."""

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        if isinstance(error, HttpProcessingError):
            where = record.args[0] if isinstance(record.args, tuple) and record.args else "?"
            what = "".join(ch if ch.isprintable() else "?" for ch in str(error.message))[:80]
            record.msg, record.args = "refused a malformed request from %s: %s", (where, what)
            record.exc_info, record.exc_text = None, None
            record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True


class _Guarded(asyncio.Protocol):
    """aiohttp's protocol for one connection, behind the guard."""

    def __init__(self, guard: Guard, inner: asyncio.Protocol) -> None:
        self.guard = guard
        self.inner = inner
        self.transport: asyncio.Transport
        self.address = "?"
        self.lasting = False
        self.admitted = False
        self._timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)  # (a TCP server's)
        self.transport = transport
        peer = transport.get_extra_info("peername")
        self.address = str(peer[0]) if peer else "?"
        if not self.guard.opened(self):
            transport.abort()
            return
        self.admitted = True
        self.inner.connection_made(transport)
        self._timer = asyncio.get_running_loop().call_later(self.guard.request_within,
                                                            self._late)

    def disarm(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _late(self) -> None:
        self._timer = None
        log.info("closed a connection from %s: no whole request in %g seconds",
                 self.address, self.guard.request_within)
        self.close()

    def close(self) -> None:
        self.disarm()
        self.guard.closed(self)
        self.transport.abort()

    def data_received(self, data: bytes) -> None:
        if self.admitted:
            self.inner.data_received(data)

    def eof_received(self) -> bool | None:
        return self.inner.eof_received() if self.admitted else None

    def pause_writing(self) -> None:
        if self.admitted:
            self.inner.pause_writing()

    def resume_writing(self) -> None:
        if self.admitted:
            self.inner.resume_writing()

    def connection_lost(self, exc: Exception | None) -> None:
        self.disarm()
        self.guard.closed(self)
        if self.admitted:
            self.inner.connection_lost(exc)


__all__ = ["MOST", "PER_ADDRESS", "REQUEST_WITHIN", "BadRequestsInOneLine", "Guard"]
