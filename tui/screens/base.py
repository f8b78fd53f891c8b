"""What every screen at a table shares: the session's listener, requests, the banner.

The listener is a worker that reads the host's pushes and posts them as messages;
``@on`` handlers on the screens own the state. A dropped connection shows a banner and
is retried with the seat's token until it comes back or the host says the seat is gone.
"""

from __future__ import annotations

import asyncio
from typing import Any

from textual import work
from textual.binding import Binding
from textual.message import Message
from textual.reactive import reactive
from textual.screen import Screen
from textual.widgets import Static

from tui.session import FINAL_CODES, ConnectionLost, ServerError, Session

RETRY_DELAYS = (0.5, 1.0, 2.0, 3.0, 5.0)
#: Reconnection attempts before giving up (about a minute with the delays above).
MAX_ATTEMPTS = 16


class Banner(Static):
    """A one-line strip across the top for connection trouble; hidden when all is well."""

    DEFAULT_CSS = """
    Banner { height: auto; display: none; }
    Banner.shown { display: block; }
    """


class SessionScreen(Screen[None]):
    """Base class of the lobby and the game tables."""

    BINDINGS = [Binding("escape", "leave", "Leave")]

    #: The latest ``update`` from the host, replaced whole each time.
    update: reactive[dict[str, Any] | None] = reactive(None, always_update=True)

    class Updated(Message):
        """The host pushed a new state of the table."""

        def __init__(self, msg: dict[str, Any]) -> None:
            super().__init__()
            self.msg = msg

    class ChatReceived(Message):
        """Somebody at the table said something in the chat."""

        def __init__(self, msg: dict[str, Any]) -> None:
            super().__init__()
            self.msg = msg

    class ConnectionDropped(Message):
        """The line to the host is down; reconnection is under way (or hopeless)."""

        def __init__(self, reason: str, final: bool) -> None:
            super().__init__()
            self.reason = reason
            self.final = final

    class ConnectionRestored(Message):
        """We are back in our seat."""

    class HostSaid(Message):
        """The host sent a complaint that needs no reconnection (shown as a toast)."""

        def __init__(self, text: str) -> None:
            super().__init__()
            self.text = text

    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session
        self.leaving = False

    #: True once mounted: watchers draw only from then on.
    live = False

    def on_mount(self) -> None:
        """Show the last known state at once, then listen for more."""
        self.live = True
        if self.session.latest is not None:
            self.update = self.session.latest
        self.listen()

    # ---- receiving ------------------------------------------------------------

    @work(exclusive=True, group="listen", exit_on_error=False)
    async def listen(self) -> None:
        """Read the host's pushes forever; on a drop, reconnect with the seat's token."""
        while True:
            try:
                msg = await self.session.next()
            except ConnectionLost as exc:
                if self.leaving:
                    return
                reason = self.session.client.close_reason if self.session.client else None
                if not await self._reconnect(reason or str(exc)):
                    return
                continue
            if self.leaving:
                return  # the next screen reads ``session.latest``
            kind = msg.get("type")
            if kind == "update":
                self.post_message(self.Updated(msg))
            elif kind == "chat":
                self.post_message(self.ChatReceived(msg))
            elif kind == "error" and msg.get("code") in FINAL_CODES:
                self.post_message(self.ConnectionDropped(str(msg.get("message")), final=True))
                self.leaving = True
                return
            elif kind == "error":
                self.post_message(self.HostSaid(str(msg.get("message"))))

    async def _reconnect(self, reason: str) -> bool:
        self.post_message(self.ConnectionDropped(reason, final=False))
        attempt = 0
        while not self.leaving:
            if attempt == MAX_ATTEMPTS:
                self.post_message(self.ConnectionDropped(
                    f"{self.session.where} is not answering any more (gave up after "
                    f"{attempt} tries)", final=True))
                return False
            await asyncio.sleep(RETRY_DELAYS[min(attempt, len(RETRY_DELAYS) - 1)])
            attempt += 1
            try:
                await self.session.reconnect()
            except ServerError as exc:
                if exc.code in FINAL_CODES:
                    self.post_message(self.ConnectionDropped(exc.message, final=True))
                    return False
            except (OSError, ConnectionLost, TimeoutError):
                continue
            else:
                self.post_message(self.ConnectionRestored())
                return True
        return False

    def on_session_screen_updated(self, message: Updated) -> None:
        """Keep the newest state; subclasses react in ``watch_update``."""
        if not self.leaving:
            self.update = message.msg

    def on_session_screen_host_said(self, message: HostSaid) -> None:
        """Show the host's complaint."""
        self.notify(message.text, title="The host says", severity="warning", markup=False)

    def on_session_screen_connection_dropped(self, message: ConnectionDropped) -> None:
        """Show what went wrong, and whether we are trying to get back."""
        banner = self.query_one(Banner)
        if message.final:
            banner.update(f"⚠ {message.reason} — press Esc to go back to the menu")
        elif message.reason:
            banner.update(f"⚠ Connection to {self.session.where} lost ({message.reason}); "
                          "reconnecting…")
        banner.add_class("shown")

    def on_session_screen_connection_restored(self) -> None:
        """Hide the banner again."""
        self.query_one(Banner).remove_class("shown")
        self.notify("Reconnected: you have your seat back.")

    # ---- sending --------------------------------------------------------------

    @work(group="requests", exit_on_error=False)
    async def send(self, method: str, *args: Any, **kwargs: Any) -> None:
        """Make a request of the host; a refusal is shown, never raised."""
        try:
            await self.session.request(method, *args, **kwargs)
        except ServerError as exc:
            self.refused(method)
            self.notify(exc.message, title="Not possible", severity="error", markup=False)
        except ConnectionLost as exc:
            self.refused(method)
            self.notify(f"Not connected: {exc}", severity="error", markup=False)

    def refused(self, method: str) -> None:
        """A request of ours did not go through (subclasses may undo what they expected)."""

    # ---- helpers --------------------------------------------------------------

    @property
    def my_seat(self) -> int | None:
        """Our seat number, or ``None`` when watching."""
        return self.session.joined.seat if self.session.joined else None

    def action_leave(self) -> None:
        """Leave the table and go back to the menu (asking first while a game runs)."""
        table = (self.update or {}).get("table") or {}
        hosting = self.session.host is not None and self.session.host is getattr(
            self.app, "host", None
        )
        question = None
        if hosting and self.app.host.server is not None:  # type: ignore[attr-defined]
            question = ("You are hosting this table: leaving stops the host and ends the "
                        "game for everyone at it. Leave?")
        elif hosting and table.get("phase") == "play":
            question = "Leave this solo game? It ends here."
        elif table.get("phase") == "play" and self.my_seat is not None:
            question = ("Leave this game? Your seat stays yours: join the table again to "
                        "take it back.")
        if question:
            from tui.screens.dialogs import ConfirmScreen

            def answered(yes: bool | None) -> None:
                if yes:
                    self.leave()

            self.app.push_screen(ConfirmScreen(question, yes="Leave", no="Stay"), answered)
        else:
            self.leave()

    def leave(self) -> None:
        """Close the connection (and stop our own host) and return to the menu."""
        self.leaving = True
        self.app.run_worker(self._close(), group="close", exit_on_error=False)
        self.app.pop_screen()

    async def _close(self) -> None:
        await self.session.close()
        app_host = getattr(self.app, "host", None)
        if self.session.host is not None and self.session.host is app_host:
            await self.app.stop_host()  # type: ignore[attr-defined]
