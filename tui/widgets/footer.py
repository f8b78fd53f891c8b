"""A table's footer (and its dialogs'): one widget that draws its keys itself.

Textual's ``Footer`` is a container of one ``FooterKey`` widget per key. Whenever the
set of keys changes (at a table: the turn changes hands, a round ends) it removes and
mounts them all, which styles and lays out the screen again; even a key that only dims
is a restyle of that key. At a table that was most of what an update cost.
``TableFooter`` draws the same line itself, with the same look taken from the
stylesheet (Textual's footer colours), and does the same things: a click on a key
presses it (a dimmed one rings the bell), the mouse over a key lights it and shows its
tooltip, the wheel scrolls keys that do not fit. A change of keys is one line redrawn.

When the keys do not fit, a screen's spare keys give way, in order, until the rest fit
(``footer_spare()``: actions that something else in sight already explains, as the chat
line does ``/`` and ``?`` and Got Five!'s board title its marks);
if they still do not fit, a ``›`` beside the whole keys says more are off the edge (``?``
lists them; the wheel, a swipe, or a tap on the ``›`` brings them, a ``‹`` goes back).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.binding import ActiveBinding
from textual.color import Color
from textual.errors import NoWidget
from textual.reactive import reactive
from textual.screen import Screen
from textual.strip import Strip
from textual.widget import Widget

from tui.widgets.footer_keys import FooterEntry, footer_entries

__all__ = ["COMPACT_FOOTER_BELOW", "FooterEntry", "SparingFooter", "TableFooter",
           "footer_entries", "in_sight"]


class TableFooter(Widget, can_focus=False):
    """The keys that work now (lit) or soon (dimmed), drawn on one line."""

    ALLOW_SELECT = False

    DEFAULT_CSS = """
    TableFooter {
        dock: bottom;
        height: 1;
        color: $footer-foreground;
        background: $footer-background;
        .table-footer--item {
            background: $footer-item-background;
        }
        .table-footer--key {
            color: $footer-key-foreground;
            background: $footer-key-background;
            text-style: bold;
        }
        .table-footer--description {
            color: $footer-description-foreground;
            background: $footer-description-background;
        }
        .table-footer--hover {
            color: $footer-key-foreground;
            background: $block-hover-background;
        }
    }
    """

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "table-footer--item", "table-footer--key", "table-footer--description",
        "table-footer--hover",
    }

    #: Spaces after each key (compact: two where every key fits so, else one).
    _gap = 0
    #: Less room around the keys (a narrow terminal), as ``Footer(compact=True)``.
    compact: reactive[bool] = reactive(False)

    def __init__(self, *, compact: bool = False, id: str | None = None) -> None:
        super().__init__(id=id)
        self.set_reactive(TableFooter.compact, compact)
        #: The screen's keys, and those drawn (its spare keys left out when they do not
        #: fit), and where each drawn one is on the whole line: (start, end) cells.
        self._keys: tuple[FooterEntry, ...] = ()
        self.entries: tuple[FooterEntry, ...] = ()
        self._spans: list[tuple[int, int]] = []
        #: The whole line of keys (wider than the footer when they do not fit).
        self._line = Strip([], 0)
        #: The key under the mouse (an index into ``entries``), and the mouse's column.
        self._hover: int | None = None
        self._mouse_x: int | None = None
        #: How many cells of the line are scrolled out on the left.
        self._scroll = 0
        self._ready = False
        #: How the ``›`` that says more keys are off the edge is drawn.
        self._more = Style()

    # ---- keeping up with the screen's keys ----------------------------------

    def on_mount(self) -> None:
        """Follow the screen's keys, and show them at once: in the screen's first frame,
        not one or two frames later (Textual's footer builds its keys only once the
        screen has refreshed its bindings, so a dialog opened with a blank footer)."""
        self.screen.bindings_updated_signal.subscribe(self, self._bindings_changed)
        self.restyle_now(self.screen)

    def on_unmount(self) -> None:
        self.screen.bindings_updated_signal.unsubscribe(self)

    def _bindings_changed(self, screen: Screen[Any]) -> None:
        self.restyle_now(screen)

    def restyle_now(self, screen: Screen[Any],
                    active_bindings: Mapping[str, ActiveBinding] | None = None) -> bool:
        """Show ``screen``'s keys now (in this update's frame); ``True`` if the footer is
        showing them (``False``: not attached to that screen yet). ``active_bindings``:
        the screen's, if the caller has just read them."""
        if not self.is_attached or screen is not self.screen:
            return False
        self._ready = True
        keys = footer_entries(screen, active_bindings,
                              line_keys=isinstance(screen, SparingFooter))
        if keys != self._keys:
            had, self._keys = self._keys, keys
            self._draw()
            self._show_newly_lit({e.action for e in had if not e.enabled})
        return True

    def _show_newly_lit(self, was_dim: set[str]) -> None:
        """A key that was dimmed and is lit now (our turn came: Got Five!'s Sort) is
        brought into sight if it is off an edge: a footer paged to "/ Chat" stayed
        there, and on a phone the move the turn called for was nowhere in sight. (Not a
        key that is new: a lobby whose keys came with its table was paged to Options.)"""
        width, scroll = self.size.width, self._scroll
        new = [span for entry, span in zip(self.entries, self._spans, strict=True)
               if entry.enabled and entry.action in was_dim]
        if not new or width < 3 or self._line.cell_length <= width:
            return
        left, right = self._whole()
        start, end = new[0]
        if start - scroll >= left and end - scroll <= right:
            return
        self._scroll = 0 if start <= 1 else start - 1
        self._clamp_scroll()
        self._draw()

    def watch_compact(self) -> None:
        self._draw()

    def redraw(self) -> None:
        """Lay the keys out again (what the screen can spare may have changed)."""
        self._draw()

    def notify_style_update(self) -> None:
        """A new stylesheet or theme: draw the keys with its colours."""
        super().notify_style_update()
        self._draw()

    def on_resize(self) -> None:
        self._draw()  # (spare keys come and go with the width)

    # ---- drawing -------------------------------------------------------------

    def _draw(self) -> None:
        """Lay the keys out on one line, as Textual's footer keys would stand."""
        if not self._ready:
            return
        _, background = self.background_colors
        # A margin is the bar's background alone (no colour of its own), as Textual draws it.
        margin = Style(bgcolor=background.rich_color)
        item = background + self.get_component_styles("table-footer--item").background
        hover = background + self.get_component_styles("table-footer--hover").background
        # Where each key stands, then which one the mouse rests on (it stays lit when the
        # keys change or scroll under a mouse that did not move).
        self.entries = self._keys
        texts, spans, x = self._layout()
        # Too wide: the spare keys give way, one at a time, until the rest fit (which
        # they are is asked only then: it looks through the screen).
        # (Not on a touch screen: the keys off the edge come in by a swipe or a tap on
        # the ›, and "? rules" on the chat line is no key a finger can press.)
        spare = None if getattr(self.app, "touch", False) else getattr(
            self.screen, "footer_spare", None)
        for name in spare() if callable(spare) and x > self.size.width else ():
            if x <= self.size.width:
                break
            if any(e.name == name for e in self.entries):
                self.entries = tuple(e for e in self.entries if e.name != name)
                texts, spans, x = self._layout()
        self._spans = spans
        self._more = self._part_style("table-footer--key", item, True)
        self._line = Strip([], x)
        self._clamp_scroll()
        self._hover = None if self._mouse_x is None else self.entry_at(self._mouse_x)
        segments: list[Segment] = []
        for index, (entry, (key, words)) in enumerate(zip(self.entries, texts, strict=True)):
            under = hover if index == self._hover else item
            segments.append(Segment(key, self._part_style("table-footer--key", under,
                                                          entry.enabled)))
            if words:
                segments.append(Segment(words, self._part_style(
                    "table-footer--description", under, entry.enabled)))
            if self._gap:
                segments.append(Segment(" " * self._gap, margin))
        self._line = Strip(segments, x)
        self.refresh()
        # (A screen may name elsewhere the keys there was no room for.)
        drawn = getattr(self.screen, "footer_drawn", None)
        if callable(drawn):
            drawn(frozenset(e.name for e in self.entries))

    def _layout(self) -> tuple[list[tuple[str, str]], list[tuple[int, int]], int]:
        """Each drawn key's text (key, words) and span, and the whole line's width."""
        texts: list[tuple[str, str]] = []
        widths: list[int] = []
        for entry in self.entries:
            if self.compact and entry.description:
                key, words = entry.display, f" {entry.description}"
            elif self.compact:  # (a key alone, "←" of "← → Step": wider for a finger, and
                # never in the first cell, which takes no tap: see entry_at)
                key, words = f" {entry.display} ", ""
            else:
                key = f" {entry.display} "
                words = f"{entry.description} " if entry.description else ""
            texts.append((key, words))
            widths.append(Segment(key).cell_length + Segment(words).cell_length)
        # Packed closer only as far as it must be: two spaces between keys where they fit
        # (one read "⏎ Play card d Draw / Chat" as one run on a monochrome terminal).
        self._gap = 0 if not self.compact else (
            2 if sum(widths) + 2 * len(widths) <= self.size.width else 1)
        spans: list[tuple[int, int]] = []
        x = 0
        for width in widths:
            spans.append((x, x + width))
            x += width + self._gap
        return texts, spans, x

    def _part_style(self, part: str, under: Color, enabled: bool) -> Style:
        """A key's part (its key or its words) over the key's background ``under``.

        A dimmed key is also drawn without bold and its words in italics: a monochrome
        terminal shows no dimmed colour (nor does Textual send "dim"), but it shows those.
        """
        styles = self.get_component_styles(part)
        background = under + styles.background
        style = Style(color=(background + styles.color).rich_color,
                      bgcolor=background.rich_color) + styles.text_style
        if enabled:
            return style
        return style + Style(dim=True, bold=False,
                             italic=part == "table-footer--description")

    def _clamp_scroll(self) -> None:
        # Scrolled to its end, a line longer than the footer leaves the last cell blank:
        # a key there sat where the › had been, and a second tap on the › pressed it.
        width, length = self.size.width, self._line.cell_length
        most = length - width + 1 if length > width else 0
        self._scroll = max(0, min(self._scroll, most))

    def render_line(self, y: int) -> Strip:
        """The keys in sight (the line API); Textual pads the rest with the bar's style."""
        if y:
            return Strip([], 0)
        width = self.size.width
        line = self._line.crop(self._scroll, self._scroll + width)
        before, after = self._off_edges()
        left, right = self._whole()
        # Only whole keys beside a ‹ or ›: one cut at the edge read as another ("esc Le›").
        parts = [line.crop(left, right)]
        if after:
            # More keys off the edge: say so in the last cell (a tap there shows them).
            parts += [Strip.blank(width - 1 - right, self.rich_style),
                      Strip([Segment("›", self._more)], 1)]
        if before:
            parts[:0] = [Strip([Segment("‹", self._more)], 1),
                         Strip.blank(left - 1, self.rich_style)]
        return Strip.join(parts)

    def _whole(self) -> tuple[int, int]:
        """The columns between the ‹ and › (where either is drawn) that whole keys fill."""
        width, scroll = self.size.width, self._scroll
        before, after = self._off_edges()
        left, right = (1 if before else 0), (width - 1 if after else width)
        starts = [s - scroll for s, _ in self._spans if s - scroll >= left]
        ends = [e - scroll for _, e in self._spans if e - scroll <= right]
        whole = (min(starts, default=left) if before else left,
                 max(ends, default=right) if after else right)
        return whole if whole[0] < whole[1] else (left, right)

    def _off_edges(self) -> tuple[bool, bool]:
        """Whether keys are scrolled off the left edge, and off the right."""
        width = self.size.width
        if width < 3:
            return False, False
        return self._scroll > 0, self._scroll + width < self._line.cell_length

    # ---- the mouse -------------------------------------------------------------

    @property
    def hovered(self) -> int | None:
        """The key the mouse rests on, drawn lit (an index into :attr:`entries`), if any;
        it follows the keys as they change or scroll under a mouse that stays put."""
        return self._hover

    def entry_at(self, x: int) -> int | None:
        """The key drawn at column ``x`` of the footer, if any (not under a ‹ or ›)."""
        left, right = self._whole()
        if not left <= x < right or x == 0:  # (the first cell: a key's margin, or the ‹,
            return None  # and a second tap on a ‹ that scrolled back pressed a key)
        x += self._scroll
        for index, (start, end) in enumerate(self._spans):
            if start <= x < end:
                return index
        return None

    def entry_region(self, index: int) -> tuple[int, int]:
        """Where key ``index`` is drawn, in the footer's columns: (start, end); it is in
        sight where these fall between 0 and the footer's width."""
        start, end = self._spans[index]
        return start - self._scroll, end - self._scroll

    def on_mouse_move(self, event: events.MouseMove) -> None:
        """Light the key under the mouse, and show its tooltip."""
        self._hover_at(event.x)

    def on_leave(self, event: events.Leave) -> None:
        self._hover_at(None)

    def _hover_at(self, x: int | None) -> None:
        self._mouse_x = x
        index = None if x is None else self.entry_at(x)
        if index != self._hover:
            self._draw()
        tooltip = None if index is None else self.entries[index].tooltip
        if tooltip != self.tooltip:
            self.tooltip = tooltip

    def on_mouse_down(self, event: events.MouseDown) -> None:
        """A click presses the key (a dimmed key rings the bell: it does nothing now).

        A screen may take the click itself (``footer_clicked(entry)`` answering
        ``True``): a key that stands for several (Get It!'s "2-4 look at") has no one key
        to press.
        """
        before, after = self._off_edges()
        # The ‹ and › at the edges page through keys off them: a phone has no wheel,
        # and a swipe along one row is easily missed. The blank beside either counts as
        # it (a one-cell target at the screen's edge: a finger beside it did nothing).
        left, right = self._whole()
        if (before and event.x < max(left, 1)) or (after and event.x >= right):
            self._scroll_by(self._page(forward=event.x >= right) - self._scroll, event)
            return
        self._hover_at(event.x)  # (a click may come without a motion before it)
        index = self.entry_at(event.x)
        if index is None:
            return
        entry = self.entries[index]
        if not entry.enabled:
            self.app.bell()
            return
        clicked = getattr(self.screen, "footer_clicked", None)
        if callable(clicked) and clicked(entry):
            return
        self.app.simulate_key(entry.key)

    def _page(self, *, forward: bool) -> int:
        """Where a tap on the › (``forward``) or ‹ scrolls: the keys cut or hidden, whole
        (a page of the footer's width skipped the key cut at its edge: "p Past games")."""
        width, scroll, spans = self.size.width, self._scroll, self._spans
        left, right = self._whole()
        if forward:
            cut = [s for s, e in spans if e - scroll > right]
            return (cut[0] - 1) if cut else scroll + width - 2
        end = next((s for s, _ in spans if s - scroll >= left), scroll)  # the first shown
        # (The earliest key from which those before fit between a ‹ and a ›.)
        start = next((s for s, _ in spans if end - s <= width - 2), 0)
        return 0 if start <= 1 else start - 1

    def on_mouse_scroll_down(self, event: events.MouseScrollDown) -> None:
        self._scroll_by(4, event)

    def on_mouse_scroll_up(self, event: events.MouseScrollUp) -> None:
        self._scroll_by(-4, event)

    def on_mouse_scroll_right(self, event: events.MouseScrollRight) -> None:
        self._scroll_by(4, event)  # (a sideways swipe on a phone, a trackpad's)

    def on_mouse_scroll_left(self, event: events.MouseScrollLeft) -> None:
        self._scroll_by(-4, event)

    def _scroll_by(self, cells: int, event: events.MouseEvent) -> None:
        before = self._scroll
        self._scroll += cells
        self._clamp_scroll()
        if self._scroll != before:
            event.stop()
            event.prevent_default()
            self._draw()  # (the key under the mouse is another one now)


#: Below this many columns a footer draws its keys compactly (less space between them).
COMPACT_FOOTER_BELOW = 100


def in_sight(screen: Screen[Any], widget: Widget) -> bool:
    """Whether ``widget`` is drawn at its own top left corner (not squeezed out of its
    box, nor under another widget)."""
    region = widget.region
    if not region:
        return False
    try:
        return screen.get_widget_at(region.x, region.y)[0] is widget
    except NoWidget:
        return False


class SparingFooter:
    """A screen (mixed in before ``Screen``) whose :class:`TableFooter` packs its keys
    closer below :data:`COMPACT_FOOTER_BELOW` columns and lets keys give way that
    something in sight already names (:attr:`FOOTER_SPARE`)."""

    #: Keys that give way when the footer's keys do not fit, by the widget that says
    #: them instead while it is in sight.
    FOOTER_SPARE: ClassVar[dict[str, tuple[str, ...]]] = {}

    def footer_spare(self) -> tuple[str, ...]:
        """The keys that may give way in the footer now: those of :data:`FOOTER_SPARE`
        whose stand-in is in sight (a short terminal squeezes a chat line out)."""
        screen = self
        assert isinstance(screen, Screen)
        spare: list[str] = []
        for selector, keys in self.FOOTER_SPARE.items():
            found = screen.query(selector)
            if found and in_sight(screen, found.first()):
                spare += keys
        return tuple(spare)

    def fit_footer(self) -> None:
        """After a new size: the footer's spacing, and which keys it has room for."""
        screen = self
        assert isinstance(screen, Screen)
        footer = screen.query_one(TableFooter)
        footer.compact = screen.size.width < COMPACT_FOOTER_BELOW
        screen.call_after_refresh(footer.redraw)  # (what is in sight may have changed)

