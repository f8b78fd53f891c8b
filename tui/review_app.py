"""``hiddenhand replay``'s app: one game's review on its own, gone when it is closed."""

from __future__ import annotations

from typing import Any

from textual.app import App
from textual.screen import Screen

from engine.record import Replay
from tui.screens.review import ReviewScreen
from tui.widgets.footer_keys import ScreenKeyDisplay


class ReviewApp(ScreenKeyDisplay, App[None]):
    """Reviews one finished game; Esc on the review quits."""

    TITLE = "hiddenhand"
    SUB_TITLE = "review"
    ENABLE_COMMAND_PALETTE = False

    def __init__(self, record: dict[str, Any], replay: Replay, where: str = "") -> None:
        super().__init__()
        self._review = (record, replay, where)

    def get_default_screen(self) -> Screen[Any]:
        record, replay, where = self._review
        return ReviewScreen(record, replay, title=where)
