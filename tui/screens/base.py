"""What every screen at a table shares (the lobby and each game's table).

The app owns the connection and its one listener (``HiddenHandApp.listen``), which posts
:mod:`tui.messages` to the topmost session screen; the ``@on`` handlers here keep the
newest ``update`` in one reactive and show connection trouble in a banner. Requests go
out through :meth:`SessionScreen.send`, a worker that shows a refusal instead of
raising it. When the table moves on (its game starts, or it goes back to its lobby),
:meth:`SessionScreen.hand_over` asks the app for the screen it needs now: a screen at a
table never names another (the lobby and the game's screens are loaded by
:mod:`tui.games.screens`).
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import TYPE_CHECKING, Any

from textual import getters, on, work
from textual.reactive import reactive
from textual.screen import Screen
from textual.widgets import Static

from tui.messages import (
    ConnectionDropped,
    ConnectionRestored,
    HandOverRequested,
    HostSaid,
    ViewReceived,
)
from tui.screens.styled import StyledOnce
from tui.session import ConnectionLost, ServerError, Session

if TYPE_CHECKING:
    from tui.app import HiddenHandApp


class Banner(Static):
    """A one-line strip across the top for connection trouble; hidden when all is well."""

    DEFAULT_CSS = """
    Banner { height: auto; display: none; }
    Banner.shown { display: block; }
    """


class SessionScreen(StyledOnce, Screen[None]):
    """Base class of the lobby and the game tables."""

    if TYPE_CHECKING:  # typed only: a screen never imports the app (no import circle)
        app = getters.app(HiddenHandApp)

    #: The latest ``update`` from the host, replaced whole each time. No repaint of the
    #: whole screen on each: the widgets the update changes repaint themselves, and the
    #: rest of the screen (most of it, for most updates) is not drawn again.
    update: reactive[dict[str, Any] | None] = reactive(None, always_update=True, repaint=False)

    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session
        #: Set once this screen hands over to another (or leaves): it draws no more.
        self.leaving = False

    #: True once mounted: watchers draw only from then on.
    live = False
    #: A warning of ours about a key may still be in sight (:meth:`warn`).
    _warned = False

    def warn(self, text: str, *shorter: str) -> None:
        """Say why a key did nothing, in a toast that goes once the table moved past the
        moment it was about (:meth:`warnings_stale`). ``shorter``: other wordings, for
        a screen that says it on a line of its own."""
        self._warned = True
        self.notify(text, severity="warning", markup=False)

    def warnings_stale(self) -> None:
        """The table moved on (our turn came, a dialog opens): a warning still in sight
        told what was true before ("It is not your turn" under "▶ Your turn")."""
        if self._warned:
            self._warned = False
            self.app.clear_notifications()

    def on_mount(self) -> None:
        """The one Mount handler of every session screen: Textual calls each class's own
        ``on_mount`` (a subclass's, then its bases'), so the screens built on this one
        extend :meth:`mounted` instead (a ``super().on_mount()`` chain ran a table's
        first show three times)."""
        self.mounted()

    def mounted(self) -> None:
        """Show the last known state at once (the app's listener posts the next ones)."""
        self.live = True
        if self.session.latest is not None:
            self.update = self.session.latest
            self.show_watchers()
            self._say_our_name()

    # ---- receiving ------------------------------------------------------------

    #: The connection to the host is down (reconnecting, or gone for good).
    cut_off = False
    #: The table is lost for good (closed, gone with its host, we were removed): there
    #: is nothing left to leave or come back to.
    gone = False

    @on(ViewReceived)
    def view_received(self, message: ViewReceived) -> None:
        """Keep the newest state; subclasses react in ``watch_update``."""
        if not self.leaving:
            self.update = message.msg
        if not self.leaving:  # (the update may have handed this screen over)
            self.show_watchers()
            self._say_our_name()

    def _say_our_name(self) -> None:
        """Once a table, our name there when the host made it another ("Ann" sat down as
        "Ann (2)" beside another Ann, and only a line of the chat said so)."""
        seats = self.table.get("seats")
        if self.session.name_told or not isinstance(seats, list):
            return
        mine = next((s for s in seats if isinstance(s, dict) and s.get("seat") == self.my_seat),
                    None)
        if mine is None:
            return
        self.session.name_told = True
        if (name := str(mine.get("name"))) != self.session.name:
            self.notify(f"{self.session.name!r} is taken at this table: you are {name!r} "
                        "here (n renames you in the lobby).", markup=False)

    def show_watchers(self) -> None:
        """The header says who is watching the table besides its players (spectators
        see only what every player sees, but players like to know)."""
        count = self.table.get("spectators")
        count = count if isinstance(count, int) and not isinstance(count, bool) else 0
        base = type(self).SUB_TITLE
        if count <= 0:
            self.sub_title = base
        elif self.my_seat is None:
            others = count - 1
            self.sub_title = f"{base} · you are watching" + (
                f" with {others} more" if others > 0 else "")
        else:
            self.sub_title = f"{base} · {count} watching"

    @on(HostSaid)
    def host_said(self, message: HostSaid) -> None:
        """Show the host's complaint."""
        self.notify(message.text, title="The host says", severity="warning", markup=False)

    @on(ConnectionDropped)
    def connection_dropped(self, message: ConnectionDropped) -> None:
        """Show what went wrong, and whether we are trying to get back."""
        self.cut_off = True
        self.gone = self.gone or message.final
        self.refresh_bindings()  # what needs the host is not offered while it is gone
        banner = self.query_one(Banner)
        if message.final:
            banner.update(f"⚠ {message.reason} — press Esc to go back to the menu")
        elif message.reason:
            banner.update(f"⚠ Connection to {self.session.where} lost ({message.reason}); "
                          "reconnecting…")
        banner.add_class("shown")

    @on(ConnectionRestored)
    def connection_restored(self) -> None:
        """Hide the banner again."""
        self.cut_off = False
        self.refresh_bindings()
        self.query_one(Banner).remove_class("shown")
        self.notify("Reconnected: you have your seat back.")

    # ---- sending --------------------------------------------------------------

    @work(group="requests", exit_on_error=False)
    async def send(self, method: str, *args: Any, **kwargs: Any) -> None:
        """Make a request of the host; a refusal is shown, never raised."""
        await self.request(method, *args, **kwargs)

    async def request(self, method: str, *args: Any, **kwargs: Any) -> bool:
        """Make a request of the host and wait for it: whether it went through (a
        refusal is shown, never raised)."""
        try:
            await self.session.request(method, *args, **kwargs)
        except ServerError as exc:
            self.refused(method)
            self.notify(exc.message, title="Not possible", severity="error", markup=False)
        except ConnectionLost as exc:
            self.refused(method)
            self.notify(f"Not connected: {exc}", severity="error", markup=False)
        else:
            return True
        return False

    def refused(self, method: str) -> None:
        """A request of ours did not go through (subclasses may undo what they expected)."""

    # ---- helpers --------------------------------------------------------------

    @property
    def table(self) -> dict[str, Any]:
        """The table's public part in the latest update (``{}`` before the first)."""
        table = (self.update or {}).get("table")
        return table if isinstance(table, dict) else {}

    @property
    def my_seat(self) -> int | None:
        """Our seat number, or ``None`` when watching."""
        return self.session.seat

    @property
    def is_creator(self) -> bool:
        """True if we created the table (and so run it)."""
        creator = self.table.get("creator")
        return creator is not None and creator == self.my_seat

    def hand_over(self) -> None:
        """Give this screen's place to the one the table needs now (lobby ⇄ game): the
        app puts it there (:class:`~tui.messages.HandOverRequested`); this one draws no
        more."""
        self.leaving = True
        self.post_message(HandOverRequested(self.session))

    def leave_question(self) -> str | None:
        """What to ask before leaving, if anything: nothing once the table is gone (the
        menu at once), and never a promise the table can no longer keep."""
        ours = self.app.hosting.hosts(self.session)
        if self.gone:
            return None
        if self.app.hosting.serves(self.session):
            ends = ("closes the table" if self.table.get("phase") == "lobby"
                    else "ends the game")  # (in a lobby no game is played yet)
            return (f"You are hosting this table: leaving stops the host and {ends} for "
                    "everyone at it. Leave?")
        if ours and self.table.get("phase") == "play":
            # (A game nobody moved in is kept nowhere: "keeps it" promised a game that
            # Past games then did not list, a rematch the bots had begun.)
            kept = ("Past games keeps what was played" if self.app.hosting.keeps_game(
                self.session) else "you have not moved in it: Past games will not list it")
            return (f"Leave this solo game? It ends here, unfinished ({kept}), and you go "
                    "back to the menu.")
        if self.my_seat is None:
            return None
        seats = self.table.get("seats")
        others = [s for s in (seats if isinstance(seats, list) else [])
                  if isinstance(s, dict) and s.get("kind") == "human"
                  and s.get("seat") != self.my_seat and s.get("connected")]
        if self.table.get("phase") == "lobby" and not self.cut_off:
            # (Esc straight after typing a name left the table, and the seat with it.)
            # (Said as such: leaving a game keeps the seat, and the two read as at odds.)
            # (Not "the game has not started": a lobby after a game asked that too.)
            # (Alone, Esc closed the table and its set-up at once, unasked: a box pass.)
            holders = [s for s in (seats if isinstance(seats, list) else []) if isinstance(
                s, dict) and s.get("kind") == "human" and s.get("seat") != self.my_seat]
            return ("Leave this table? No game is on: your seat is freed for whoever joins "
                    "next." if others else "Leave this table? Nobody else is here now: it "
                    "closes half a minute after you leave unless someone comes back." if holders
                    else "Leave this table? Nobody else is at it: it closes, and its set-up "
                    "with it.")
        if self.table.get("phase") != "play":
            return None
        if self.cut_off:  # the host stopped, or does not answer: its table may not return
            return ("The host is not answering. Leave? If it comes back with this game, "
                    "join its table again to take your seat back.")
        if not others:  # a host closes a game everyone left (net.idle: 30 s)
            # ("Soon" undersold half a minute: a player back from a break found it gone.)
            # (Its watchers keep it open: "nobody else" read as false beside "1 watching".)
            watching = self.table.get("spectators")
            watching = watching if isinstance(watching, int) and watching > 0 else 0
            who = (f"Nobody else plays here ({watching} watching)" if watching
                   else "Nobody else is at this table")
            # (Another's lost connection keeps it longer: it waits for them, net.idle.)
            away = any(isinstance(s, dict) and s.get("seat") != self.my_seat and (
                s.get("kind") == "human" or s.get("for"))
                for s in (seats if isinstance(seats, list) else []))
            when = ("if nobody comes back in time" if away else "half a minute after "
                    f"everyone{' else' if watching else ''} has left")
            return (f"Leave this game? {who}: your seat stays yours, but the host closes "
                    f"the table {when} (Past games keeps what was played).")
        view = getattr(self, "view", None)
        if isinstance(view, dict) and view.get("deadline") is not None:
            # (A round's clock stands still while a player is away: unsaid, a Leave
            # stopped everyone's round as if by accident.)
            return ("Leave this game? The round's clock stops for everyone until you are "
                    "back (or a bot plays your seat); your seat stays yours: join the "
                    "table again to take it back.")
        return "Leave this game? Your seat stays yours: join the table again to take it back."

    def action_rules(self) -> None:
        """The rules of this table's game (Escape comes back here)."""
        # Loaded when the rules are first read, not before the table's first frame.
        from tui.screens.rules import RulesScreen

        game = self.table.get("game")
        self.app.push_screen(RulesScreen(game if isinstance(game, str) else None,
                                         at_table=True))

    def action_leave(self) -> None:
        """Leave the table and go back to the menu (asking first while a game runs)."""
        question = self.leave_question()
        if question:
            # Loaded when a dialog first opens, not before the table's first frame.
            from tui.screens.dialogs import ConfirmScreen

            def answered(yes: bool | None) -> None:
                if yes:
                    self.leave()

            self.app.push_screen(
                ConfirmScreen(question, yes="Leave", no="Stay", careful=True), answered)
        else:
            self.leave()

    def leave(self) -> None:
        """Tell the table, close the connection (and stop our own host) and return to
        the menu."""
        self.leaving = True
        self.app.run_worker(self._leave(), group="close", exit_on_error=False)
        # Every screen of the table goes, down to the one before it (the menu): an older
        # screen of this table left under this one would show instead.
        first = next(s for s in self.app.screen_stack if isinstance(s, SessionScreen))
        if first is not self.app.screen:
            first.pop_until_active()
        self.app.pop_screen()

    async def _leave(self) -> None:
        # The others read that we left, not that our connection was lost; a host that
        # does not answer at once is not waited for.
        joined = self.session.joined
        freed = self.table.get("phase") == "lobby"  # (in play the seat waits for us)
        if not self.app.hosting.serves(self.session):
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.session.request("leave"), 1.0)
                if freed and joined is not None:
                    self.session.forget_seat(joined.table)
        # (Leaving the table we host stops the host, which tells everyone the table
        # closed: a leave first passed the creator's role on, and the next creator read
        # that they ran a table closed a moment later.)
        await self.app.detach()
