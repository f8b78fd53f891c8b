"""Our own place at the Get It! table: the back of our pile (or the card we peeked at),
TO YOU, our own line, and the cards played so far."""

from __future__ import annotations

import re
from typing import Any

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Static

from tui.games.getit.signals import SignalState
from tui.games.getit.text import card_text, played_line, standing_signals, to_you_text
from tui.games.getit.widgets import WhyLine
from tui.notices import Namer
from tui.widgets.text import set_text

CARD_BACK = "╭──────╮\n│GET IT│\n│ back │\n╰──────╯"
NO_CARDS = "╭──────╮\n│ no   │\n│ cards│\n╰──────╯"


#: What the line names keys for, as a phone does it (by a tap).
TOUCH_WORDS = (
    (re.compile(r"look \([\d,-]+\) at who should play"),
     "tap the pile of who should play"),
    (re.compile(r"\(Space\)"), "(tap your pile)"),
    # (A special card's hint: "☺ on 3: look (3), then smile (s)"; "… look there (3)".)
    (re.compile(r"look(?: there)? \((\d+)\)"), r"tap pile \1"),
    # (The levels' news in preparation, and why a smile did nothing.)
    (re.compile(r"\(look, then s\)"), "(tap their pile, then Smile below)"),
    (re.compile(r"\(look, then x\)"), "(tap their pile, then Look past below)"),
    (re.compile(r"\(\? explains them\)"), "(Rules, in the keys below, explain them)"),
    (re.compile(r"Look at someone first \(their number\)"), "Tap someone's pile first"),
    (re.compile(r"\(s\)"), "(Smile, in the keys below)"),
    (re.compile(r"\(x\)"), "(Look past, in the keys below)"),
    (re.compile(r"\(p\)"), "(Peek, in the keys below)"),
    (re.compile(r"\(t\)"), "(Talk, in the keys below)"),
)


def touch_words(line: str) -> str:
    """Our line as a touch screen says it: taps where it names keys."""
    for pattern, words in TOUCH_WORDS:
        line = pattern.sub(words, line)
    return line


class MyPlace(Horizontal):
    """Our pile's back, TO YOU, our line and the played cards."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        #: What each Static shows now (see ``_set``).
        self._shown: dict[str, str] = {}
        #: What it was last shown (:meth:`show`'s arguments), worded again for a new width.
        self._last: tuple[dict[str, Any], SignalState, int | None, Namer] | None = None
        self._width = 0

    def compose(self) -> ComposeResult:
        yield Static(CARD_BACK, id="my-back", markup=False)
        with Vertical(id="getit-me-text"):
            yield Static("", id="to-you")
            yield Static("", id="my-line", markup=False)
            yield PlayedRow(id="played")
            yield WhyLine(id="why")

    def _set(self, selector: str, content: Any) -> None:
        """Update a Static only when what it shows changes (an update repaints it)."""
        key = repr(content)
        if self._shown.get(selector) != key:
            self._shown[selector] = key
            set_text(self.query_one(selector, Static), content)

    def on_resize(self, event: events.Resize) -> None:
        """TO YOU and our line are worded for their width: a new one words them again
        (a new height, as our line wraps, changes nothing of that)."""
        if self._last is not None and event.size.width != self._width:
            self.call_after_refresh(self._show_again)
        self._width = event.size.width

    #: The first round shown here said which of our signals stand (``standing_signals``).
    _standing_told = False

    def _show_again(self) -> None:
        if self._last is not None:
            self.show(*self._last)

    def show(self, view: dict[str, Any], signals: SignalState, me: int | None,
             namer: Namer) -> None:
        """Show our place as ``view`` has it (only the played cards for a spectator)."""
        self._last = (view, signals, me, namer)
        wrong = (view.get("reveal") or {}).get("wrong")
        card = wrong.get("card") if isinstance(wrong, dict) else None
        self.query_one(PlayedRow).show(list(view.get("played") or []),
                                       card.get("id") if isinstance(card, dict) else None)
        if me is None:
            return
        if view.get("phase") == "play" and not self._standing_told:
            self._standing_told = True  # (said once, as we come to the table)
            if (standing := standing_signals(view, namer)) is not None:
                self.query_one(WhyLine).say(standing)
        to_you = self.query_one("#to-you", Static)
        self._set("#to-you", to_you_text(signals.to_you(view, me), to_you.content_region.width))
        line = self.query_one("#my-line", Static)
        mine = signals.my_line(view, me, namer, line.content_region.width)
        if getattr(self.app, "touch", False):  # (a phone has no keys: it taps piles)
            mine = touch_words(mine)
        self._set("#my-line", mine)
        piles = view.get("piles") or []
        pile = piles[me] if me < len(piles) and isinstance(piles[me], dict) else {}
        count = int(pile.get("count", 0))
        card = signals.peeked(view) if count else None
        if card is not None:
            self._set("#my-back", f"╭──────╮\n│ peek │\n│{card_text(card):^6}│\n╰──────╯")
        else:
            self._set("#my-back", CARD_BACK if count else NO_CARDS)


class PlayedRow(Static):
    """The cards played this round, the latest last, fitted to the row's width as it is
    now: a wider terminal shows more of them at once (the row was fitted to the width it
    had when the last card was played, and kept that after a resize)."""

    DEFAULT_CSS = """
    PlayedRow { width: 100%; height: 1; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__("", id=id, markup=False)
        self._cards: list[Any] = []
        self._wrong: Any = None

    def show(self, cards: list[Any], wrong: Any = None) -> None:
        """Show these played cards, the one with id ``wrong`` (that lost the round)
        marked (repainted only when they change)."""
        if cards != self._cards or wrong != self._wrong:
            self._cards, self._wrong = list(cards), wrong
            self.refresh()

    def render(self) -> Text:
        return Text(played_line(self._cards, self.content_region.width or 80, self._wrong),
                    no_wrap=True)
