"""The headless jobs behind ``hiddenhand host`` and ``hiddenhand list``.

``run_host`` serves one table until Ctrl-C (or SIGTERM), logging to stdout and
advertising itself with mDNS unless told not to; it journals every acknowledged change,
and ``--resume`` brings the table back from the journal after a crash. ``run_list``
browses the LAN for a while and prints what it found, as text or as JSON for scripts.
"""

from __future__ import annotations

import asyncio
import json
import logging
import socket
import sys
from pathlib import Path
from typing import Any

from engine.bots import make_bot
from net.address import listen_error
from net.discovery import Advertiser, HostInfo, discover
from net.host import Host
from net.journal import SUFFIX, JournalError, in_use, journal_dir, new_journal_path
from net.journal_list import list_journals
from net.limits import Limits
from net.paths import os_words
from net.records import Keeper
from net.running import log_to_stdout, stop_on_signals

#: The port ``hiddenhand host`` listens on unless told otherwise.
DEFAULT_PORT = 4455

log = logging.getLogger("hiddenhand.serve")


def build_host(
    *,
    game: str,
    seats: int,
    bots: int,
    options: dict[str, Any],
    name: str,
    table: str,
    bot_delay: float,
    **settings: Any,
) -> Host:
    """The host ``hiddenhand host`` runs: one permanent table, real bots in its bot seats.

    ``settings`` go to :class:`Host` as they are (limits, heartbeat, journal).
    """
    host = Host(name, bot_factory=make_bot, bot_delay=bot_delay, **settings)
    host.create_table(table, game, seats, options, bots=bots, permanent=True)
    return host


def find_resumable(resume: str) -> Path:
    """The journal ``--resume`` means: a path, or ``"latest"`` (the newest resumable).

    Raises ``JournalError`` in plain words when there is none.
    """
    if resume != "latest":
        return Path(resume)
    damaged: list[str] = []
    found = list_journals(most=1, damaged=damaged)
    if not found and damaged:
        # (A damaged journal read "there is no game to resume", not a word of it.)
        raise JournalError(f"there is no game to resume in {journal_dir()} that can be "
                           f"read: {damaged[0]}" + (f" (and {len(damaged) - 1} more)"
                                                    if len(damaged) > 1 else ""))
    if not found:
        # (A running host's game is no lost one: "no game" sent its operator looking.)
        running = sum(1 for path in journal_dir().glob(f"*{SUFFIX}") if in_use(path))
        if running:
            raise JournalError(
                f"there is no game to resume in {journal_dir()}: the "
                f"{'game' if running == 1 else f'{running} games'} kept there "
                f"{'is' if running == 1 else 'are'} being hosted by a running host now")
        raise JournalError(f"there is no game to resume in {journal_dir()}")
    return found[0].path


def default_name() -> str:
    """A host's name when none is given: this machine's."""
    return socket.gethostname().split(".")[0][:32] or "hiddenhand"


class StartError(Exception):
    """The host could not start (listen, or advertise); the message says why in plain words."""


async def serve(
    *,
    game: str,
    seats: int,
    bots: int,
    options: dict[str, Any],
    port: int | None,
    bind: str | None,
    name: str | None,
    table: str,
    interfaces: list[str] | None,
    mdns: bool,
    bot_delay: float,
    stop: asyncio.Event,
    resume: Path | None = None,
    journal: bool = True,
    limits: Limits | None = None,
    fsync: str = "background",
    record: bool = True,
) -> None:
    """Run a host with one table until ``stop`` is set, named ``name`` (``None``: a
    resumed host's own name, a new one :func:`default_name`).

    With ``resume`` the tables come from that journal (and the port it used, unless
    ``port`` is given); otherwise every acknowledged change is journaled (``journal``)
    to a new file in the user's data directory, fsync'd as ``fsync`` says
    (``net.journal.SYNC_MODES``). With ``record`` every finished game is kept
    (``net.records``).
    """
    if resume is not None:
        host = Host.resume(resume, name=name, bot_factory=make_bot, bot_delay=bot_delay,
                           limits=limits, fsync=fsync)
        if port is None:
            port = host.resumed_port or DEFAULT_PORT
        if bind is None and host.resumed_bind and not host.resumed_bind.startswith("/"):
            # Where it listened before: a host kept to one address is not opened to
            # every one by its resume.
            bind = host.resumed_bind
    else:
        try:
            host = build_host(
                game=game, seats=seats, bots=bots, options=options,
                name=name if name is not None else default_name(), table=table,
                bot_delay=bot_delay, limits=limits, fsync=fsync,
                journal=new_journal_path() if journal else None,
            )
        except OSError as exc:
            raise StartError(f"cannot keep a journal in {journal_dir()}: "
                             f"{os_words(exc)}; --no-journal hosts without one") from exc
    # A start that fails leaves no new journal behind (a resumed one is the game: kept),
    # and says nothing of hosting before it has a port.
    keep = resume is not None
    try:
        await host.start(bind, DEFAULT_PORT if port is None else port)
    except OSError as exc:
        await host.close(keep_journal=keep)
        shown = DEFAULT_PORT if port is None else port
        raise StartError(f"cannot listen: {listen_error(exc, shown, bind)}") from exc
    import engine

    if resume is not None:
        for t in host.tables.values():
            people = ", ".join(s.name for s in t.seats if s.kind == "human") or "nobody"
            log.info("resumed %r (%s, %s phase; players: %s) from %s",
                     t.name, engine.GAMES[t.game_id].name, t.phase, people, resume)
    else:
        log.info("hosting %r: %s, %d seats (%d %s)", table, engine.GAMES[game].name, seats,
                 bots, "bot" if bots == 1 else "bots")
        # A host started again after a crash, the same way, began a new game and said
        # nothing of the one it had been running (its players were told it was gone).
        damaged: list[str] = []
        for info in list_journals(most=3, damaged=damaged):
            log.warning("⚠ an unfinished game was kept: %s; its players are told their "
                        "table is gone: stop this host (Ctrl-C) and run 'hiddenhand host "
                        "--resume %s' to bring it back", info.describe(), info.path)
        for why in damaged:
            log.warning("⚠ a kept game cannot be resumed: %s", why)
    if host.journal is not None:
        log.info("journal: %s", host.journal.path)
    # (Nobody's private moves: the players' are theirs, and nobody plays in this process.)
    keeper = Keeper(private_of=()) if record else None
    if keeper is not None:
        host.keepers.append(keeper)
        log.info("finished games are kept in %s (hiddenhand history lists them)",
                 keeper.path)
    where = bind or "every address"
    log.info("listening on %s port %d", where, host.port)
    advertiser = None
    started = False
    try:
        if mdns:
            try:
                advertiser = Advertiser(
                    host, host.port, interfaces=interfaces, addresses=[bind] if bind else None
                )
                await advertiser.start()
            except (OSError, ValueError) as exc:
                reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
                raise StartError(f"cannot advertise on the LAN: {reason}; --no-mdns hosts "
                                 "without it (players join by address)") from exc
            log.info("advertised on the LAN as %r", advertiser.service_name)
        else:
            log.info("not advertised; players join by address and port %d", host.port)
        started = True
        await stop.wait()
        log.info("stopping")
    finally:
        if advertiser is not None:
            await advertiser.close()
        kept_at = host.journal.path if host.journal is not None else None
        await host.close(keep_journal=None if started else keep)
        if started and kept_at is not None and kept_at.exists():
            log.info("the game in play is kept: 'hiddenhand host --resume %s' brings it "
                     "back", kept_at)
        if keeper is not None:
            keeper.close()


def run_host(**settings: Any) -> int:
    """Run :func:`serve` with logging to stdout; Ctrl-C or SIGTERM stop it cleanly."""
    log_to_stdout()

    async def main() -> None:
        await serve(stop=stop_on_signals(), **settings)

    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        pass
    except JournalError as exc:
        print(f"hiddenhand host: cannot resume: {exc}", file=sys.stderr)
        return 1
    except StartError as exc:
        print(f"hiddenhand host: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"hiddenhand host: stopped: {exc.strerror or exc}", file=sys.stderr)
        return 1
    return 0


def format_host(info: HostInfo) -> str:
    """One host as a line of text, its tables indented below."""
    version = "" if info.compatible else f"  (protocol v{info.version}: incompatible)"
    lines = [f"{info.name}  {info.address}:{info.port}{version}"]
    for t in info.tables:
        lines.append(f"  {t.id}  {t.name}  {t.game}  {t.free}/{t.seats} free  {t.phase}")
    return "\n".join(lines)


def run_list(timeout: float, as_json: bool, interfaces: list[str] | None) -> int:
    """Browse for ``timeout`` seconds and print the hosts found."""
    hosts = asyncio.run(discover(timeout, interfaces=interfaces))
    if as_json:
        print(json.dumps([h.plain() for h in hosts], indent=2))
    elif not hosts:
        print("no hosts found")
    else:
        for info in hosts:
            print(format_host(info))
    return 0
