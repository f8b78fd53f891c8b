"""A widget that draws its text line by line, turning only the lines that changed into strips.

Textual turns a widget's whole ``render()`` into strips at every repaint. A Got Five!
rack or the others' racks change a line or two an update (whose turn it is, a new clue),
and turning the rest of their text into strips again costs as much each time.
:class:`TextLines` is for a widget whose ``render()`` gives a ``Text`` that neither
wraps nor aligns (``no_wrap``, cropped, left-aligned): it draws it through the line API,
keeping each line's strip for as long as that line's text and the width stay the same.
It draws the same cells, in the same styles, as Textual draws the text, with one
difference: a line longer than the widget is cropped, as the text's ``no_wrap`` asks
(Textual's own drawing ignores it and wraps the line, by the ``text-wrap`` rule).
"""

from __future__ import annotations

from typing import Any

from rich.style import Style
from rich.text import Text
from textual.geometry import Size
from textual.strip import Strip
from textual.widget import Widget


class TextLines(Widget):
    """Draws ``render()``'s text line by line, with the strips of unchanged lines kept."""

    #: ``render()``'s lines since the last repaint was asked for (``None``: stale), and
    #: the size they were rendered at (a new size is no ``refresh``, only a repaint).
    _text_lines: list[Text] | None = None
    _text_size: Size | None = None
    #: A line's strip by (its text, its spans, the width), from the last repaint.
    _line_strips: dict[tuple[object, ...], Strip] | None = None

    def refresh(self, *regions: Any, repaint: bool = True, layout: bool = False,
                recompose: bool = False) -> Any:
        """Ask for a repaint (as ``Widget.refresh``): the text is rendered again."""
        if repaint:
            self._text_lines = None
        return super().refresh(*regions, repaint=repaint, layout=layout, recompose=recompose)

    def notify_style_update(self) -> None:
        """New styles (a theme): every line is drawn again with them."""
        super().notify_style_update()
        self._text_lines = None
        self._line_strips = None

    def render_line(self, y: int) -> Strip:
        """Line ``y`` of the text (the line API)."""
        if self._text_lines is None or self._text_size != self.size:
            self._text_size = self.size
            rendered = self.render()
            text = rendered if isinstance(rendered, Text) else Text(str(rendered))
            self._text_lines = list(text.split("\n", allow_blank=True))
        width = self.size.width
        base = self.rich_style
        if y >= len(self._text_lines):
            return Strip.blank(width, base)  # below the text, as Textual draws it
        line = self._text_lines[y]
        key = (line.plain, tuple(line.spans), str(line.style), width)
        kept = self._line_strips if self._line_strips is not None else {}
        strip = kept.get(key)
        if strip is None:
            if line.cell_len > width:
                # Cropped as Textual crops a line too long: cut, then its trailing spaces.
                line = line.copy()
                line.truncate(width, overflow="crop")
                line.rstrip()
            # Padded with the background alone, as Textual pads a rendered text.
            strip = (Strip(line.render(self.app.console, end=""), line.cell_len)
                     .apply_style(base).crop_extend(0, width, Style(bgcolor=base.bgcolor))
                     .simplify())
            if len(kept) > 4 * max(1, self.size.height):
                kept = {}  # (only recent lines are kept)
            kept[key] = strip
        self._line_strips = kept
        return strip
