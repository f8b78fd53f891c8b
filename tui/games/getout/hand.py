"""A row of face-up cards with one selected; the table screen moves the selection."""

from __future__ import annotations

from typing import Any

from textual.containers import HorizontalScroll
from textual.reactive import reactive

from tui.games.getout.card import WIDTHS, CardWidget


class HandWidget(HorizontalScroll):
    """The player's hand. Attributes: ``cards``, ``playable`` (ids) and ``selected`` (index).

    The cards take the largest size at which the whole hand fits the row (``WIDTHS``:
    full, then a narrower face with shorter names); a hand too long even for that
    scrolls, keeping the selected card in sight.
    """

    DEFAULT_CSS = """
    HandWidget { height: 5; scrollbar-size-horizontal: 1; }
    """

    # The screen's keys move the selection; the row itself must not take them to scroll.
    can_focus = False

    cards: reactive[list[dict[str, Any]]] = reactive(list, always_update=True)
    playable: reactive[frozenset[int]] = reactive(frozenset)
    selected: reactive[int] = reactive(0)

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        #: The card widgets shown, in the row's order (removed ones linger among the
        #: children until Textual has pruned them).
        self._widgets: list[CardWidget] = []

    def watch_cards(self) -> None:
        """Redraw the row of cards."""
        self._redraw()

    def watch_playable(self) -> None:
        """Redraw: the highlighted cards changed."""
        self._redraw()

    def watch_selected(self) -> None:
        """Move the selection mark and keep the selected card in sight."""
        for i, widget in enumerate(self._widgets):
            widget.select(i == self.selected)
            if i == self.selected:
                self.scroll_to_widget(widget, animate=False)

    def card_size(self) -> str:
        """The largest card size at which every card fits the row's width."""
        width = self.scrollable_content_region.width or self.size.width
        fits = [name for name, card_width in WIDTHS.items()
                if len(self.cards) * card_width <= width]
        return fits[0] if fits else list(WIDTHS)[-1]

    def on_resize(self) -> None:
        """A new width may fit the cards at another size; the chosen card stays in
        sight (once the cards are laid out at their new size)."""
        if self._widgets and self.card_size() != self._size_shown:
            self._redraw()
        self.call_after_refresh(self._chosen_in_sight)

    def _chosen_in_sight(self) -> None:
        if 0 <= self.selected < len(self._widgets):
            self.scroll_to_widget(self._widgets[self.selected], animate=False)

    _size_shown = "full"

    def _redraw(self) -> None:
        if not self.live:
            return
        if self.selected >= len(self.cards):
            self.selected = max(0, len(self.cards) - 1)
        size = self.card_size()
        self._size_shown = size
        for name in WIDTHS:
            self.set_class(name == size, f"cards-{name}")
        # The card widgets are reused (a remount of the whole row on every update cost a
        # full layout and repaint: scripts/bench_repaint.py), each for the card it shows
        # already where it can: a card played from the middle of the hand removes its
        # widget instead of re-dressing every widget after it (a restyle each).
        ids = {card["id"] for card in self.cards}
        kept = []
        for widget in self._widgets:
            if widget.card["id"] in ids:
                kept.append(widget)
            else:
                widget.remove()
        shown = {widget.card["id"] for widget in kept}
        widgets: list[CardWidget] = []
        k = 0  # the next kept widget, in the row's order
        for i, card in enumerate(self.cards):
            playable, selected = card["id"] in self.playable, i == self.selected
            if card["id"] in shown and k < len(kept):
                # Its own widget, or (the order changed) the next one, re-dressed.
                widget = kept[k]
                k += 1
                widget.show(card, playable=playable, selected=selected, size=size)
            else:  # a new card: a new widget in its place
                widget = CardWidget(card, playable=playable, selected=selected, size=size)
                self.mount(widget, before=kept[k] if k < len(kept) else None)
            widgets.append(widget)
        for widget in kept[k:]:
            widget.remove()
        self._widgets = widgets

    live = False

    def on_mount(self) -> None:
        """Draw whatever was set before mounting."""
        self.live = True
        self._redraw()

    @property
    def current(self) -> dict[str, Any] | None:
        """The selected card, if the hand holds any."""
        if 0 <= self.selected < len(self.cards):
            return self.cards[self.selected]
        return None
