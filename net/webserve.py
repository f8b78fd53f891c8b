"""``hiddenhand web``: the box served to browsers, alone or beside its SSH door.

It runs a :class:`~net.box.Box` (the one game host, the limits, the apps) with a
:class:`~net.webdoor.WebDoor` in front, until Ctrl-C or SIGTERM, and prints what an
operator needs: where it listens and the secret join link, also as a QR code.
``ssh-serve --web-port`` opens the same door on its own box (:func:`open_web_door`).
"""

from __future__ import annotations

import asyncio
import logging
import re
import sys
from dataclasses import dataclass

from net.address import listen_error, loopback
from net.box import Box, BoxSettings
from net.discovery import local_addresses
from net.journal import JournalError
from net.qrcode import qr_lines
from net.running import log_to_stdout, stop_on_signals
from net.webdoor import WebDoor

log = logging.getLogger("hiddenhand.web")

#: The port ``hiddenhand web`` listens on unless told otherwise.
DEFAULT_WEB_PORT = 8080
_EVERY_ADDRESS = ("", "0.0.0.0", "::")
#: What a link's host may be: a name or an IPv4 or IPv6 address, nothing that would
#: change the link's meaning (a path, a port, a user).
_HOST_NAME = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9.-]{0,252})|[0-9A-Fa-f:.]{2,45}")


@dataclass(frozen=True)
class DoorOptions:
    """The command-line options that place a web door, as its messages name them."""

    port: str = "--port"
    bind: str = "--bind"
    link_host: str = "--link-host"


#: ``hiddenhand web``'s own options, and ``ssh-serve``'s for the door beside SSH.
WEB_OPTIONS = DoorOptions()
SSH_WEB_OPTIONS = DoorOptions("--web-port", "--web-bind", "--web-link-host")


def check_link_host(link_host: str | None, option: str) -> None:
    """``ValueError`` in plain words unless ``link_host`` (given as ``option``) is a host
    name or an address."""
    if link_host is not None and not _HOST_NAME.fullmatch(link_host):
        raise ValueError(f"{option} {link_host!r} is not a host name or an address (for "
                         "example box.local or 192.168.1.20)")


@dataclass
class WebConfig(BoxSettings):
    """How ``hiddenhand web`` runs: the box's settings, and where the door listens.

    ``bind`` is 127.0.0.1 unless the operator serves the LAN on purpose; ``link_host``
    is the address the join link names (default: the bind address, or this machine's
    LAN address when it binds every address).
    """

    port: int = DEFAULT_WEB_PORT
    bind: str = "127.0.0.1"
    link_host: str | None = None

    def check(self) -> None:
        """Raise ``ValueError`` in plain words for settings that cannot run."""
        super().check()
        check_link_host(self.link_host, WEB_OPTIONS.link_host)


def link_host(bind: str, chosen: str | None) -> str:
    """The address a friend's browser reaches the door at."""
    if chosen:
        return chosen
    if bind in _EVERY_ADDRESS:
        return local_addresses(None)[0]
    return bind


async def open_web_door(box: Box, port: int, bind: str, chosen_host: str | None,
                        options: DoorOptions = WEB_OPTIONS) -> WebDoor:
    """Start the web door in front of a started box (``ValueError`` if it cannot listen,
    in words that name the ``options`` that place it)."""
    door = WebDoor(box, port=port, bind=bind or "0.0.0.0",
                   link_host=link_host(bind, chosen_host))
    try:
        await door.start()
    except OSError as exc:
        await door.close()
        why = listen_error(exc, port, bind, port_option=options.port, bind_option=options.bind,
                           unbound="listen on this machine only")
        raise ValueError(f"cannot listen for the web: {why}") from None
    return door


def web_banner(door: WebDoor, options: DoorOptions = WEB_OPTIONS) -> list[str]:
    """What the operator reads about the web door (naming the ``options`` that place it)."""
    lines = [f"web: listening on {door.bind}, port {door.port}",
             f"friends join with the secret link: {door.link}"]
    if loopback(door.bind):
        lines.append(f"  (this machine only; serve the LAN with {options.bind} 0.0.0.0)")
    elif loopback(door.link_host) or door.link_host == "localhost":
        # (Serving every address on a machine with no LAN address: the link said
        # 127.0.0.1 to friends, without a word.)
        lines.append("  (no LAN address found here: give the one friends reach with "
                     f"{options.link_host} NAME)")
    return lines


def run_web(config: WebConfig) -> int:
    """Run the web box until Ctrl-C or SIGTERM, logging to stdout."""
    log_to_stdout("aiohttp")

    async def main() -> None:
        stop = stop_on_signals()
        box = Box(config)
        await box.start()
        door: WebDoor | None = None
        try:
            door = await open_web_door(box, config.port, config.bind, config.link_host)
            where, port = box.host_address
            host_words = (f"the Unix socket {where} (only through the box)" if port == 0
                          else f"{where}:{port} (every local user can reach it)")
            for line in [*web_banner(door),
                         f"games: one host on {host_words}; at most {config.max_sessions} "
                         f"visits, {config.max_per_address} per address; idle visits end "
                         "after " + (f"{config.idle_timeout:g} s" if config.idle_timeout
                                     else "never"), box.stop_hint(),
                         *qr_lines(door.link, dark_blocks=False)]:
                print(line, flush=True)
            await stop.wait()
            log.info("%s", box.stop_words())
        finally:
            box.shut()
            if door is not None:
                await door.close()
            await box.close()

    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        pass
    except (OSError, ValueError, JournalError) as exc:
        print(f"hiddenhand web: {exc}", file=sys.stderr)
        return 1
    return 0


__all__ = ["DEFAULT_WEB_PORT", "SSH_WEB_OPTIONS", "WEB_OPTIONS", "DoorOptions", "WebConfig",
           "check_link_host", "link_host", "open_web_door", "run_web",
           "web_banner"]
