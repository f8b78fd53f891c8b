"""The public row (where the next clue comes from) and the face-down supply per colour.

Attributes: ``public`` (the row's tiles, ascending), ``selected`` (the tile a sort or
compare would use, while you may ask a clue; ``None`` otherwise), ``supply`` (face-down
count per colour) and ``revealing`` (you may reveal now: the supply is drawn as keys).
A click on a tile posts :class:`PublicRow.TileClicked`, on a colour of the supply
:class:`PublicRow.ColourClicked`.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual import events
from textual.message import Message
from textual.reactive import reactive

from tui.games.gotfive.text import LETTERS, colour_style, tile_text
from tui.widgets.lines import TextLines

#: The row's label and the supply's, longest first (``PublicRow.spans``).
WORDINGS = (("Public ", "│ face down "), ("Public ", "│ down "), ("", "│ down "))


class PublicRow(TextLines):
    """The public row and the supply, on one line (see the module docstring)."""

    DEFAULT_CSS = """
    PublicRow { height: 1; width: 1fr; }
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

    def spans(self) -> tuple[Text, list[tuple[int, int, str, int]]]:
        """The line as it fits the row's width now (the longest of its wordings that
        fits: "face down" becomes "down", then the "Public" label goes), and where each
        clickable part of it lies: (start, end, kind, value)."""
        width = self.content_region.width
        for words in WORDINGS:
            out, spans = self._spans(*words)
            if not width or out.cell_len <= width:
                break
        return out, spans

    def _spans(self, label: str, down: str) -> tuple[Text, list[tuple[int, int, str, int]]]:
        out = Text()
        out.append(label, style="bold")
        spans: list[tuple[int, int, str, int]] = []
        if not self.public:
            out.append("(empty) ", style="dim")
        for i, tile in enumerate(self.public):
            start = out.cell_len
            chosen = i == self.selected
            out.append("▸" if chosen else " ", style="bold")
            out.append_text(tile_text(tile, style="reverse" if chosen else ""))
            out.append(" ")
            spans.append((start, out.cell_len, "tile", i))
        out.append(down, style="dim" if not self.revealing else "bold")
        for colour, count in enumerate(self.supply):
            start = out.cell_len
            style = colour_style(colour) if count else "dim"
            if self.revealing and count:
                style += " reverse"
            out.append(LETTERS[colour], style=style)
            out.append(f"{count} ", style="" if count else "dim")
            spans.append((start, out.cell_len, "colour", colour))
        return out, spans

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
        for start, end, kind, value in spans:
            if start <= offset.x < end:
                if kind == "tile":
                    self.post_message(self.TileClicked(value))
                else:
                    self.post_message(self.ColourClicked(value))
                return
