"""A row of face-up cards with one selected; the table screen moves the selection.

The hand is one widget that draws its cards itself (Textual's line API): a play, a draw,
a new selection or a turn change repaints this one widget, where a scrolling row of
:class:`~tui.games.getout.card.CardWidget` children would mount, remove and restyle.

It looks exactly as that row would: each card is drawn as Textual draws a widget's box
(border, border title and subtitle, aligned content) from the styles the CSS gives a
card in that state. Those come from the stylesheet's rules for :class:`HandCard` (with
``.image-…``, ``.playable`` and ``.selected``), which ``tui/app.tcss`` writes next to the
same rules for ``CardWidget``, so a card in the hand and the call card look alike.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, cast

from rich.segment import Segment
from rich.style import Style as RichStyle
from textual import events
from textual.color import TRANSPARENT, Color
from textual.content import Content
from textual.css.styles import RenderStyles
from textual.geometry import Offset, Region, Size
from textual.reactive import reactive
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.style import Style as VisualStyle
from textual.visual import RenderOptions
from textual.widget import Widget

from tui.games.getout.card import CARD_STATES, WIDTHS, CardWidget, HandCard, card_classes
from tui.games.getout.overflow import hand_marks, off_the_edges, whole_cards_in_sight
from tui.widgets.scrollbars import fit_scrollbars

if TYPE_CHECKING:
    from textual.css.styles import RulesMap

#: A card's height, frame included.
CARD_HEIGHT = 4
#: The characters of the borders a card can have: (top, side, bottom) rows of (left,
#: middle, right), as Textual draws them.
BOXES = {
    "round": (("╭", "─", "╮"), ("│", " ", "│"), ("╰", "─", "╯")),
    "double": (("╔", "═", "╗"), ("║", " ", "║"), ("╚", "═", "╝")),
}


class HandWidget(ScrollView):
    """The player's hand. Attributes: ``cards``, ``playable`` (ids) and ``selected`` (index).

    The cards take the largest size at which the whole hand fits the row (``WIDTHS``:
    full, then a narrower face with shorter names); a hand too long even for that
    scrolls, keeping the selected card in sight. Only whole cards are shown (a card cut
    by the row's edge would read as a stray border); the line under them says how many
    are off each edge and which key reaches them ("◀ 2 more (←)", "3 more (→) ▶"), and a
    click there brings in a row's worth of them. A click on a card posts
    :class:`CardWidget.Chosen` for it; the mouse over a card shows it in words.
    """

    # Not scoped to the hand: a ``HandCard`` is styled on its own, outside the DOM.
    SCOPED_CSS = False
    DEFAULT_CSS = """
    HandWidget { height: 5; overflow-y: hidden; overflow-x: hidden; }
    HandWidget > .handwidget--more { text-style: bold; }
    HandCard {
        border: round $foreground 40%;
        content-align: center middle;
        text-align: center;
        border-title-align: center;
        border-subtitle-align: center;
    }
    """

    COMPONENT_CLASSES: ClassVar[set[str]] = {"handwidget--more"}

    #: Every state a card can be drawn in; each is styled when first drawn.
    CARD_STATES: ClassVar[frozenset[str]] = CARD_STATES

    # The screen's keys move the selection; the row itself must not take them to scroll.
    can_focus = False

    cards: reactive[list[dict[str, Any]]] = reactive(list, always_update=True)
    playable: reactive[frozenset[int]] = reactive(frozenset)
    selected: reactive[int] = reactive(0)

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        #: The row's four lines, every card side by side (the whole virtual width).
        self._rows: list[Strip] = []
        #: A card's four lines, by (face, classes, size), for the styles they were drawn
        #: with (cleared when the stylesheet changes them).
        self._drawn: dict[tuple[str, str, str], list[Strip]] = {}
        #: The size the cards are drawn at.
        self._size_shown = "full"
        #: Where the mouse is over the row (content coordinates), for the tooltip.
        self._mouse_at: Offset | None = None
        #: The card states (``CARD_STATES``) styled so far, by their classes.
        self._states: dict[str, HandCard] = {}

    @property
    def styled_states(self) -> frozenset[str]:
        """The card states styled so far: a hand shows a few of the 24, and styling each
        costs a pass over the stylesheet, so each is styled when first drawn (and again
        when the stylesheet changes)."""
        return frozenset(self._states)

    def _styled(self, classes: str) -> RenderStyles:
        """The styles of a card in the state ``classes``, styled now if not yet."""
        card = self._states.get(classes)
        if card is None:
            if classes not in CARD_STATES:
                raise KeyError(f"No card state {classes!r}")
            card = self._states[classes] = HandCard(classes=classes)
            self.app.stylesheet.apply(card, animate=False)
        return card.styles

    # ---- what the screen sets ------------------------------------------------

    def watch_cards(self, old: list[dict[str, Any]], new: list[dict[str, Any]]) -> None:
        """Redraw the row of cards. The selection stays on the card it was on when that
        card is still held (a drawn card may come in before it); once that card is gone
        (played), it stays at its place, on the card that took it."""
        if 0 <= self.selected < len(old):
            chosen = old[self.selected].get("id")
            at = next((i for i, card in enumerate(new) if card.get("id") == chosen), None)
            if at is not None and at != self.selected:
                self.set_reactive(HandWidget.selected, at)
                self._redraw()
                self._chosen_in_sight()
                return
        self._redraw()

    def watch_playable(self) -> None:
        """Redraw: the highlighted cards changed."""
        self._redraw()

    def watch_selected(self) -> None:
        """Move the selection mark and keep the selected card in sight."""
        self._redraw()
        self._chosen_in_sight()

    @property
    def current(self) -> dict[str, Any] | None:
        """The selected card, if the hand holds any."""
        if 0 <= self.selected < len(self.cards):
            return self.cards[self.selected]
        return None

    def card_size(self) -> str:
        """The largest card size at which every card fits the row's width."""
        width = self.scrollable_content_region.width or self.size.width
        fits = [name for name, card_width in WIDTHS.items()
                if len(self.cards) * card_width <= width]
        return fits[0] if fits else list(WIDTHS)[-1]

    @property
    def size_shown(self) -> str:
        """The size (``WIDTHS``) the cards are drawn at now."""
        return self._size_shown

    def card_region(self, index: int) -> Region:
        """Where card ``index`` is on the screen now (it may be scrolled out of sight)."""
        width = WIDTHS[self._size_shown]
        x, y = self.scrollable_content_region.offset
        return Region(x + index * width - round(self.scroll_x), y, width, CARD_HEIGHT)

    def card_at(self, offset: Offset) -> int | None:
        """The index of the card shown at ``offset`` (in the row's content), if any."""
        width = WIDTHS[self._size_shown]
        x = offset.x + round(self.scroll_x)
        if not 0 <= offset.y < CARD_HEIGHT or offset.x < 0 or x < 0:
            return None
        index = x // width
        shown = self.in_sight()
        return index if index < len(self.cards) and (index in shown or not shown) else None

    def in_sight(self) -> range:
        """The cards wholly in sight now; the others are off the row's edges. (Empty
        only when the row is narrower than a card: then the part in sight is shown.)"""
        return whole_cards_in_sight(round(self.scroll_x), self.scrollable_content_region.width,
                                    WIDTHS[self._size_shown], len(self.cards))

    def off_the_edges(self) -> tuple[int, int]:
        """How many cards are off the row's left and right edges."""
        return off_the_edges(round(self.scroll_x), self.scrollable_content_region.width,
                             WIDTHS[self._size_shown], len(self.cards))

    # ---- drawing -------------------------------------------------------------

    live = False

    def on_mount(self) -> None:
        """Draw whatever was set before mounting."""
        self.live = True
        self._redraw()

    def on_resize(self) -> None:
        """A new width may fit the cards at another size; the chosen card stays in sight."""
        if self.cards and self.card_size() != self._size_shown:
            self._redraw()
        self._chosen_in_sight()

    def notify_style_update(self) -> None:
        """The stylesheet changed (a theme, say): draw the cards again with it, once the
        cards' own styles are updated too (Textual does that just after this)."""
        super().notify_style_update()
        if self._drawn and not self._restyle_due:
            self._restyle_due = True
            self.call_later(self._restyled)

    _restyle_due = False

    def _restyled(self) -> None:
        self._restyle_due = False
        self._drawn.clear()
        self._states.clear()
        self._redraw()

    def _chosen_in_sight(self) -> None:
        if self.live and 0 <= self.selected < len(self.cards):
            width = WIDTHS[self._size_shown]
            # Forced: the row shows no scrollbar (the line under the cards says what is
            # off the edges), and Textual scrolls a row without one only when told to.
            self.scroll_to_region(Region(self.selected * width, 0, width, CARD_HEIGHT),
                                  animate=False, immediate=True, force=True)

    def _redraw(self) -> None:
        if not self.live:
            return
        if self.selected >= len(self.cards):
            self.selected = max(0, len(self.cards) - 1)
        size = self._size_shown = self.card_size()
        width = WIDTHS[size]
        lines: list[list[Strip]] = [[] for _ in range(CARD_HEIGHT)]
        for i, card in enumerate(self.cards):
            for line, strip in zip(lines, self._card_lines(
                    card, card["id"] in self.playable, i == self.selected, size), strict=True):
                line.append(strip)
        rows = [Strip.join(line) for line in lines]
        if rows != self._rows:
            self._rows = rows
            self.refresh()
        self._fit(Size(len(self.cards) * width, CARD_HEIGHT))
        self._show_tooltip()

    def _fit(self, virtual: Size) -> None:
        """Give the row its virtual size; no layout once the row has its size: it has no
        scrollbar to come or go and its own size never changes (``TableLog`` does the
        same)."""
        if virtual == self.virtual_size:
            return
        if not self.container_size:
            self.virtual_size = virtual
            self.call_after_refresh(self._chosen_in_sight)
            return
        self.set_reactive(Widget.virtual_size, virtual)
        fit_scrollbars(self, virtual)
        self.refresh()

    def _card_lines(self, card: dict[str, Any], playable: bool, selected: bool,
                    size: str) -> list[Strip]:
        """A card's four lines: drawn as Textual draws a ``CardWidget`` in that state."""
        face = CardWidget.face(card, size)
        classes = card_classes(card, playable, selected)
        key = (face, classes, size)
        drawn = self._drawn.get(key)
        if drawn is None:
            drawn = self._drawn[key] = self._draw_card(
                face, self._styled(classes), WIDTHS[size],
                "▼" if selected else "", "✓" if playable else "")
        return drawn

    def _draw_card(self, face: str, styles: RenderStyles, width: int, title: str,
                   subtitle: str) -> list[Strip]:
        """One card as a ``CardWidget`` of ``width`` × 4 with ``styles`` is drawn (its
        box, as Textual draws a widget's border, title and subtitle around its content,
        and its face aligned in it), over this row's background."""
        _, row_background = self.background_colors
        opacity = self.opacity * styles.opacity
        base_background = row_background
        background = row_background + styles.background.tint(
            styles.background_tint).multiply_alpha(opacity)
        size = Size(width, CARD_HEIGHT)
        content_size = size - styles.gutter.totals
        style = self._card_style(styles)
        content = Content(face).render_strips(
            content_size.width, content_size.height, style,
            RenderOptions(_visual_style, cast("RulesMap", styles)))
        align_horizontal, align_vertical = styles.content_align
        strips = list(Strip.align(content, (style + VisualStyle(reverse=False)).rich_style,
                                  content_size.width, content_size.height,
                                  align_horizontal, align_vertical))
        inner = VisualStyle(background=base_background + background)
        (top, top_color), (_, right_color), (bottom, bottom_color), (_, left_color) = \
            styles.border
        edge_style = [(inner + VisualStyle(foreground=base_background
                                           + color.multiply_alpha(opacity))).rich_style
                      for color in (top_color, right_color, bottom_color, left_color)]
        left = Segment(BOXES[top][1][0], edge_style[3])
        right = Segment(BOXES[top][1][2], edge_style[1])
        lines = [self._edge(BOXES[top][0], edge_style[0], width, inner,
                            self._label(title, styles, base_background, "border_title"),
                            base_background + background, styles.border_title_align)]
        for y in range(content_size.height):
            line = strips[y] if y < len(strips) else Strip.blank(content_size.width,
                                                                  style.rich_style)
            line = line.adjust_cell_length(content_size.width, inner.rich_style)
            lines.append(Strip([left, *line, right], width))
        lines.append(self._edge(BOXES[bottom][2], edge_style[2], width, inner,
                                self._label(subtitle, styles, base_background,
                                            "border_subtitle"),
                                base_background + background, styles.border_subtitle_align))
        return lines

    @staticmethod
    def _edge(box: tuple[str, str, str], edge_style: Any, width: int, inner: VisualStyle,
              label: tuple[Content, Color, Color, VisualStyle], label_background: Color,
              align: str) -> Strip:
        """A card's top or bottom border with its label (title or subtitle) in it, as
        Textual draws a border label between a box's corners."""
        text, color, background, label_style = label
        label_style += VisualStyle(
            label_background + background if background.a else TRANSPARENT,
            label_background + color if color.a else TRANSPARENT)
        label_segments: list[Segment] = []
        if text.cell_length and width - 2 > 4:
            text = text.truncate(width - 6, ellipsis=True).pad_left(1).pad_right(1)
            base = inner + VisualStyle.from_rich_style(edge_style)
            label_segments = list(text.stylize_before(label_style).render_segments(base))
        corner_left, edge, corner_right = box
        room = max(0, width - 2 - sum(segment.cell_length for segment in label_segments))
        if align == "left":
            before = 1 if label_segments and room else room
        elif align == "right":
            before = room - 1 if label_segments and room else room
        else:
            before = room // 2
        return Strip([Segment(corner_left, edge_style),
                      Segment(edge * before, edge_style), *label_segments,
                      Segment(edge * (room - before), edge_style),
                      Segment(corner_right, edge_style)], width)

    def _card_style(self, styles: RenderStyles) -> VisualStyle:
        """A card's ``visual_style``: this row's, then the card's own rules on top."""
        row = self.visual_style
        # Where Widget.visual_style starts: no background, a transparent white.
        background = row.background or Color(0, 0, 0, 0)
        color = row.foreground or Color(255, 255, 255, 0)
        has_rule = styles.has_rule
        if has_rule("background"):
            text_background = background + styles.background.tint(styles.background_tint)
            background += styles.background.tint(styles.background_tint).multiply_alpha(
                self.opacity * styles.opacity)
        else:
            text_background = background
        if has_rule("color") and styles.color is not None:
            color = styles.color
        text = styles.text_style
        if has_rule("auto_color") and styles.auto_color:
            color = text_background.get_contrast_text(color.a)

        def pick(own: bool | None, inherited: bool | None) -> bool | None:
            return inherited if own is None else own

        return VisualStyle(
            background, color,
            bold=pick(text.bold, row.bold), dim=pick(text.dim, row.dim),
            italic=pick(text.italic, row.italic), reverse=pick(text.reverse, row.reverse),
            underline=pick(text.underline, row.underline),
            strike=pick(text.strike, row.strike),
        )

    def _label(self, text: str, styles: RenderStyles, background: Color,
               which: str) -> tuple[Content, Color, Color, VisualStyle]:
        """A border title or subtitle with its colours and style, as Textual takes them
        from a widget's styles (a ``CardWidget`` has both, "" when it shows no mark)."""
        label = self.render_str(text).expand_tabs(4)
        label = label.split()[0] if text else label
        if getattr(styles, f"auto_{which}_color"):
            color = background.get_contrast_text(getattr(styles, f"{which}_color").a)
        else:
            color = getattr(styles, f"{which}_color")
        return (label, color, getattr(styles, f"{which}_background"),
                VisualStyle.from_rich_style(getattr(styles, f"{which}_style")))

    def render_line(self, y: int) -> Strip:
        """Line ``y`` of the row in sight: the whole cards in sight, then what is off."""
        width = self.scrollable_content_region.width
        if y == CARD_HEIGHT:
            return self._more_line(width)
        row = y + round(self.scroll_y)
        if not 0 <= row < len(self._rows):
            # Blank: Textual pads it with the row's background, as it did the
            # scrolling row's (a container's blank had no foreground).
            return Strip([], 0)
        x = round(self.scroll_x)
        shown = self.in_sight()
        if not shown:
            return self._rows[row].crop(x, x + width)
        card = WIDTHS[self._size_shown]
        start, end = shown.start * card, shown.stop * card
        # A card cut by an edge is left out: its columns are blank, as the padding is.
        return Strip.join([Strip.blank(start - x, self._blank_style()),
                           self._rows[row].crop(start, end)])

    def _blank_style(self) -> RichStyle:
        """A blank cell of the row, as Textual pads it: the background alone."""
        return RichStyle.from_color(bgcolor=self.rich_style.bgcolor)

    def _more_marks(self, width: int) -> tuple[str, str]:
        """What the line under the cards says at each end (:func:`more_marks`)."""
        return hand_marks(self.cards, self.playable, *self.off_the_edges(), width,
                          keys=not getattr(self.app, "touch", False))  # (a phone swipes)

    def _more_line(self, width: int) -> Strip:
        left, right = self._more_marks(width)
        if not left and not right:
            return Strip([], 0)
        style = self.get_component_rich_style("handwidget--more")
        gap = max(1, width - len(left) - len(right))
        return Strip([Segment(left, style), Segment(" " * gap, self._blank_style()),
                      Segment(right, style)]).crop(0, width)

    # ---- the mouse -------------------------------------------------------------

    def on_click(self, event: events.Click) -> None:
        """Clicking a card asks to play it; clicking what is off an edge brings in the
        next cards there, as many as the row shows (one a tap took 6 to cross 12)."""
        offset = event.get_content_offset(self) or Offset(-1, -1)
        self._mouse_at = None  # (no tooltip until it moves: the next card's covered the row)
        if offset.y == CARD_HEIGHT:
            width = self.scrollable_content_region.width
            left, right = self._more_marks(width)
            before, after = self.off_the_edges()
            shown = max(1, len(self.cards) - before - after)
            if left and 0 <= offset.x < len(left):
                event.stop()
                self.selected = max(0, before - shown)
            elif right and width - len(right) <= offset.x < width:
                event.stop()
                self.selected = min(len(self.cards) - 1, len(self.cards) - after + shown - 1)
            return
        index = self.card_at(offset)
        if index is not None:
            event.stop()
            self.post_message(CardWidget.Chosen(self.cards[index]))

    def on_mouse_scroll_right(self, event: events.MouseScrollRight) -> None:
        self._swiped(-1, event)  # (a finger moving left, on a phone: the choice follows)

    def on_mouse_scroll_left(self, event: events.MouseScrollLeft) -> None:
        self._swiped(1, event)

    def on_mouse_scroll_down(self, event: events.MouseScrollDown) -> None:
        if not getattr(self.app, "touch", False):  # (a phone's page scrolls up and down)
            self._swiped(1, event, notch=True)  # (a mouse's wheel did nothing over it)

    def on_mouse_scroll_up(self, event: events.MouseScrollUp) -> None:
        if not getattr(self.app, "touch", False):
            self._swiped(-1, event, notch=True)

    _notches = 0

    def _swiped(self, step: int, event: events.MouseEvent, notch: bool = False) -> None:
        """The wheel sideways moves the chosen card a card for each card's width the
        finger went (a phone's page sends a notch every two cells); up and down, a card
        a ``notch``."""
        if not self.cards:
            return
        event.stop()
        self._notches += step
        per_card = 1 if notch else max(1, WIDTHS[self._size_shown] // 2)
        if abs(self._notches) >= per_card:
            cards, self._notches = int(self._notches / per_card), 0
            self.selected = max(0, min(len(self.cards) - 1, self.selected + cards))

    def on_mouse_move(self, event: events.MouseMove) -> None:
        """The card under the mouse, in words (the tooltip)."""
        self._mouse_at = event.get_content_offset(self)
        self._show_tooltip()

    def on_leave(self, event: events.Leave) -> None:
        """No card under the mouse."""
        self._mouse_at = None
        self._show_tooltip()

    def _show_tooltip(self) -> None:
        index = None if self._mouse_at is None else self.card_at(self._mouse_at)
        text = None
        if index is not None:
            card = self.cards[index]
            text = CardWidget.describe(card, card["id"] in self.playable)
        if text != self.tooltip:
            self.tooltip = text


def _visual_style(style: VisualStyle | str) -> VisualStyle:
    """A style named in a face's content (a face has none of its own)."""
    return style if isinstance(style, VisualStyle) else VisualStyle.parse(style)
