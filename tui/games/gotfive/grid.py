"""A Got Five! rack drawn as a grid: its tiles, the notches between them, and each clue
in place (your rack, and an opponent's in the wide layout and the review).

Your rack reads left (−) to right (+). Between and around its five tiles sit the six
notches; a tile you had sorted stays in its notch (notch k: k of your numbers are
lower), stacked when several share one. A tile you compared stays under the position
it was compared with, marked ``=`` (same dots) or ``≠`` (different).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.text import Text

from engine.gotfive import RACK
from tui.games.gotfive.text import colour_style, letter, tile_text


def clues_of(clues: Sequence[dict[str, Any]], seat: int) -> tuple[list[list[int]],
                                                                   list[list[tuple[int, bool]]]]:
    """A seat's clues placed on its rack: sorted tiles per notch (0..5), and
    (tile, same) per position (0..4), each ascending."""
    notches: list[list[int]] = [[] for _ in range(RACK + 1)]
    compared: list[list[tuple[int, bool]]] = [[] for _ in range(RACK)]
    for clue in clues:
        if clue.get("seat") != seat:
            continue
        if clue.get("clue") == "sort" and 0 <= clue.get("notch", -1) <= RACK:
            notches[clue["notch"]].append(clue["tile"])
        elif clue.get("clue") == "compare" and 0 <= clue.get("position", -1) < RACK:
            compared[clue["position"]].append((clue["tile"], bool(clue.get("same"))))
    for notch in notches:
        notch.sort()
    for position in compared:
        position.sort()
    return notches, compared


def compared_text(n: int, same: bool, style: str = "") -> Text:
    """A compared tile with its answer: ``=C33•`` or ``≠C33•``."""
    out = Text()
    out.append("=" if same else "≠", style="bold")
    out.append_text(tile_text(n))
    if style:
        out.stylize(style)
    return out


def newest(clues: Sequence[dict[str, Any]]) -> int | None:
    """The tile of the latest clue (drawn reversed, so the last move is easy to find)."""
    return clues[-1].get("tile") if clues else None


def fresh(n: int, clues: Sequence[dict[str, Any]], seat: int | None = None) -> str:
    """The extra style of clue tile ``n``: reversed if it is the latest clue's (at the
    table); with ``seat``, also underlined if it is that seat's latest clue (each
    opponent's last move stays marked after the others have played)."""
    styles = ["reverse"] if n == newest(clues) else []
    if seat is not None and n == newest([c for c in clues if c.get("seat") == seat]):
        styles.append("underline")
    return " ".join(styles)


#: The rack in one row: notch 0, tile 1 … tile 5, notch 5.
WHOLE = (range(RACK + 1),)
#: The rack in two rows (a phone held upright): notch 0 to tile 3, then notch 3 to
#: notch 5 — each notch drawn once, in reading order.
HALVES = (range(3), range(3, RACK + 1))
#: The rack in three rows, where two do not fit (a phone's 40 columns less a scrollbar):
#: two positions a row.
THIRDS = (range(2), range(2, 4), range(4, RACK + 1))
#: The least width of a rack in two rows.
HALVES_WIDTH = 40


def rack_columns(width: int) -> tuple[int, int]:
    """(tile column width, notch column width) for a rack ``width`` cells wide: as wide
    as the row has room for, never narrower than the widest tile and clue they hold
    (``=C33•••`` under a tile, ``C33•••`` in a notch)."""
    if rack_parts(width) != WHOLE:
        return 7, max(6, min(7, (width - 4 - 3 * 7) // 3))
    return row_columns(width)


def row_columns(width: int) -> tuple[int, int]:
    """(tile column width, notch column width) of a rack drawn in one row, ``width``
    cells wide (cropped where it is narrower than that row)."""
    room = max(40, width - 4)
    tile = max(7, min(12, room // 11))
    notch = max(6, min(tile, (room - 5 * tile) // 6))
    return tile, notch


def rack_parts(width: int) -> tuple[range, ...]:
    """The rack in one row, or in two (three) where one (two) do not fit ``width``: at
    40 columns a scrollbar left 39, and two rows lost their last cell ("3[E?")."""
    if width >= 4 + 5 * 7 + 6 * 6:
        return WHOLE
    return HALVES if width >= HALVES_WIDTH else THIRDS


def part_height(clues: Sequence[dict[str, Any]], seat: int, max_lines: int,
                part: range) -> int:
    """Lines under the header of one row of the rack (notches and positions ``part``):
    the tiles' line, then the tallest stack of clues (at most ``max_lines``, when that
    is not 0)."""
    notches, compared = clues_of(clues, seat)
    lines = max(max(len(notches[k]) for k in part),
                1 + max((len(compared[k]) for k in part if k < RACK), default=0), 1)
    return min(lines, max(2, max_lines)) if max_lines else lines


def grid_height(clues: Sequence[dict[str, Any]], seat: int, max_lines: int = 0,
                parts: tuple[range, ...] = WHOLE, *, header: bool = True) -> int:
    """Lines of :func:`grid` for ``seat``: for each row of the rack a header (when
    ``header``), then the tallest stack of clues (at most ``max_lines`` under the
    header, when that is not 0)."""
    return sum(header + part_height(clues, seat, max_lines, part) for part in parts)


def _stack(entries: list[Text], room: int) -> list[Text]:
    """A column's entries in ``room`` lines: the last line says how many more there are."""
    if len(entries) <= room:
        return entries
    return [*entries[:room - 1], Text(f"…+{len(entries) - room + 1}", style="italic")]


def grid(tiles: Sequence[dict[str, Any]], clues: Sequence[dict[str, Any]], seat: int,
         tile_w: int, notch_w: int, *, comparing: bool = False, max_lines: int = 0,
         header: bool = True, theirs: bool = False,
         parts: tuple[range, ...] = WHOLE) -> Text:
    """A rack as a grid: notch, tile, notch … tile, notch, with each clue in place.

    The first line numbers the positions (bold and reversed while ``comparing``); the
    next holds the tiles and the lowest sorted tile of each notch; under a notch its
    other sorted tiles, under a tile the tiles compared with it. With ``max_lines``
    (a small terminal) a stack too tall ends in "…+k" (k more tiles). Without
    ``header`` (a small terminal: a line more for the log) each hidden tile carries its
    position's number, ``1[A?]``. An opponent's rack (``theirs``) underlines its latest
    clue (see :func:`fresh`). ``parts`` splits the rack into rows (:data:`HALVES`: a
    phone held upright), each drawn so, one under the other. Columns are ``tile_w`` and
    ``notch_w`` wide, give or take what :func:`column_widths` moves between them.
    """
    position_style = "bold reverse" if comparing else "bold"
    rows: list[Text] = []
    for part in parts:
        columns, widths = fitted_cells(tiles, clues, seat, part, tile_w, notch_w,
                                       max_lines=max_lines, header=header,
                                       position_style=position_style,
                                       own=seat if theirs else None)
        first, last = part.start == 0, part.stop == RACK + 1
        if header:
            top = Text("  ")
            for c, width in enumerate(widths):
                k = part.start + c // 2
                if c % 2 == 0:
                    top.append(f"n{k}".center(width), style="dim")
                else:
                    top.append(str(k + 1).center(width), style=position_style)
            rows.append(top)
        for line in range(len(columns[0])):
            row = Text()
            row.append("− " if line == 0 and first else "  ", style="bold")
            for column, width in zip(columns, widths, strict=True):
                row.append_text(_centre(column[line], width))
            if line == 0 and last:
                row.append(" +", style="bold")
            rows.append(row)
    return Text("\n", no_wrap=True, overflow="crop").join(rows)


def fitted_cells(tiles: Sequence[dict[str, Any]], clues: Sequence[dict[str, Any]], seat: int,
                 part: range, tile_w: int, notch_w: int, **how: Any
                 ) -> tuple[list[list[Text]], list[int]]:
    """:func:`part_cells` and their :func:`column_widths`: the sorted tiles marked where
    the row has room for the marks, bare where it has not (a notch full of them)."""
    for marked in (True, False):
        columns = part_cells(tiles, clues, seat, part, marked=marked, **how)
        widths = column_widths(columns, tile_w, notch_w)
        room = sum(notch_w if c % 2 == 0 else tile_w for c in range(len(columns)))
        if sum(widths) <= room:
            break
    return columns, widths


def part_cells(tiles: Sequence[dict[str, Any]], clues: Sequence[dict[str, Any]], seat: int,
               part: range, *, max_lines: int = 0, header: bool = True,
               position_style: str = "bold", own: int | None = None,
               marked: bool = True) -> list[list[Text]]:
    """One row of a rack (notches and positions ``part``) as columns, left to right —
    notch, tile, notch … — each a cell per line (empty where nothing is); a tile sorted
    into a notch ``marked`` as in it."""
    height = part_height(clues, seat, max_lines, part)
    notches, compared = clues_of(clues, seat)
    # A tile sorted into a notch is marked as in it, ‹E25••›: a second one in a notch,
    # on the line of the compared tiles, read as one of them; and a rack's tiles face
    # up (its player out, or the game over) read like the sorted tiles beside them.
    columns: list[list[Text]] = []
    for k in part:
        cells = _stack([_sorted(n, fresh(n, clues, own), marked) for n in notches[k]],
                       height)
        if not cells:
            cells = [Text("┆", style="dim")]
        columns.append(cells + [Text("") for _ in range(height - len(cells))])
        if k == RACK:
            break
        cells = [_face(tiles, k, header, position_style),
                 *_stack([compared_text(n, same, fresh(n, clues, own))
                          for n, same in compared[k]], height - 1)]
        columns.append(cells + [Text("") for _ in range(height - len(cells))])
    return columns


def _sorted(n: int, style: str, marked: bool) -> Text:
    """A tile sorted into a notch: ``‹E25••›`` (``E25••`` unless ``marked``)."""
    if not marked:
        return tile_text(n, style=style)
    out = Text("‹", style="dim")
    out.append_text(tile_text(n, style=style))
    out.append("›", style="dim")
    return out


def column_widths(columns: Sequence[Sequence[Text]], tile_w: int, notch_w: int) -> list[int]:
    """Each column's width: ``notch_w`` or ``tile_w``, except that a column whose
    widest cell would touch its neighbour's (``=C43•••`` under a tile beside
    ``A26•••`` in a notch, at 80 columns) is widened by a cell, taken from the columns
    with the most room to spare, so the row stays as wide as it was where it can."""
    base = [notch_w if c % 2 == 0 else tile_w for c in range(len(columns))]
    need = [max(cell.cell_len for cell in column) + 1 for column in columns]
    widths = [max(b, n) for b, n in zip(base, need, strict=True)]
    over = sum(widths) - sum(base)
    while over > 0:
        spare = [w - n for w, n in zip(widths, need, strict=True)]
        most = max(range(len(widths)), key=spare.__getitem__)
        if spare[most] <= 0:
            break  # (the row is wider than asked: the widget crops it)
        widths[most] -= 1
        over -= 1
    return widths


def tile_spans(tiles: Sequence[dict[str, Any]], clues: Sequence[dict[str, Any]], seat: int,
               part: range, tile_w: int, notch_w: int, *, max_lines: int = 0,
               header: bool = True) -> dict[int, range]:
    """Where each position of ``part`` lies in its row, as :func:`grid` draws it
    (cells after the row's leading "− ")."""
    _, widths = fitted_cells(tiles, clues, seat, part, tile_w, notch_w,
                             max_lines=max_lines, header=header)
    spans: dict[int, range] = {}
    x = 0
    for c, width in enumerate(widths):
        if c % 2 == 1:
            spans[part.start + c // 2] = range(x, x + width)
        x += width
    return spans


def _face(tiles: Sequence[dict[str, Any]], k: int, header: bool, position_style: str) -> Text:
    """Rack tile ``k`` on the tiles' line: face up without brackets or underline (so
    "[C ?]" always means hidden), hidden in brackets — and, without a header line, after its
    position's number (``1[A?]``)."""
    tile = tiles[k] if k < len(tiles) else {}
    if "n" in tile:
        # Plain: a sorted tile beside it has its ‹›, and the underline is the latest
        # clue's alone (underlined too, the rack's tiles hid it, in mono above all).
        return tile_text(tile)
    face = Text()
    if header:
        face.append("[")
        face.append_text(tile_text(tile))
        face.append("]")
        return face
    face.append(str(k + 1), style=position_style)
    face.append("[")
    face.append(letter(tile.get("colour")), style=colour_style(tile.get("colour")))
    face.append("?", style="bold")
    face.append("]")
    return face


def _centre(text: Text, width: int) -> Text:
    """``text`` centred in ``width`` cells (cropped if longer)."""
    text = text.copy()
    text.truncate(width)
    room = width - text.cell_len
    left = room // 2
    out = Text(" " * left)
    out.append_text(text)
    out.append(" " * (room - left))
    return out


