"""One browser tab's game at the web door: its app, and the bytes between them.

A :class:`WebVisit` is let in by the box's limits (:meth:`net.box.Box.admit`), starts
the app on two pipes in the protocol of Textual's web driver, relays the app's output
to the tab and the tab's keys, sizes and focus to the app, and ends the app when the
tab closes (or idles). What the tab sends is held to a person's pace; what is sent to
it must be taken within :data:`SEND_WITHIN` seconds.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import signal
from collections.abc import Awaitable
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

from net.box import IdleTimer, idle_words
from net.limits import Bucket
from net.paths import TOUCH_ENV
from net.visit import AppProcess, visitor_env

if TYPE_CHECKING:
    from net.webdoor import WebDoor

log = logging.getLogger("hiddenhand.web")

#: A visit's input the app has not read yet, beyond which the visit is flooding.
MAX_PENDING_INPUT = 256 * 1024
#: The largest websocket message the page script sends (a paste, a resize).
MAX_MESSAGE = 64 * 1024
_PRELUDE = b"__GANGLION__\n"
#: Output this large is a drawn screen (the driver's set-up writes are a few bytes).
FIRST_FRAME = 512
#: Seconds a message to the tab may wait to be sent: a tab that stopped reading held
#: its place for good (the send waited, and with it everything of the visit).
SEND_WITHIN = 30.0
#: What one tab may send: keys, clicks and wheel turns, a few hundred a second at most
#: (one tab's 56,000 pings a second took most of the door's time from everyone); and
#: of it pings, which the page script sends now and then.
TAB_RATE, TAB_BURST = 300.0, 1000
PING_RATE, PING_BURST = 2.0, 10
#: Seconds an app has to draw its first screen before the visit is given up as not
#: started. Idleness counts from that screen: nobody can press a key before it.
START_LIMIT = 60.0


def clamp(value: object, default: int) -> int:
    """A window dimension the browser claims, as a number of cells the app can take."""
    try:
        number = int(str(value))
    except ValueError:
        return default
    return min(max(number, 1), 1000)


def packet(kind: bytes, payload: bytes) -> bytes:
    """One packet of Textual's web driver protocol: kind, 4-byte length, payload."""
    return kind + len(payload).to_bytes(4, "big") + payload


class WebVisit:
    """One browser tab's game: the app it runs and the bytes between them."""

    def __init__(self, door: WebDoor, address: str, name: str, browser: str) -> None:
        self.door = door
        self.address = address
        self.name = name
        self.browser = browser
        self.websocket = web.WebSocketResponse(heartbeat=20, max_msg_size=MAX_MESSAGE)
        self.process = AppProcess(door.box, f"{name!r} (web)", stop_signal=signal.SIGTERM,
                                  owner=self)
        self.idle = IdleTimer(door.box.settings.idle_timeout, self._idle,
                              lambda: self.process.warn_idle())
        self._stdin: asyncio.WriteTransport | None = None
        self._farewell: str | None = None
        self._start_timer: asyncio.TimerHandle | None = None
        self._shown = False
        #: The tab's TCP connection, cut if it stops reading (:meth:`_sent`).
        self.connection: asyncio.Transport | None = None

    @property
    def who(self) -> str:
        return f"{self.name!r} (web)"

    async def run(self, request: web.Request) -> None:
        """Let the visitor in (or say why not), run their app until either side ends."""
        self.connection = request.transport
        await self.websocket.prepare(request)
        refusal = self.door.box.admit(self)
        if refusal is not None:
            log.warning("refused %s from %s: %s", self.who, self.address, refusal)
            await self._say(f"hiddenhand: {refusal}")
            await self._close_tab()
            return
        try:
            self._start_timer = asyncio.get_running_loop().call_later(
                START_LIMIT, self._not_started)
            try:
                reader = await self._start(clamp(request.query.get("width"), 80),
                                           clamp(request.query.get("height"), 24),
                                           touch=request.query.get("touch") == "1")
            except OSError as exc:
                log.error("%s: could not start the app: %s", self.who, exc)
                await self._say("hiddenhand: the game could not start on this box; "
                                "try again later")
                return
            relay = asyncio.create_task(self._relay(reader))
            try:
                await self._listen()
            except ConnectionError:  # (the tab's connection broke: it is gone)
                pass
            finally:
                self.process.stop("the tab closed")
                await self.process.ended.wait()
                await relay
        finally:
            self.idle.cancel()
            if self._start_timer is not None:
                self._start_timer.cancel()
            if self._stdin is not None:
                self._stdin.close()
            self.door.box.release(self)
            await self._close_tab()

    async def _start(self, width: int, height: int, *, touch: bool = False
                     ) -> asyncio.StreamReader:
        """Start the app on two pipes, the web driver's stdin and stdout (``touch``: the
        page says its pointer is a finger: a phone, a tablet)."""
        argv, data = self.door.box.app_argv(self.name, self.door.player_dir(self.browser))
        data.mkdir(mode=0o700, parents=True, exist_ok=True)
        env = visitor_env({
            "TEXTUAL_DRIVER": "textual.drivers.web_driver:WebDriver",
            "TEXTUAL_COLOR_SYSTEM": "truecolor", "TERM_PROGRAM": "textual",
            "COLUMNS": str(width), "ROWS": str(height),
            # The app ends with this process, even after a kill -9 (tui.cli).
            "HIDDENHAND_DOOR_PID": str(os.getpid()),
            **({TOUCH_ENV: "1"} if touch else {}),
            **self.door.box.app_env(data.name)})
        in_read, in_write = os.pipe()
        out_read, out_write = os.pipe()
        try:
            pid = self.process.spawn(argv, env, [
                (os.POSIX_SPAWN_DUP2, in_read, 0),
                (os.POSIX_SPAWN_DUP2, out_write, 1),
                (os.POSIX_SPAWN_OPEN, 2, str(data / "app-errors.log"),
                 os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600),
            ])
        finally:
            os.close(in_read)
            os.close(out_write)
        loop = asyncio.get_running_loop()
        reader = asyncio.StreamReader(limit=2 ** 20)
        await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader),
                                     os.fdopen(out_read, "rb", 0))
        transport, _ = await loop.connect_write_pipe(asyncio.Protocol,
                                                     os.fdopen(in_write, "wb", 0))
        self._stdin = transport
        log.info("%s from %s: app pid %d at %dx%d", self.who, self.address, pid, width, height)
        return reader

    async def _relay(self, reader: asyncio.StreamReader) -> None:
        """The app's output to the browser, until it ends; then the tab is told."""
        started = False
        with contextlib.suppress(asyncio.IncompleteReadError, ConnectionError):
            for _ in range(20):  # what the app may print before the driver starts
                if await reader.readline() == _PRELUDE:
                    started = True
                    break
            focused = False
            while started:
                kind = await reader.readexactly(1)
                size = int.from_bytes(await reader.readexactly(4), "big")
                payload = await reader.readexactly(size)
                if kind == b"D":
                    await self._sent(self.websocket.send_bytes(payload))
                    self._shown = True
                    if not focused and size >= FIRST_FRAME:
                        # Textual's web driver makes the app unfocused as it starts (no
                        # footer keys) and the page script says "focus" only when its
                        # terminal gains it, maybe before the app listens. A tab just
                        # opened is in front: said once the app has drawn its first frame.
                        focused = True
                        self._meta({"type": "focus"})
                        self._drawn()
                elif kind == b"M" and json.loads(payload).get("type") == "exit":
                    break
        # The app is gone or going: the tab's socket closes once the app is reaped.
        await self.process.ended.wait()
        if not started:
            log.error("%s: the app ended before it started (exit %s; see %s)", self.who,
                      self.process.exit_code, "app-errors.log in the player's directory")
            self._farewell = "hiddenhand: the game could not start on this box; try again later"
        if self._farewell is None and self.door.box.closing:  # (Ctrl-C: said nothing)
            self._farewell = ("hiddenhand: the box is stopping; open the link again once "
                              "it is back (seats are kept).")
        if self._farewell is not None:
            await self._say(self._farewell)
        await self._close_tab()

    async def _listen(self) -> None:
        """What the page script sends: keys, window sizes, focus, pings."""
        now = asyncio.get_running_loop().time
        allowance, pings = Bucket(TAB_RATE, TAB_BURST, now()), Bucket(PING_RATE, PING_BURST, now())
        async for message in self.websocket:
            if not allowance.take(now()):
                log.warning("%s from %s: sends faster than anyone types; closing", self.who,
                            self.address)
                return
            if message.type != WSMsgType.TEXT:
                continue
            try:
                envelope = json.loads(message.data)
            except (ValueError, RecursionError):  # (deep nesting is refused so)
                continue
            if not isinstance(envelope, list) or not envelope:
                continue
            kind = envelope[0]
            if kind == "stdin" and len(envelope) == 2 and isinstance(envelope[1], str):
                self.idle.touch()
                if not self._send(packet(b"D", envelope[1].encode())):
                    log.warning("%s from %s: input faster than the app reads it; closing",
                                self.who, self.address)
                    return
            elif kind == "resize" and len(envelope) == 2 and isinstance(envelope[1], dict):
                size = envelope[1]
                self._meta({"type": "resize", "width": clamp(size.get("width"), 80),
                            "height": clamp(size.get("height"), 24)})
            elif kind in ("focus", "blur"):
                self._meta({"type": kind})
            elif kind == "ping" and len(envelope) == 2 and isinstance(envelope[1], str) and (
                    pings.take(now())):
                await self._sent(self.websocket.send_json(["pong", envelope[1][:64]]))
            if not self.process.running:
                return

    def _meta(self, data: dict[str, Any]) -> None:
        self._send(packet(b"M", json.dumps(data).encode()))

    def _send(self, data: bytes) -> bool:
        stdin = self._stdin
        if stdin is None or stdin.is_closing():
            return True
        if stdin.get_write_buffer_size() > MAX_PENDING_INPUT:
            return False
        stdin.write(data)
        return True

    async def _say(self, line: str) -> None:
        with contextlib.suppress(ConnectionError, RuntimeError):
            await self._sent(self.websocket.send_bytes(f"\r\n{line}\r\n".encode()))

    async def _close_tab(self) -> None:
        with contextlib.suppress(ConnectionError, RuntimeError):
            await self._sent(self.websocket.close())

    async def _sent(self, sending: Awaitable[Any]) -> None:
        """Send to the tab within :data:`SEND_WITHIN` seconds, or cut its connection (it
        stopped reading): ``ConnectionResetError`` then."""
        try:
            async with asyncio.timeout(SEND_WITHIN):  # (no task a send, as wait_for makes)
                await sending
        except TimeoutError:
            log.warning("%s from %s: the tab reads nothing; closing", self.who, self.address)
            if self.connection is not None:
                self.connection.abort()
            raise ConnectionResetError("the tab reads nothing") from None

    def _drawn(self) -> None:
        """The tab shows the app's first screen: from now on idleness counts."""
        if self._start_timer is not None:
            self._start_timer.cancel()
            self._start_timer = None
        self.idle.start()

    def _not_started(self) -> None:
        self._start_timer = None
        if self._shown:  # it draws, in a window too small for a full first frame
            self._drawn()
            return
        log.error("%s from %s: the app drew nothing in %g seconds", self.who, self.address,
                  START_LIMIT)
        self._farewell = "hiddenhand: the game could not start on this box; try again later"
        self.process.stop("not started")

    def _idle(self) -> None:
        words = idle_words(self.door.box.settings.idle_timeout)
        log.info("%s from %s: closing the tab's game after %s without a key pressed",
                 self.who, self.address, words)
        self._farewell = (f"hiddenhand: closed after {words} without a key pressed; "
                          "play again to go on (a seat at a table is kept).")
        self.process.stop("idle")

    def stop(self, reason: str) -> None:
        self.process.stop(reason)


__all__ = ["MAX_MESSAGE", "START_LIMIT", "WebVisit", "clamp", "packet"]
