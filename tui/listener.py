"""The table's listener: reads what the host pushes and hands it on as messages.

A player at a table (or watching one) has one :class:`~tui.session.Session`; one
:class:`Listener` reads it. :meth:`Listener.listen` runs in the app's worker (group
``"listen"``, one at a time) for as long as that session is the app's table: it posts
every view, chat line and complaint of the host to the screen at the table, and when
the line drops it reconnects with the seat's token, saying so on the way
(:class:`~tui.messages.ConnectionDropped`, :class:`~tui.messages.ConnectionRestored`).
It never touches a screen itself: ``post`` (the app's) finds the screen at the table.
A worker that fails is reported, never silent, and started again a few times
(:meth:`Listener.failed`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

from textual.message import Message

from tui.messages import (
    ChatReceived,
    ConnectionDropped,
    ConnectionRestored,
    HostSaid,
    ReviewReceived,
    ViewReceived,
)

# The session (and with it the client and the wire format) is imported where one is
# read, not before the menu's first frame (scripts/bench_startup.py).
if TYPE_CHECKING:
    from tui.session import Session

#: Seconds between reconnection attempts: the first few quick, then every 5 s.
RETRY_DELAYS = (0.5, 1.0, 2.0, 3.0, 5.0)
#: Reconnection attempts before giving up (about a minute with the delays above).
MAX_ATTEMPTS = 16
#: What the host sends of a review the table follows (``net.shared_review``).
REVIEW_FRAMES = frozenset({"review_moves", "review", "review_at", "review_state",
                           "review_closed"})
#: Restarts of a failed listener in a row before the app stops trying.
MAX_RESTARTS = 3

log = logging.getLogger("hiddenhand.app")


class Listener:
    """Reads the app's one table session; ``post`` delivers what it reads (to the screen
    at the table), ``alert`` tells the player the listener itself failed (the text, and
    how many seconds it shows: ``None`` for the app's default)."""

    def __init__(self, post: Callable[[Message], None],
                 alert: Callable[[str, float | None], None]) -> None:
        self._post = post
        self._alert = alert
        #: The table we sit at (or watch), if any; only this one is read.
        self.session: Session | None = None
        #: Failures of the listener in a row (a message read resets it).
        self.restarts = 0

    def follow(self, session: Session | None) -> bool:
        """Make ``session`` the one to read (``None``: none). True if it is another
        session than before (its old reader must stop)."""
        changed = self.session is not session
        self.session = session
        self.restarts = 0
        return changed

    def failed(self, error: BaseException | None) -> bool:
        """The worker running :meth:`listen` failed with ``error``: log it and say so.
        True if it must be started again (the table is still followed, and it has not
        failed more than :data:`MAX_RESTARTS` times in a row); after that the screen at
        the table hears that the connection is gone for good."""
        log.error("the table's listener failed", exc_info=error)
        if self.session is None:
            return False
        self.restarts += 1
        if self.restarts > MAX_RESTARTS:
            self._alert(f"Stopped listening to the table after repeated errors: {error}", 15)
            self._post(ConnectionDropped(f"this app failed: {error}", final=True))
            return False
        self._alert(f"Listening to the table failed ({error}); listening again.", None)
        return True

    async def listen(self, session: Session) -> None:
        """Read the host's pushes while ``session`` is the table; on a drop, reconnect."""
        # (Loaded with the first table, not before the menu's first frame: see above.)
        from net.wire import errors
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
            self.restarts = 0
            kind = msg.get("type")
            if kind == "update":
                self._post(ViewReceived(msg))
            elif kind == "chat":
                self._post(ChatReceived(msg))
            elif kind in REVIEW_FRAMES:
                self._post(ReviewReceived(msg))
            elif kind == "error" and msg.get("code") in FINAL_CODES:
                if msg.get("code") == errors.KICKED:
                    # (The menu said "Your seat at Ann's table is kept" to a player the
                    # creator had just removed: its token is no use any more.)
                    table = ((session.latest or {}).get("table") or {}).get("id")
                    if isinstance(table, str):
                        session.forget_seat(table)
                self._post(ConnectionDropped(str(msg.get("message")), final=True))
                return
            elif kind == "error" and msg.get("code") == errors.SHUTTING_DOWN:
                stopped = str(msg.get("message"))  # the banner says it as we reconnect
            elif kind == "error":
                self._post(HostSaid(str(msg.get("message"))))

    async def _reconnect(self, session: Session, reason: str) -> bool:
        """Take our seat back after a drop: True once back, False if it is over (the
        host said no for good, it stopped answering, or the player left)."""
        # (Loaded with the first table, not before the menu's first frame: see above.)
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
