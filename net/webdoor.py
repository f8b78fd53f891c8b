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
import logging
import os
import re
import secrets
from collections.abc import Callable
from importlib.resources import files
from pathlib import Path
from urllib.parse import quote, unquote

from aiohttp import web

from net.box import Box, name_problem
from net.webguard import BadRequestsInOneLine, Guard
from net.webpage import game_page, name_page, refused_page
from net.webvisit import MAX_MESSAGE, WebVisit, clamp

log = logging.getLogger("hiddenhand.web")

TOKEN_NAME = "web.token"
NAME_COOKIE = "hh_name"
#: What a link pasted from a sentence may carry after it, which no token ends with (one
#: with a full stop after it was refused, unexplained): such a link is the link.
PASTED_AFTER = " .,;:!?)]}>'\"\u201d\u2019"
BROWSER_COOKIE = "hh_browser"
#: The longest name the app shows whole (tui.settings.MAX_NAME).
NAME_LENGTH = 24
_BROWSER_ID = re.compile(r"[A-Za-z0-9_-]{16,64}")
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
        self._server: asyncio.Server | None = None
        #: The door's connections, held to limits before aiohttp reads them.
        self.guard = Guard()

    @property
    def link(self) -> str:
        """The secret join link: whoever has it may play."""
        host = f"[{self.link_host}]" if ":" in self.link_host else self.link_host
        return f"http://{host}:{self.port}/play/{self.token}"

    async def start(self) -> None:
        """Listen (the box must be started); the link is known from then on."""
        self.token = load_token(self.box.settings.data_dir)
        server_log = logging.getLogger("aiohttp.server")
        if not any(isinstance(f, BadRequestsInOneLine) for f in server_log.filters):
            server_log.addFilter(BadRequestsInOneLine())
        app = web.Application(client_max_size=MAX_MESSAGE,
                              middlewares=[self.guard.middleware])
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
        # (As aiohttp's TCPSite serves its runner's protocol, behind the guard.)
        assert self._runner.server is not None
        self._server = await asyncio.get_running_loop().create_server(
            self.guard.protocol_factory(self._runner.server), self.bind, self.port)
        if self.port == 0:
            self.port = self._server.sockets[0].getsockname()[1]
        self.box.doors.append(self.link)

    async def close(self) -> None:
        """Stop listening; every visit's app ends with the box."""
        if self._server is not None:
            self._server.close()
            self._server = None
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
        self.guard.websocket(request)
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



__all__ = ["BROWSER_COOKIE", "NAME_COOKIE", "TOKEN_NAME", "WebDoor", "load_token"]
