"""Which games have a table screen in the app, and how to open the right one.

The menu, the setup form and the lobby offer exactly the games listed in ``TABLES``:
adding a game to the app is writing its table screen and adding it here.
"""

from __future__ import annotations

from tui.screens.base import SessionScreen
from tui.screens.getout import GetOutScreen
from tui.session import Session

TABLES: dict[str, type[SessionScreen]] = {
    "getout": GetOutScreen,
}


def table_screen(session: Session) -> SessionScreen:
    """The table screen for the game the session's table plays."""
    assert session.latest is not None
    game_id = session.latest["table"]["game"]
    return TABLES[game_id](session)
