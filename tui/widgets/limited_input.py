"""A text field with a length limit that says so when it cuts.

Textual's ``max_length`` refuses a paste longer than the limit with only the bell (or
cuts nothing and leaves the player guessing); here whatever arrives is kept up to the
limit, and a notice says that the rest was cut and what the limit is.
"""

from __future__ import annotations

from typing import Any

from textual.widgets import Input

from tui.widgets.text_line import TextLine


class LimitedInput(TextLine):
    """An ``Input`` of at most ``limit`` characters; ``what`` names it in the notice
    ("Name cut to 24 characters")."""

    def __init__(self, value: str | None = None, *, limit: int, what: str,
                 **kwargs: Any) -> None:
        super().__init__(value, **kwargs)
        self.limit = limit
        self.what = what
        #: What Enter does, in the footer's words, and whether it is lit (``TableFooter``).
        self.footer_send = ("Send", True)

    def on_input_changed(self, event: Input.Changed) -> None:
        """Cut what is over the limit, and say so (the field's own change comes next)."""
        if len(self.value) > self.limit:
            event.stop()
            self.value = self.value[:self.limit]
            self.notify(f"{self.what} cut to {self.limit} characters (the most it may have).",
                        severity="warning", markup=False)
