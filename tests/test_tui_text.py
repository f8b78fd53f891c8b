"""``set_text`` lays the screen out again only when a text's new content changes its size."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.widgets import Static

from tests.tui_support import count_layouts
from tui.widgets.text import set_text


class Texts(App[None]):
    """A line of fixed height, a text of auto height, and one of auto width."""

    CSS = """
    #line { height: 1; }
    #auto { width: 20; }
    #narrow { width: auto; }
    """

    def compose(self) -> ComposeResult:
        yield Static("one", id="line")
        yield Static("short", id="auto")
        yield Static("x", id="narrow")


async def test_set_text_relayouts_only_when_the_size_may_change() -> None:
    app = Texts()
    async with app.run_test(size=(40, 12)) as pilot:
        line, auto, narrow = (app.query_one(f"#{i}", Static) for i in ("line", "auto", "narrow"))

        await pilot.pause()
        counts = [count_layouts(w) for w in (line, auto, narrow)]

        def layouts() -> tuple[int, ...]:
            return tuple(count() for count in counts)

        before = layouts()
        assert not set_text(line, "one")  # unchanged: nothing done
        assert set_text(line, "a much longer line than the box is wide, cut off")
        assert set_text(auto, "other")  # still one line at 20 columns
        assert layouts() == before  # (counted from the pause: none pending either)
        await pilot.pause()
        assert str(line.render_line(0).text).startswith("a much longer line")
        assert str(auto.render_line(0).text).rstrip() == "other"

        # More lines at the same width: the box grows, so the screen is laid out.
        set_text(auto, "a text that wraps over three lines at twenty")
        assert layouts()[1] == before[1] + 1
        await pilot.pause()
        assert auto.size.height == 3
        # Auto width: any change may resize the box.
        set_text(narrow, "wider")
        assert layouts()[2] == before[2] + 1
        await pilot.pause()
        assert narrow.size.width == 5
