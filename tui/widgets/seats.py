"""Who sits where: names, bots, connection state, whose turn, and per-game columns."""

from __future__ import annotations

from typing import Any

from rich.console import Console, ConsoleOptions, RenderResult
from rich.style import Style
from rich.table import Table
from rich.text import Text
from textual.reactive import reactive
from textual.widgets import Static


class SeatsPanel(Static):
    """Attributes: ``seats`` (the table's public seats), ``me``, ``turn`` and ``columns``.

    ``columns`` maps a column title to one cell per seat, e.g. ``{"cards": [6, 5]}``.
    """

    DEFAULT_CSS = """
    SeatsPanel { height: auto; }
    """

    seats: reactive[list[dict[str, Any]]] = reactive(list, always_update=True)
    me: reactive[int | None] = reactive(None)
    turn: reactive[int | None] = reactive(None)
    columns: reactive[dict[str, list[Any]]] = reactive(dict, always_update=True)
    #: Words of the columns that give way to the players' names where the names would be
    #: cut (GET OUT!'s "dealer": at a phone's width it cut "Bartholomew (you)").
    spare: frozenset[str] = frozenset()

    def render(self) -> _Seats:
        """The seats as a table (as lines laid out like one, when they fit the width)."""
        titles = ["", "#", "player", *self.columns]
        rows = [self.row(seat) for seat in self.seats]
        shorts = [self.player(seat, short=True) if seat.get("for") else None
                  for seat in self.seats]
        return _Seats(titles, rows, self.app.console.get_style("table.header"), shorts,
                      self.spare)

    def row(self, seat: dict[str, Any]) -> list[Text | str]:
        """One seat's cells: the turn marker, number, name (with marks) and the columns."""
        index = seat["seat"]
        marker = Text("▶", style="bold yellow") if index == self.turn else Text("")
        cells = [str(self.columns[t][index]) if index < len(self.columns[t]) else ""
                 for t in self.columns]
        return [marker, str(index + 1), self.player(seat), *cells]

    def player(self, seat: dict[str, Any], short: bool = False) -> Text:
        """The player's cell: the name and its marks. A bot keeping an away person's seat
        warm says for whom ("Bot 2 for Bob [bot]"); ``short``, where that does not fit,
        it is the person's seat played by a bot ("Bob [bot]")."""
        index = seat["seat"]
        shown = seat["name"] or "(empty)"
        if seat.get("for"):
            shown = str(seat["for"]) if short else f"{shown} for {seat['for']}"
        name = Text(shown, style="bold" if index == self.me else "")
        if index == self.me:
            name.append(" (you)", style="italic")
        if seat["kind"] == "bot":
            name.append(" [bot]", style="cyan")
        elif seat["kind"] == "human" and not seat["connected"]:
            name.append(" [away]", style="red")
        elif seat["kind"] == "empty":
            name.stylize("dim")
        return name


class _Seats:
    """The seats for Rich, laid out for the width they are drawn in.

    That width comes with the drawing: the widget's own ``size`` is not asked, which,
    while the screen is laid out (a panel of ``height: auto`` is measured by drawing
    it), would arrange the whole screen a second time inside the layout.
    """

    def __init__(self, titles: list[str], rows: list[list[Text | str]], header: Style,
                 shorts: list[Text | None] | None = None,
                 spare: frozenset[str] = frozenset()) -> None:
        self.titles, self.rows, self.header = titles, rows, header
        #: Each row's shorter player cell, if it has one, for when the long one is cut.
        self.shorts = shorts
        #: Column words that give way where a name would be cut.
        self.spare = spare

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        """The lines (the table, when the columns do not fit). In a wide panel the
        player's column takes only a little more than its longest name: the other
        columns stay beside the names, not across the screen from them (160 columns)."""
        width = min(options.max_width, _natural_width(self.titles, self.rows) + PLAYER_SLACK)
        rows = self.rows
        if self.spare and _names_cut(self.titles, rows, width, self.shorts):
            rows = [[*row[:3], *("" if str(cell) in self.spare else cell for cell in row[3:])]
                    for row in rows]
        lines = _laid_out(self.titles, rows, width, self.header, self.shorts)
        if lines is None:  # (too narrow for the columns: every name as short as it goes)
            shorts = self.shorts or [None] * len(rows)
            rows = [row if short is None else [*row[:2], short, *row[3:]]
                    for row, short in zip(rows, shorts, strict=True)]
            yield _table(self.titles, rows)
        else:
            yield lines


def _names_cut(titles: list[str], rows: list[list[Text | str]], width: int,
               shorts: list[Text | None] | None = None) -> bool:
    """Whether some player's cell would not fit its column at ``width``, not even in its
    shorter words (a bot keeping Bob's seat is "Bob [bot]" before "dealer" gives way)."""
    cells = [[Text(cell) if isinstance(cell, str) else cell for cell in row] for row in rows]
    inner = _widths(titles, cells, width)
    return inner is None or any(
        row[2].cell_len > inner[2] and (short is None or short.cell_len > inner[2])
        for row, short in zip(cells, shorts or [None] * len(cells), strict=True))


#: Cells the player's column may take beyond its longest name (in a wide panel).
PLAYER_SLACK = 6


def _natural_width(titles: list[str], rows: list[list[Text | str]]) -> int:
    """The seats' width with every column as wide as its widest cell (the player's too)."""
    count = len(titles)

    def width(cell: Text | str) -> int:
        return Text(cell).cell_len if isinstance(cell, str) else cell.cell_len

    widths = [max([len(titles[k]), *(width(row[k]) for row in rows if len(row) == count)])
              for k in range(count)]
    return max(2, widths[0]) + sum(widths[1:]) + sum(sum(pad) for pad in _pads(count))


#: What may follow a player's name (in this order), kept in sight when the name is cut.
_MARKS = (" (you)", " [bot]", " [away]")


def fit_player(cell: Text, width: int, short: Text | None = None) -> Text:
    """The player's cell in ``width`` cells: ``short`` (the same player in fewer words,
    if there is one) when the cell does not fit, and a name too long is cut (with …)
    before its marks are (a long name at 80 columns hid that its player was away)."""
    if cell.cell_len <= width:
        return cell
    if short is not None:
        cell = short
        if cell.cell_len <= width:
            return cell
    plain, marks = cell.plain, 0
    for mark in reversed(_MARKS):
        if plain[:len(plain) - marks].endswith(mark):
            marks += len(mark)
    room = width - marks
    if not marks:
        return cell
    if room < 2:
        # No room for a name: the marks say more than a letter of it would (the seat's
        # number is beside them).
        return cell[len(plain) - marks + 1:]  # (each mark starts with a space)
    name = cell[:len(plain) - marks]
    name.truncate(room, overflow="ellipsis")
    return name + cell[len(plain) - marks:]


def _table(titles: list[str], rows: list[list[Text | str]]) -> Table:
    """The seats as a Rich table: the marker, the seat, the player (the rest of the
    width), then each column right-aligned."""
    table = Table(box=None, expand=True, pad_edge=False, show_edge=False)
    table.add_column(titles[0], width=2)
    table.add_column(titles[1], no_wrap=True)
    table.add_column(titles[2], ratio=1, no_wrap=True)
    for title in titles[3:]:
        table.add_column(title, justify="right", no_wrap=True)
    for row in rows:
        table.add_row(*row)
    return table


def _pads(count: int) -> list[tuple[int, int]]:
    return [(0 if k == 0 else 1, 0 if k == count - 1 else 1) for k in range(count)]


def _widths(titles: list[str], cells: list[list[Text]], width: int) -> list[int] | None:
    """Each column's width inside its padding, as Rich's table would make them (see
    :func:`_laid_out`), or ``None`` when they do not fit in ``width``."""
    count = len(titles)
    pads = _pads(count)
    # (A list for max: with no seats yet, there are no cells but the titles.)
    inner = [2] + [max([len(titles[k]), *(row[k].cell_len for row in cells)])
                   for k in range(1, count)]
    if any(len(row) != count for row in cells) or any(
            row[0].cell_len > inner[0] for row in cells):
        return None
    fixed = sum(inner[k] + sum(pads[k]) for k in range(count) if k != 2)
    inner[2] = width - fixed - sum(pads[2])
    return inner if inner[2] >= 1 else None


def _laid_out(titles: list[str], rows: list[list[Text | str]], width: int,
              header: Style, shorts: list[Text | None] | None = None) -> Text | None:
    """:func:`_table` as lines of text, cell for cell and style for style the same, or
    ``None`` when the columns do not fit in ``width`` (Rich would squeeze them).

    Rich's table measures and renders every cell each time the seats change (nearly
    every move), a large share of an update's repaint; these columns are simple enough
    to lay out directly, with Rich's own rules: one space between columns on each side
    (none at the edges), the first column 2 wide, the others as wide as their widest
    cell, the player's taking what is left.
    """
    count = len(titles)
    pads = _pads(count)
    cells = [[Text(cell) if isinstance(cell, str) else cell for cell in row] for row in rows]
    inner = _widths(titles, cells, width)
    if inner is None:
        return None
    for row, short in zip(cells, shorts or [None] * len(cells), strict=True):
        row[2] = fit_player(row[2], inner[2], short)
    out = Text(no_wrap=True, overflow="crop")
    for number, row in enumerate([[Text(t) for t in titles], *cells]):
        line = Text(style=header if number == 0 else "")
        for k, cell in enumerate(row):
            cell = cell.copy()
            if k < 3:
                cell.truncate(inner[k], overflow="ellipsis", pad=True)
            else:
                cell.rstrip()
                cell.truncate(inner[k], overflow="ellipsis")
                cell.pad_left(inner[k] - cell.cell_len)
            line.append(" " * pads[k][0])
            line.append_text(cell)
            line.append(" " * pads[k][1])
        if number:
            out.append("\n")
        out.append_text(line)
    return out
