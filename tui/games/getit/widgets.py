"""The Get It! table's widgets: the played cards, the preparation row, the lines that
say why (another player's seat is :mod:`tui.games.getit.seatcard`'s).

Attributes down, messages up: the screen sets each widget's data; a click on a card in
preparation posts :class:`PrepRow.CardClicked`. Nothing here speaks to the host.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.cells import cell_len
from textual import events, on
from textual.app import ComposeResult
from textual.containers import Horizontal, HorizontalScroll
from textual.message import Message
from textual.reactive import reactive
from textual.timer import Timer
from textual.widgets import Static

from tui.games.getit.text import card_text


class PrepCard(Static):
    """One card of the hand in preparation; a click posts :class:`PrepRow.CardClicked`."""

    DEFAULT_CSS = """
    PrepCard { width: auto; height: 3; border: round $foreground 40%; padding: 0 1;
               content-align: center middle; margin: 0 1 0 0; }
    PrepCard.special { text-style: bold; }
    PrepCard.selected { border: double $warning; text-style: bold reverse; }
    """

    def __init__(self, index: int) -> None:
        super().__init__("", markup=False)
        self.index = index

    def on_click(self) -> None:
        """Tell the row which card was clicked."""
        self.post_message(PrepRow.CardClicked(self.index))


class HandEnd(Static):
    """An end of the hand's row ("top ▸", "◂ 3 more"): a sideways wheel, or a swipe,
    over it scrolls the cards, as over them (a swipe on a phone that began on an end
    did nothing). (Its own handlers: the wheel's events come to the widget under the
    mouse, and name no widget a selector could match.)"""

    def _cards(self) -> HorizontalScroll | None:
        row = self.parent
        return row.query_one("#prep-cards", HorizontalScroll) if row is not None else None

    def on_mouse_scroll_right(self, event: events.MouseScrollRight) -> None:
        if (cards := self._cards()) is not None:
            event.stop()
            cards.scroll_right(animate=False)

    def on_mouse_scroll_left(self, event: events.MouseScrollLeft) -> None:
        if (cards := self._cards()) is not None:
            event.stop()
            cards.scroll_left(animate=False)


class PrepRow(Horizontal):
    """Your hand in preparation, top first: numbers fixed, the selected special marked.

    The cards scroll between the two ends ("top ▸", "◂ bottom"), which stay in sight: a
    long hand (Level X) at 80 columns keeps its selected card in view without losing
    which end is the top. Scrolled, an end counts the cards beyond it ("◂ 3 more").

    Attributes: ``cards`` (plain cards, top first) and ``selected`` (index of the chosen
    special, or ``None``).
    """

    DEFAULT_CSS = """
    PrepRow { width: 100%; height: 4; }
    PrepRow > #prep-cards { width: 1fr; height: 4; scrollbar-size-horizontal: 1; }
    /* As wide as the longest words an end has ("◂ 12 more"): the cards' room stays
       the same whatever the ends say, so what they count does not move the cards. */
    PrepRow .end { width: 11; height: 3; content-align: center middle; padding: 0 1; }
    /* On a phone (a row under 60 cells) the ends give the cards their margins: at 41
       the two ends took 22 cells, and three cards were in sight. */
    PrepRow.-narrow .end { width: 9; padding: 0; }
    /* Cards too many to fit framed: chips without frames, so more of them fit. */
    PrepRow.dense PrepCard { border: none; height: 1; margin: 1 1 0 0; padding: 0; }
    PrepRow.dense PrepCard.selected { border: none; }
    """

    can_focus = False
    #: (chosen card, card order, frameless) when the chosen card was last brought
    #: into sight.
    _sighted: tuple[Any, ...] | None = None

    cards: reactive[list[dict[str, Any]]] = reactive(list, always_update=True)
    selected: reactive[int | None] = reactive(None)

    class CardClicked(Message):
        """The player clicked the card at ``index`` in the row."""

        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index

    def compose(self) -> ComposeResult:
        yield HandEnd("top ▸", classes="end", id="prep-top")
        scroll = HorizontalScroll(id="prep-cards")
        scroll.can_focus = False
        yield scroll
        yield HandEnd("◂ bottom", classes="end", id="prep-bottom")

    #: The cards' chips, in order. (Not a query: chips of the last deal stay in the
    #: DOM until their removal is done, and were painted with the new deal's cards.)
    _chips: tuple[PrepCard, ...] = ()

    def watch_cards(self) -> None:
        """Lay the row out again (cards are added or removed only on a new deal)."""
        if not self.is_mounted:
            return
        self.set_class(self._dense(), "dense")
        if len(self._chips) != len(self.cards):
            for chip in self._chips:
                chip.display = False  # (out of sight now; removed a moment later)
                chip.remove()
            self._chips = tuple(PrepCard(i) for i in range(len(self.cards)))
            self.query_one("#prep-cards", HorizontalScroll).mount_all(self._chips)
        self._paint(self._chips)

    def watch_selected(self) -> None:
        """Move the mark to the newly chosen card."""
        if self.is_mounted:
            self.set_class(self._dense(), "dense")
            self._paint(self._chips)

    def on_mount(self) -> None:
        """Draw whatever was set before mounting; follow the cards' scrolling."""
        self.watch_cards()
        cards = self.query_one("#prep-cards", HorizontalScroll)
        self.watch(cards, "scroll_x", self._scrolled, init=False)
        # (And as the cards are laid out: a new hand too long for the row said "◂ bottom"
        # beside a card cut in two, sixteen cards short of the bottom.)
        self.watch(cards, "virtual_size", self._scrolled, init=False)

    def _scrolled(self) -> None:
        self.call_after_refresh(self._ends)

    def hidden(self) -> tuple[int, int]:
        """How many cards are scrolled out of sight towards the top, and towards the
        bottom: a card cut by the edge counts as beyond it (its value may be cut too)."""
        left, right = self._window()
        top = bottom = 0
        for chip in self._chips:
            region = chip.virtual_region
            if region.x < left:
                top += 1
            elif region.right > right:
                bottom += 1
        return top, bottom

    def _window(self) -> tuple[float, float]:
        """The cards' columns in sight: from, and up to (not including)."""
        scroll = self.query_one("#prep-cards", HorizontalScroll)
        return scroll.scroll_x, scroll.scroll_x + scroll.scrollable_content_region.width

    class Scrolls(Message):
        """Whether the hand is now too long for the row (Home/End then show its ends)."""

        def __init__(self, scrolls: bool) -> None:
            super().__init__()
            self.scrolls = scrolls

    #: Whether the hand was too long for the row when last told (``Scrolls``).
    _told_scrolls: bool | None = None

    def _ends(self) -> None:
        """The ends say where the top and the bottom are: at the first and last card in
        sight, or how many cards lie beyond (the arrow points at them)."""
        if not self.is_attached:
            return
        scrolls = self.query_one("#prep-cards", HorizontalScroll).max_scroll_x > 0
        if scrolls != self._told_scrolls:
            self._told_scrolls = scrolls
            self.post_message(self.Scrolls(scrolls))
        top, bottom = self.hidden()
        # A card the edge cuts is counted beyond it, and not drawn ("[2" of a 24).
        left, right = self._window()
        for chip in self._chips:
            region = chip.virtual_region
            cut = region.x < left < region.right or region.x < right < region.right
            # (Its text made clear, not the chip hidden: a hidden widget has no region,
            # and the ends count by the regions.)
            if chip.styles.text_opacity != (0.0 if cut else 1.0):
                chip.styles.text_opacity = 0.0 if cut else 1.0
        self.query_one("#prep-top", Static).update(f"◂ {top} more" if top else "top ▸")
        self.query_one("#prep-bottom", Static).update(
            f"{bottom} more ▸" if bottom else "◂ bottom")

    def on_resize(self) -> None:
        """Frame the cards again, or stop framing them, once the row's width is known
        or changes."""
        self.call_after_refresh(self._fit)

    def _fit(self) -> None:
        self.set_class(self.size.width < 60, "-narrow")
        dense = self._dense()
        if dense != self.has_class("dense"):
            self.set_class(dense, "dense")
            self._paint(self._chips)
        self.call_after_refresh(self._ends)  # (a new width: other cards beyond the ends)

    def _dense(self) -> bool:
        """Whether the cards go without frames: when framed they would not all fit
        (a level-6 hand with its specials at 80 columns), so more of them are in
        sight. Until the row is laid out: when there are many (Level X)."""
        if not self.is_mounted:
            return len(self.cards) > 9
        room = self.query_one("#prep-cards", HorizontalScroll).size.width
        if not room:
            return len(self.cards) > 9
        # A framed card: its label, a cell of padding and a frame each side, a margin.
        need = sum(cell_len(card_text(card)) + 5 for card in self.cards)
        return need + (2 if self.selected is not None else 0) > room  # ▶ … ◀

    def _paint(self, chips: Sequence[PrepCard]) -> None:
        # The chosen card is brought into sight when it, the order or the frames change;
        # not for an update that changes none of them (the wheel's scrolling stays).
        sight = (self.selected, tuple(card.get("id") for card in self.cards),
                 self.has_class("dense"))
        bring = sight != self._sighted
        self._sighted = sight
        for chip, card in zip(chips, self.cards, strict=False):
            chosen = chip.index == self.selected
            label = card_text(card)
            chip.update(f"▶{label}◀" if chosen else f"[{label}]" if self.has_class("dense")
                        else label)
            chip.set_class(card.get("kind") != "number", "special")
            chip.set_class(chosen, "selected")
            if chosen and bring:
                # Once laid out: the chosen card's new label changes its width.
                self.call_after_refresh(self._in_sight, chip)

    def show_end(self, *, top: bool) -> None:
        """Scroll the cards to the top of the hand, or to its bottom."""
        scroll = self.query_one("#prep-cards", HorizontalScroll)
        scroll.scroll_to(x=0 if top else scroll.max_scroll_x, animate=False, immediate=True)

    @on(events.Click, ".end")
    def _end_clicked(self, event: events.Click) -> None:
        """A click (a tap) on an end that counts cards beyond it ("◂ 1 more") brings
        them in, as Home and End do (a tap did nothing, and on a phone the cards beyond
        were out of reach but by a swipe that began on a card)."""
        top, bottom = self.hidden()
        end = event.widget.id if event.widget is not None else None
        if (end == "prep-top" and top) or (end == "prep-bottom" and bottom):
            self.show_end(top=end == "prep-top")

    def show_chosen(self) -> None:
        """Bring the chosen card into sight: the player asked for it (it may have been
        chosen already, and scrolled away since)."""
        chip = next((c for c in self._chips if c.index == self.selected), None)
        if chip is not None:
            self.call_after_refresh(self._in_sight, chip)

    def _in_sight(self, chip: PrepCard) -> None:
        if chip.is_attached:
            self.query_one("#prep-cards", HorizontalScroll).scroll_to_widget(
                chip, animate=False)
        self._ends()


class WhyLine(Static):
    """One line saying why a key did nothing, where the player looks, for a moment (a
    toast each key stacked over the table while the timer ran)."""

    DEFAULT_CSS = """
    WhyLine { height: auto; text-style: italic; }
    """

    #: Seconds a reason stays.
    LASTS = 4.0

    def __init__(self, **kwargs: Any) -> None:
        super().__init__("", markup=False, **kwargs)
        self._clear: Timer | None = None
        #: What is said now ("": nothing).
        self.said = ""

    def clear(self) -> None:
        """Say nothing (what was said no longer holds: the player did it)."""
        if self._clear is not None:
            self._clear.stop()
            self._clear = None
        if self.said:
            # Only when something shows: the line's height goes to none, so the update
            # lays the screen out again, which every key would pay for nothing.
            self.said = ""
            self.update("")

    def withdraw(self, *texts: str) -> None:
        """Say nothing if what is said is one of ``texts`` (it no longer holds)."""
        if self.said in texts:
            self.clear()

    def say(self, text: str) -> None:
        """Show ``text`` in place of what was said before, for :attr:`LASTS` seconds."""
        if not text:
            self.clear()
            return
        self.said = text
        self.update(f"▸ {text}")
        if self._clear is not None:
            self._clear.stop()
        self._clear = self.set_timer(self.LASTS, self.clear)
