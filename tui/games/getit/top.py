"""The line over the Get It! table: level, attempt, cards left, the record — and the sand
timer beside it."""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widgets import Static

from tui.games.getit.text import status_line
from tui.games.getit.timer import BAR, SHORT_BAR, SandTimer
from tui.widgets.text import set_text

#: Below this width the line says it in fewer words (beside the timer).
SHORT_STATUS = 90
#: Below this width (a phone) the timer's bar is shorter, to leave the words room.
SHORT_TIMER = 60


class StatusWords(Static):
    """The line's words: they fit the room the timer leaves them, which changes with
    the terminal's width and the timer's own text."""

    def on_resize(self) -> None:
        if isinstance(self.parent, TopLine):
            self.parent.refit()


class TopLine(Horizontal):
    """The table's top line and its sand timer."""

    _shown: tuple[dict[str, Any], dict[str, Any]] | None = None

    def compose(self) -> ComposeResult:
        yield StatusWords("", id="getit-status", markup=False)
        yield SandTimer(id="timer")

    def show(self, msg: dict[str, Any], view: dict[str, Any]) -> None:
        """Show the update ``msg`` (its ``view``): the words, and the round's time."""
        self._shown = (msg, view)
        table = msg.get("table") or {}
        self.refit()
        timer = self.query_one(SandTimer)
        remaining = view.get("remaining")
        timer.total = float(view.get("timer") or 60)
        timer.paused = bool(table.get("paused"))
        timer.why_paused = "paused"
        timer.remaining = (float(remaining) if view.get("phase") == "play"
                           and isinstance(remaining, int | float) else None)

    def refit(self) -> None:
        """Word the line for the room it has now (and the timer's bar for the width)."""
        width = self.screen.size.width
        self.query_one(SandTimer).cells = SHORT_BAR if width < SHORT_TIMER else BAR
        if self._shown is None:
            return
        msg, view = self._shown
        best = ((msg.get("table") or {}).get("options") or {}).get("best")
        # A game over says the record it set ("no record yet" stood over "New record").
        result = view.get("result")
        if isinstance(result, dict) and result.get("best") is not None:
            best = result["best"]
        status = self.query_one("#getit-status", Static)
        set_text(status, status_line(view, best, short=width < SHORT_STATUS,
                                     room=status.size.width))

    def on_resize(self) -> None:
        """In fewer words on a narrow terminal, in full on a wide one. (Only the words:
        the timer counts down from the host's reading, and given it again at a resize
        it counted from then, seconds behind the host's for the rest of the round.)"""
        self.refit()
