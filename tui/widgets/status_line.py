"""A table's turn line, which also says why a key did nothing.

A toast saying why ("Shirley 3 does not match the call card…", "It is Bot 2's turn")
covered the scores and the log at 80×24 (in Got Five!, the clue just given), and stayed
after the turn had passed. The line over the hand or the board is where the player is
looking when a key does nothing: a warning takes it for a few seconds, marked ✗ (so it is
no colour's alone), then the turn's own words come back. It goes at once when it no
longer holds (the turn moved on, a dialog opened, the round ended).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from rich.cells import cell_len
from textual import events
from textual.timer import Timer
from textual.widgets import Static

from tui.widgets.text import set_text

#: How long a warning holds the line, unless the table moves past it first.
WARNING_SECONDS = 5.0
#: What marks a warning (in a monochrome terminal too).
MARK = "✗ "


class StatusLine(Static):
    """The turn line, worded for its width: a new width words it anew (once the line has
    it: asked after the screen's resize, it could still have its old width). A warning
    (:meth:`warn`) stands in for the turn's words until it expires or is dropped."""

    def __init__(self, redraw: Callable[[], None], **kwargs: Any) -> None:
        super().__init__("", markup=False, **kwargs)
        self._redraw = redraw
        #: The warning's wordings, longest first, while it holds the line.
        self.warning: tuple[str, ...] = ()
        self._expiry: Timer | None = None
        #: The moment of the game last shown (whose turn, which step), and the one a
        #: warning was given at: it holds only while that moment lasts.
        self._moment: object = None
        self._warned_at: object = None
        #: The words on the line now.
        self.shown = ""

    def on_resize(self) -> None:
        self._redraw()

    def warn(self, *wordings: str) -> None:
        """Say why a key did nothing, in the first of ``wordings`` that fits the line."""
        self.warning, self._warned_at = wordings, self._moment
        if self._expiry is not None:
            self._expiry.stop()
        self._expiry = self.set_timer(WARNING_SECONDS, self.drop_warning)
        self._redraw()

    def drop_warning(self) -> None:
        """The turn's own words again (the warning expired, or no longer holds)."""
        if self._forget():
            self._redraw()

    def _forget(self) -> bool:
        """Drop the warning, without drawing; whether there was one."""
        if self._expiry is not None:
            self._expiry.stop()
            self._expiry = None
        had, self.warning = bool(self.warning), ()
        return had

    def show(self, text: str, *, my_turn: bool, warnable: bool = True,
             moment: object = None) -> None:
        """Show the turn's ``text``, unless a warning holds the line: only while
        ``warnable`` (a round's end, a table gone, are never hidden by one), and while the
        game's ``moment`` (whose turn, which step: any value) is the one it was given at
        ("It is Bot 2's turn" is not so once it is Bot 3's)."""
        self._moment = moment
        if not warnable or moment != self._warned_at:
            self._forget()
        warned = bool(self.warning)
        if warned:
            width = self.content_region.width or cell_len(MARK + self.warning[0])
            text = next((MARK + w for w in self.warning if cell_len(MARK + w) <= width),
                        MARK + self.warning[-1])
        self.shown = text
        set_text(self, text)  # a line of height 1: no relayout
        self.set_class(warned, "warned")
        self.set_class(my_turn and not warned, "my-turn")

    def word_at(self, event: events.MouseEvent) -> str | None:
        """The word of the line under a click or tap ("Sort": it reads as a button)."""
        offset = event.get_content_offset(self)
        if offset is None or offset.y != 0:
            return None
        for found in re.finditer(r"\w+", self.shown):
            if cell_len(self.shown[:found.start()]) <= offset.x < cell_len(
                    self.shown[:found.end()]):
                return found[0]
        return None
