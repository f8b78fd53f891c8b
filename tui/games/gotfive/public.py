"""The public row (where the next clue comes from) and the face-down supply per colour.

Attributes: ``public`` (the row's tiles, ascending), ``selected`` (the tile a sort or
compare would use, while you may ask a clue; ``None`` otherwise), ``supply`` (face-down
count per colour) and ``revealing`` (you may reveal now: the supply is drawn as keys).
A click on a tile posts :class:`PublicRow.TileClicked`, on a colour of the supply
:class:`PublicRow.ColourClicked`.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from rich.cells import cell_len
from rich.text import Text
from textual import events
from textual.message import Message
from textual.reactive import reactive

from tui.games.gotfive.text import LETTERS, colour_style, tile_text
from tui.widgets.lines import TextLines

#: The row's label and the supply's, and whether the supply goes on a line of its own,
#: longest first (``PublicRow.spans``): one line where it fits, else two. The face-down
#: piles are "face down" at every width ("down" alone read as a direction, and a
#: "supply" at a shorter wording read as something else than the "face down" of the
#: turn before).
WORDINGS = (("Public ", "│ face down ", False), ("", "│ face down ", False),
            ("Public ", "Face down ", True), ("", "Face down ", True))


class Span(NamedTuple):
    """Where a clickable part of the row lies: its line, first and end cell."""

    line: int
    start: int
    end: int
    kind: str  # "tile" or "colour"
    value: int


class PublicRow(TextLines):
    """The public row and the supply, on one line (see the module docstring)."""

    DEFAULT_CSS = """
    PublicRow { height: auto; width: 1fr; }
    """

    class TileClicked(Message):
        """The player clicked public tile ``index``."""

        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index

    class ColourClicked(Message):
        """The player clicked colour ``colour`` of the supply."""

        def __init__(self, colour: int) -> None:
            super().__init__()
            self.colour = colour

    public: reactive[list[dict[str, Any]]] = reactive(list, always_update=True)
    supply: reactive[list[int]] = reactive(list, always_update=True)
    selected: reactive[int | None] = reactive(None)
    revealing: reactive[bool] = reactive(False)

    def spans(self, width: int | None = None) -> tuple[Text, list[Span]]:
        """The row as it fits ``width`` (the row's width now): the longest of its
        wordings that fits — the "Public" label goes, then the supply takes a line of
        its own, then the tiles take more than one — and where each clickable part
        lies. (The blank after a line's last part needs no room: it is cut.)"""
        width = self.content_region.width if width is None else width
        for words in WORDINGS:
            out, spans = self._spans(*words)
            if not width or all(cell_len(line.plain.rstrip()) <= width
                                for line in out.split("\n")):
                return out, spans
        # Not even the tiles alone fit a line (a phone): they take as many as they need.
        return self._spans(*WORDINGS[-1], width=width)

    def _spans(self, label: str, down: str, apart: bool,
               width: int = 0) -> tuple[Text, list[Span]]:
        out = Text()
        out.append(label, style="bold")
        spans: list[Span] = []
        if not self.public:
            out.append("(empty) ", style="dim")
        line, left = 0, 0  # (``left``: where the line being filled starts in ``out``)
        for i, tile in enumerate(self.public):
            chosen = i == self.selected
            piece = Text()
            piece.append("▸" if chosen else " ", style="bold")
            piece.append_text(tile_text(tile, style="reverse" if chosen else ""))
            piece.append(" ")
            if apart and width and out.cell_len > left \
                    and out.cell_len - left + piece.cell_len - 1 > width:
                # Too many tiles for a phone's line: they go on to the next (cut, the
                # last one showed too few dots).
                out.rstrip()
                out.append("\n")
                line, left = line + 1, out.cell_len
            start = out.cell_len - left
            out.append_text(piece)
            spans.append(Span(line, start, out.cell_len - left, "tile", i))
        if apart:
            out.rstrip()
            out.append("\n")
            line, left = line + 1, out.cell_len
        out.append(down, style="dim" if not self.revealing else "bold")
        for colour, count in enumerate(self.supply):
            start = out.cell_len - left
            style = colour_style(colour) if count else "dim"
            if self.revealing and count:
                style += " reverse"
            # "9A": nine A tiles, count first ("A9" read as a tile, A with the number 9;
            # "A×9" took the room of the sixth public tile at 80 columns).
            out.append(str(count), style="" if count else "dim")
            out.append(LETTERS[colour], style=style)
            out.append(" ")
            spans.append(Span(line, start, out.cell_len - left, "colour", colour))
        return out, spans

    def watch_public(self) -> None:
        self._follow_height()

    def watch_supply(self) -> None:
        self._follow_height()

    def _follow_height(self) -> None:
        """A layout only when the row goes from one line to two or back (not at every
        update: most leave its height as it was)."""
        width, height = self.content_region.width, self.content_region.height
        if width and len(self.spans(width)[0].split("\n")) != height:
            self.refresh(layout=True)

    def get_content_height(self, container: Any, viewport: Any, width: int) -> int:
        """One line, or more where the supply needs a line of its own (and the tiles
        more than one)."""
        return len(self.spans(width)[0].split("\n"))

    def render(self) -> Text:
        """The row and the supply."""
        text, _ = self.spans()
        text.no_wrap = True
        text.overflow = "crop"
        return text

    def on_click(self, event: events.Click) -> None:
        """Tell the screen which tile or colour was clicked."""
        offset = event.get_content_offset(self)
        if offset is None:
            return
        _, spans = self.spans()
        for span in spans:
            if span.line == offset.y and span.start <= offset.x < span.end:
                if span.kind == "tile":
                    self.post_message(self.TileClicked(span.value))
                else:
                    self.post_message(self.ColourClicked(span.value))
                return
