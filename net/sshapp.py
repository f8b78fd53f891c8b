"""One SSH login's game: the app in its own process on a pseudo-terminal.

The app runs in a new session (``setsid``) whose controlling terminal is a fresh PTY of
the client's terminal type. asyncssh relays the bytes both ways: the PTY is redirected
as the session's stdin and stdout (:meth:`asyncssh.SSHServerProcess.redirect`), and
since it is a terminal asyncssh sets the client's window size on it (``TIOCSWINSZ``),
at the start and at every window change; the kernel then signals the app's process
group (``SIGWINCH``) and the app redraws at the new size.

This module starts and watches the process. When the channel or the connection closes,
the app's process group is hung up (``SIGHUP``) and, if it lingers, killed. When the app
exits, its last output is sent and the channel closes with its exit status. A session
that is not a login on a terminal (a command, a subsystem, no PTY) is refused with one
line on stderr and exit status 1.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import re
from pathlib import Path
from typing import Protocol

import asyncssh

from net.box import Box, name_problem
from net.visit import KEPT_ENV, AppProcess, visitor_env

log = logging.getLogger("hiddenhand.ssh")
#: Sent to the client when the app died without restoring the terminal: leave the
#: alternate screen, show the cursor, stop mouse reporting and bracketed paste, and wrap
#: long lines again (Textual turns wrapping off: the player's shell was left with its
#: long lines cut until they ran ``reset``).
TERMINAL_RESET = (b"\x1b[?1049l\x1b[?25h\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l"
                  b"\x1b[?2004l\x1b[?7h")
_SAFE_TERM = re.compile(r"[A-Za-z0-9.+_-]{1,64}")
#: Said to every player as the box stops (its tables come back with it).
#: (Said to every login, seated or not: "your seat is kept" told a player in the menu
#: of a seat they did not have.)
BOX_STOPPING = "hiddenhand: the box is stopping; log in again once it is back (seats are kept)."


class LoginSide(Protocol):
    """What an app session needs of the SSH login it belongs to."""

    username: str
    address: str

    @property
    def who(self) -> str:
        """The user name as the log may show it."""

    def touch(self) -> None:
        """The player pressed something."""

    def app_ended(self) -> None:
        """The session's app has ended and the channel is closed or closing."""


def login_name_problem(username: str) -> str | None:
    """Why the game's host would refuse the login name ``username`` as a player's name
    (see :func:`net.box.name_problem`): refused at the door, the player is told how to
    log in under another name."""
    return name_problem(username)


def another_name(invite: str) -> str:
    """How to log in under another name: ``ssh -l NAME -p 2222 box`` (the same as
    ``NAME@box``, with no @ to get wrong)."""
    return invite.replace("ssh ", "ssh -l NAME ", 1)


def fit_size(size: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
    """A window size the PTY can take: 1 to 1000 columns and rows (80x24 if unknown)."""
    width, height, pixwidth, pixheight = size
    cols = min(max(width, 1), 1000) if width else 80
    rows = min(max(height, 1), 1000) if height else 24
    return cols, rows, min(pixwidth, 32767), min(pixheight, 32767)


class AppSession(asyncssh.SSHServerProcess[bytes]):
    """One login's session: asyncssh's server process, its I/O redirected to the app's PTY.

    ``pid`` is the app's process (and process group) while it runs; ``data_dir`` is the
    player's own directory; ``exit_code`` is set once the app is reaped (negative: the
    signal that ended it).
    """

    def __init__(self, box: Box, login: LoginSide, argv: list[str], data_dir: Path,
                 invite: str) -> None:
        # No SFTP and no scp: those requests are refused in session_started.
        super().__init__(self._serve, None, 0, False)
        self.box = box
        self.login = login
        self.argv = argv
        self.data_dir = data_dir
        self.invite = invite
        self.process = AppProcess(box, login.who, owner=self)
        #: Set once the app is gone and the player was given their terminal back (and told
        #: why): what a stopping box waits for before it closes the connections.
        self.done = asyncio.Event()
        self._farewell: str | None = None
        self._lost = False

    @property
    def pid(self) -> int | None:
        """The app's process (and process group) once started."""
        return self.process.pid

    @property
    def exit_code(self) -> int | None:
        """How the app ended, once reaped (negative: the signal that ended it)."""
        return self.process.exit_code

    @property
    def running(self) -> bool:
        """True while the app process is alive (not yet reaped)."""
        return self.process.running

    @property
    def term_size(self) -> tuple[int, int, int, int]:
        """The client's window size, as the PTY is set to it (within what a PTY takes)."""
        return fit_size(super().term_size)

    # ---- what the client asks for -----------------------------------------------------

    def exec_requested(self, command: str) -> bool:
        """A command: accepted, to be refused with a message once the session starts."""
        log.warning("%s from %s: refused command %r", self.login.who, self.login.address,
                    command[:80])
        return True

    def subsystem_requested(self, subsystem: str) -> bool:
        """A subsystem (sftp…): accepted, to be refused with a message at the start."""
        log.warning("%s from %s: refused subsystem %r", self.login.who, self.login.address,
                    subsystem[:40])
        return True

    def session_started(self) -> None:
        """Start the app (asyncssh runs :meth:`_serve`), or say in one line why not."""
        problem = None
        if (name_problem := login_name_problem(self.login.username)) is not None:
            log.warning("refused %r from %s: %s", self.login.who, self.login.address,
                        name_problem)
            problem = (f"your SSH login name is your name here, and {name_problem}: "
                       f"{another_name(self.invite)}")
        elif self.command is not None:
            problem = f"this server runs the game only; log in without a command: {self.invite}"
        elif self.subsystem is not None:
            problem = f"no file transfer or subsystems here; log in with: {self.invite}"
        elif self.term_type is None:
            problem = ("the game needs a terminal; log in without -T, or force one: "
                       + self.invite.replace("ssh ", "ssh -t ", 1))
            log.warning("%s from %s: refused a session without a terminal",
                        self.login.who, self.login.address)
        elif self.box.closing:
            problem = "the server is shutting down"
        if problem is None:
            super().session_started()
        else:
            self._refuse(problem)

    def data_received(self, data: bytes, datatype: asyncssh.DataType) -> None:
        """Keys from the player: they count against idleness, then go to the app."""
        self.login.touch()
        super().data_received(data, datatype)

    def terminal_size_changed(self, width: int, height: int, pixwidth: int,
                              pixheight: int) -> None:
        """A window change, kept within what a PTY takes, for the redirection to set."""
        super().terminal_size_changed(*fit_size((width, height, pixwidth, pixheight)))

    def connection_lost(self, exc: Exception | None) -> None:
        """The channel closed: the app goes with it."""
        self._lost = True
        super().connection_lost(exc)
        self.stop("the channel closed")

    def _refuse(self, problem: str) -> None:
        with contextlib.suppress(OSError):  # the channel is already closing
            self.channel.write_stderr(f"hiddenhand: {problem}\r\n".encode())
            self.exit(1)

    # ---- the app process --------------------------------------------------------------

    async def _serve(self, process: asyncssh.SSHServerProcess[bytes]) -> None:
        """Run the app on a PTY wired to this session until it ends, then close the channel.

        asyncssh runs this as the session starts; ``process`` is this session.
        """
        master, slave = os.openpty()
        try:
            try:
                # The PTY is the app's input and its output; each redirection owns (and
                # closes) its own descriptor. asyncssh sets the window size as it starts.
                await self.redirect(stdin=master, stdout=os.dup(master), send_eof=False)
                if self._lost:
                    return  # the player left while the redirection started
                self._spawn(slave)
            finally:
                os.close(slave)  # the app holds the terminal: its exit ends the output
            await self.process.ended.wait()
            if not self.is_closing():
                # The redirection reads the PTY until the last process lets go of it.
                with contextlib.suppress(TimeoutError, OSError):
                    await asyncio.wait_for(self.stdout.drain(), self.box.settings.kill_grace)
                self._goodbye()
        except OSError as exc:
            log.error("%s: could not start the app: %s", self.login.who, exc)
            self._refuse("the game could not start on this box; try again later")
        finally:
            # Let go of the PTY, also when the channel closed while the redirection began,
            # and wait for the channel and the PTY's descriptors to be closed.
            await self.redirect(stdin=asyncssh.PIPE, stdout=asyncssh.PIPE)
            # The goodbye is sent once the channel has flushed it: a connection closed
            # before that (a stopping box, an idle login) cut it off, and a player on a
            # busy machine was left a terminal in mouse mode and no word why.
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.wait_closed(), self.box.settings.kill_grace)
            self.done.set()
            self.login.app_ended()

    def _spawn(self, slave: int) -> None:
        term = self.term_type
        extra = {"TERM": term if term and _SAFE_TERM.fullmatch(term) else "xterm-256color"}
        # COLUMNS and LINES stay unset: Python's get_terminal_size() prefers them to the
        # PTY's size, so a resize would never be seen. The PTY carries the size instead.
        colorterm = self.env.get("COLORTERM")
        if colorterm in ("truecolor", "24bit"):
            extra["COLORTERM"] = colorterm
        # Opened by path in the child after setsid(): the PTY becomes its controlling
        # terminal, so hang-ups and job control work as on a console.
        extra.update(self.box.app_env(self.data_dir.name))
        pid = self.process.spawn(self.argv, visitor_env(extra), [
            (os.POSIX_SPAWN_OPEN, 0, os.ttyname(slave), os.O_RDWR, 0),
            (os.POSIX_SPAWN_DUP2, 0, 1),
            (os.POSIX_SPAWN_DUP2, 0, 2),
        ])
        cols, rows, _, _ = self.term_size
        log.info("%s from %s: app pid %d on %s %dx%d", self.login.who, self.login.address,
                 pid, extra["TERM"], cols, rows)

    def stop(self, reason: str, farewell: str | None = None) -> None:
        """End the app: hang up its process group, kill it if it lingers.

        ``farewell`` is a line for the player, sent after the app's last output.
        """
        if self.process.running:
            self._farewell = farewell
        self.process.stop(reason)

    def _goodbye(self) -> None:
        """After the app's last output: reset a terminal it left, the farewell, the status."""
        code = self.exit_code
        assert code is not None
        stopping = self.box.closing  # (the box ended the app: it did not quit)
        farewell = self._farewell or (BOX_STOPPING if stopping else None)
        with contextlib.suppress(OSError):  # the channel is already closing
            if code < 0 or stopping:
                # (Hung up, an app may end without giving the terminal back: the
                # player's was left in mouse mode with no cursor.)
                self.stdout.write(TERMINAL_RESET)
            if farewell:
                self.stdout.write(f"\r\n{farewell}\r\n".encode())
            self.exit(code if code >= 0 else 128 - code)


__all__ = ["KEPT_ENV", "TERMINAL_RESET", "AppSession", "LoginSide", "another_name",
           "fit_size", "login_name_problem"]
