"""Racks: yours as a grid of tiles and notches, the others' one line each.

Your rack reads left (−) to right (+). Between and around its five tiles sit the six
notches; a tile you had sorted stays in its notch (notch k: k of your numbers are
lower), stacked when several share one. A tile you compared stays under the position
it was compared with, marked ``=`` (same dots) or ``≠`` (different). The others' racks
read the same way on one line: ``‹B14••›`` between their tiles is a sorted tile in
its notch, ``(≠C9•)`` after a tile a compared one.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.text import Text
from textual import events
from textual.message import Message
from textual.reactive import reactive

from engine.gotfive import RACK
from tui.games.gotfive.text import colour_style, letter, tile_text
from tui.widgets.lines import TextLines


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


class MyRack(TextLines):
    """Your rack (or, once you are out, your face-up rack) with its clues in place.

    Attributes: ``tiles`` (your rack from the view), ``clues`` (every clue; only yours
    are drawn), ``seat`` and ``comparing`` (the compare keys 1–5 work now: the
    position numbers are drawn bold). A click on a tile posts
    :class:`MyRack.PositionClicked`.
    """

    DEFAULT_CSS = """
    MyRack { height: auto; min-height: 3; width: 1fr; }
    """

    class PositionClicked(Message):
        """The player clicked rack position ``position`` (0..4)."""

        def __init__(self, position: int) -> None:
            super().__init__()
            self.position = position

    tiles: reactive[list[dict[str, Any]]] = reactive(list, always_update=True, layout=True)
    clues: reactive[list[dict[str, Any]]] = reactive(list, always_update=True, layout=True)
    seat: reactive[int] = reactive(0)
    comparing: reactive[bool] = reactive(False)
    #: Lines under the header at most (0: as many as the clues need).
    max_lines: reactive[int] = reactive(0, layout=True)
    #: No header line (a small terminal): each position's number goes before its tile.
    compact: reactive[bool] = reactive(False, layout=True)

    def columns(self) -> tuple[int, int]:
        """(tile column width, notch column width) for the current width."""
        return rack_columns(self.size.width)

    def parts(self, width: int | None = None) -> tuple[range, ...]:
        """The rack's rows of positions at ``width`` (the current one)."""
        return rack_parts(self.size.width if width is None else width)

    def get_content_height(self, container: Any, viewport: Any, width: int) -> int:
        """A header, the tiles, then as many lines as the tallest stack of clues."""
        return grid_height(self.clues, self.seat, self.max_lines, self.parts(width),
                           header=not self.compact)

    def set_attributes(self, **values: Any) -> None:
        """Set those of the attributes (``tiles``, ``clues``, ``seat``, ``comparing``) whose
        value changed: a repaint, and a layout of the screen only if the rack's height
        changes with them (set one by one, each asked for a layout)."""
        changed = {name: value for name, value in values.items() if getattr(self, name) != value}
        if not changed:
            return
        drawn = self.drawn_from()
        before = grid_height(self.clues, self.seat, self.max_lines, self.parts())
        for name, value in changed.items():
            self.set_reactive(getattr(MyRack, name), value)
        if self.drawn_from() == drawn:
            # Another seat's clue (nearly every other update): the rack draws only its
            # own clues, so it would draw the same again.
            return
        self.refresh(layout=grid_height(self.clues, self.seat, self.max_lines,
                                        self.parts()) != before)

    def drawn_from(self) -> tuple[object, ...]:
        """What :meth:`render` draws the rack from: the tiles, this seat's own clues
        (the newest clue's tile drawn reversed, if it is one of them), ``comparing``."""
        own = [clue for clue in self.clues if clue.get("seat") == self.seat]
        latest = newest(self.clues)
        mine = latest if any(clue.get("tile") == latest for clue in own) else None
        return self.seat, self.tiles, own, mine, self.comparing

    def render(self) -> Text:
        """Header (positions), the tiles with the first sorted tiles, then the stacks."""
        tile_w, notch_w = self.columns()
        return grid(self.tiles, self.clues, self.seat, tile_w, notch_w,
                    comparing=self.comparing, max_lines=self.max_lines,
                    header=not self.compact, parts=self.parts())

    def on_click(self, event: events.Click) -> None:
        """A click on one of the five tiles (or the clues under it)."""
        offset = event.get_content_offset(self)
        if offset is None:
            return
        tile_w, notch_w = self.columns()
        x, y = offset.x - 2, offset.y
        header = not self.compact
        for part in self.parts():
            lines = part_height(self.clues, self.seat, self.max_lines, part) + header
            if y < lines:
                if y < header:
                    return
                for k in part:
                    if k == RACK:
                        break
                    start = notch_w * (k - part.start + 1) + tile_w * (k - part.start)
                    if start <= x < start + tile_w:
                        self.post_message(self.PositionClicked(k))
                        return
                return
            y -= lines


#: The rack in one row: notch 0, tile 1 … tile 5, notch 5.
WHOLE = (range(RACK + 1),)
#: The rack in two rows (a phone held upright): notch 0 to tile 3, then notch 3 to
#: notch 5 — each notch drawn once, in reading order.
HALVES = (range(3), range(3, RACK + 1))


def rack_columns(width: int) -> tuple[int, int]:
    """(tile column width, notch column width) for a rack ``width`` cells wide: as wide
    as the row has room for, never narrower than the widest tile and clue they hold
    (``=C33•••`` under a tile, ``C33•••`` in a notch)."""
    if rack_parts(width) == HALVES:
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
    """The rack in one row, or in two where one row does not fit ``width``."""
    return WHOLE if width >= 4 + 5 * 7 + 6 * 6 else HALVES


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
    phone held upright), each drawn so, one under the other.
    """
    own = seat if theirs else None
    notches, compared = clues_of(clues, seat)
    position_style = "bold reverse" if comparing else "bold"
    rows: list[Text] = []
    for part in parts:
        height = part_height(clues, seat, max_lines, part)
        sorted_cells = {k: _stack([tile_text(n, style=fresh(n, clues, own))
                                   for n in notches[k]], height) for k in part}
        compared_cells = {k: _stack([compared_text(n, same, fresh(n, clues, own))
                                     for n, same in compared[k]], height - 1)
                          for k in part if k < RACK}
        first, last = part.start == 0, part.stop == RACK + 1
        if header:
            top = Text("  ")
            for k in part:
                top.append(f"n{k}".center(notch_w), style="dim")
                if k < RACK:
                    top.append(str(k + 1).center(tile_w), style=position_style)
            rows.append(top)
        for line in range(height):
            row = Text()
            row.append("− " if line == 0 and first else "  ", style="bold")
            for k in part:
                if line < len(sorted_cells[k]):
                    cell = sorted_cells[k][line]
                elif line == 0:
                    cell = Text("┆", style="dim")
                else:
                    cell = Text("")
                row.append_text(_centre(cell, notch_w))
                if k == RACK:
                    break
                if line == 0:
                    row.append_text(_centre(_face(tiles, k, header, position_style), tile_w))
                elif line - 1 < len(compared_cells[k]):
                    row.append_text(_centre(compared_cells[k][line - 1], tile_w))
                else:
                    row.append(" " * tile_w)
            if line == 0 and last:
                row.append(" +", style="bold")
            rows.append(row)
    return Text("\n", no_wrap=True, overflow="crop").join(rows)


def _face(tiles: Sequence[dict[str, Any]], k: int, header: bool, position_style: str) -> Text:
    """Rack tile ``k`` on the tiles' line: face up without brackets (so "[C ?]" always
    means hidden), hidden in brackets — and, without a header line, after its
    position's number (``1[A?]``)."""
    tile = tiles[k] if k < len(tiles) else {}
    if "n" in tile:
        return tile_text(tile, style="underline")
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


class OthersPanel(TextLines):
    """The other players' racks, one line each, with their clues in place.

    Attributes: ``racks`` (every seat's rack from the view), ``clues``, ``names``,
    ``me`` (left out; ``None`` for a spectator: every seat is drawn), ``turn``,
    ``out`` and ``winners``.
    """

    DEFAULT_CSS = """
    OthersPanel { height: auto; width: 1fr; }
    """

    racks: reactive[list[list[dict[str, Any]]]] = reactive(list, always_update=True,
                                                           layout=True)
    # Each of these changes how many lines a rack takes (a clue in place, a longer name,
    # "out"): the panel's height follows, or the last racks would be cut off.
    clues: reactive[list[dict[str, Any]]] = reactive(list, always_update=True, layout=True)
    names: reactive[list[str]] = reactive(list, always_update=True, layout=True)
    me: reactive[int | None] = reactive(None, layout=True)
    turn: reactive[int | None] = reactive(None)
    out: reactive[list[bool]] = reactive(list, always_update=True, layout=True)
    winners: reactive[list[int]] = reactive(list, always_update=True)
    #: Draw each rack as a grid (as yours is) instead of one line.
    wide: reactive[bool] = reactive(False, layout=True)

    def seats(self) -> list[int]:
        """The seats drawn here."""
        return [s for s in range(len(self.racks)) if s != self.me]

    #: (width, height) of the panel's content at its last layout.
    _laid_out: tuple[int, int] = (0, 0)

    def get_content_height(self, container: Any, viewport: Any, width: int) -> int:
        """The lines :meth:`render` draws at ``width``."""
        height = max(1, len(self.lines(width)))
        self._laid_out = (width, height)
        return height

    def set_attributes(self, **values: Any) -> None:
        """Set those of the attributes (``racks``, ``clues``, ``names``, ``me``, ``turn``,
        ``out``, ``winners``) whose value changed: a repaint, and a layout of the screen
        only if the panel's height changes with them (set one by one, most asked for a
        layout)."""
        changed = {name: value for name, value in values.items() if getattr(self, name) != value}
        if not changed:
            return
        for name, value in changed.items():
            self.set_reactive(getattr(OthersPanel, name), value)
        width, height = self._laid_out
        self.refresh(layout=not width or max(1, len(self.lines(width))) != height)

    def title(self, seat: int, name_w: int) -> Text:
        """Whose rack it is, and whether it is their turn (or they won)."""
        if seat in self.winners:
            mark = Text()
            mark.append("🏆", style="bold")
        elif seat == self.turn:
            mark = Text()
            mark.append("▶", style="bold reverse")
            mark.append(" ")
        else:
            mark = Text("  ")
        out = mark
        name = self.names[seat] if seat < len(self.names) else f"seat {seat + 1}"
        out.append(f"{seat + 1} {name}"[:name_w].ljust(name_w),
                   style="bold" if seat == self.turn else "")
        return out

    def tokens(self, seat: int) -> list[Text]:
        """One seat's rack, − to +, with its notches and compared tiles, in pieces that
        may be wrapped between (never inside)."""
        notches, compared = clues_of(self.clues, seat)
        out = [Text("−", style="bold")]
        rack = self.racks[seat]
        for k in range(RACK + 1):
            for n in notches[k]:
                piece = Text()
                piece.append("‹", style="dim")
                piece.append_text(tile_text(n, style=fresh(n, self.clues, seat)))
                piece.append("›", style="dim")
                out.append(piece)
            if k == RACK:
                break
            piece = tile_text(rack[k] if k < len(rack) else {})
            for n, same in compared[k]:
                piece.append("(")
                piece.append_text(compared_text(n, same, fresh(n, self.clues, seat)))
                piece.append(")")
            out.append(piece)
        out.append(Text("+", style="bold"))
        if seat < len(self.out) and self.out[seat]:
            out.append(Text(" ✗ out (rack face up)", style="italic"))
        return out

    #: The last lines drawn, and what they were drawn from (see :meth:`lines`).
    _drawn: tuple[tuple[object, ...], list[Text]] | None = None

    def lines(self, width: int) -> list[Text]:
        """Every seat drawn, each on as many lines as it needs at ``width``.

        Asked for several times an update (the height, the layout, the repaint): drawn
        once for the same attributes and width (the views' values are fresh objects each
        update, never changed in place).
        """
        key = (width, self.racks, self.clues, self.names, self.me, self.turn, self.out,
               self.winners, self.wide)
        if self._drawn is not None and self._drawn[0] == key:
            return [line.copy() for line in self._drawn[1]]
        lines = self._lines(width)
        self._drawn = (key, [line.copy() for line in lines])
        return lines

    def _lines(self, width: int) -> list[Text]:
        seats = self.seats()
        if not seats:
            return []
        if self.wide:
            tile_w, notch_w = row_columns(width)
            out: list[Text] = []
            for s in seats:
                head = self.title(s, 40)
                head.rstrip()
                if s < len(self.out) and self.out[s]:
                    head.append("  ✗ out (rack face up)", style="italic")
                out.append(head)
                out.extend(grid(self.racks[s], self.clues, s, tile_w, notch_w,
                                theirs=True).split("\n"))
            return out
        name_w = min(14, max(len(self.names[s]) if s < len(self.names) else 6
                             for s in seats) + 2)
        indent = 2 + name_w + 1
        out = []
        for s in seats:
            line = self.title(s, name_w)
            for piece in self.tokens(s):
                if line.cell_len + 1 + piece.cell_len > width and line.cell_len > indent:
                    out.append(line)
                    line = Text(" " * indent)
                line.append(" ")
                line.append_text(piece)
            out.append(line)
        return out

    def render(self) -> Text:
        """Every other seat (wrapped where a line would not fit)."""
        out = Text("\n").join(self.lines(self.size.width))
        out.no_wrap = True
        out.overflow = "crop"
        return out
