"""The table's log: Textual's ``RichLog`` without a relayout of the screen per line.

``RichLog.write`` sets the log's ``virtual_size``, a reactive with ``layout=True``: every
line asks Textual to lay out the whole screen again, and its scroll to the end waits for
the frame after (``call_after_refresh``), so each new line costs two frames, the second
repainting the whole log and its scrollbar. A log is a ``ScrollView``: its size on the
screen does not follow its lines; only its scrollbars appearing or going (the lines
outgrow it, or it grows wider than them) need a layout. :class:`TableLog` lays out then,
as ``RichLog`` does, and otherwise fits its scrollbars and scrolls to the end at once, in
the same frame as the line. When a new line scrolls the log, the rows it only moves up
keep their drawing (:meth:`TableLog.render_lines`); only rows that show a line they did
not show before are drawn, and the log's style is looked up once per frame.

A log that shows its newest line keeps showing it when its box changes size (a
``RichLog`` keeps its scroll offset, so a shorter box hides the newest lines), and its
lines wrap again for a new width (a ``RichLog`` keeps them as first wrapped: lines
written wide are cut in a narrower log, with a scrollbar across).
Otherwise what a player sees and can do is ``RichLog``'s: the lines are rendered, wrapped,
trimmed to ``max_lines`` and drawn as ``RichLog`` does; the wheel, the scrollbar and the
keys scroll it as before. It is a ``ScrollView`` with what it needs of ``RichLog``, not a
subclass: importing ``RichLog`` imports ``rich.pretty`` (for writing any Python value),
which the table's first frame need not wait for; a table writes text.
"""

from __future__ import annotations

from collections import deque
from typing import Any, NamedTuple

from rich.console import RenderableType
from rich.measure import measure_renderables
from rich.protocol import is_renderable
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.cache import LRUCache
from textual.events import Resize
from textual.geometry import Region, Size
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.widget import Widget

from tui.widgets.scrollbars import fit_scrollbars, scrollbars_for


class DeferredRender(NamedTuple):
    """A write that waits for the log's size to be known (``RichLog``'s)."""

    content: RenderableType
    width: int | None = None
    expand: bool = False
    shrink: bool = True
    scroll_end: bool | None = None


class TableLog(ScrollView, can_focus=True):
    """A ``RichLog`` whose new lines repaint it (and its scrollbar) without a layout,
    and whose lines wrap again to a new width. It writes text and Rich renderables
    (``RichLog`` also writes any other value, pretty-printed)."""

    # RichLog's own.
    DEFAULT_CSS = """
    TableLog {
        background: $surface;
        color: $foreground;
        overflow-y: scroll;
        &:focus {
            background-tint: $foreground 5%;
        }
    }
    """

    #: The log's drawn rows, by (absolute line, scroll x, crop x, crop width, width),
    #: for rows that a new line only moves up (see :meth:`render_lines`).
    _drawn_rows: dict[tuple[int, int, int, int, int], Strip]
    #: The width the lines were wrapped for, and the widths wrapped for since the last
    #: line came or the box changed size (a scrollbar that comes and goes with a new
    #: wrap must not loop).
    _wrapped_at: int | None = None
    _wrap_widths: set[int]
    #: The log's size when it last changed (its box, not its lines or scrollbars).
    _wrap_box: Size | None = None
    #: The log's style while its rows are drawn (one look at it per frame).
    _line_style: Style | None = None
    #: The player scrolled back to read: a table writes its new lines without pulling
    #: the view to the end, until the player is back at the end. (Lines only ever scroll
    #: the log down, to the end: a move up is the player's wheel or scrollbar.)
    reading = False

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        """Note whether the player scrolled back (see ``reading``)."""
        super().watch_scroll_y(old_value, new_value)
        if new_value < old_value:
            self.reading = True
        if new_value >= self.max_scroll_y:
            self.reading = False

    def __init__(self, *, max_lines: int | None = None, min_width: int = 78,
                 wrap: bool = False, markup: bool = False, auto_scroll: bool = True,
                 name: str | None = None, id: str | None = None,
                 classes: str | None = None, disabled: bool = False) -> None:
        """``RichLog``'s arguments (but ``highlight``)."""
        super().__init__(name=name, id=id, classes=classes, disabled=disabled)
        #: At most this many lines are kept (``None``: all).
        self.max_lines = max_lines
        #: The width a write with no width of its own renders at, at least.
        self.min_width = min_width
        #: Long lines wrap (else they run on, to scroll to sideways).
        self.wrap = wrap
        #: A written ``str`` is Rich markup.
        self.markup = markup
        #: A write scrolls to the end.
        self.auto_scroll = auto_scroll
        #: The lines kept, and the number of the first one of them (older ones trimmed).
        self.lines: list[Strip] = []
        self._start_line = 0
        self._line_cache: LRUCache[tuple[int, int, int, int], Strip] = LRUCache(1024)
        self._deferred_renders: deque[DeferredRender] = deque()
        self._widest_line_width = 0
        #: The log's size is known: writes render at once (before, they wait).
        self._size_known = False
        #: What was written (content, width, expand, shrink), to wrap it again.
        self._written: deque[tuple[Any, int | None, bool, bool]] = deque(
            maxlen=self.max_lines or 1000)
        self._wrap_widths = set()
        self._drawn_rows = {}

    def notify_style_update(self) -> None:
        """New styles: the lines are cropped and styled again."""
        super().notify_style_update()
        self._line_cache.clear()
        self._drawn_rows.clear()

    def on_resize(self, event: Resize) -> None:
        """Once the size is known, render what was written before, in order. A log that
        followed its newest line goes on showing it in its new box (shorter, as when a
        round's table takes the preparation's room); its lines wrap again to a new width."""
        if event.size.width and not self._size_known:
            self._size_known = True
            deferred = self._deferred_renders
            while deferred:
                self.write(*deferred.popleft())
            return
        if self.auto_scroll and not self.reading and not self.is_vertical_scroll_end:
            self.scroll_end(animate=False, immediate=True, x_axis=False)
        if event.size != self._wrap_box:
            # A new box (not a scrollbar come or gone): any width may be right again.
            self._wrap_box = event.size
            self._wrap_widths = set()
        if self.wrap and self._written:
            self.call_after_refresh(self._wrap_again)

    def get_content_width(self, container: Size, viewport: Size) -> int:
        """As wide as its lines, once they are rendered (``RichLog``)."""
        return self.virtual_size.width if self._size_known else container.width

    def clear(self) -> TableLog:
        """Clear the log (and what it would wrap again)."""
        self._written.clear()
        self.lines.clear()
        self._line_cache.clear()
        self._start_line = 0
        self._widest_line_width = 0
        self._deferred_renders.clear()
        self._drawn_rows.clear()
        self.virtual_size = Size(0, 0)
        self.refresh()
        return self

    def _renderable(self, content: RenderableType) -> RenderableType:
        """``content`` as a Rich renderable (``RichLog``'s, without pretty-printing)."""
        if isinstance(content, str):
            content = Text.from_markup(content) if self.markup else Text(content)
        elif not is_renderable(content):
            raise TypeError(f"a table's log writes text, not a {type(content).__name__}")
        if isinstance(content, Text):
            content.expand_tabs()
        return content

    def write(
        self,
        content: RenderableType,
        width: int | None = None,
        expand: bool = False,
        shrink: bool = True,
        scroll_end: bool | None = None,
        animate: bool = False,
    ) -> TableLog:
        """Write ``content`` at the bottom of the log (``RichLog.write``'s arguments)."""
        if not self._size_known:
            # RichLog renders every write once its size is known, in order.
            if isinstance(content, Text):
                content = content.copy()
            self._deferred_renders.append(
                DeferredRender(content, width, expand, shrink, scroll_end)
            )
            return self
        if isinstance(content, Text):
            content = content.copy()
        self._written.append((content, width, expand, shrink))
        self._render_into_lines(content, width, expand, shrink)
        self._wrapped_at = self.scrollable_content_region.width
        self._wrap_widths = {self._wrapped_at}
        size = Size(self._widest_line_width, len(self.lines))
        auto_scroll = self.auto_scroll if scroll_end is None else scroll_end
        if not self.container_size or scrollbars_for(self, size) != self.scrollbars_enabled:
            # A scrollbar comes or goes: RichLog's way, a layout that fits them, and the
            # scroll to the end after it.
            self.virtual_size = size
            if auto_scroll:
                self.scroll_end(animate=animate, immediate=False, x_axis=False)
            return self
        # The same scrollbars in the same places: their thumbs follow, the lines repaint
        # (those in sight before, only moved up, as they were drawn: render_lines).
        self.set_reactive(Widget.virtual_size, size)
        fit_scrollbars(self, size)
        self.refresh()
        if auto_scroll:
            self.scroll_end(animate=False, immediate=True, x_axis=False)
        return self

    def render_lines(self, crop: Region) -> list[Strip]:
        """The rows in ``crop``, as ``RichLog`` draws them; a row that shows a line it
        showed drawn before (a new line only moved it up) is that drawing again, and the
        log's style is found once, not once per line (each look walks every ancestor's
        styles)."""
        top = self.styles.gutter.top
        bottom = self.outer_size.height - self.styles.gutter.bottom  # (rows with a border)
        first = round(self.scroll_y) + self._start_line - top  # the line on row 0
        shown = self._start_line + len(self.lines)
        key_rest = (crop.x, crop.width, self.outer_size.width)
        drawn = self._drawn_rows
        rows: list[Strip | None] = []
        for y in crop.line_range:
            line = first + y
            known = top <= y < bottom and line < shown
            rows.append(drawn.get((line, round(self.scroll_x), *key_rest)) if known else None)
        if all(row is not None for row in rows):
            return [row for row in rows if row is not None]
        self._line_style = self.rich_style
        try:
            strips = self._draw_rows(crop, rows)
        finally:
            self._line_style = None
        # Only the rows in sight now are worth keeping.
        sight = range(first + top, min(first + bottom, shown))
        kept = {key: strip for key, strip in drawn.items() if key[0] in sight}
        for y, strip in zip(crop.line_range, strips, strict=True):
            line = first + y
            if top <= y < bottom and line < shown:
                kept[(line, round(self.scroll_x), *key_rest)] = strip
        self._drawn_rows = kept
        return strips

    def _draw_rows(self, crop: Region, rows: list[Strip | None]) -> list[Strip]:
        """``rows`` (one a row of ``crop``) with each missing one drawn by Textual, each
        run of missing rows in one go."""
        strips: list[Strip] = []
        y = 0
        while y < len(rows):
            row = rows[y]
            if row is not None:
                strips.append(row)
                y += 1
                continue
            end = y
            while end < len(rows) and rows[end] is None:
                end += 1
            strips.extend(super().render_lines(
                Region(crop.x, crop.y + y, crop.width, end - y)))
            y = end
        return strips

    def render_line(self, y: int) -> Strip:
        """Row ``y`` of the content (``RichLog.render_line``)."""
        scroll_x, scroll_y = self.scroll_offset
        line = self._line_at(scroll_y + y, scroll_x, self.scrollable_content_region.width)
        return line.apply_style(self._style_of_lines())

    def _line_at(self, y: int, scroll_x: int, width: int) -> Strip:
        """Line ``y`` of the log at ``scroll_x`` (``RichLog``'s line cache)."""
        style = self._style_of_lines()
        if y >= len(self.lines):
            return Strip.blank(width, style)
        key = (y + self._start_line, scroll_x, width, self._widest_line_width)
        line = self._line_cache.get(key)
        if line is None:
            line = self._line_cache[key] = self.lines[y].crop_extend(
                scroll_x, scroll_x + width, style)
        return line

    def _style_of_lines(self) -> Style:
        return self.rich_style if self._line_style is None else self._line_style

    def _wrap_again(self) -> None:
        """Wrap every line again for the log's width, if it changed (a line wrapped
        for a wider log was cut, one for a narrower log stayed narrow)."""
        width = self.scrollable_content_region.width
        if width == self._wrapped_at or width in self._wrap_widths or width <= 0:
            return
        self._wrap_widths.add(width)
        following = self.is_vertical_scroll_end
        self.lines.clear()
        self._line_cache.clear()
        self._drawn_rows.clear()
        self._start_line = 0
        self._widest_line_width = 0
        for content, line_width, expand, shrink in self._written:
            self._render_into_lines(content, line_width, expand, shrink)
        self._wrapped_at = width
        self.virtual_size = Size(self._widest_line_width, len(self.lines))
        if following:
            self.scroll_end(animate=False, immediate=False, x_axis=False)
        self.refresh()

    def _render_into_lines(self, content: RenderableType, width: int | None,
                      expand: bool, shrink: bool) -> None:
        """Render ``content`` into the log's lines as ``RichLog.write`` does."""
        renderable = self._renderable(content)
        console = self.app.console
        render_options = console.options
        if isinstance(renderable, Text) and not self.wrap:
            render_options = render_options.update(overflow="ignore", no_wrap=True)
        if width is not None:
            render_width = width
        else:
            renderable_width = measure_renderables(
                console, render_options, [renderable]
            ).maximum
            render_width = renderable_width
            scrollable_content_width = self.scrollable_content_region.width
            if expand and renderable_width < scrollable_content_width:
                render_width = max(renderable_width, scrollable_content_width)
            if shrink and renderable_width > scrollable_content_width:
                render_width = min(renderable_width, scrollable_content_width)
            render_width = max(render_width, self.min_width)
        render_options = render_options.update_width(render_width)
        segments = console.render(renderable, render_options)
        lines = list(Segment.split_lines(segments))
        if not lines:
            self._widest_line_width = max(render_width, self._widest_line_width)
            self.lines.append(Strip.blank(render_width))
            return
        strips = Strip.from_lines(lines)
        for strip in strips:
            strip.adjust_cell_length(render_width)
        self.lines.extend(strips)
        if self.max_lines is not None and len(self.lines) > self.max_lines:
            self._start_line += len(self.lines) - self.max_lines
            self.refresh()
            self.lines = self.lines[-self.max_lines:]
        self._widest_line_width = max(
            self._widest_line_width,
            max(sum(segment.cell_length for segment in line) for line in lines),
        )
