"""The SSH box's key files: the logins' authorized_keys, read at each login (a file
from elsewhere: bounded, and only a regular one), and the server's own host key."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import asyncssh

from net.paths import FileRefused, read_regular

#: The largest authorized_keys file read (a key's line is under 1 KiB; /dev/zero given
#: as the file was read until memory ran out).
MAX_KEYS = 4 * 1024 * 1024


def _keys_text(path: Path) -> str:
    """An authorized_keys file's text: ``OSError`` if it cannot be read, ``ValueError``
    if it is no regular file of at most :data:`MAX_KEYS`."""
    try:
        return read_regular(path, MAX_KEYS).decode("utf-8", errors="replace")
    except FileRefused as exc:
        raise ValueError(str(exc)) from None


def read_keys(path: Path) -> asyncssh.SSHAuthorizedKeys | None:
    """The keys in an authorized_keys file; ``None`` while it holds none yet (a box may
    start with an empty file and have keys added as it runs: it is read at each login).
    ``OSError`` if it cannot be read, ``ValueError`` in asyncssh's words if it is not one."""
    text = _keys_text(path)
    if not any(line.strip() and not line.lstrip().startswith("#")
               for line in text.splitlines()):
        return None
    return asyncssh.import_authorized_keys(text)


def not_keys(path: Path) -> tuple[int, list[int]]:
    """How many lines of an authorized_keys file are keys, and the numbers of those that
    are not (asyncssh skips such a line without a word: a friend whose key has a typo
    was refused, and the operator had nothing to go on). Comments and blank lines are
    neither. Raises as :func:`read_keys` does."""
    keys, bad = 0, []
    for number, line in enumerate(_keys_text(path).splitlines(), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        try:
            asyncssh.import_authorized_keys(line)
        except ValueError:
            bad.append(number)
        else:
            keys += 1
    return keys, bad


def skipped_words(bad: list[int]) -> str:
    """The lines :func:`not_keys` found no key in, for a log line."""
    shown = ", ".join(str(n) for n in bad[:5]) + (", …" if len(bad) > 5 else "")
    return f"line{'s' if len(bad) > 1 else ''} {shown} {'are' if len(bad) > 1 else 'is'} " \
        "not a key (skipped)"


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
