"""Another player's seat at a Get It! table: the card they show you, their pile, their
signals — one widget that draws its own lines.

A card changes at nearly every update of a round, in every app at the table, and a frame
draws again every widget whose container overlaps what changed: the other cards of the
row too. Drawn as parts (the number's ``Digits``, a special card's word, the signal
lines), a card was three widgets to draw each time; drawn as one, it is one, and a change
of its signal lines repaints those lines alone (``refresh`` of their region).
"""

from __future__ import annotations

from typing import Any

from rich.align import Align
from rich.console import RenderableType
from rich.style import Style
from rich.text import Text
from textual.color import Color
from textual.geometry import Region
from textual.message import Message
from textual.renderables.digits import Digits as DigitsRenderable
from textual.strip import Strip
from textual.widget import Widget

from tui.games.getit.text import SHORT_SIGNALS, SIGNAL_VERBS, SPECIALS, card_text
from tui.games.getit.titles import fitted, named


def compact(line: str) -> str:
    """A signal line with the seat's number alone, its verb in a word, for a card too
    narrow for names ("looks at 2 Bob" → "look 2", "2 Bob: look, smile" → "2: look,
    smile"): at 80 columns and six seats a watcher read "looks at …" on every card."""
    for kind, verb in SIGNAL_VERBS.items():
        if line.startswith(f"{verb} "):
            return f"{SHORT_SIGNALS[kind]} {line[len(verb) + 1:].split(' ', 1)[0]}"
    whom, sep, words = line.rpartition(": ")
    return f"{whom.split(' ', 1)[0]}: {words}" if sep else line


#: A block font for the numbers players show each other on a big terminal: five rows,
#: each digit three cells of its pattern wide (drawn two columns a cell), readable
#: across a room where Textual's three-row digits are not.
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
#: Rows of a card's face: Textual's digits, or a special card's word (in the middle);
#: the block font's number (in the middle of seven).
FACE_ROWS, BIG_FACE_ROWS = 3, 7


def big_number(value: str) -> str:
    """``value``'s digits in the block font (:data:`BIG_DIGITS`), a space between two."""
    digits = [BIG_DIGITS[d] for d in value if d in BIG_DIGITS]
    return "\n".join(
        "  ".join(glyph[row].replace("#", "██").replace(" ", "  ") for glyph in digits)
        for row in range(BIG_ROWS))


class SeatCard(Widget):
    """Another player at the table: the big card they show you, their pile, their signals.

    ``big`` (the screen sets it on a terminal with room for it) draws a number in the
    block font (:func:`big_number`) instead of Textual's digits. The face is at the top,
    the signal lines take the rest of the card; the card's size never depends on what
    it shows (no layout of the screen when it changes).
    """

    DEFAULT_CSS = """
    SeatCard { width: 1fr; height: 100%; min-width: 8; border: round $foreground 40%;
               padding: 0 0 0 1; border-title-align: left; border-subtitle-align: right; }
    SeatCard.-tight { padding: 0; }
    """

    #: Numbers in the block font (a big terminal: see ``SeatsRow.fit``).
    big = False
    #: A short terminal: the pile's count goes in the title, two lines of signals.
    short = False
    #: A narrow card: the shorter "◀ you look" mark.
    narrow = False
    #: A terminal too low for the numbers' three rows (a phone on its side): one row,
    #: and the log keeps its lines.
    tiny = False

    class Chosen(Message):
        """The player clicked this seat (to look at its player)."""

        def __init__(self, seat: int) -> None:
            super().__init__()
            self.seat = seat

    def __init__(self, seat: int, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.seat = seat
        self._state: dict[str, Any] | None = None
        #: Whether the signal lines wear the tint of someone looking at us.
        self._tinted = False
        #: Whether the card wears the double border of the player we look at.
        self._marked = False
        #: What the face shows: ("digits" | "big" | "word", its text).
        self._face: tuple[str, str] = ("word", "")
        #: The signal lines (with the pile's count above them on a tall card).
        self._info = Text()
        #: The face's lines and the signal lines, drawn for the content's (width,
        #: height), until they change.
        self._face_lines: list[Strip] | None = None
        self._lines: list[Strip] | None = None
        self._drawn_for: tuple[int, int] | None = None

    @property
    def face(self) -> tuple[str, str]:
        """What the face shows: ``("digits" | "big" | "word", its text)``."""
        return self._face

    @property
    def signal_text(self) -> Text:
        """The signal lines as the card draws them (the pile's count first on a tall
        card, a line a signal, what the player said last)."""
        return self._info

    @property
    def tinted(self) -> bool:
        """Whether the signal lines wear the tint of a player looking at us."""
        return self._tinted

    def set_fit(self, *, big: bool, short: bool, narrow: bool, tiny: bool = False) -> None:
        """Fit the card to the room there is, from now on: numbers in the block font, in
        three rows or (tiny) one; the count in the title (short); the shorter look mark
        (narrow)."""
        if (big, short, narrow, tiny) != (self.big, self.short, self.narrow, self.tiny):
            if (big, tiny) != (self.big, self.tiny):
                self._face = ("", "")  # (drawn afresh: its rows change with the font)
            self.big, self.short, self.narrow, self.tiny = big, short, narrow, tiny
            if self._state is not None:
                self._paint(**self._state)

    def show(self, *, name: str | tuple[str, ...], top: dict[str, Any] | None, count: int,
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
        if self.is_mounted:
            self._paint(**state)

    def on_mount(self) -> None:
        """Draw what was shown before the card was in the screen."""
        if self._state is not None:
            self._paint(**self._state)

    def on_resize(self) -> None:
        """The edges' words and the face fit the new size."""
        if self._state is not None:
            self._paint(**self._state)

    # ---- what the card says ------------------------------------------------------

    def _tint(self) -> Color:
        """The tint of a player looking at us: the theme's warning colour, faint."""
        warning = self.app.theme_variables.get("warning", "#ffa62b")
        return Color.parse(warning).with_alpha(0.1)

    def _mark(self, looked_at: bool) -> None:
        """The player we look at: a double border in the theme's accent colour. Set on
        the card itself, not as a class: a class makes Textual match the stylesheet again
        for the card, at the presser's every look and stop."""
        self._marked = looked_at
        accent = self.app.theme_variables.get("accent", "#ffa62b")
        self.styles.border = ("double", Color.parse(accent)) if looked_at else None

    def notify_style_update(self) -> None:
        """A new theme: the mark and the tint in its colours."""
        super().notify_style_update()
        if self._marked:
            self._mark(True)
        self._face_lines = self._lines = None

    def _paint(self, *, name: str | tuple[str, ...], top: dict[str, Any] | None, count: int,
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
                               f"◀ {signals[3:]}".rstrip(), "◀") if looked_at else (
                # A smile or look past of ours that stayed when we looked elsewhere: said
                # here, or it showed nowhere on our screen (our line gives way first).
                fitted(room, f"◀ your {signals[3:]}", f"◀ {signals[3:]}", f"◀ {short[3:]}",
                       "◀") if signals else "")
        # Set only when they change: each setting repaints the whole card, and most
        # updates change only the signal lines under the card's face.
        if self.border_title != title:
            self.border_title = title
        if self.border_subtitle != subtitle:
            self.border_subtitle = subtitle
        if looked_at != self._marked:
            self._mark(looked_at)
        face = self._face_of(top, count)
        info = Text("" if self.short else pile, no_wrap=True, overflow="ellipsis")
        # (The lines' room under the face: none before the first layout.)
        room = self.content_size.height - self._face_rows(face) - bool(info) - bool(said)
        chosen = grouped if 0 < room < len(lines) else lines
        if self.content_size.width and any(len(line) > self.content_size.width
                                           for line in chosen):
            chosen = [compact(line) for line in chosen]
        for line in chosen:
            if info:
                info.append("\n")
            ours = line.endswith("YOU") or line.startswith("YOU:")
            info.append(line, style="reverse bold" if ours else "")
        if said:
            if info:
                info.append("\n")
            info.append(f"“{said}”", style="italic")
        if face != self._face:
            self._face, self._face_lines = face, None
            self._info, self._tinted, self._lines = info, at_me, None
            self.refresh()
        elif info != self._info or at_me != self._tinted:
            # The signal lines alone: the face and the border stay as drawn.
            self._info, self._tinted, self._lines = info, at_me, None
            size = self.content_size
            rows = self._face_rows(face)
            if not size:  # (hidden, between rounds: no region to mark, and the lines
                self.refresh()  # drawn last round came back, "2 left" of 6, to a watcher)
            else:
                self.refresh(Region(0, rows, size.width, max(0, size.height - rows)))

    def _face_of(self, top: dict[str, Any] | None, count: int) -> tuple[str, str]:
        if isinstance(top, dict) and top.get("kind") == "number":
            value = str(top.get("value"))
            return ("big", big_number(value)) if self.big else ("word", value) \
                if self.tiny else ("digits", value)
        if top is None:
            # ("— empty —" wrapped its last dash onto a line of its own on a narrow card.)
            empty = "— empty —" if self.content_size.width >= len("— empty —") else "empty"
            return ("word", empty if count == 0 else "?")
        symbol, text = SPECIALS.get(str(top.get("kind")), ("?", card_text(top)))
        return ("word", f"{symbol} {text} {symbol}")

    def _face_rows(self, face: tuple[str, str]) -> int:
        # (On a big terminal every face takes the block font's rows: a special card's
        # word in three put its signal lines out of line with the cards beside it.)
        return BIG_FACE_ROWS if face[0] == "big" or self.big else 1 if self.tiny \
            else FACE_ROWS

    # ---- drawing ---------------------------------------------------------------------

    def render_line(self, y: int) -> Strip:
        """Line ``y`` of the card's content: the face, then the signal lines."""
        width, height = self.content_size
        if self._drawn_for != (width, height):
            self._drawn_for, self._face_lines, self._lines = (width, height), None, None
        rows = min(self._face_rows(self._face), height)
        if y < rows:
            if self._face_lines is None:
                self._face_lines = self._draw_face(width, rows)
            return self._face_lines[y]
        if self._lines is None:
            self._lines = self._draw_signals(width, height - rows)
        return self._lines[y - rows] if y - rows < len(self._lines) else Strip.blank(
            width, self.rich_style)

    def _draw_face(self, width: int, rows: int) -> list[Strip]:
        style = self.rich_style
        kind, text = self._face
        face: RenderableType = (
            Align(DigitsRenderable(text, style), "center", style=style) if kind == "digits"
            # (The block font's rows centred as one block: each row centred alone slid a
            # row like "██    " to the middle, and a 5 read as a 3.)
            else Align(Text(text, style=style + Style(bold=True)), "center", style=style)
            if kind == "big"
            else Text(text, style=style + Style(bold=True), justify="center"))
        drawn = self._strips_of(face, width, style)
        # (The digits fill their three rows; a word or the block font sits in the middle.)
        top = 0 if kind == "digits" else max(0, (rows - len(drawn)) // 2)
        blank = Strip.blank(width, style)
        lines = ([blank] * top + drawn)[:rows]
        return lines + [blank] * (rows - len(lines))

    def _draw_signals(self, width: int, rows: int) -> list[Strip]:
        style = self.rich_style
        if self._tinted:
            _, background = self.background_colors
            style = style + Style(bgcolor=(background + self._tint()).rich_color)
        lines = self._strips_of(self._info, width, style)[:rows]
        return lines + [Strip.blank(width, style)] * (rows - len(lines))

    def _strips_of(self, renderable: RenderableType, width: int, style: Style) -> list[Strip]:
        console = self.app.console
        options = console.options.update(width=max(1, width), height=None, highlight=False)
        return [Strip(line, width)
                for line in console.render_lines(renderable, options, style=style, pad=True)]

    def on_click(self) -> None:
        """A click on a player looks at them."""
        self.post_message(self.Chosen(self.seat))
