"""The Textual application: a thin shell that assembles the parts and opens the menu.

Screens do the work (``tui/screens``, ``tui/games``); widgets draw (``tui/widgets``). The
app holds what every screen shares and hands each job on: the player's settings
(``tui/settings.py``), the host this laptop runs (:class:`~tui.hosting.Hosting`), the
session at a table and its reader (:class:`~tui.listener.Listener`, run by the app's
``listen`` worker), the collector paused for the start-up (``tui/gc_tuning.py``).
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual import events, on, work
from textual.app import App
from textual.binding import Binding
from textual.filter import LineFilter, NoColor
from textual.message import Message
from textual.screen import Screen
from textual.worker import Worker, WorkerState

from tui.gc_tuning import resume_after_start_up
from tui.hosting import Hosting
from tui.listener import Listener
from tui.messages import ConnectionDropped
from tui.screens.menu_to_come import MenuToCome
from tui.settings import Settings

if TYPE_CHECKING:
    from textual.notifications import SeverityLevel

    from net.clock import Clock
    from net.host import Host
    from net.journal import JournalInfo
    from tui.session import Session

log = logging.getLogger("hiddenhand.app")


def monochrome_terminal(term: str) -> bool:
    """True for a terminal type that shows no colour: terminfo names a monochrome mode
    ``-m`` or ``-mono`` (``xterm-mono``, ``linux-m``, ``vt100-mono``)."""
    return term.endswith(("-m", "-mono"))


class HiddenHandApp(App[None]):
    """hiddenhand in the terminal.

    ``bind`` is the address a hosted game listens on (``None``: every interface, as a
    LAN party needs); ``solo`` starts a solo game at once (``{"game_id", "seats",
    "options"}``); ``bot_delay`` paces the bots (seconds between their moves);
    ``seed_source`` fixes the games' seeds (tests and snapshots); ``clock`` is the clock
    of the app's own host (``net.clock``: the event loop's unless a test passes a
    ``ManualClock``). ``box`` is the address of an SSH box's host (``hiddenhand
    ssh-serve``): the menu then joins and opens tables there instead of hosting on the
    LAN, and the lobby shows ``box_invite``, how friends connect. ``collector_paused``:
    the command line turned Python's cyclic garbage collector off for the start-up; it
    goes back on once the first screen is painted (:meth:`first_screen_shown`).
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
        clock: Clock | None = None,
        box: tuple[str, int] | None = None,
        box_invite: str | None = None,
        collector_paused: bool = False,
    ) -> None:
        super().__init__()
        self._no_colour: LineFilter | None = None
        #: (message, title, severity) of the notices shown, with when each goes.
        self._notices_shown: list[tuple[tuple[str, str, str], float]] = []
        if monochrome_terminal(os.environ.get("TERM", "")):
            # What such a terminal shows anyway, sent as such: no colour codes at all
            # (Textual's own NO_COLOR would send shades of grey). Every cue the app gives
            # has a form besides colour (marks, text, bold, underline): STYLE.md.
            self._no_colour = NoColor()
            self.add_class("-mono")  # (cues of its own: tui/app.tcss)
        self.settings = settings or Settings()
        self.hosting = Hosting(lambda: self.settings, bind=bind, bot_delay=bot_delay,
                               seed_source=seed_source, warn=self._warn, clock=clock)
        self.listener = Listener(self._post)
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
        now = time.monotonic()
        self._notices_shown = [(k, end) for k, end in self._notices_shown if end > now]
        key = (message, title, str(severity))
        if any(shown == key for shown, _ in self._notices_shown):
            return
        lasts = self.NOTIFICATION_TIMEOUT if timeout is None else timeout
        self._notices_shown.append((key, now + lasts))
        super().notify(message, title=title, severity=severity, timeout=timeout,
                       markup=markup)

    def get_line_filters(self) -> Sequence[LineFilter]:
        """Textual's filters, and on a monochrome terminal one that sends no colour."""
        filters = super().get_line_filters()
        return [*filters, self._no_colour] if self._no_colour is not None else filters

    def _warn(self, message: str) -> None:
        self.notify(message, severity="warning", timeout=10, markup=False)

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
        """The menu is the first screen on the stack, under every other (not Textual's
        empty default with the menu pushed over it: one screen fewer to lay out before
        the first frame). Under a solo game from the command line, dealt as the app
        loads, the menu's place is kept by a :class:`MenuToCome`: the first frame is
        the table's."""
        if self._solo_session is not None:
            return MenuToCome()
        from tui.screens.menu import MenuScreen

        return MenuScreen()

    def first_screen_shown(self) -> None:
        """The first screen a player sees (the menu, or a solo table) is painted: the
        start-up is over, and the garbage collector paused for it runs again."""
        if self._collector_paused:
            self._collector_paused = False
            resume_after_start_up()

    @on(events.DescendantFocus)
    @on(events.DescendantBlur)
    def _mark_focused_button(self, event: events.DescendantFocus | events.DescendantBlur) -> None:
        """The focused button wears marks (▸ … ◂), and loses them with the focus: its
        reversed look is drawn in colours, which a monochrome terminal does not show."""
        from textual.widgets import Button

        from tui.widgets.buttons import show_label

        if isinstance(event.widget, Button):
            show_label(event.widget, marked=isinstance(event, events.DescendantFocus))

    async def on_load(self) -> None:
        """Deal the solo game of the command line, if it asked for one, before any
        screen is built: its table is then the first screen painted, over a menu built
        only when it is first shown (not an empty menu laid out and painted first). A
        game that cannot start leaves the menu as it always is, with a notice saying
        why."""
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
        went wrong as the app opened, if anything did (over the table, once it shows)."""
        session, self._solo_session = self._solo_session, None
        if session is None:
            self._say_notice()
            return
        from tui.games import table_screen

        self.attach(session)
        self.call_later(self._sit_down, table_screen(session))

    async def _sit_down(self, screen: Screen[Any]) -> None:
        await self.push_screen(screen)
        self._say_notice()

    def _say_notice(self) -> None:
        if self._notice:
            self.notify(self._notice, severity=self._notice_severity,
                        timeout=10 if self._notice_severity == "error" else 8,
                        markup=False)

    # ---- hosting (tui/hosting.py) -------------------------------------------------------

    @property
    def host(self) -> Host | None:
        """The host this app runs, if any."""
        return self.hosting.host

    @host.setter
    def host(self, host: Host | None) -> None:
        """Take ``host`` as the app's own, as it is (``None``: forget it, running or not)."""
        self.hosting.host = host

    async def start_solo(self, game_id: str, seats: int, options: dict[str, Any]) -> Session:
        """A dealt solo game (:meth:`Hosting.deal_solo`)."""
        return await self.hosting.deal_solo(game_id, seats, options)

    async def start_host(self, port: int | None, *, resume: Path | None = None) -> Host:
        """Run a host in the app, ``port=None`` for solo (:meth:`Hosting.start`)."""
        return await self.hosting.start(port, resume=resume)

    async def stop_host(self) -> None:
        """Stop the app's host (and its mDNS announcement), if it runs one."""
        await self.hosting.stop()

    def resumable(self) -> JournalInfo | None:
        """The newest game this app's host was running when the app stopped unasked
        (none on an SSH box: the box's host keeps the games)."""
        return None if self.box is not None else self.hosting.resumable()

    async def resume_game(self, path: Path) -> Session:
        """A crashed game back (:meth:`Hosting.resume`), as the app's table."""
        session = await self.hosting.resume(path)
        self.attach(session)
        return session

    def join_address(self) -> str | None:
        """Where friends on the LAN reach the host this app runs ("addr:port", …)."""
        return self.hosting.join_address()

    def hosts(self, session: Session) -> bool:
        """True if ``session`` plays at the host this app runs."""
        return self.hosting.hosts(session)

    def plays_solo(self, session: Session) -> bool:
        """True if ``session`` is a solo game: our own host, with no network at all."""
        return self.hosting.plays_solo(session)

    def bots_full_speed(self, session: Session, fast: bool = True) -> bool:
        """A solo game's bots at full speed, or not (:meth:`Hosting.bots_full_speed`)."""
        return self.hosting.bots_full_speed(session, fast)

    # ---- the session at a table (tui/listener.py) -----------------------------------------

    def attach(self, session: Session) -> None:
        """Make ``session`` the app's table and start reading what its host pushes."""
        if self.listener.follow(session):
            self.workers.cancel_group(self, "listen")
        self.listen(session)

    async def detach(self) -> None:
        """Stop reading, close the connection, and stop our own host if the table ran there."""
        session = self.listener.session
        self.listener.follow(None)
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
        await self.listener.listen(session)

    @on(Worker.StateChanged)
    def worker_changed(self, event: Worker.StateChanged) -> None:
        """A failed listener is reported, never silent, and started again."""
        worker = event.worker
        if worker.group != "listen" or event.state != WorkerState.ERROR:
            return
        log.error("the table's listener failed", exc_info=worker.error)
        session = self.listener.session
        if session is None:
            return
        if not self.listener.failed():
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
