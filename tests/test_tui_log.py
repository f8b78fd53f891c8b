"""The table's log (``TableLog``) shows and scrolls exactly as Textual's ``RichLog``, and a
new line asks for no layout of the screen once its scrollbar shows."""

from __future__ import annotations

import random

from textual.app import App, ComposeResult
from textual.containers import Horizontal
from textual.widgets import RichLog

from tui.widgets.log import TableLog

WORDS = ["played", "Kevin", "7", "drew", "a", "card", "GET", "OUT!", "💬", "naming",
         "◆", "Geoff", "round", "the", "played pile (23 cards) was turned over"]


class TwoLogs(App[None]):
    """A ``RichLog`` and a ``TableLog`` side by side, configured as the table's log."""

    CSS = "RichLog { width: 1fr; height: 1fr; border: round white; overflow-y: auto; }"

    def compose(self) -> ComposeResult:
        with Horizontal():
            yield RichLog(id="rich", wrap=True, markup=False, max_lines=40, min_width=20)
            yield TableLog(id="table", wrap=True, markup=False, max_lines=40, min_width=20)


def state(log: RichLog) -> tuple[object, ...]:
    """What the log shows and where it is scrolled to."""
    lines = [log.render_line(y).text for y in range(log.scrollable_content_region.height)]
    return (lines, [line.text for line in log.lines], log.virtual_size, log.scroll_offset,
            log.scrollbars_enabled, log.vertical_scrollbar.position,
            log.vertical_scrollbar.window_virtual_size, log.vertical_scrollbar.window_size)


def line(rng: random.Random) -> str:
    """A log line of 1 to 14 words: some fit, some wrap over two or three lines."""
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 14)))


async def test_the_table_log_draws_and_scrolls_as_richlog_does() -> None:
    rng = random.Random(7)
    app = TwoLogs()
    async with app.run_test(size=(70, 14)) as pilot:
        rich, table = app.query_one("#rich", RichLog), app.query_one("#table", TableLog)
        for n in range(70):  # past the scrollbar's coming and past max_lines
            text = line(rng)
            rich.write(text, scroll_end=True)
            table.write(text, scroll_end=True)
            if n % 3 == 0:
                await pilot.pause()
                assert state(table) == state(rich), n
            if n == 30:  # the wheel scrolls back; the next line scrolls to the end again
                rich.scroll_up(animate=False)
                table.scroll_up(animate=False)
                await pilot.pause()
                assert table.scroll_y < table.max_scroll_y
                assert state(table) == state(rich)
        await pilot.pause()
        assert state(table) == state(rich)
        await pilot.resize_terminal(50, 20)  # narrower: lines stay as they were wrapped
        await pilot.pause()
        assert state(table) == state(rich)


async def test_a_new_line_shows_in_the_same_frame_without_a_layout() -> None:
    app = TwoLogs()
    async with app.run_test(size=(70, 14)) as pilot:
        table = app.query_one("#table", TableLog)
        for n in range(20):
            table.write(f"line {n}", scroll_end=True)
        await pilot.pause()
        assert table.scrollbars_enabled == (True, False)
        layouts = table._layout_updates
        table.write("the newest line", scroll_end=True)
        # Scrolled to the end at once (RichLog waits for the next frame) ...
        assert table.scroll_y == table.max_scroll_y == table.virtual_size.height - 12
        last = table.scrollable_content_region.height - 1
        assert table.render_line(last).text.rstrip() == "the newest line"
        # ... and no layout was asked for: the scrollbar stays where it is.
        assert table._layout_updates == layouts
        assert not table._layout_required
