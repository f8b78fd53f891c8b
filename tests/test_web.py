"""``hiddenhand web``: the box's web door end to end, on 127.0.0.1, with real apps.

A tab is driven as textual-serve's page script drives it (tests/web_support.py): the
name form, then the websocket, keys in and the app's screen out, read off a terminal
emulator. The shared box has both doors, so a table opened in a tab is joined over SSH.
(A real browser does the same in tests/test_web_browser.py.)
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import aiohttp
import pytest
import pytest_asyncio

from net import webvisit
from net.sshserve import BoxConfig, BoxServer
from net.webdoor import WebDoor, load_token
from net.webvisit import WebVisit
from tests.test_ssh import login
from tests.web_support import WAIT, both_doors, new_browser, visit

shared_loop = pytest.mark.asyncio(loop_scope="module")


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def box(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[BoxServer]:
    async with BoxServer(both_doors(tmp_path_factory.mktemp("box"),
                                    max_per_address=8)) as server:
        yield server


def door(box: BoxServer) -> WebDoor:
    assert box.web is not None
    return box.web


def app_of(box: BoxServer, name: str) -> int:
    pids = [pid for pid, app in box.box.apps.items()
            if isinstance(app.owner, WebVisit) and app.owner.name == name]
    assert len(pids) == 1, f"expected one web app for {name}, found {pids}"
    return pids[0]


async def gone(box: BoxServer, pid: int) -> None:
    """The box reaped ``pid``; then no process (nor process group) of it is left."""
    await asyncio.wait_for(box.wait_until(lambda: pid not in box.box.apps), WAIT)
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)
    with pytest.raises(ProcessLookupError):
        os.killpg(pid, 0)


@pytest_asyncio.fixture(loop_scope="module")
async def small_box(tmp_path: Path) -> AsyncIterator[Callable[..., Any]]:
    """Web-only boxes with other limits; all are closed after the test."""
    started: list[BoxServer] = []

    async def start(**limits: Any) -> BoxServer:
        server = BoxServer(both_doors(tmp_path, **limits))
        await server.start()
        started.append(server)
        return server

    yield start
    for server in started:
        await server.close()


@shared_loop
async def test_without_the_join_link_nothing_but_the_page_script_is_served(
        box: BoxServer, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="hiddenhand.web")
    web = door(box)
    base = f"http://127.0.0.1:{web.port}"
    wrong = "x" * len(web.token)
    async with new_browser() as browser:
        # (Any other path says the same: "/play/" gave a bare "404: Not Found".)
        for path in ("/", f"/play/{wrong}", f"/play/{web.token[:-1]}", f"/play/{wrong}/ws",
                     "/play/", f"/play/{wrong}/", "/favicon.ico"):
            async with browser.get(base + path) as response:
                assert response.status == 403, path
                assert "join link" in await response.text()
        async with browser.post(f"{base}/play/{wrong}", data={"name": "Eve"}) as response:
            assert response.status == 403
        async with browser.get(f"{base}/static/js/textual.js") as response:
            assert response.status == 200
        # The link pasted with a slash after it is the link.
        async with browser.get(f"{base}/play/{web.token}/", allow_redirects=False) as response:
            assert response.status == 302
            assert response.headers["Location"] == f"/play/{web.token}"
        # …and so is the link pasted with a sentence's full stop, a bracket or a space
        # after it (each was refused, unexplained: a web pass).
        for tail in (".", ")", "%20", ".)"):
            async with browser.get(f"{base}/play/{web.token}{tail}",
                                   allow_redirects=False) as response:
                assert response.status == 302, tail
                assert response.headers["Location"] == f"/play/{web.token}"
        async with browser.get(f"{base}/play/{web.token[:-1]}.") as response:
            assert response.status == 403  # (a near miss is no link)
    refusals = [r.getMessage() for r in caplog.records if "refused" in r.getMessage()]
    assert len(refusals) == 8, refusals  # (the browser's own icon request is not logged)
    assert not any(web.token[:8] in r for r in refusals)  # no part of the link logged
    assert not box.box.apps


@shared_loop
async def test_the_name_is_asked_once_checked_and_kept_for_the_visit(box: BoxServer) -> None:
    link = door(box).link
    async with new_browser() as browser:
        async with browser.get(link) as response:
            page = await response.text()
            assert response.headers["Cache-Control"] == "no-store"
            assert response.headers["X-Frame-Options"] == "DENY"
        assert 'name="name"' in page and "textual.js" not in page
        for bad in ("", "   \x07", "x" * 200):
            async with browser.post(link, data={"name": bad}) as response:
                assert response.status == 400, bad
                assert "Not that name" in await response.text()
        async with browser.post(link, data={"name": "Zoë <b>"}) as response:
            page = await response.text()
        assert response.status == 200 and "textual.js" in page  # the game's page
        # Its end says why it may have ended, and that a stopped box keeps the seat (it
        # said only "has ended"; then, after a Quit, only "if the box stopped"; then, to
        # a tab refused for too many or closed for idleness, "you quit, or the box
        # stopped"), pointing at the door's own last words.
        assert "you quit, or the box\nstopped or closed it (what it said, if it could, is above)" \
            in page
        assert "A seat at a table is kept for you." in page
        async with browser.get(link) as response:  # the name is kept: straight to the game
            assert "textual.js" in await response.text()
        async with browser.get(link + "?rename") as response:  # escaped, never markup
            page = await response.text()
        assert 'value="Zoë &lt;b&gt;"' in page and "<b>" not in page
    assert not box.box.apps


@shared_loop
async def test_a_websocket_without_a_name_or_the_link_starts_nothing(box: BoxServer) -> None:
    web = door(box)
    async with new_browser() as browser:
        for url in (web.link + "/ws", f"http://127.0.0.1:{web.port}/play/{'x' * 32}/ws"):
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                await browser.ws_connect(url)
            assert refused.value.status == 403
    assert not box.box.apps


@shared_loop
async def test_a_tab_gets_the_box_menu_redraws_on_resize_and_its_app_ends_with_it(
        box: BoxServer) -> None:
    tab = await visit(door(box).link, "Ann", 80, 24)
    await tab.shows("Join a table on this box (j)", "Open a table (h)", "Quit (q)")
    pid = app_of(box, "Ann")
    assert os.getsid(pid) == pid  # a session of its own
    environ = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
    assert b"TEXTUAL_DRIVER=textual.drivers.web_driver:WebDriver" in environ
    assert not any(v.startswith(b"SSH_") for v in environ)
    # The box names the player to its host: their tables count per player (net.box).
    assert any(v.startswith(b"HIDDENHAND_VISITOR=") and len(v) > 30 for v in environ)
    # The secret link is in the environment, which only the box's user reads: not on
    # the command line, which every local user reads (ps).
    assert door(box).token not in Path(f"/proc/{pid}/cmdline").read_text()
    assert f"HIDDENHAND_BOX_INVITES={chr(10).join(box.box.doors)}".encode() in environ
    assert door(box).link in box.box.doors
    await tab.resize(100, 30)
    await tab.until(lambda t: "Solo" in t.screen.display[29]
                    and t.screen.display[0].find("hiddenhand") > 23)
    await tab.press("r")  # the rules, by their key
    await tab.shows("GET OUT!")
    await tab.close()  # the tab closes: its app goes, nothing left behind
    await gone(box, pid)
    await asyncio.wait_for(box.wait_until(lambda: not box.box.visitors), WAIT)


@shared_loop
async def test_a_table_opened_in_a_tab_is_joined_over_ssh_and_each_sees_the_other(
        box: BoxServer) -> None:
    ann = await visit(door(box).link, "Ann", 120, 40)
    await ann.shows("Open a table (h)")
    await ann.press("h")
    await ann.shows("Open a table on this box")
    await ann.press("\x13")  # ctrl+s: start
    ssh = f"ssh -p {box.port} box"
    await ann.shows("Ann's table", "Ann (you)", f"friends join with: {ssh} or a web link (i)")
    conn, chan, bob = await login(box, "bob", None, 120, 40)
    await bob.shows("Join a table on this box (j)")
    chan.write(b"j")
    await bob.shows("Which table?", "Ann's table")
    chan.write(b"1")
    await bob.shows("bob (you)", "Ann's table", "Ann ★")
    await ann.shows("bob")
    chan.write(b"\x12")  # ctrl+r: Bob is ready, and Ann's tab shows it
    await ann.until(lambda t: any("bob" in line and "✓" in line for line in t.screen.display))
    await ann.press("\x12")
    await bob.until(lambda t: any("Ann" in line and "✓" in line for line in t.screen.display))
    await ann.press("i")  # every door, with the web link as a QR code
    await ann.shows("Friends join this box:", f"in a terminal: {ssh}",
                    f"in a browser: {door(box).link}", "▀▀▀▀▀")
    pid = app_of(box, "Ann")
    conn.close()
    await ann.close()
    await gone(box, pid)


@shared_loop
async def test_the_per_address_limit_is_said_in_the_tab(small_box: Callable[..., Any]) -> None:
    box = await small_box(max_per_address=1, max_sessions=5)
    first = await visit(door(box).link, "Ann")
    await first.shows("Quit (q)")
    second = await visit(door(box).link, "Bob")
    await asyncio.wait_for(second.closed.wait(), WAIT)
    assert b"too many logins from 127.0.0.1" in second.raw
    assert len(box.box.apps) == 1
    await first.close()
    await second.close()


@shared_loop
async def test_an_idle_tab_is_told_and_its_app_ends(small_box: Callable[..., Any]) -> None:
    box = await small_box(idle_timeout=1.5)
    tab = await visit(door(box).link, "Ann")
    # The idle time runs from the first screen: on a loaded machine an app can take
    # longer than that to draw it (it was told "could not start").
    await tab.shows("Quit (q)")
    pid = app_of(box, "Ann")
    await asyncio.wait_for(tab.closed.wait(), WAIT)
    assert b"closed after 1.5 seconds without a key pressed; play again to go on (a seat " \
        b"at a table is kept)." in tab.raw
    await gone(box, pid)
    await tab.close()


@shared_loop
async def test_a_stopping_box_tells_each_tab_why(small_box: Callable[..., Any]) -> None:
    """Stopped with Ctrl-C, the box left a tab's game with nothing said, under a page
    that read "its last words are above" (a web-door pass); a login's terminal has
    been told."""
    box = await small_box()
    tab = await visit(door(box).link, "Ann")
    await tab.shows("Quit (q)")
    pid = app_of(box, "Ann")
    await box.close()
    await asyncio.wait_for(tab.closed.wait(), WAIT)
    assert b"the box is stopping; open the link again once it is back" in tab.raw
    await gone(box, pid)
    await tab.close()


async def _half_request(port: int, address: str) -> tuple[asyncio.StreamReader,
                                                         asyncio.StreamWriter]:
    """A connection from ``address`` that starts a request and never finishes it."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(address, 0))
    writer.write(b"GET /play/x HTTP/1.1\r\nHost: x\r\n")
    return reader, writer


async def _closed(reader: asyncio.StreamReader) -> None:
    with contextlib.suppress(ConnectionError):
        while await asyncio.wait_for(reader.read(4096), WAIT):
            pass


@shared_loop
async def test_connections_are_held_to_limits_before_a_request(
        small_box: Callable[..., Any]) -> None:
    """aiohttp kept any number of half-sent requests, for ever: 8,000 of them stayed
    open, and under a limit of 1,024 open files 1,100 locked every visitor out (a
    hostile pass, no join link needed). A connection has a time to send its first
    request; one address keeps so many; past the most in all, the one whose last
    request is oldest gives way, and a page is served meanwhile."""
    box = await small_box()
    web = door(box)
    web.guard.request_within, web.guard.per_address, web.guard.most = 60.0, 2, 3
    base = f"http://127.0.0.1:{web.port}"
    first = await _half_request(web.port, "127.0.0.2")
    second = await _half_request(web.port, "127.0.0.2")
    third = await _half_request(web.port, "127.0.0.2")  # over the 2 of one address
    await _closed(third[0])
    fourth = await _half_request(web.port, "127.0.0.3")
    # A 4th connection: the oldest gives way.
    async with new_browser() as browser, browser.get(f"{base}/static/js/textual.js") as got:
        assert got.status == 200
    await _closed(first[0])
    assert not second[1].is_closing() and len(web.guard.open) <= 3
    web.guard.request_within = 0.2  # (a connection opened from now on)
    late = await _half_request(web.port, "127.0.0.4")
    await _closed(late[0])
    for _, writer in (first, second, third, fourth, late):
        writer.close()


@shared_loop
async def test_a_tab_is_held_to_a_person_s_pace(small_box: Callable[..., Any]) -> None:
    """One tab's 56,000 pings a second took most of the door's time from everyone, and
    a message nested 30,000 deep ended its tab with a traceback (a hostile pass). Its
    pings are answered at a pace; a tab sending faster than anyone types is closed."""
    box = await small_box()
    tab = await visit(door(box).link, "Ann")
    await tab.shows("Quit (q)")
    pid = app_of(box, "Ann")
    assert tab.ws is not None
    await tab.ws.send_str("[" * 30_000 + "]" * 30_000)  # ignored, as any junk is
    for n in range(40):
        await tab.ws.send_json(["ping", str(n)])
    # Once the allowance is back a ping is answered, after every pong of the 40.
    async with asyncio.timeout(WAIT):
        while not any(t == ["pong", "last"] for t in tab.texts):
            await tab.ws.send_json(["ping", "last"])
            await asyncio.sleep(0.2)
    pongs = [t for t in tab.texts if t[0] == "pong" and t[1] != "last"]
    assert 1 <= len(pongs) <= webvisit.PING_BURST + 1
    for _ in range(webvisit.TAB_BURST + 100):
        await tab.ws.send_json(["focus"])
    await asyncio.wait_for(tab.closed.wait(), WAIT)
    await gone(box, pid)
    await tab.close()


@shared_loop
async def test_a_tab_that_stops_reading_is_closed_and_its_place_freed(
        small_box: Callable[..., Any], monkeypatch: pytest.MonkeyPatch) -> None:
    """A tab that stopped reading held its place for good, past its idle time: the
    door's sends to it waited, and with them everything of the visit (a hostile pass)."""
    import base64
    import socket
    from urllib.parse import urlparse

    monkeypatch.setattr(webvisit, "SEND_WITHIN", 1.0)
    box = await small_box()
    web = door(box)
    async with new_browser() as browser:
        async with browser.post(web.link, data={"name": "Ann"}) as response:
            assert response.status == 200
        cookies = "; ".join(f"{c.key}={c.value}" for c in browser.cookie_jar)
    loop = asyncio.get_running_loop()
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.setblocking(False)
    await loop.sock_connect(sock, ("127.0.0.1", web.port))
    key = base64.b64encode(os.urandom(16)).decode()
    await loop.sock_sendall(sock, (
        f"GET {urlparse(web.link).path}/ws?width=1000&height=1000 HTTP/1.1\r\nHost: x\r\n"
        f"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
        f"Sec-WebSocket-Version: 13\r\nCookie: {cookies}\r\n\r\n").encode())
    # It reads nothing from here on: the app's first screen, a million cells, is more
    # than the sockets between hold.
    await asyncio.wait_for(box.box.wait_until(lambda: bool(box.box.apps)), WAIT)
    pid = app_of(box, "Ann")
    await gone(box, pid)
    await asyncio.wait_for(box.box.wait_until(lambda: not box.box.visitors), WAIT)
    sock.close()


@shared_loop
async def test_a_malformed_request_is_one_line_in_the_log(
        small_box: Callable[..., Any], caplog: pytest.LogCaptureFixture) -> None:
    """aiohttp logged each request it could not parse with its traceback, quoting the
    request (a hostile pass: nothing but the log's pace limited them)."""
    caplog.set_level(logging.INFO)
    box = await small_box()
    reader, writer = await asyncio.open_connection("127.0.0.1", door(box).port)
    writer.write(b"GET /play/x HTTP/1.1\r\nX-Long: " + b"\x1b[31m" + b"a" * 70_000 + b"\r\n\r\n")
    assert b" 400 " in (await asyncio.wait_for(reader.readline(), WAIT))
    writer.close()
    bad = [r for r in caplog.records if r.name == "aiohttp.server"]
    assert bad and all(r.exc_info is None and r.levelno == logging.WARNING for r in bad)
    assert all("refused a malformed request from 127.0.0.1" in r.getMessage() and
               "\x1b" not in r.getMessage() and len(r.getMessage()) < 200 for r in bad)


def test_the_join_token_is_made_once_kept_private_and_a_bad_one_replaced(
        tmp_path: Path) -> None:
    token = load_token(tmp_path)
    assert len(token) >= 32 and load_token(tmp_path) == token
    assert (tmp_path / "web.token").stat().st_mode & 0o777 == 0o600
    (tmp_path / "web.token").write_text("short\n")
    assert load_token(tmp_path) not in ("short", token)


async def test_a_port_in_use_is_said_plainly_with_the_option_that_moves_it(
        tmp_path: Path) -> None:
    """ssh-serve's web door is placed by --web-port and --web-bind: its errors said
    --port and --bind, which move the SSH door (a fresh-eyed operator's pass)."""
    with socket_in_use() as port:
        config = BoxConfig(port=0, bind="127.0.0.1", open_login=True, web_port=port,
                           data_dir=tmp_path, hostname="box")
        with pytest.raises(ValueError, match=f"cannot listen for the web: port {port} is "
                           "already in use.*pick another with --web-port, or --web-port 0"):
            await BoxServer(config).start()
    config = BoxConfig(port=0, bind="127.0.0.1", open_login=True, web_port=0,
                       web_bind="192.0.2.12", data_dir=tmp_path, hostname="box")
    with pytest.raises(ValueError, match=r"192\.0\.2\.12 is not an address of this computer; "
                       "leave out --web-bind to listen on this machine only"):
        await BoxServer(config).start()
    with pytest.raises(ValueError, match="--web-link-host 'a b' is not a host name"):
        BoxConfig(open_login=True, web_link_host="a b").check()


def socket_in_use() -> Any:
    import contextlib
    import socket

    @contextlib.contextmanager
    def held() -> Any:
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            sock.listen()
            yield sock.getsockname()[1]

    return held()



@shared_loop
async def test_an_app_that_cannot_start_is_said_in_the_tab_and_leaves_nothing(
        small_box: Callable[..., Any]) -> None:
    import sys

    box = await small_box(command=[sys.executable, "-c", "import sys; sys.exit(3)"])
    tab = await visit(door(box).link, "Ann")
    await asyncio.wait_for(tab.closed.wait(), WAIT)
    assert b"the game could not start on this box" in tab.raw
    await asyncio.wait_for(box.wait_until(lambda: not box.box.apps and not box.box.visitors),
                           WAIT)
    await tab.close()


@shared_loop
async def test_an_app_that_draws_nothing_is_given_up_and_said_in_the_tab(
        small_box: Callable[..., Any], monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    monkeypatch.setattr(webvisit, "START_LIMIT", 0.5)
    box = await small_box(command=[sys.executable, "-c", "import time; time.sleep(600)"])
    tab = await visit(door(box).link, "Ann")
    await asyncio.wait_for(box.box.wait_until(lambda: bool(box.box.apps)), WAIT)
    pid = app_of(box, "Ann")
    await asyncio.wait_for(tab.closed.wait(), WAIT)
    assert b"the game could not start on this box" in tab.raw
    await gone(box, pid)
    await tab.close()


def test_a_link_host_that_would_change_the_link_is_refused_in_words() -> None:
    from net.webserve import WebConfig

    for bad in ("a b", "box/evil", "user@box", "box:80/x", ""):
        with pytest.raises(ValueError, match="not a host name or an address"):
            WebConfig(link_host=bad).check()
    for good in ("box.local", "192.168.1.20", "fe80::1", "party-box"):
        WebConfig(link_host=good).check()


def test_the_start_lines_say_when_the_link_names_no_lan_address() -> None:
    """Serving every address on a machine with no LAN address printed a 127.0.0.1 link
    as the one for friends, without a word (a fresh-eyed pass of the web door)."""
    from types import SimpleNamespace

    from net.webserve import SSH_WEB_OPTIONS, web_banner

    def door(bind: str, link_host: str) -> Any:
        return SimpleNamespace(bind=bind, port=8080, link_host=link_host,
                               link=f"http://{link_host}:8080/play/T")

    assert "--link-host" in web_banner(door("0.0.0.0", "127.0.0.1"))[-1]
    assert "--bind 0.0.0.0" in web_banner(door("127.0.0.1", "127.0.0.1"))[-1]
    assert len(web_banner(door("0.0.0.0", "192.168.1.20"))) == 2
    # ssh-serve's door beside SSH is placed by options of its own (--bind moves SSH).
    assert "--web-link-host NAME" in web_banner(door("0.0.0.0", "127.0.0.1"),
                                                SSH_WEB_OPTIONS)[-1]
    assert "--web-bind 0.0.0.0" in web_banner(door("127.0.0.1", "127.0.0.1"),
                                              SSH_WEB_OPTIONS)[-1]


@shared_loop
async def test_a_name_typed_at_a_later_visit_of_the_same_browser_is_the_one_used(
        box: BoxServer) -> None:
    """The browser's app kept the name saved at its first visit: Petra, typing her name
    at the same browser later, played as Pia (a web pass)."""
    from net.webdoor import NAME_COOKIE

    browser = new_browser()
    pia = await visit(door(box).link, "Pia", 100, 30, browser=browser)
    await pia.shows("Play solo against bots (s)")
    await pia.press("o")  # her settings, saved with her name
    await pia.shows("Pia")
    await pia.press("\x13")  # ctrl+s
    await pia.shows("Play solo against bots (s)")  # (saved: the menu again)
    assert any('"Pia"' in p.read_text()
               for p in box.box.players_dir.glob("web-*/**/settings.json"))
    await pia.close(browser=False)
    browser.cookie_jar.clear(lambda cookie: cookie.key == NAME_COOKIE)  # the visit over
    petra = await visit(door(box).link, "Petra", 100, 30, browser=browser)
    await petra.shows("Play solo against bots (s)")
    await petra.press("o")
    await petra.shows("Petra")
    await petra.close()
