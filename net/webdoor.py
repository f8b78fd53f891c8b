"""The box's web door: a friend with only a browser plays, one app process per visit.

``hiddenhand web`` (alone, or beside SSH in ``ssh-serve --web-port``) serves the same app
an SSH login gets, in box mode, to a browser. The browser side is textual-serve's page
script (xterm.js speaking the protocol of Textual's web driver); this door does what
textual-serve's own server does — one app per websocket, its bytes relayed both ways —
with the box's core (:mod:`net.box`, :mod:`net.visit`) instead of a shell per visit: the
box's limits per address and in all, idleness, the app in its own session known by PID
and gone when the tab closes.

What the door trusts:

- **The join link.** Every page and the websocket sit under ``/play/TOKEN``; the token
  is random, kept in the box's data directory (so a link survives a restart), and
  compared in constant time. Without it: 403 and a log line. The static files
  (the page script, its CSS and fonts) are public: they hold nothing of the box.
- **Nothing the browser says.** The name is checked by the host's rules before an app
  starts; the browser's id (a cookie) only picks the player's data directory, through
  a hash; window sizes are clamped; a message that is not the page script's is ignored;
  a visit that floods input faster than its app reads it is closed.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import json
import logging
import os
import re
import secrets
import signal
from collections.abc import Callable
from importlib.resources import files
from pathlib import Path
from typing import Any
from urllib.parse import quote, unquote

from aiohttp import WSMsgType, web

from net.box import Box, IdleTimer, idle_words, name_problem
from net.paths import TOUCH_ENV
from net.visit import AppProcess, visitor_env
from net.webpage import game_page, name_page, refused_page

log = logging.getLogger("hiddenhand.web")

TOKEN_NAME = "web.token"
NAME_COOKIE = "hh_name"
#: What a link pasted from a sentence may carry after it, which no token ends with (one
#: with a full stop after it was refused, unexplained): such a link is the link.
PASTED_AFTER = " .,;:!?)]}>'\"\u201d\u2019"
BROWSER_COOKIE = "hh_browser"
#: A visit's input the app has not read yet, beyond which the visit is flooding.
MAX_PENDING_INPUT = 256 * 1024
#: The largest websocket message the page script sends (a paste, a resize).
MAX_MESSAGE = 64 * 1024
#: The longest name the app shows whole (tui.settings.MAX_NAME).
NAME_LENGTH = 24
_BROWSER_ID = re.compile(r"[A-Za-z0-9_-]{16,64}")
_PRELUDE = b"__GANGLION__\n"
#: Output this large is a drawn screen (the driver's set-up writes are a few bytes).
FIRST_FRAME = 512
#: Seconds an app has to draw its first screen before the visit is given up as not
#: started. Idleness counts from that screen: nobody can press a key before it.
START_LIMIT = 60.0
GAME_TITLE = "hiddenhand"
REFUSED = refused_page("Ask whoever runs this box for the join link.")


def load_token(data_dir: Path) -> str:
    """The box's join token: made once, kept (owner-only) so links outlive restarts."""
    path = data_dir / TOKEN_NAME
    with contextlib.suppress(FileNotFoundError):
        token = path.read_text().strip()
        if re.fullmatch(r"[A-Za-z0-9_-]{22,64}", token):
            return token
    token = secrets.token_urlsafe(24)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as out:
        out.write(token + "\n")
    return token


def statics() -> Path:
    """textual-serve's page script, CSS and fonts, as installed with it."""
    return Path(str(files("textual_serve") / "static"))


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
        self.idle = IdleTimer(door.box.settings.idle_timeout, self._idle)
        self._stdin: asyncio.WriteTransport | None = None
        self._farewell: str | None = None
        self._start_timer: asyncio.TimerHandle | None = None
        self._shown = False

    @property
    def who(self) -> str:
        return f"{self.name!r} (web)"

    async def run(self, request: web.Request) -> None:
        """Let the visitor in (or say why not), run their app until either side ends."""
        await self.websocket.prepare(request)
        refusal = self.door.box.admit(self)
        if refusal is not None:
            log.warning("refused %s from %s: %s", self.who, self.address, refusal)
            await self._say(f"hiddenhand: {refusal}")
            await self.websocket.close()
            return
        try:
            self._start_timer = asyncio.get_running_loop().call_later(
                START_LIMIT, self._not_started)
            reader = await self._start(clamp(request.query.get("width"), 80),
                                       clamp(request.query.get("height"), 24),
                                       touch=request.query.get("touch") == "1")
            relay = asyncio.create_task(self._relay(reader))
            try:
                await self._listen()
            finally:
                self.process.stop("the tab closed")
                await self.process.ended.wait()
                await relay
        except OSError as exc:
            log.error("%s: could not start the app: %s", self.who, exc)
            await self._say("hiddenhand: the game could not start on this box; try again later")
        finally:
            self.idle.cancel()
            if self._start_timer is not None:
                self._start_timer.cancel()
            if self._stdin is not None:
                self._stdin.close()
            self.door.box.release(self)
            await self.websocket.close()

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
                    await self.websocket.send_bytes(payload)
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
        if self._farewell is not None:
            await self._say(self._farewell)
        await self.websocket.close()

    async def _listen(self) -> None:
        """What the page script sends: keys, window sizes, focus, pings."""
        async for message in self.websocket:
            if message.type != WSMsgType.TEXT:
                continue
            try:
                envelope = json.loads(message.data)
            except ValueError:
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
            elif kind == "ping" and len(envelope) == 2 and isinstance(envelope[1], str):
                await self.websocket.send_json(["pong", envelope[1][:64]])
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
            await self.websocket.send_bytes(f"\r\n{line}\r\n".encode())

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
        self._farewell = f"hiddenhand: closed after {words} without a key pressed."
        self.process.stop("idle")

    def stop(self, reason: str) -> None:
        self.process.stop(reason)


class WebDoor:
    """The web front door of a box: pages under the join link, one app per websocket."""

    def __init__(self, box: Box, *, port: int, bind: str = "127.0.0.1",
                 link_host: str | None = None, font_size: int = 16) -> None:
        self.box = box
        self.port = port
        self.bind = bind
        self.link_host = link_host or bind
        self.font_size = font_size
        self.token = ""
        self.visits: set[WebVisit] = set()
        self._runner: web.AppRunner | None = None

    @property
    def link(self) -> str:
        """The secret join link: whoever has it may play."""
        host = f"[{self.link_host}]" if ":" in self.link_host else self.link_host
        return f"http://{host}:{self.port}/play/{self.token}"

    async def start(self) -> None:
        """Listen (the box must be started); the link is known from then on."""
        self.token = load_token(self.box.settings.data_dir)
        app = web.Application(client_max_size=MAX_MESSAGE)
        app.add_routes([
            web.get("/", self.refuse),
            web.get("/play/{token}", self.page),
            web.post("/play/{token}", self.name_form),
            web.get("/play/{token}/ws", self.websocket),
            web.get("/play/{token}/", self.slash),
            web.static("/static", statics()),
            web.get("/{anything:.*}", self.refuse),  # (a plain "404: Not Found" said nothing)
        ])
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.bind, self.port)
        await site.start()
        if self.port == 0:
            self.port = self._runner.addresses[0][1]
        self.box.doors.append(self.link)

    async def close(self) -> None:
        """Stop listening; every visit's app ends with the box."""
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    # ---- pages --------------------------------------------------------------------------

    def _check(self, request: web.Request) -> None:
        """Raise 403 unless the request carries the join link's token."""
        given = request.match_info.get("token", "")
        if not hmac.compare_digest(given.encode(), self.token.encode()):
            # (The path is not logged: a near miss would put most of the token there.)
            log.warning("refused %s from %s: not the join link", request.method,
                        request.remote)
            raise web.HTTPForbidden(text=REFUSED, content_type="text/html")

    async def refuse(self, request: web.Request) -> web.Response:
        """The bare address, or any other: nothing here without the join link. (A
        browser asks for its icon by itself: that is no one knocking.)"""
        if request.path != "/favicon.ico":
            log.warning("refused %s from %s: no join link", request.method, request.remote)
        raise web.HTTPForbidden(text=REFUSED, content_type="text/html")

    async def slash(self, request: web.Request) -> web.Response:
        """The join link pasted with a slash after it: the link itself."""
        self._check(request)
        raise web.HTTPFound(f"/play/{self.token}")

    async def page(self, request: web.Request) -> web.Response:
        """The game's page, or the name form first."""
        given = request.match_info.get("token", "")
        near = given.rstrip(PASTED_AFTER)
        if near != given and hmac.compare_digest(near.encode(), self.token.encode()):
            raise web.HTTPFound(f"/play/{self.token}")
        self._check(request)
        name = cookie_name(request)
        if name is None or "rename" in request.query:
            return self._name_form(name or "")
        size = clamp(request.query.get("fontsize"), self.font_size)
        response = web.Response(text=game_page(
            websocket_path=f"/play/{self.token}/ws", game=GAME_TITLE,
            font_size=min(size, 40)), content_type="text/html")
        return no_store(response)

    def _name_form(self, name: str, problem: str | None = None, status: int = 200
                   ) -> web.Response:
        return no_store(web.Response(
            text=name_page(action=f"/play/{self.token}", game=GAME_TITLE, name=name,
                           problem=problem),
            content_type="text/html", status=status))

    async def name_form(self, request: web.Request) -> web.Response:
        """The name typed once: kept in a cookie for the browser's visit."""
        self._check(request)
        form = await request.post()
        name = printable(str(form.get("name", "")))
        if not name:
            problem: str | None = "type the name the others will see"
        elif len(name) > NAME_LENGTH:
            problem = f"at most {NAME_LENGTH} characters"
        else:
            problem = name_problem(name)
        if problem is not None:
            return self._name_form(name, problem, status=400)
        response = web.HTTPSeeOther(f"/play/{self.token}")
        path = f"/play/{self.token}"
        response.set_cookie(NAME_COOKIE, quote(name), path=path, httponly=True,
                            samesite="Strict")
        if browser_id(request) is None:
            response.set_cookie(BROWSER_COOKIE, secrets.token_urlsafe(18), path=path,
                                max_age=400 * 86400, httponly=True, samesite="Strict")
        raise response

    async def websocket(self, request: web.Request) -> web.WebSocketResponse:
        """One tab's game."""
        self._check(request)
        name = cookie_name(request)
        browser = browser_id(request)
        if name is None or browser is None:
            raise web.HTTPForbidden(text=refused_page("type your name first: open the "
                                                      "join link again"),
                                    content_type="text/html")
        visit = WebVisit(self, request.remote or "?", name, browser)
        self.visits.add(visit)
        try:
            await visit.run(request)
        finally:
            self.visits.discard(visit)
        return visit.websocket

    @staticmethod
    def player_dir(browser: str) -> str:
        """A browser's own data directory's name (its settings, its seat tokens)."""
        return "web-" + hashlib.sha256(browser.encode()).hexdigest()[:20]

    async def wait_until(self, predicate: Callable[[], bool]) -> None:
        await self.box.wait_until(predicate)


def cookie_name(request: web.Request) -> str | None:
    """The visitor's name from its cookie, if it is one the host takes."""
    raw = request.cookies.get(NAME_COOKIE)
    if raw is None:
        return None
    name = printable(unquote(raw))
    ok = name and len(name) <= NAME_LENGTH and name_problem(name) is None
    return name if ok else None


def printable(text: str) -> str:
    """A name as the app shows it: its printable characters, trimmed."""
    return "".join(ch for ch in text if ch.isprintable()).strip()


def browser_id(request: web.Request) -> str | None:
    """The browser's random id from its cookie, if it looks like one."""
    raw = request.cookies.get(BROWSER_COOKIE, "")
    return raw if _BROWSER_ID.fullmatch(raw) else None


def no_store(response: web.Response) -> web.Response:
    """Pages under the join link are never cached (nor the link kept by a proxy), nor
    framed by another site."""
    response.headers["Cache-Control"] = "no-store"
    response.headers["Referrer-Policy"] = "no-referrer"
    # Never inside another site's frame (a click there would be a click here), and
    # only what it says it is.
    response.headers["X-Frame-Options"] = "DENY"
    response.headers["Content-Security-Policy"] = "frame-ancestors 'none'"
    response.headers["X-Content-Type-Options"] = "nosniff"
    return response



__all__ = ["BROWSER_COOKIE", "NAME_COOKIE", "TOKEN_NAME", "WebDoor", "WebVisit", "load_token"]
