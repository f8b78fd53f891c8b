"""The empty bottom screen under a solo table opened from the command line.

``hiddenhand solo`` deals the game as the app loads, and the table is the first screen
painted; the menu a player comes back to is built only then (:class:`MenuToCome`).
"""

from __future__ import annotations

from textual import events
from textual.screen import Screen

from tui.screens.styled import StyledOnce


class MenuToCome(StyledOnce, Screen[None]):
    """The bottom of the screens under a solo table opened from the command line: an
    empty screen that opens the menu over itself once the table is left. The table's
    first frame does not wait for the menu's module, widgets and layout, that nobody
    sees yet. (Textual cannot switch the bottom screen for another, so this one stays
    under the menu.)"""

    def __init__(self) -> None:
        super().__init__()
        self._covered = False

    def on_screen_suspend(self) -> None:
        """The table covers it."""
        self._covered = True

    def on_screen_resume(self, event: events.ScreenResume) -> None:
        """Back from under the table: the menu, built now, goes over it."""
        if self._covered:
            # The point of this screen: the menu's module is loaded only now.
            from tui.screens.menu import menu_screen

            self.app.push_screen(menu_screen(getattr(self.app, "box", None)))
