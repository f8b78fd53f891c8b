"""Messages the app's one connection worker posts to the screen at the table, and the
one that screen posts up to the app.

Named as past events (or ``...Requested``), as the house style asks. The worker
(``HiddenHandApp.listen``) reads the host's pushes for the app's one session and posts
these to the topmost session screen (the lobby or a table), whose ``@on`` handlers own
what is shown. When the table moves on, the screen asks the app for the next one
(:class:`HandOverRequested`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual.message import Message

if TYPE_CHECKING:
    from tui.session import Session


class ViewReceived(Message):
    """The host pushed a new state of the table (``msg`` is the whole ``update``)."""

    def __init__(self, msg: dict[str, Any]) -> None:
        super().__init__()
        self.msg = msg


class ChatReceived(Message):
    """Somebody at the table said something in the chat."""

    def __init__(self, msg: dict[str, Any]) -> None:
        super().__init__()
        self.msg = msg


class ReviewReceived(Message):
    """The table's shared review said something (``review_moves``, ``review``,
    ``review_at`` or ``review_closed``: ``net.shared_review``)."""

    def __init__(self, msg: dict[str, Any]) -> None:
        super().__init__()
        self.msg = msg


class ConnectionDropped(Message):
    """The line to the host is down; reconnection is under way (or, if ``final``, hopeless)."""

    def __init__(self, reason: str, final: bool) -> None:
        super().__init__()
        self.reason = reason
        self.final = final


class ConnectionRestored(Message):
    """We are back in our seat after a drop."""


class HostSaid(Message):
    """The host sent a complaint that needs no reconnection (shown as a toast)."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text


class HandOverRequested(Message):
    """The screen at the table is done with it as it is now (the game started, or the
    table went back to its lobby): the screen the table needs now must take its place
    (:func:`tui.games.screens.screen_for`)."""

    def __init__(self, session: Session) -> None:
        super().__init__()
        self.session = session
