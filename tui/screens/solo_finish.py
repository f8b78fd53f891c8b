"""What a table does once we are out of a solo game while the bots play on.

:class:`SoloFinishScreen` sits between :class:`~tui.screens.base.SessionScreen` and the
creator's part of a table (``tui.screens.table_creator``): once out, it offers (once) to
let the bots finish at full speed, or to leave with the result (the bots finish at once,
undrawn, and the app says how it ended), and takes the offer away again when it no
longer holds.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tui.screens.base import SessionScreen
from tui.session import Session

if TYPE_CHECKING:
    from textual.screen import Screen

    from tui.screens.summary import SummaryScreen


class SoloFinishScreen(SessionScreen):
    """A table screen's part for finishing a solo game we are out of (see the module)."""

    #: The open end-of-round summary, if any (no offer opens over it).
    summary_screen: SummaryScreen | None = None

    def __init__(self, session: Session) -> None:
        super().__init__(session)
        #: (Solo, once we are out) the bots play on at full speed.
        self.finishing = False
        #: The "you are out: finish fast or leave?" question was asked already.
        self.offered_finish = False
        #: (Solo, once out) leave as soon as the bots have finished, with the result.
        self.leave_at_end = False

    def out_of_game(self) -> bool:
        """True when we are out while the others play on (override)."""
        return False

    def standings(self) -> str | None:
        """Where the game stands, in a line for leaving early (override)."""
        return None

    def can_finish(self) -> bool:
        """True if the bots may be told to finish at full speed now (solo, and we are out)."""
        return (not self.finishing and self.table.get("phase") == "play"
                and self.app.hosting.plays_solo(self.session) and self.out_of_game())

    def _offer_finish(self) -> None:
        """Once out of a solo game, ask (once) whether to watch the bots play it out."""
        if self.offered_finish or self.summary_screen is not None or not self.can_finish():
            return
        # Loaded when a dialog first opens, not before the table's first frame.
        from tui.screens.dialogs import ChoiceScreen

        self.offered_finish = True
        choices = [("fast", "Let the bots finish at full speed"),
                   ("leave", "Leave with the result (the bots finish at once)"),
                   ("watch", "Keep watching at their pace (f: full speed later)")]

        def chosen(answer: str | None) -> None:
            if answer == "fast":
                self.action_finish()
            elif answer == "leave":
                self.leave_with_result()

        self._finish_offer = ChoiceScreen("You are out of this game; the bots play on.",
                                          choices)
        self.app.push_screen(self._finish_offer, chosen)

    #: The question of ``_offer_finish`` while it is on screen.
    _finish_offer: Screen[Any] | None = None

    def _withdraw_finish_offer(self) -> None:
        """The game ended (or the offer no longer holds) while the question was up
        unanswered: take it away, so that the summary does not open over it."""
        offer = self._finish_offer
        if offer is None:
            return
        if not offer.is_attached:
            self._finish_offer = None
        elif not self.can_finish() and self.app.screen is offer:
            self._finish_offer = None
            offer.dismiss(None)

    def finish_forgotten(self) -> None:
        """A new game at the table (a rematch): the bots at their pace again, and the
        offer to be made again once we are out (the last game's full speed raced
        through the rematch, its round summaries and its offer unseen)."""
        if self.finishing:
            self.app.hosting.bots_full_speed(self.session, False)
        self.finishing = self.offered_finish = self.leave_at_end = False

    def action_finish(self) -> None:
        """(Solo, once out) let the bots play the rest of the game without pauses."""
        if self.can_finish() and self.app.hosting.bots_full_speed(self.session):
            # (No toast: it came as the race ended, twice over the summary's.)
            self.finishing = True
            self.refresh_bindings()

    def leave_with_result(self) -> None:
        """(Solo, once out) let the bots finish without drawing a move, then leave and say
        how the game ended."""
        if not self.can_finish() or not self.app.hosting.bots_full_speed(self.session):
            self.leave()
            return
        self.finishing = self.leave_at_end = True
        self.notify("The bots finish the game; its result follows in a moment.")
        self._left_at_end()

    def _left_at_end(self) -> None:
        """Once the game is over (or the table gone), leave with its result."""
        phase = self.table.get("phase")
        if phase == "play" and (self.update or {}).get("view") is not None:
            return
        result = self.standings() if phase == "over" else None
        self.leave()
        self.app.notify(result or "You left the game.", title="The game is over",
                        timeout=15, markup=False)
