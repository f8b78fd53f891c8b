"""The SSH front door of the box: asyncssh's server, who may log in, and what they may ask.

:class:`BoxServer` listens for SSH (asyncssh) in front of a :class:`~net.box.Box`. Each
connection is a :class:`Login`: over the box's limits it is refused with the reason
(it takes its place only once logged in; those logging in are held apart,
:data:`LOGGING_IN`); otherwise it is checked against an authorized_keys file (re-read
at each login), or let in without a key when the operator says ``--open``. A login
gets one session, its game (:class:`~net.sshapp.AppSession`); port forwarding, agent
and X11 forwarding are off, and an idle login is closed. Every refusal is logged with its reason.

Each player's settings and seat tokens live in their own directory, named per key (or
per user name with ``--open``) by :func:`player_dir_name`.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import asyncssh

from net.address import listen_error, loopback
from net.box import Box, BoxSettings, IdleTimer, idle_words, machine_name
from net.host import Host
from net.sshapp import AppSession, another_name
from net.sshkeys import load_host_key, not_keys, read_keys, skipped_words
from net.visit import AppProcess
from net.webdoor import WebDoor
from net.webserve import SSH_WEB_OPTIONS, check_link_host, open_web_door

log = logging.getLogger("hiddenhand.ssh")

DEFAULT_SSH_PORT = 2222
#: Connections still logging in (no key proved yet) the server holds at once, and of
#: them from one address. They take none of the box's places: 32 connections that
#: never logged in had filled the box for everyone, SSH and web, for the login timeout.
#: Past the first limit, the one logging in longest gives way (logging in takes a
#: person a second; a flood must outpace every one of them to keep anyone out).
LOGGING_IN = 64
LOGGING_IN_PER_ADDRESS = 8
HOST_KEY_NAME = "ssh_host_ed25519_key"
_SAFE_NAME = re.compile(r"[^A-Za-z0-9._-]")


def invitation(hostname: str, port: int) -> str:
    """What a friend types to join: ``ssh -p 2222 box`` (no ``-p`` for port 22)."""
    return f"ssh {hostname}" if port == 22 else f"ssh -p {port} {hostname}"


@dataclass
class BoxConfig(BoxSettings):
    """How ``ssh-serve`` runs; the command line fills it, tests build it directly.

    Beyond the box's own settings (:class:`~net.box.BoxSettings`): where SSH listens, and
    who may log in. ``authorized_keys`` is re-read at each login (edit it while the
    server runs); ``open_login`` lets anyone in with any name and no key.
    ``login_timeout`` is how long logging in may take. ``web_port`` opens the box's web
    door too (:mod:`net.webdoor`), on ``web_bind``, its link naming ``web_link_host``
    (default: as ``hiddenhand web``'s ``--link-host``).
    """

    port: int = DEFAULT_SSH_PORT
    bind: str | None = None
    authorized_keys: Path | None = None
    open_login: bool = False
    login_timeout: float = 30.0
    web_port: int | None = None
    web_bind: str = "127.0.0.1"
    web_link_host: str | None = None

    def check(self) -> None:
        """Raise ``ValueError`` in plain words for a configuration that cannot run."""
        if self.open_login == (self.authorized_keys is not None):
            raise ValueError("say who may log in: --authorized-keys FILE, or --open for anyone")
        super().check()
        check_link_host(self.web_link_host, SSH_WEB_OPTIONS.link_host)
        if self.authorized_keys is not None:
            try:
                read_keys(self.authorized_keys)
            except OSError as exc:
                raise ValueError(f"cannot read {self.authorized_keys}: "
                                 f"{exc.strerror or exc}") from None
            except ValueError as exc:
                raise ValueError(f"{self.authorized_keys} is not an authorized_keys "
                                 f"file: {exc}") from None


def player_dir_name(username: str, key: asyncssh.SSHKey | None) -> str:
    """A file-system-safe directory name for one player's settings and seat tokens.

    With keys, per key: someone who logs in under another's name still gets their own
    data (and so never another player's seat tokens). Without (``--open``), per name.
    """
    if key is not None:
        return "key-" + hashlib.sha256(key.public_data).hexdigest()[:32]
    safe = _SAFE_NAME.sub("_", username)[:40].lstrip(".") or "_"
    if safe != username:
        safe += "-" + hashlib.sha256(username.encode("utf-8", "surrogatepass")).hexdigest()[:8]
    return "user-" + safe


def login_banner(invite: str, keys_only: bool) -> str:
    """What an SSH client shows as a login begins: the login name is the player's name,
    and how to choose another (``invite``: how friends join, ``ssh -p 2222 box``); on a
    box that lets in listed keys only, what a player refused should do (all they read
    then is their ssh's "Permission denied (publickey)")."""
    said = ("hiddenhand: your SSH login name is your name at the tables (SSH refuses some "
            f"characters, emoji among them). To play as another: {another_name(invite)}\r\n")
    if keys_only:
        said += ("This box lets in the SSH keys on its list only. Refused? Send your public "
                 "key (~/.ssh/id_ed25519.pub; ssh-keygen makes one) to whoever runs the "
                 "box.\r\n")
    return said


def escaped(text: str) -> str:
    """``text`` safe for a log line: anything but printable ASCII as a Python escape."""
    return text.encode("ascii", "backslashreplace").decode("ascii").translate(
        {i: f"\\x{i:02x}" for i in range(32)} | {127: "\\x7f"})


class BoxServer:
    """The SSH front door and the box behind it.

    ``box`` holds the game host, the limits and the running apps; ``host``, ``logins``,
    ``apps`` and :meth:`wait_until` are its, as seen from here (tests, benchmarks).
    """

    def __init__(self, config: BoxConfig) -> None:
        config.check()
        self.config = config
        self.box = Box(config)
        self.acceptor: asyncssh.SSHAcceptor | None = None
        self.host_key: asyncssh.SSHKey | None = None
        self.host_key_path = config.data_dir / HOST_KEY_NAME
        self.host_key_created = False
        #: The web door beside SSH (``web_port``), if open.
        self.web: WebDoor | None = None
        #: Connections logging in, oldest first (:data:`LOGGING_IN`).
        self.logging_in: dict[Login, None] = {}

    # ---- lifecycle --------------------------------------------------------------------

    async def start(self) -> None:
        """Load (or make) the host key, start the box's game host, listen for SSH."""
        config = self.config
        self.host_key, self.host_key_created = load_host_key(self.host_key_path)
        await self.box.start()
        try:
            self.acceptor = await self._listen(config.port)
            if config.port == 0 and self.acceptor.get_port() == 0:
                # Port 0 on every address gave each address family a port of its own
                # (asyncio's way, and the banner said "port 0"): one of them for all.
                port = self.acceptor.get_addresses()[0][1]
                self.acceptor.close()
                await self.acceptor.wait_closed()
                self.acceptor = await self._listen(port)
        except OSError as exc:
            await self.box.close()
            raise ValueError(f"cannot listen for SSH: {listen_error(exc, config.port, config.bind)}"
                             ) from None
        except BaseException:
            await self.box.close()
            raise
        self.box.doors.insert(0, self.invitation)
        if config.web_port is not None:
            try:
                self.web = await open_web_door(self.box, config.web_port, config.web_bind,
                                               config.web_link_host, SSH_WEB_OPTIONS)
            except BaseException:
                await self.close()
                raise

    async def _listen(self, port: int) -> asyncssh.SSHAcceptor:
        config = self.config
        return await asyncssh.listen(
            config.bind or "", port, server_factory=lambda: Login(self),
            server_host_keys=[self.host_key], encoding=None, line_editor=False,
            agent_forwarding=False, x11_forwarding=False, password_auth=False,
            kbdint_auth=False, host_based_auth=False, gss_host=None,
            login_timeout=config.login_timeout, keepalive_interval=30, keepalive_count_max=3,
            reuse_address=True)

    @property
    def port(self) -> int:
        """The SSH port the server listens on."""
        assert self.acceptor is not None, "the server is not listening"
        return self.acceptor.get_port()

    @property
    def invitation(self) -> str:
        """What friends type to join. A box on a loopback address is reached from this
        computer only, and by ``localhost``: the machine's name may be another loopback
        address (Debian's 127.0.1.1), where nothing listens."""
        name = self.config.hostname
        if loopback(self.config.bind) and name == machine_name():
            name = "localhost"
        return invitation(name, self.port)

    @property
    def fingerprint(self) -> str:
        """The host key's SHA256 fingerprint, as ssh clients show it."""
        assert self.host_key is not None
        return self.host_key.get_fingerprint()

    async def close(self) -> None:
        """Stop listening, end every app and connection, stop the game host."""
        if self.acceptor is not None:
            self.acceptor.close()
        self.box.shut()
        if self.web is not None:
            await self.web.close()
        # The apps end first, each login then given its terminal back and told why (the
        # connections closed at once left the players' terminals in mouse mode).
        await self.box.close()
        # (Each goodbye comes after its app's last output, the box's apps already gone:
        # closing the connections at once cut it off on a busy machine.)
        said = [login.session.done.wait() for login in self.logins
                if login.session is not None and login.session.pid is not None]
        with contextlib.suppress(TimeoutError):
            # (A session waits up to the grace for its app's last output to be sent, and
            # as long again for its goodbye to be.)
            await asyncio.wait_for(asyncio.gather(*said), 2 * self.box.settings.kill_grace + 2)
        for login in [*self.logins, *self.logging_in]:
            if login.conn is not None:
                login.conn.close()
        if self.acceptor is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.acceptor.wait_closed(), 2)

    async def __aenter__(self) -> BoxServer:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # ---- the box, as seen from the SSH side -------------------------------------------

    @property
    def host(self) -> Host | None:
        """The game host every login's app joins."""
        return self.box.host

    @property
    def host_address(self) -> tuple[str, int]:
        """Where the apps reach the game host (``Box.host_address``)."""
        return self.box.host_address

    @property
    def logins(self) -> list[Login]:
        """The SSH connections let in and not yet gone."""
        return [v for v in self.box.visitors if isinstance(v, Login)]

    @property
    def apps(self) -> dict[int, AppSession]:
        """The running apps of SSH logins, by PID."""
        return {pid: app.owner for pid, app in self.box.apps.items()
                if isinstance(app, AppProcess) and isinstance(app.owner, AppSession)}

    async def wait_until(self, predicate: Callable[[], bool]) -> None:
        """Return once ``predicate()`` holds (checked after each change of the box)."""
        await self.box.wait_until(predicate)


class Login(asyncssh.SSHServer):
    """One SSH connection: limits, authentication, at most one game session, idleness."""

    def __init__(self, server: BoxServer) -> None:
        self.server = server
        self.box = server.box
        self.conn: asyncssh.SSHServerConnection | None = None
        self.address = "?"
        self.refusal: str | None = None
        self.username = ""
        self.key: asyncssh.SSHKey | None = None
        self.keys: asyncssh.SSHAuthorizedKeys | None = None
        self.keys_refused = 0
        self.authenticated = False
        self.session: AppSession | None = None
        self.idle = IdleTimer(server.config.idle_timeout, self._idle, self._warn_idle)
        self.idle_closed = False

    # ---- connection -------------------------------------------------------------------

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        """Check the limits; a connection over them is told why at its first auth step.

        A connection let in is told, before it names its user, that the login name is the
        player's name and how to choose another (asyncssh holds the banner until the
        client asks to log in, as SSH wants): a name that SSH itself cannot carry (an
        emoji) is refused inside asyncssh, whose one line is all the player gets then.
        """
        self.conn = conn
        peer = conn.get_extra_info("peername")
        self.address = str(peer[0]) if peer else "?"
        self.refusal = self.box.refusal(self) or self._may_log_in()
        if self.refusal is None:
            conn.send_auth_banner(login_banner(self.server.invitation,
                                               not self.server.config.open_login))

    def _may_log_in(self) -> str | None:
        """Take a place among those logging in (:data:`LOGGING_IN`), or say why not."""
        pending = self.server.logging_in
        if sum(1 for other in pending if other.address == self.address) >= (
                LOGGING_IN_PER_ADDRESS):
            return (f"too many connections from {self.address} are logging in at once; "
                    "try again in a moment")
        pending[self] = None
        self.box.changed()
        if len(pending) > LOGGING_IN:
            oldest = next(iter(pending))
            del pending[oldest]
            log.warning("%s logging in from %s for too long with %d others waiting: "
                        "closed", oldest.who or "a connection", oldest.address, LOGGING_IN)
            if oldest.conn is not None:
                oldest.conn.disconnect(asyncssh.DISC_TOO_MANY_CONNECTIONS,
                                       "too many connections are logging in; try again")
        return None

    def connection_lost(self, exc: Exception | None) -> None:
        """Free the slot, end the app, and say why a login that never got in was refused."""
        self.server.logging_in.pop(self, None)
        self.box.changed()
        if self.refusal is not None:
            return
        self.box.release(self)
        self.idle.cancel()
        if isinstance(exc, asyncssh.IllegalUserName):
            # asyncssh refused it before any of our code saw it: only its reason, with
            # the character it could not take, tells what the name was.
            log.warning("refused a user name from %s that SSH cannot carry: %s",
                        self.address, escaped(exc.reason))
        elif not self.authenticated:
            why = (f"no authorized key ({self.keys_refused} offered{self._skipped()})"
                   if self.keys_refused else "no key offered, or gave up before logging in")
            log.warning("refused %r from %s: %s", self.who, self.address, why)
        else:
            log.info("%s from %s logged out%s", self.who, self.address,
                     f" ({exc})" if exc else "")
        if self.session is not None:
            self.session.stop("the connection closed")

    # ---- authentication ---------------------------------------------------------------

    @property
    def who(self) -> str:
        """The user name as it may appear in the server's log (no control characters)."""
        return "".join(ch if ch.isprintable() else "?" for ch in self.username)[:64]

    def begin_auth(self, username: str) -> bool:
        """Refuse a connection over the limits; else ask for a key (none with ``--open``)."""
        self.username = username
        self.refusal = self.refusal or self.box.refusal(self)
        if self.refusal is not None:
            log.warning("refused %r from %s: %s", self.who, self.address, self.refusal)
            raise asyncssh.DisconnectError(asyncssh.DISC_TOO_MANY_CONNECTIONS, self.refusal)
        config = self.server.config
        if config.open_login:
            return False
        assert config.authorized_keys is not None
        try:
            self.keys = read_keys(config.authorized_keys) or asyncssh.SSHAuthorizedKeys()
        except (OSError, ValueError) as exc:
            log.error("refused %r from %s: cannot read %s (%s)", self.who, self.address,
                      config.authorized_keys, exc)
            self.refusal = "logins are not possible right now"  # (said once, here)
            raise asyncssh.DisconnectError(
                asyncssh.DISC_SERVICE_NOT_AVAILABLE, self.refusal) from None
        return True

    def _skipped(self) -> str:
        """A refused key's log line names the keys file's lines that are no key: the
        player's may be one of them."""
        path = self.server.config.authorized_keys
        try:
            _, bad = not_keys(path) if path is not None else (0, [])
        except (OSError, ValueError):
            return ""
        return f"; in {path}, {skipped_words(bad)}" if bad else ""

    def public_key_auth_supported(self) -> bool:
        """Keys are how one logs in (unless ``--open``, where no auth is asked)."""
        return self.keys is not None

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        """Is ``key`` in the authorized_keys file (``from=`` options honoured)?

        asyncssh checks the signature right after the last call that said yes, so the
        key remembered here is the one the client proved it holds.
        """
        assert self.keys is not None
        if self.keys.validate(key, self.address, self.address) is None:
            self.keys_refused += 1
            return False
        self.key = key
        return True

    def auth_completed(self) -> None:
        """Logged in: now the login takes a place on the box (the box may have filled
        while it logged in: then it is told so and closed)."""
        self.server.logging_in.pop(self, None)
        self.refusal = self.box.admit(self)
        if self.refusal is not None:
            log.warning("refused %r from %s: %s", self.who, self.address, self.refusal)
            assert self.conn is not None
            self.conn.disconnect(asyncssh.DISC_TOO_MANY_CONNECTIONS, self.refusal)
            return
        self.idle.start()
        self.authenticated = True
        how = f"key {self.key.get_fingerprint()}" if self.key is not None else "no key (--open)"
        log.info("%s logged in from %s with %s", self.who, self.address, how)

    # ---- what a login may ask for -----------------------------------------------------

    def session_requested(self) -> AppSession | bool:
        """One game session per login."""
        if self.session is not None:
            log.warning("%s from %s: refused a second session on one login", self.who,
                        self.address)
            return False
        invite = self.server.invitation
        argv, data = self.box.app_argv(self.username, player_dir_name(self.username, self.key))
        self.session = AppSession(self.box, self, argv, data, invite)
        return self.session

    def connection_requested(self, dest_host: str, dest_port: int, orig_host: str,
                             orig_port: int) -> bool:
        """No port forwarding (it would reach the game host and the box's network)."""
        log.warning("%s from %s: refused forwarding to %s:%d", self.who, self.address,
                    dest_host, dest_port)
        return False

    def server_requested(self, listen_host: str, listen_port: int) -> bool:
        """No remote port forwarding."""
        log.warning("%s from %s: refused a remote forward of port %d", self.who,
                    self.address, listen_port)
        return False

    def unix_connection_requested(self, dest_path: str) -> bool:
        """No forwarding to local sockets."""
        log.warning("%s from %s: refused forwarding to socket %s", self.who,
                    self.address, dest_path)
        return False

    def unix_server_requested(self, listen_path: str) -> bool:
        """No remote socket forwarding."""
        log.warning("%s from %s: refused a remote socket forward", self.who, self.address)
        return False

    # ---- idleness ---------------------------------------------------------------------

    def touch(self) -> None:
        """The player pressed something."""
        self.idle.touch()

    def _warn_idle(self) -> None:
        if self.session is not None:
            self.session.process.warn_idle()

    def _idle(self) -> None:
        self.idle_closed = True
        words = idle_words(self.server.config.idle_timeout)
        log.info("%s from %s: closing the login after %s without a key pressed",
                 self.who, self.address, words)
        farewell = (f"hiddenhand: closed after {words} without a key pressed; log in "
                    "again to go on (a seat at a table is kept).")
        if self.session is not None and self.session.running:
            self.session.stop("idle", farewell=farewell)
        elif self.conn is not None:
            self.conn.disconnect(asyncssh.DISC_BY_APPLICATION, farewell)

    def app_ended(self) -> None:
        """The app is gone; a login closed for idleness goes with it."""
        if self.idle_closed and self.conn is not None:
            self.conn.close()


__all__ = ["DEFAULT_SSH_PORT", "HOST_KEY_NAME", "BoxConfig", "BoxServer", "Login",
           "escaped", "invitation", "load_host_key", "login_banner", "player_dir_name"]
