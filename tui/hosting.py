"""The host this app runs itself: a solo game's (no network at all) or a LAN game's.

:class:`Hosting` owns that host and its mDNS announcement: it starts one (afresh, or
brought back from the journal of a crashed run), deals a solo game on it, says where
friends on the LAN reach it, and stops it. The app holds one :class:`Hosting`, and
screens use it as ``app.hosting`` (``app.hosting.start(...)``, ``.join_address()``, …).
The host runs in the app's own event loop, beside the screens; what goes over its
sockets is ``net``'s business, and a screen hears of it only through its session.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from concurrent.futures import Future
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tui.settings import Settings

# The host, the session and with them the wire format are imported when a game is
# hosted or dealt, not before the menu's first frame (scripts/bench_startup.py).
if TYPE_CHECKING:
    from net.clock import Clock
    from net.discovery import Advertiser
    from net.host import Host
    from net.journal_list import JournalInfo
    from net.records import Keeper
    from tui.session import Session


class Hosting:
    """The app's own host, if it runs one, and its announcement on the LAN.

    ``settings`` gives the player's settings as they are now (the name the host and
    our seat go by, the mDNS interfaces); ``bind`` is the address a LAN game listens on
    (``None``: every interface, as a LAN party needs); ``bot_delay`` paces the bots
    (seconds between their moves); ``seed_source`` fixes the games' seeds (tests and
    snapshots); ``clock`` is the host's clock (``net.clock``; the event loop's unless a
    test passes a ``ManualClock`` to move the games' time itself); ``warn`` tells the
    player something went half wrong (a game nobody will find on the LAN, but that
    still runs).
    """

    def __init__(self, settings: Callable[[], Settings], *, bind: str | None,
                 bot_delay: float, seed_source: Callable[[], int] | None,
                 warn: Callable[[str], None], clock: Clock | None = None) -> None:
        self._settings = settings
        self.bind_address = bind
        self.bot_delay = bot_delay
        self.seed_source = seed_source
        self.clock = clock
        self._warn = warn
        #: The host this app runs, if any.
        self.host: Host | None = None
        #: Its mDNS announcement, while it listens on the LAN and is announced.
        self.advertiser: Advertiser | None = None
        #: Keeps the games its hosts finish (``net.records``), made with the first host.
        self.keeper: Keeper | None = None
        #: Why the host last started here keeps no journal (it could not write one).
        self.unjournaled: str | None = None
        #: The id the last game finished here is kept under, once written.
        self.last_kept: Future[int | None] | None = None

    async def start(self, port: int | None, *, resume: Path | None = None) -> Host:
        """Run a host in the app (stopping the one before); ``port=None`` is solo play
        with no network at all.

        The host journals every acknowledged change (``net.journal``), so a crash of this
        app loses nothing: ``resume`` brings a journaled host back (on the port it had,
        if it listened on one). A LAN host is announced by mDNS on the interfaces of the
        settings (or ``HIDDENHAND_MDNS_INTERFACES``, else all); if that fails, players
        can still join by address, and the player is told so.
        """
        from engine.bots import make_bot
        from net.connection import LOCAL_PLAYER
        from net.host import Host
        from net.journal import new_journal_path
        from net.records import Keeper

        await self.stop()
        settings: dict[str, Any] = {"bot_factory": make_bot, "bot_delay": self.bot_delay,
                                    "seed_source": self.seed_source, "clock": self.clock}
        if resume is not None:
            host = Host.resume(resume, **settings)
            port = host.resumed_port
        else:
            self.unjournaled = None
            try:
                host = Host(self._settings().name, journal=new_journal_path(), **settings)
            except OSError as exc:
                # (A data dir that may not be written stopped solo play, and a LAN host
                # read "could not listen"; a game not kept for a crash is still a game.)
                from net.paths import os_words

                where = f" in {exc.filename}" if exc.filename else ""
                self.unjournaled = (f"This game is not kept to be resumed after a crash: "
                                    f"cannot write{where}: {os_words(exc)}.")
                host = Host(self._settings().name, **settings)
        if self.keeper is None:
            # Its person's own marks, not the guests' (theirs are theirs alone).
            self.keeper = Keeper(private_of=[LOCAL_PLAYER])
        host.keepers.append(self._keep)
        if port is not None:
            await self._listen(host, port, keep_journal=resume is not None)
        self.host = host
        return host

    async def _listen(self, host: Host, port: int, *, keep_journal: bool) -> None:
        """Open ``host`` on the LAN and announce it; a host that never listened (or was
        stopped as it announced itself) is closed again before the error goes on."""
        from net.discovery import Advertiser

        try:
            await host.start(self.bind_address, port)
        except (OSError, asyncio.CancelledError):
            # A host that never listened leaves no new journal to pile up.
            await host.close(keep_journal=keep_journal)
            raise
        advertiser: Advertiser | None = None
        try:
            advertiser = Advertiser(host, host.port,
                                    interfaces=self._settings().mdns_interfaces or None)
            await advertiser.start()
        except asyncio.CancelledError:
            # Stopped while it announced itself: nothing may stay listening on the port
            # with no screen to show it (a second ^s did that).
            if advertiser is not None:
                with contextlib.suppress(Exception):
                    await advertiser.close()
            await host.close(keep_journal=keep_journal)
            raise
        except (OSError, ValueError) as exc:
            self._warn(f"Players will not find this game on the LAN ({exc}); they can "
                       f"join by address, port {host.port}.")
        else:
            self.advertiser = advertiser

    async def stop(self, *, keep_journal: bool = False) -> None:
        """Stop the app's host (and its mDNS announcement), if it runs one: leaving or
        quitting ends its game on purpose; ``keep_journal`` (the app was ended from
        outside, as by a crash) keeps it for the next start to resume."""
        if self.advertiser is not None:
            advertiser, self.advertiser = self.advertiser, None
            await advertiser.close()
        if self.host is not None:
            host, self.host = self.host, None
            await host.close(keep_journal=keep_journal)

    async def deal_solo(self, game_id: str, seats: int, options: dict[str, Any]) -> Session:
        """A dealt solo game: a host in the app with no network, us in seat 0, bots in
        the others. Returns once the first view of the dealt game is in."""
        # (The session and the wire are loaded with the first game: see above.)
        from tui.session import Session

        host = await self.start(port=None)
        session = Session(self._settings().name, host=host)
        await session.connect()
        await deal_at(session, game_id, seats, options)
        return session

    async def resume(self, path: Path) -> Session:
        """Bring a crashed game of this app's host back and take our seat again.

        Our seat is the table's creator's (this app opened the table): its token is in
        the host's own journal. Everyone else's client reconnects with its own token.
        """
        # (The session and the wire are loaded with the first game: see above.)
        from tui.session import ConnectionLost, Session

        host = await self.start(None, resume=path)
        tables = sorted(host.tables.values(), key=lambda t: t.phase != "play")
        for table in tables:
            seat = table.creator
            if seat is None or table.seats[seat].token is None:
                continue
            session = Session(self._settings().name, host=host)
            await session.connect()
            await session.join(table.id, seat, token=table.seats[seat].token)
            while (await session.next()).get("type") != "update":
                pass
            return session
        await self.stop()
        raise ConnectionLost("that game has no seat of this app's to go back to")

    @staticmethod
    def resumable(damaged: list[str] | None = None) -> JournalInfo | None:
        """The newest game this app's host was running when the app stopped unasked: a
        game in play (a lobby, or a game over, has nothing to resume: the menu offered a
        finished match and reopened its lobby). Why each journal met on the way cannot
        be read goes into ``damaged``."""
        from net.journal_list import iter_journals

        return next((info for info in iter_journals(damaged=damaged)
                     if any(t["phase"] == "play" for t in info.tables)), None)

    def join_address(self) -> str | None:
        """Where friends on the LAN reach the host this app runs ("addr:port", …)."""
        if self.host is None or self.host.server is None:
            return None
        if self.advertiser is not None:
            addresses = self.advertiser.addresses
        else:
            from net.discovery import local_addresses

            addresses = local_addresses(None)
        if self.bind_address and self.bind_address not in ("0.0.0.0", "::"):
            addresses = [self.bind_address]
        return ", ".join(f"{a}:{self.host.port}" for a in addresses)

    def _keep(self, record: dict[str, Any]) -> None:
        """A game ended at our host: keep it, and know where (the summary's review)."""
        assert self.keeper is not None
        self.last_kept = self.keeper(record)

    def hosts(self, session: Session) -> bool:
        """True if ``session`` plays at the host this app runs."""
        return session.host is not None and session.host is self.host

    def plays_solo(self, session: Session) -> bool:
        """True if ``session`` is a solo game: our own host, with no network at all."""
        return self.hosts(session) and self.host is not None and self.host.server is None

    def serves(self, session: Session) -> bool:
        """True if ``session`` plays at the host this app runs for others (not solo)."""
        return self.hosts(session) and self.host is not None and self.host.server is not None

    def keeps_game(self, session: Session) -> bool:
        """Whether a game ended now at ``session``'s table on our host would go to Past
        games: one a person has moved in (``Table.unfinished_record``)."""
        joined = session.joined
        table = self.host.tables.get(joined.table) if (
            self.hosts(session) and self.host is not None and joined is not None) else None
        return table is not None and table.unfinished_record() is not None

    def bots_full_speed(self, session: Session, fast: bool = True) -> bool:
        """Let the bots of a solo game move without pause (``fast``), or at their pace again.

        Only a solo game's bots: at a LAN table the pace is everyone's, and no player may
        hurry the others. Returns True if the pace was set.
        """
        if not self.plays_solo(session) or self.host is None:
            return False
        self.host.bot_delay = 0.0 if fast else self.bot_delay
        return True


async def deal_at(session: Session, game_id: str, seats: int, options: dict[str, Any],
                  name: str = "solo") -> None:
    """Open a solo table (``name``) on the host ``session`` is connected to (the app's
    own, or an SSH box's), us in seat 0 and bots in the others, and deal; returns once
    the first view of the dealt game is in."""
    from tui.games import table_options

    await session.create(name, game_id, seats, table_options(game_id, seats, dict(options)))
    for seat in range(1, seats):
        await session.request("add_bot", seat)
    await session.request("start")
    # Wait for the dealt game so the table opens on a real view.
    while True:
        msg = await session.next()
        if msg.get("type") == "update" and msg.get("view") is not None:
            return
