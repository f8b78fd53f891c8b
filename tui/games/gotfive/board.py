"""The erasable board: 5 colour rows × 12 numbers, each with its dots and your mark.

The screen owns the keys (arrows move the cursor, space cycles a cell) and passes the
board its state whole: ``marks`` (the view's marks with the moves still on their way
laid over them), ``locked`` (numbers auto-cross keeps crossed), ``hint`` (the table's
exact hint in board mode, or ``None``) and ``cursor``. A click on a cell posts
:class:`BoardWidget.CellClicked`. Cells grow with the widget: one line per row on a
small terminal, two (number, then dots) with a gap between rows on a big one.

Nothing depends on colour: a cross is ``✗``, a number auto-cross keeps crossed (you
can see it elsewhere) ``-``, a circle ``○``, a number no rack can hold (hint) ``·``
(``⊘`` if you circled it), a number that must be yours (hint) ``★``, the cursor is
reversed.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual import events
from textual.geometry import Region
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from engine.gotfive import COLOURS, PER_COLOUR, dots_of, numbers_of_colour
from tui.games.gotfive.text import LETTERS, colour_style
from tui.widgets.lines import TextLines

#: Numbers a row in each half of a split board (see ``BoardWidget.split``).
HALF = PER_COLOUR // 2
#: The next mark when a cell is cycled: blank → crossed → circled → blank.
CYCLE: dict[str | None, str | None] = {None: "cross", "cross": "circle", "circle": None}
GLYPHS = {"cross": "✗", "circle": "○"}
#: A number auto-cross keeps crossed: not the player's own ✗ (that one they may undo).
#: A dash, not ×: on a monochrome terminal × and ✗ looked alike.
SEEN = "-"


def number_at(row: int, col: int) -> int:
    """The number in board row ``row`` (a colour), column ``col``."""
    return row + 1 + col * COLOURS


def cell_of(n: int) -> tuple[int, int]:
    """The (row, column) of number ``n`` on the board."""
    return (n - 1) % COLOURS, (n - 1) // COLOURS


def beyond(row: int, col: int, step: int) -> list[int]:
    """The numbers of board row ``row`` left of column ``col`` (``step`` -1: the lower
    ones) or right of it (``step`` 1: the higher ones), the cell itself not included."""
    columns = range(col + 1, PER_COLOUR) if step > 0 else range(col)
    return [number_at(row, c) for c in columns]


class BoardWidget(TextLines):
    """One player's private board (see the module docstring)."""

    DEFAULT_CSS = """
    BoardWidget { height: 5; min-height: 5; width: 1fr; }
    """

    class CellClicked(Message):
        """The player clicked the cell of number ``n``."""

        def __init__(self, n: int) -> None:
            super().__init__()
            self.n = n

    marks: reactive[dict[int, str]] = reactive(dict, always_update=True)
    locked: reactive[frozenset[int]] = reactive(frozenset)
    hint: reactive[dict[str, Any] | None] = reactive(None, always_update=True)
    cursor: reactive[tuple[int, int]] = reactive((0, 0))

    #: Width of the row label ("A " …).
    LABEL = 3

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        #: The rows drawn last time, by what they show (see :meth:`render`).
        self._rows: dict[tuple[object, ...], list[Text]] = {}

    def geometry(self) -> tuple[int, int, int]:
        """(cell width, lines per row, lines of content per row) for the current size."""
        if self.split:
            return max(6, min(11, (self.size.width - self.label) // HALF)), 1, 1
        width = max(6, (self.size.width - self.LABEL) // PER_COLOUR)
        width = min(width, 11)
        lines = min(3, self.size.height // COLOURS)
        return (width, lines, 2) if lines >= 2 else (width, 1, 1)

    def column_widths(self, first: int, last: int) -> tuple[int, ...]:
        """The widths of columns ``first`` to ``last`` (exclusive) as drawn now: the
        cell width, and on one line a number a cell, a cell more after a column of
        three dots where the row has room (a mark right after them ran on: ``42•••-47•``)."""
        width, _, content = self.geometry()
        widths = [width] * (last - first)
        if content == 1:
            spare = self.size.width - self.label - sum(widths)
            for col in range(first, last - 1):
                if spare > 0 and width < 7 and dots_of(number_at(0, col)) == 3:
                    widths[col - first] += 1
                    spare -= 1
        return tuple(widths)

    def column_at(self, x: int, first: int, last: int) -> int | None:
        """The column (``first`` to ``last``) drawn at ``x`` cells after the label."""
        start = 0
        for col, width in enumerate(self.column_widths(first, last), start=first):
            if start <= x < start + width:
                return col
            start += width
        return None

    @property
    def label(self) -> int:
        """The colour letters' column: narrower where a split board's six numbers a row
        take all the rest (a phone's 40 columns, less a scroll bar, cut the last dots)."""
        if self.split:
            return max(1, min(self.LABEL, self.size.width - HALF * 6 - 1))
        return self.LABEL

    @property
    def split(self) -> bool:
        """Too narrow for twelve numbers a row (a phone held upright): the board is
        drawn in two halves, numbers 1–30 over 31–60, one line a colour."""
        return bool(self.size.width) and self.size.width < self.LABEL + PER_COLOUR * 6

    def on_resize(self) -> None:
        self.set_class(self.split, "-split")

    def show_cursor(self) -> None:
        """Scroll what holds the board (stacked on a short screen) to the cursor's row
        alone, or to the very top for row A of the first numbers: scrolled to the whole
        board, a 60 × 20 screen lost the public row and the racks above it, for good."""
        row, col = self.cursor
        parent = self.parent
        if not isinstance(parent, Widget):
            return
        if row == 0 and (not self.split or col < PER_COLOUR // 2):
            parent.scroll_home(animate=False)
            return
        if self.split:
            line, lines = (row if col < PER_COLOUR // 2 else COLOURS + 1 + row), 1
        else:
            lines = self.geometry()[1]
            line = row * lines
        top = self.virtual_region.y + self.styles.gutter.top + line
        parent.scroll_to_region(Region(0, top, 1, lines), animate=False)

    def get_content_height(self, container: Any, viewport: Any, width: int) -> int:
        """Three lines a row (number, dots, a gap) when there is room, else one; two
        halves and a gap between them when split."""
        if width < self.LABEL + PER_COLOUR * 6:
            return 2 * COLOURS + 1
        return COLOURS * 3 if container.height >= COLOURS * 3 + 2 else COLOURS

    def impossible(self) -> set[int]:
        """Numbers the hint says no consistent rack holds (board mode only)."""
        possible = (self.hint or {}).get("possible")
        if not isinstance(possible, dict):
            return set()
        out: set[int] = set()
        for colour in range(COLOURS):
            row = possible.get(str(colour))
            if isinstance(row, list):
                out.update(n for n in numbers_of_colour(colour) if n not in row)
        return out

    def certain(self) -> set[int]:
        """Numbers the hint says every consistent rack holds (board mode only)."""
        certain = (self.hint or {}).get("certain")
        return {n for n in certain if isinstance(n, int)} if isinstance(certain, list) else set()

    def cell(self, n: int, impossible: set[int], certain: set[int]) -> tuple[str, str]:
        """The glyph in front of ``n`` and the style of its cell."""
        return cell_look(n, self.marks.get(n), locked=n in self.locked,
                         impossible=n in impossible, certain=n in certain,
                         cursor=cell_of(n) == self.cursor)

    def render(self) -> Text:
        """The board, row by row (drawn line by line: ``TextLines`` turns only the lines
        of a row whose cells changed into strips again)."""
        _, lines, content = self.geometry()
        impossible, certain = self.impossible(), self.certain()
        rows: dict[tuple[object, ...], list[Text]] = {}
        out = Text(no_wrap=True, overflow="crop")
        halves = ((0, HALF), (HALF, PER_COLOUR)) if self.split else ((0, PER_COLOUR),)
        for half, (first, last) in enumerate(halves):
            if half:
                out.append("\n")  # the gap between the halves
            widths = self.column_widths(first, last)
            for row in range(COLOURS):
                cells = tuple(self.cell(number_at(row, col), impossible, certain)
                              for col in range(first, last))
                # A row is built again only when one of its cells changed: a change is
                # a mark or two, and building the whole board was most of a repaint.
                key = (row, first, widths, content, cells, self.label)
                parts = self._rows.get(key) or _row(row, cells, widths, content, self.label,
                                                    first)
                rows[key] = parts
                for i in range(lines):
                    if i < content:
                        out.append_text(parts[i])
                    if row < COLOURS - 1 or i < lines - 1 or half < len(halves) - 1:
                        out.append("\n")
        self._rows = rows
        return out

    def on_click(self, event: events.Click) -> None:
        """A click on a cell: tell the screen which number it was."""
        offset = event.get_content_offset(self)
        if offset is None or offset.x < self.label:
            return
        _, lines, content = self.geometry()
        x = offset.x - self.label
        if self.split:
            half, row = divmod(offset.y, COLOURS + 1)
            col = self.column_at(x, half * HALF, half * HALF + HALF) if half < 2 else None
            if col is not None and row < COLOURS:
                self.post_message(self.CellClicked(number_at(row, col)))
            return
        row, line = divmod(offset.y, lines)
        col = self.column_at(x, 0, PER_COLOUR)
        if line < content and 0 <= row < COLOURS and col is not None:
            self.post_message(self.CellClicked(number_at(row, col)))


def cell_look(n: int, mark: str | None, *, locked: bool = False, impossible: bool = False,
              certain: bool = False, cursor: bool = False) -> tuple[str, str]:
    """The glyph in front of number ``n`` and the style of its cell: its ``mark``, kept
    crossed by auto-cross (``locked``), held by no rack that fits or by every one (the
    hint's ``impossible``, ``certain``), under the ``cursor``."""
    styles = []
    if mark == "cross" or locked or (mark is None and impossible):
        styles.append("dim")
    if certain:
        styles.append("bold underline")
    elif mark == "circle":
        styles.append("bold")
    if cursor:
        styles.append("reverse")
    if locked:
        glyph = SEEN
    elif mark == "circle" and impossible:
        glyph = "⊘"  # circled, but no rack that fits holds it
    elif mark in GLYPHS:
        glyph = GLYPHS[mark]
    elif certain:
        glyph = "★"
    elif impossible:
        glyph = "·"
    else:
        glyph = " "
    return glyph, " ".join(styles)


def seen_in(view: dict[str, Any], seat: int | None) -> frozenset[int]:
    """The numbers ``seat`` sees in its ``view`` off its own rack (the public row, every
    clue tile, every other rack face up to it): the ones auto-cross keeps crossed."""
    seen = {t["n"] for t in view.get("public") or [] if isinstance(t, dict) and "n" in t}
    seen.update(c["tile"] for c in view.get("clues") or []
                if isinstance(c, dict) and "tile" in c)
    for other, rack in enumerate(view.get("racks") or []):
        if other != seat and isinstance(rack, list):
            seen.update(t["n"] for t in rack if isinstance(t, dict) and "n" in t)
    return frozenset(seen)


#: Columns of :func:`board_text` in one piece: a label, then four a number.
BOARD_TEXT_WIDTH = BoardWidget.LABEL + 4 * PER_COLOUR


def board_text(marks: dict[str, str], locked: frozenset[int] = frozenset(), *,
               split: bool = False) -> Text:
    """A board as its player had marked it (a view's ``marks``), one line a colour and
    four columns a number (mark and number, no dots): what a review shows of a seat's
    board beside its racks. ``locked``: the numbers auto-cross kept crossed then, drawn
    as the table draws them (``-``, not the player's own ✗). ``split`` (narrower than
    :data:`BOARD_TEXT_WIDTH`): 1–30 above 31–60, as the table splits it."""
    halves = (range(HALF), range(HALF, PER_COLOUR)) if split else (range(PER_COLOUR),)
    lines: list[Text] = []
    for cols in halves:
        if lines:
            lines.append(Text())  # (between the halves, as at the table)
        for row in range(COLOURS):
            line = Text()
            line.append(f"{LETTERS[row]:<{BoardWidget.LABEL}}", style=colour_style(row))
            for col in cols:
                n = number_at(row, col)
                glyph, style = cell_look(n, marks.get(str(n)), locked=n in locked)
                line.append(f"{glyph}{n:>2} ", style=style)
            lines.append(line)
    return Text("\n", no_wrap=True, overflow="crop").join(lines)


def _row(row: int, cells: tuple[tuple[str, str], ...], widths: tuple[int, ...],
         content: int, label: int, first: int = 0) -> list[Text]:
    """The lines of one board row (one, or two: numbers, then dots): its label, then
    each cell's glyph, number and dots, centred in its column's width, in the cell's
    style."""
    parts: list[Text] = [Text(), Text()]
    parts[0].append(f"{LETTERS[row]:<{label}}", style=colour_style(row))
    parts[1].append(" " * label, style="")
    for col, (glyph, style) in enumerate(cells, start=first):
        width = widths[col - first]
        n = number_at(row, col)
        if content == 1:
            face = Text(glyph)
            face.append(f"{n:>2}", style="bold")
            face.append(f"{'•' * dots_of(n):<3}")
            parts[0].append_text(_centre(face, width, style))
        else:
            face = Text(f"{glyph} ")
            face.append(f"{n:>2}", style="bold")
            parts[0].append_text(_centre(face, width, style))
            parts[1].append_text(_centre(Text("•" * dots_of(n)), width, style))
    return parts


def _centre(text: Text, width: int, style: str) -> Text:
    """``text`` centred in a cell ``width`` wide, the whole cell in ``style``."""
    room = max(0, width - text.cell_len)
    out = Text(" " * (room // 2))
    out.append_text(text)
    out.append(" " * (room - room // 2))
    if style:
        out.stylize(style)
    return out
