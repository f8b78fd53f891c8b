"""One visitor's app process, whatever door they came in by (SSH, the web).

The box's front doors differ in how bytes reach the app — a PTY relayed by asyncssh, or
pipes carrying Textual's web driver packets — but not in how the app itself is run:

- it starts in a new session (``setsid``), so its whole process group can be signalled
  and nothing it starts outlives it;
- it sees only the environment it is given (:func:`visitor_env`: nothing of the
  server's secrets such as ``SSH_AUTH_SOCK``);
- it is watched by a pidfd (no polling, no SIGCHLD handler) and reaped as it exits,
  with anything it left in its group killed;
- it is ended by a signal (``SIGHUP`` for a terminal, ``SIGTERM`` for the web driver,
  which quits on it) and killed if it lingers past the box's grace;
- the box knows it by PID from start to reaping (:meth:`net.box.Box.register`), so
  closing the box ends every app and a test can check that none is left.

This module never imports ``tui``: the app is a command line (:meth:`Box.app_argv`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from net.box import Box

log = logging.getLogger("hiddenhand.box")

#: The variables of the server's environment an app may see (nothing like SSH_AUTH_SOCK).
KEPT_ENV = ("PATH", "HOME", "USER", "LOGNAME", "LANG", "LC_ALL", "LC_CTYPE", "TMPDIR", "TZ",
            "PYTHONPATH", "VIRTUAL_ENV")

#: What the child's signal mask and dispositions start as: the defaults, whatever the
#: server (asyncio's handlers, a terminal's job control) had set.
_DEFAULT_SIGNALS = (signal.SIGHUP, signal.SIGINT, signal.SIGTERM, signal.SIGQUIT,
                    signal.SIGPIPE, signal.SIGWINCH, signal.SIGCHLD)


def visitor_env(extra: Mapping[str, str]) -> dict[str, str]:
    """The environment of a visitor's app: the harmless part of ours, and ``extra``."""
    env = {k: os.environ[k] for k in KEPT_ENV if k in os.environ}
    env.setdefault("LANG", "C.UTF-8")
    env.update(extra)
    return env


class AppProcess:
    """One running app: start it, know when it ends, end it.

    ``who`` names the visitor in the log; ``stop_signal`` is what asks the app to end.
    ``on_exit`` is called once the app is reaped, with its exit code (negative: the
    signal that ended it). ``ended`` is set at the same moment. ``owner`` is the door's
    object for this visit (an SSH session, a web visit), for whoever lists the apps.
    """

    def __init__(self, box: Box, who: str, *, stop_signal: int = signal.SIGHUP,
                 on_exit: Callable[[int], None] | None = None, owner: object = None) -> None:
        self.box = box
        self.who = who
        self.owner = owner
        self.stop_signal = stop_signal
        self.on_exit = on_exit
        self.pid: int | None = None
        self.exit_code: int | None = None
        self.ended = asyncio.Event()
        self._pidfd = -1
        self._kill_timer: asyncio.TimerHandle | None = None

    @property
    def running(self) -> bool:
        """True while the app process is alive (not yet reaped)."""
        return self.pid is not None and self.exit_code is None

    def spawn(self, argv: Sequence[str], env: Mapping[str, str],
              file_actions: Sequence[tuple[Any, ...]]) -> int:
        """Start ``argv`` in a session of its own; ``file_actions`` give it its stdin,
        stdout and stderr (:func:`os.posix_spawn`'s). Returns the PID. SIGUSR1 (the
        warning of idleness) comes blocked: it would end the app before the app is up
        to take it (``tui.app`` unblocks it)."""
        pid = os.posix_spawnp(argv[0], list(argv), dict(env), file_actions=list(file_actions),
                              setsid=True, setsigmask=(signal.SIGUSR1,),
                              setsigdef=_DEFAULT_SIGNALS)
        self.pid = pid
        try:
            self._pidfd = os.pidfd_open(pid)
        except (AttributeError, OSError):  # no pidfd (old kernel): look now and then
            self._poll_exit()
        else:
            asyncio.get_running_loop().add_reader(self._pidfd, self._reap)
        self.box.register(pid, self)
        return pid

    def warn_idle(self) -> None:
        """Tell the app its visitor is about to be closed for idleness (SIGUSR1: it shows
        it, ``net.paths.IDLE_WARNING_ENV``)."""
        if self.running and self.pid is not None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(self.pid, signal.SIGUSR1)

    def stop(self, reason: str) -> None:
        """End the app: signal its process group, kill it if it lingers."""
        if not self.running or self._kill_timer is not None:
            return
        assert self.pid is not None
        log.info("%s: ending app pid %d (%s)", self.who, self.pid, reason)
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.pid, self.stop_signal)
        self._kill_timer = asyncio.get_running_loop().call_later(
            self.box.settings.kill_grace, self._kill
        )

    def _kill(self) -> None:
        if self.running:
            assert self.pid is not None
            log.warning("%s: app pid %d did not end when asked; killing it", self.who,
                        self.pid)
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.pid, signal.SIGKILL)

    def _poll_exit(self) -> None:
        if self.running:
            self._reap()
        if self.running:
            asyncio.get_running_loop().call_later(0.25, self._poll_exit)

    def _reap(self) -> None:
        """The app exited: collect it and leave the box's books."""
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
        log.info("%s: app pid %d ended (%s)", self.who, self.pid,
                 f"exit {code}" if code >= 0 else f"signal {-code}")
        self.box.unregister(self.pid)
        self.ended.set()
        if self.on_exit is not None:
            self.on_exit(code)


__all__ = ["KEPT_ENV", "AppProcess", "visitor_env"]
