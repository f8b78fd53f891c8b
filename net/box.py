"""The box: one game host that every visitor's app joins, and what keeps a shared box fair.

A box is what ``hiddenhand ssh-serve`` runs behind its front door. The front door (SSH,
:mod:`net.sshlogin`; a web server serving the same app per visit could be another) lets
visitors in and starts one app per visitor; the box holds what does not depend on how
they came in:

- the one :class:`~net.host.Host` on 127.0.0.1 that every app joins, so several groups
  play at several tables on one box;
- the limits: visitors at once in all and per client address (:meth:`Box.admit`);
- idleness: an :class:`IdleTimer` per visitor, ended after so long without a key;
- the apps: each visitor's app is started by the command line :meth:`Box.app_argv`
  gives (the player's name, their own data directory, the invitation) and registered
  here by its PID, so closing the box ends every one of them.

This module never imports ``tui`` nor any front door's library: an app is a process,
started by its command line (``python -m tui.cli --box ... --player ... --data-dir ...``).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import os
import secrets
import socket
import sys
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from engine.bots import make_bot
from net.host import Host
from net.journal import JournalError, in_use
from net.limits import Limits
from net.paths import IDLE_WARNING_ENV, INVITES_ENV, VISITOR_ENV, ssh_dir
from net.records import DB_NAME, Keeper
from net.seats import name_problem

#: The box host's journal and its socket, in the box's data directory.
JOURNAL_NAME = "box.hhjournal"
SOCKET_NAME = "host.sock"
#: The box's key for its players' ids (:func:`visitor_secret`).
SECRET_NAME = "visitor.key"
SECRET_BYTES = 32
#: A Unix socket's path is at most 107 bytes on Linux (104 on the BSDs).
SOCKET_PATH_LIMIT = 100


def visitor_secret(path: Path) -> bytes:
    """The box's key for its players' ids, kept in ``path`` (made, readable by the box's
    user alone, the first time): the same player is the same id after a restart, so the
    seats of the box's journal and the games it kept stay theirs."""
    with contextlib.suppress(FileNotFoundError):
        secret = path.read_bytes()
        if len(secret) == SECRET_BYTES:
            return secret
        path.unlink()  # (cut short by a crash as it was made: whose ids it made, none)
    secret = secrets.token_bytes(SECRET_BYTES)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as handle:
        handle.write(secret)
    return secret


def default_data_dir() -> Path:
    """Where the box keeps its host key and the players' data (see :mod:`net.paths`)."""
    return ssh_dir()


def app_command() -> list[str]:
    """The command that starts one player's app (this Python, the ``tui.cli`` module)."""
    return [sys.executable, "-m", "tui.cli"]


def machine_name() -> str:
    """This machine's name, as a box's invitation names it by default."""
    return socket.gethostname().split(".")[0] or "box"


@dataclass
class BoxSettings:
    """How a box runs, whatever its front door; tests build it directly.

    ``idle_timeout`` is in seconds without a key pressed (0: never). The internal game
    host listens on a Unix socket in a directory only this user may enter, so it is
    reached only through the box's doors; ``host_port`` (0: a free one) serves it on TCP
    127.0.0.1 instead, where every local user can reach it. ``hostname`` is the box's name
    in the invitation friends are told to type. ``kill_grace`` is how long an app may take
    to end after it is hung up before it is killed.
    """

    max_sessions: int = 32
    max_per_address: int = 4
    idle_timeout: float = 1800.0
    data_dir: Path = field(default_factory=default_data_dir)
    host_port: int | None = None
    hostname: str = field(default_factory=machine_name)
    bot_delay: float = 0.7
    kill_grace: float = 3.0
    command: Sequence[str] = field(default_factory=app_command)

    def check(self) -> None:
        """Raise ``ValueError`` in plain words for settings that cannot run."""
        if self.max_sessions < 1 or self.max_per_address < 1:
            raise ValueError("--max-sessions and --max-per-address must be 1 or more")
        # Absolute: the host's socket and every app's arguments are paths in it (given as
        # "--data-dir box", the socket "box/host.sock" was taken for a host name, and the
        # box said only "[Errno -2] Name or service not known").
        self.data_dir = self.data_dir.absolute()
        # (An unusable one said only "[Errno 17] File exists: …" as the box started.)
        try:
            self.data_dir.mkdir(parents=True, exist_ok=True, mode=0o700)
        except (FileExistsError, NotADirectoryError):
            raise ValueError(f"cannot keep the box's files in {self.data_dir}: a file is "
                             "in the way (give a directory with --data-dir)") from None
        except OSError as exc:
            raise ValueError(f"cannot keep the box's files in {self.data_dir}: "
                             f"{exc.strerror or exc}") from None


class Visitor(Protocol):
    """Someone let in by a front door: counted against the limits of their address."""

    address: str


class RunningApp(Protocol):
    """One visitor's app process, as the box sees it."""

    def stop(self, reason: str) -> None:
        """End the app (hang it up, kill it if it lingers)."""


def idle_words(timeout: float) -> str:
    """A timeout as a person reads it: ``30 minutes``, ``1 minute``, ``0.5 seconds``."""
    count, unit = (timeout / 60, "minute") if timeout >= 60 else (timeout, "second")
    return f"{count:g} {unit}{'' if count == 1 else 's'}"


def warning_lead(timeout: float) -> float:
    """How long before closing an idle visitor the box warns it: a minute, or half of a
    shorter timeout."""
    return min(60.0, timeout / 2)


class IdleTimer:
    """Calls ``on_idle`` once ``timeout`` seconds pass without :meth:`touch` (0: never),
    and ``on_warn`` :func:`warning_lead` before (the player saw nothing coming, and lost
    the login while waiting for another's turn)."""

    def __init__(self, timeout: float, on_idle: Callable[[], None],
                 on_warn: Callable[[], None] | None = None) -> None:
        self.timeout = timeout
        self.on_idle = on_idle
        self.on_warn = on_warn
        self.last_input = 0.0
        self._timer: asyncio.TimerHandle | None = None
        self._warned = False

    def start(self) -> None:
        """Start counting from now."""
        self.touch()
        if self.timeout > 0:
            self._arm(self.timeout - (warning_lead(self.timeout) if self.on_warn else 0.0))

    def touch(self) -> None:
        """The visitor pressed something."""
        self.last_input = asyncio.get_running_loop().time()
        self._warned = False

    def cancel(self) -> None:
        """Stop counting (the visitor left)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _arm(self, delay: float) -> None:
        self._timer = asyncio.get_running_loop().call_later(delay, self._check)

    def _check(self) -> None:
        # One timer per visitor, re-armed for what is left: a key pressed costs a clock
        # reading, not a timer.
        left = self.last_input + self.timeout - asyncio.get_running_loop().time()
        lead = warning_lead(self.timeout) if self.on_warn is not None else 0.0
        if left > lead + 0.001:
            self._arm(left - lead)  # (to the warning)
        elif left > 0:
            if self.on_warn is not None and not self._warned:
                self._warned = True
                self.on_warn()
            self._arm(left)  # (to the close)
        else:
            self._timer = None
            self.on_idle()


class Box:
    """The game host behind a front door, the visitors let in and their running apps.

    ``visitors`` are those let in and not yet gone; ``apps`` maps each running app's PID
    to it. :meth:`wait_until` lets a caller wait for a state of these (tests,
    benchmarks, closing).
    """

    def __init__(self, settings: BoxSettings) -> None:
        settings.check()
        self.settings = settings
        self.host: Host | None = None
        self.visitors: set[Visitor] = set()
        self.apps: dict[int, RunningApp] = {}
        #: How friends come in, one line per open door (``ssh -p 2222 box``, a web link).
        self.doors: list[str] = []
        self.closing = False
        self._closed = False
        self._change = asyncio.Event()
        #: A private directory made for the host's socket, if the data dir's path is long.
        self._private: Path | None = None
        #: Keys the players' ids (``app_env``): nobody outside the box can make one. Read
        #: from the data directory as the box starts, so an id outlives a restart.
        self._visitor_secret = b""

    @property
    def players_dir(self) -> Path:
        """Where each player's own data directory is."""
        return self.settings.data_dir / "players"

    @property
    def journal_path(self) -> Path:
        """The box host's journal: every acknowledged change, kept across restarts."""
        return self.settings.data_dir / JOURNAL_NAME

    def stop_hint(self) -> str:
        """The start lines' word on stopping (only ``--help`` said it), and where the box
        keeps what it keeps (no start line named its data directory)."""
        return ("Ctrl-C stops the box; its tables are kept, and are back when it starts "
                f"again on its data directory, {self.settings.data_dir} (which holds the "
                "games played and each player's settings too)")

    def stop_words(self) -> str:
        """What the operator reads as the box stops (said before :meth:`close`)."""
        tables = len(self.host.tables) if self.host is not None else 0
        if not tables:
            return "stopping (no table was open)"
        return (f"stopping: {tables} table{'s' if tables != 1 else ''} kept in "
                f"{self.journal_path}; start again on this data directory to have "
                f"{'them' if tables != 1 else 'it'} back")

    async def start(self) -> None:
        """Make the players' directory and start the game host on 127.0.0.1: with the
        tables of the box's journal, as they were, if it ran before (a crash, Ctrl-C, an
        upgrade), on the port it had if that is free; each player takes their seat back
        by its token when they come in again."""
        settings = self.settings
        settings.data_dir.mkdir(parents=True, exist_ok=True, mode=0o700)
        # Players' settings stay theirs: no other Unix user of the box reads them.
        self.players_dir.mkdir(mode=0o700, exist_ok=True)
        self._visitor_secret = visitor_secret(settings.data_dir / SECRET_NAME)
        # Every visitor's app connects from 127.0.0.1: the host must not count them as
        # one client (the box limits each real client address itself).
        # Its apps say whose they are (``app_env``): tables nobody is at count per player.
        limits = Limits(shared_addresses=frozenset({"127.0.0.1", "::1", "local"}),
                        trusted_visitors=True)
        host_settings: dict[str, Any] = {
            "bot_factory": make_bot, "bot_delay": settings.bot_delay, "limits": limits,
            "max_connections": max(256, 4 * settings.max_sessions),
            "max_tables": max(32, settings.max_sessions)}
        if self.journal_path.exists():
            if in_use(self.journal_path):
                raise JournalError(f"another box runs with {settings.data_dir}; stop it "
                                   "first, or give this one another data directory")
            self.host = Host.resume(self.journal_path, name=settings.hostname,
                                    **host_settings)
        else:
            self.host = Host(settings.hostname, journal=self.journal_path, **host_settings)
        # The box keeps every game played on it, for its players to look back on.
        self.host.keepers.append(Keeper(settings.data_dir / DB_NAME))
        if settings.host_port is not None:
            await self.host.start("127.0.0.1", settings.host_port)
            return
        socket_path = self._socket_path()
        socket_path.unlink(missing_ok=True)  # one a crash left (no other box runs here)
        await self.host.start(str(socket_path))

    def _socket_path(self) -> Path:
        """Where the host's Unix socket goes: in the box's own data directory, or, when
        that path is too long for a socket's name, in a private directory of its own."""
        path = self.settings.data_dir / SOCKET_NAME
        if len(str(path).encode()) < SOCKET_PATH_LIMIT:
            return path
        if self._private is None:
            self._private = Path(tempfile.mkdtemp(prefix="hiddenhand-box-"))  # mode 0700
        return self._private / SOCKET_NAME

    @property
    def host_address(self) -> tuple[str, int]:
        """Where the apps reach the host: its socket's path and 0, or 127.0.0.1 and
        its port."""
        assert self.host is not None and self.host.server is not None
        name = self.host.server.sockets[0].getsockname()
        return (name, 0) if isinstance(name, str) else ("127.0.0.1", self.host.port)

    def shut(self, reason: str = "the server is stopping") -> None:
        """Let nobody else in and end every running app (see :meth:`close`). The host
        stops taking leaves first: the apps' leaving must not change their tables (it
        passed the creator's role from one player to another at every restart)."""
        self.closing = True
        if self.host is not None:
            self.host.closing = True
        for app in list(self.apps.values()):
            app.stop(reason)

    async def close(self) -> None:
        """End every app, wait for them to go (or for the time to kill them), stop the host
        (once: a box closed again does nothing)."""
        if self._closed:
            return
        self._closed = True
        self.shut()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self.wait_until(lambda: not self.apps),
                                   self.settings.kill_grace + 2)
        if self.host is not None:
            where = self.host_address[0] if self.host.server is not None else None
            # Stopping the box is no reason to lose its tables: they come back with it.
            await self.host.close(keep_journal=bool(self.host.tables))
            if where is not None and where.startswith("/"):
                Path(where).unlink(missing_ok=True)
        if self._private is not None:
            with contextlib.suppress(OSError):
                self._private.rmdir()

    # ---- state ------------------------------------------------------------------------

    def changed(self) -> None:
        """Wake whoever waits in :meth:`wait_until`."""
        event, self._change = self._change, asyncio.Event()
        event.set()

    async def wait_until(self, predicate: Callable[[], bool]) -> None:
        """Return once ``predicate()`` holds (checked after each change of state)."""
        while not predicate():
            await self._change.wait()

    def refusal(self, visitor: Visitor) -> str | None:
        """Why ``visitor`` may not come in now, in plain words, or ``None``."""
        settings = self.settings
        if self.closing:
            return "the server is shutting down"
        if len(self.visitors) >= settings.max_sessions:
            return f"this box is full ({settings.max_sessions} logins); try again later"
        same = sum(1 for other in self.visitors if other.address == visitor.address)
        if same >= settings.max_per_address:
            return (f"too many logins from {visitor.address} (at most "
                    f"{settings.max_per_address}); close one first")
        return None

    def admit(self, visitor: Visitor) -> str | None:
        """Count a visitor in, or say in plain words why they may not stay."""
        refusal = self.refusal(visitor)
        if refusal is None:
            self.visitors.add(visitor)
            self.changed()
        return refusal

    def release(self, visitor: Visitor) -> None:
        """A visitor is gone."""
        self.visitors.discard(visitor)
        self.changed()

    def app_argv(self, player: str, data_name: str) -> tuple[list[str], Path]:
        """The command line of one player's app, and the data directory it keeps.

        ``data_name`` is the player's directory under :attr:`players_dir` (one the front
        door made safe). (The doors the lobby names are in :meth:`app_env`.)
        """
        assert self.host is not None, "the box is not started"
        data = self.players_dir / data_name
        argv = [
            *self.settings.command,
            f"--box={self._box_argument()}",
            f"--player={player}",
            f"--data-dir={data}",
            f"--box-games={self.settings.data_dir / DB_NAME}",
        ]
        return argv, data

    def app_env(self, data_name: str) -> dict[str, str]:
        """What an app's environment says of its player: an id the box keeps for them
        (from their data directory's name: per key over SSH, per browser on the web),
        which the box's host counts their tables by, however many connections; and every
        open door, which the lobby tells friends (:attr:`doors`: the web door's link is
        a secret, kept off the command line)."""
        secret = self._visitor_secret
        player = hmac.new(secret, data_name.encode(), hashlib.sha256).hexdigest()[:24]
        timeout = self.settings.idle_timeout
        warning = {IDLE_WARNING_ENV: f"{warning_lead(timeout):g}"} if timeout > 0 else {}
        return {VISITOR_ENV: player, INVITES_ENV: "\n".join(self.doors), **warning}

    def _box_argument(self) -> str:
        where, port = self.host_address
        return where if port == 0 else f"{where}:{port}"

    def register(self, pid: int, app: RunningApp) -> None:
        """An app started."""
        self.apps[pid] = app
        self.changed()

    def unregister(self, pid: int) -> None:
        """An app ended (and was reaped)."""
        self.apps.pop(pid, None)
        self.changed()


__all__ = [
    "VISITOR_ENV",
    "Box",
    "BoxSettings",
    "IdleTimer",
    "RunningApp",
    "Visitor",
    "app_command",
    "default_data_dir",
    "idle_words",
    "machine_name",
    "name_problem",
    "warning_lead",
]
