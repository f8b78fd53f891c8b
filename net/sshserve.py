"""SSH-hosted play: ``hiddenhand ssh-serve``, a shared box anyone with an ssh client plays on.

The command's entry: it runs a :class:`~net.sshlogin.BoxServer` until Ctrl-C or SIGTERM
and prints what an operator needs (where it listens, the host key, who may log in). The
work is done by job in three modules:

- :mod:`net.box`: the box itself, one game host on 127.0.0.1 that every player's app
  joins, the limits per box and per address, idleness, and the running apps;
- :mod:`net.sshlogin`: the SSH front door (asyncssh), authentication, the host key,
  each player's own data directory;
- :mod:`net.sshapp`: one login's app in its own process on a PTY, relayed by asyncssh.

This module never imports ``tui``: each app is started by its command line
(``python -m tui.cli --box ... --player ... --data-dir ...``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sys
from pathlib import Path

import asyncssh

from net.address import loopback
from net.box import app_command, default_data_dir
from net.journal import JournalError
from net.qrcode import qr_lines
from net.running import log_to_stdout, stop_on_signals
from net.sshapp import AppSession
from net.sshkeys import load_host_key, not_keys, read_keys, skipped_words
from net.sshlogin import (
    DEFAULT_SSH_PORT,
    BoxConfig,
    BoxServer,
    Login,
    invitation,
    player_dir_name,
)
from net.webserve import SSH_WEB_OPTIONS, web_banner

log = logging.getLogger("hiddenhand.ssh")


# --------------------------------------------------------------------------- command line


def host_words(box: BoxServer) -> str:
    """Where the box's game host listens, in words."""
    where, port = box.host_address
    if port == 0:
        return f"the Unix socket {where} (only through the box)"
    return f"{where}:{port} (every local user can reach it)"


def _no_keys_yet(path: Path) -> bool:
    try:
        return read_keys(path) is None
    except (OSError, ValueError):
        return False  # (said at each login, and checked before the box started)


def _keys_line(path: Path | None) -> str:
    line = f"logins: keys in {path} (re-read at each login)"
    if path is None:
        return line
    with contextlib.suppress(OSError, ValueError):  # (said at each login)
        keys, bad = not_keys(path)
        line = f"logins: {keys} key{'' if keys == 1 else 's'} in {path} (re-read at each login)"
        if bad:
            line += f"; {skipped_words(bad)}"
    return line


def banner(box: BoxServer) -> list[str]:
    """What ``ssh-serve`` prints at start: where, the host key, who may log in."""
    config = box.config
    assert box.host is not None
    where = config.bind or "every address"
    made = " (new)" if box.host_key_created else ""
    lines = [
        f"hiddenhand ssh-serve: listening on {where}, port {box.port}",
        f"host key {box.fingerprint}{made}: {box.host_key_path} (tell friends, so "
        "that they can check it at their first login)",
        f"friends join with: {box.invitation}" + (
            f" (from this computer only: {config.bind} is a loopback address; --bind "
            "0.0.0.0 serves the LAN)" if loopback(config.bind) else
            " (--hostname NAME sets the name they type)"),
        f"games: one host on {host_words(box)}; at most {config.max_sessions} logins, "
        f"{config.max_per_address} per address; idle logins close after "
        + (f"{config.idle_timeout:g} s" if config.idle_timeout else "never"),
        box.box.stop_hint(),
    ]
    if config.open_login:
        lines += [
            "!" * 72,
            "!! OPEN: anyone who reaches this port logs in, with any name, no key.",
            "!! Use --open on a trusted LAN only. Names and settings are not private.",
            "!" * 72,
        ]
    elif config.authorized_keys is not None and _no_keys_yet(config.authorized_keys):
        lines.append(f"logins: nobody yet: {config.authorized_keys} holds no key (one "
                     "added counts at once: the file is read at each login)")
    else:
        lines.append(_keys_line(config.authorized_keys))
    if box.web is not None:
        lines += [*web_banner(box.web, SSH_WEB_OPTIONS), *qr_lines(box.web.link, dark_blocks=False)]
    return lines


def run_ssh_serve(config: BoxConfig) -> int:
    """Run the SSH box until Ctrl-C or SIGTERM, logging to stdout."""
    log_to_stdout("asyncssh")

    async def main() -> None:
        stop = stop_on_signals()
        box = BoxServer(config)
        await box.start()
        try:
            for line in banner(box):
                print(line, flush=True)
            await stop.wait()
            log.info("%s", box.box.stop_words())
        finally:
            await box.close()

    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        pass
    except (OSError, ValueError, asyncssh.Error, JournalError) as exc:
        print(f"hiddenhand ssh-serve: {exc}", file=sys.stderr)
        return 1
    return 0


__all__ = ["DEFAULT_SSH_PORT", "AppSession", "BoxConfig", "BoxServer", "Login", "app_command",
           "banner", "default_data_dir", "invitation", "load_host_key", "player_dir_name",
           "run_ssh_serve"]

