"""A row of face-up cards with one selected; the table screen moves the selection."""

from __future__ import annotations

from typing import Any

from textual.containers import HorizontalScroll
from textual.reactive import reactive

from tui.games.getout.card import CardWidget


class HandWidget(HorizontalScroll):
    """The player's hand. Attributes: ``cards``, ``playable`` (ids) and ``selected`` (index)."""

    DEFAULT_CSS = """
    HandWidget { height: 5; scrollbar-size-horizontal: 1; }
    """

    # The screen's keys move the selection; the row itself must not take them to scroll.
    can_focus = False

    cards: reactive[list[dict[str, Any]]] = reactive(list, always_update=True)
    playable: reactive[frozenset[int]] = reactive(frozenset)
    selected: reactive[int] = reactive(0)

    def watch_cards(self) -> None:
        """Redraw the row of cards."""
        self._redraw()

    def watch_playable(self) -> None:
        """Redraw: the highlighted cards changed."""
        self._redraw()

    def watch_selected(self) -> None:
        """Move the selection mark and keep the selected card in sight."""
        for i, widget in enumerate(self.query(CardWidget)):
            widget.select(i == self.selected)
            if i == self.selected:
                self.scroll_to_widget(widget, animate=False)

    def _redraw(self) -> None:
        if not self.live:
            return
        if self.selected >= len(self.cards):
            self.selected = max(0, len(self.cards) - 1)
        # The card widgets are reused in place (a remount of the whole row on every update
        # cost a full layout and repaint: scripts/bench_repaint.py); only the difference
        # in length is mounted or removed.
        widgets = [w for w in self.children if isinstance(w, CardWidget) and w.display]
        extra = []
        for i, card in enumerate(self.cards):
            playable, selected = card["id"] in self.playable, i == self.selected
            if i < len(widgets):
                widgets[i].show(card, playable=playable, selected=selected)
            else:
                extra.append(CardWidget(card, playable=playable, selected=selected))
        for widget in widgets[len(self.cards):]:
            widget.remove()
        if extra:
            self.mount_all(extra)

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
