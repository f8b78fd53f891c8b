"""``?`` during a Get It! round: the round's keys and signals in a panel over the log,
with the time left, which runs on while they are read; the seats and TO YOU stay in sight
(the whole rules, over the whole table, hid the clock and opened at the levels table)."""

from __future__ import annotations

import math
from collections.abc import Callable

from rich.markdown import Markdown
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.geometry import Region
from textual.screen import ModalScreen
from textual.widgets import Static

from tui.screens.rules import rules_text
from tui.screens.styled import StyledOnce
from tui.widgets.footer import TableFooter

#: The fewest lines the panel takes: over a log shorter than this (a round with the talk
#: line open on a small terminal) it takes the bottom of the screen, more than the log.
MIN_HEIGHT = 5
#: The sections of the rules text a player needs in a round.
SECTIONS = ("## In a round", "## Signals")


def round_sections(text: str) -> str:
    """The rules' in-round sections (keys first), from the rules text itself."""
    parts = {}
    for block in text.split("\n## "):
        heading = "## " + block.split("\n", 1)[0].removeprefix("## ")
        parts[heading] = "## " + block.removeprefix("## ")
    return "\n\n".join(parts[s].strip() for s in SECTIONS if s in parts)


class RoundHelp(StyledOnce, ModalScreen[bool]):
    """The round's keys and signals in a panel over the log, the time left on its first
    line. Dismissed with ``True`` when the player asks for the whole rules."""

    DEFAULT_CSS = """
    RoundHelp { align: center bottom; background: $background 0%; }
    RoundHelp > Vertical {
        width: 100%; max-width: 100; height: 45%; min-height: 8;
        border: round $accent; background: $surface; padding: 0 1;
    }
    RoundHelp #help-timer { text-style: bold; height: auto; }
    RoundHelp VerticalScroll { height: 1fr; }
    """

    BINDINGS = [
        Binding("escape", "dismiss(False)", "Back to the round"),
        Binding("question_mark", "dismiss(False)", "Back", show=False),
        Binding("r", "dismiss(True)", "All the rules"),
        # Said where the text is longer than its room (a phone's: nothing said PgDn
        # read on, where the Rules screen says ↑↓).
        # (Over the text's own keys, as the Rules screen's, so that the footer says them.)
        Binding("down", "scroll_help(1)", "Scroll", key_display="↑↓", priority=True),
        Binding("up", "scroll_help(-1)", "Scroll", show=False, priority=True),
    ]

    def action_scroll_help(self, lines: int) -> None:
        self.query_one(VerticalScroll).scroll_relative(y=lines, animate=False, immediate=True)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The scroll keys only where there is more to read."""
        if action == "scroll_help":
            return self.query_one(VerticalScroll).max_scroll_y > 0
        return True

    def __init__(self, left: Callable[[], float | None], over: Region | None = None) -> None:
        super().__init__()
        #: Seconds left in the round now (``None``: untimed).
        self.left = left
        #: Where the table's log is on the screen: the panel covers it and nothing else
        #: (at 80×24, 45% of the screen from the bottom hid TO YOU and your own line).
        self.over = over

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("", id="help-timer", markup=False)
            with VerticalScroll():
                yield Static(Markdown(round_sections(rules_text("getit"))))
        yield TableFooter()

    def on_mount(self) -> None:
        if self.over is not None and self.over.height >= MIN_HEIGHT:
            panel = self.query_one(Vertical).styles
            self.styles.align = ("left", "top")
            panel.offset = (self.over.x, self.over.y)
            panel.width, panel.height = self.over.width, self.over.height
            panel.max_width = self.over.width
        self.tick()
        self.call_after_refresh(self.refresh_bindings)  # (laid out: is there more below?)

    def tick(self) -> None:
        """Say the time left, as the table's timer does, and again as its second changes
        (a tick every half second ran up to that much behind the table's timer)."""
        left = self.left()
        if left is None:
            words = "Untimed round · Esc: back to the round"
        else:
            minutes, seconds = divmod(int(left + 0.999), 60)
            words = f"⏳ {minutes}:{seconds:02d} left — the timer runs while you read · Esc: back"
        self.query_one("#help-timer", Static).update(words)
        if left is not None and left > 0:
            self.set_timer((left - math.floor(left) or 1.0) + 0.005, self.tick)
