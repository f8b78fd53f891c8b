"""SSH-hosted play: ``hiddenhand ssh-serve``, a shared box anyone with an ssh client plays on.

The server listens for SSH (asyncssh) and runs one :class:`~net.host.Host` on 127.0.0.1
that every login's app joins, so several groups can play on one box at once. Each login
with a pseudo-terminal gets its own hiddenhand app **in its own process**: a new session
(``setsid``) whose controlling terminal is a fresh PTY sized and typed as the client asked.
Bytes are relayed both ways; a window change is set on the PTY (``TIOCSWINSZ``) and the
app's process group is sent ``SIGWINCH``; when the channel or the connection closes, the
process group is hung up and, if it lingers, killed, so a dropped line never leaves a
process behind.

Anything else is refused: a session without a PTY, a command (``ssh box ls``), a
subsystem (``sftp``) each get one line on stderr and exit status 1; port forwarding,
agent and X11 forwarding are off. Logins are checked against an authorized_keys file,
or let in without a key when the operator says ``--open``. Limits: logins in all, logins
per client address, and an idle login is closed. Every refusal is logged with its reason.

This module never imports ``tui``: it starts the app by its command line
(``python -m tui.cli --box ... --player ... --data-dir ...``).
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import hashlib
import logging
import os
import re
import signal
import socket
import stat
import struct
import sys
import termios
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import asyncssh

from engine.bots import make_bot
from net.host import Host, listen_error
from net.limits import Limits
from net.paths import ssh_dir

log = logging.getLogger("hiddenhand.ssh")

DEFAULT_SSH_PORT = 2222
HOST_KEY_NAME = "ssh_host_ed25519_key"
#: The variables of the server's environment an app may see (nothing like SSH_AUTH_SOCK).
KEPT_ENV = ("PATH", "HOME", "USER", "LOGNAME", "LANG", "LC_ALL", "LC_CTYPE", "TMPDIR", "TZ",
            "PYTHONPATH", "VIRTUAL_ENV")
#: Sent to the client when the app died without restoring the terminal: leave the
#: alternate screen, show the cursor, stop mouse reporting and bracketed paste.
TERMINAL_RESET = b"\x1b[?1049l\x1b[?25h\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l\x1b[?2004l"
#: Keys held for an app that is not reading before the channel stops reading.
INPUT_BUFFER = 64 * 1024
_SAFE_TERM = re.compile(r"[A-Za-z0-9.+_-]{1,64}")
_SAFE_NAME = re.compile(r"[^A-Za-z0-9._-]")


def default_data_dir() -> Path:
    """Where ``ssh-serve`` keeps its host key and the players' data (see :mod:`net.paths`)."""
    return ssh_dir()


def app_command() -> list[str]:
    """The command that starts one player's app (this Python, the ``tui.cli`` module)."""
    return [sys.executable, "-m", "tui.cli"]


def invitation(hostname: str, port: int) -> str:
    """What a friend types to join: ``ssh -p 2222 box`` (no ``-p`` for port 22)."""
    return f"ssh {hostname}" if port == 22 else f"ssh -p {port} {hostname}"


@dataclass
class BoxConfig:
    """How ``ssh-serve`` runs; the command line fills it, tests build it directly.

    ``authorized_keys`` is re-read at each login (edit it while the server runs);
    ``open_login`` lets anyone in with any name and no key. ``idle_timeout`` is in
    seconds without a key pressed (0: never). ``host_port`` 0 picks a free port for the
    internal game host; ``hostname`` is what the invitation tells friends to type.
    """

    port: int = DEFAULT_SSH_PORT
    bind: str | None = None
    authorized_keys: Path | None = None
    open_login: bool = False
    max_sessions: int = 32
    max_per_address: int = 4
    idle_timeout: float = 1800.0
    data_dir: Path = field(default_factory=default_data_dir)
    host_port: int = 0
    hostname: str = field(default_factory=lambda: socket.gethostname().split(".")[0] or "box")
    bot_delay: float = 0.7
    login_timeout: float = 30.0
    kill_grace: float = 3.0
    command: Sequence[str] = field(default_factory=app_command)

    def check(self) -> None:
        """Raise ``ValueError`` in plain words for a configuration that cannot run."""
        if self.open_login == (self.authorized_keys is not None):
            raise ValueError("say who may log in: --authorized-keys FILE, or --open for anyone")
        if self.max_sessions < 1 or self.max_per_address < 1:
            raise ValueError("--max-sessions and --max-per-address must be 1 or more")
        if self.authorized_keys is not None:
            try:
                asyncssh.read_authorized_keys(str(self.authorized_keys))
            except OSError as exc:
                raise ValueError(f"cannot read {self.authorized_keys}: "
                                 f"{exc.strerror or exc}") from None
            except ValueError as exc:
                raise ValueError(f"{self.authorized_keys} is not an authorized_keys "
                                 f"file: {exc}") from None


def load_host_key(path: Path) -> tuple[asyncssh.SSHKey, bool]:
    """The server's host key at ``path``, generated (ed25519, mode 0600) on first use.

    Returns the key and whether it was just made. Like sshd, refuses a key file others
    may read.
    """
    try:
        mode = stat.S_IMODE(path.stat().st_mode)
    except FileNotFoundError:
        pass
    else:
        if mode & 0o077:
            raise ValueError(f"the host key {path} may be read by others (mode {mode:o}); "
                             f"make it private: chmod 600 {path}")
        return asyncssh.read_private_key(str(path)), False
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    key = asyncssh.generate_private_key("ssh-ed25519", comment="hiddenhand ssh-serve")
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as out:
        out.write(key.export_private_key())
    return key, True


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


class BoxServer:
    """The SSH front door and the one game host behind it.

    ``logins`` are the open SSH connections; ``apps`` maps each running app's PID to its
    session. ``wait_until`` lets a caller wait for a state of these (tests, benchmarks).
    """

    def __init__(self, config: BoxConfig) -> None:
        config.check()
        self.config = config
        self.host: Host | None = None
        self.acceptor: asyncssh.SSHAcceptor | None = None
        self.host_key: asyncssh.SSHKey | None = None
        self.host_key_path = config.data_dir / HOST_KEY_NAME
        self.host_key_created = False
        self.logins: set[Login] = set()
        self.apps: dict[int, AppSession] = {}
        self.closing = False
        self._change = asyncio.Event()

    # ---- lifecycle --------------------------------------------------------------------

    async def start(self) -> None:
        """Start the game host on 127.0.0.1, load (or make) the host key, listen for SSH."""
        config = self.config
        self.host_key, self.host_key_created = load_host_key(self.host_key_path)
        # Players' settings stay theirs: no other Unix user of the box reads them.
        (config.data_dir / "players").mkdir(mode=0o700, exist_ok=True)
        # Every login's app connects from 127.0.0.1: the host must not count them as one
        # client (this server limits each real client address itself).
        limits = Limits(shared_addresses=frozenset({"127.0.0.1", "::1"}))
        self.host = Host(
            config.hostname,
            bot_factory=make_bot,
            bot_delay=config.bot_delay,
            max_connections=max(256, 4 * config.max_sessions),
            max_tables=max(32, config.max_sessions),
            limits=limits,
        )
        await self.host.start("127.0.0.1", config.host_port)
        try:
            self.acceptor = await asyncssh.listen(
                config.bind or "",
                config.port,
                server_factory=lambda: Login(self),
                server_host_keys=[self.host_key],
                encoding=None,
                line_editor=False,
                agent_forwarding=False,
                x11_forwarding=False,
                password_auth=False,
                kbdint_auth=False,
                host_based_auth=False,
                gss_host=None,
                login_timeout=config.login_timeout,
                keepalive_interval=30,
                keepalive_count_max=3,
                reuse_address=True,
            )
        except OSError as exc:
            await self.host.close()
            raise ValueError(f"cannot listen for SSH: {listen_error(exc, config.port, config.bind)}"
                             ) from None
        except BaseException:
            await self.host.close()
            raise

    @property
    def port(self) -> int:
        """The SSH port the server listens on."""
        assert self.acceptor is not None, "the server is not listening"
        return self.acceptor.get_port()

    @property
    def invitation(self) -> str:
        """What friends type to join."""
        return invitation(self.config.hostname, self.port)

    @property
    def fingerprint(self) -> str:
        """The host key's SHA256 fingerprint, as ssh clients show it."""
        assert self.host_key is not None
        return self.host_key.get_fingerprint()

    async def close(self) -> None:
        """Stop listening, end every app and connection, stop the game host."""
        self.closing = True
        if self.acceptor is not None:
            self.acceptor.close()
        for app in list(self.apps.values()):
            app.stop("the server is stopping")
        for login in list(self.logins):
            if login.conn is not None:
                login.conn.close()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(
                self.wait_until(lambda: not self.apps), self.config.kill_grace + 2
            )
        if self.acceptor is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.acceptor.wait_closed(), 2)
        if self.host is not None:
            await self.host.close()

    async def __aenter__(self) -> BoxServer:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # ---- state ------------------------------------------------------------------------

    def changed(self) -> None:
        """Wake whoever waits in :meth:`wait_until`."""
        event, self._change = self._change, asyncio.Event()
        event.set()

    async def wait_until(self, predicate: Callable[[], bool]) -> None:
        """Return once ``predicate()`` holds (checked after each change of state)."""
        while not predicate():
            await self._change.wait()

    def admit(self, login: Login) -> str | None:
        """Count a new connection in, or say why it may not stay."""
        if self.closing:
            return "the server is shutting down"
        if len(self.logins) >= self.config.max_sessions:
            return (f"this box is full ({self.config.max_sessions} logins); "
                    "try again later")
        same = sum(1 for other in self.logins if other.address == login.address)
        if same >= self.config.max_per_address:
            return (f"too many logins from {login.address} (at most "
                    f"{self.config.max_per_address}); close one first")
        self.logins.add(login)
        self.changed()
        return None

    def release(self, login: Login) -> None:
        """A connection is gone."""
        self.logins.discard(login)
        self.changed()

    def app_argv(self, login: Login) -> tuple[list[str], Path]:
        """The command line of one login's app, and its data directory."""
        assert self.host is not None
        data = self.config.data_dir / "players" / player_dir_name(login.username, login.key)
        argv = [
            *self.config.command,
            f"--box=127.0.0.1:{self.host.port}",
            f"--player={login.username}",
            f"--data-dir={data}",
            f"--box-invite={self.invitation}",
        ]
        return argv, data


class Login(asyncssh.SSHServer):
    """One SSH connection: limits, authentication, at most one game session, idleness."""

    def __init__(self, box: BoxServer) -> None:
        self.box = box
        self.conn: asyncssh.SSHServerConnection | None = None
        self.address = "?"
        self.refusal: str | None = None
        self.username = ""
        self.key: asyncssh.SSHKey | None = None
        self.keys: asyncssh.SSHAuthorizedKeys | None = None
        self.keys_refused = 0
        self.authenticated = False
        self.session: AppSession | None = None
        self.last_input = 0.0
        self.idle_closed = False
        self._idle_timer: asyncio.TimerHandle | None = None

    # ---- connection -------------------------------------------------------------------

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        """Check the limits; a connection over them is told why at its first auth step."""
        self.conn = conn
        peer = conn.get_extra_info("peername")
        self.address = str(peer[0]) if peer else "?"
        self.refusal = self.box.admit(self)
        if self.refusal is None:
            self.touch()
            if self.box.config.idle_timeout > 0:
                self._arm_idle(self.box.config.idle_timeout)

    def connection_lost(self, exc: Exception | None) -> None:
        """Free the slot, end the app, and say why a login that never got in was refused."""
        if self.refusal is not None:
            return
        self.box.release(self)
        if self._idle_timer is not None:
            self._idle_timer.cancel()
        if not self.authenticated:
            why = (f"no authorized key ({self.keys_refused} offered)" if self.keys_refused
                   else "no key offered, or gave up before logging in")
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
        if self.refusal is not None:
            log.warning("refused %r from %s: %s", self.who, self.address, self.refusal)
            raise asyncssh.DisconnectError(asyncssh.DISC_TOO_MANY_CONNECTIONS, self.refusal)
        config = self.box.config
        if config.open_login:
            return False
        assert config.authorized_keys is not None
        try:
            self.keys = asyncssh.read_authorized_keys(str(config.authorized_keys))
        except (OSError, ValueError) as exc:
            log.error("refused %r from %s: cannot read %s (%s)", self.who, self.address,
                      config.authorized_keys, exc)
            raise asyncssh.DisconnectError(
                asyncssh.DISC_SERVICE_NOT_AVAILABLE, "logins are not possible right now"
            ) from None
        return True

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
        """Logged in."""
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
        self.session = AppSession(self)
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
        self.last_input = asyncio.get_running_loop().time()

    def _arm_idle(self, delay: float) -> None:
        self._idle_timer = asyncio.get_running_loop().call_later(delay, self._idle_check)

    def _idle_check(self) -> None:
        timeout = self.box.config.idle_timeout
        left = self.last_input + timeout - asyncio.get_running_loop().time()
        if left > 0:
            self._arm_idle(left)
            return
        self.idle_closed = True
        words = f"{timeout / 60:g} minutes" if timeout >= 60 else f"{timeout:g} seconds"
        log.info("%s from %s: closing the login after %s without a key pressed",
                 self.who, self.address, words)
        farewell = f"hiddenhand: closed after {words} without a key pressed."
        if self.session is not None and self.session.running:
            self.session.stop("idle", farewell=farewell)
        elif self.conn is not None:
            self.conn.disconnect(asyncssh.DISC_BY_APPLICATION, farewell)


class AppSession(asyncssh.SSHServerSession[bytes]):
    """One login's game: the app in its own process on a PTY, wired to the SSH channel."""

    def __init__(self, login: Login) -> None:
        self.login = login
        self.box = login.box
        self.chan: asyncssh.SSHServerChannel[bytes] | None = None
        self.term_type: str | None = None
        self.term_size = (80, 24, 0, 0)
        self.kind = "shell"
        self.pid: int | None = None
        self.data_dir: Path | None = None
        self.exit_code: int | None = None
        self.ended = asyncio.Event()
        self._master = -1
        self._pidfd = -1
        self._reading = False
        self._paused = False
        self._input_paused = False
        self._to_app = bytearray()
        self._kill_timer: asyncio.TimerHandle | None = None
        self._farewell: str | None = None

    @property
    def running(self) -> bool:
        """True while the app process is alive (not yet reaped)."""
        return self.pid is not None and self.exit_code is None

    # ---- what the client asks for -----------------------------------------------------

    def connection_made(self, chan: asyncssh.SSHServerChannel[bytes]) -> None:
        """Keep the channel."""
        self.chan = chan

    def pty_requested(self, term_type: str, term_size: tuple[int, int, int, int],
                      term_modes: Mapping[int, int]) -> bool:
        """Accept the terminal; its type and size go to the app's PTY."""
        self.term_type = term_type if _SAFE_TERM.fullmatch(term_type) else "xterm-256color"
        self.term_size = term_size
        return True

    def shell_requested(self) -> bool:
        """A login: the game (refused later, with a message, if there is no PTY)."""
        self.kind = "shell"
        return True

    def exec_requested(self, command: str) -> bool:
        """A command: refused in :meth:`session_started`, with a message."""
        self.kind = "exec"
        log.warning("%s from %s: refused command %r", self.login.who,
                    self.login.address, command[:80])
        return True

    def subsystem_requested(self, subsystem: str) -> bool:
        """A subsystem (sftp…): refused in :meth:`session_started`, with a message."""
        self.kind = "subsystem"
        log.warning("%s from %s: refused subsystem %r", self.login.who,
                    self.login.address, subsystem[:40])
        return True

    def session_started(self) -> None:
        """Start the app, or say in one line why not."""
        assert self.chan is not None
        invite = self.box.invitation
        problem = None
        if self.kind == "exec":
            problem = f"this server runs the game only; log in without a command: {invite}"
        elif self.kind == "subsystem":
            problem = f"no file transfer or subsystems here; log in with: {invite}"
        elif self.term_type is None:
            problem = ("the game needs a terminal; log in without -T, or force one: "
                       + invite.replace("ssh ", "ssh -t ", 1))
            log.warning("%s from %s: refused a session without a terminal",
                        self.login.who, self.login.address)
        elif self.box.closing:
            problem = "the server is shutting down"
        if problem is None:
            try:
                self._spawn()
            except OSError as exc:
                log.error("%s: could not start the app: %s", self.login.who, exc)
                problem = "the game could not start on this box; try again later"
        if problem is not None:
            self.chan.write_stderr(f"hiddenhand: {problem}\r\n".encode())
            self.chan.exit(1)

    def data_received(self, data: bytes, datatype: asyncssh.DataType) -> None:
        """Keys from the player: to the app's terminal."""
        self.login.touch()
        if self._master < 0:
            return
        pending = bool(self._to_app)
        self._to_app += data
        if not pending:
            self._write_to_app()
        if len(self._to_app) > INPUT_BUFFER and not self._input_paused and self.chan:
            self._input_paused = True
            self.chan.pause_reading()  # the app is not reading: let SSH's window fill

    def eof_received(self) -> bool:
        """The client closed its input; the app runs on until the channel closes."""
        return True

    def terminal_size_changed(self, width: int, height: int, pixwidth: int,
                              pixheight: int) -> None:
        """Relay a window change: set the PTY's size, then tell the app's process group."""
        self.term_size = (width, height, pixwidth, pixheight)
        if self._master >= 0 and self.running:
            _set_size(self._master, self.term_size)
            assert self.pid is not None
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.pid, signal.SIGWINCH)

    def pause_writing(self) -> None:
        """The client is slow: stop reading the app's output (the PTY holds it back)."""
        self._paused = True
        self._stop_reading()

    def resume_writing(self) -> None:
        """The client caught up."""
        self._paused = False
        self._start_reading()

    def connection_lost(self, exc: Exception | None) -> None:
        """The channel closed: the app goes with it."""
        self.stop("the channel closed")

    # ---- the app process --------------------------------------------------------------

    def _spawn(self) -> None:
        argv, self.data_dir = self.box.app_argv(self.login)
        env = {k: os.environ[k] for k in KEPT_ENV if k in os.environ}
        env.setdefault("LANG", "C.UTF-8")
        env["TERM"] = self.term_type or "xterm-256color"
        # COLUMNS and LINES stay unset: Python's get_terminal_size() prefers them to the
        # PTY's size, so a resize would never be seen. The PTY carries the size instead.
        assert self.chan is not None
        colorterm = self.chan.get_environment().get("COLORTERM")
        if colorterm in ("truecolor", "24bit"):
            env["COLORTERM"] = colorterm
        master, slave = os.openpty()
        try:
            _set_size(master, self.term_size)
            # Opened by path in the child after setsid(): the PTY becomes its
            # controlling terminal, so hang-ups and job control work as on a console.
            pid = os.posix_spawnp(
                argv[0], argv, env,
                file_actions=[
                    (os.POSIX_SPAWN_OPEN, 0, os.ttyname(slave), os.O_RDWR, 0),
                    (os.POSIX_SPAWN_DUP2, 0, 1),
                    (os.POSIX_SPAWN_DUP2, 0, 2),
                ],
                setsid=True,
                setsigmask=(),
                setsigdef=(signal.SIGHUP, signal.SIGINT, signal.SIGTERM, signal.SIGQUIT,
                           signal.SIGPIPE, signal.SIGWINCH, signal.SIGCHLD),
            )
        except OSError:
            os.close(master)
            raise
        finally:
            os.close(slave)
        self.pid, self._master = pid, master
        os.set_blocking(master, False)
        loop = asyncio.get_running_loop()
        try:
            self._pidfd = os.pidfd_open(pid)
        except (AttributeError, OSError):  # no pidfd (old kernel): look now and then
            self._poll_exit()
        else:
            loop.add_reader(self._pidfd, self._reap)
        self._start_reading()
        self.box.apps[pid] = self
        self.box.changed()
        log.info("%s from %s: app pid %d on %s %dx%d", self.login.who,
                 self.login.address, pid, env["TERM"], self.term_size[0], self.term_size[1])

    def _start_reading(self) -> None:
        if self._master >= 0 and not self._reading and not self._paused:
            asyncio.get_running_loop().add_reader(self._master, self._from_app)
            self._reading = True

    def _stop_reading(self) -> None:
        if self._reading:
            asyncio.get_running_loop().remove_reader(self._master)
            self._reading = False

    def _from_app(self) -> None:
        """The app drew something: send it to the player."""
        try:
            data = os.read(self._master, 65536)
        except BlockingIOError:
            return
        except OSError:
            data = b""  # EIO: every process let go of the terminal
        if not data:
            self._close_master()
            return
        self._send(data)

    def _send(self, data: bytes) -> None:
        if self.chan is not None:
            with contextlib.suppress(OSError):  # the channel is already closing
                self.chan.write(data)

    def _write_to_app(self) -> None:
        loop = asyncio.get_running_loop()
        try:
            written = os.write(self._master, self._to_app)
        except BlockingIOError:
            written = 0
        except OSError:
            self._to_app.clear()
            loop.remove_writer(self._master)
            return
        del self._to_app[:written]
        if self._to_app:
            loop.add_writer(self._master, self._write_to_app)
        else:
            loop.remove_writer(self._master)
        if self._input_paused and len(self._to_app) <= INPUT_BUFFER // 2 and self.chan:
            self._input_paused = False
            self.chan.resume_reading()

    def _close_master(self) -> None:
        if self._master < 0:
            return
        self._stop_reading()
        loop = asyncio.get_running_loop()
        loop.remove_writer(self._master)
        os.close(self._master)
        self._master = -1

    def stop(self, reason: str, farewell: str | None = None) -> None:
        """End the app: hang up its process group, kill it if it lingers."""
        if not self.running or self._kill_timer is not None:
            return
        assert self.pid is not None
        self._farewell = farewell
        log.info("%s: ending app pid %d (%s)", self.login.who, self.pid, reason)
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.pid, signal.SIGHUP)
        self._kill_timer = asyncio.get_running_loop().call_later(
            self.box.config.kill_grace, self._kill
        )

    def _kill(self) -> None:
        if self.running:
            assert self.pid is not None
            log.warning("%s: app pid %d ignored the hang-up; killing it", self.login.who,
                        self.pid)
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.pid, signal.SIGKILL)

    def _poll_exit(self) -> None:
        if self.running:
            self._reap()
        if self.running:
            asyncio.get_running_loop().call_later(0.25, self._poll_exit)

    def _reap(self) -> None:
        """The app exited: collect it, pass its last output and exit status on."""
        assert self.pid is not None
        status = 0
        try:
            exited = os.waitid(os.P_PID, self.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
            if exited is None:
                return  # still running
            # While the exited leader is a zombie its group id cannot be reused: kill
            # anything it left in the group, then collect it.
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.pid, signal.SIGKILL)
            _, status = os.waitpid(self.pid, 0)
        except ChildProcessError:
            pass  # collected elsewhere; nothing to learn
        if self._pidfd >= 0:
            asyncio.get_running_loop().remove_reader(self._pidfd)
            os.close(self._pidfd)
            self._pidfd = -1
        if self._kill_timer is not None:
            self._kill_timer.cancel()
        code = os.waitstatus_to_exitcode(status)
        self.exit_code = code
        while self._master >= 0 and not self._paused:
            try:
                data = os.read(self._master, 65536)
            except OSError:
                break
            if not data:
                break
            self._send(data)
        self._close_master()
        if code < 0:
            self._send(TERMINAL_RESET)
        if self._farewell:
            self._send(f"\r\n{self._farewell}\r\n".encode())
        if self.chan is not None:
            with contextlib.suppress(OSError):
                self.chan.exit(code if code >= 0 else 128 - code)
        log.info("%s: app pid %d ended (%s)", self.login.who, self.pid,
                 f"exit {code}" if code >= 0 else f"signal {-code}")
        self.box.apps.pop(self.pid, None)
        self.ended.set()
        self.box.changed()
        if self.login.idle_closed and self.login.conn is not None:
            self.login.conn.close()


def _set_size(fd: int, size: tuple[int, int, int, int]) -> None:
    width, height, pixwidth, pixheight = size
    cols = min(max(width, 1), 1000) if width else 80
    rows = min(max(height, 1), 1000) if height else 24
    packed = struct.pack("HHHH", rows, cols, min(pixwidth, 65535), min(pixheight, 65535))
    fcntl.ioctl(fd, termios.TIOCSWINSZ, packed)


# --------------------------------------------------------------------------- command line


def banner(box: BoxServer) -> list[str]:
    """What ``ssh-serve`` prints at start: where, the host key, who may log in."""
    config = box.config
    assert box.host is not None
    where = config.bind or "every address"
    made = " (new)" if box.host_key_created else ""
    lines = [
        f"hiddenhand ssh-serve: listening on {where}, port {box.port}",
        f"host key {box.fingerprint}{made}: {box.host_key_path}",
        f"friends join with: {box.invitation}",
        f"games: one host on 127.0.0.1:{box.host.port}; at most {config.max_sessions} logins, "
        f"{config.max_per_address} per address; idle logins close after "
        + (f"{config.idle_timeout:g} s" if config.idle_timeout else "never"),
    ]
    if config.open_login:
        lines += [
            "!" * 72,
            "!! OPEN: anyone who reaches this port logs in, with any name, no key.",
            "!! Use --open on a trusted LAN only. Names and settings are not private.",
            "!" * 72,
        ]
    else:
        lines.append(f"logins: keys in {config.authorized_keys} (re-read at each login)")
    return lines


def run_ssh_serve(config: BoxConfig) -> int:
    """Run the SSH box until Ctrl-C or SIGTERM, logging to stdout."""
    logging.basicConfig(
        stream=sys.stdout, level=logging.INFO, format="%(asctime)s %(message)s",
        datefmt="%H:%M:%S", force=True,
    )
    logging.getLogger("asyncssh").setLevel(logging.WARNING)

    async def main() -> None:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError, RuntimeError):
                loop.add_signal_handler(sig, stop.set)
        box = BoxServer(config)
        await box.start()
        try:
            for line in banner(box):
                print(line, flush=True)
            await stop.wait()
            log.info("stopping")
        finally:
            await box.close()

    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        pass
    except (OSError, ValueError, asyncssh.Error) as exc:
        print(f"hiddenhand ssh-serve: {exc}", file=sys.stderr)
        return 1
    return 0


__all__ = ["DEFAULT_SSH_PORT", "AppSession", "BoxConfig", "BoxServer", "Login",
           "default_data_dir", "load_host_key", "run_ssh_serve"]

