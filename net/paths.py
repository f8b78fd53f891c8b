"""Where hiddenhand keeps its files, in one place.

Every directory comes from ``platformdirs`` (``~/.config/hiddenhand`` and
``~/.local/share/hiddenhand`` on Linux) unless an environment variable moves it: tests
point them into a temporary directory, and ``ssh-serve`` gives each player a home of their
own (``--data-dir``) through the same variables.

- ``HIDDENHAND_CONFIG_DIR``: settings and records (Level X high scores).
- ``HIDDENHAND_DATA_DIR``: journals of running games and the SSH box's key and players.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from platformdirs import user_config_dir, user_data_dir

APP_NAME = "hiddenhand"
CONFIG_ENV = "HIDDENHAND_CONFIG_DIR"
DATA_ENV = "HIDDENHAND_DATA_DIR"
#: Where an app on a box finds the id the box gave its player (``net.box.Box.app_env``),
#: which it says in its hello (``Limits.trusted_visitors``).
VISITOR_ENV = "HIDDENHAND_VISITOR"
#: The ways into a box, one a line, as its apps' lobbies show them (``--box-invite`` for
#: each): in the environment, which only the box's own user may read, not on the command
#: line, where any local user reads the web door's secret link (``ps``).
INVITES_ENV = "HIDDENHAND_BOX_INVITES"
#: Seconds before a box closes a login or a tab for idleness that it warns the app with
#: SIGUSR1 (``net.box.IdleTimer``): the app shows it (``tui.app``), and keeps the signal
#: from ending it from its first moment.
IDLE_WARNING_ENV = "HIDDENHAND_IDLE_WARNING"
#: Set ("1") for an app whose player points with a finger (a phone or a tablet in a
#: browser, ``net.webdoor``): the app shows no tooltips (``tui.app``).
TOUCH_ENV = "HIDDENHAND_TOUCH"


def visitor_player(visitor: str) -> str:
    """Who a box's host takes an app to be that says it is ``visitor`` (``VISITOR_ENV``)."""
    return f"visitor:{visitor}"


def config_dir() -> Path:
    """Where settings (and records such as Level X high scores) are kept."""
    override = os.environ.get(CONFIG_ENV)
    return Path(override) if override else Path(user_config_dir(APP_NAME))


def data_dir() -> Path:
    """Where journals and the SSH box's files are kept."""
    override = os.environ.get(DATA_ENV)
    return Path(override) if override else Path(user_data_dir(APP_NAME))


def journal_dir() -> Path:
    """Where journals of running games live."""
    return data_dir() / "journals"


def ssh_dir() -> Path:
    """Where ``ssh-serve`` keeps its host key and the players' homes."""
    return data_dir() / "ssh"


class FileRefused(ValueError):
    """A file that is not a regular one, or is larger than its reader's limit (the
    reason in words: "it is not a regular file")."""


def os_words(exc: OSError) -> str:
    """Why a folder could not be made or written, in words: a file where it (or one
    above it) would be is said so, where the system said "File exists" or "Not a
    directory"."""
    if isinstance(exc, FileExistsError | NotADirectoryError) and exc.filename:
        folder = Path(exc.filename)
        blocker = next((p for p in [folder, *folder.parents] if p.is_file()), None)
        if blocker is not None:
            return f"{blocker} is a file, not a folder"
    return str(exc.strerror or exc)


def read_regular(path: Path, limit: int) -> bytes:
    """The bytes of the regular file ``path`` of at most ``limit`` bytes (a file from
    elsewhere is hostile input: a named pipe was waited on for ever, ``/dev/zero`` read
    until memory ran out). :class:`FileRefused` for anything else, ``OSError`` if it
    cannot be opened or read."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)  # (a pipe: no wait for a writer)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise FileRefused("it is not a regular file")
        too_large = f"it is larger than {limit // (1024 * 1024)} MB"
        if info.st_size > limit:
            raise FileRefused(too_large)
        chunks, left = [], limit + 1  # (a file that grows as it is read stops at that)
        while left > 0 and (chunk := os.read(fd, min(left, 1 << 20))):
            chunks.append(chunk)
            left -= len(chunk)
        if left <= 0:
            raise FileRefused(too_large)
        return b"".join(chunks)
    finally:
        os.close(fd)
