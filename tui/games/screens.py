"""Which screen shows a table: its lobby, or the table screen of the game it plays.

The table screens are loaded by name from the registry (:data:`tui.games.TABLES`) when a
table first opens, not before the menu's first frame, and only the game's own. A screen
at a table never names another: when its table moves on (the game starts, or goes back
to its lobby) it asks the app for the screen the table needs now
(:class:`~tui.messages.HandOverRequested`), and the app takes it from here.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from tui.games import TABLES

if TYPE_CHECKING:
    from tui.screens.base import SessionScreen
    from tui.screens.table import TableScreen
    from tui.session import Session


def screen_class(game_id: str) -> type[TableScreen]:
    """The table screen class of ``game_id`` (``KeyError`` if the app cannot play it)."""
    module, _, name = TABLES[game_id].partition(":")
    cls: type[TableScreen] = getattr(importlib.import_module(module), name)
    return cls


def table_screen(session: Session) -> TableScreen:
    """The table screen for the game the session's table plays."""
    assert session.latest is not None
    return screen_class(session.latest["table"]["game"])(session)


def screen_for(session: Session) -> SessionScreen:
    """The screen the session's table needs as it is now: its lobby while it is in the
    lobby, else its game's table screen."""
    latest = session.latest or {}
    if (latest.get("table") or {}).get("phase") == "lobby":
        # Loaded when a lobby is first shown: a solo table opens without it.
        from tui.screens.lobby import LobbyScreen

        return LobbyScreen(session)
    return table_screen(session)
