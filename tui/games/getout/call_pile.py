"""The middle of the GET OUT! table: the call card, what must follow, the draw pile."""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.reactive import reactive
from textual.widgets import Static

from tui.games.getout.card import CardWidget, image_label
from tui.widgets.text import set_text

#: What the slot says before the first card of a round is played.
NO_CALL = "(none yet:\nthe first card\nplayed sets it)"


class CallPile(Vertical):
    """Attributes: ``call`` (card or None), ``image`` (to follow), ``draw_count``,
    ``played_count``, ``round`` and ``over``."""

    DEFAULT_CSS = """
    CallPile { width: 32; height: auto; align-horizontal: center; padding: 0 0 0 2; }
    CallPile > Static { width: 100%; text-align: center; }
    CallPile #call-slot { height: 4; align-horizontal: center; }
    """

    call: reactive[dict[str, Any] | None] = reactive(None)
    image: reactive[str | None] = reactive(None)
    draw_count: reactive[int] = reactive(0)
    played_count: reactive[int] = reactive(0)
    #: The match's round (``None``: a single round), said over the call card.
    round: reactive[int | None] = reactive(None)
    #: What is over ("Round over", "Match over"; empty: play goes on): nothing follows
    #: the call card any more.
    over: reactive[str] = reactive("")
    #: The call card's widget, once there is a call card.
    _card: CardWidget | None = None

    def __init__(self, *, call: dict[str, Any] | None = None, id: str | None = None) -> None:
        """``call``: the call card to compose the pile with (the table's first view's),
        so that the first view mounts no card widget into a pile already mounted."""
        super().__init__(id=id)
        self.set_reactive(CallPile.call, call)

    def compose(self) -> ComposeResult:
        yield Static("Call card", id="call-caption", classes="caption")
        # What the slot holds is composed with the pile, not mounted into it once the
        # pile is mounted: that was a second mount (twice over, with the reactive's own
        # first call) before the table's first frame (scripts/bench_startup.py).
        with Vertical(id="call-slot"):
            yield self._slot_content(self.call)
        yield Static("", id="follow")
        yield Static("", id="piles")

    def _slot_content(self, call: dict[str, Any] | None) -> Static | CardWidget:
        """The call card's widget (kept as ``_card``), or the words for no call card."""
        if call is None:
            self._card = None
            return Static(NO_CALL, classes="empty")
        self._card = CardWidget(call)
        return self._card

    def watch_call(self, call: dict[str, Any] | None) -> None:
        """Show the new call card."""
        if not self.live:
            return
        if call is not None and self._card is not None:
            # The card widget is re-dressed in place: a new call card comes with nearly
            # every move, and a remount relayouted the table (scripts/bench_repaint.py).
            self._card.show(call)
        elif call is not None or self._card is not None:
            # (No call card, and none shown: the slot says so already.)
            slot = self.query_one("#call-slot", Vertical)
            slot.remove_children()
            slot.mount(self._slot_content(call))
        self._texts()

    def watch_image(self) -> None:
        """Say what must follow."""
        self._texts()

    def watch_draw_count(self) -> None:
        """Update the pile sizes."""
        self._texts()

    def watch_played_count(self) -> None:
        """Update the pile sizes (the played pile shrinks when it becomes the draw pile)."""
        self._texts()

    def watch_over(self) -> None:
        """A round over asks for no next card (it still said "Next: Geoff or a 1")."""
        self._texts()

    def watch_round(self) -> None:
        """Say which round of the match this is (the log alone said it)."""
        self._texts()

    def _texts(self) -> None:
        if not self.live:
            return
        if self.over:
            follow = self.over
        elif self.call is None:
            follow = "Any card may start"
        elif self.call.get("wild"):
            # (Not "… only": a GET OUT! card follows anything, this one too.)
            follow = f"Next: {image_label(self.image)}" if self.image else ""
        else:
            value = self.call["value"]
            article = "an" if value in (8, 11, 18) else "a"
            follow = f"Next: {image_label(self.call['image'])} or {article} {value}"
        piles = f"Draw pile: {self.draw_count} · played: {self.played_count}"
        caption = "Call card" if self.round is None else f"Round {self.round} · call card"
        # One line each in the pile's fixed width: set without a relayout (set_text).
        for name, text in (("#follow", follow), ("#piles", piles), ("#call-caption", caption)):
            set_text(self.query_one(name, Static), text)

    live = False

    def on_mount(self) -> None:
        """Draw the initial state."""
        self.live = True
        self.watch_call(self.call)
