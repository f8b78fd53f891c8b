"""The title line: one widget drawn as Textual's ``Header`` draws it, following the
screen's title and subtitle."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.widgets import Header, Static

from tests.tui_support import screen_text
from tui.widgets.titlebar import TitleBar


def line(app: App[None]) -> str:
    """The screen's first line as text."""
    return screen_text(app).split("\n")[0]


class Titled(App[None]):
    TITLE = "hiddenhand"
    SUB_TITLE = "party games"

    def __init__(self, header: type[Header] | type[TitleBar]) -> None:
        super().__init__()
        self.header = header

    def compose(self) -> ComposeResult:
        yield self.header()
        yield Static("body")


async def test_the_title_line_reads_as_textuals_header_and_follows_the_titles() -> None:
    drawn = {}
    for header in (Header, TitleBar):
        app = Titled(header)
        async with app.run_test(size=(60, 5)) as pilot:
            await pilot.pause()
            drawn[header] = line(app)
    assert drawn[TitleBar] == drawn[Header]
    assert drawn[TitleBar].startswith(" ⭘      ") and "hiddenhand — party games" in drawn[TitleBar]

    app = Titled(TitleBar)
    async with app.run_test(size=(40, 5)) as pilot:
        bar = app.query_one(TitleBar)
        assert len(app.screen.query(Static)) == 1  # (one widget, no parts of its own)
        app.screen.sub_title = "GET OUT! · a long subtitle that cannot fit"
        await pilot.pause()
        text = line(app)
        assert text.rstrip().endswith("…") and len(text) == 40, text
        app.title = "hh"
        app.screen.sub_title = None  # (the app's subtitle again)
        await pilot.pause()
        assert "hh — party games" in line(app)
        assert bar.title_content().plain == "hh — party games"

