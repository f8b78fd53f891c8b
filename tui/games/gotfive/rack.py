"""Racks: yours as a grid of tiles and notches, the others' one line each.

Your rack reads left (−) to right (+). Between and around its five tiles sit the six
notches; a tile you had sorted stays in its notch (notch k: k of your numbers are
lower), stacked when several share one. A tile you compared stays under the position
it was compared with, marked ``=`` (same dots) or ``≠`` (different). The others' racks
read the same way on one line: ``‹B14••›`` between their tiles is a sorted tile in
its notch, ``(≠C9•)`` after a tile a compared one.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual import events
from textual.message import Message
from textual.reactive import reactive

from engine.gotfive import RACK
from tui.games.gotfive.grid import (
    clues_of,
    compared_text,
    fresh,
    grid,
    grid_height,
    newest,
    part_height,
    rack_columns,
    rack_parts,
    row_columns,
    tile_spans,
)
from tui.games.gotfive.text import tile_text
from tui.widgets.lines import TextLines
from tui.widgets.wrapped import wrap_pieces

__all__ = ["MyRack", "OthersPanel", "clues_of", "grid"]


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
                spans = tile_spans(self.tiles, self.clues, self.seat, part, tile_w, notch_w,
                                   max_lines=self.max_lines, header=header)
                for k, span in spans.items():
                    if x in span:
                        self.post_message(self.PositionClicked(k))
                return
            y -= lines


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
        # The end mark goes with the last piece: wrapped, a rack still ends "+" (it was
        # left out where it would have stood alone, and one rack of two had none).
        last = out[-1].copy()
        last.append(" ")
        last.append("+", style="bold")
        out[-1] = last
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
            # (No line for the end mark alone: "−" says the way.)
            out += wrap_pieces(self.tokens(s), width, indent,
                               first=self.title(s, name_w) + " ")
        return out

    def render(self) -> Text:
        """Every other seat (wrapped where a line would not fit)."""
        out = Text("\n").join(self.lines(self.size.width))
        out.no_wrap = True
        out.overflow = "crop"
        return out
