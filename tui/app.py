"""The Textual application: a thin shell that assembles the parts and opens the menu.

Screens do the work (``tui/screens``, ``tui/games``); widgets draw (``tui/widgets``). The
app holds what every screen shares and hands each job on: the player's settings
(``tui/settings.py``), the host this laptop runs (``app.hosting``, a
:class:`~tui.hosting.Hosting`), the session at a table and its reader
(:class:`~tui.listener.Listener`, run by the app's ``listen`` worker), what it opens on
(:class:`~tui.opening.Opening`: the menu, or a solo table of the command line), the
notifications on screen (:class:`~tui.notifications.OnScreen`), the collector paused for
the start-up (``tui/gc_tuning.py``).
"""

from __future__ import annotations

import asyncio
import os
import signal
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from textual import events, on, work
from textual.app import App
from textual.binding import Binding
from textual.filter import LineFilter, NoColor
from textual.message import Message
from textual.screen import Screen
from textual.worker import Worker, WorkerState

from net.paths import IDLE_WARNING_ENV, TOUCH_ENV
from tui.games.screens import screen_for, table_screen
from tui.gc_tuning import resume_after_start_up
from tui.hosting import Hosting
from tui.listener import Listener
from tui.messages import HandOverRequested
from tui.notifications import OnScreen
from tui.opening import Opening
from tui.settings import Settings
from tui.widgets.buttons import mark_focus
from tui.widgets.footer_keys import ScreenKeyDisplay

if TYPE_CHECKING:
    from textual.notifications import SeverityLevel

    from net.clock import Clock
    from tui.session import Session


#: The tooltips' delay on a screen that cannot hover: they never come up.
NO_TOOLTIPS = 86400.0


def monochrome_terminal(term: str) -> bool:
    """True for a terminal type that shows no colour: terminfo names a monochrome mode
    ``-m`` or ``-mono`` (``xterm-mono``, ``linux-m``, ``vt100-mono``)."""
    return term.endswith(("-m", "-mono"))


class HiddenHandApp(ScreenKeyDisplay, App[None]):
    """hiddenhand in the terminal.

    ``bind`` is the address a hosted game listens on (``None``: every interface, as a
    LAN party needs); ``solo`` starts a solo game at once (``{"game_id", "seats",
    "options"}``); ``bot_delay`` paces the bots (seconds between their moves);
    ``seed_source`` fixes the games' seeds (tests and snapshots); ``clock`` is the clock
    of the app's own host (``net.clock``: the event loop's unless a test passes a
    ``ManualClock``). ``box`` is the address of an SSH box's host (``hiddenhand
    ssh-serve``): the menu then joins and opens tables there instead of hosting on the
    LAN, and the lobby shows ``box_doors``, every way friends come in. ``collector_paused``:
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
        box_doors: Sequence[str] = (),
        collector_paused: bool = False,
        games: str | None = None,
    ) -> None:
        super().__init__()
        self._no_colour: LineFilter | None = None
        if monochrome_terminal(os.environ.get("TERM", "")):
            # What such a terminal shows anyway, sent as such: no colour codes at all
            # (Textual's own NO_COLOR would send shades of grey). Every cue the app gives
            # has a form besides colour (marks, text, bold, underline): STYLE.md.
            self._no_colour = NoColor()
        if self._no_colour is not None or os.environ.get("NO_COLOR"):
            # (NO_COLOR: Textual's shades of grey, where colour cues are lost as well.)
            self.add_class("-mono")  # (cues of its own: tui/app.tcss)
        #: A screen played by touch (a phone in a browser): nothing hovers, and a
        #: finger slips onto the next card.
        self.touch = os.environ.get(TOUCH_ENV) == "1"
        if self.touch:
            # A tooltip would come up under the finger after a tap and stay, as nothing
            # moves the pointer away.
            self.TOOLTIP_DELAY = NO_TOOLTIPS
        self.settings = settings or Settings()
        #: The host this app runs itself, if any (screens start, ask and stop it here).
        self.hosting = Hosting(lambda: self.settings, bind=bind, bot_delay=bot_delay,
                               seed_source=seed_source, warn=self._warn, clock=clock)
        #: Reads the table the app sits at (:meth:`attach`, :meth:`listen`).
        self.listener = Listener(self._post, self._alert)
        #: Reviews a table follows whose first words we read
        #: (``tui.screens.shared_review``): kept across leaving their table.
        self.reviews_told: set[str] = set()
        self.opening = Opening(solo, notice)
        self._on_screen = OnScreen()
        self.box = box
        self.box_doors = list(box_doors)
        #: Where past games are read (the box's own database; ``None``: ours).
        self.games = games
        self._collector_paused = collector_paused

    def notify(self, message: str, *, title: str = "",
               severity: SeverityLevel = "information", timeout: float | None = None,
               markup: bool = True) -> None:
        """Show a notification, unless the very same one is still on screen (a refusal
        repeated shows once, not a stack: :class:`~tui.notifications.OnScreen`).

        Always as plain text, whatever ``markup`` says (a widget's ``notify`` asks for
        markup by default): a notice may carry a player's name or a host's words, and
        ``[@click=…]`` in them would be an action in this app."""
        lasts = self.NOTIFICATION_TIMEOUT if timeout is None else timeout
        if not self._on_screen.shown_again((message, title, str(severity)), lasts):
            super().notify(message, title=title, severity=severity, timeout=timeout,
                           markup=False)

    def clear_notifications(self) -> None:
        """Take every notification off the screen (each may then be shown again)."""
        super().clear_notifications()
        self._on_screen.clear()

    def keep_settings(self, what: str, **changes: Any) -> None:
        """Set ``changes`` in the player's settings and save them; a file that cannot be
        written is said (``what`` could not be kept) and changes nothing else: each is a
        convenience for next time."""
        for name, value in changes.items():
            setattr(self.settings, name, value)
        try:
            self.settings.save()
        except OSError as exc:
            self.notify(f"Could not keep {what} for next time: {exc}", severity="warning",
                        markup=False)

    def _warn(self, message: str) -> None:
        self.notify(message, severity="warning", timeout=10, markup=False)

    def _alert(self, message: str, timeout: float | None) -> None:
        self.notify(message, title="Something went wrong", severity="error", timeout=timeout,
                    markup=False)

    def get_line_filters(self) -> Sequence[LineFilter]:
        """Textual's filters, and on a monochrome terminal one that sends no colour."""
        filters = super().get_line_filters()
        return [*filters, self._no_colour] if self._no_colour is not None else filters

    def get_default_screen(self) -> Screen[Any]:
        """The bottom of the screen stack: the menu, or the place it keeps under a solo
        table of the command line (:meth:`Opening.first_screen`)."""
        return self.opening.first_screen(self.box)

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
        mark_focus(event.widget, isinstance(event, events.DescendantFocus))

    async def on_load(self) -> None:
        """Deal the solo game of the command line, if it asked for one, before any
        screen is built (:meth:`Opening.deal`)."""
        await self.opening.deal(self.hosting)

    def on_mount(self) -> None:
        """Sit down at the solo game of the command line, if it was dealt; say what
        went wrong as the app opened, if anything did (over the table, once it shows)."""
        if not (self.is_web or self.is_headless):
            # Ended from outside (``kill``, a shutdown): the terminal is given back as it
            # was (it kept the app's last screen), and a game this app hosts is kept for
            # its next start to resume, as after a crash. (Textual's web driver takes
            # SIGTERM as quit itself.)
            asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, self._terminated)
        if (lead := os.environ.get(IDLE_WARNING_ENV)) and hasattr(signal, "SIGUSR1"):
            # The box's door warns of idleness (``net.box``); it came blocked until now.
            asyncio.get_running_loop().add_signal_handler(signal.SIGUSR1, lambda: self.notify(
                f"No key pressed for a while: this closes in {lead} seconds unless you "
                "press one (a seat at a table is kept).", title="Still there?",
                timeout=float(lead), markup=False))
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGUSR1})
        session = self.opening.take_table()
        if session is None:
            self.opening.say_notice(self.notify)
            return
        self.attach(session)
        self.call_later(self._sit_down, table_screen(session))

    async def _sit_down(self, screen: Screen[Any]) -> None:
        await self.push_screen(screen)
        self.opening.say_notice(self.notify)

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
        ours = self.hosting.hosts(session)
        if ours:
            # The host first: it tells everyone the table closed. Our own connection
            # closed before it read to the others as our going away, with the creator's
            # role passed on at a table about to close.
            await self.hosting.stop()
        await session.close()
        if ours:
            # Not imported with the app: a solo table of the command line opens without
            # the menu's module (tui/opening.py); by the time a table is left, it is loaded.
            from tui.screens.menu import MenuScreen

            for screen in self.screen_stack:  # the game is over for good: no "resume"
                if isinstance(screen, MenuScreen):
                    screen.offer_resume()

    def _post(self, message: Message) -> None:
        """Give ``message`` to the topmost session screen (under any dialog)."""
        # The session screens bring the session, the client and the wire format, which
        # the menu's first frame does without; there is something to post only at a table.
        from tui.screens.base import SessionScreen

        for screen in reversed(self.screen_stack):
            if isinstance(screen, SessionScreen):
                screen.post_message(message)
                return

    @on(HandOverRequested)
    async def hand_over(self, message: HandOverRequested) -> None:
        """The screen at the table is done with it: the one the table needs now takes its
        place (the game's table once it starts, the lobby when it goes back there).

        A dialog open over it (a summary, a question, the rules) goes with it: switched
        in above the dialog, the lobby left the finished table under it, and leaving the
        lobby then showed that table instead of the menu."""
        from tui.screens.base import SessionScreen

        if any(isinstance(screen, SessionScreen) for screen in self.screen_stack):
            while not isinstance(self.screen, SessionScreen):
                await self.pop_screen()
        self.switch_screen(screen_for(message.session))

    @work(exclusive=True, group="listen", exit_on_error=False)
    async def listen(self, session: Session) -> None:
        """Read the host's pushes while we are at the table; on a drop, reconnect."""
        await self.listener.listen(session)

    @on(Worker.StateChanged)
    def worker_changed(self, event: Worker.StateChanged) -> None:
        """A failed listener is reported, never silent, and started again
        (:meth:`Listener.failed`)."""
        worker = event.worker
        if worker.group != "listen" or event.state != WorkerState.ERROR:
            return
        session = self.listener.session
        if self.listener.failed(worker.error) and session is not None:
            self.listen(session)

    def action_help_quit(self) -> None:
        """Ctrl+C, pressed to quit by reflex: how to, in plain words (Textual's own
        notice showed its markup, "Press [b]q[/b]")."""
        self.notify("Ctrl+Q quits hiddenhand (at a table, Esc leaves it first).",
                    title="Do you want to quit?", markup=False)

    async def action_quit(self) -> None:
        """Leave the table, stop hosting, then quit: asked first when others are at a
        table this app hosts (quitting ends it for them); ^q again quits."""
        from tui.screens.dialogs import ConfirmScreen

        host = self.hosting.host
        others = host is not None and host.server is not None and any(
            c.address != "local" and c.table is not None for c in host.connections)
        if others and not isinstance(self.screen, ConfirmScreen):
            def answered(yes: bool | None) -> None:
                if yes:
                    self.run_worker(self._quit(), group="close", exit_on_error=False)

            self.push_screen(ConfirmScreen(
                "Others are at the table you host: quitting stops the host and ends the "
                "game for everyone. Quit?", yes="Quit", no="Stay", careful=True), answered)
            return
        await self._quit()

    def _terminated(self) -> None:
        self.run_worker(self._end_kept(), group="close", exit_on_error=False)

    async def _end_kept(self) -> None:
        await self.hosting.stop(keep_journal=True)
        self.exit()

    async def _quit(self) -> None:
        await self.detach()
        await self.hosting.stop()
        self.exit()
