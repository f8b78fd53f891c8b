"""The GET OUT! score table: one row per player, the total, then each round's points.

It draws what Textual's ``DataTable(cursor_type="none", zebra_stripes=True)`` drew for
it, cell for cell and style for style (a header row, zebra-striped rows, each column as
wide as its widest cell plus one space each side, the rest of each line in the row's
faded colour), without the rest of a ``DataTable``: no cursor, no keys of its own, no
per-cell bookkeeping. Columns that do not fit the box are left out whole, a ``…`` after
the last label shown saying so (the screen puts the newest rounds first). Importing and
building a ``DataTable`` costs the solo table's first frame a module import, ten component
classes to style and cell caches to fill on the first paint; this table has only what a
score table needs.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import chain
from typing import Any

from rich.console import Console
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.color import Color
from textual.geometry import Size
from textual.scroll_view import ScrollView
from textual.strip import Strip

#: Spaces each side of a cell's content (``DataTable``'s ``cell_padding``).
PADDING = 1
#: The columns always shown (the player, the total), however narrow the box.
KEPT = 2


#: Cells a player's name keeps however narrow the box (more of the table scrolls).
NAMES_AT_LEAST = 5
#: Cells a longer name is cut to when that shows a round's points beside it.
NAMES_BESIDE_ROUNDS = 10


def _cut(cell: Text, width: int) -> Text:
    """``cell`` in at most ``width`` cells, ending in … when cut."""
    if cell.cell_len <= width:
        return cell
    cut = cell.copy()
    cut.truncate(width, overflow="ellipsis")
    return cut


class ScoreTable(ScrollView, can_focus=True):
    """A header and rows of cells (``Text``), shown with :meth:`set_table`."""

    COMPONENT_CLASSES = {"scores--header", "scores--even-row", "scores--odd-row"}

    # DataTable's own styles for what this table shows (textual/widgets/_data_table.py).
    DEFAULT_CSS = """
    ScoreTable {
        background: $surface;
        color: $foreground;
        height: auto;
        max-height: 100%;
        &:focus {
            background-tint: $foreground 5%;
            & > .scores--header { background-tint: $foreground 5%; }
        }
        &:dark > .scores--even-row { background: $surface-darken-1 40%; }
        & > .scores--header { text-style: bold; background: $panel; color: $foreground; }
        &:ansi > .scores--header { background: ansi_bright_blue; color: ansi_default; }
        & > .scores--odd-row { }
        & > .scores--even-row { background: $surface-lighten-1 50%; }
    }
    """

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        #: The whole table as set, and the part of it shown.
        self._all: tuple[list[Text], list[list[Text]]] = ([], [])
        self._header: list[Text] = []
        self._rows: list[list[Text]] = []
        self._widths: list[int] = []
        self._lines: dict[tuple[object, ...], Strip] = {}

    @property
    def row_count(self) -> int:
        """The number of rows (players), the header not counted."""
        return len(self._rows)

    @property
    def header_labels(self) -> list[str]:
        """The header's labels, as plain text."""
        return [cell.plain for cell in self._header]

    def get_row_at(self, index: int) -> list[Text]:
        """The cells of row ``index``."""
        return list(self._rows[index])

    def set_table(self, header: Sequence[Text], rows: Sequence[Sequence[Text]]) -> None:
        """Show ``header`` over ``rows`` (each row as many cells as the header): the first
        :data:`KEPT` columns, then as many of the others, in order, as fit whole, the last
        one's label ending in ``…`` when more did not (a column cut at the edge read as
        a stray letter)."""
        self._all = (list(header), [list(row) for row in rows])
        self._fit()

    def on_resize(self) -> None:
        self._fit()

    def _fit(self) -> None:
        header, rows = self._all
        widths = [
            max(cell.cell_len for cell in chain([label], (row[i] for row in rows)))
            + 2 * PADDING
            for i, label in enumerate(header)
        ]
        room = self.scrollable_content_region.width

        def cost(count: int) -> list[int]:
            """The widths of the first ``count`` columns, the last one's label saying
            with a ``…`` that more are left out."""
            kept = widths[:count]
            kept[-1] = max(kept[-1], header[count - 1].cell_len + 1 + 2 * PADDING)
            return kept

        def fits() -> int:
            """How many columns fit the box."""
            shown = len(header)
            if room and sum(widths) > room and len(header) > KEPT:
                shown = KEPT
                while shown + 1 < len(header) and sum(cost(shown + 1)) <= room:
                    shown += 1
            return shown

        whole = widths[0] if widths else 0
        shown = fits()
        if shown < len(header) and whole > NAMES_BESIDE_ROUNDS + 2 * PADDING:
            # Long names cut, for the newest rounds beside them (a name of 24 letters
            # left the box only "total…" at 100 columns).
            widths[0] = NAMES_BESIDE_ROUNDS + 2 * PADDING
            if (more := fits()) > shown:
                shown = more
            else:
                widths[0] = whole
        self._header = header[:shown]
        cut = bool(widths) and widths[0] != whole
        self._rows = [[_cut(row[0], widths[0] - 2 * PADDING), *row[1:shown]] if cut
                      else row[:shown] for row in rows]
        self._widths = widths[:shown]
        if shown < len(header):
            self._header[-1] = Text(f"{header[shown - 1].plain}…")
            self._widths = cost(shown)
        over = sum(self._widths) - room
        if room and over > 0:
            # Even the names and totals are too wide: long names are cut (with …), not
            # the box given a scroll bar that hides its last row.
            names = max(NAMES_AT_LEAST + 2 * PADDING, self._widths[0] - over)
            if names < self._widths[0]:
                self._widths[0] = names
                self._rows = [[_cut(row[0], names - 2 * PADDING), *row[1:]]
                              for row in self._rows]
        self._lines.clear()
        self.virtual_size = Size(sum(self._widths), 1 + len(self._rows))
        self.refresh()

    def notify_style_update(self) -> None:
        """New styles (a theme, focus): the lines are drawn again."""
        super().notify_style_update()
        self._lines.clear()

    def render_line(self, y: int) -> Strip:
        """Line ``y`` of the widget: the header stays put, the rows scroll under it."""
        width = self.size.width
        scroll_x, scroll_y = self.scroll_offset
        row = -1 if y == 0 else y - 1 + scroll_y
        base_style = self.rich_style
        if row >= len(self._rows) or not self._header:
            return Strip.blank(width, base_style)
        key = (row, scroll_x, width, base_style)
        strip = self._lines.get(key)
        if strip is None:
            strip = self._line(row, scroll_x, width, base_style)
            self._lines[key] = strip
        return strip

    def _cell(self, console: Console, cell: Text, width: int, pre: Style) -> list[Segment]:
        """``cell`` in ``width`` cells, styled over ``pre``: the segments Rich renders of
        ``Styled(Padding(cell, (0, 1)), pre_style=pre, post_style=Style.from_color() * 2)``
        in one line (as ``DataTable`` drew a cell), built here: a cell is one line (a
        name, a number) and its column is as wide as its widest cell and the padding
        (``set_table``), which is much cheaper than Rich rendering each cell."""
        inner = width - 2 * PADDING
        post = Style.from_color() + Style.from_color()
        blank = pre + Style() + post
        pad = Segment(" " * PADDING, blank)
        out = [pad]
        # Its own style as a span, as Text.__rich_console__ renders it (Text.join).
        out.extend(Segment(text, pre + (own or Style()) + post)
                   for text, own, _ in Text("\n").join([cell]).render(console))
        if cell.cell_len < inner:
            out.append(Segment(" " * (inner - cell.cell_len), blank))
        out.append(pad)
        return out

    def _line(self, row: int, scroll_x: int, width: int, base_style: Style) -> Strip:
        """The cells of ``row`` (-1: the header) from column ``scroll_x``, ``width`` wide."""
        if row == -1:
            style = self.get_component_styles("scores--header").rich_style
            cells = self._header
        else:
            name = "scores--odd-row" if row % 2 else "scores--even-row"
            style = self.get_component_styles(name).rich_style
            cells = self._rows[row]
        console = self.app.console
        segments: list[Segment] = []
        for column, (cell, cell_width) in enumerate(zip(cells, self._widths, strict=False)):
            pre = style + Style() + Style.from_meta({"row": row, "column": column})
            segments.extend(self._cell(console, cell, cell_width, pre))
        # The rest of the line in the row's colour, faded into the table's background.
        if style.bgcolor is not None:
            faded = Color.from_rich_color(style.bgcolor).blend(self.background_colors[1],
                                                               factor=0.25)
            extend = Style.from_color(color=style.color, bgcolor=faded.rich_color)
        else:
            extend = Style.from_color(style.color, style.bgcolor)
        extend += Style.from_meta({"row": row, "column": 0, "out_of_bounds": True})
        segments.append(Segment(" " * max(0, width - sum(self._widths)), extend))
        cropped = Strip(segments).crop(scroll_x, scroll_x + width)
        return cropped.adjust_cell_length(width, base_style).simplify()


def plain_cell(text: str) -> Text:
    """A score table cell (as a ``DataTable`` made one of a str, not read as markup)."""
    return Text(text, no_wrap=True, end="")


def out_after(rounds: list[list[int]], seat: int, limit: Any) -> int | None:
    """The round (from 1) after which ``seat``'s total passed the match's ``limit``: it
    played no round after that one, whose points say "—" (a 0 there read as a round won)."""
    if not isinstance(limit, int | float):
        return None
    total = 0
    for number, points in enumerate(rounds, start=1):
        total += points[seat]
        if total > limit:
            return number
    return None


def score_rows(view: dict[str, Any], names: Sequence[str], me: int | None,
               limit: Any) -> tuple[list[Text], list[list[Text]]]:
    """The score table's header and rows: one row per player (so none is cut off), the
    total first, then the rounds, newest first (a narrow box cuts the oldest); a round
    after a player passed the ``limit`` says "—"."""
    rounds = view["history"]
    newest_first = list(reversed(list(enumerate(rounds, start=1))))
    header = [Text(label) for label in ["player", "total", *[f"r{i}" for i, _ in newest_first]]]
    rows = []
    for seat, name in enumerate(names):
        total = view["scores"][seat]
        gone = out_after(rounds, seat, limit)
        rows.append([Text(name, style="bold" if seat == me else ""),
                     plain_cell(f"{total} ✗" if view["out"][seat] else str(total)),
                     *[plain_cell("—" if gone is not None and i > gone else str(points[seat]))
                       for i, points in newest_first]])
    return header, rows
