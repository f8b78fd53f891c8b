"""How the app opens: on the menu, or at the solo table of ``hiddenhand solo``.

A solo game asked for on the command line is dealt as the app loads, before any screen
is built (:meth:`Opening.deal`): its table is then the first screen painted, over a
:class:`~tui.screens.menu_to_come.MenuToCome` that builds the menu only when it is first
shown, not an empty menu laid out and painted first. A game that cannot start leaves the
menu as it always is, with a notice saying why. Whatever went wrong as the app opened (a
damaged settings file, a game that did not start) is said once the first screen is up
(:meth:`Opening.say_notice`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from tui.screens.menu_to_come import MenuToCome

if TYPE_CHECKING:
    from textual.notifications import SeverityLevel
    from textual.screen import Screen

    from tui.hosting import Hosting
    from tui.session import Session


class Opening:
    """What the app opens on, and what it has to say as it does.

    ``solo`` is the solo game of the command line (``{"game_id", "seats", "options"}``),
    if it asked for one; ``notice`` a problem met before the app started (shown as a
    warning).
    """

    def __init__(self, solo: dict[str, Any] | None, notice: str | None) -> None:
        self._solo = solo
        self.notice = notice
        self.severity: SeverityLevel = "warning"
        #: The solo game dealt as the app loaded, until the app sits down at it.
        self._table: Session | None = None

    async def deal(self, hosting: Hosting) -> None:
        """Deal the solo game of the command line on ``hosting``, if it asked for one; a
        game that cannot start becomes the notice, as an error."""
        if self._solo is None:
            return
        # Only a solo game from the command line needs the session this early.
        from tui.session import ConnectionLost, ServerError

        try:
            self._table = await hosting.deal_solo(
                self._solo["game_id"], self._solo["seats"], self._solo.get("options", {}))
            self.notice = hosting.unjournaled or self.notice
        except (ServerError, ConnectionLost) as exc:
            self.notice = f"Could not start the solo game: {exc}"
            self.severity = "error"

    def first_screen(self, box: object = None) -> Screen[Any]:
        """The bottom of the screen stack: the menu (not Textual's empty default with the
        menu pushed over it: one screen fewer to lay out before the first frame), or,
        under a dealt solo table, the :class:`MenuToCome` that keeps the menu's place."""
        if self._table is not None:
            return MenuToCome()
        # Not imported before a solo table's first frame, which does without the menu.
        from tui.screens.menu import menu_screen

        return menu_screen(box)

    def take_table(self) -> Session | None:
        """The solo game dealt as the app loaded, once (``None``: the app opens on the
        menu)."""
        table, self._table = self._table, None
        return table

    def say_notice(self, notify: Callable[..., None]) -> None:
        """Say what went wrong as the app opened, if anything did (an error stays longer)."""
        if self.notice:
            notify(self.notice, severity=self.severity,
                   timeout=10 if self.severity == "error" else 8, markup=False)
