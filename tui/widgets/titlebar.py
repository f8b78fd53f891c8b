"""The title line at the top of every screen, drawn as Textual's ``Header`` draws it.

Textual's ``Header`` is four widgets (the header, its icon, its title, its clock's
space). A frame that changes anything draws again every widget whose container overlaps
the change, and the header sits directly on the screen: at a table its four widgets were
drawn at every key and every update, in every app at the table. This is one widget, with
the same look: the icon in the first eight cells, the title and subtitle centred
between, ten cells kept blank on the right. It follows the screen's title and subtitle
(or the app's, when the screen sets none) as ``Header`` does, and reads them as it draws,
so no title can change while its parts are being taken down (``Header``'s did, as an app
closed: its title's watcher looked for a part already removed).
"""

from __future__ import annotations

from textual.content import Content
from textual.widget import Widget

#: Cells of the icon on the left (with a cell of padding each side), and of the clock's
#: space on the right, as ``Header`` lays them out.
ICON_CELLS, CLOCK_CELLS = 8, 10
ICON = "⭘"


class TitleBar(Widget, can_focus=False):
    """The app's icon, the screen's title and subtitle, on one line at the top."""

    ALLOW_SELECT = False

    DEFAULT_CSS = """
    TitleBar {
        dock: top;
        width: 100%;
        height: 1;
        background: $panel;
        color: $foreground;
    }
    """

    def on_mount(self) -> None:
        for owner in (self.app, self.screen):
            self.watch(owner, "title", self._retitle, init=False)
            self.watch(owner, "sub_title", self._retitle, init=False)

    def _retitle(self) -> None:
        self.refresh()

    def title_content(self) -> Content:
        """The title and subtitle as the app formats them (``App.format_title``)."""
        screen, app = self.screen, self.app
        title = screen.title if screen.title is not None else app.title
        sub_title = screen.sub_title if screen.sub_title is not None else app.sub_title
        return app.format_title(title, sub_title)

    def render(self) -> Content:
        width = self.content_size.width
        room = max(0, width - ICON_CELLS - CLOCK_CELLS)
        icon = Content(f" {ICON}").pad_right(ICON_CELLS - 2)
        return Content.assemble(icon, self.title_content().center(room, ellipsis=True),
                                " " * CLOCK_CELLS)
