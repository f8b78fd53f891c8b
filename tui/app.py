"""The Textual application: a thin shell that opens the main menu and holds shared state.

Screens do the work (``tui/screens``, ``tui/games``); widgets draw (``tui/widgets``). The
app keeps what every screen shares: the player's settings, the host this laptop runs
when it plays solo or hosts a LAN game (with its mDNS announcement), and the one
:class:`~tui.session.Session` at a table with the one worker that reads it — the
listener posts what the host pushes to the screen at the table and reconnects with the
seat's token when the line drops.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual import events, on, work
from textual.app import App
from textual.binding import Binding
from textual.message import Message
from textual.screen import Screen
from textual.widget import Widget
from textual.worker import Worker, WorkerState

from tui.messages import ChatReceived, ConnectionDropped, ConnectionRestored, HostSaid, ViewReceived
from tui.settings import Settings

# The session (and with it the client and the wire format) is imported where one is
# opened, not before the menu's first frame (scripts/bench_startup.py).
if TYPE_CHECKING:
    from textual.notifications import SeverityLevel

    from net.discovery import Advertiser
    from net.host import Host
    from net.journal import JournalInfo
    from tui.session import Session

log = logging.getLogger("hiddenhand.app")

RETRY_DELAYS = (0.5, 1.0, 2.0, 3.0, 5.0)
#: Reconnection attempts before giving up (about a minute with the delays above).
MAX_ATTEMPTS = 16
#: Restarts of a failed listener in a row before the app stops trying.
MAX_RESTARTS = 3


def monochrome_terminal(term: str) -> bool:
    """True for a terminal type that shows no colour: terminfo names a monochrome mode
    ``-m`` or ``-mono`` (``xterm-mono``, ``linux-m``, ``vt100-mono``)."""
    return term.endswith(("-m", "-mono"))


class MenuToCome(Screen[None]):
    """The bottom of the screens under a solo table opened from the command line: an
    empty screen that opens the menu over itself once the table is left. The table's
    first frame does not wait for the menu's module, widgets and layout, that nobody
    sees yet (about 3 ms, scripts/bench_startup.py). (Textual cannot switch the bottom
    screen for another, so this one stays under the menu.)"""

    def __init__(self) -> None:
        super().__init__()
        self._covered = False

    def _extend_compose(self, widgets: list[Widget]) -> None:
        """None of Textual's own widgets (a tooltip, the rack of notifications): nothing
        shows on this screen, the menu comes over it at once (their mount and styles
        were ~0.6 ms before the table's first frame, scripts/bench_startup.py). Textual
        shows notifications on the screens that have the rack: the table, the menu."""

    def on_screen_suspend(self) -> None:
        """The table covers it."""
        self._covered = True

    def on_screen_resume(self) -> None:
        """Back from under the table: the menu, built now, goes over it."""
        if self._covered:
            from tui.screens.menu import MenuScreen

            self.app.push_screen(MenuScreen())


class HiddenHandApp(App[None]):
    """hiddenhand in the terminal.

    ``bind`` is the address a hosted game listens on (``None``: every interface, as a
    LAN party needs); ``solo`` starts a solo game at once (``{"game_id", "seats",
    "options"}``); ``bot_delay`` paces the bots (seconds between their moves);
    ``seed_source`` fixes the games' seeds (tests and snapshots). ``box`` is the
    address of an SSH box's host (``hiddenhand ssh-serve``): the menu then joins and
    opens tables there instead of hosting on the LAN, and the lobby shows
    ``box_invite``, how friends connect. ``collector_paused``: the command line turned
    Python's cyclic garbage collector off for the start-up; it goes back on once the
    first screen is painted (:meth:`first_screen_shown`). ``css_cache``: a file of
    parsed CSS kept from earlier runs (:mod:`tui.css_cache`; the command line's, in the
    user's cache dir), written back once the first screen is painted.
    """

    CSS_PATH = "app.tcss"
    # Every action has its key in the footer; the palette would only take its room.
    ENABLE_COMMAND_PALETTE = False
    TITLE = "hiddenhand"
    SUB_TITLE = "hidden-information party games"
    BINDINGS = [Binding("ctrl+q", "quit", "Quit", priority=True, show=False)]

    def __init__(
        self,
        settings: Settings | None = None,
        *,
        notice: str | None = None,
        solo: dict[str, Any] | None = None,
        bind: str | None = None,
        bot_delay: float = 0.7,
        seed_source: Callable[[], int] | None = None,
        box: tuple[str, int] | None = None,
        box_invite: str | None = None,
        collector_paused: bool = False,
        css_cache: Path | None = None,
    ) -> None:
        super().__init__()
        if css_cache is not None:
            from tui.css_cache import CachedStylesheet

            # Nothing is read into the stylesheet before the app runs: replacing it here
            # loses nothing. Its variables are the ones Textual just worked out for it
            # (working them out again costs 0.6 ms).
            variables = getattr(self.stylesheet, "_variables", None)
            if not isinstance(variables, dict):
                variables = self.get_css_variables()
            self.stylesheet = CachedStylesheet(css_cache, variables=variables)
        if monochrome_terminal(os.environ.get("TERM", "")):
            # What such a terminal shows anyway, sent as such: no colour codes at all
            # (Textual's own NO_COLOR would send shades of grey). Every cue the app gives
            # has a form besides colour (marks, text, bold, underline): STYLE.md.
            from textual.filter import NoColor

            self._filters.append(NoColor())
            self.add_class("-mono")  # (cues of its own: tui/app.tcss)
        self.settings = settings or Settings()
        self.bind_address = bind
        self.bot_delay = bot_delay
        self.host: Host | None = None
        self.advertiser: Advertiser | None = None
        self.seed_source = seed_source
        #: The table we sit at (or watch), if any; its one reader is :meth:`listen`.
        self.session: Session | None = None
        self._restarts = 0
        self._notice = notice
        self._notice_severity: SeverityLevel = "warning"
        self._solo = solo
        #: The solo game of the command line, dealt as the app loads (:meth:`on_load`).
        self._solo_session: Session | None = None
        self.box = box
        self.box_invite = box_invite
        self._collector_paused = collector_paused

    def notify(self, message: str, *, title: str = "",
               severity: SeverityLevel = "information", timeout: float | None = None,
               markup: bool = True) -> None:
        """Show a notification, unless the very same one is still on screen: a refusal
        repeated (chat lines sent too fast, a key held down) shows once, not a stack."""
        for shown in self._notifications:
            if (not shown.has_expired and shown.message == message and shown.title == title
                    and shown.severity == severity):
                return
        super().notify(message, title=title, severity=severity, timeout=timeout,
                       markup=markup)

    def get_key_display(self, binding: Binding) -> str:
        """How a key shows in footers: a screen may say (``key_display``), as Get It!
        does for its look keys (the numbers of the players at the table)."""
        display = getattr(self.screen, "key_display", None)
        if callable(display):
            shown = display(binding)
            if isinstance(shown, str) and shown:
                return shown
        return super().get_key_display(binding)

    def get_default_screen(self) -> Screen[Any]:
        """The menu is the first screen on the stack, under every other.

        Textual's own default (an empty screen, with the menu pushed over it) costs the
        first frame about 20 ms more (scripts/bench_startup.py). Under a solo game from
        the command line, dealt as the app loads, the menu's place is kept by a
        :class:`MenuToCome`: the first frame is the table's."""
        if self._solo_session is not None:
            return MenuToCome()
        from tui.screens.menu import MenuScreen

        return MenuScreen()

    def first_screen_shown(self) -> None:
        """The first screen a player sees (the menu, or a solo table) is painted: the
        start-up is over, the garbage collector paused for it runs again, and the CSS
        parsed for it is kept for the next start."""
        if self._collector_paused:
            self._collector_paused = False
            gc.enable()
        self.save_css_cache()

    def save_css_cache(self) -> None:
        """Keep the CSS parsed so far for the next start (if there is a cache and
        anything new was parsed)."""
        from tui.css_cache import CachedStylesheet

        if isinstance(self.stylesheet, CachedStylesheet):
            try:
                self.stylesheet.save()
            except Exception:  # a shortcut only: never the player's problem
                log.info("could not keep the parsed CSS", exc_info=True)

    @on(events.DescendantFocus)
    def _mark_focused_button(self, event: events.DescendantFocus) -> None:
        """The focused button wears marks (▸ … ◂): its reversed look is drawn in
        colours, which a monochrome terminal does not show."""
        from textual.widgets import Button

        from tui.widgets.buttons import show_label

        if isinstance(event.widget, Button):
            show_label(event.widget, marked=True)

    @on(events.DescendantBlur)
    def _unmark_blurred_button(self, event: events.DescendantBlur) -> None:
        """A button that loses the focus loses its marks."""
        from textual.widgets import Button

        from tui.widgets.buttons import show_label

        if isinstance(event.widget, Button):
            show_label(event.widget, marked=False)

    async def on_load(self) -> None:
        """Deal the solo game of the command line, if it asked for one, before any
        screen is built: its table is then the first screen painted, over a menu built
        only when it is first shown. (Dealt once the menu was up, as before, the empty
        menu was laid out and painted first, ~4 ms of the table's first frame:
        scripts/bench_startup.py.) A game that cannot start leaves the menu as it
        always is, with a notice saying why."""
        if self._solo is None:
            return
        from tui.session import ConnectionLost, ServerError

        try:
            self._solo_session = await self.start_solo(
                self._solo["game_id"], self._solo["seats"], self._solo.get("options", {}))
        except (ServerError, ConnectionLost, OSError) as exc:
            self._notice = f"Could not start the solo game: {exc}"
            self._notice_severity = "error"

    def on_mount(self) -> None:
        """Sit down at the solo game of the command line, if it was dealt; say what
        went wrong as the app opened, if anything did."""
        if self._notice:
            self.notify(self._notice, severity=self._notice_severity,
                        timeout=10 if self._notice_severity == "error" else 8,
                        markup=False)
        session, self._solo_session = self._solo_session, None
        if session is not None:
            from tui.games import table_screen

            self.attach(session)
            self.call_later(self.push_screen, table_screen(session))

    async def start_solo(self, game_id: str, seats: int, options: dict[str, Any]) -> Session:
        """A dealt solo game: a host in the app with no network, us in seat 0, bots in
        the others. Returns once the first view of the dealt game is in."""
        from tui.games import table_options
        from tui.session import Session

        host = await self.start_host(port=None)
        session = Session(self.settings.name, host=host)
        await session.connect()
        await session.create("solo", game_id, seats,
                             table_options(game_id, seats, dict(options)))
        for seat in range(1, seats):
            await session.request("add_bot", seat)
        await session.request("start")
        # Wait for the dealt game so the table opens on a real view.
        while True:
            msg = await session.next()
            if msg.get("type") == "update" and msg.get("view") is not None:
                return session

    # ---- hosting ------------------------------------------------------------------------

    async def start_host(self, port: int | None, *, resume: Path | None = None) -> Host:
        """Run a host in the app; ``port=None`` is solo play with no network at all.

        The host journals every acknowledged change (``net.journal``), so a crash of this
        app loses nothing: ``resume`` brings a journaled host back (on the port it had,
        if it listened on one). A LAN host is announced by mDNS on the interfaces of the
        settings (or ``HIDDENHAND_MDNS_INTERFACES``, else all); if that fails, players
        can still join by address, and the app says so.
        """
        from engine.bots import make_bot
        from net.host import Host
        from net.journal import new_journal_path

        await self.stop_host()
        settings: dict[str, Any] = {"bot_factory": make_bot, "bot_delay": self.bot_delay,
                                    "seed_source": self.seed_source}
        if resume is not None:
            host = Host.resume(resume, **settings)
            port = host.resumed_port
        else:
            host = Host(self.settings.name, journal=new_journal_path(), **settings)
        if port is not None:
            from net.discovery import Advertiser

            try:
                await host.start(self.bind_address, port)
            except (OSError, asyncio.CancelledError):
                # A host that never listened leaves no new journal to pile up.
                await host.close(keep_journal=resume is not None)
                raise
            advertiser: Advertiser | None = None
            try:
                advertiser = Advertiser(host, host.port,
                                        interfaces=self.settings.mdns_interfaces or None)
                await advertiser.start()
            except asyncio.CancelledError:
                # Stopped while it announced itself: nothing may stay listening on the
                # port with no screen to show it (a second ^s did that).
                if advertiser is not None:
                    with contextlib.suppress(Exception):
                        await advertiser.close()
                await host.close(keep_journal=resume is not None)
                raise
            except (OSError, ValueError) as exc:
                self.notify(f"Players will not find this game on the LAN ({exc}); they can "
                            f"join by address, port {host.port}.", severity="warning",
                            timeout=10, markup=False)
            else:
                self.advertiser = advertiser
        self.host = host
        return host

    async def stop_host(self) -> None:
        """Stop the app's host (and its mDNS announcement), if it runs one."""
        if self.advertiser is not None:
            advertiser, self.advertiser = self.advertiser, None
            await advertiser.close()
        if self.host is not None:
            host, self.host = self.host, None
            # Leaving or quitting ends the game on purpose: only a crash leaves a journal.
            await host.close(keep_journal=False)

    def resumable(self) -> JournalInfo | None:
        """The newest game this app's host was running when the app stopped unasked."""
        if self.box is not None:
            return None  # on an SSH box the box's host keeps the games
        from net.journal import list_journals

        found = list_journals()
        return found[0] if found else None

    async def resume_game(self, path: Path) -> Session:
        """Bring a crashed game of this app's host back and take our seat again.

        Our seat is the table's creator's (this app opened the table): its token is in
        the host's own journal. Everyone else's client reconnects with its own token.
        """
        from tui.session import ConnectionLost, Session

        host = await self.start_host(None, resume=path)
        tables = sorted(host.tables.values(), key=lambda t: t.phase != "play")
        for table in tables:
            seat = table.creator
            if seat is None or table.seats[seat].token is None:
                continue
            session = Session(self.settings.name, host=host)
            await session.connect()
            await session.join(table.id, seat, token=table.seats[seat].token)
            while (await session.next()).get("type") != "update":
                pass
            self.attach(session)
            return session
        await self.stop_host()
        raise ConnectionLost("that game has no seat of this app's to go back to")

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

    def hosts(self, session: Session) -> bool:
        """True if ``session`` plays at the host this app runs."""
        return session.host is not None and session.host is self.host

    def plays_solo(self, session: Session) -> bool:
        """True if ``session`` is a solo game: our own host, with no network at all."""
        return self.hosts(session) and self.host is not None and self.host.server is None

    def bots_full_speed(self, session: Session, fast: bool = True) -> bool:
        """Let the bots of a solo game move without pause (``fast``), or at their pace again.

        Only a solo game's bots: at a LAN table the pace is everyone's, and no player may
        hurry the others. Returns True if the pace was set.
        """
        if not self.plays_solo(session) or self.host is None:
            return False
        self.host.bot_delay = 0.0 if fast else self.bot_delay
        return True

    # ---- the session at a table -----------------------------------------------------------

    def attach(self, session: Session) -> None:
        """Make ``session`` the app's table and start reading what its host pushes."""
        if self.session is not session:
            self.workers.cancel_group(self, "listen")
        self.session = session
        self._restarts = 0
        self.listen(session)

    async def detach(self) -> None:
        """Stop reading, close the connection, and stop our own host if the table ran there."""
        session, self.session = self.session, None
        self.workers.cancel_group(self, "listen")
        if session is None:
            return
        await session.close()
        if self.hosts(session):
            await self.stop_host()
            from tui.screens.menu import MenuScreen

            for screen in self.screen_stack:  # the game is over for good: no "resume"
                if isinstance(screen, MenuScreen):
                    screen.offer_resume()

    def _post(self, message: Message) -> None:
        """Give ``message`` to the topmost session screen (under any dialog)."""
        from tui.screens.base import SessionScreen

        for screen in reversed(self.screen_stack):
            if isinstance(screen, SessionScreen):
                screen.post_message(message)
                return

    @work(exclusive=True, group="listen", exit_on_error=False)
    async def listen(self, session: Session) -> None:
        """Read the host's pushes while we are at the table; on a drop, reconnect."""
        from tui.session import FINAL_CODES, ConnectionLost

        stopped = None  # what the host said as it stopped (it may come back)
        while self.session is session:
            try:
                msg = await session.next()
            except ConnectionLost as exc:
                if self.session is not session:
                    return
                reason = stopped or (session.client.close_reason if session.client else None)
                stopped = None
                if not await self._reconnect(session, reason or str(exc)):
                    return
                continue
            self._restarts = 0
            kind = msg.get("type")
            if kind == "update":
                self._post(ViewReceived(msg))
            elif kind == "chat":
                self._post(ChatReceived(msg))
            elif kind == "error" and msg.get("code") in FINAL_CODES:
                self._post(ConnectionDropped(str(msg.get("message")), final=True))
                return
            elif kind == "error" and msg.get("code") == "shutting_down":
                stopped = str(msg.get("message"))  # the banner says it as we reconnect
            elif kind == "error":
                self._post(HostSaid(str(msg.get("message"))))

    async def _reconnect(self, session: Session, reason: str) -> bool:
        from tui.session import FINAL_CODES, ConnectionLost, ServerError

        self._post(ConnectionDropped(reason, final=False))
        attempt = 0
        while self.session is session:
            if attempt == MAX_ATTEMPTS:
                self._post(ConnectionDropped(
                    f"{session.where} is not answering any more (gave up after "
                    f"{attempt} tries)", final=True))
                return False
            await asyncio.sleep(RETRY_DELAYS[min(attempt, len(RETRY_DELAYS) - 1)])
            attempt += 1
            try:
                await session.reconnect()
            except ServerError as exc:
                if exc.code in FINAL_CODES:
                    self._post(ConnectionDropped(exc.message, final=True))
                    return False
            except (OSError, ConnectionLost, TimeoutError):
                continue
            else:
                self._post(ConnectionRestored())
                return True
        return False

    @on(Worker.StateChanged)
    def worker_changed(self, event: Worker.StateChanged) -> None:
        """A failed listener is reported, never silent, and started again."""
        worker = event.worker
        if worker.group != "listen" or event.state != WorkerState.ERROR:
            return
        log.error("the table's listener failed", exc_info=worker.error)
        session = self.session
        if session is None:
            return
        self._restarts += 1
        if self._restarts > MAX_RESTARTS:
            self.notify(f"Stopped listening to the table after repeated errors: {worker.error}",
                        title="Something went wrong", severity="error", timeout=15,
                        markup=False)
            self._post(ConnectionDropped(f"this app failed: {worker.error}", final=True))
            return
        self.notify(f"Listening to the table failed ({worker.error}); listening again.",
                    title="Something went wrong", severity="error", markup=False)
        self.listen(session)

    async def action_quit(self) -> None:
        """Leave the table, stop hosting, then quit."""
        await self.detach()
        await self.stop_host()
        self.exit()
