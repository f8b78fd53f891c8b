"""The Get It! table's widgets: a player's seat, the played cards, the preparation row.

Attributes down, messages up: the screen sets each widget's data; a click on a seat
posts :class:`SeatCard.Chosen`, a click on a card in preparation posts
:class:`PrepRow.CardClicked`. Nothing here speaks to the host.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.cells import cell_len
from rich.text import Text
from textual.app import ComposeResult
from textual.color import Color
from textual.containers import Horizontal, HorizontalScroll, Vertical
from textual.message import Message
from textual.reactive import reactive
from textual.timer import Timer
from textual.widgets import Digits, Static

from tui.games.getit.text import SPECIALS, card_text
from tui.games.getit.titles import fitted, named
from tui.widgets.text import set_text

#: A block font for the numbers players show each other on a big terminal: five rows,
#: each digit three cells of its pattern wide (drawn two columns a cell), readable
#: across a room where Textual's three-row ``Digits`` are not.
BIG_DIGITS = {
    "0": ("###", "# #", "# #", "# #", "###"),
    "1": (" # ", "## ", " # ", " # ", "###"),
    "2": ("###", "  #", "###", "#  ", "###"),
    "3": ("###", "  #", " ##", "  #", "###"),
    "4": ("# #", "# #", "###", "  #", "  #"),
    "5": ("###", "#  ", "###", "  #", "###"),
    "6": ("###", "#  ", "###", "# #", "###"),
    "7": ("###", "  #", "  #", "  #", "  #"),
    "8": ("###", "# #", "###", "# #", "###"),
    "9": ("###", "# #", "###", "  #", "###"),
}
#: Rows of the big font.
BIG_ROWS = 5


def big_number(value: str) -> str:
    """``value``'s digits in the block font (:data:`BIG_DIGITS`), a space between two."""
    digits = [BIG_DIGITS[d] for d in value if d in BIG_DIGITS]
    return "\n".join(
        "  ".join(glyph[row].replace("#", "██").replace(" ", "  ") for glyph in digits)
        for row in range(BIG_ROWS))


#: The signal lines' background while nobody looks at us (see ``SeatCard._tint``).
NO_TINT = Color(0, 0, 0, 0)


class SeatCard(Vertical):
    """Another player at the table: the big card they show you, their pile, their signals.

    ``big`` (the screen sets it on a terminal with room for it) draws a number in the
    block font (:func:`big_number`) instead of Textual's ``Digits``.
    """

    # The signal lines take the rest of the card (1fr, not auto): they change at nearly
    # every update of a round, and a size of their own would ask for a layout of the
    # whole screen each time, in every app at the table.
    DEFAULT_CSS = """
    SeatCard { width: 1fr; height: 100%; min-width: 8; border: round $foreground 40%;
               padding: 0 0 0 1; border-title-align: left; border-subtitle-align: right; }
    SeatCard.-tight { padding: 0; }
    SeatCard Digits { width: 100%; text-align: center; }
    SeatCard .face-word { width: 100%; height: 3; content-align: center middle;
                          text-style: bold; }
    SeatCard .face-big { width: 100%; height: 7; content-align: center middle;
                         text-style: bold; display: none; }
    SeatCard .info { width: 100%; height: 1fr; }
    """

    #: Numbers in the block font (a big terminal: see ``SeatsRow.fit``).
    big = False
    #: A short terminal: the pile's count goes in the title, two lines of signals.
    short = False
    #: A narrow card: the shorter "◀ you look" mark.
    narrow = False

    class Chosen(Message):
        """The player clicked this seat (to look at its player)."""

        def __init__(self, seat: int) -> None:
            super().__init__()
            self.seat = seat

    def __init__(self, seat: int, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.seat = seat

    def compose(self) -> ComposeResult:
        # (Kept: a card is painted at most updates; a query for each part was a sixth of it.)
        self._parts = (Digits("", classes="face-digits"),
                       Static("", classes="face-big", markup=False),
                       Static("", classes="face-word", markup=False),
                       Static("", classes="info", markup=False))
        yield from self._parts

    def set_fit(self, *, big: bool, short: bool, narrow: bool) -> None:
        """Fit the card to the room there is, from now on: numbers in the block font or
        not; the count in the title (short); the shorter look mark (narrow)."""
        if (big, short, narrow) != (self.big, self.short, self.narrow):
            self.big, self.short, self.narrow = big, short, narrow
            if self._state is not None and self.children:
                self._paint(**self._state)

    _state: dict[str, Any] | None = None
    #: Whether the signal lines wear the tint of someone looking at us.
    _tinted = False
    #: Whether the card wears the double border of the player we look at.
    _marked = False

    def _tint(self) -> Color:
        """The tint of a player looking at us: the theme's warning colour, faint."""
        warning = self.app.theme_variables.get("warning", "#ffa62b")
        return Color.parse(warning).with_alpha(0.1)

    def _mark(self, looked_at: bool) -> None:
        """The player we look at: a double border in the theme's accent colour. Set on
        the card itself, not as a class: a class makes Textual match the stylesheet again
        for the card and everything in it, at the presser's every look and stop."""
        self._marked = looked_at
        accent = self.app.theme_variables.get("accent", "#ffa62b")
        self.styles.border = ("double", Color.parse(accent)) if looked_at else None

    def notify_style_update(self) -> None:
        """A new theme: the mark and the tint in its colours."""
        super().notify_style_update()
        if self._marked:
            self._mark(True)
        if self._tinted and self.children:
            self._parts[3].styles.background = self._tint()

    def show(self, *, name: str, top: dict[str, Any] | None, count: int,
             lines: list[str], said: str | None, looked_at: bool, at_me: bool,
             also: list[str] | None = None, grouped: list[str] | None = None) -> None:
        """Show this player's state (``looked_at``: we look at them; ``also``: what else
        we signal at them, "smile", "look past"; ``at_me``: they signal at us; ``grouped``:
        ``lines`` a line per seat, for a card with no room for a line a signal)."""
        state: dict[str, Any] = {"name": name, "top": top, "count": count, "lines": lines,
                                 "said": said, "looked_at": looked_at, "at_me": at_me,
                                 "also": list(also or []), "grouped": grouped or lines}
        if state == self._state:
            return  # nothing of this seat changed: nothing to repaint
        self._state = state
        if self.children:
            self._paint(**state)

    def on_mount(self) -> None:
        """Draw what was shown before the children existed."""
        if self._state is not None:
            self._paint(**self._state)

    def on_resize(self) -> None:
        """The edges' words fit the new width."""
        if self._state is not None and self.children:
            self._paint(**self._state)

    def _paint(self, *, name: str, top: dict[str, Any] | None, count: int,
               lines: list[str], said: str | None, looked_at: bool, at_me: bool,
               also: list[str], grouped: list[str]) -> None:
        pile = f"{count} left" if count else "pile empty"
        # What else we signal at them (smile, look past) is kept whole where the edge is
        # short: the words before it give way first ("◀ you look here · sm…" told
        # nothing).
        # (An edge's words have its width less the corners, a line and a space each side.)
        room = self.outer_size.width - 6 if self.outer_size.width else 80
        signals = "".join(f" · {kind}" for kind in also)
        if self.short and self.narrow:
            # (A narrow title has no room for the count: the bottom edge holds it; where
            # we look, the title ends "◀" as the double border marks it too.)
            title = named(room, self.seat, name, " ◀" if looked_at else "")
            subtitle = fitted(room, f"{pile}{signals}", signals[3:], pile, "")
        else:
            title = named(room, self.seat, name, f" · {pile}" if self.short else "")
            looks = ("◀ you look",) if self.narrow else ("◀ you look here", "◀ you look")
            # Then the signals' short words ("◀ you look · past": "◀ you · look past" read
            # as if we looked past them only); the last: "◀ smile", not "◀ · smile ·
            # loo…", a separator with nothing before it.
            short = signals.replace("look past", "past")
            subtitle = fitted(room, *(f"{w}{signals}" for w in looks),
                               *(f"{w}{short}" for w in looks if short != signals),
                               *(("◀ you",) if not signals else ()),
                               f"◀ {signals[3:]}".rstrip(), "◀") if looked_at else ""
        # Set only when they change: each setting repaints the whole card, and most
        # updates change only the signal lines under the card's face.
        if self.border_title != title:
            self.border_title = title
        if self.border_subtitle != subtitle:
            self.border_subtitle = subtitle
        if looked_at != self._marked:
            self._mark(looked_at)
        # The tint of a player looking at us goes on the signal lines (where "looks at
        # YOU" is), not the whole card, and as the lines' own background, not a class:
        # a class makes Textual match the stylesheet again for what wears it (for a
        # class on the card, the card and everything in it) at every look and stop.
        digits, block, word, info_line = self._parts
        if at_me != self._tinted:
            self._tinted = at_me
            info_line.styles.background = self._tint() if at_me else NO_TINT
        number = isinstance(top, dict) and top.get("kind") == "number"
        digits.display = number and not self.big
        block.display = number and self.big
        word.display = not number
        if number:
            assert top is not None
            if self.big:
                set_text(block, big_number(str(top.get("value"))))
            elif digits.value != (value := str(top.get("value"))):
                digits.update(value)  # (each update repaints: most keep the number)
        elif top is None:
            # ("— empty —" wrapped its last dash onto a line of its own on a narrow card.)
            empty = "— empty —" if self.size.width >= len("— empty —") else "empty"
            set_text(word, empty if count == 0 else "?")
        else:
            symbol, text = SPECIALS.get(str(top.get("kind")), ("?", card_text(top)))
            set_text(word, f"{symbol} {text} {symbol}")
        info = Text("" if self.short else pile, no_wrap=True, overflow="ellipsis")
        # (Its lines' room, as laid out: none before the first layout.)
        room = info_line.size.height - bool(info) - bool(said)
        for line in grouped if 0 < room < len(lines) else lines:
            if info:
                info.append("\n")
            ours = line.endswith("YOU") or line.startswith("YOU:")
            info.append(line, style="reverse bold" if ours else "")
        if said:
            if info:
                info.append("\n")
            info.append(f"“{said}”", style="italic")
        set_text(info_line, info)

    def on_click(self) -> None:
        """A click on a player looks at them."""
        self.post_message(self.Chosen(self.seat))


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
        yield Static("top ▸", classes="end", id="prep-top")
        scroll = HorizontalScroll(id="prep-cards")
        scroll.can_focus = False
        yield scroll
        yield Static("◂ bottom", classes="end", id="prep-bottom")

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
        self.watch(self.query_one("#prep-cards", HorizontalScroll), "scroll_x",
                   self._scrolled, init=False)

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
        dense = self._dense()
        if dense != self.has_class("dense"):
            self.set_class(dense, "dense")
            self._paint(self._chips)

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
